//! AdamW with a cosine learning-rate schedule.
//!
//! Adam's moments per parameter (betas 0.9 and 0.999), the weight decay applied to the weight
//! itself rather than through the gradient (AdamW), and a learning rate that falls from
//! `lr` to `lr * FINAL_LR_FRACTION` along a half cosine over the whole run, so early steps
//! move far and the last ones settle.

/// Where the cosine schedule ends, as a fraction of the starting rate.
pub const FINAL_LR_FRACTION: f32 = 0.01;
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

impl AdamW {
    pub fn new(params: usize) -> AdamW {
        AdamW { first_moment: vec![0.0; params], second_moment: vec![0.0; params], steps: 0 }
    }

    /// The learning rate at `step` of `total_steps`.
    pub fn scheduled_lr(lr: f32, step: u64, total_steps: u64) -> f32 {
        let progress = step as f32 / total_steps.max(1) as f32;
        let floor = lr * FINAL_LR_FRACTION;
        floor + 0.5 * (lr - floor) * (1.0 + (std::f32::consts::PI * progress.min(1.0)).cos())
    }

    /// One step on `params` with `gradient` (the mean over the batch).
    pub fn step(&mut self, params: &mut [f32], gradient: &[f32], lr: f32, weight_decay: f32) {
        self.steps += 1;
        let correction1 = 1.0 - BETA1.powi(self.steps.min(i32::MAX as u64) as i32);
        let correction2 = 1.0 - BETA2.powi(self.steps.min(i32::MAX as u64) as i32);
        let moments = self.first_moment.iter_mut().zip(self.second_moment.iter_mut());
        for ((param, &g), (m, v)) in params.iter_mut().zip(gradient).zip(moments) {
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            let update = (*m / correction1) / ((*v / correction2).sqrt() + EPSILON);
            *param -= lr * (update + weight_decay * *param);
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
