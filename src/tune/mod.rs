//! Texel tuning of the evaluation weights (`patina tune`).
//!
//! The recipe: load `FEN | score | result` lines from `patina datagen` and trace each position
//! once (`data.rs`); fit the scaling constant K of `sigmoid(K * eval / 400)` to the game results
//! with the starting weights; then run Adam over shuffled mini-batches on the mean squared error
//! plus an L2 pull toward the starting weights (`model.rs`); round the weights and write them
//! as a Rust source file whose header says how it was made (`output.rs`). Every weight of
//! `eval::params` is fitted except those no position uses (their gradient is zero). The engine
//! keeps playing its own weights until someone switches `eval::params::ACTIVE` to the
//! generated file.
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

pub use data::{read_data_line, DataLine, Dataset, FileCounts, NO_POSITIONS};
pub use model::sigmoid;
pub use output::{parse, render, Header};

use crate::eval::params::{EvalParams, ACTIVE, PARAM_COUNT};
use model::{Adam, Fit, Regulariser, Weights};
use std::fmt;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// `--l2`'s default: on 1.4M datagen positions (10% held out) 3e-5 and 1e-4 gave the lowest
/// validation loss, 3e-4 and 1e-3 higher, 0 higher still and rising with every epoch. Less data
/// wants more (1e-3 did best on 200k positions).
pub const DEFAULT_L2: f64 = 0.0001;

/// What `patina tune` was asked to do.
#[derive(Debug, Clone)]
pub struct TuneRequest {
    pub data: Vec<PathBuf>,
    pub out: PathBuf,
    /// Start from the weights in this generated file instead of the engine's own.
    pub init: Option<PathBuf>,
    pub epochs: usize,
    /// Adam's step size, in centipawns.
    pub learning_rate: f64,
    /// Positions per Adam step; the whole set when larger.
    pub batch: usize,
    pub threads: usize,
    /// Load at most this many positions in all.
    pub limit: Option<usize>,
    /// Weight of the game result in the target (1.0: results only).
    pub lambda: f64,
    /// Loss per weight per pawn squared of distance from its starting value.
    pub l2: f64,
    /// Written into the header.
    pub command_line: String,
}

/// Why a run stopped; each names the file or setting at fault.
#[derive(Debug)]
pub enum TuneError {
    Io { path: PathBuf, error: std::io::Error },
    Init { path: PathBuf, reason: String },
    NoPositions,
    TooMuchData(usize),
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
    Loaded {
        path: PathBuf,
        counts: FileCounts,
        elapsed: Duration,
    },
    Ready {
        positions: usize,
        bytes_per_position: f64,
    },
    KFitted {
        k: f64,
        loss: f64,
    },
    /// `loss` is the mean squared error; Adam minimises `loss + penalty`.
    Epoch {
        epoch: usize,
        loss: f64,
        penalty: f64,
        elapsed: Duration,
    },
    Written {
        path: PathBuf,
        loss_before: f64,
        loss_after: f64,
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
            TuneEvent::Ready { positions, bytes_per_position } => {
                write!(f, "{positions} positions, {bytes_per_position:.1} bytes each")
            }
            TuneEvent::KFitted { k, loss } => write!(f, "K = {k:.6}, loss {loss:.8}"),
            TuneEvent::Epoch { epoch, loss, penalty, elapsed } => write!(
                f,
                "epoch {epoch}: loss {loss:.8} + l2 {penalty:.8} = {:.8} ({:.1} s)",
                loss + penalty,
                elapsed.as_secs_f64()
            ),
            TuneEvent::Written { path, loss_before, loss_after } => write!(
                f,
                "wrote {}: loss {loss_before:.8} before, {loss_after:.8} after (rounded weights)",
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

/// A small deterministic generator for shuffling (SplitMix64).
struct Shuffler(u64);

impl Shuffler {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn shuffle(&mut self, items: &mut [u32]) {
        for i in (1..items.len()).rev() {
            items.swap(i, (self.next() % (i as u64 + 1)) as usize);
        }
    }
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
    Ok(())
}

fn starting_params(request: &TuneRequest) -> Result<EvalParams, TuneError> {
    let Some(path) = &request.init else { return Ok(ACTIVE.clone()) };
    let text = std::fs::read_to_string(path).map_err(|error| TuneError::Io { path: path.clone(), error })?;
    parse(&text).map_err(|reason| TuneError::Init { path: path.clone(), reason })
}

/// Loads the data, fits K and the weights, and writes `request.out`.
pub fn run(request: &TuneRequest, mut report: impl FnMut(TuneEvent)) -> Result<EvalParams, TuneError> {
    check(request)?;
    let start_params = starting_params(request)?;
    let threads = request.threads;
    let mut data = Dataset::default();
    let mut sources = Vec::new();
    for path in &request.data {
        let started = Instant::now();
        let counts = data.load(path, request.limit.unwrap_or(usize::MAX), threads)?;
        report(TuneEvent::Loaded { path: path.clone(), counts, elapsed: started.elapsed() });
        sources.push((path.clone(), counts.positions));
    }
    if data.is_empty() {
        return Err(TuneError::NoPositions);
    }
    data.shrink_to_fit();
    report(TuneEvent::Ready { positions: data.len(), bytes_per_position: data.bytes_per_position() });

    let mut weights = to_weights(&start_params);
    let regulariser = Regulariser::new(weights.clone(), request.l2);
    let (k, _) = model::fit_k(&data, &weights, threads);
    let fit = Fit { k, lambda: request.lambda };
    let loss_before = model::mean_error(&data, &weights, fit, threads);
    report(TuneEvent::KFitted { k, loss: loss_before });

    let mut adam = Adam::new(PARAM_COUNT, request.learning_rate);
    let mut gradient = vec![[0.0; 2]; PARAM_COUNT];
    let mut order: Vec<u32> = (0..data.len() as u32).collect();
    let mut shuffler = Shuffler(0x7061_7469_6e61);
    let started = Instant::now();
    for epoch in 1..=request.epochs {
        if request.batch < data.len() {
            shuffler.shuffle(&mut order);
        }
        for batch in order.chunks(request.batch) {
            model::gradient(&data, batch, &weights, fit, threads, &mut gradient);
            regulariser.adjust(&weights, &mut gradient);
            adam.step(&mut weights, &gradient);
        }
        let loss = model::mean_error(&data, &weights, fit, threads);
        let penalty = regulariser.penalty(&weights);
        report(TuneEvent::Epoch { epoch, loss, penalty, elapsed: started.elapsed() });
    }

    let params = round_weights(&weights);
    let loss_after = model::mean_error(&data, &to_weights(&params), fit, threads);
    let header = Header {
        command_line: request.command_line.clone(),
        data: sources,
        positions: data.len(),
        k,
        lambda: request.lambda,
        l2: request.l2,
        epochs: request.epochs,
        batch: request.batch,
        learning_rate: request.learning_rate,
        loss_before,
        loss_after,
    };
    let text = render(&params, &header);
    std::fs::write(&request.out, text).map_err(|error| TuneError::Io { path: request.out.clone(), error })?;
    report(TuneEvent::Written { path: request.out.clone(), loss_before, loss_after });
    Ok(params)
}
