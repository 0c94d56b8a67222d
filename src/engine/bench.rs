//! `bench`: a fixed-depth search over a fixed set of positions, the search's fingerprint.
//!
//! The total node count is identical on every run and machine (one thread, cleared table, fixed
//! depth); it changes only when search or evaluation change on purpose. OpenBench reads the last
//! line, `<nodes> nodes <nps> nps`. With more threads the same positions measure time-to-depth
//! (Lazy SMP's speed-up); the node count then varies from run to run.

use crate::engine;
use crate::position::Position;
use crate::search::{Evaluator, SearchControl, SearchLimits};
use crate::tt::{AllocationError, TranspositionTable};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Depth used when none is given.
pub const DEFAULT_DEPTH: i32 = 9;
/// Table size when none is given: the one the pinned node count is measured with.
pub const DEFAULT_HASH_MIB: usize = 16;

/// Varied positions: openings, middlegames with tactics, endgames.
pub const POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "rnbqkb1r/pp1ppppp/5n2/2p5/2P5/2N5/PP1PPPPP/R1BQKBNR w KQkq - 2 3",
    "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2PP1N2/PP3PPP/RNBQ1RK1 w - - 0 7",
    "rnbqk2r/ppp1bppp/4pn2/3p2B1/2PP4/2N5/PP2PPPP/R2QKBNR w KQkq - 4 5",
    "r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 10",
    "r1b2rk1/2q1bppp/p2ppn2/1p6/3BPP2/2N2B2/PPP3PP/R2Q1R1K w - - 0 14",
    "2rq1rk1/pp1bppbp/3p1np1/8/3NP3/1BN1BP2/PPPQ2PP/2KR3R b - - 6 12",
    "r1bqr1k1/pp3pbp/2pp1np1/4n3/2PNP3/2N1BP2/PP1Q2PP/2KR1B1R w - - 2 11",
    "3r2k1/pp3ppp/2p5/8/3P4/2P2N2/P4PPP/4R1K1 w - - 0 24",
    "r4rk1/pp3ppp/2p1b3/q3P3/3Q4/2N5/PPP3PP/R4RK1 w - - 1 17",
    "2kr3r/ppp2ppp/2n5/2b1p3/4P1n1/2NP1N2/PPP2PPP/R1B2RK1 w - - 0 11",
    "r2qk2r/ppp1bppp/2n1bn2/3pp3/8/1P1P1NP1/PBPNPPBP/R2QK2R w KQkq - 2 7",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "8/8/4k3/8/2p5/8/2PK4/8 w - - 0 1",
    "8/5pk1/6p1/7p/7P/6P1/5PK1/8 w - - 0 1",
    "8/8/8/3k4/8/3K4/3P4/8 w - - 0 1",
    "8/8/1p6/p1p5/P1P2k2/1P6/5K2/8 w - - 0 1",
    "4r1k1/r1q2ppp/ppp2n2/4P3/5Rb1/1N1BQ3/PPP3PP/R5K1 w - - 1 17",
    "2r3k1/pp3ppp/4p3/3pP3/1P1P4/P3R3/5PPP/6K1 b - - 0 24",
    "8/3k4/8/8/8/4B3/4KB2/8 w - - 0 1",
    "6k1/8/8/8/8/8/R7/6K1 w - - 0 1",
    "8/p4pk1/6p1/3R4/3r4/6P1/P4PK1/8 w - - 0 1",
    "1r4k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
    "3q2k1/5ppp/8/8/8/8/5PPP/3Q2K1 w - - 0 1",
    "8/8/8/8/5k2/8/3K4/4Q3 w - - 0 1",
    "rnbqkbnr/ppp2ppp/8/3pp3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq d6 0 3",
];

/// Totals of one bench run.
#[derive(Debug, Clone, Copy)]
pub struct BenchResult {
    /// Nodes searched, all positions together.
    pub nodes: u64,
    /// Time spent searching: each position's search, not the fresh table set up before it
    /// (as Ethereal's bench times it; Stockfish's starts its clock after clearing its table).
    pub elapsed: Duration,
}

impl BenchResult {
    /// Nodes per second over the run.
    pub fn nps(&self) -> u64 {
        (self.nodes as u128 * 1_000_000 / self.elapsed.as_micros().max(1)) as u64
    }
}

/// Searches every position to `depth` on `threads` threads with `evaluator` (the compiled-in
/// net, `Evaluator::default()`, gives the signature a build is known by); `on_position` sees
/// each position's result as it ends.
/// `hash_mib` is the table's size (cleared before each position, so every position starts
/// from an empty table; another size than `DEFAULT_HASH_MIB` gives another node count). `None`
/// when the table cannot be had.
pub fn run(
    depth: i32,
    threads: usize,
    hash_mib: usize,
    evaluator: Evaluator,
    on_position: impl FnMut(usize, &str, BenchResult),
) -> Result<BenchResult, AllocationError> {
    let never = AtomicBool::new(false);
    let tt = TranspositionTable::new(hash_mib)?;
    Ok(run_until(depth, threads, &tt, evaluator, &never, on_position)
        .unwrap_or(BenchResult { nodes: 0, elapsed: Duration::ZERO }))
}

/// `run` with `evaluator` that can be stopped (the UCI `bench` job, which searches with the
/// evaluation in force): `None` once `stop` is raised, which the search notices at its next
/// iteration (a node count cut short means nothing, so none is given).
pub fn run_until(
    depth: i32,
    threads: usize,
    tt: &TranspositionTable,
    evaluator: Evaluator,
    stop: &AtomicBool,
    mut on_position: impl FnMut(usize, &str, BenchResult),
) -> Option<BenchResult> {
    let mut nodes = 0;
    let mut searching = Duration::ZERO;
    for (index, fen) in POSITIONS.iter().enumerate() {
        let Ok(pos) = Position::from_fen(fen, false) else { continue };
        tt.clear();
        let limits = SearchLimits { evaluator: evaluator.clone(), ..engine::fixed_depth(depth, threads) };
        let control = SearchControl::new(false);
        let position_start = Instant::now();
        // Each iteration's report is the search's chance to hear of a stop.
        let watch_stop = |_| {
            if stop.load(Ordering::Relaxed) {
                control.stop();
            }
        };
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        // Every bench position has a legal move (a test checks); one without adds nothing.
        let outcome = engine::search(&pos, &limits, tt, &control, &watch_stop);
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let elapsed = position_start.elapsed();
        let Some(outcome) = outcome else { continue };
        nodes += outcome.nodes;
        searching += elapsed;
        on_position(index, fen, BenchResult { nodes: outcome.nodes, elapsed });
    }
    Some(BenchResult { nodes, elapsed: searching })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn has_enough_valid_positions() {
        assert!(POSITIONS.len() >= 30);
        for fen in POSITIONS {
            let pos = Position::from_fen(fen, false).unwrap_or_else(|e| panic!("{e}"));
            assert!(!pos.legal_moves().is_empty(), "{fen} has no moves");
        }
    }

    #[test]
    fn node_count_is_reproducible() {
        let at = |hash| run(4, 1, hash, Evaluator::default(), |_, _, _| {}).unwrap().nodes;
        let first = at(DEFAULT_HASH_MIB);
        assert_eq!(first, at(DEFAULT_HASH_MIB));
        // A table cleared between positions is as good as a fresh one, whatever its size: at a
        // depth that fills neither, the size changes nothing.
        assert_eq!(first, at(64));
    }

    #[test]
    fn more_threads_search_every_position() {
        let mut searched = 0;
        let result = run(3, 2, DEFAULT_HASH_MIB, Evaluator::default(), |_, _, position| {
            assert!(position.nodes > 0);
            searched += 1;
        });
        assert_eq!(searched, POSITIONS.len());
        assert!(result.unwrap().nodes > 0);
    }

    #[test]
    fn a_table_the_machine_cannot_give_is_an_error() {
        let error = run(4, 1, 1 << 30, Evaluator::default(), |_, _, _| {}).unwrap_err();
        assert!(error.to_string().contains("cannot allocate"), "{error}");
    }
}
