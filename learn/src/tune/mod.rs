//! Texel tuning of the evaluation weights (`patina-learn tune`).
//!
//! The recipe: load `FEN | score | result` lines from `patina-learn datagen` and trace each position
//! once (`data.rs`); hold out a fraction of the games for validation (`split.rs`); fit the
//! scaling constant K of `sigmoid(K * eval / 400)` to the training games' results with the
//! starting weights; then run Adam over shuffled mini-batches on the mean squared error plus an
//! L2 pull toward the starting weights (`model.rs`), keeping the epoch with the lowest
//! validation loss (`train.rs`); round those weights and write them as a Rust source file whose
//! header says how they were made (`output.rs`). Every weight of `eval::params` is fitted
//! except the blocks frozen with `--freeze` and those no position uses (their gradient is
//! zero). A run starts from the weights the engine plays (`eval::params::ACTIVE`, the tuned
//! file) unless `--init` names another; a new file plays once it replaces `src/eval/tuned.rs`.
//!
//! Why the regularisation: a first run on 935k positions, unregularised, lost about 54 Elo to
//! the hand-set weights. Piece-square entries seen in few positions (a knight on e8) took
//! noisy values, and material drifted against the piece-square averages it is collinear with.
//!
//! `run` reports through a callback (`main.rs` prints the events to stderr) and never prints.
//! For the same data, settings and thread count a run is deterministic.

mod data;
mod model;
mod output;
mod split;
mod train;

pub use data::{read_data_line, DataLine, Dataset, FileCounts, NO_POSITIONS};
pub use model::sigmoid;
pub use output::{parse, render, Header, WeightsFileError};
pub use split::SplitSizes;
pub use train::Losses;

use model::{Fit, Regulariser, Weights};
use patina::eval::params::{EvalParams, ACTIVE, BLOCKS, PARAM_COUNT};
use split::Split;
use std::fmt;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use train::{Objective, Schedule};

/// `--l2`'s default: on 1.4M datagen positions (10% held out) 3e-5 and 1e-4 gave the lowest
/// validation loss, 3e-4 and 1e-3 higher, 0 higher still and rising with every epoch. Less data
/// wants more (1e-3 did best on 200k positions).
pub const DEFAULT_L2: f64 = 0.0001;
/// `--validation-fraction`'s default.
pub const DEFAULT_VALIDATION_FRACTION: f64 = 0.05;

/// What `patina-learn tune` was asked to do.
#[derive(Debug, Clone)]
pub struct TuneRequest {
    /// Files of `FEN | score | result` lines, read in order.
    pub data: Vec<PathBuf>,
    /// Where the generated weights file goes (e.g. `src/eval/tuned.rs`); overwritten.
    pub out: PathBuf,
    /// Start from the weights in this generated file instead of the engine's own.
    pub init: Option<PathBuf>,
    /// Passes over the training positions.
    pub epochs: usize,
    /// Adam's step size, in centipawns.
    pub learning_rate: f64,
    /// Positions per Adam step; the whole set when larger.
    pub batch: usize,
    /// Threads for tracing and for the gradient; the result depends on it.
    pub threads: usize,
    /// Load at most this many positions in all.
    pub limit: Option<usize>,
    /// Weight of the game result in the target (1.0: results only).
    pub lambda: f64,
    /// Loss per weight per pawn squared of distance from its starting value.
    pub l2: f64,
    /// Share of the games held out to measure the fit and pick the epoch written.
    pub validation_fraction: f64,
    /// Names of `eval::params::BLOCKS` whose weights keep their starting values.
    pub freeze: Vec<String>,
    /// Written into the header.
    pub command_line: String,
}

/// Why a run stopped; each names the file or setting at fault.
#[derive(Debug)]
pub enum TuneError {
    /// A file could not be read or written.
    Io {
        /// The file.
        path: PathBuf,
        /// What the OS said.
        error: std::io::Error,
    },
    /// The `--init` file is not a weights file this build can read.
    Init {
        /// The `--init` file.
        path: PathBuf,
        /// What is wrong with it.
        reason: WeightsFileError,
    },
    /// The data files held no valid position.
    NoPositions,
    /// The packed traces outgrew their 32-bit offsets after this many positions.
    TooMuchData(usize),
    /// A setting is out of range or names nothing; the message says which and why.
    Setting(String),
}

impl fmt::Display for TuneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TuneError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            TuneError::Init { path, reason } => write!(f, "--init {}: {reason}", path.display()),
            TuneError::NoPositions => f.write_str(NO_POSITIONS),
            TuneError::TooMuchData(positions) => {
                write!(
                    f,
                    "too much data: the packed traces overflow after {positions} positions (use --limit)"
                )
            }
            TuneError::Setting(reason) => f.write_str(reason),
        }
    }
}

impl std::error::Error for TuneError {}

/// What `run` tells its caller while it works.
#[derive(Debug, Clone)]
pub enum TuneEvent {
    /// One data file has been read and traced.
    Loaded {
        /// The file.
        path: PathBuf,
        /// Positions taken from it and bad lines skipped.
        counts: FileCounts,
        /// Time spent reading and tracing it.
        elapsed: Duration,
    },
    /// All the data is loaded and split.
    Ready {
        /// Positions loaded, over all files.
        positions: usize,
        /// Games told apart in them.
        games: usize,
        /// Positions on each side of the hold-out split.
        split: SplitSizes,
        /// Average memory per traced position, in bytes.
        bytes_per_position: f64,
    },
    /// The sigmoid's scale K has been fitted to the training games' results.
    KFitted {
        /// The fitted K of `sigmoid(K * eval / 400)`.
        k: f64,
        /// Mean squared error against the results at that K, with the starting weights.
        loss: f64,
    },
    /// Epoch 0 is the starting weights; `is_best` marks the epoch that would be written now.
    Epoch {
        /// Passes over the training data done.
        epoch: usize,
        /// The losses of the weights after it.
        losses: Losses,
        /// Its validation loss is the lowest yet (or there is no validation).
        is_best: bool,
        /// Time since training began.
        elapsed: Duration,
    },
    /// The weights file has been written.
    Written {
        /// The file.
        path: PathBuf,
        /// The epoch whose weights it holds.
        epoch: usize,
        /// The losses of the starting weights.
        before: Losses,
        /// The losses of the written weights, after rounding.
        after: Losses,
    },
}

impl fmt::Display for TuneEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TuneEvent::Loaded { path, counts, elapsed } => write!(
                f,
                "{}: {} positions, {} bad lines skipped ({:.1} s)",
                path.display(),
                counts.positions,
                counts.bad_lines,
                elapsed.as_secs_f64()
            ),
            TuneEvent::Ready { positions, games, split, bytes_per_position } => write!(
                f,
                "{positions} positions in {games} games, {bytes_per_position:.1} bytes each; {} for \
                 training, {} ({} games) held out for validation",
                split.train, split.validation, split.validation_games
            ),
            TuneEvent::KFitted { k, loss } => {
                write!(f, "K = {k:.6}, training loss against results {loss:.8}")
            }
            TuneEvent::Epoch { epoch, losses, is_best, elapsed } => {
                let best = if *is_best { " *" } else { "" };
                write!(f, "epoch {epoch}: {losses}{best} ({:.1} s)", elapsed.as_secs_f64())
            }
            TuneEvent::Written { path, epoch, before, after } => write!(
                f,
                "wrote {} (epoch {epoch}, rounded): {after}; at the start: {before}",
                path.display()
            ),
        }
    }
}

/// The float copy of `params` that the fit works on.
pub fn to_weights(params: &EvalParams) -> Weights {
    params.values.iter().map(|v| [f64::from(v.mg), f64::from(v.eg)]).collect()
}

/// `weights` rounded to the engine's integers.
pub fn round_weights(weights: &[[f64; 2]]) -> EvalParams {
    let mut params = ACTIVE.clone();
    for (value, weight) in params.values.iter_mut().zip(weights) {
        value.mg = weight[0].round() as i32;
        value.eg = weight[1].round() as i32;
    }
    params
}

fn check(request: &TuneRequest) -> Result<(), TuneError> {
    let bad = |reason: &str| Err(TuneError::Setting(reason.to_string()));
    if request.data.is_empty() {
        return bad("give at least one --data FILE");
    }
    if !(request.learning_rate > 0.0 && request.learning_rate.is_finite()) {
        return bad("--lr must be a positive number");
    }
    if !(0.0..=1.0).contains(&request.lambda) {
        return bad("--lambda must be between 0 and 1");
    }
    if request.batch == 0 || request.threads == 0 {
        return bad("--batch and --threads must be at least 1");
    }
    if !(request.l2 >= 0.0 && request.l2.is_finite()) {
        return bad("--l2 must be a number, 0 or more");
    }
    if !(0.0..1.0).contains(&request.validation_fraction) {
        return bad("--validation-fraction must be at least 0 and below 1");
    }
    Ok(())
}

/// Which weights `--freeze` holds at their starting values, by parameter index.
fn frozen_weights(names: &[String]) -> Result<Vec<bool>, TuneError> {
    let mut frozen = vec![false; PARAM_COUNT];
    for name in names {
        let Some(block) = BLOCKS.iter().find(|block| block.name.eq_ignore_ascii_case(name)) else {
            let known: Vec<String> = BLOCKS.iter().map(|block| block.name.to_ascii_lowercase()).collect();
            return Err(TuneError::Setting(format!(
                "--freeze: unknown block '{name}' (known: {})",
                known.join(", ")
            )));
        };
        frozen[block.start..block.start + block.len].fill(true);
    }
    Ok(frozen)
}

fn starting_params(request: &TuneRequest) -> Result<EvalParams, TuneError> {
    let Some(path) = &request.init else { return Ok(ACTIVE.clone()) };
    let text = std::fs::read_to_string(path).map_err(|error| TuneError::Io { path: path.clone(), error })?;
    parse(&text).map_err(|reason| TuneError::Init { path: path.clone(), reason })
}

/// Loads every data file, reporting each; the data and the positions each file gave.
fn load(
    request: &TuneRequest,
    report: &mut impl FnMut(TuneEvent),
) -> Result<(Dataset, Vec<(PathBuf, usize)>), TuneError> {
    let mut data = Dataset::default();
    let mut sources = Vec::new();
    for path in &request.data {
        let started = Instant::now();
        let counts = data.load(path, request.limit.unwrap_or(usize::MAX), request.threads)?;
        report(TuneEvent::Loaded { path: path.clone(), counts, elapsed: started.elapsed() });
        sources.push((path.clone(), counts.positions));
    }
    if data.is_empty() {
        return Err(TuneError::NoPositions);
    }
    data.shrink_to_fit();
    Ok((data, sources))
}

/// Loads the data, fits K and the weights, and writes `request.out`.
pub fn run(request: &TuneRequest, mut report: impl FnMut(TuneEvent)) -> Result<EvalParams, TuneError> {
    check(request)?;
    let frozen = frozen_weights(&request.freeze)?;
    let start = to_weights(&starting_params(request)?);
    let (data, sources) = load(request, &mut report)?;
    let split = Split::by_game(&data, request.validation_fraction);
    if split.train.is_empty() {
        return Err(TuneError::Setting("--validation-fraction held out every game; lower it".to_string()));
    }
    let sizes = split.sizes();
    let bytes_per_position = data.bytes_per_position();
    report(TuneEvent::Ready {
        positions: data.len(),
        games: data.game_count(),
        split: sizes,
        bytes_per_position,
    });

    let (k, loss) = model::fit_k(&data, &split.train, &start, request.threads);
    report(TuneEvent::KFitted { k, loss });
    let regulariser = Regulariser::new(start.clone(), request.l2, frozen);
    let objective = Objective {
        data: &data,
        split: &split,
        fit: Fit { k, lambda: request.lambda },
        regulariser: &regulariser,
        threads: request.threads,
    };
    let schedule =
        Schedule { epochs: request.epochs, batch: request.batch, learning_rate: request.learning_rate };
    let before = objective.losses(&start);
    let best = train::train(&objective, start, schedule, &mut report);

    let params = round_weights(&best.weights);
    let after = objective.losses(&to_weights(&params));
    let header = Header {
        command_line: request.command_line.clone(),
        data: sources,
        positions: data.len(),
        limit: request.limit,
        games: data.game_count(),
        split: sizes,
        validation_fraction: request.validation_fraction,
        init: request.init.clone(),
        k,
        lambda: request.lambda,
        l2: request.l2,
        frozen: request.freeze.iter().map(|name| name.to_ascii_uppercase()).collect(),
        epochs: request.epochs,
        best_epoch: best.epoch,
        batch: request.batch,
        learning_rate: request.learning_rate,
        threads: request.threads,
        before,
        after,
    };
    let text = render(&params, &header);
    std::fs::write(&request.out, text).map_err(|error| TuneError::Io { path: request.out.clone(), error })?;
    report(TuneEvent::Written { path: request.out.clone(), epoch: best.epoch, before, after });
    Ok(params)
}
