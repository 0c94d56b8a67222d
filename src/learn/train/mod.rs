//! `patina train`: fits the evaluation network (`nnue`) to `patina datagen` records on the CPU.
//!
//! The recipe: load the records through the training filter, holding out whole games for
//! validation (`dataset.rs`); fit the centipawn scale at which the data's scores predict its
//! results (unless given); then, epoch by epoch, shuffle the training positions with a seeded
//! generator, and for each batch compute the mean gradient of the squared error between
//! `sigmoid(net centipawns / scale)` and the target on `threads` threads (each a fixed slice of
//! the batch, summed in thread order, so a run is deterministic for the same data, settings and
//! thread count), take an AdamW step on the cosine schedule (`optimizer.rs`) and clip the
//! weights to what quantisation holds (`model.rs`). After each epoch: the validation loss, a
//! checkpoint (`checkpoint.rs`) so a killed run resumes, and the best epoch so far. At the end
//! the best epoch's weights are quantised and written as a net file the engine loads.
//!
//! `run` reports through a callback and never prints; `main.rs` shows the events.

mod checkpoint;
mod dataset;
mod model;
mod optimizer;

pub use dataset::{fit_wdl_scale, sigmoid, target};
pub use model::{Features, FloatNet};

use crate::learn::data::{Filter, PackedPosition};
use crate::nnue::SCALE;
use crate::rng::Rng;
use checkpoint::Checkpoint;
use optimizer::AdamW;
use std::fmt;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// What `patina train` was asked to do.
#[derive(Debug, Clone)]
pub struct TrainRequest {
    /// Record files from `patina datagen` or `patina data`, read in order.
    pub data: Vec<PathBuf>,
    /// The net file to write; the checkpoint goes beside it (`OUT.ckpt`).
    pub out: PathBuf,
    /// Hidden neurons per perspective; must equal `nnue::HIDDEN`, the engine's size.
    pub hidden: usize,
    /// Output buckets: 1 (architecture 1) or `nnue::OUTPUT_BUCKETS` (architecture 2).
    pub output_buckets: usize,
    /// Passes over the training positions (mirrored copies included).
    pub epochs: u32,
    /// Positions per optimiser step.
    pub batch: usize,
    /// AdamW's starting learning rate; the cosine schedule takes it to 1% by the end.
    pub learning_rate: f32,
    /// AdamW's decoupled weight decay.
    pub weight_decay: f32,
    /// Weight of the game result in the target (0: the search score alone, 1: results only).
    pub lambda: f32,
    /// Centipawns per logit of the target's sigmoid.
    pub wdl_scale: WdlScale,
    /// Share of the games held out for validation, 0 to 1.
    pub validation_fraction: f64,
    /// Which records to drop while reading.
    pub filter: Filter,
    /// Threads for the gradient; a run is deterministic for a given count, not across counts.
    pub threads: usize,
    /// Seed of the starting weights and of every epoch's shuffle.
    pub seed: u64,
    /// Read at most this many positions in all, the first ones.
    pub limit: Option<usize>,
    /// Each epoch also trains on every position mirrored across the d/e file line.
    pub mirror: bool,
}

/// The target's scale: fixed, or the one at which the data's scores best predict its results.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum WdlScale {
    /// This many centipawns per logit (positive).
    Centipawns(f32),
    /// Fit the scale at which the training positions' scores best predict their results.
    Fit,
}

impl WdlScale {
    /// `--wdl-scale`'s text: a positive number of centipawns, or `fit`.
    pub fn parse(text: &str) -> Result<WdlScale, String> {
        if text == "fit" {
            return Ok(WdlScale::Fit);
        }
        match text.parse::<f32>() {
            Ok(cp) if cp.is_finite() && cp > 0.0 => Ok(WdlScale::Centipawns(cp)),
            _ => Err(format!("`{text}` is neither a positive number of centipawns nor `fit`")),
        }
    }
}

/// What a run tells its caller.
#[derive(Debug, Clone)]
pub enum TrainEvent {
    /// The data is loaded and the target's scale settled.
    Loaded {
        /// Positions to train on.
        train: usize,
        /// Positions held out for validation.
        validation: usize,
        /// Games read (with at least one position the filter passed).
        games: u64,
        /// Records the filter dropped.
        dropped: u64,
        /// Centipawns per logit of the target's sigmoid, given or fitted.
        wdl_scale: f32,
    },
    /// A checkpoint of this same run was found; training goes on after it.
    Resumed {
        /// Epochs the checkpoint had finished.
        epochs_done: u32,
    },
    /// About once a second within an epoch.
    Progress {
        /// The epoch under way, from 1.
        epoch: u32,
        /// Epochs in the run.
        epochs: u32,
        /// Positions of this epoch trained on so far.
        done: usize,
        /// Positions per epoch (mirrored copies included).
        total: usize,
        /// Training speed so far this epoch.
        positions_per_second: f64,
        /// Estimated time to the end of the run at that speed.
        eta: Duration,
    },
    /// An epoch has ended and its checkpoint is written.
    Epoch {
        /// The epoch, from 1.
        epoch: u32,
        /// Mean loss over the epoch's batches, as they were trained.
        train_loss: f64,
        /// Mean loss on the held-out positions after the epoch (the training loss when none).
        validation_loss: f64,
        /// The validation loss is the lowest yet: these weights are the ones to write.
        best: bool,
        /// The learning rate of the epoch's last step.
        lr: f32,
        /// Time the epoch took.
        elapsed: Duration,
    },
    /// The best epoch's weights, quantised, have been written.
    Written {
        /// The net file.
        path: PathBuf,
        /// The epoch they come from.
        epoch: u32,
        /// That epoch's validation loss (float weights, before quantisation).
        validation_loss: f64,
        /// The weights' hash, which names the net in the engine's `info string` lines.
        hash: u64,
    },
}

impl fmt::Display for TrainEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrainEvent::Loaded { train, validation, games, dropped, wdl_scale } => write!(
                f,
                "{train} training and {validation} validation positions from {games} games \
                 ({dropped} dropped by the filter); target scale {wdl_scale:.1} cp"
            ),
            TrainEvent::Resumed { epochs_done } => {
                write!(f, "resuming from the checkpoint after epoch {epochs_done}")
            }
            TrainEvent::Progress { epoch, epochs, done, total, positions_per_second, eta } => {
                let width = 30;
                let filled = done * width / (*total).max(1);
                let seconds = eta.as_secs();
                write!(
                    f,
                    "epoch {epoch}/{epochs} [{}{}] {done}/{total} {:.0} pos/s eta {}h{:02}m{:02}s",
                    "#".repeat(filled),
                    ".".repeat(width - filled),
                    positions_per_second,
                    seconds / 3600,
                    seconds / 60 % 60,
                    seconds % 60
                )
            }
            TrainEvent::Epoch { epoch, train_loss, validation_loss, best, lr, elapsed } => write!(
                f,
                "epoch {epoch}: train {train_loss:.6} validation {validation_loss:.6}{} lr {lr:.5} ({:.1} s)",
                if *best { " *" } else { "" },
                elapsed.as_secs_f64()
            ),
            TrainEvent::Written { path, epoch, validation_loss, hash } => write!(
                f,
                "wrote {} (epoch {epoch}, validation {validation_loss:.6}, hash {hash:016x})",
                path.display()
            ),
        }
    }
}

/// The settings and data that make a run; a checkpoint from another run is refused.
fn fingerprint(request: &TrainRequest, data: &dataset::TrainingData, wdl_scale: f32) -> u64 {
    let text = format!(
        "{:?} {} {} {} {} {} {} {} {} {} {} {} {} {:?} {} {} {}",
        request.data,
        request.hidden,
        request.output_buckets,
        request.epochs,
        request.batch,
        request.learning_rate,
        request.weight_decay,
        request.lambda,
        wdl_scale,
        request.validation_fraction,
        request.filter,
        request.threads,
        request.seed,
        request.limit,
        data.train.len(),
        data.validation.len(),
        request.mirror
    );
    crate::nnue::fnv1a(text.as_bytes())
}

/// A position of a batch, and whether it is used mirrored.
type Sample<'a> = (&'a PackedPosition, bool);

/// Loss and gradient over `records` (`gradient` may be empty to skip it).
fn batch_loss(net: &FloatNet, records: &[Sample], settings: &Settings, gradient: &mut [f32]) -> f64 {
    let mut loss = 0.0f64;
    let scale = SCALE as f32 / settings.wdl_scale;
    for &(record, mirrored) in records {
        let features = Features::oriented(record, mirrored);
        let wanted = target(record, settings.lambda, settings.wdl_scale);
        let mut squared_error = |output: f32| {
            let predicted = sigmoid(output * scale);
            let error = predicted - wanted;
            loss += f64::from(error * error);
            2.0 * error * predicted * (1.0 - predicted) * scale
        };
        if gradient.is_empty() {
            squared_error(net.forward(&features));
        } else {
            net.backward(&features, squared_error, gradient);
        }
    }
    loss
}

/// The numbers the inner loops need.
struct Settings {
    lambda: f32,
    wdl_scale: f32,
}

/// Mean loss (and mean gradient into `gradient` unless it is empty) over `records` on
/// `threads` threads, each a fixed slice, summed in order.
fn parallel_loss(
    net: &FloatNet,
    records: &[Sample],
    settings: &Settings,
    threads: usize,
    gradient: &mut [f32],
) -> f64 {
    let want_gradient = !gradient.is_empty();
    let chunk = records.len().div_ceil(threads.max(1)).max(1);
    let results: Vec<(f64, Vec<f32>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = records
            .chunks(chunk)
            .map(|slice| {
                scope.spawn(move || {
                    let mut local = if want_gradient { vec![0.0f32; net.params.len()] } else { Vec::new() };
                    let loss = batch_loss(net, slice, settings, &mut local);
                    (loss, local)
                })
            })
            .collect();
        handles.into_iter().map(|handle| handle.join().expect("a training thread panicked")).collect()
    });
    let count = records.len().max(1) as f32;
    let mut loss = 0.0;
    for (part, local) in results {
        loss += part;
        if want_gradient {
            gradient.iter_mut().zip(&local).for_each(|(g, l)| *g += l / count);
        }
    }
    loss / records.len().max(1) as f64
}

/// Trains a net as `request` says; returns the path written.
pub fn run(request: &TrainRequest, mut report: impl FnMut(TrainEvent)) -> Result<PathBuf, String> {
    if request.hidden != crate::nnue::HIDDEN {
        return Err(format!(
            "--hidden {} (this build's engine reads {} only)",
            request.hidden,
            crate::nnue::HIDDEN
        ));
    }
    if !matches!(request.output_buckets, 1 | crate::nnue::OUTPUT_BUCKETS) {
        return Err(format!(
            "--output-buckets {} (this build's engine reads 1 or {})",
            request.output_buckets,
            crate::nnue::OUTPUT_BUCKETS
        ));
    }
    let data = dataset::load(&request.data, request.filter, request.validation_fraction, request.limit)?;
    let wdl_scale = match request.wdl_scale {
        WdlScale::Centipawns(cp) => cp,
        WdlScale::Fit => fit_wdl_scale(&data.train),
    };
    report(TrainEvent::Loaded {
        train: data.train.len(),
        validation: data.validation.len(),
        games: data.games,
        dropped: data.dropped,
        wdl_scale,
    });
    let settings = Settings { lambda: request.lambda, wdl_scale };
    let fingerprint = fingerprint(request, &data, wdl_scale);
    let checkpoint_path = checkpoint::path_for(&request.out);
    let mut state = match Checkpoint::load(&checkpoint_path, fingerprint)? {
        Some(state) => {
            report(TrainEvent::Resumed { epochs_done: state.epochs_done });
            state
        }
        None => {
            let net = FloatNet::random(request.hidden, request.output_buckets, request.seed);
            let optimizer = AdamW::new(net.params.len());
            Checkpoint {
                fingerprint,
                epochs_done: 0,
                best_epoch: 0,
                best_loss: f32::INFINITY,
                best: net.clone(),
                net,
                optimizer,
            }
        }
    };
    let batches_per_epoch =
        (data.train.len() * if request.mirror { 2 } else { 1 }).div_ceil(request.batch) as u64;
    let total_steps = batches_per_epoch * u64::from(request.epochs);
    let validation: Vec<Sample> = data.validation.iter().map(|record| (record, false)).collect();
    let copies = if request.mirror { 2 } else { 1 };
    let epoch_size = data.train.len() * copies;
    let mut gradient = vec![0.0f32; state.net.params.len()];
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
                batch.iter().map(|&i| (&data.train[i as usize % samples], i as usize >= samples)).collect();
            gradient.iter_mut().for_each(|g| *g = 0.0);
            train_loss += parallel_loss(&state.net, &records, &settings, request.threads, &mut gradient)
                * records.len() as f64;
            lr = AdamW::scheduled_lr(request.learning_rate, state.optimizer.steps, total_steps);
            state.optimizer.step(&mut state.net.params, &gradient, lr, request.weight_decay);
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
            parallel_loss(&state.net, &validation, &settings, request.threads, &mut [])
        };
        let best = (validation_loss as f32) < state.best_loss;
        if best {
            state.best_loss = validation_loss as f32;
            state.best_epoch = epoch;
            state.best = state.net.clone();
        }
        state.epochs_done = epoch;
        state
            .save(&checkpoint_path)
            .map_err(|e| format!("cannot write {}: {e}", checkpoint_path.display()))?;
        report(TrainEvent::Epoch {
            epoch,
            train_loss,
            validation_loss,
            best,
            lr,
            elapsed: started.elapsed(),
        });
    }
    let network = state.best.quantise();
    std::fs::write(&request.out, network.to_bytes())
        .map_err(|e| format!("cannot write {}: {e}", request.out.display()))?;
    report(TrainEvent::Written {
        path: request.out.clone(),
        epoch: state.best_epoch,
        validation_loss: f64::from(state.best_loss),
        hash: network.hash(),
    });
    Ok(request.out.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learn::data::{DataResult, GamePlace, RecordWriter, SearchLabel};
    use crate::nnue::Network;
    use crate::position::Position;
    use shakmaty::{Position as _, Role};

    /// Material balance in centipawns, White's view: a target a small net can learn.
    fn material(pos: &Position) -> i32 {
        let board = pos.chess().board();
        let values = [
            (Role::Pawn, 100),
            (Role::Knight, 300),
            (Role::Bishop, 300),
            (Role::Rook, 500),
            (Role::Queen, 900),
        ];
        values
            .iter()
            .map(|&(role, value)| {
                let pieces = board.by_role(role);
                value * ((pieces & board.white()).count() as i32 - (pieces & board.black()).count() as i32)
            })
            .sum()
    }

    /// Random games whose positions are labelled with their material balance.
    fn write_material_games(path: &std::path::Path, games: u64) -> Vec<Position> {
        let mut writer = RecordWriter::create(path).unwrap();
        let mut positions = Vec::new();
        for game in 0..games {
            let mut rng = Rng::for_item(99, game);
            let mut pos = Position::default();
            for ply in 0..60 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                // Captures half the time, so material swings.
                let captures: Vec<_> = moves.iter().filter(|m| m.is_capture()).collect();
                let m = if !captures.is_empty() && rng.below(2) == 0 {
                    *captures[rng.below(captures.len())]
                } else {
                    moves[rng.below(moves.len())]
                };
                pos.play_game_move(m);
                let score = material(&pos);
                let label = SearchLabel {
                    white_score: score,
                    mate: false,
                    best_is_capture: false,
                    best_is_promotion: false,
                };
                let result = match score {
                    s if s > 150 => DataResult::WhiteWins,
                    s if s < -150 => DataResult::BlackWins,
                    _ => DataResult::Draw,
                };
                let place = GamePlace { ply, game_start: ply == 0, result };
                writer.write(&PackedPosition::pack(pos.chess(), label, place).unwrap()).unwrap();
                positions.push(pos.clone());
            }
        }
        writer.finish().unwrap();
        positions
    }

    #[test]
    fn fits_a_small_data_set_and_the_quantised_net_agrees_with_the_float_one() {
        fit_and_compare(1);
    }

    #[test]
    fn an_output_bucketed_net_fits_and_quantises_too() {
        fit_and_compare(crate::nnue::OUTPUT_BUCKETS);
    }

    fn fit_and_compare(output_buckets: usize) {
        let dir = std::env::temp_dir().join(format!("patina-train-{}-{output_buckets}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let data = dir.join("material.bin");
        let positions = write_material_games(&data, 150);
        let out = dir.join("net.nnue");
        let request = TrainRequest {
            data: vec![data],
            out: out.clone(),
            hidden: crate::nnue::HIDDEN,
            output_buckets,
            epochs: 12,
            batch: 256,
            learning_rate: 0.005,
            weight_decay: 0.0,
            lambda: 0.0,
            wdl_scale: WdlScale::Centipawns(400.0),
            validation_fraction: 0.1,
            filter: Filter::TRAINING,
            threads: 2,
            seed: 3,
            limit: None,
            mirror: false,
        };
        let mut losses = Vec::new();
        run(&request, |event| {
            if let TrainEvent::Epoch { train_loss, validation_loss, .. } = event {
                losses.push((train_loss, validation_loss));
            }
        })
        .unwrap();
        let (first, last) = (losses[0], losses[losses.len() - 1]);
        assert!(last.0 < first.0 / 4.0, "training loss fell only from {} to {}", first.0, last.0);
        assert!(last.1 < first.1 / 2.0, "validation loss fell only from {} to {}", first.1, last.1);

        // The engine's integer evaluation of the written net against the float net it came from.
        let engine = Network::load(&out).unwrap();
        let checkpoint = Checkpoint::load(&checkpoint::path_for(&out), 0).err();
        assert!(checkpoint.is_some(), "a checkpoint from another run is refused");
        let stored = std::fs::read(checkpoint::path_for(&out)).unwrap();
        let fingerprint = u64::from_le_bytes(stored[8..16].try_into().unwrap());
        let float = Checkpoint::load(&checkpoint::path_for(&out), fingerprint).unwrap().unwrap().best;
        let (mut worst, mut total, mut count) = (0.0f32, 0.0f32, 0);
        for pos in positions.iter().step_by(7) {
            let record = crate::learn::data::test_support::pack_position(pos);
            let float_cp = float.centipawns(&Features::of(&record));
            let engine_cp = engine.evaluate_board(pos.chess().board(), pos.turn()) as f32;
            worst = worst.max((float_cp - engine_cp).abs());
            total += (float_cp - engine_cp).abs();
            count += 1;
        }
        let mean = total / count as f32;
        assert!(
            mean <= 2.0 && worst <= 8.0,
            "quantised and float differ by {mean} cp on average, {worst} at most"
        );

        // A rerun with the same settings resumes from the finished checkpoint: no epoch runs,
        // and the same net is written.
        let mut epochs_run = 0;
        run(&request, |event| epochs_run += matches!(event, TrainEvent::Epoch { .. }) as u32).unwrap();
        assert_eq!(epochs_run, 0);
        assert_eq!(Network::load(&out).unwrap(), engine);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
