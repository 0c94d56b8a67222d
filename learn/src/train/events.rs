//! What a training run reports to its caller (`TrainEvent`), and how each event reads as a
//! line of text (`main.rs` prints them; `run` never prints).

use super::dataset::ReadStop;
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

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
        /// Records dropped as repeats of a position read before.
        duplicates: u64,
        /// The flag that ended the reading before the files ended (`--games`, `--limit`).
        stopped_by: Option<ReadStop>,
        /// Centipawns per logit of the target's sigmoid, given or fitted.
        wdl_scale: f32,
    },
    /// The `--init` net is of a smaller size or plainer architecture than the run's, and was
    /// widened to it (`FloatNet::widened`).
    Widened {
        /// The `--init` net's architecture id.
        from_arch: u32,
        /// Its hidden neurons per perspective.
        from_hidden: usize,
        /// The run's architecture id.
        to_arch: u32,
        /// The run's hidden neurons per perspective.
        to_hidden: usize,
    },
    /// The run starts from a given net (`--init`): its loss on the held-out positions, the
    /// one each epoch must beat to be written.
    Started {
        /// Mean loss of the starting weights on the held-out positions.
        validation_loss: f64,
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
    /// `--save-every` wrote this epoch's weights, whatever their loss.
    Saved {
        /// The net file (`TrainRequest::epoch_path`).
        path: PathBuf,
        /// The epoch.
        epoch: u32,
        /// Its validation loss (float weights).
        validation_loss: f64,
        /// The weights' hash.
        hash: u64,
    },
}

impl fmt::Display for TrainEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrainEvent::Loaded { train, validation, games, dropped, duplicates, stopped_by, wdl_scale } => {
                write!(
                    f,
                    "{train} training and {validation} validation positions from {games} games \
                     ({dropped} dropped by the filter, {duplicates} as duplicates)"
                )?;
                if let Some(stop) = stopped_by {
                    write!(f, ", reading stopped at {stop}")?;
                }
                write!(f, "; target scale {wdl_scale:.1} cp")
            }
            TrainEvent::Widened { from_arch, from_hidden, to_arch, to_hidden } => write!(
                f,
                "starting net widened from architecture {from_arch} x {from_hidden} to architecture {to_arch} x {to_hidden}{}",
                if to_hidden > from_hidden { " (the new neurons start with zero output weights)" } else { "" }
            ),
            TrainEvent::Started { validation_loss } => {
                write!(f, "starting net's validation loss {validation_loss:.6}")
            }
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
            TrainEvent::Saved { path, epoch, validation_loss, hash } => write!(
                f,
                "saved epoch {epoch} as {} (validation {validation_loss:.6}, hash {hash:016x})",
                path.display()
            ),
        }
    }
}
