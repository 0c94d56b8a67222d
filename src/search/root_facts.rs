//! What is known of a search's root before it is searched, settled once by `threads::run` and
//! shared read-only by every worker:
//!
//! - **A dead root.** With insufficient material, or in a dead position `rules::dead` proves,
//!   every position the search can reach is dead too, so every node below the root scores
//!   exactly `DRAW` (`is_dead`) and the root reports 0.

use crate::position::Position;
use shakmaty::Position as _;

/// The root's facts (see the module comment); `default()` knows nothing.
#[derive(Debug, Clone, Default)]
pub struct RootFacts {
    /// Whether the root is dead: nothing reachable from it can be checkmate.
    pub is_dead: bool,
}

impl RootFacts {
    /// Settles the facts of `pos`.
    pub fn settle(pos: &Position) -> RootFacts {
        let chess = pos.chess();
        RootFacts { is_dead: chess.is_insufficient_material() || crate::rules::dead::is_dead(chess) }
    }
}
