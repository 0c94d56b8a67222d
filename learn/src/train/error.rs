//! Why `patina-learn train` or `patina-learn net-loss` could not go on: each error names the flag, file or
//! net at fault, and reads as the line `main.rs` prints after `patina: train:`.

use patina::nnue::NetError;
use std::fmt;
use std::path::PathBuf;

/// Why a training run, or a scoring of nets, stopped.
#[derive(Debug)]
pub enum TrainError {
    /// `--hidden` is a size the engine does not play.
    HiddenSize(usize),
    /// `--output-buckets` is neither 1 nor the engine's count.
    OutputBuckets(usize),
    /// `--mirror-inputs` without the output buckets architecture 3 has.
    MirrorNeedsBuckets,
    /// `--lr-drop 0`: epochs count from 1.
    LrDropAtZero,
    /// `--validation-fraction` outside (0, 1) where a held-out set is needed.
    ValidationFraction(f64),
    /// A net file (`--init`, or a net to score) could not be loaded.
    Net {
        /// The flag it was given with (`--init`), or `None` for a net to score.
        flag: Option<&'static str>,
        /// The file.
        path: PathBuf,
        /// Why.
        error: NetError,
    },
    /// The `--init` net cannot become the run's architecture and size without losing what it
    /// knows.
    Widen {
        /// The `--init` file.
        path: PathBuf,
        /// Its architecture id and hidden size.
        from: (u32, usize),
        /// The run's.
        to: (u32, usize),
        /// Why not.
        reason: WidenError,
    },
    /// A data file could not be read.
    Data {
        /// The file.
        path: PathBuf,
        /// What the reader said.
        error: std::io::Error,
    },
    /// `--games` asked for more games than the files hold (and `--limit` did not stop first).
    TooFewGames {
        /// The games asked for.
        asked: u64,
        /// The games the files hold.
        found: u64,
    },
    /// The filter (or empty files) left nothing to train on.
    NoTrainingPositions,
    /// Too few games for the validation fraction to hold any out.
    NoHeldOutPositions,
    /// The checkpoint beside `--out` cannot be used.
    Checkpoint {
        /// The checkpoint file.
        path: PathBuf,
        /// What is wrong with it.
        problem: CheckpointProblem,
    },
    /// A file could not be written.
    Write {
        /// The file.
        path: PathBuf,
        /// What the OS said.
        error: std::io::Error,
    },
    /// The trained weights do not make a net the engine plays.
    Quantise(NetError),
}

/// Why a net cannot be widened to a run's size (`FloatNet::widened`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WidenError {
    /// The run has fewer hidden neurons than the net.
    FewerNeurons(usize),
    /// Output buckets other than 1 cannot become another count.
    Buckets {
        /// The net's.
        from: usize,
        /// The run's.
        to: usize,
    },
    /// Mirrored inputs cannot become plain ones.
    MirroredToPlain,
}

/// What is wrong with a checkpoint file.
#[derive(Debug)]
pub enum CheckpointProblem {
    /// It could not be read.
    Read(std::io::Error),
    /// It is not a Patina training checkpoint.
    NotACheckpoint,
    /// A run with other data or settings wrote it.
    OtherRun,
    /// Its architecture id is none the engine knows.
    UnknownArchitecture(u32),
    /// It is shorter or longer than its sizes say.
    Truncated,
}

impl fmt::Display for TrainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrainError::HiddenSize(hidden) => {
                let sizes = patina::nnue::HIDDEN_SIZES.map(|size| size.to_string()).join(", ");
                write!(f, "--hidden {hidden} (the engine plays {sizes})")
            }
            TrainError::OutputBuckets(buckets) => write!(
                f,
                "--output-buckets {buckets} (the engine reads 1 or {})",
                patina::nnue::OUTPUT_BUCKETS
            ),
            TrainError::MirrorNeedsBuckets => {
                let buckets = patina::nnue::OUTPUT_BUCKETS;
                write!(f, "--mirror-inputs needs --output-buckets {buckets} (architecture 3 has {buckets})")
            }
            TrainError::LrDropAtZero => write!(f, "--lr-drop 0 (epochs count from 1)"),
            TrainError::ValidationFraction(fraction) => write!(
                f,
                "--validation-fraction {fraction} (it must lie strictly between 0 and 1: the share of the games held out)"
            ),
            TrainError::Net { flag: None, path, error } => write!(f, "{}: {error}", path.display()),
            TrainError::Net { flag: Some(flag), path, error } => write!(f, "{flag} {}: {error}", path.display()),
            TrainError::Widen { path, from, to, reason } => write!(
                f,
                "--init {} is architecture {} with {} hidden neurons; the run asks for architecture {} with {}, and {reason}",
                path.display(),
                from.0,
                from.1,
                to.0,
                to.1
            ),
            TrainError::Data { path, error } => write!(f, "{}: {error}", path.display()),
            TrainError::TooFewGames { asked, found } => write!(
                f,
                "--games {asked}, but the data holds only {found} games (wait for datagen, or ask for fewer)"
            ),
            TrainError::NoTrainingPositions => {
                write!(f, "no training positions (empty files, or the filter dropped everything)")
            }
            TrainError::NoHeldOutPositions => {
                write!(f, "no held-out positions (too few games for this --validation-fraction)")
            }
            TrainError::Checkpoint { path, problem } => write!(f, "checkpoint {}: {problem}", path.display()),
            TrainError::Write { path, error } => write!(f, "cannot write {}: {error}", path.display()),
            TrainError::Quantise(error) => write!(f, "cannot quantise the net: {error}"),
        }
    }
}

impl fmt::Display for WidenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WidenError::FewerNeurons(from) => write!(f, "{from} hidden neurons cannot become fewer"),
            WidenError::Buckets { from, to } => write!(f, "{from} output buckets cannot become {to}"),
            WidenError::MirroredToPlain => write!(f, "mirrored inputs cannot become plain ones"),
        }
    }
}

impl fmt::Display for CheckpointProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckpointProblem::Read(error) => write!(f, "cannot be read: {error}"),
            CheckpointProblem::NotACheckpoint => write!(f, "not a Patina training checkpoint"),
            CheckpointProblem::OtherRun => write!(
                f,
                "was written by a run with other data or settings; give the same ones to resume, or delete it to start over"
            ),
            CheckpointProblem::UnknownArchitecture(id) => write!(f, "unknown architecture {id}"),
            CheckpointProblem::Truncated => write!(f, "truncated"),
        }
    }
}

impl std::error::Error for TrainError {}
impl std::error::Error for WidenError {}
impl std::error::Error for CheckpointProblem {}

/// `--wdl-scale`'s text was neither a positive number nor `fit`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WdlScaleError(pub String);

impl fmt::Display for WdlScaleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` is neither a positive number of centipawns nor `fit`", self.0)
    }
}

impl std::error::Error for WdlScaleError {}
