//! `patina-learn train`: fits the evaluation network (`nnue`) to `patina-learn datagen` records on the CPU.
//!
//! The recipe: check that the engine plays the architecture and size asked for
//! (`request.rs`); load the records through the training filter, dropping repeated positions
//! and holding out whole games for validation (`dataset.rs`); fit the centipawn scale at which the data's scores predict its
//! results (unless given); then, epoch by epoch, shuffle the training positions with a seeded
//! generator, and for each batch compute the mean gradient of the loss on `threads` threads
//! (`loss.rs`, whose inner loops are `kernel.rs`), take an AdamW step at the schedule's learning rate (`optimizer.rs`: a cosine,
//! or tenfold drops at given epochs) and clip the weights to what quantisation holds
//! (`model.rs`). A run may start from an earlier net's weights (`--init`) instead of random
//! ones, widened to a larger size or to mirrored inputs when the run asks for one. After each
//! epoch: the validation loss, a checkpoint (`checkpoint.rs`) so a killed run resumes, and the
//! best epoch so far. At the end the best epoch's weights (or the last's, `--keep last`) are
//! quantised and written as a net file the engine loads.
//!
//! `run` reports through a callback (`events.rs`) and never prints; `main.rs` shows the events.

mod checkpoint;
mod dataset;
mod error;
mod evaluate;
mod events;
mod kernel;
mod loss;
mod model;
mod optimizer;
mod request;

pub use dataset::{fit_wdl_scale, sigmoid, target, DataSelection, Duplicates, ReadStop};
pub use error::{CheckpointProblem, TrainError, WdlScaleError, WidenError};
pub use evaluate::{held_out_losses, LossReport, LossRequest, NetLoss};
pub use events::TrainEvent;
pub use model::{Features, FloatNet};
pub use optimizer::LrSchedule;
pub use request::{Keep, TrainRequest, WdlScale};

use checkpoint::Checkpoint;
use loss::{parallel_loss, GradientThreads, Sample, Settings};
use optimizer::AdamW;
use patina::rng::Rng;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Trains a net as `request` says; returns the path written.
pub fn run(request: &TrainRequest, mut report: impl FnMut(TrainEvent)) -> Result<PathBuf, TrainError> {
    let arch = request.architecture()?;
    if let LrSchedule::Drops(epochs) = &request.schedule {
        if epochs.contains(&0) {
            return Err(TrainError::LrDropAtZero);
        }
    }
    let (start, widened_from) = request.starting_net(arch)?;
    if let Some((from_arch, from_hidden)) = widened_from {
        report(TrainEvent::Widened {
            from_arch: from_arch.id(),
            from_hidden,
            to_arch: arch.id(),
            to_hidden: request.hidden,
        });
    }
    let data = request.selection.load()?;
    let wdl_scale = request.wdl_scale.resolve(&data.train);
    report(TrainEvent::Loaded {
        train: data.train.len(),
        validation: data.validation.len(),
        games: data.games,
        dropped: data.dropped,
        duplicates: data.duplicates,
        stopped_by: data.stopped_by,
        wdl_scale,
    });
    let settings = Settings { lambda: request.final_lambda(), wdl_scale };
    let validation: Vec<Sample> = data.validation.iter().map(|record| (*record, false)).collect();
    let fingerprint = request::fingerprint(request, &data, wdl_scale, &start);
    let checkpoint_path = checkpoint::path_for(&request.out);
    let mut state = match Checkpoint::load(&checkpoint_path, fingerprint)? {
        Some(state) => {
            report(TrainEvent::Resumed { epochs_done: state.epochs_done });
            state
        }
        None => {
            // A net given to start from is the one to beat: written as it was (epoch 0) if no
            // epoch improves its validation loss.
            let best_loss = match &request.init {
                Some(_) if !validation.is_empty() => {
                    let loss = parallel_loss(&start, &validation, &settings, request.threads);
                    report(TrainEvent::Started { validation_loss: loss });
                    loss as f32
                }
                _ => f32::INFINITY,
            };
            let optimizer = AdamW::new(start.params.len());
            Checkpoint {
                fingerprint,
                epochs_done: 0,
                best_epoch: 0,
                best_loss,
                best: start.clone(),
                net: start,
                optimizer,
            }
        }
    };
    let epoch_size = data.train.len() * request.copies();
    let batches_per_epoch = epoch_size.div_ceil(request.batch) as u64;
    let total_steps = batches_per_epoch * u64::from(request.epochs);
    let mut gradient = vec![0.0f32; state.net.params.len()];
    let mut touched = vec![false; patina::nnue::INPUTS];
    let mut threads = GradientThreads::new(&state.net, request.threads);
    // The last epoch's loss for `--keep last`; None when the checkpoint had every epoch done.
    let mut last_loss = None;
    for epoch in state.epochs_done + 1..=request.epochs {
        let started = Instant::now();
        let mut order: Vec<u32> = (0..epoch_size as u32).collect();
        let mut rng = Rng::for_item(request.seed, u64::from(epoch));
        for index in (1..order.len()).rev() {
            order.swap(index, rng.below(index + 1));
        }
        let mut train_loss = 0.0;
        let mut last_report = Instant::now();
        let mut lr = request.learning_rate;
        for (batch_index, batch) in order.chunks(request.batch).enumerate() {
            let samples = data.train.len();
            let records: Vec<Sample> =
                batch.iter().map(|&i| (data.train[i as usize % samples], i as usize >= samples)).collect();
            let step_settings =
                Settings { lambda: request.lambda_at(state.optimizer.steps, total_steps), ..settings };
            train_loss +=
                threads.mean_gradient(&state.net, &records, &step_settings, &mut gradient, &mut touched)
                    * records.len() as f64;
            lr = request.schedule.lr(
                request.learning_rate,
                state.optimizer.steps,
                batches_per_epoch,
                total_steps,
            );
            let row = state.net.hidden;
            state.optimizer.step_rows(
                &mut state.net.params,
                &gradient,
                lr,
                request.weight_decay,
                row,
                &touched,
            );
            state.net.clip();
            if last_report.elapsed() >= Duration::from_secs(1) {
                last_report = Instant::now();
                let done = (batch_index + 1) * request.batch;
                let rate = done as f64 / started.elapsed().as_secs_f64().max(1e-9);
                let left = (u64::from(request.epochs - epoch) * epoch_size as u64) as f64
                    + (epoch_size.saturating_sub(done)) as f64;
                report(TrainEvent::Progress {
                    epoch,
                    epochs: request.epochs,
                    done: done.min(epoch_size),
                    total: epoch_size,
                    positions_per_second: rate,
                    eta: Duration::from_secs_f64(left / rate.max(1.0)),
                });
            }
        }
        train_loss /= epoch_size as f64;
        let validation_loss = if validation.is_empty() {
            train_loss
        } else {
            parallel_loss(&state.net, &validation, &settings, request.threads)
        };
        let best = (validation_loss as f32) < state.best_loss;
        if best {
            state.best_loss = validation_loss as f32;
            state.best_epoch = epoch;
            state.best = state.net.clone();
        }
        state.epochs_done = epoch;
        last_loss = Some(validation_loss);
        // The epoch's own net is written before the checkpoint that counts the epoch done, so a
        // run killed in between writes it again on resuming.
        let saved = match request.save_every {
            Some(every) if epoch % every == 0 => {
                let path = request.epoch_path(epoch);
                let hash = write_net(&state.net, &path)?;
                Some(TrainEvent::Saved { path, epoch, validation_loss, hash })
            }
            _ => None,
        };
        state
            .save(&checkpoint_path)
            .map_err(|error| TrainError::Write { path: checkpoint_path.clone(), error })?;
        report(TrainEvent::Epoch {
            epoch,
            train_loss,
            validation_loss,
            best,
            lr,
            elapsed: started.elapsed(),
        });
        if let Some(saved) = saved {
            report(saved);
        }
    }
    let (kept, epoch, validation_loss) = match request.keep {
        Keep::Best => (&state.best, state.best_epoch, f64::from(state.best_loss)),
        Keep::Last => {
            // A rerun that trained nothing has only the checkpoint, which keeps the best loss:
            // the last epoch's is measured again (on the training positions when none are
            // held out).
            let loss = last_loss.unwrap_or_else(|| {
                let scored: Vec<Sample> = if validation.is_empty() {
                    data.train.iter().map(|record| (*record, false)).collect()
                } else {
                    validation
                };
                parallel_loss(&state.net, &scored, &settings, request.threads)
            });
            (&state.net, state.epochs_done, loss)
        }
    };
    let hash = write_net(kept, &request.out)?;
    report(TrainEvent::Written { path: request.out.clone(), epoch, validation_loss, hash });
    Ok(request.out.clone())
}

/// Quantises `net` and writes it to `path`; returns its hash.
fn write_net(net: &FloatNet, path: &std::path::Path) -> Result<u64, TrainError> {
    let network = net.quantise().map_err(TrainError::Quantise)?;
    std::fs::write(path, network.to_bytes())
        .map_err(|error| TrainError::Write { path: path.to_path_buf(), error })?;
    Ok(network.hash())
}

#[cfg(test)]
mod tests;
