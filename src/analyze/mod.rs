//! `patina analyze`: the engine as an analyst for people.
//!
//! - Position (`position_report`): a board diagram, then the search's lines in SAN with move
//!   numbers, scores in pawns and win/draw/loss, as the search deepens.
//! - `review` judges moves by their loss of expected score, for the analysis of games.
//!
//! Searches go through `searcher::Analyst`, which runs `search::run` synchronously on a table of
//! its own; nothing here touches the UCI layer. Scores everywhere are from White's point of
//! view; `notation` formats them.

pub mod diagram;
pub mod notation;
pub mod position_report;
pub mod review;
pub mod searcher;

use crate::tt::AllocationError;
use std::fmt;
use std::time::Duration;

/// Depth of a position's analysis when no limit is given; `POSITION_DEFAULT_TIME` caps it.
pub const POSITION_DEFAULT_DEPTH: i32 = 20;
/// Longest a position's default analysis runs.
pub const POSITION_DEFAULT_TIME: Duration = Duration::from_secs(10);

/// How every search of an analysis is limited; the first limit reached ends a search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnalysisLimits {
    pub depth: Option<i32>,
    pub movetime: Option<Duration>,
    pub nodes: Option<u64>,
    /// Lines reported per depth in position mode (games use the best line only).
    pub multipv: usize,
    pub threads: usize,
    pub hash_mib: usize,
}

impl AnalysisLimits {
    /// These limits, or `POSITION_DEFAULT_DEPTH` capped at `POSITION_DEFAULT_TIME` when none is set.
    pub fn or_position_default(self) -> AnalysisLimits {
        if self.has_limit() {
            return self;
        }
        AnalysisLimits { depth: Some(POSITION_DEFAULT_DEPTH), movetime: Some(POSITION_DEFAULT_TIME), ..self }
    }

    fn has_limit(&self) -> bool {
        self.depth.is_some() || self.movetime.is_some() || self.nodes.is_some()
    }

    /// `depth 10`, `5000 nodes`, `depth 20 or 10 s`, then threads and hash.
    pub fn describe(&self) -> String {
        let mut limits = Vec::new();
        if let Some(depth) = self.depth {
            limits.push(format!("depth {depth}"));
        }
        if let Some(nodes) = self.nodes {
            limits.push(format!("{nodes} nodes"));
        }
        if let Some(time) = self.movetime {
            limits.push(format!("{} ms", time.as_millis()));
        }
        let threads =
            if self.threads == 1 { "1 thread".to_string() } else { format!("{} threads", self.threads) };
        format!("{}, {threads}, {} MiB hash", limits.join(" or "), self.hash_mib)
    }
}

/// Why an analysis could not run or finish.
#[derive(Debug)]
pub enum AnalyzeError {
    Hash(AllocationError),
    /// Writing the report to stdout failed (a closed pipe, a full disk).
    Output(std::io::Error),
}

impl fmt::Display for AnalyzeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnalyzeError::Hash(error) => write!(f, "{error}"),
            AnalyzeError::Output(error) => write!(f, "cannot write the report: {error}"),
        }
    }
}

impl std::error::Error for AnalyzeError {}

impl From<AllocationError> for AnalyzeError {
    fn from(error: AllocationError) -> Self {
        AnalyzeError::Hash(error)
    }
}

impl From<std::io::Error> for AnalyzeError {
    fn from(error: std::io::Error) -> Self {
        AnalyzeError::Output(error)
    }
}
