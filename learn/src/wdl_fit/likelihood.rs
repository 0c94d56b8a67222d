//! The objective: the mean negative log-likelihood of the observed results under a model
//! (cross-entropy, nats per position), and its exact gradient. Positions with the same material
//! and score are pooled into cells first, so one evaluation costs one pass over the cells.

use super::load::Sample;
use patina::wdl::{material_x, Cubic, Model};
use std::collections::BTreeMap;

/// Positions with equal material and score, pooled.
struct Cell {
    x: f64,
    score: f64,
    /// White's losses, draws and wins.
    counts: [f64; 3],
}

/// The data as the likelihood reads it.
pub struct Cells {
    cells: Vec<Cell>,
    positions: f64,
}

/// The parameters: the four coefficients of `log a`'s cubic, then `log b`'s.
pub(super) type Theta = [f64; 8];

pub(super) fn to_model(theta: &Theta) -> Model {
    let (mut log_a, mut log_b): (Cubic, Cubic) = ([0.0; 4], [0.0; 4]);
    log_a.copy_from_slice(&theta[..4]);
    log_b.copy_from_slice(&theta[4..]);
    Model { log_a, log_b }
}

pub(super) fn to_theta(model: &Model) -> Theta {
    let mut theta = [0.0; 8];
    theta[..4].copy_from_slice(&model.log_a);
    theta[4..].copy_from_slice(&model.log_b);
    theta
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

impl Cells {
    /// Pools `samples` by material and score, counting each cell's losses, draws and wins.
    pub fn new(samples: &[Sample]) -> Cells {
        let mut pooled: BTreeMap<(u8, i32), [u64; 3]> = BTreeMap::new();
        for sample in samples {
            pooled.entry((sample.material, sample.score_cp)).or_default()[sample.result_halves as usize] += 1;
        }
        let cells = pooled
            .into_iter()
            .map(|((material, score), counts)| Cell {
                x: material_x(i32::from(material)),
                score: f64::from(score),
                counts: counts.map(|count| count as f64),
            })
            .collect();
        Cells { cells, positions: samples.len() as f64 }
    }

    /// The cross-entropy of `model` on this data (infinite where it gives a result no chance).
    pub fn cross_entropy(&self, model: &Model) -> f64 {
        self.evaluate(&to_theta(model), None)
    }

    /// The mean negative log-likelihood at `theta`, and its gradient into `gradient` if given.
    /// Parameters whose `a` or `b` overflow or vanish somewhere are infinitely bad.
    pub(super) fn evaluate(&self, theta: &Theta, mut gradient: Option<&mut Theta>) -> f64 {
        if let Some(gradient) = gradient.as_deref_mut() {
            *gradient = [0.0; 8];
        }
        let mut total = 0.0;
        for cell in &self.cells {
            let powers = [1.0, cell.x, cell.x * cell.x, cell.x * cell.x * cell.x];
            let dot = |c: &[f64]| c.iter().zip(powers).map(|(c, p)| c * p).sum::<f64>();
            let (a, b) = (dot(&theta[..4]).exp(), dot(&theta[4..]).exp());
            if !(a.is_finite() && b.is_finite() && b > 0.0) {
                return f64::INFINITY;
            }
            let (u, v) = ((cell.score - a) / b, (-cell.score - a) / b);
            let (win, loss) = (sigmoid(u), sigmoid(v));
            // 1 - win - loss without the cancellation when one of them is near 1.
            let draw = sigmoid(-u) - loss;
            let [n_loss, n_draw, n_win] = cell.counts;
            let mut d_a = 0.0;
            let mut d_b = 0.0;
            // (count, probability, d p / d a, d p / d b) of each result.
            let (win_da, win_db) = (-win * (1.0 - win) / b, -win * (1.0 - win) * u / b);
            let (loss_da, loss_db) = (-loss * (1.0 - loss) / b, -loss * (1.0 - loss) * v / b);
            let terms = [
                (n_win, win, win_da, win_db),
                (n_draw, draw, -win_da - loss_da, -win_db - loss_db),
                (n_loss, loss, loss_da, loss_db),
            ];
            for (count, p, p_da, p_db) in terms {
                if count == 0.0 {
                    continue;
                }
                if p <= 0.0 {
                    return f64::INFINITY;
                }
                total -= count * p.ln();
                d_a -= count * p_da / p;
                d_b -= count * p_db / p;
            }
            if let Some(gradient) = gradient.as_deref_mut() {
                // d a / d log_a[k] = a x^k, and the same for b.
                for (k, power) in powers.iter().enumerate() {
                    gradient[k] += d_a * a * power;
                    gradient[4 + k] += d_b * b * power;
                }
            }
        }
        if let Some(gradient) = gradient {
            gradient.iter_mut().for_each(|g| *g /= self.positions);
        }
        total / self.positions
    }
}
