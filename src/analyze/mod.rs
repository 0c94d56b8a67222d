//! `patina analyze`: the engine as an analyst for people, on one position or on the games of a
//! PGN file.
//!
//! - Position (`position_report`): a board diagram, then the search's lines in SAN with move
//!   numbers, scores in pawns and win/draw/loss, as the search deepens.
//! - Games (`pgn` reads them, `game` searches every position, `review` judges every move):
//!   an annotated PGN (`annotate`), an evaluation graph as SVG (`graph`), a summary per game on
//!   stdout (`summary`) and a progress bar on stderr (`progress`).
//!
//! Searches go through `searcher::Analyst`, which runs `engine::search` synchronously on a table of
//! its own, with Syzygy tables when given (`--syzygy`, or `syzygy_path` in `--config`: a table
//! position's moves are ranked by the tables and only those keeping the best result searched,
//! as in UCI play); nothing here touches the UCI layer. Scores everywhere are from White's
//! point of view; `notation` formats them.

pub mod annotate;
pub mod diagram;
pub mod game;
pub mod graph;
pub mod notation;
pub mod pgn;
pub mod position_report;
pub mod progress;
pub mod review;
pub mod searcher;
pub mod summary;

use crate::tablebase::TablebaseError;
use crate::tt::AllocationError;
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Depth of a position's analysis when no limit is given; `POSITION_DEFAULT_TIME` caps it.
pub const POSITION_DEFAULT_DEPTH: i32 = 20;
/// Longest a position's default analysis runs.
pub const POSITION_DEFAULT_TIME: Duration = Duration::from_secs(10);
/// Depth of each search of a game when no limit is given: a few seconds per game on one thread,
/// deep enough to see the tactics that decide most amateur games.
pub const GAME_DEFAULT_DEPTH: i32 = 10;

/// How every search of an analysis is limited; the first limit reached ends a search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnalysisLimits {
    /// Deepest iteration of each search, in plies.
    pub depth: Option<i32>,
    /// Longest each search may think.
    pub movetime: Option<Duration>,
    /// Nodes each search may visit.
    pub nodes: Option<u64>,
    /// Lines reported per depth in position mode (games use the best line only).
    pub multipv: usize,
    /// Search threads (at least 1 is used).
    pub threads: usize,
    /// Transposition table size in MiB, shared by the analysis's searches.
    pub hash_mib: usize,
    /// Syzygy tables the searches use, if any.
    pub tablebases: Option<TablebaseSettings>,
}

/// Syzygy tables for an analysis: the folders and how the search uses them, as the UCI options
/// `SyzygyPath`, `SyzygyProbeDepth`, `SyzygyProbeLimit` and `Syzygy50MoveRule` mean them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TablebaseSettings {
    /// Folders of table files, `:`-separated on Unix (`;` on Windows).
    pub path: String,
    /// Probe inside the search only with at least this many plies left.
    pub probe_depth: i32,
    /// Probe only positions with at most this many pieces, kings included.
    pub probe_limit: usize,
    /// Wins and losses the fifty-move rule spoils count as draws.
    pub rule50: bool,
}

impl TablebaseSettings {
    /// The tables `options` name (`--config`'s `syzygy_path` and its companions), with `path`
    /// in place of `syzygy_path` when given; `None` when neither names a folder.
    pub fn from_options(
        options: &crate::options::EngineOptions,
        path: Option<&str>,
    ) -> Option<TablebaseSettings> {
        let path = path.unwrap_or(&options.syzygy_path);
        (!path.is_empty()).then(|| TablebaseSettings {
            path: path.to_string(),
            probe_depth: options.syzygy_probe_depth,
            probe_limit: options.syzygy_probe_limit,
            rule50: options.syzygy_50_move_rule,
        })
    }
}

impl AnalysisLimits {
    /// These limits, or `POSITION_DEFAULT_DEPTH` capped at `POSITION_DEFAULT_TIME` when none is set.
    pub fn or_position_default(self) -> AnalysisLimits {
        if self.has_limit() {
            return self;
        }
        AnalysisLimits { depth: Some(POSITION_DEFAULT_DEPTH), movetime: Some(POSITION_DEFAULT_TIME), ..self }
    }

    /// These limits, or `GAME_DEFAULT_DEPTH` when none is set.
    pub fn or_game_default(self) -> AnalysisLimits {
        if self.has_limit() {
            return self;
        }
        AnalysisLimits { depth: Some(GAME_DEFAULT_DEPTH), ..self }
    }

    fn has_limit(&self) -> bool {
        self.depth.is_some() || self.movetime.is_some() || self.nodes.is_some()
    }

    /// `depth 10`, `5000 nodes`, `depth 20 or 10 s`, then threads, hash and any tables.
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
        let tables = match &self.tablebases {
            Some(tables) => format!(", Syzygy tables from {}", tables.path),
            None => String::new(),
        };
        format!("{}, {threads}, {} MiB hash{tables}", limits.join(" or "), self.hash_mib)
    }
}

/// Why an analysis could not run or finish.
#[derive(Debug)]
pub enum AnalyzeError {
    /// The transposition table could not be allocated at the requested size.
    Hash(AllocationError),
    /// The Syzygy tables could not be loaded.
    Tablebases(TablebaseError),
    /// The PGN file could not be read.
    Read {
        /// The PGN file.
        path: PathBuf,
        /// What the OS said.
        error: std::io::Error,
    },
    /// The annotated PGN or the graph could not be written.
    Write {
        /// The output file.
        path: PathBuf,
        /// What the OS said.
        error: std::io::Error,
    },
    /// Writing the report to stdout failed (a closed pipe, a full disk).
    Output(std::io::Error),
    /// The PGN file at this path holds no game.
    NoGames(PathBuf),
}

impl fmt::Display for AnalyzeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnalyzeError::Hash(error) => write!(f, "{error}"),
            AnalyzeError::Tablebases(error) => write!(f, "Syzygy tables: {error}"),
            AnalyzeError::Read { path, error } => write!(f, "cannot read {}: {error}", path.display()),
            AnalyzeError::Write { path, error } => write!(f, "cannot write {}: {error}", path.display()),
            AnalyzeError::Output(error) => write!(f, "cannot write the report: {error}"),
            AnalyzeError::NoGames(path) => write!(f, "{} holds no PGN game", path.display()),
        }
    }
}

impl std::error::Error for AnalyzeError {}

impl From<AllocationError> for AnalyzeError {
    fn from(error: AllocationError) -> Self {
        AnalyzeError::Hash(error)
    }
}

impl From<TablebaseError> for AnalyzeError {
    fn from(error: TablebaseError) -> Self {
        AnalyzeError::Tablebases(error)
    }
}

impl From<std::io::Error> for AnalyzeError {
    fn from(error: std::io::Error) -> Self {
        AnalyzeError::Output(error)
    }
}

/// A PGN analysis: which file, how deep, and where the annotated PGN and the graph go.
#[derive(Debug, Clone)]
pub struct PgnRequest {
    /// The PGN file whose games are analysed.
    pub pgn: PathBuf,
    /// How each position's search is limited (MultiPV is forced to 1).
    pub limits: AnalysisLimits,
    /// Where the annotated PGN goes (games that could be set up); none written when `None`.
    pub out: Option<PathBuf>,
    /// Where the SVG evaluation graph goes; none drawn when `None`.
    pub graph: Option<PathBuf>,
}

/// What a PGN analysis found, beyond what it printed and wrote.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PgnOutcome {
    /// Games analysed, broken ones included.
    pub games: usize,
    /// Games with an illegal move or a bad FEN tag.
    pub broken_games: usize,
}

/// Analyses every game of `request.pgn`: the summary goes to `out`, problems and progress to
/// stderr, the annotated PGN and the graph to their files.
pub fn run_pgn(request: &PgnRequest, out: &mut dyn Write) -> Result<PgnOutcome, AnalyzeError> {
    let read_error = |error| AnalyzeError::Read { path: request.pgn.clone(), error };
    let file = std::fs::File::open(&request.pgn).map_err(read_error)?;
    let raw_games = pgn::read_games(std::io::BufReader::new(file)).map_err(read_error)?;
    if raw_games.is_empty() {
        return Err(AnalyzeError::NoGames(request.pgn.clone()));
    }
    // A game's analysis needs the best line only: more MultiPV lines would cost time for nothing.
    let analyst = searcher::Analyst::new(&AnalysisLimits { multipv: 1, ..request.limits.clone() })?;
    let settings = format!("{}, {}", crate::engine::NAME, request.limits.describe());
    let games = notation::counted(raw_games.len(), "game", "games");
    writeln!(out, "Analysing {games} of {}: {settings}\n", request.pgn.display())?;
    let mut progress = progress::Progress::new(raw_games.len());
    let mut reviews = Vec::with_capacity(raw_games.len());
    for (index, raw) in raw_games.into_iter().enumerate() {
        let number = index + 1;
        let record = pgn::replay(number, raw);
        if let Some(problem) = &record.problem {
            eprintln!("patina: analyze: {}", summary::problem_line(number, problem, record.moves.len()));
        }
        progress.start_game();
        let review =
            game::review_game(record, &analyst, &mut |done, total| progress.update(number, done, total));
        progress.finish_game(number, review.evals.len());
        writeln!(out, "{}", summary::game_summary(&review))?;
        reviews.push(review);
    }
    if let Some(path) = &request.out {
        let text: String = reviews
            .iter()
            .filter(|review| review.verdict.is_some())
            .map(|review| annotate::annotated_pgn(review, &settings))
            .collect();
        write_file(path, &text)?;
    }
    if let Some(path) = &request.graph {
        write_file(path, &graph::svg(&reviews, &settings))?;
    }
    Ok(PgnOutcome {
        games: reviews.len(),
        broken_games: reviews.iter().filter(|r| r.record.problem.is_some()).count(),
    })
}

fn write_file(path: &Path, text: &str) -> Result<(), AnalyzeError> {
    std::fs::write(path, text).map_err(|error| AnalyzeError::Write { path: path.to_path_buf(), error })
}
