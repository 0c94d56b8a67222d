//! Self-play data generation for evaluation tuning (`patina-learn datagen`) and OpenBench's
//! `genfens` opening generator.
//!
//! `run` plays games on worker threads and appends them to the output file: as 32-byte
//! records (`data`), one per searched position with its flags, or, when the file name ends in
//! `.txt`, as the older text lines `FEN | score | result` (score in centipawns and result `1.0`,
//! `0.5`, `0.0`, both from White's point of view) for the quiet positions only, which
//! `patina-learn tune` and `patina-learn wdl-fit` read. Game `i` is a pure function of `(seed, i)`: its opening is
//! drawn from `Rng::for_item(seed, i)` (`patina::engine::openings`) and every move is a
//! single-threaded, node-limited search (`budget.rs`: a hard limit, and optionally a soft one
//! that ends the search on a whole iteration) on a table cleared for the game (`game.rs`).
//! Workers (`runner.rs`) take
//! the next game index from a shared counter; finished games come back over a channel and the
//! calling thread writes them strictly in index order, each whole in one write, so the file is
//! byte-identical for the same seed, node limits, random plies, book and tables, whatever the thread count and
//! however often the run was interrupted and resumed (`progress.rs` keeps the `FILE.progress` sidecar
//! that makes resuming work). Raising the caller's `stop` flag (Ctrl-C in `main.rs`) starts no
//! further games; the games in flight finish and are written, so the file only ever holds
//! whole games.

mod budget;
mod game;
mod progress;
mod runner;

pub use budget::NodeBudget;
pub use game::{GameRecord, GameResult};
pub use patina::engine::openings::{genfens, Book, OpeningError, OpeningSource};
pub use runner::run;

use crate::data::{sidecar_path, Checkpoint, SidecarError};
use patina::tablebase::{ProbeMiss, TablebaseError};
use patina::tt::AllocationError;
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

/// Nodes searched per move when neither the command nor the sidecar says.
pub const DEFAULT_NODES: u64 = 5000;
/// The hard node limit of a run given `--soft-nodes` but no `--nodes`, as a multiple of the
/// soft one: room for the iteration that passes the soft limit to finish. At datagen's depths
/// an iteration ends at 1.5 to 3 times the node count of the one before (four positions on a
/// fresh table, to 100,000 nodes), and a soft-limited datagen search spends about twice its
/// soft limit on average, so the hard one cuts only the rare iteration that explodes.
pub const HARD_NODES_PER_SOFT: u64 = 8;

/// What `patina-learn datagen` was asked to do. `None` settings come from the sidecar when resuming.
#[derive(Debug, Clone)]
pub struct DatagenRequest {
    /// The data file, appended to; its `FILE.progress` sidecar lies beside it.
    pub out: PathBuf,
    /// Games the file should hold when the run ends (games already in it count).
    pub games: u64,
    /// Worker threads, each playing whole games (at least 1); the file does not depend on it.
    pub threads: usize,
    /// Seed of the openings; the same seed replays the same games. A new run without one
    /// draws it from the clock.
    pub seed: Option<u64>,
    /// Nodes searched per move at most, the hard limit (for a new run without one:
    /// `HARD_NODES_PER_SOFT` times `soft_nodes` if that is given, else `DEFAULT_NODES`).
    pub nodes: Option<u64>,
    /// The soft node limit: the iteration that passes it is each search's last (none for a new
    /// run without one: every search runs to `nodes`).
    pub soft_nodes: Option<u64>,
    /// Random plies added to every opening, on top of the two after a book line or the 8 or 9
    /// from the start position (0 for a new run without one).
    pub random_plies: Option<u32>,
    /// Percent of openings (0-100) from DFRC starts instead of the book or the start position
    /// (0 for a new run without one).
    pub dfrc_percent: Option<u32>,
    /// Plies a game that reaches a table position is played on, each position after that
    /// labelled with its own table result (0, the game ends there, for a new run without one).
    pub table_playout: Option<u32>,
    /// EPD book the openings start from; without one, random plies from the start position.
    pub book: Option<PathBuf>,
    /// Syzygy folders (`SyzygyPath` syntax): a game reaching a table position ends with the
    /// table's result.
    pub syzygy: Option<String>,
}

/// Why a run (or `genfens`) could not go on; each names the file, line or setting at fault.
#[derive(Debug)]
pub enum DatagenError {
    /// A file operation failed.
    Io {
        /// The file.
        path: PathBuf,
        /// What was being done, as a verb phrase (`"read the book"`).
        action: &'static str,
        /// What the OS said.
        error: std::io::Error,
    },
    /// The sidecar cannot be parsed.
    Progress {
        /// The sidecar.
        path: PathBuf,
        /// What is wrong with it.
        reason: SidecarError,
    },
    /// The sidecar records more bytes than the data file holds (the file was cut or replaced).
    ShortData {
        /// The sidecar.
        sidecar: PathBuf,
        /// The bytes it records.
        recorded: u64,
        /// The data file.
        out: PathBuf,
        /// The bytes the data file holds.
        length: u64,
    },
    /// A setting given to resume a run differs from the one the sidecar records.
    Mismatch {
        /// The sidecar.
        path: PathBuf,
        /// The setting: `seed`, `nodes`, `soft-nodes`, `random-plies`, `dfrc`, `table-playout`,
        /// `book` or `syzygy`.
        field: &'static str,
        /// The value the sidecar records (`none` when it has none).
        stored: String,
        /// The value given now.
        given: String,
    },
    /// The soft node limit is above the hard one, so it could never end a search.
    SoftAboveHard {
        /// The soft limit.
        soft_nodes: u64,
        /// The hard limit.
        nodes: u64,
    },
    /// A table playout was asked for without tables to probe.
    PlayoutWithoutTables(u32),
    /// The data file at this path holds data but has no sidecar: it is not appended to.
    UnrecordedData(PathBuf),
    /// A transposition table could not be allocated.
    Table(AllocationError),
    /// The Syzygy tables could not be registered.
    Tablebases {
        /// The `--syzygy` value.
        path: String,
        /// Why they could not.
        reason: TablebaseError,
    },
    /// The OS refused a worker thread.
    Thread(std::io::Error),
    /// The book could not be read, or no balanced opening was found.
    Opening(OpeningError),
}

impl fmt::Display for DatagenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DatagenError::Io { path, action, error } => {
                write!(f, "cannot {action} {}: {error}", path.display())
            }
            DatagenError::Progress { path, reason } => {
                write!(f, "progress file {}: {reason}", path.display())
            }
            DatagenError::ShortData { sidecar, recorded, out, length } => write!(
                f,
                "progress file {}: records {recorded} bytes but {} has only {length}",
                sidecar.display(),
                out.display()
            ),
            DatagenError::Mismatch { path, field, stored, given } => write!(
                f,
                "{} records {field} '{stored}' but '{given}' was given; resume with the same {field} \
                 (or leave it out), or write to another --out",
                path.display()
            ),
            DatagenError::SoftAboveHard { soft_nodes, nodes } => write!(
                f,
                "--soft-nodes {soft_nodes} is above the hard limit --nodes {nodes}, so it would never \
                 end a search; lower it or raise --nodes"
            ),
            DatagenError::PlayoutWithoutTables(plies) => write!(
                f,
                "--table-playout {plies} needs --syzygy: without tables no position can be labelled \
                 by them"
            ),
            DatagenError::UnrecordedData(path) => write!(
                f,
                "{} already holds data but has no {}; refusing to append to it (choose another --out)",
                path.display(),
                sidecar_path(path).display()
            ),
            DatagenError::Opening(error) => write!(f, "{error}"),
            DatagenError::Table(error) => write!(f, "{error}"),
            DatagenError::Tablebases { path, reason } => write!(f, "tablebases '{path}': {reason}"),
            DatagenError::Thread(error) => write!(f, "cannot start a worker thread: {error}"),
        }
    }
}

impl std::error::Error for DatagenError {}

impl From<OpeningError> for DatagenError {
    fn from(error: OpeningError) -> DatagenError {
        DatagenError::Opening(error)
    }
}

/// What `run` tells its caller while it works.
#[derive(Debug, Clone)]
pub enum DatagenEvent {
    /// The settings in force (drawn or read back from the sidecar) and where the run starts:
    /// `recipe.games` is the index of the first game this run plays.
    Started {
        /// What the sidecar records: seed, node limits, openings, tables, playout.
        recipe: Checkpoint,
        /// Games the file should hold at the end.
        games: u64,
    },
    /// The counts so far, every two seconds while games are played.
    Progress(Progress),
    /// A game written this run probed a table that was missing or unreadable and was played on
    /// instead of ending with the table's result; sent for the run's first miss of each kind,
    /// the rest are counted in `Progress`.
    TablebaseMiss {
        /// The game's index in the file.
        game: u64,
        /// What the probe met: `ProbeMiss::Failed` or `ProbeMiss::MissingTable`.
        miss: ProbeMiss,
    },
}

/// Counts of a run so far; `Display` gives the progress line.
#[derive(Debug, Clone, Copy)]
pub struct Progress {
    /// Games in the file, from earlier runs too.
    pub games_done: u64,
    /// Games the file should hold when the run ends.
    pub games_total: u64,
    /// Positions in the file, from earlier runs too.
    pub positions: u64,
    /// Games this run has written.
    pub run_games: u64,
    /// Positions this run has written (records, or quiet positions as text lines).
    pub run_positions: u64,
    /// Tablebase probes of this run's games that met an unreadable table (games played on).
    pub tablebase_failures: u64,
    /// Tablebase probes of this run's games that met a missing table (games played on).
    pub tablebase_missing: u64,
    /// Time since this run began playing.
    pub elapsed: Duration,
}

impl Progress {
    /// Positions this run has written per second of `elapsed`.
    pub fn positions_per_second(&self) -> u64 {
        (self.run_positions as u128 * 1000 / self.elapsed.as_millis().max(1)) as u64
    }

    /// Estimated time left at this run's rate so far.
    pub fn eta(&self) -> Option<Duration> {
        let left = self.games_total.saturating_sub(self.games_done);
        (self.run_games > 0).then(|| self.elapsed.mul_f64(left as f64 / self.run_games as f64))
    }
}

impl fmt::Display for Progress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "games {}/{}  positions {}  {} pos/s",
            self.games_done,
            self.games_total,
            self.positions,
            self.positions_per_second()
        )?;
        match self.eta() {
            Some(eta) => {
                let seconds = eta.as_secs();
                write!(f, "  eta {}h{:02}m{:02}s", seconds / 3600, seconds / 60 % 60, seconds % 60)?
            }
            None => f.write_str("  eta ?")?,
        }
        if self.tablebase_failures + self.tablebase_missing > 0 {
            write!(
                f,
                "  tablebase misses: {} unreadable, {} missing",
                self.tablebase_failures, self.tablebase_missing
            )?;
        }
        Ok(())
    }
}
