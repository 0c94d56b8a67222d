//! Move ordering: gives each move a score so the likeliest cut comes first.
//!
//! Order: the transposition-table move (handed out before anything else is scored); captures
//! that do not lose material (by static exchange) and queen promotions, most valuable victim
//! first; the two killers of this ply; the counter move to the opponent's last move; quiet moves
//! by history; then losing captures and under-promotions.

use crate::see::see_ge;
use shakmaty::{Chess, Move, MoveList, Role};

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

/// A node's moves, handed out best first in two stages.
///
/// Stage one hands out the table move alone, before anything is scored: it causes most cutoffs,
/// and then no capture's static exchange was evaluated in vain. Stage two scores the rest and
/// picks them lazily (selection sort), since a cutoff usually comes after the first few. The
/// order is that of scoring everything at once, except that quiets are ranked by the history as
/// the table move's subtree left it.
/// The moves live in a fixed-size list: no heap allocation per node.
pub struct MovePicker {
    moves: MoveList,
    scores: [i32; 256],
    next: usize,
    hints: OrderingHints,
    rest_scored: bool,
}

impl MovePicker {
    pub fn new(moves: MoveList, hints: OrderingHints) -> MovePicker {
        MovePicker { moves, scores: [0; 256], next: 0, hints, rest_scored: false }
    }

    /// The next move in `pos` (the position the moves were generated in); `history` gives a
    /// quiet move's score and is only called once the table move is done with.
    pub fn next_move(&mut self, pos: &Chess, history: impl Fn(Move) -> i32) -> Option<Move> {
        if !self.rest_scored {
            if self.next == 0 {
                if let Some(index) =
                    self.hints.tt_move.and_then(|tt| self.moves.iter().position(|&m| m == tt))
                {
                    self.moves.swap(0, index);
                    self.next = 1;
                    return Some(self.moves[0]);
                }
            }
            self.score_rest(pos, history);
        }
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

    /// Whether the move last handed out is a capture or promotion already known not to lose
    /// material by static exchange, so callers can skip their own exchange test. False for the
    /// table move, which was handed out unscored.
    pub fn last_is_known_good_tactical(&self) -> bool {
        self.rest_scored && self.next > 0 && self.scores[self.next - 1] >= GOOD_TACTICAL
    }

    fn score_rest(&mut self, pos: &Chess, history: impl Fn(Move) -> i32) {
        let hints = self.hints;
        for (score, &m) in self.scores.iter_mut().zip(self.moves.iter()).skip(self.next) {
            *score = if !is_quiet(m) {
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
        self.rest_scored = true;
    }

    /// Every move, in order, for tests.
    #[cfg(test)]
    fn drain(mut self, pos: &Chess, history: impl Fn(Move) -> i32) -> Vec<Move> {
        std::iter::from_fn(|| self.next_move(pos, &history)).collect()
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
        let picked =
            MovePicker::new(pos.legal_moves(), hints).drain(&pos, |m| if m == quiet { 500 } else { 0 });
        let rank = |m: Move| picked.iter().position(|&p| p == m).unwrap();
        assert_eq!(rank(tt), 0);
        assert_eq!(rank(good), 1);
        assert_eq!(rank(killer), 2);
        assert_eq!(rank(counter), 3);
        assert!(rank(quiet) == 4);
        assert_eq!(rank(bad), picked.len() - 1, "the losing queen capture goes last: {picked:?}");
        assert_eq!(picked.len(), pos.legal_moves().len());
    }

    #[test]
    fn the_table_move_comes_before_anything_is_scored() {
        let pos = Chess::default();
        let tt = "g1f3".parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        let hints = OrderingHints { tt_move: Some(tt), ..OrderingHints::default() };
        let mut picker = MovePicker::new(pos.legal_moves(), hints);
        assert_eq!(picker.next_move(&pos, |_| panic!("history read for the table move")), Some(tt));
        assert!(!picker.last_is_known_good_tactical());
        let rest: Vec<Move> = std::iter::from_fn(|| picker.next_move(&pos, |_| 0)).collect();
        assert_eq!(rest.len(), 19);
        assert!(!rest.contains(&tt));
    }

    #[test]
    fn only_captures_that_win_or_trade_are_known_good() {
        // e4xd5 wins a pawn; Qd1xd5 loses the queen to e6xd5; the king move is quiet.
        let pos: Chess = "4k3/8/4p3/3p4/4P3/8/8/3QK3 w - - 0 1"
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let mut picker = MovePicker::new(pos.legal_moves(), OrderingHints::default());
        let mut known_good = Vec::new();
        while let Some(m) = picker.next_move(&pos, |_| 0) {
            if picker.last_is_known_good_tactical() {
                known_good.push(m);
            }
        }
        let good = "e4d5".parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        assert_eq!(known_good, vec![good]);
    }
}
