//! What the search keeps from one `go` to the next: each thread's move histories and
//! correction tables. Cleared with the transposition table (`ucinewgame`, `Clear Hash`), so a
//! game's searches learn from each other and a new game starts fresh.

use super::correction::Correction;
use super::history::History;
use parking_lot::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// One search thread's learned tables.
#[derive(Default)]
pub struct ThreadMemory {
    pub history: Box<History>,
    pub correction: Box<Correction>,
}

/// The learned tables of every search thread, lent to the workers of each search.
#[derive(Default)]
pub struct SearchMemory {
    threads: Mutex<Vec<ThreadMemory>>,
    /// Counts `clear` calls, so tables lent before a clear are not kept after it.
    clears: AtomicU64,
}

/// Tables lent to one search, and when.
pub(super) struct Loan {
    pub tables: Vec<ThreadMemory>,
    clears: u64,
}

impl SearchMemory {
    /// Forgets everything learned (a new game).
    pub fn clear(&self) {
        let mut threads = self.threads.lock();
        self.clears.fetch_add(1, Ordering::Relaxed);
        threads.clear();
    }

    /// The tables for `count` threads (thread 0 first); fresh ones where none were kept.
    pub(super) fn lend(&self, count: usize) -> Loan {
        let mut threads = self.threads.lock();
        let mut tables = std::mem::take(&mut *threads);
        tables.resize_with(count, ThreadMemory::default);
        Loan { tables, clears: self.clears.load(Ordering::Relaxed) }
    }

    /// Keeps the tables the workers of a search leave behind, for the next search, unless the
    /// memory was cleared while they searched.
    pub(super) fn keep(&self, loan: Loan) {
        let mut threads = self.threads.lock();
        if self.clears.load(Ordering::Relaxed) == loan.clears {
            *threads = loan.tables;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::history::Contexts;
    use crate::search::params::SearchParams;
    use shakmaty::{Bitboard, Chess, Color, Position as _};

    /// Marks a thread's tables with a cutoff of `mv` that a fresh table does not have.
    fn mark(tables: &mut ThreadMemory, mv: shakmaty::Move) {
        let params = SearchParams::default();
        let deltas = (params.history_bonus(10), params.history_malus(10));
        tables.history.reward_cutoff(mv, &[], &[], &Contexts::NONE, Color::White, None, deltas, 0);
    }

    fn is_marked(tables: &ThreadMemory, mv: shakmaty::Move) -> bool {
        tables.history.butterfly(Color::White, Bitboard::EMPTY, mv) != 0
    }

    #[test]
    fn tables_come_back_to_the_next_search_unless_cleared_meanwhile() {
        let moves = Chess::default().legal_moves();
        let memory = SearchMemory::default();
        let mut loan = memory.lend(2);
        mark(&mut loan.tables[0], moves[0]);
        mark(&mut loan.tables[1], moves[1]);
        memory.keep(loan);
        let again = memory.lend(3);
        assert_eq!(again.tables.len(), 3);
        assert!(is_marked(&again.tables[0], moves[0]) && is_marked(&again.tables[1], moves[1]));
        assert!(!is_marked(&again.tables[2], moves[0]), "a new thread starts fresh");
        memory.clear();
        memory.keep(again);
        let after_clear = memory.lend(2);
        assert!(after_clear
            .tables
            .iter()
            .all(|tables| !is_marked(tables, moves[0]) && !is_marked(tables, moves[1])));
    }
}
