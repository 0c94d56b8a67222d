//! Move ordering: gives each move a score so the likeliest cut comes first.
//!
//! Order: the transposition-table move; captures that do not lose material (by static exchange)
//! and queen promotions, most valuable victim first; the two killers of this ply; the counter
//! move to the opponent's last move; quiet moves by history; then losing captures and
//! under-promotions. Moves are picked lazily (selection sort) from a fixed-size list, since a
//! cutoff usually comes after the first few; no heap allocation per node.

use crate::see::see_ge;
use shakmaty::{Chess, Move, MoveList, Role};

const TT_MOVE: i32 = 4_000_000;
const GOOD_TACTICAL: i32 = 2_000_000;
const FIRST_KILLER: i32 = 1_000_002;
const SECOND_KILLER: i32 = 1_000_001;
const COUNTER_MOVE: i32 = 1_000_000;
/// Losing captures and under-promotions sort below every quiet move (history stays within ±1M).
const BAD_TACTICAL: i32 = -2_000_000;

/// Rough piece values for ordering captures (pawn .. king).
const ORDER_VALUE: [i32; 6] = [100, 320, 330, 500, 900, 2000];

fn role_index(role: Role) -> usize {
    role as usize - 1
}

/// MVV-LVA value of a capture or promotion; 0 for quiet moves.
pub fn tactical_value(m: Move) -> i32 {
    let victim = match m {
        Move::EnPassant { .. } => ORDER_VALUE[0],
        _ => m.capture().map_or(0, |role| ORDER_VALUE[role_index(role)]),
    };
    let promotion = m.promotion().map_or(0, |role| ORDER_VALUE[role_index(role)]);
    if victim == 0 && promotion == 0 {
        return 0;
    }
    victim * 10 + promotion * 10 - ORDER_VALUE[role_index(m.role())] / 10
}

/// True for moves ordered and pruned as quiet (no capture, no promotion).
pub fn is_quiet(m: Move) -> bool {
    !m.is_capture() && m.promotion().is_none()
}

/// The captured piece's value for delta pruning in quiescence.
pub fn gain_estimate(m: Move) -> i32 {
    tactical_value(m) / 10
}

/// Moves that help ordering beyond the table move.
#[derive(Debug, Clone, Copy, Default)]
pub struct OrderingHints {
    pub tt_move: Option<Move>,
    pub killers: [Option<Move>; 2],
    pub counter: Option<Move>,
}

/// A list of moves with ordering scores, handed out best first.
pub struct MovePicker {
    moves: MoveList,
    scores: [i32; 256],
    next: usize,
}

impl MovePicker {
    /// Scores `moves` in `pos`; `history` gives a quiet move's score.
    pub fn new(
        pos: &Chess,
        moves: MoveList,
        hints: OrderingHints,
        history: impl Fn(Move) -> i32,
    ) -> MovePicker {
        let mut scores = [0; 256];
        for (score, &m) in scores.iter_mut().zip(moves.iter()) {
            *score = if Some(m) == hints.tt_move {
                TT_MOVE
            } else if !is_quiet(m) {
                let underpromotion = m.promotion().is_some_and(|role| role != Role::Queen);
                if !underpromotion && see_ge(pos, m, 0) {
                    GOOD_TACTICAL + tactical_value(m)
                } else {
                    BAD_TACTICAL + tactical_value(m)
                }
            } else if Some(m) == hints.killers[0] {
                FIRST_KILLER
            } else if Some(m) == hints.killers[1] {
                SECOND_KILLER
            } else if Some(m) == hints.counter {
                COUNTER_MOVE
            } else {
                history(m)
            };
        }
        MovePicker { moves, scores, next: 0 }
    }
}

impl Iterator for MovePicker {
    type Item = Move;

    fn next(&mut self) -> Option<Move> {
        let count = self.moves.len();
        if self.next >= count {
            return None;
        }
        let mut best = self.next;
        for index in self.next + 1..count {
            if self.scores[index] > self.scores[best] {
                best = index;
            }
        }
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        self.next += 1;
        Some(self.moves[self.next - 1])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::uci::UciMove;
    use shakmaty::{CastlingMode, Position};

    #[test]
    fn orders_tt_move_good_captures_killers_counter_history_bad_captures() {
        // White: Qd1xd5 is defended by e6 (bad), Nc3xd5 trades knight for pawn... also bad;
        // e4xd5 wins a pawn for nothing lost (good).
        let pos: Chess = "4k3/8/4p3/3p4/4P3/2N5/8/3QK3 w - - 0 1"
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let mv = |uci: &str| uci.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        let (tt, good, killer, counter, quiet, bad) =
            (mv("e1f2"), mv("e4d5"), mv("c3b5"), mv("d1d2"), mv("c3a4"), mv("d1d5"));
        let hints =
            OrderingHints { tt_move: Some(tt), killers: [Some(killer), None], counter: Some(counter) };
        let picked: Vec<Move> =
            MovePicker::new(&pos, pos.legal_moves(), hints, |m| if m == quiet { 500 } else { 0 }).collect();
        let rank = |m: Move| picked.iter().position(|&p| p == m).unwrap();
        assert_eq!(rank(tt), 0);
        assert_eq!(rank(good), 1);
        assert_eq!(rank(killer), 2);
        assert_eq!(rank(counter), 3);
        assert!(rank(quiet) == 4);
        assert_eq!(rank(bad), picked.len() - 1, "the losing queen capture goes last: {picked:?}");
        assert_eq!(picked.len(), pos.legal_moves().len());
    }
}
