//! A `go` as the engine receives it (`GoRequest`: the position, the clocks as sent, the limits)
//! and what the engine makes of it with the options in force: the search limits (time
//! allocated from our clock, the strength level's restrictions, the tablebase settings, the
//! evaluation) and the level itself. The UCI layer fills the request; nothing here parses text.

use super::EngineEvent;
use crate::options::EngineOptions;
use crate::position::Position;
use crate::search::{Evaluator, SearchLimits, SharedParams, TablebaseUse};
use crate::strength::{self, Knobs};
use crate::tablebase::Tablebases;
use crate::time;
use shakmaty::Move;
use std::sync::Arc;
use std::time::Duration;

// The clocks of a `go` belong to the time module, which reads them (`time::allocate`).
pub use crate::time::GoClocks;

/// What a `go` limits the search by, as sent: the words the UCI parser (`GoParams`) and the
/// engine (`GoRequest`) share.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GoLimits {
    /// The clocks as sent.
    pub clocks: GoClocks,
    /// Plies to search at most.
    pub depth: Option<i32>,
    /// Nodes to search at most.
    pub nodes: Option<u64>,
    /// Stop at a mate in at most this many moves.
    pub mate_in_moves: Option<i32>,
    /// `go infinite`: ignore the clocks, run until `stop`.
    pub infinite: bool,
    /// `go ponder`: the clock starts at `ponderhit`.
    pub ponder: bool,
}

/// Everything one `go` asks of the engine, as plain data: the UCI layer parsed it, the engine
/// turns it into search limits (time allocation, the strength level, tablebase use).
#[derive(Clone)]
pub struct GoRequest {
    /// The position to search (with no legal move, the engine answers without a search).
    pub position: Position,
    /// The limits as sent.
    pub limits: GoLimits,
    /// Restrict the root to these moves (empty: all).
    pub search_moves: Vec<Move>,
}

/// What the engine decided for a `go`, for the caller's bookkeeping.
#[derive(Debug, Clone)]
pub struct GoPlan {
    /// A limited level's shortest time over this move, counted from when the clock starts:
    /// its `bestmove` waits that long unless `stop` comes first.
    pub min_think: Option<Duration>,
    /// What the engine says at once, before any search event: the result of a finished game,
    /// and for a side to move with no legal move the whole answer (no search runs then).
    pub events: Vec<EngineEvent>,
}

/// The strength level the options ask for; `None` at full strength (the top of the range is no
/// limit at all).
pub(super) fn knobs(options: &EngineOptions) -> Option<Knobs> {
    options.limit_strength.then(|| strength::knobs(options.elo)).filter(|k| *k != Knobs::FULL)
}

impl GoRequest {
    /// The search limits under `options` with `tablebases`, `evaluator` and `params`: the time allocated
    /// from our clock, the level's restrictions, the tablebase settings.
    pub(super) fn limits(
        &self,
        options: &EngineOptions,
        tablebases: Option<&Arc<Tablebases>>,
        evaluator: Evaluator,
        params: SharedParams,
        knobs: Option<&Knobs>,
    ) -> SearchLimits {
        let turn = self.position.turn();
        let go = &self.limits;
        let mut limits = SearchLimits {
            depth: go.depth.map(|d| d.max(1)),
            nodes: go.nodes,
            soft_nodes: None,
            mate_in_moves: go.mate_in_moves,
            // `go infinite` ignores clocks: it runs until `stop`.
            time: if go.infinite { None } else { time::allocate(&go.clocks, turn, options.move_overhead_ms) },
            search_moves: self.search_moves.clone(),
            multipv: options.multipv,
            threads: options.threads,
            tablebases: tablebases.map(|tables| TablebaseUse {
                tables: Arc::clone(tables),
                probe_depth: options.syzygy_probe_depth,
                probe_limit: options.syzygy_probe_limit.min(tables.max_pieces()),
                rule50: options.syzygy_50_move_rule,
            }),
            evaluator,
            params,
        };
        if let Some(knobs) = knobs {
            knobs.restrict(&mut limits);
        }
        limits
    }
}
