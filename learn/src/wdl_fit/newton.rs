//! The maximisation: damped Newton steps (Levenberg-Marquardt) on the likelihood, the Hessian
//! by central differences of the exact gradient, each step solved by Cholesky and accepted only
//! if it goes downhill. Deterministic for the same cells.

use super::likelihood::{to_model, to_theta, Cells, Theta};
use super::FitError;
use patina::wdl::Model;

/// A fitted model and how well it explains the data.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fitted {
    /// The fitted coefficients.
    pub model: Model,
    /// Mean negative log-likelihood of the results, nats per position.
    pub cross_entropy: f64,
    /// Damped Newton iterations run, until the gain fell under the tolerance (at most 200).
    pub iterations: usize,
}

/// Newton iterations at most.
const MAX_ITERATIONS: usize = 200;
/// A step that gains less than this (nats per position) ends the fit.
const TOLERANCE: f64 = 1e-13;

/// The parameters of `free` (indices into `Theta`) by central differences of the gradient;
/// `None` where a probe leaves the valid region.
fn hessian(cells: &Cells, theta: &Theta, free: &[usize]) -> Option<Vec<Vec<f64>>> {
    let n = free.len();
    let mut h = vec![vec![0.0; n]; n];
    for (column, &j) in free.iter().enumerate() {
        let step = 1e-5 * theta[j].abs().max(1.0);
        let (mut plus, mut minus) = (*theta, *theta);
        plus[j] += step;
        minus[j] -= step;
        let (mut g_plus, mut g_minus) = ([0.0; 8], [0.0; 8]);
        let valid = cells.evaluate(&plus, Some(&mut g_plus)).is_finite()
            && cells.evaluate(&minus, Some(&mut g_minus)).is_finite();
        if !valid {
            return None;
        }
        for (row, &i) in free.iter().enumerate() {
            h[row][column] = (g_plus[i] - g_minus[i]) / (2.0 * step);
        }
    }
    Some((0..n).map(|i| (0..n).map(|j| (h[i][j] + h[j][i]) / 2.0).collect()).collect())
}

/// Solves `m x = rhs` for a symmetric positive definite `m` (Cholesky); `None` if it is not.
pub(super) fn solve_positive_definite(m: &[Vec<f64>], rhs: &[f64]) -> Option<Vec<f64>> {
    let n = rhs.len();
    let mut l = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..=i {
            let sum: f64 = (0..j).map(|k| l[i][k] * l[j][k]).sum();
            if i == j {
                let pivot = m[i][i] - sum;
                if pivot.is_nan() || pivot <= 0.0 {
                    return None;
                }
                l[i][i] = pivot.sqrt();
            } else {
                l[i][j] = (m[i][j] - sum) / l[j][j];
            }
        }
    }
    let mut y = vec![0.0; n];
    for i in 0..n {
        y[i] = (rhs[i] - (0..i).map(|k| l[i][k] * y[k]).sum::<f64>()) / l[i][i];
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        x[i] = (y[i] - (i + 1..n).map(|k| l[k][i] * x[k]).sum::<f64>()) / l[i][i];
    }
    Some(x)
}

/// Maximum likelihood over the first `terms` coefficients of each cubic (1: constants, the
/// phase-independent model; 4: full cubics), the rest held at their values in `start`.
pub fn fit(cells: &Cells, start: &Model, terms: usize) -> Result<Fitted, FitError> {
    let free: Vec<usize> = (0..terms.min(4)).flat_map(|k| [k, 4 + k]).collect();
    let mut theta = to_theta(start);
    let mut gradient = [0.0; 8];
    let mut loss = cells.evaluate(&theta, Some(&mut gradient));
    if !loss.is_finite() {
        return Err(FitError::Diverged("the starting model gives some result no chance".to_string()));
    }
    let mut damping = 1e-3;
    let mut iterations = 0;
    while iterations < MAX_ITERATIONS {
        iterations += 1;
        let n = free.len();
        // Outside the valid region's edge, fall back to (damped) gradient descent.
        let h = hessian(cells, &theta, &free).unwrap_or_else(|| {
            (0..n).map(|i| (0..n).map(|j| if i == j { 1e-6 } else { 0.0 }).collect()).collect()
        });
        let rhs: Vec<f64> = free.iter().map(|&i| -gradient[i]).collect();
        let mut accepted = None;
        while damping < 1e12 {
            let mut damped = h.clone();
            for (i, row) in damped.iter_mut().enumerate() {
                row[i] += damping * (h[i][i].abs() + 1e-12);
            }
            if let Some(step) = solve_positive_definite(&damped, &rhs) {
                let mut candidate = theta;
                free.iter().zip(&step).for_each(|(&i, s)| candidate[i] += s);
                let mut candidate_gradient = [0.0; 8];
                let candidate_loss = cells.evaluate(&candidate, Some(&mut candidate_gradient));
                if candidate_loss <= loss {
                    accepted = Some((candidate, candidate_loss, candidate_gradient));
                    damping = (damping / 10.0).max(1e-9);
                    break;
                }
            }
            damping *= 10.0;
        }
        let Some((next, next_loss, next_gradient)) = accepted else { break };
        let gain = loss - next_loss;
        (theta, loss, gradient) = (next, next_loss, next_gradient);
        if gain < TOLERANCE {
            break;
        }
    }
    let model = to_model(&theta);
    if !theta.iter().all(|c| c.is_finite()) {
        return Err(FitError::Diverged(format!("coefficients {model:?}")));
    }
    Ok(Fitted { model, cross_entropy: loss, iterations })
}
