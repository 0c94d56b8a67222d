//! AdamW and its learning-rate schedules.
//!
//! Adam's moments per parameter (betas 0.9 and 0.999), the weight decay applied to the weight
//! itself rather than through the gradient (AdamW), and a learning rate that either falls from
//! `lr` to a final rate (`lr * FINAL_LR_FRACTION` unless given) along a half cosine over the
//! whole run, so early steps
//! move far and the last ones settle, or stays at `lr` and drops tenfold at given epochs (the
//! step schedule of long runs, whose length need not be fixed in advance).

/// Where the cosine schedule ends unless told, as a fraction of the starting rate.
pub const FINAL_LR_FRACTION: f32 = 0.01;
/// What each drop of a step schedule multiplies the rate by.
pub const LR_DROP_FACTOR: f32 = 0.1;
const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

/// The optimiser's state.
#[derive(Clone, Debug, PartialEq)]
pub struct AdamW {
    pub first_moment: Vec<f32>,
    pub second_moment: Vec<f32>,
    /// Steps taken so far.
    pub steps: u64,
}

/// How the learning rate moves over a run.
#[derive(Debug, Clone, PartialEq)]
pub enum LrSchedule {
    /// Falls along a half cosine from the starting rate to `final_lr` (`FINAL_LR_FRACTION`
    /// of the starting rate when `None`) by the run's last step.
    Cosine {
        /// The rate of the last step.
        final_lr: Option<f32>,
    },
    /// The starting rate, times `LR_DROP_FACTOR` from each of these epochs (counted from 1)
    /// on: `Drops(vec![20, 28])` trains epochs 1-19 at `lr`, 20-27 at `lr / 10`, then
    /// `lr / 100`.
    Drops(Vec<u32>),
}

impl LrSchedule {
    /// The rate of step `step` (from 0) of a run of `total_steps` steps, `steps_per_epoch` to
    /// an epoch, starting at `lr`.
    pub fn lr(&self, lr: f32, step: u64, steps_per_epoch: u64, total_steps: u64) -> f32 {
        match self {
            LrSchedule::Cosine { final_lr: None } => AdamW::scheduled_lr(lr, step, total_steps),
            LrSchedule::Cosine { final_lr: Some(floor) } => cosine(lr, *floor, step, total_steps),
            LrSchedule::Drops(epochs) => {
                let epoch = step / steps_per_epoch.max(1) + 1;
                let drops = epochs.iter().filter(|&&drop| u64::from(drop) <= epoch).count();
                lr * LR_DROP_FACTOR.powi(drops as i32)
            }
        }
    }
}

impl AdamW {
    pub fn new(params: usize) -> AdamW {
        AdamW { first_moment: vec![0.0; params], second_moment: vec![0.0; params], steps: 0 }
    }

    /// The learning rate at `step` of `total_steps`.
    pub fn scheduled_lr(lr: f32, step: u64, total_steps: u64) -> f32 {
        cosine(lr, lr * FINAL_LR_FRACTION, step, total_steps)
    }

    /// One step on `params` with `gradient` (the mean over the batch): the dense step
    /// `step_rows` is checked against.
    #[cfg(test)]
    pub fn step(&mut self, params: &mut [f32], gradient: &[f32], lr: f32, weight_decay: f32) {
        let rule = self.next_rule(lr, weight_decay);
        rule.apply(params, gradient, &mut self.first_moment, &mut self.second_moment);
    }

    /// One step where the first `touched.len()` rows of `row` parameters each hold a gradient
    /// only when `touched` says so (the feature weights: a batch uses some inputs, not all).
    /// Rows without one are left as they are, moments included, as lazy (sparse) Adam does;
    /// every parameter after the rows is stepped.
    pub fn step_rows(
        &mut self,
        params: &mut [f32],
        gradient: &[f32],
        lr: f32,
        weight_decay: f32,
        row: usize,
        touched: &[bool],
    ) {
        let rule = self.next_rule(lr, weight_decay);
        let (m, v) = (&mut self.first_moment, &mut self.second_moment);
        for (index, _) in touched.iter().enumerate().filter(|(_, &used)| used) {
            let span = index * row..(index + 1) * row;
            rule.apply(
                &mut params[span.clone()],
                &gradient[span.clone()],
                &mut m[span.clone()],
                &mut v[span],
            );
        }
        let rest = touched.len() * row..;
        rule.apply(&mut params[rest.clone()], &gradient[rest.clone()], &mut m[rest.clone()], &mut v[rest]);
    }

    /// Counts a step and returns its constants.
    fn next_rule(&mut self, lr: f32, weight_decay: f32) -> StepRule {
        self.steps += 1;
        let steps = self.steps.min(i32::MAX as u64) as i32;
        StepRule {
            lr,
            weight_decay,
            correction1: 1.0 - BETA1.powi(steps),
            correction2: 1.0 - BETA2.powi(steps),
        }
    }
}

/// A half cosine from `lr` at step 0 to `floor` at `total_steps`.
fn cosine(lr: f32, floor: f32, step: u64, total_steps: u64) -> f32 {
    let progress = step as f32 / total_steps.max(1) as f32;
    floor + 0.5 * (lr - floor) * (1.0 + (std::f32::consts::PI * progress.min(1.0)).cos())
}

/// The constants of one step.
struct StepRule {
    lr: f32,
    weight_decay: f32,
    correction1: f32,
    correction2: f32,
}

impl StepRule {
    /// AdamW's update of `params` from `gradient`, with their moments.
    #[inline]
    fn apply(&self, params: &mut [f32], gradient: &[f32], m: &mut [f32], v: &mut [f32]) {
        let moments = m.iter_mut().zip(v.iter_mut());
        for ((param, &g), (m, v)) in params.iter_mut().zip(gradient).zip(moments) {
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            let update = (*m / self.correction1) / ((*v / self.correction2).sqrt() + EPSILON);
            *param -= self.lr * (update + self.weight_decay * *param);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedule_falls_from_lr_to_the_floor() {
        assert!((AdamW::scheduled_lr(1.0, 0, 100) - 1.0).abs() < 1e-6);
        assert!((AdamW::scheduled_lr(1.0, 50, 100) - 0.505).abs() < 1e-3);
        assert!((AdamW::scheduled_lr(1.0, 100, 100) - FINAL_LR_FRACTION).abs() < 1e-6);
    }

    #[test]
    fn a_step_schedule_drops_tenfold_at_each_epoch_given() {
        let schedule = LrSchedule::Drops(vec![3, 5]);
        let per_epoch = 10;
        let at = |epoch: u64| schedule.lr(1.0, (epoch - 1) * per_epoch, per_epoch, 60);
        assert_eq!((at(1), at(2)), (1.0, 1.0));
        assert!((at(3) - 0.1).abs() < 1e-7 && (at(4) - 0.1).abs() < 1e-7);
        assert!((at(5) - 0.01).abs() < 1e-8 && (at(6) - 0.01).abs() < 1e-8);
        assert_eq!(schedule.lr(1.0, 2 * per_epoch - 1, per_epoch, 60), 1.0, "the last step of epoch 2");
        let cosine = LrSchedule::Cosine { final_lr: None };
        assert_eq!(cosine.lr(1.0, 50, 10, 100), AdamW::scheduled_lr(1.0, 50, 100));
        let long = LrSchedule::Cosine { final_lr: Some(1e-6) };
        assert_eq!(long.lr(1e-3, 0, 10, 100), 1e-3);
        assert!((long.lr(1e-3, 100, 10, 100) - 1e-6).abs() < 1e-9, "ends at the final rate");
        assert!((long.lr(1e-3, 50, 10, 100) - 0.5 * (1e-3 + 1e-6)).abs() < 1e-8, "half way: the mean");
    }

    #[test]
    fn a_step_over_rows_steps_the_touched_rows_and_the_rest_as_a_full_step_does() {
        let (row, rows) = (3, 4);
        let params: Vec<f32> = (0..rows * row + 5).map(|i| i as f32 * 0.1 - 0.5).collect();
        let mut gradient: Vec<f32> = (0..params.len()).map(|i| ((i * 7) % 5) as f32 - 2.0).collect();
        let touched = [true, false, true, false];
        for (index, _) in touched.iter().enumerate().filter(|(_, &used)| !used) {
            gradient[index * row..(index + 1) * row].fill(0.0);
        }
        let (mut full, mut sparse) = (params.clone(), params.clone());
        let (mut full_adam, mut sparse_adam) = (AdamW::new(params.len()), AdamW::new(params.len()));
        full_adam.step(&mut full, &gradient, 0.01, 0.0);
        sparse_adam.step_rows(&mut sparse, &gradient, 0.01, 0.0, row, &touched);
        assert_eq!(full, sparse, "an untouched row with no gradient and no decay does not move either way");
        assert_eq!((full_adam, sparse_adam.steps), (sparse_adam.clone(), 1));
        let mut decayed = params.clone();
        AdamW::new(params.len()).step_rows(&mut decayed, &gradient, 0.01, 0.5, row, &touched);
        assert_eq!(decayed[row..2 * row], params[row..2 * row], "untouched rows are not decayed");
        assert_ne!(decayed[..row], params[..row]);
    }

    #[test]
    fn minimises_a_quadratic() {
        let mut params = vec![3.0f32, -2.0];
        let mut adam = AdamW::new(2);
        for _ in 0..2000 {
            let gradient: Vec<f32> = params.iter().map(|p| 2.0 * (p - 1.0)).collect();
            adam.step(&mut params, &gradient, 0.01, 0.0);
        }
        assert!(params.iter().all(|p| (p - 1.0).abs() < 0.01), "{params:?}");
    }
}
