//! What the engine says of a position without searching it: the `eval` command's breakdown and
//! network score, the `result` command's verdict. The UCI layer calls these and formats their
//! answers.

use super::{Breakdown, Engine, Position, Verdict};
use crate::eval;
use crate::rules;
use shakmaty::Color;

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

impl Engine {
    /// `pos` evaluated by the hand-written terms and by the chosen net (`EvalFile`'s or the
    /// compiled-in one), whichever plays.
    pub fn evaluate(&self, pos: &Position) -> Evaluation {
        let own = pos.clone().evaluate_network(&self.net);
        let network_white_cp = if pos.turn() == Color::White { own } else { -own };
        Evaluation {
            breakdown: eval::breakdown(pos.chess()),
            network_white_cp,
            net_hash: self.net.hash(),
            net_plays: self.options.use_nnue,
        }
    }
}

/// Whether the game on the board is over, and how (or what a player may claim).
pub fn game_result(pos: &Position) -> Verdict {
    rules::judge(pos)
}
