//! What is known of a search's root before it is searched, settled once by `threads::run` and
//! shared read-only by every worker:
//!
//! - **A dead root.** With insufficient material, or in a dead position `rules::dead` proves,
//!   every position the search can reach is dead too, so every node below the root scores
//!   exactly `DRAW` (`is_dead`) and the root reports 0.
//! - **A tablebase root.** The tables rank the root moves (`Tablebases::rank_root_moves`); only
//!   those of the best rank are searched, so the search cannot spoil the result, and a line
//!   it reports without a mate score shows the tables' result for its move instead of the
//!   search's evaluation (`reported`), as Stockfish does. Where DTZ tables ranked the moves the
//!   search probes no tables itself (`probes_in_search`): every move searched already keeps the
//!   result, and a probe right after a pawn move would end the line there, with no plan to show.

use super::params::{DRAW, MATE_BOUND, MAX_PLY, TB_WIN};
use super::{SearchControl, TablebaseUse};
use crate::position::Position;
use crate::tablebase::{Outcome, RankedMove};
use shakmaty::{Move, Position as _};

/// The root's facts (see the module comment); `default()` knows nothing.
#[derive(Debug, Clone, Default)]
pub struct RootFacts {
    /// Whether the root is dead: nothing reachable from it can be checkmate.
    pub is_dead: bool,
    /// The tables' score of each root move kept, when the tables ranked the root.
    table_scores: Vec<(Move, i32)>,
    /// Whether the search should still probe the tables (false after a DTZ ranking).
    probes_in_search: bool,
}

impl RootFacts {
    /// Settles the facts of `pos` and narrows `root_moves` to those the tables keep, when
    /// `tables` rank them. Counts the ranking as one tablebase hit.
    pub fn settle(
        pos: &Position,
        root_moves: &mut Vec<Move>,
        tables: Option<&TablebaseUse>,
        control: &SearchControl,
    ) -> RootFacts {
        let chess = pos.chess();
        let is_dead = chess.is_insufficient_material() || crate::rules::dead::is_dead(chess);
        let ranked = tables
            .filter(|tb| !is_dead && crate::tablebase::is_candidate(chess, tb.probe_limit))
            .and_then(|tb| tb.tables.rank_root_moves(chess, root_moves, tb.rule50, pos.has_repeated()));
        let Some(ranked) = ranked else {
            return RootFacts { is_dead, table_scores: Vec::new(), probes_in_search: true };
        };
        control.count_tb_hit();
        let best_rank = ranked.first().map_or(0, |best| best.rank);
        let kept: Vec<&RankedMove> = ranked.iter().filter(|ranked| ranked.rank == best_rank).collect();
        *root_moves = kept.iter().map(|ranked| ranked.mv).collect();
        let by_dtz = kept.iter().all(|ranked| ranked.dtz.is_some());
        let winning = kept.first().is_some_and(|best| best.outcome == Outcome::Win);
        RootFacts {
            is_dead,
            table_scores: kept.iter().map(|ranked| (ranked.mv, table_score(ranked))).collect(),
            // As Stockfish: with DTZ at the root nothing is left to learn in the tree; with
            // WDL alone, probes still help a win find its way.
            probes_in_search: !by_dtz && winning,
        }
    }

    /// Whether the search may probe the tables below the root.
    pub fn probes_in_search(&self) -> bool {
        self.probes_in_search
    }

    /// The score to report for a line starting with `mv` that the search scored `score`: the
    /// tables' score of `mv` at a table root, unless the search proved a mate.
    pub fn reported(&self, mv: Move, score: i32) -> i32 {
        if self.is_dead {
            return DRAW;
        }
        match self.table_scores.iter().find(|(table_move, _)| *table_move == mv) {
            Some(&(_, table_score)) if score.abs() < MATE_BOUND => table_score,
            _ => score,
        }
    }
}

/// A ranked move's score as the engine reports table results: a win `n` plies from the next
/// capture, pawn move or mate is `TB_WIN - n` (at most `MAX_PLY` plies counted), a draw 0.
fn table_score(ranked: &RankedMove) -> i32 {
    let plies = ranked.dtz.map_or(MAX_PLY as i32, |dtz| dtz.min(MAX_PLY as u32) as i32);
    match ranked.outcome {
        Outcome::Win => TB_WIN - plies,
        Outcome::Draw => DRAW,
        Outcome::Loss => -TB_WIN + plies,
    }
}
