//! Move ordering: gives each move a score so the likeliest cut comes first.
//!
//! Order: the transposition-table move, then captures and queen promotions by most valuable
//! victim / least valuable attacker, then the two killer moves of this ply, then quiet moves by
//! their history score. Moves are picked lazily (selection sort), since a cutoff usually comes
//! after the first few and sorting the rest would be wasted.

use shakmaty::{Move, Role};

const TT_MOVE: i32 = 4_000_000;
const GOOD_TACTICAL: i32 = 2_000_000;
const FIRST_KILLER: i32 = 1_000_001;
const SECOND_KILLER: i32 = 1_000_000;

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

/// A list of moves with ordering scores, handed out best first.
pub struct MovePicker {
    moves: Vec<(Move, i32)>,
    next: usize,
}

impl MovePicker {
    /// Scores `moves`; `history` gives a quiet move's score.
    pub fn new(
        moves: impl IntoIterator<Item = Move>,
        tt_move: Option<Move>,
        killers: [Option<Move>; 2],
        history: impl Fn(Move) -> i32,
    ) -> MovePicker {
        let moves = moves
            .into_iter()
            .map(|m| {
                let score = if Some(m) == tt_move {
                    TT_MOVE
                } else if !is_quiet(m) {
                    GOOD_TACTICAL + tactical_value(m)
                } else if Some(m) == killers[0] {
                    FIRST_KILLER
                } else if Some(m) == killers[1] {
                    SECOND_KILLER
                } else {
                    history(m)
                };
                (m, score)
            })
            .collect();
        MovePicker { moves, next: 0 }
    }
}

impl Iterator for MovePicker {
    type Item = Move;

    fn next(&mut self) -> Option<Move> {
        let rest = self.moves.get(self.next..)?;
        let best = rest.iter().enumerate().max_by_key(|(_, (_, score))| *score)?.0 + self.next;
        self.moves.swap(self.next, best);
        self.next += 1;
        Some(self.moves[self.next - 1].0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Square;

    fn capture(role: Role, victim: Role) -> Move {
        Move::Normal { role, from: Square::E4, capture: Some(victim), to: Square::D5, promotion: None }
    }
    fn quiet(from: Square, to: Square) -> Move {
        Move::Normal { role: Role::Knight, from, capture: None, to, promotion: None }
    }

    #[test]
    fn orders_tt_move_captures_killers_then_history() {
        let pxq = capture(Role::Pawn, Role::Queen);
        let qxp = capture(Role::Queen, Role::Pawn);
        let killer = quiet(Square::G1, Square::F3);
        let good_quiet = quiet(Square::B1, Square::C3);
        let tt = quiet(Square::B1, Square::A3);
        let picked: Vec<Move> =
            MovePicker::new([good_quiet, qxp, killer, tt, pxq], Some(tt), [Some(killer), None], |m| {
                if m == good_quiet {
                    500
                } else {
                    0
                }
            })
            .collect();
        assert_eq!(picked, vec![tt, pxq, qxp, killer, good_quiet]);
    }
}
