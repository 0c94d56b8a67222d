//! Syzygy endgame tablebases, through `shakmaty-syzygy`.
//!
//! Two uses: at the root, `root_move` picks the DTZ-optimal move, so a won tablebase position
//! is always converted and a drawn one never lost; inside the search, `probe_wdl` scores
//! positions right after a capture or pawn move, where a WDL probe is exact.
//!
//! A missing table is simply no information. A file that fails to read or decode (or makes the
//! prober panic) is remembered, once, for the UCI layer to report as `info string error`; the
//! search carries on without it. `try_probe_wdl` says which of the two a probe met (`ProbeMiss`),
//! for datagen, which counts and reports them instead of adjudicating.

use shakmaty::{Chess, Move, Position as _};
use shakmaty_syzygy::{SyzygyError, Tablebase, Wdl};
use std::io::ErrorKind;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

/// A tablebase result from the side to move's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The side to move wins with best play (within the fifty-move rule when it is on).
    Win,
    /// Best play draws, including wins the fifty-move rule frustrates when it is on.
    Draw,
    /// The side to move loses with best play (within the fifty-move rule when it is on).
    Loss,
}

/// Why a WDL probe gave no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProbeMiss {
    /// Not a table position: castling rights, or more pieces than any table.
    NotHeld,
    /// No table for a material the probe needed; the message names it (`... not found: KQvK`).
    MissingTable(String),
    /// A table could not be read or decoded, or the prober panicked; the message says which
    /// table and why.
    Failed(String),
}

impl std::fmt::Display for ProbeMiss {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ProbeMiss::NotHeld => f.write_str("not a table position"),
            ProbeMiss::MissingTable(message) | ProbeMiss::Failed(message) => f.write_str(message),
        }
    }
}

/// Why `Tablebases::load` registered nothing; each names the path or file at fault.
#[derive(Debug)]
pub enum TablebaseError {
    /// The path names no folder at all (empty, or only separators).
    NoFolder(String),
    /// A folder could not be read, or holds a file whose size shows it is corrupt.
    Unreadable {
        /// The corrupt file when one could be singled out, else the folder.
        culprit: PathBuf,
        /// What the OS or the table reader said.
        error: std::io::Error,
    },
    /// The folders hold no table file.
    NoTables(String),
}

impl std::fmt::Display for TablebaseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TablebaseError::NoFolder(path) => write!(f, "no folder in '{path}'"),
            TablebaseError::Unreadable { culprit, error } => write!(f, "'{}': {error}", culprit.display()),
            TablebaseError::NoTables(path) => write!(f, "no Syzygy table files (*.rtbw, *.rtbz) in '{path}'"),
        }
    }
}

impl std::error::Error for TablebaseError {}

/// `ProbeMiss` before a missing table's name is formatted.
enum Gap {
    NotHeld,
    Missing(SyzygyError),
    Failed(String),
}

/// The root decision: the move to play and what it leads to.
#[derive(Debug, Clone, Copy)]
pub struct RootChoice {
    /// The DTZ-optimal move: keeps a win, holds a draw, or resists a loss longest.
    pub best: Move,
    /// The result after `best`, from the side to move's view (the one choosing the move).
    pub outcome: Outcome,
    /// Plies to the next capture or pawn move on the optimal line (0 for a draw).
    pub dtz: i32,
}

/// Loaded tables from one `SyzygyPath`.
pub struct Tablebases {
    tables: Tablebase<Chess>,
    files: usize,
    /// The first probe failure, not yet reported.
    failure: parking_lot::Mutex<Option<String>>,
}

impl std::fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tablebases({} files, up to {} pieces)", self.files, self.max_pieces())
    }
}

impl Tablebases {
    /// Registers every table file in the folders of `path` (`:`-separated on Unix, `;` on
    /// Windows). Files are opened lazily, on first probe. All or nothing: any folder that
    /// cannot be read, or a file whose size shows it is corrupt, is an error.
    pub fn load(path: &str) -> Result<Tablebases, TablebaseError> {
        let mut tables = Tablebase::new();
        let mut files = 0;
        let folders: Vec<PathBuf> =
            std::env::split_paths(path).filter(|p| !p.as_os_str().is_empty()).collect();
        if folders.is_empty() {
            return Err(TablebaseError::NoFolder(path.to_string()));
        }
        for folder in folders {
            files += tables.add_directory(&folder).map_err(|error| TablebaseError::Unreadable {
                culprit: refused_file(&folder).unwrap_or_else(|| folder.clone()),
                error,
            })?;
        }
        if files == 0 {
            return Err(TablebaseError::NoTables(path.to_string()));
        }
        Ok(Tablebases { tables, files, failure: parking_lot::Mutex::new(None) })
    }

    /// Table files registered.
    pub fn files(&self) -> usize {
        self.files
    }

    /// Most pieces (kings included) of any table.
    pub fn max_pieces(&self) -> usize {
        self.tables.max_pieces()
    }

    /// The probe failure to report, once.
    pub fn take_failure(&self) -> Option<String> {
        self.failure.lock().take()
    }

    /// WDL of a position reached by a capture or pawn move (the only time the probe is exact).
    /// With `rule50`, wins and losses the fifty-move rule frustrates count as draws.
    pub fn probe_wdl(&self, pos: &Chess, rule50: bool) -> Option<Outcome> {
        self.try_probe_wdl(pos, rule50).ok()
    }

    /// `probe_wdl`, saying why there is no answer; a failure is also recorded for the GUI.
    pub fn try_probe_wdl(&self, pos: &Chess, rule50: bool) -> Result<Outcome, ProbeMiss> {
        let wdl = self.checked(|| self.tables.probe_wdl_after_zeroing(pos)).map_err(|gap| match gap {
            Gap::NotHeld => ProbeMiss::NotHeld,
            Gap::Missing(error) => ProbeMiss::MissingTable(error.to_string()),
            Gap::Failed(message) => ProbeMiss::Failed(message),
        })?;
        Ok(outcome(wdl, rule50))
    }

    /// The DTZ-optimal move of a tablebase position, if every successor could be probed.
    pub fn root_move(&self, pos: &Chess, rule50: bool) -> Option<RootChoice> {
        let (best, dtz) = self.guarded(|| self.tables.best_move(pos))??;
        let mut after = pos.clone();
        after.play_unchecked(best);
        // The opponent's view of the position after our move, flipped back to ours.
        let theirs = self.guarded(|| self.tables.probe_wdl(&after))?.after_zeroing();
        let ours = match outcome(theirs, rule50) {
            Outcome::Win => Outcome::Loss,
            Outcome::Draw => Outcome::Draw,
            Outcome::Loss => Outcome::Win,
        };
        Some(RootChoice { best, outcome: ours, dtz: dtz.ignore_rounding().0.abs() })
    }

    /// Runs a probe; expected gaps (castling rights, too many pieces, a missing table) are
    /// `None`, and so is a failure, which is also recorded for the GUI.
    fn guarded<T>(&self, probe: impl FnOnce() -> Result<T, SyzygyError>) -> Option<T> {
        self.checked(probe).ok()
    }

    /// Runs a probe, catching a panic; a failure is recorded for the GUI as well as returned.
    /// Nothing is formatted unless the probe failed: the search meets missing tables often.
    fn checked<T>(&self, probe: impl FnOnce() -> Result<T, SyzygyError>) -> Result<T, Gap> {
        let failure = match catch_unwind(AssertUnwindSafe(probe)) {
            Ok(Ok(value)) => return Ok(value),
            Ok(Err(SyzygyError::Castling | SyzygyError::TooManyPieces)) => return Err(Gap::NotHeld),
            Ok(Err(missing @ SyzygyError::MissingTable { .. })) => return Err(Gap::Missing(missing)),
            // `corrupted table: <backtrace>`: the first line is the message.
            Ok(Err(error)) => error.to_string().lines().next().unwrap_or_default().to_string(),
            Err(_) => "the table prober panicked (corrupt table?)".to_string(),
        };
        self.record(failure.clone());
        Err(Gap::Failed(failure))
    }

    fn record(&self, message: String) {
        let mut failure = self.failure.lock();
        if failure.is_none() {
            *failure = Some(message);
        }
    }
}

/// A table file of `folder` that registering refuses (a size no table has), to name in the
/// error instead of the folder; `add_directory` does not say which file it stopped at.
fn refused_file(folder: &Path) -> Option<PathBuf> {
    let mut entries: Vec<PathBuf> =
        std::fs::read_dir(folder).ok()?.filter_map(|entry| Some(entry.ok()?.path())).collect();
    entries.sort();
    entries.into_iter().find(|path| {
        matches!(Tablebase::<Chess>::new().add_file(path), Err(error) if error.kind() != ErrorKind::InvalidInput)
    })
}

fn outcome(wdl: Wdl, rule50: bool) -> Outcome {
    match wdl {
        Wdl::Win => Outcome::Win,
        Wdl::Loss => Outcome::Loss,
        Wdl::Draw => Outcome::Draw,
        Wdl::CursedWin if !rule50 => Outcome::Win,
        Wdl::BlessedLoss if !rule50 => Outcome::Loss,
        Wdl::CursedWin | Wdl::BlessedLoss => Outcome::Draw,
    }
}

/// Whether a position is small enough, and free of castling rights, to look up.
pub fn is_candidate(pos: &Chess, limit: usize) -> bool {
    pos.board().occupied().count() <= limit && pos.castles().castling_rights().is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn load_errors_name_the_path() {
        let error = Tablebases::load("").expect_err("no folder");
        assert!(matches!(error, TablebaseError::NoFolder(_)), "{error}");
        let empty = std::env::temp_dir().join(format!("patina-tablebase-empty-{}", std::process::id()));
        std::fs::create_dir_all(&empty).unwrap();
        let path = empty.to_string_lossy().into_owned();
        let error = Tablebases::load(&path).expect_err("no tables");
        assert_eq!(error.to_string(), format!("no Syzygy table files (*.rtbw, *.rtbz) in '{path}'"));
        std::fs::remove_dir_all(&empty).unwrap();
        let missing = format!("{path}-missing");
        let error = Tablebases::load(&missing).expect_err("no such folder");
        assert!(
            matches!(&error, TablebaseError::Unreadable { culprit, .. } if culprit.to_string_lossy() == missing)
        );
    }
}
