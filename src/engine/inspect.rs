//! What the engine says of a position without searching it, and the evaluation it plays with:
//! the `eval` command's breakdown and network score, the `result` command's verdict, and the
//! `EvalFile` option's net. The UCI layer calls these and formats their answers.

use super::{Breakdown, Position, Verdict};
use crate::eval;
use crate::nnue::{self, NetError};
use crate::rules;
use shakmaty::Color;
use std::path::Path;

/// A position's static evaluation, both ways the engine can evaluate it.
#[derive(Debug, Clone)]
pub struct Evaluation {
    /// The hand-written evaluation, term by term.
    pub breakdown: Breakdown,
    /// The network's score, centipawns from White's point of view.
    pub network_white_cp: i32,
    /// The hash of the network that scored it.
    pub net_hash: u64,
    /// Whether that network plays (`EvalFile`), or is only the compiled-in one shown for
    /// comparison while the hand-written evaluation plays.
    pub net_plays: bool,
}

/// `pos` evaluated by the hand-written terms and by the net in use (or the compiled-in one).
pub fn evaluate(pos: &Position) -> Evaluation {
    let (net, net_plays) = match nnue::active() {
        Some(net) => (net, true),
        None => (nnue::default_network(), false),
    };
    let own = pos.clone().evaluate_network(&net);
    let network_white_cp = if pos.turn() == Color::White { own } else { -own };
    Evaluation { breakdown: eval::breakdown(pos.chess()), network_white_cp, net_hash: net.hash(), net_plays }
}

/// Whether the game on the board is over, and how (or what a player may claim).
pub fn game_result(pos: &Position) -> Verdict {
    rules::judge(pos)
}

/// Makes the net in the file at `path` the one searches use from their next start, or with an
/// empty `path` restores the default evaluation. `Some(hash)` of the net that now plays, `None`
/// when the hand-written evaluation plays; on error the evaluation is unchanged.
pub fn set_eval_file(path: &str) -> Result<Option<u64>, NetError> {
    if path.is_empty() {
        return Ok(nnue::reset_active().map(|net| net.hash()));
    }
    nnue::load_active(Path::new(path)).map(|net| Some(net.hash()))
}
