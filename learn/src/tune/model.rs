//! The evaluation as a smooth function of the weights, the loss, and the two fits.
//!
//! A position's evaluation is `mg * phase / 24 + eg * scale / 64 * (24 - phase) / 24`, where
//! `mg` and `eg` are the coefficient sums and `scale` is the stored endgame scale of the side
//! ahead (by the sign of `eg`): `evaluate`'s blend without its integer rounding. Its predicted
//! score is `sigmoid(K * eval / 400) = 1 / (1 + 10^(-K * eval / 400))`, and the loss is the mean
//! squared error against the target `lambda * result + (1 - lambda) * sigmoid(K * search score / 400)`.
//!
//! `fit_k` finds the K that minimises the loss against results alone with the weights fixed (a
//! scan of 0.1 .. 5.0, then a golden-section search); `gradient` and `Adam` then fit the weights,
//! with `Regulariser` adding to the data's gradient an L2 pull toward the starting weights and
//! holding frozen weights still. Every sum is over a list of position indices (the training or
//! the validation side of the split). Sums over positions are split over threads in fixed
//! contiguous parts and added in order, so a run is deterministic for a given thread count.

use super::data::Dataset;
use patina::eval::{PHASE_MAX, SCALE_NORMAL};
use std::ops::Range;

/// Middlegame and endgame value of every parameter, as the fit sees them.
pub type Weights = Vec<[f64; 2]>;

/// `1 / (1 + 10^(-k * centipawns / 400))`: the expected score of a centipawn evaluation.
pub fn sigmoid(k: f64, centipawns: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * centipawns / 400.0))
}

/// How the fit turns evaluations into predictions and results into targets.
#[derive(Debug, Clone, Copy)]
pub struct Fit {
    pub k: f64,
    /// Weight of the game result in the target; the rest goes to the search score.
    pub lambda: f64,
}

impl Fit {
    fn target(&self, data: &Dataset, index: usize) -> f64 {
        let record = &data.records[index];
        let result = record.result();
        if self.lambda >= 1.0 {
            return result;
        }
        self.lambda * result + (1.0 - self.lambda) * sigmoid(self.k, f64::from(record.score))
    }
}

/// A position's evaluation and how much a unit of middlegame / endgame sum moves it.
struct Evaluated {
    score: f64,
    mg_share: f64,
    eg_share: f64,
}

fn evaluate(data: &Dataset, index: usize, weights: &[[f64; 2]]) -> Evaluated {
    let (mut mg, mut eg) = (0.0, 0.0);
    for (param, count) in data.coefficients(index) {
        mg += count * weights[param][0];
        eg += count * weights[param][1];
    }
    let record = &data.records[index];
    let phase = f64::from(record.phase) / f64::from(PHASE_MAX);
    let scale = f64::from(record.scale[usize::from(eg < 0.0)]) / f64::from(SCALE_NORMAL);
    let (mg_share, eg_share) = (phase, (1.0 - phase) * scale);
    Evaluated { score: mg * mg_share + eg * eg_share, mg_share, eg_share }
}

/// Runs `work` on `threads` contiguous parts of `0..len`, results in order.
fn split<R: Send>(len: usize, threads: usize, work: impl Fn(Range<usize>) -> R + Sync) -> Vec<R> {
    let part = len.div_ceil(threads.max(1)).max(1);
    if threads <= 1 || len <= part {
        return vec![work(0..len)];
    }
    let work = &work;
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..len)
            .step_by(part)
            .map(|start| scope.spawn(move || work(start..(start + part).min(len))))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
            .collect()
    })
}

/// Mean squared error over the positions `indices` (0 for none).
pub fn mean_error(data: &Dataset, indices: &[u32], weights: &[[f64; 2]], fit: Fit, threads: usize) -> f64 {
    let sums = split(indices.len(), threads, |range| {
        indices[range]
            .iter()
            .map(|&index| {
                let index = index as usize;
                let error = sigmoid(fit.k, evaluate(data, index, weights).score) - fit.target(data, index);
                error * error
            })
            .sum::<f64>()
    });
    sums.iter().sum::<f64>() / indices.len().max(1) as f64
}

/// The K that best maps the evaluations under `weights` of the positions `indices` to their
/// game results, and its loss.
pub fn fit_k(data: &Dataset, indices: &[u32], weights: &[[f64; 2]], threads: usize) -> (f64, f64) {
    let scores: Vec<(f64, f64)> = split(indices.len(), threads, |range| {
        indices[range]
            .iter()
            .map(|&index| {
                let index = index as usize;
                (evaluate(data, index, weights).score, data.records[index].result())
            })
            .collect::<Vec<_>>()
    })
    .concat();
    let loss = |k: f64| {
        let sums = split(scores.len(), threads, |range| {
            scores[range]
                .iter()
                .map(|&(score, result)| {
                    let error = sigmoid(k, score) - result;
                    error * error
                })
                .sum::<f64>()
        });
        sums.iter().sum::<f64>() / scores.len().max(1) as f64
    };
    // Scan 0.1 .. 5.0, then narrow the best bracket by golden sections.
    let step = 0.1;
    let scanned = (1..=50).map(|i| f64::from(i) * step).map(|k| (k, loss(k)));
    let best = scanned.min_by(|a, b| a.1.total_cmp(&b.1)).map_or(1.0, |(k, _)| k);
    let (mut low, mut high) = ((best - step).max(1e-3), best + step);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    while high - low > 1e-5 {
        let (left, right) = (high - ratio * (high - low), low + ratio * (high - low));
        if loss(left) <= loss(right) {
            high = right;
        } else {
            low = left;
        }
    }
    let k = (low + high) / 2.0;
    (k, loss(k))
}

/// The gradient of the mean squared error over `batch` (position indices) into `gradient`;
/// returns the batch's mean squared error.
pub fn gradient(
    data: &Dataset,
    batch: &[u32],
    weights: &[[f64; 2]],
    fit: Fit,
    threads: usize,
    gradient: &mut [[f64; 2]],
) -> f64 {
    let slope = std::f64::consts::LN_10 * fit.k / 400.0;
    let scale = 2.0 / batch.len().max(1) as f64;
    let parts = split(batch.len(), threads, |range| {
        let mut part = vec![[0.0; 2]; weights.len()];
        let mut squared = 0.0;
        for &index in &batch[range] {
            let index = index as usize;
            let evaluated = evaluate(data, index, weights);
            let predicted = sigmoid(fit.k, evaluated.score);
            let error = predicted - fit.target(data, index);
            squared += error * error;
            let d_score = scale * error * predicted * (1.0 - predicted) * slope;
            let (d_mg, d_eg) = (d_score * evaluated.mg_share, d_score * evaluated.eg_share);
            for (param, count) in data.coefficients(index) {
                part[param][0] += count * d_mg;
                part[param][1] += count * d_eg;
            }
        }
        (part, squared)
    });
    gradient.iter_mut().for_each(|g| *g = [0.0; 2]);
    let mut squared = 0.0;
    for (part, part_squared) in parts {
        for (total, add) in gradient.iter_mut().zip(part) {
            total[0] += add[0];
            total[1] += add[1];
        }
        squared += part_squared;
    }
    squared / batch.len().max(1) as f64
}

/// What the fit adds to the data's loss and gradient: `l2 * ((weight - start) / 100)^2` for
/// every weight (middlegame and endgame apart), so a weight the data says little about (a
/// knight on a8) stays near its starting value while one seen everywhere (a pawn) moves
/// freely; and frozen weights, whose gradient is zeroed so Adam never moves them.
pub struct Regulariser {
    start: Weights,
    /// Loss per weight per pawn squared of distance from `start`.
    l2: f64,
    frozen: Vec<bool>,
}

impl Regulariser {
    /// Centipawns in the penalty's unit, the pawn.
    const PAWN: f64 = 100.0;

    pub fn new(start: Weights, l2: f64, frozen: Vec<bool>) -> Regulariser {
        Regulariser { start, l2, frozen }
    }

    /// The L2 penalty of `weights`, in loss units.
    pub fn penalty(&self, weights: &[[f64; 2]]) -> f64 {
        let squared: f64 = weights
            .iter()
            .zip(&self.start)
            .flat_map(|(weight, start)| (0..2).map(move |half| (weight[half] - start[half]) / Self::PAWN))
            .map(|distance| distance * distance)
            .sum();
        self.l2 * squared
    }

    /// Adds the penalty's gradient to the data's `gradient` and zeroes the frozen weights'.
    pub fn adjust(&self, weights: &[[f64; 2]], gradient: &mut [[f64; 2]]) {
        let slope = 2.0 * self.l2 / (Self::PAWN * Self::PAWN);
        for (((g, weight), start), &frozen) in
            gradient.iter_mut().zip(weights).zip(&self.start).zip(&self.frozen)
        {
            for half in 0..2 {
                g[half] = if frozen { 0.0 } else { g[half] + slope * (weight[half] - start[half]) };
            }
        }
    }
}

/// Adam (Kingma and Ba) with the learning rate in centipawns per step.
pub struct Adam {
    learning_rate: f64,
    first: Weights,
    second: Weights,
    steps: i32,
}

impl Adam {
    const BETA1: f64 = 0.9;
    const BETA2: f64 = 0.999;
    const EPSILON: f64 = 1e-8;

    pub fn new(params: usize, learning_rate: f64) -> Adam {
        Adam { learning_rate, first: vec![[0.0; 2]; params], second: vec![[0.0; 2]; params], steps: 0 }
    }

    /// One step against `gradient`.
    pub fn step(&mut self, weights: &mut [[f64; 2]], gradient: &[[f64; 2]]) {
        self.steps += 1;
        let correct1 = 1.0 - Self::BETA1.powi(self.steps);
        let correct2 = 1.0 - Self::BETA2.powi(self.steps);
        for (((weight, g), m), v) in
            weights.iter_mut().zip(gradient).zip(&mut self.first).zip(&mut self.second)
        {
            for half in 0..2 {
                m[half] = Self::BETA1 * m[half] + (1.0 - Self::BETA1) * g[half];
                v[half] = Self::BETA2 * v[half] + (1.0 - Self::BETA2) * g[half] * g[half];
                let (m_hat, v_hat) = (m[half] / correct1, v[half] / correct2);
                weight[half] -= self.learning_rate * m_hat / (v_hat.sqrt() + Self::EPSILON);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tune::to_weights;
    use patina::eval::params::{HAND_SET, MATERIAL, PARAM_COUNT};
    use shakmaty::{fen::Fen, CastlingMode, Chess};

    fn chess(fen: &str) -> Chess {
        fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
    }

    /// White a knight up (with pawns, so no drawish scaling), and Black a rook up.
    const KNIGHT_UP: &str = "4k3/pppp4/8/8/8/8/PPPP4/1N2K3 w - - 0 1";
    const ROOK_DOWN: &str = "r3k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1";

    #[test]
    fn k_fit_matches_the_average_result() {
        // The same position won once and drawn once: the best prediction is 0.75.
        let mut data = Dataset::default();
        data.push(&chess(KNIGHT_UP), 0, 2).unwrap();
        data.push(&chess(KNIGHT_UP), 0, 1).unwrap();
        let weights = to_weights(&HAND_SET);
        let (k, loss) = fit_k(&data, &[0, 1], &weights, 1);
        let eval = evaluate(&data, 0, &weights).score;
        assert!(eval > 100.0, "{eval}");
        assert!((sigmoid(k, eval) - 0.75).abs() < 1e-4, "k {k}, eval {eval}");
        assert!((loss - 0.0625).abs() < 1e-6, "{loss}");
        assert!((k - 400.0 * 3f64.log10() / eval).abs() < 1e-3);
    }

    #[test]
    fn one_adam_step_moves_weights_towards_the_results() {
        // The knight-up side only draws: the knight is worth less than thought. The rook-up
        // side wins: the rook is worth more.
        let mut data = Dataset::default();
        data.push(&chess(KNIGHT_UP), 0, 1).unwrap();
        data.push(&chess(ROOK_DOWN), 0, 0).unwrap();
        let fit = Fit { k: 1.0, lambda: 1.0 };
        let mut weights = to_weights(&HAND_SET);
        let before = weights.clone();
        let mut grad = vec![[0.0; 2]; PARAM_COUNT];
        let loss = gradient(&data, &[0, 1], &weights, fit, 2, &mut grad);
        assert!((loss - mean_error(&data, &[0, 1], &weights, fit, 1)).abs() < 1e-12);
        Adam::new(PARAM_COUNT, 1.0).step(&mut weights, &grad);
        let (knight, rook) = (MATERIAL + 1, MATERIAL + 3);
        // Adam's first step is the learning rate times the gradient's sign (less epsilon's bit).
        for half in 0..2 {
            let (knight_step, rook_step) =
                (weights[knight][half] - before[knight][half], weights[rook][half] - before[rook][half]);
            assert!((knight_step + 1.0).abs() < 0.01, "knight {half}: {knight_step}");
            assert!((rook_step - 1.0).abs() < 0.01, "rook {half}: {rook_step}");
        }
        // The king's material never counts, so it never moves.
        assert_eq!(weights[MATERIAL + 5], before[MATERIAL + 5]);
        assert!(mean_error(&data, &[0, 1], &weights, fit, 1) < loss);
    }

    #[test]
    fn gradient_matches_finite_differences() {
        let mut data = Dataset::default();
        data.push(&chess(KNIGHT_UP), 30, 1).unwrap();
        data.push(&chess(ROOK_DOWN), -400, 0).unwrap();
        let fit = Fit { k: 1.3, lambda: 0.6 };
        let weights = to_weights(&HAND_SET);
        let mut grad = vec![[0.0; 2]; PARAM_COUNT];
        gradient(&data, &[0, 1], &weights, fit, 1, &mut grad);
        for (param, half) in [(MATERIAL + 1, 0), (MATERIAL + 3, 1), (MATERIAL, 1)] {
            let mut moved = weights.clone();
            let h = 1e-3;
            moved[param][half] += h;
            let up = mean_error(&data, &[0, 1], &moved, fit, 1);
            moved[param][half] -= 2.0 * h;
            let down = mean_error(&data, &[0, 1], &moved, fit, 1);
            let numeric = (up - down) / (2.0 * h);
            assert!(
                (numeric - grad[param][half]).abs() < 1e-9,
                "{param} {half}: {numeric} vs {}",
                grad[param][half]
            );
        }
    }

    /// The knight-up position drawn and the rook-up one won, traced.
    fn two_positions() -> Dataset {
        let mut data = Dataset::default();
        data.push(&chess(KNIGHT_UP), 0, 1).unwrap();
        data.push(&chess(ROOK_DOWN), 0, 0).unwrap();
        data
    }

    /// `steps` full-batch Adam steps on the regularised loss from the hand-set weights.
    fn fit(regulariser: &Regulariser, steps: usize) -> Weights {
        let data = two_positions();
        let fit = Fit { k: 1.0, lambda: 1.0 };
        let mut weights = to_weights(&HAND_SET);
        let mut adam = Adam::new(PARAM_COUNT, 1.0);
        let mut grad = vec![[0.0; 2]; PARAM_COUNT];
        for _ in 0..steps {
            gradient(&data, &[0, 1], &weights, fit, 1, &mut grad);
            regulariser.adjust(&weights, &mut grad);
            adam.step(&mut weights, &grad);
        }
        weights
    }

    #[test]
    fn penalty_gradient_matches_finite_differences() {
        let start = to_weights(&HAND_SET);
        let regulariser = Regulariser::new(start.clone(), 0.3, vec![false; PARAM_COUNT]);
        let mut weights = start.clone();
        weights[MATERIAL + 1] = [start[MATERIAL + 1][0] + 40.0, start[MATERIAL + 1][1] - 150.0];
        // 0.3 * (0.4^2 + 1.5^2)
        assert!((regulariser.penalty(&weights) - 0.723).abs() < 1e-12);
        let mut grad = vec![[0.0; 2]; PARAM_COUNT];
        regulariser.adjust(&weights, &mut grad);
        for half in 0..2 {
            let h = 1e-3;
            let mut moved = weights.clone();
            moved[MATERIAL + 1][half] += h;
            let up = regulariser.penalty(&moved);
            moved[MATERIAL + 1][half] -= 2.0 * h;
            let numeric = (up - regulariser.penalty(&moved)) / (2.0 * h);
            assert!((numeric - grad[MATERIAL + 1][half]).abs() < 1e-9, "{half}: {numeric}");
        }
        assert_eq!(grad[MATERIAL + 2], [0.0; 2], "a weight at its start feels no pull");
    }

    #[test]
    fn a_huge_l2_holds_every_weight_at_its_start() {
        let start = to_weights(&HAND_SET);
        let free = fit(&Regulariser::new(start.clone(), 0.0, vec![false; PARAM_COUNT]), 50);
        assert!((free[MATERIAL + 1][0] - start[MATERIAL + 1][0]).abs() > 10.0, "the data moves the knight");
        let held = fit(&Regulariser::new(start.clone(), 1e6, vec![false; PARAM_COUNT]), 50);
        for (param, (weight, start)) in held.iter().zip(&start).enumerate() {
            for half in 0..2 {
                assert!(
                    (weight[half] - start[half]).abs() < 0.5,
                    "{param} {half}: {} vs {}",
                    weight[half],
                    start[half]
                );
            }
        }
    }

    #[test]
    fn frozen_weights_never_move() {
        let start = to_weights(&HAND_SET);
        let mut frozen = vec![false; PARAM_COUNT];
        frozen[MATERIAL..MATERIAL + 6].fill(true);
        let weights = fit(&Regulariser::new(start.clone(), 0.0, frozen), 20);
        assert_eq!(weights[MATERIAL..MATERIAL + 6], start[MATERIAL..MATERIAL + 6]);
        assert_ne!(weights, start, "the rest still moves");
    }
}
