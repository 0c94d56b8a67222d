//! Syzygy endgame tablebases, through `shakmaty-syzygy`.
//!
//! Two uses: at the root, `rank_root_moves` ranks every move by what the tables say it leads
//! to, so the search only ever looks at moves that keep the best result (a won position is
//! always converted, a drawn one never lost); inside the search, `probe_wdl` scores positions
//! right after a capture or pawn move, where a WDL probe is exact. `root_move` is the tables'
//! own single DTZ-optimal move.
//!
//! The root ranking is Stockfish's (`Tablebases::root_probe`): moves that win are ranked equal,
//! so the search picks among them with a real line to show, unless the fifty-move rule is near
//! (the win's distance to zeroing plus the plies already played comes within
//! `FIFTY_MOVE_MARGIN_PLIES` of 100) or the game has started repeating: then only the moves
//! closest to the next capture, pawn move or mate rank first, and the win cannot slip away.
//! Losses rank equal unless the fifty-move rule might save them, when the longest rank first.
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

/// Plies short of the fifty-move rule's 100 where a root win stops leaving the choice among
/// winning moves to the search and insists on the shortest way to the next zeroing move. The
/// tables' DTZ may be rounded by one ply, and a line the search picks may waste a few more
/// before the next root probe; five moves cover both with room to spare.
pub const FIFTY_MOVE_MARGIN_PLIES: u32 = 10;

/// Rank of a win (before subtracting a distance, when the distance matters).
const WIN_RANK: i32 = 1_000_000;
/// Rank of a win the fifty-move rule spoils (a draw that might still be won), less its
/// distance; above every draw, below every win.
const CURSED_RANK: i32 = 500_000;

/// One root move as the tables rank it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RankedMove {
    /// The move.
    pub mv: Move,
    /// What it leads to for the side playing it (under the fifty-move rule when that is on).
    pub outcome: Outcome,
    /// Plies from the root to the next capture, pawn move or mate on the tables' line that
    /// starts with this move (1 for a capture or pawn move itself, 0 for a draw); `None` when
    /// only WDL tables answered.
    pub dtz: Option<u32>,
    /// Higher is better; the search chooses among the moves of the highest rank.
    pub rank: i32,
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

    /// Ranks the root moves `moves` (legal in `pos`) by the tables, best first (a stable sort:
    /// equal ranks keep their order). `rule50`: wins and losses the fifty-move rule spoils count
    /// as draws. `repeated`: a position has occurred twice since the last capture or pawn move,
    /// so wins rank by distance. DTZ tables first, WDL tables alone if a DTZ probe fails (every
    /// win then ranks equal); `None` when neither answers for every move.
    pub fn rank_root_moves(
        &self,
        pos: &Chess,
        moves: &[Move],
        rule50: bool,
        repeated: bool,
    ) -> Option<Vec<RankedMove>> {
        let halfmoves = pos.halfmoves();
        let by_dtz = moves
            .iter()
            .map(|&mv| {
                let dtz = self.root_dtz(pos, mv)?;
                Some(rank_by_dtz(mv, dtz, halfmoves, rule50, repeated))
            })
            .collect::<Option<Vec<RankedMove>>>();
        let mut ranked = by_dtz.or_else(|| {
            moves
                .iter()
                .map(|&mv| {
                    let mut after = pos.clone();
                    after.play_unchecked(mv);
                    let theirs = self.guarded(|| self.tables.probe_wdl_after_zeroing(&after))?;
                    Some(rank_by_wdl(mv, -theirs, rule50))
                })
                .collect::<Option<Vec<RankedMove>>>()
        })?;
        ranked.sort_by_key(|ranked| std::cmp::Reverse(ranked.rank));
        Some(ranked)
    }

    /// Plies from `pos` to the next zeroing move (or mate) on the tables' line starting with
    /// `mv`, positive when the side playing `mv` wins, negative when it loses, 0 for a draw;
    /// beyond 100 where the fifty-move rule spoils the result (Stockfish's `root_probe`).
    fn root_dtz(&self, pos: &Chess, mv: Move) -> Option<i32> {
        let mut after = pos.clone();
        after.play_unchecked(mv);
        if mv.is_zeroing() {
            // The move itself zeroes: 1 ply to it, and the result of the phase it opens.
            let theirs = self.guarded(|| self.tables.probe_wdl_after_zeroing(&after))?;
            return Some(match -theirs {
                Wdl::Win => 1,
                Wdl::CursedWin => 101,
                Wdl::Draw => 0,
                Wdl::BlessedLoss => -101,
                Wdl::Loss => -1,
            });
        }
        if after.is_checkmate() {
            return Some(1);
        }
        let theirs = self.guarded(|| self.tables.probe_dtz(&after))?.ignore_rounding().0;
        // One ply more from the root, away from zero.
        Some(-theirs + (-theirs).signum())
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

/// A root move's rank from its distance `dtz` (`root_dtz`) with `halfmoves` already played.
fn rank_by_dtz(mv: Move, dtz: i32, halfmoves: u32, rule50: bool, repeated: bool) -> RankedMove {
    let plies = dtz.unsigned_abs();
    // How far into the fifty-move count the next zeroing move falls: a capture or pawn move
    // zeroes it at once, a quiet move adds its distance to the plies already played.
    let reach = if mv.is_zeroing() { plies } else { plies + halfmoves };
    let spoiled = rule50 && reach > FIFTY_MOVE_RULE_PLIES;
    let near = reach + FIFTY_MOVE_MARGIN_PLIES > FIFTY_MOVE_RULE_PLIES;
    let reach = reach.min(CURSED_RANK as u32 / 2) as i32;
    let (outcome, rank) = match dtz.signum() {
        1 if spoiled => (Outcome::Draw, CURSED_RANK - reach),
        1 if near || repeated => (Outcome::Win, WIN_RANK - reach),
        1 => (Outcome::Win, WIN_RANK),
        -1 if spoiled => (Outcome::Draw, -CURSED_RANK + reach),
        -1 if rule50 && near => (Outcome::Loss, -WIN_RANK + reach),
        -1 => (Outcome::Loss, -WIN_RANK),
        _ => (Outcome::Draw, 0),
    };
    RankedMove { mv, outcome, dtz: Some(plies), rank }
}

/// A root move's rank from the WDL of the position it leads to, our view: every win equal.
fn rank_by_wdl(mv: Move, wdl: Wdl, rule50: bool) -> RankedMove {
    let outcome = outcome(wdl, rule50);
    let rank = match (wdl, outcome) {
        (_, Outcome::Win) => WIN_RANK,
        (_, Outcome::Loss) => -WIN_RANK,
        (Wdl::CursedWin, _) => CURSED_RANK,
        (Wdl::BlessedLoss, _) => -CURSED_RANK,
        _ => 0,
    };
    RankedMove { mv, outcome, dtz: None, rank }
}

/// Plies without a capture or pawn move after which a draw may be claimed.
const FIFTY_MOVE_RULE_PLIES: u32 = crate::rules::FIFTY_MOVE_PLIES;

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
    use shakmaty::{Role, Square};

    fn quiet() -> Move {
        Move::Normal { role: Role::Rook, from: Square::A1, capture: None, to: Square::A5, promotion: None }
    }

    fn pawn_push() -> Move {
        Move::Normal { role: Role::Pawn, from: Square::C2, capture: None, to: Square::C4, promotion: None }
    }

    fn rank(dtz: i32, halfmoves: u32, rule50: bool, repeated: bool) -> (Outcome, i32) {
        let ranked = rank_by_dtz(quiet(), dtz, halfmoves, rule50, repeated);
        (ranked.outcome, ranked.rank)
    }

    #[test]
    fn wins_rank_equal_until_the_fifty_move_rule_nears() {
        // Far from the rule every win is as good as another: the search chooses.
        assert_eq!(rank(27, 0, true, false), (Outcome::Win, WIN_RANK));
        assert_eq!(rank(61, 29, true, false), (Outcome::Win, WIN_RANK));
        // Within the margin of 100 plies, the nearer progress ranks first; still wins.
        assert_eq!(rank(27, 70, true, false), (Outcome::Win, WIN_RANK - 97));
        assert_eq!(rank(29, 70, true, false), (Outcome::Win, WIN_RANK - 99));
        assert!(rank(29, 70, true, false).1 > CURSED_RANK);
        // Past 100 the rule spoils it: a draw, above every real draw.
        assert_eq!(rank(31, 70, true, false), (Outcome::Draw, CURSED_RANK - 101));
        assert!(rank(200, 99, true, false).1 > 0);
        // Without the rule it stays a win, ranked by distance so the game moves on.
        assert_eq!(rank(31, 70, false, false), (Outcome::Win, WIN_RANK - 101));
        // A game going round in circles ranks wins by distance at once.
        assert_eq!(rank(27, 0, true, true), (Outcome::Win, WIN_RANK - 27));
        // A capture or pawn move that wins zeroes the count: the best there is near the rule.
        let push = rank_by_dtz(pawn_push(), 1, 95, true, true);
        assert_eq!((push.outcome, push.rank, push.dtz), (Outcome::Win, WIN_RANK - 1, Some(1)));
    }

    #[test]
    fn draws_and_losses_rank_below_wins() {
        assert_eq!(rank(0, 40, true, false), (Outcome::Draw, 0));
        // Losses are equal, the search finding the stubbornest defence, unless the rule may
        // save one: then the longest first, and a loss the rule saves is a draw.
        assert_eq!(rank(-20, 0, true, false), (Outcome::Loss, -WIN_RANK));
        assert_eq!(rank(-20, 75, true, false), (Outcome::Loss, -WIN_RANK + 95));
        assert_eq!(rank(-30, 75, true, false), (Outcome::Draw, -CURSED_RANK + 105));
        assert_eq!(rank(-30, 75, false, false), (Outcome::Loss, -WIN_RANK));
        assert!(rank(-30, 75, true, false).1 < 0 && rank(-30, 75, true, false).1 > -WIN_RANK + 1000);
    }

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
