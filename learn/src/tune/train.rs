//! The epochs: Adam over shuffled batches of the training positions, the losses measured after
//! each epoch, and the weights of the epoch with the lowest validation loss kept (early
//! stopping: past that epoch the fit learns the training games rather than chess).
//!
//! Epoch 0 is the starting weights, so a fit that never beats them on the validation games
//! writes them back unchanged. Without validation positions the last epoch is kept.

use super::model::{self, Adam, Fit, Regulariser, Weights};
use super::split::Split;
use super::{Dataset, TuneEvent};
use patina::rng::Rng;
use std::fmt;
use std::time::Instant;

/// The losses of one set of weights.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Losses {
    /// Mean squared error over the training positions.
    pub train: f64,
    /// The L2 penalty; the fit minimises `train + penalty`.
    pub penalty: f64,
    /// Mean squared error over the held-out positions, if any.
    pub validation: Option<f64>,
}

impl fmt::Display for Losses {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let regularised = self.train + self.penalty;
        write!(f, "train {:.8} + l2 {:.8} = {regularised:.8}, validation ", self.train, self.penalty)?;
        match self.validation {
            Some(loss) => write!(f, "{loss:.8}"),
            None => f.write_str("none"),
        }
    }
}

/// What the losses of a set of weights depend on.
pub struct Objective<'a> {
    pub data: &'a Dataset,
    pub split: &'a Split,
    pub fit: Fit,
    pub regulariser: &'a Regulariser,
    pub threads: usize,
}

impl Objective<'_> {
    pub fn losses(&self, weights: &[[f64; 2]]) -> Losses {
        let error = |indices: &[u32]| model::mean_error(self.data, indices, weights, self.fit, self.threads);
        let validation = &self.split.validation;
        Losses {
            train: error(&self.split.train),
            penalty: self.regulariser.penalty(weights),
            validation: (!validation.is_empty()).then(|| error(validation)),
        }
    }
}

/// How long and in what steps to fit.
#[derive(Debug, Clone, Copy)]
pub struct Schedule {
    pub epochs: usize,
    pub batch: usize,
    pub learning_rate: f64,
}

/// The weights a run writes and the epoch they come from.
#[derive(Debug, Clone)]
pub struct Best {
    pub epoch: usize,
    pub weights: Weights,
    pub losses: Losses,
}

impl Best {
    /// Keeps `weights` if their validation loss is the lowest yet, or if there is no
    /// validation; says whether it did.
    fn offer(&mut self, epoch: usize, weights: &[[f64; 2]], losses: Losses) -> bool {
        let is_better = match (losses.validation, self.losses.validation) {
            (Some(loss), Some(best)) => loss < best,
            _ => true,
        };
        if is_better {
            *self = Best { epoch, weights: weights.to_vec(), losses };
        }
        is_better
    }
}

/// Fits from `start` for `schedule.epochs` epochs, reporting each, and returns the best.
pub fn train(
    objective: &Objective,
    start: Weights,
    schedule: Schedule,
    report: &mut impl FnMut(TuneEvent),
) -> Best {
    let started = Instant::now();
    let losses = objective.losses(&start);
    let mut best = Best { epoch: 0, weights: start.clone(), losses };
    report(TuneEvent::Epoch { epoch: 0, losses, is_best: true, elapsed: started.elapsed() });

    let mut weights = start;
    let mut adam = Adam::new(weights.len(), schedule.learning_rate);
    let mut gradient = vec![[0.0; 2]; weights.len()];
    let mut order = objective.split.train.clone();
    let mut shuffler = Rng::new(0x7061_7469_6e61);
    for epoch in 1..=schedule.epochs {
        if schedule.batch < order.len() {
            shuffle(&mut shuffler, &mut order);
        }
        for batch in order.chunks(schedule.batch) {
            model::gradient(objective.data, batch, &weights, objective.fit, objective.threads, &mut gradient);
            objective.regulariser.adjust(&weights, &mut gradient);
            adam.step(&mut weights, &gradient);
        }
        let losses = objective.losses(&weights);
        let is_best = best.offer(epoch, &weights, losses);
        report(TuneEvent::Epoch { epoch, losses, is_best, elapsed: started.elapsed() });
    }
    best
}

/// Fisher-Yates with the crate's SplitMix64 (`next_u64 % n`, the stream earlier runs used).
fn shuffle(rng: &mut Rng, items: &mut [u32]) {
    for i in (1..items.len()).rev() {
        items.swap(i, (rng.next_u64() % (i as u64 + 1)) as usize);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn losses(validation: Option<f64>) -> Losses {
        Losses { train: 0.1, penalty: 0.0, validation }
    }

    #[test]
    fn the_best_validation_epoch_is_kept() {
        let mut best = Best { epoch: 0, weights: vec![[0.0; 2]], losses: losses(Some(0.2)) };
        assert!(best.offer(1, &[[1.0; 2]], losses(Some(0.19))));
        assert!(!best.offer(2, &[[2.0; 2]], losses(Some(0.195))));
        assert!(!best.offer(3, &[[3.0; 2]], losses(Some(0.19))), "a tie keeps the earlier epoch");
        assert_eq!((best.epoch, best.weights[0]), (1, [1.0; 2]));

        let mut last = Best { epoch: 0, weights: vec![[0.0; 2]], losses: losses(None) };
        assert!(last.offer(1, &[[1.0; 2]], losses(None)) && last.offer(2, &[[2.0; 2]], losses(None)));
        assert_eq!(last.epoch, 2, "without validation the last epoch is kept");
    }
}
