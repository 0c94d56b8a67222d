//! `patina wdl-fit`: fits the win/draw/loss model (`mod.rs`) to `patina datagen` games and
//! writes it as a Rust file (`src/wdl/fitted.rs`).
//!
//! The recipe: read datagen's records (the positions a static evaluation learns from: not in
//! check, best move quiet, no mate score, as `patina train` reads them) or `FEN | score |
//! result` lines of a `*.txt` file (both White's point of view; the parser is `patina tune`'s),
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

use crate::learn::data::{recorded_checkpoint, Checkpoint, DataFormat, Filter, RecordReader};
use crate::learn::tune::{read_data_line, DataLine, FileCounts, NO_POSITIONS};
use crate::wdl::{board_material, material, material_x, Cubic, Model, MATERIAL_MAX};
use std::collections::BTreeMap;
use std::fmt;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

/// What `patina wdl-fit` was asked to do.
#[derive(Debug, Clone)]
pub struct FitRequest {
    /// Datagen record files, or `*.txt` files of `FEN | score | result` lines, read in order.
    pub data: Vec<PathBuf>,
    /// Where the generated Rust file goes (normally `src/wdl/fitted.rs`); overwritten.
    pub out: PathBuf,
    /// Read at most this many positions in all (the first ones of the files, in order).
    pub limit: Option<usize>,
    /// Written into the header.
    pub command_line: String,
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

/// One position as the model sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sample {
    /// The model's material count of the position, 0 to `MATERIAL_MAX`.
    pub material: u8,
    /// Search score in centipawns, White's point of view.
    pub score_cp: i32,
    /// White's result in half points: 0, 1 or 2.
    pub result_halves: u8,
}

/// Appends the positions of `path` (records, or text lines when it is `*.txt`) to `samples`
/// until it holds `limit`.
pub fn load(path: &Path, limit: usize, samples: &mut Vec<Sample>) -> Result<FileCounts, FitError> {
    match DataFormat::of(path) {
        DataFormat::Records => load_records(path, limit, samples),
        DataFormat::Text => load_text(path, limit, samples),
    }
}

fn load_records(path: &Path, limit: usize, samples: &mut Vec<Sample>) -> Result<FileCounts, FitError> {
    let io_error = |error| FitError::Io { path: path.to_path_buf(), error };
    let mut reader = RecordReader::open(path, Filter::TRAINING).map_err(io_error)?;
    let mut counts = FileCounts::default();
    while samples.len() < limit {
        let Some(record) = reader.next_record().map_err(io_error)? else { break };
        samples.push(Sample {
            material: board_material(&record.to_setup().board) as u8,
            score_cp: i32::from(record.white_score()),
            result_halves: (2.0 * record.result().white_points()) as u8,
        });
        counts.positions += 1;
    }
    Ok(counts)
}

fn load_text(path: &Path, limit: usize, samples: &mut Vec<Sample>) -> Result<FileCounts, FitError> {
    let io_error = |error| FitError::Io { path: path.to_path_buf(), error };
    let mut reader = BufReader::new(std::fs::File::open(path).map_err(io_error)?);
    let mut counts = FileCounts::default();
    let mut bytes = Vec::new();
    while samples.len() < limit {
        bytes.clear();
        if reader.read_until(b'\n', &mut bytes).map_err(io_error)? == 0 {
            break;
        }
        match read_data_line(&bytes) {
            DataLine::Skip => {}
            DataLine::Bad => counts.bad_lines += 1,
            DataLine::Record(pos, score_cp, result_halves) => {
                samples.push(Sample { material: material(&pos) as u8, score_cp, result_halves });
                counts.positions += 1;
            }
        }
    }
    Ok(counts)
}

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

/// Positions with equal material and score, pooled.
struct Cell {
    x: f64,
    score: f64,
    /// White's losses, draws and wins.
    counts: [f64; 3],
}

/// The data as the likelihood reads it.
pub struct Cells {
    cells: Vec<Cell>,
    positions: f64,
}

/// The parameters: the four coefficients of `log a`'s cubic, then `log b`'s.
type Theta = [f64; 8];

fn to_model(theta: &Theta) -> Model {
    let (mut log_a, mut log_b): (Cubic, Cubic) = ([0.0; 4], [0.0; 4]);
    log_a.copy_from_slice(&theta[..4]);
    log_b.copy_from_slice(&theta[4..]);
    Model { log_a, log_b }
}

fn to_theta(model: &Model) -> Theta {
    let mut theta = [0.0; 8];
    theta[..4].copy_from_slice(&model.log_a);
    theta[4..].copy_from_slice(&model.log_b);
    theta
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

impl Cells {
    /// Pools `samples` by material and score, counting each cell's losses, draws and wins.
    pub fn new(samples: &[Sample]) -> Cells {
        let mut pooled: BTreeMap<(u8, i32), [u64; 3]> = BTreeMap::new();
        for sample in samples {
            pooled.entry((sample.material, sample.score_cp)).or_default()[sample.result_halves as usize] += 1;
        }
        let cells = pooled
            .into_iter()
            .map(|((material, score), counts)| Cell {
                x: material_x(i32::from(material)),
                score: f64::from(score),
                counts: counts.map(|count| count as f64),
            })
            .collect();
        Cells { cells, positions: samples.len() as f64 }
    }

    /// The cross-entropy of `model` on this data (infinite where it gives a result no chance).
    pub fn cross_entropy(&self, model: &Model) -> f64 {
        self.evaluate(&to_theta(model), None)
    }

    /// The mean negative log-likelihood at `theta`, and its gradient into `gradient` if given.
    /// Parameters whose `a` or `b` overflow or vanish somewhere are infinitely bad.
    fn evaluate(&self, theta: &Theta, mut gradient: Option<&mut Theta>) -> f64 {
        if let Some(gradient) = gradient.as_deref_mut() {
            *gradient = [0.0; 8];
        }
        let mut total = 0.0;
        for cell in &self.cells {
            let powers = [1.0, cell.x, cell.x * cell.x, cell.x * cell.x * cell.x];
            let dot = |c: &[f64]| c.iter().zip(powers).map(|(c, p)| c * p).sum::<f64>();
            let (a, b) = (dot(&theta[..4]).exp(), dot(&theta[4..]).exp());
            if !(a.is_finite() && b.is_finite() && b > 0.0) {
                return f64::INFINITY;
            }
            let (u, v) = ((cell.score - a) / b, (-cell.score - a) / b);
            let (win, loss) = (sigmoid(u), sigmoid(v));
            // 1 - win - loss without the cancellation when one of them is near 1.
            let draw = sigmoid(-u) - loss;
            let [n_loss, n_draw, n_win] = cell.counts;
            let mut d_a = 0.0;
            let mut d_b = 0.0;
            // (count, probability, d p / d a, d p / d b) of each result.
            let (win_da, win_db) = (-win * (1.0 - win) / b, -win * (1.0 - win) * u / b);
            let (loss_da, loss_db) = (-loss * (1.0 - loss) / b, -loss * (1.0 - loss) * v / b);
            let terms = [
                (n_win, win, win_da, win_db),
                (n_draw, draw, -win_da - loss_da, -win_db - loss_db),
                (n_loss, loss, loss_da, loss_db),
            ];
            for (count, p, p_da, p_db) in terms {
                if count == 0.0 {
                    continue;
                }
                if p <= 0.0 {
                    return f64::INFINITY;
                }
                total -= count * p.ln();
                d_a -= count * p_da / p;
                d_b -= count * p_db / p;
            }
            if let Some(gradient) = gradient.as_deref_mut() {
                // d a / d log_a[k] = a x^k, and the same for b.
                for (k, power) in powers.iter().enumerate() {
                    gradient[k] += d_a * a * power;
                    gradient[4 + k] += d_b * b * power;
                }
            }
        }
        if let Some(gradient) = gradient {
            gradient.iter_mut().for_each(|g| *g /= self.positions);
        }
        total / self.positions
    }
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
fn solve_positive_definite(m: &[Vec<f64>], rhs: &[f64]) -> Option<Vec<f64>> {
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
                "{}: {} positions, {} bad lines skipped ({:.1} s)",
                path.display(),
                counts.positions,
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

/// Everything the header records.
#[derive(Debug, Clone)]
pub struct Header {
    /// The `patina wdl-fit` command line that made the file.
    pub command_line: String,
    /// Each data file, what it gave, and the datagen settings its sidecar records.
    pub data: Vec<(PathBuf, FileCounts, Option<Checkpoint>)>,
    /// Positions fitted, over all files.
    pub positions: usize,
    /// UTC date of the fit, `YYYY-MM-DD`.
    pub date: String,
    /// The phase-independent fit, for comparison.
    pub baseline: Fitted,
}

/// Material counts the header tabulates the model at.
const TABLE_MATERIAL: [i32; 11] = [0, 8, 16, 24, 32, 40, 48, 56, 64, 72, MATERIAL_MAX];

/// The generated file: the header, then a `Model` expression for `include!`.
pub fn render(fitted: &Fitted, header: &Header) -> String {
    let mut text = String::new();
    let mut line = |s: &str| {
        text.push_str(s);
        text.push('\n');
    };
    line("// @generated by patina wdl-fit: do not edit by hand, rerun the fitter instead.");
    line("//");
    line("// The win/draw/loss model of src/wdl/mod.rs: log a and log b are cubics in");
    line("// x = material / 39 - 1, fitted by maximum likelihood to the results of the positions below.");
    line(&format!("// command: {}", header.command_line));
    for (path, counts, checkpoint) in &header.data {
        line(&format!(
            "// data: {} (first {} positions, {} bad lines)",
            path.display(),
            counts.positions,
            counts.bad_lines
        ));
        if let Some(made) = checkpoint {
            let book = made.book.as_ref().map(|b| format!(" --book {b}")).unwrap_or_default();
            let syzygy = made.syzygy.as_ref().map(|s| format!(" --syzygy {s}")).unwrap_or_default();
            line(&format!(
                "//   regenerate: patina datagen --games {} --nodes {} --seed {}{book}{syzygy} --out FILE",
                made.games, made.nodes, made.seed
            ));
            line(&format!(
                "//   and take its first {} positions (game i depends only on the seed and i)",
                counts.positions
            ));
        }
    }
    line(&format!("// positions: {}", header.positions));
    line(&format!("// date: {}", header.date));
    let (baseline_a, baseline_b) = header.baseline.model.parameters(0);
    line(&format!(
        "// cross-entropy: {:.6} nats per position; phase-independent (a = {baseline_a:.1}, b = {baseline_b:.1}): {:.6}",
        fitted.cross_entropy, header.baseline.cross_entropy
    ));
    line("//");
    line("// material      a      b   win/draw/loss at +100 cp");
    for material in TABLE_MATERIAL {
        let (a, b) = fitted.model.parameters(material);
        let wdl = fitted.model.expected(100, material);
        line(&format!("//     {material:>4} {a:>6.1} {b:>6.1}   {} {} {}", wdl.win, wdl.draw, wdl.loss));
    }
    line("");
    line("Model {");
    let cubic = |c: &Cubic| c.iter().map(|v| format!("{v:.6}")).collect::<Vec<_>>().join(", ");
    line(&format!("    log_a: [{}],", cubic(&fitted.model.log_a)));
    line(&format!("    log_b: [{}],", cubic(&fitted.model.log_b)));
    line("}");
    text
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
    let baseline = fit(&cells, &start(), 1)?;
    report(FitEvent::Baseline(baseline));
    let fitted = fit(&cells, &baseline.model, 4)?;
    report(FitEvent::Fitted { fitted, elapsed: started.elapsed() });

    let header = Header {
        command_line: request.command_line.clone(),
        data: sources,
        positions: samples.len(),
        date: crate::utc::utc_date(SystemTime::now()),
        baseline,
    };
    let text = render(&fitted, &header);
    std::fs::write(&request.out, text).map_err(|error| FitError::Io { path: request.out.clone(), error })?;
    report(FitEvent::Written(request.out.clone()));
    Ok(FitSummary { positions: samples.len(), baseline, fitted })
}

#[cfg(test)]
mod tests;
