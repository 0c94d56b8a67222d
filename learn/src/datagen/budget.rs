//! How long each datagen search runs: a hard node limit (`--nodes`), and optionally a soft one
//! (`--soft-nodes`) after which no new iteration starts.
//!
//! A hard limit alone cuts the last iteration off wherever the count runs out, so the move and
//! score often come from an iteration a few hundred nodes old while most of the budget went
//! into one that never finished. With a soft limit every search ends on a whole iteration: the
//! first one to finish past the soft limit is the last, and the hard limit only catches the
//! rare iteration that explodes.
//!
//! The soft limit is the search's own (`SearchLimits::soft_nodes`): it is checked after each
//! completed iteration, where the clock's soft limit is, so on one thread the search stays a
//! pure function of the position, the table, the histories and the limits.

use patina::engine;
use patina::position::Position;
use patina::search::{SearchControl, SearchLimits, SearchMemory, SearchOutcome};
use patina::tt::TranspositionTable;

/// The node limits of one move's search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NodeBudget {
    /// The search stops at this many nodes, mid-iteration if need be.
    pub hard: u64,
    /// When set, the first iteration that finishes with this many nodes or more is the last.
    pub soft: Option<u64>,
}

impl NodeBudget {
    /// Exactly `nodes` nodes a move (the datagen default): no soft limit.
    pub fn fixed(nodes: u64) -> NodeBudget {
        NodeBudget { hard: nodes, soft: None }
    }
}

/// Searches `pos` on one thread within `budget`, with `tt` and the game's `memory`; `None`
/// when the side to move has no legal move.
pub fn search(
    pos: &Position,
    budget: NodeBudget,
    tt: &TranspositionTable,
    memory: &SearchMemory,
) -> Option<SearchOutcome> {
    let limits = SearchLimits { soft_nodes: budget.soft, ..engine::fixed_nodes(budget.hard) };
    // A control per search: it counts the nodes the limits are checked against.
    engine::search_with_memory(pos, &limits, tt, memory, &SearchControl::new(false), &|_| {})
}

#[cfg(test)]
mod tests {
    use super::*;
    use patina::search::{ScoreBound, SearchEvent};
    use std::sync::Mutex;

    /// The node count of each finished iteration of a `hard`-node search of `fen`, on a fresh
    /// table and histories.
    fn iteration_nodes(fen: &str, hard: u64) -> Vec<(i32, u64)> {
        let pos = Position::from_fen(fen, false).unwrap();
        let tt = TranspositionTable::new(1).unwrap();
        let seen = Mutex::new(Vec::new());
        let record = |event: SearchEvent| {
            let SearchEvent::Iteration(line) = event else { return };
            if line.bound == ScoreBound::Exact {
                seen.lock().unwrap().push((line.depth, line.nodes));
            }
        };
        let control = SearchControl::new(false);
        let limits = engine::fixed_nodes(hard);
        engine::search_with_memory(&pos, &limits, &tt, &SearchMemory::default(), &control, &record).unwrap();
        seen.into_inner().unwrap()
    }

    fn soft_search(fen: &str, budget: NodeBudget) -> SearchOutcome {
        let pos = Position::from_fen(fen, false).unwrap();
        let tt = TranspositionTable::new(1).unwrap();
        search(&pos, budget, &tt, &SearchMemory::default()).unwrap()
    }

    const MIDDLEGAME: &str = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";

    #[test]
    fn the_iteration_that_passes_the_soft_limit_is_the_last() {
        let iterations = iteration_nodes(MIDDLEGAME, 200_000);
        assert!(iterations.len() >= 6, "{iterations:?}");
        // A soft limit anywhere inside iteration k's span ends the search right after it.
        for window in iterations.windows(2).skip(2).take(3) {
            let ((_, before), (depth, nodes)) = (window[0], window[1]);
            for soft in [before + 1, (before + nodes) / 2, nodes] {
                let outcome = soft_search(MIDDLEGAME, NodeBudget { hard: 200_000, soft: Some(soft) });
                assert_eq!((outcome.depth, outcome.nodes), (depth, nodes), "soft {soft}: {iterations:?}");
            }
        }
        // The hard limit still cuts an iteration short.
        let ((_, before), (depth, nodes)) = (iterations[2], iterations[3]);
        let hard = (before + nodes) / 2;
        let capped = soft_search(MIDDLEGAME, NodeBudget { hard, soft: Some(nodes * 10) });
        assert_eq!((capped.depth, capped.nodes), (depth - 1, hard), "{iterations:?}");
    }

    #[test]
    fn without_a_soft_limit_the_search_runs_to_the_hard_one() {
        let outcome = soft_search(MIDDLEGAME, NodeBudget::fixed(3000));
        assert_eq!(outcome.nodes, 3000);
        let again = soft_search(MIDDLEGAME, NodeBudget::fixed(3000));
        assert_eq!((again.best, again.nodes), (outcome.best, outcome.nodes), "reproducible");
    }
}
