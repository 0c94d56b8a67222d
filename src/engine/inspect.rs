//! What the engine says of a position without searching it, and the evaluation it plays with:
//! the `eval` command's breakdown and network score, the `result` command's verdict, and the
//! `EvalFile` option's net. The UCI layer calls these and formats their answers.

use super::{Breakdown, Position, Verdict};
use crate::eval;
use crate::nnue::{self, NetError, Network};
use crate::rules;
use shakmaty::Color;
use std::path::Path;
use std::sync::Arc;

/// A position's static evaluation, both ways the engine can evaluate it.
#[derive(Debug, Clone)]
pub struct Evaluation {
    /// The hand-written evaluation, term by term.
    pub breakdown: Breakdown,
    /// The network's score, centipawns from White's point of view.
    pub network_white_cp: i32,
    /// The hash of the network that scored it.
    pub net_hash: u64,
    /// Whether that network plays, or is only shown for comparison while the hand-written
    /// evaluation plays (`UseNNUE` off).
    pub net_plays: bool,
}

/// `pos` evaluated by the hand-written terms and by the chosen net (`EvalFile`'s or the
/// compiled-in one), whichever plays.
pub fn evaluate(pos: &Position) -> Evaluation {
    let net = nnue::chosen();
    let net_plays = nnue::active().is_some();
    let own = pos.clone().evaluate_network(&net);
    let network_white_cp = if pos.turn() == Color::White { own } else { -own };
    Evaluation { breakdown: eval::breakdown(pos.chess()), network_white_cp, net_hash: net.hash(), net_plays }
}

/// Whether the game on the board is over, and how (or what a player may claim).
pub fn game_result(pos: &Position) -> Verdict {
    rules::judge(pos)
}

/// Makes the net in the file at `path` the one searches use from their next start (while
/// `UseNNUE` is on), or with an empty `path` the compiled-in net; returns the chosen net's
/// hash. On error the choice is unchanged.
pub fn set_eval_file(path: &str) -> Result<u64, NetError> {
    let net =
        if path.is_empty() { nnue::default_network() } else { Arc::new(Network::load(Path::new(path))?) };
    let hash = net.hash();
    nnue::set_chosen(net);
    Ok(hash)
}

/// `UseNNUE`: whether the chosen net plays (true) or the hand-written evaluation (false), from
/// the next search's start.
pub fn set_use_nnue(on: bool) {
    nnue::set_net_plays(on);
}
