//! Opening positions for self-play and for OpenBench's `genfens` (`book.rs` reads EPD books).
//!
//! A candidate is a random book line followed by `BOOK_RANDOM_PLIES` random legal plies (so
//! games from the same line still differ), or, without a book, the start position followed by
//! 8 or 9 random legal plies; datagen may ask for more random plies on top of either
//! (`balanced_opening_with_extra_plies`, its `--random-plies`). A candidate is kept only if the game is not over, the side to move
//! is not in check, and a quick search (`BALANCE_CHECK_NODES`, one thread, cleared table) scores
//! it within `BALANCE_LIMIT_CP`: random plies often hang a piece, and a lost position teaches the
//! evaluation nothing. A share of candidates may start instead from a DFRC position
//! (`dfrc.rs`: each side's back rank drawn from the 960) with 8 or 9 random plies, datagen's
//! `--dfrc`. Everything is drawn from the caller's `Rng`, so an opening is a pure
//! function of the seed stream.

mod book;
mod dfrc;

pub use book::{Book, BookLineError};

use crate::engine;
use crate::position::Position;
use crate::rng::Rng;
use crate::rules;
use crate::search::Score;
use crate::tt::{AllocationError, TranspositionTable};
use shakmaty::CastlingMode;
use std::collections::HashSet;
use std::fmt;
use std::path::PathBuf;

/// Why no opening could be had.
#[derive(Debug)]
pub enum OpeningError {
    /// The book could not be read.
    Io {
        /// The book.
        path: PathBuf,
        /// What the OS said.
        error: std::io::Error,
    },
    /// A book line is not a valid position.
    Book {
        /// The book.
        path: PathBuf,
        /// The line, counting from 1.
        line: usize,
        /// What is wrong with it.
        reason: BookLineError,
    },
    /// The book at this path holds no position.
    EmptyBook(PathBuf),
    /// No balanced opening was found (a degenerate book).
    NoOpening {
        /// The game (or `genfens` line) that needed it.
        index: u64,
        /// Candidates tried.
        attempts: u32,
    },
    /// The search's table could not be allocated.
    Table(AllocationError),
}

impl fmt::Display for OpeningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningError::Io { path, error } => write!(f, "cannot read the book {}: {error}", path.display()),
            OpeningError::Book { path, line, reason } => {
                write!(f, "book {} line {line}: {reason}", path.display())
            }
            OpeningError::EmptyBook(path) => write!(f, "book {} has no positions", path.display()),
            OpeningError::NoOpening { index, attempts } => {
                write!(f, "no balanced opening for game {index} after {attempts} tries (check the book)")
            }
            OpeningError::Table(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for OpeningError {}

/// Random plies played after a book line.
pub const BOOK_RANDOM_PLIES: usize = 2;
/// Random plies from the start position without a book: this many, or one more.
pub const RANDOM_PLIES_MIN: usize = 8;
/// Node budget of the search that decides whether an opening is balanced.
pub const BALANCE_CHECK_NODES: u64 = 5000;
/// Largest absolute score (centipawns, side to move) an opening may have.
pub const BALANCE_LIMIT_CP: i32 = 200;
/// Candidates tried for one opening before giving up (a degenerate book).
pub const MAX_OPENING_ATTEMPTS: u32 = 1000;
/// Openings tried for one `genfens` line before accepting a repeat (a tiny book).
const DISTINCT_ATTEMPTS: u32 = 100;
/// Table size for the balance searches of `genfens`.
const GENFENS_HASH_MIB: usize = 8;

/// Where openings come from: a book, or the start position in `mode`; and the share of
/// them that start instead from a DFRC position (`dfrc.rs`).
#[derive(Clone, Copy)]
pub struct OpeningSource<'a> {
    /// The book whose lines openings start from; `None` (or an empty book) for the start position.
    pub book: Option<&'a Book>,
    /// Castling mode of the start position when there is no book.
    pub mode: CastlingMode,
    /// Percent of candidates (0-100) that start from a random DFRC position, in Chess960
    /// castling mode, with the 8 or 9 random plies of a start without a book. At 0 nothing
    /// is drawn for it, so the openings are those of a source without the setting.
    pub dfrc_percent: u32,
}

impl OpeningSource<'_> {
    /// Draws candidates from `rng` until one is balanced; `None` after `MAX_OPENING_ATTEMPTS`.
    /// `tt` serves the balance searches and is cleared before each.
    pub fn balanced_opening(&self, rng: &mut Rng, tt: &TranspositionTable) -> Option<Position> {
        self.balanced_opening_with_extra_plies(rng, tt, 0)
    }

    /// `balanced_opening` whose candidates each play `extra_plies` more random plies (drawn
    /// from `rng` after the usual ones, so 0 draws exactly what `balanced_opening` does).
    pub fn balanced_opening_with_extra_plies(
        &self,
        rng: &mut Rng,
        tt: &TranspositionTable,
        extra_plies: usize,
    ) -> Option<Position> {
        (0..MAX_OPENING_ATTEMPTS)
            .find_map(|_| self.candidate(rng, extra_plies).filter(|pos| is_balanced(pos, tt)))
    }

    /// One random opening, or `None` when the random plies ended the game or gave check.
    fn candidate(&self, rng: &mut Rng, extra_plies: usize) -> Option<Position> {
        let dfrc = self.dfrc_percent > 0 && rng.below(100) < self.dfrc_percent as usize;
        let (mut pos, plies) = match self.book {
            _ if dfrc => (dfrc::start_position(rng), RANDOM_PLIES_MIN + rng.below(2)),
            Some(book) if !book.is_empty() => (book.position(rng.below(book.len()))?, BOOK_RANDOM_PLIES),
            _ => (Position::startpos(self.mode), RANDOM_PLIES_MIN + rng.below(2)),
        };
        for _ in 0..plies + extra_plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                return None;
            }
            pos.play_game_move(moves[rng.below(moves.len())]);
        }
        let verdict = rules::judge(&pos);
        let playable = !verdict.is_over() && verdict.claims.is_empty() && !pos.is_check();
        playable.then_some(pos)
    }
}

/// A quick search says neither side is clearly better.
fn is_balanced(pos: &Position, tt: &TranspositionTable) -> bool {
    tt.clear();
    let outcome = engine::search_to_limits(pos, &engine::fixed_nodes(BALANCE_CHECK_NODES), tt);
    matches!(outcome, Some(outcome) if matches!(outcome.score, Score::Centipawns(cp) if cp.abs() <= BALANCE_LIMIT_CP))
}

/// OpenBench's `genfens`: hands `emit` the FENs of `count` balanced openings, distinct where the
/// source allows, the same ones for the same `seed`, source and build. `emit` returns false to
/// end early (the output is gone).
pub fn genfens(
    count: u64,
    seed: u64,
    source: OpeningSource<'_>,
    mut emit: impl FnMut(&str) -> bool,
) -> Result<(), OpeningError> {
    let tt = TranspositionTable::new(GENFENS_HASH_MIB).map_err(OpeningError::Table)?;
    let mut seen = HashSet::new();
    for index in 0..count {
        let mut rng = Rng::for_item(seed, index);
        let mut chosen = None;
        for _ in 0..DISTINCT_ATTEMPTS {
            let pos = source
                .balanced_opening(&mut rng, &tt)
                .ok_or(OpeningError::NoOpening { index, attempts: MAX_OPENING_ATTEMPTS })?;
            let is_new = seen.insert(pos.key());
            chosen = Some(pos);
            if is_new {
                break;
            }
        }
        if let Some(pos) = chosen {
            if !emit(&pos.fen()) {
                break;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_openings_are_playable_and_reproducible() {
        let source = OpeningSource { book: None, mode: CastlingMode::Standard, dfrc_percent: 0 };
        let tt = TranspositionTable::new(1).unwrap();
        let first = source.balanced_opening(&mut Rng::for_item(5, 0), &tt).unwrap();
        let again = source.balanced_opening(&mut Rng::for_item(5, 0), &tt).unwrap();
        assert_eq!(first.fen(), again.fen());
        assert!(!first.is_check() && !rules::judge(&first).is_over());
        let plies = first.fen().split_whitespace().nth(5).and_then(|n| n.parse::<u32>().ok()).unwrap();
        assert_eq!(plies, 5, "8 or 9 plies from the start reach move 5: {}", first.fen());
    }

    #[test]
    fn a_dfrc_share_of_openings_start_from_dfrc_positions_and_a_zero_share_draws_nothing() {
        let text = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n";
        let book = Book::parse(std::path::Path::new("b.epd"), text, false).unwrap();
        let tt = TranspositionTable::new(1).unwrap();
        let standard = OpeningSource { book: Some(&book), mode: CastlingMode::Standard, dfrc_percent: 0 };
        let mixed = OpeningSource { dfrc_percent: 50, ..standard };
        let mut dfrc = 0;
        for seed in 0..40 {
            let pos = mixed.balanced_opening(&mut Rng::for_item(seed, 0), &tt).unwrap();
            assert!(!pos.is_check() && !rules::judge(&pos).is_over());
            if pos.castling_mode() == CastlingMode::Chess960 {
                dfrc += 1;
                let fields: Vec<String> = pos.fen().split_whitespace().map(String::from).collect();
                assert_eq!(fields[5], "5", "8 or 9 random plies from the DFRC start: {}", pos.fen());
            } else {
                assert_eq!(pos.fen().split_whitespace().nth(5), Some("2"), "a book line: {}", pos.fen());
            }
        }
        assert!((10..=30).contains(&dfrc), "about half of 40 from DFRC starts: {dfrc}");
        let all = OpeningSource { dfrc_percent: 100, ..standard };
        let pos = all.balanced_opening(&mut Rng::for_item(3, 0), &tt).unwrap();
        assert_eq!(pos.castling_mode(), CastlingMode::Chess960);
    }

    #[test]
    fn book_openings_start_from_a_book_line() {
        let text = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n";
        let book = Book::parse(std::path::Path::new("b.epd"), text, false).unwrap();
        let source = OpeningSource { book: Some(&book), mode: CastlingMode::Standard, dfrc_percent: 0 };
        let tt = TranspositionTable::new(1).unwrap();
        let pos = source.balanced_opening(&mut Rng::for_item(1, 0), &tt).unwrap();
        // Two random plies after 1. e4 (Black's reply, White's second move): Black to move at 2.
        let fen = pos.fen();
        let fields: Vec<&str> = fen.split_whitespace().collect();
        assert_eq!((fields[1], fields[5]), ("b", "2"), "{fen}");
    }

    #[test]
    fn extra_random_plies_follow_the_usual_ones() {
        let text = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n";
        let book = Book::parse(std::path::Path::new("b.epd"), text, false).unwrap();
        let tt = TranspositionTable::new(1).unwrap();
        for source in [
            OpeningSource { book: Some(&book), mode: CastlingMode::Standard, dfrc_percent: 0 },
            OpeningSource { book: None, mode: CastlingMode::Standard, dfrc_percent: 0 },
        ] {
            let draw = |seed, extra| {
                let pos = source.balanced_opening_with_extra_plies(&mut Rng::for_item(seed, 0), &tt, extra);
                pos.expect("a balanced opening").fen()
            };
            for seed in 1..4 {
                let usual = source.balanced_opening(&mut Rng::for_item(seed, 0), &tt).unwrap().fen();
                assert_eq!(draw(seed, 0), usual, "no extra plies: the same opening");
                assert_eq!(draw(seed, 3), draw(seed, 3), "the same seed, the same opening");
            }
        }
        // After 1. e4, two random plies and three more: White to move at move 4 (ply 7).
        let source = OpeningSource { book: Some(&book), mode: CastlingMode::Standard, dfrc_percent: 0 };
        let pos = source.balanced_opening_with_extra_plies(&mut Rng::for_item(1, 0), &tt, 3).unwrap();
        let fen = pos.fen();
        let fields: Vec<&str> = fen.split_whitespace().collect();
        assert_eq!((fields[1], fields[5]), ("w", "4"), "{fen}");
    }
}
