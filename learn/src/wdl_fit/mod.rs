//! `patina-learn wdl-fit`: fits the win/draw/loss model (`src/wdl/mod.rs`) to `patina-learn datagen` games and
//! writes it as a Rust file (`src/wdl/fitted.rs`).
//!
//! The recipe: read datagen's records (the positions a static evaluation learns from: not in
//! check, best move quiet, no mate score, as `patina-learn train` reads them) or `FEN | score |
//! result` lines of a `*.txt` file (both White's point of view; the parser is `patina-learn tune`'s),
//! keeping only each position's material, score and result; pool positions
//! with the same material and score into cells; fit `a` and `b` by maximum likelihood of the
//! results, first as constants (the phase-independent baseline, reported for comparison), then
//! as cubics starting from it; write the coefficients under a header saying how they were made.
//!
//! The objective is the mean negative log-likelihood of the observed win, draw or loss
//! (cross-entropy, nats per position). With eight parameters, Newton's method is cheap: the
//! gradient is exact, the Hessian central differences of it, and Levenberg-Marquardt damping
//! keeps every accepted step downhill. The fit is deterministic for the same data.
//! Positions of one game share its result, so they are not independent draws; the estimate is
//! still consistent, only the data is worth fewer positions than it holds.
//!
//! `load.rs` reads the data, `likelihood.rs` is the objective, `newton.rs` maximises it,
//! `render.rs` writes the file; this file holds the request, the errors and the run.

mod likelihood;
mod load;
mod newton;
mod render;

pub use likelihood::Cells;
pub use load::{load, Sample};
pub use newton::{fit, Fitted};
pub use render::{command_line, render, Header};

use crate::data::recorded_checkpoint;
use crate::data::{FileCounts, NO_POSITIONS};
use patina::wdl::Model;
use std::fmt;
use std::path::PathBuf;
use std::time::{Duration, Instant, SystemTime};

/// What `patina-learn wdl-fit` was asked to do.
#[derive(Debug, Clone)]
pub struct FitRequest {
    /// Datagen record files, or `*.txt` files of `FEN | score | result` lines, read in order.
    pub data: Vec<PathBuf>,
    /// Where the generated Rust file goes (normally `src/wdl/fitted.rs`); overwritten.
    pub out: PathBuf,
    /// Read at most this many positions in all (the first ones of the files, in order).
    pub limit: Option<usize>,
}

/// Why a fit stopped; each names the file or the problem.
#[derive(Debug)]
pub enum FitError {
    /// A data file could not be read, or the output not written.
    Io {
        /// The file.
        path: PathBuf,
        /// What the OS said.
        error: std::io::Error,
    },
    /// The data files held no usable position.
    NoPositions,
    /// The results admit no finite model (say, no draws or no decisive games at all).
    Diverged(String),
}

impl fmt::Display for FitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FitError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            FitError::NoPositions => f.write_str(NO_POSITIONS),
            FitError::Diverged(what) => write!(f, "the fit diverged: {what}"),
        }
    }
}

impl std::error::Error for FitError {}

/// What `run` tells its caller while it works.
#[derive(Debug, Clone)]
pub enum FitEvent {
    /// One data file has been read.
    Loaded {
        /// The file.
        path: PathBuf,
        /// Positions taken from it and bad lines skipped.
        counts: FileCounts,
        /// Time spent reading it.
        elapsed: Duration,
    },
    /// The phase-independent model (constant `a` and `b`) has been fitted.
    Baseline(Fitted),
    /// The shipped model's (`wdl::MODEL`) cross-entropy on the same data, to compare the fit with.
    Shipped(f64),
    /// The full model (cubics in material) has been fitted.
    Fitted {
        /// The model and its cross-entropy.
        fitted: Fitted,
        /// Time both fits took, from pooling the samples on.
        elapsed: Duration,
    },
    /// The generated file has been written to this path.
    Written(PathBuf),
}

impl fmt::Display for FitEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FitEvent::Loaded { path, counts, elapsed } => write!(
                f,
                "{}: {} positions, {} table positions left out, {} bad lines skipped ({:.1} s)",
                path.display(),
                counts.positions,
                counts.table_positions,
                counts.bad_lines,
                elapsed.as_secs_f64()
            ),
            FitEvent::Baseline(fitted) => {
                let (a, b) = fitted.model.parameters(0);
                write!(
                    f,
                    "phase-independent: a = {a:.1}, b = {b:.1}, cross-entropy {:.6}",
                    fitted.cross_entropy
                )
            }
            FitEvent::Shipped(cross_entropy) => {
                write!(f, "shipped model (src/wdl/fitted.rs): cross-entropy {cross_entropy:.6}")
            }
            FitEvent::Fitted { fitted, elapsed } => write!(
                f,
                "log-cubic in material: cross-entropy {:.6} after {} iterations ({:.1} s)",
                fitted.cross_entropy,
                fitted.iterations,
                elapsed.as_secs_f64()
            ),
            FitEvent::Written(path) => write!(f, "wrote {}", path.display()),
        }
    }
}

/// The result of a run.
#[derive(Debug, Clone)]
pub struct FitSummary {
    /// Positions fitted, over all files.
    pub positions: usize,
    /// The phase-independent fit (constant `a` and `b`).
    pub baseline: Fitted,
    /// The written model: cubics in material.
    pub fitted: Fitted,
    /// The shipped model's cross-entropy on the same data (nats per position).
    pub shipped_cross_entropy: f64,
}

/// A starting point every sensible data set admits: draws likely near 0, decisive beyond.
fn start() -> Model {
    Model::constant(100.0, 100.0)
}

/// Loads the data, fits the baseline and the model, and writes `request.out`.
pub fn run(request: &FitRequest, mut report: impl FnMut(FitEvent)) -> Result<FitSummary, FitError> {
    let limit = request.limit.unwrap_or(usize::MAX);
    let mut samples = Vec::new();
    let mut sources = Vec::new();
    for path in &request.data {
        let started = Instant::now();
        let counts = load(path, limit, &mut samples)?;
        report(FitEvent::Loaded { path: path.clone(), counts, elapsed: started.elapsed() });
        sources.push((path.clone(), counts, recorded_checkpoint(path)));
    }
    if samples.is_empty() {
        return Err(FitError::NoPositions);
    }
    let started = Instant::now();
    let cells = Cells::new(&samples);
    let shipped_cross_entropy = cells.cross_entropy(&patina::wdl::MODEL);
    report(FitEvent::Shipped(shipped_cross_entropy));
    let baseline = fit(&cells, &start(), 1)?;
    report(FitEvent::Baseline(baseline));
    let fitted = fit(&cells, &baseline.model, 4)?;
    report(FitEvent::Fitted { fitted, elapsed: started.elapsed() });

    let header = Header {
        command_line: command_line(&request.data, request.limit, &request.out),
        data: sources,
        positions: samples.len(),
        date: patina::utc::utc_date(SystemTime::now()),
        baseline,
    };
    let text = render(&fitted, &header);
    std::fs::write(&request.out, text).map_err(|error| FitError::Io { path: request.out.clone(), error })?;
    report(FitEvent::Written(request.out.clone()));
    Ok(FitSummary { positions: samples.len(), baseline, fitted, shipped_cross_entropy })
}

#[cfg(test)]
mod tests;
