//! What the search learns about moves while it runs: killers, counter moves and the history
//! tables that order moves and steer pruning and reductions.
//!
//! Three history tables, all updated with the same gravity rule (large values move less, so a
//! table never saturates and old lessons fade): butterfly (side, whether the opponent attacks
//! the from and the to square, from, to) for quiets: the same move is a different move when it
//! runs from a threat or into one;
//! continuation (the piece and square of the move one or two plies back, then the piece and
//! square of this move) for quiets in context; capture (piece, to, captured piece) for
//! captures. Bonuses and maluses grow with depth squared, on the scale where gravity bites
//! (`SearchParams::history_bonus` against `HISTORY_MAX`), as in Ethereal.

use super::params::{HISTORY_MAX, MAX_PLY};
use shakmaty::{Bitboard, Color, Move, Role};

/// A moved piece and where it went: the context a continuation history is keyed by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PieceTo {
    /// 0..12: colour * 6 + role.
    piece: u8,
    to: u8,
}

impl PieceTo {
    pub fn of(mover: Color, mv: Move) -> PieceTo {
        PieceTo { piece: piece_index(mover, mv.role()) as u8, to: mv.to() as u8 }
    }

    fn index(self) -> usize {
        self.piece as usize * 64 + self.to as usize
    }
}

fn piece_index(color: Color, role: Role) -> usize {
    (color as usize) * 6 + role as usize - 1
}

/// The piece a tactical move takes (a pawn for en passant and for a quiet promotion).
fn captured_role(mv: Move) -> Role {
    match mv {
        Move::EnPassant { .. } => Role::Pawn,
        _ => mv.capture().unwrap_or(Role::Pawn),
    }
}

fn from_index(mv: Move) -> usize {
    mv.from().map_or(0, |square| square as usize)
}

/// Piece-to entries per context: 12 pieces x 64 squares.
const PIECE_TO: usize = 12 * 64;

/// Butterfly entries of one side: [from attacked][to attacked][from][to].
type ButterflyTable = [[[[i16; 64]; 64]; 2]; 2];

/// One thread's move history.
pub struct History {
    /// [side][from attacked][to attacked][from][to]
    butterfly: Box<[ButterflyTable; 2]>,
    /// Continuation histories one and two plies back: [context piece-to][piece-to].
    continuation: [Box<[i16]>; 2],
    /// [piece-to][captured role]
    capture: Box<[[i16; 6]]>,
    killers: Box<[[Option<Move>; 2]; MAX_PLY + 2]>,
    /// The reply that refuted each move last time: [side that replies][from][to] of the move.
    counters: Box<[[[Option<Move>; 64]; 64]; 2]>,
}

impl Default for History {
    fn default() -> Self {
        History {
            butterfly: Box::new([[[[[0; 64]; 64]; 2]; 2]; 2]),
            continuation: [
                vec![0; PIECE_TO * PIECE_TO].into_boxed_slice(),
                vec![0; PIECE_TO * PIECE_TO].into_boxed_slice(),
            ],
            capture: vec![[0; 6]; PIECE_TO].into_boxed_slice(),
            killers: Box::new([[None; 2]; MAX_PLY + 2]),
            counters: Box::new([[[None; 64]; 64]; 2]),
        }
    }
}

/// History gravity: `entry` moves toward `+-HISTORY_MAX` by `delta`, less the closer it is.
fn apply(entry: &mut i16, delta: i32) {
    let value = *entry as i32;
    *entry = (value + delta - value * delta.abs() / HISTORY_MAX) as i16;
}

/// What a quiet move's history depends on besides the move: the moves one and two plies back
/// (None after a null move or at the root) and the squares the opponent attacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Contexts {
    pub moved: [Option<PieceTo>; 2],
    pub threats: Bitboard,
}

impl Contexts {
    /// No context: what quiescence orders by.
    pub const NONE: Contexts = Contexts { moved: [None, None], threats: Bitboard::EMPTY };
}

/// The butterfly entry of `mv` by `side` under `threats`.
fn butterfly_index(threats: Bitboard, mv: Move) -> (usize, usize, usize, usize) {
    let from_attacked = mv.from().is_some_and(|square| threats.contains(square));
    (from_attacked as usize, threats.contains(mv.to()) as usize, from_index(mv), mv.to() as usize)
}

impl History {
    pub fn killers(&self, ply: usize) -> [Option<Move>; 2] {
        self.killers[ply]
    }

    /// A new search starts with no killers: the plies of the last one were other positions.
    pub fn reset_killers(&mut self) {
        self.killers.fill([None; 2]);
    }

    /// A node's children start with no killers of their own from an unrelated subtree.
    pub fn clear_killers(&mut self, ply: usize) {
        self.killers[ply] = [None; 2];
    }

    pub fn counter(&self, side: Color, previous: Option<Move>) -> Option<Move> {
        previous
            .and_then(|previous| self.counters[side as usize][from_index(previous)][previous.to() as usize])
    }

    pub fn butterfly(&self, side: Color, threats: Bitboard, mv: Move) -> i32 {
        let (from_attacked, to_attacked, from, to) = butterfly_index(threats, mv);
        self.butterfly[side as usize][from_attacked][to_attacked][from][to] as i32
    }

    /// The continuation history of `mv` (played by `side`) in context `k` (0: one ply back).
    pub fn continuation(&self, contexts: &Contexts, k: usize, side: Color, mv: Move) -> i32 {
        contexts.moved[k].map_or(0, |context| {
            self.continuation[k][context.index() * PIECE_TO + PieceTo::of(side, mv).index()] as i32
        })
    }

    /// A quiet move's combined history: what orders quiets and adjusts their reductions.
    pub fn quiet(&self, contexts: &Contexts, side: Color, mv: Move) -> i32 {
        self.butterfly(side, contexts.threats, mv)
            + self.continuation(contexts, 0, side, mv)
            + self.continuation(contexts, 1, side, mv)
    }

    pub fn capture(&self, side: Color, mv: Move) -> i32 {
        let captured = captured_role(mv);
        self.capture[PieceTo::of(side, mv).index()][captured as usize - 1] as i32
    }

    /// Moves the butterfly entry of `mv` (by `side`, under `threats`) by `delta`.
    fn update_butterfly(&mut self, side: Color, threats: Bitboard, mv: Move, delta: i32) {
        let (from_attacked, to_attacked, from, to) = butterfly_index(threats, mv);
        apply(&mut self.butterfly[side as usize][from_attacked][to_attacked][from][to], delta);
    }

    /// Moves every quiet history entry of `mv` (butterfly and continuations) by `delta`.
    fn update_quiet(&mut self, contexts: &Contexts, side: Color, mv: Move, delta: i32) {
        self.update_butterfly(side, contexts.threats, mv, delta);
        self.update_continuations(contexts, side, mv, delta);
    }

    /// Moves the continuation entries of the quiet `mv` (by `side`) by `delta`, leaving its
    /// butterfly entry alone (the search's verdict on a move in these contexts only).
    pub fn update_continuations(&mut self, contexts: &Contexts, side: Color, mv: Move, delta: i32) {
        let target = PieceTo::of(side, mv).index();
        for (k, context) in contexts.moved.iter().enumerate() {
            if let Some(context) = context {
                apply(&mut self.continuation[k][context.index() * PIECE_TO + target], delta);
            }
        }
    }

    fn update_capture(&mut self, side: Color, mv: Move, delta: i32) {
        let captured = captured_role(mv);
        apply(&mut self.capture[PieceTo::of(side, mv).index()][captured as usize - 1], delta);
    }

    /// `best` caused a cutoff after the quiets and tacticals tried before it failed: it earns
    /// `bonus` and they lose `malus`. A quiet best move also becomes a killer and the counter
    /// to the previous move.
    #[allow(clippy::too_many_arguments)]
    pub fn reward_cutoff(
        &mut self,
        best: Move,
        quiets_tried: &[Move],
        tacticals_tried: &[Move],
        contexts: &Contexts,
        side: Color,
        previous: Option<Move>,
        (bonus, malus): (i32, i32),
        ply: usize,
    ) {
        if best.is_capture() || best.promotion().is_some() {
            self.update_capture(side, best, bonus);
        } else {
            if self.killers[ply][0] != Some(best) {
                self.killers[ply][1] = self.killers[ply][0];
                self.killers[ply][0] = Some(best);
            }
            if let Some(previous) = previous {
                self.counters[side as usize][from_index(previous)][previous.to() as usize] = Some(best);
            }
            self.update_quiet(contexts, side, best, bonus);
            for &other in quiets_tried {
                self.update_quiet(contexts, side, other, -malus);
            }
        }
        for &other in tacticals_tried {
            self.update_capture(side, other, -malus);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::params::SearchParams;
    use shakmaty::{Chess, Position as _};

    fn bonus(depth: i32) -> i32 {
        SearchParams::default().history_bonus(depth)
    }

    #[test]
    fn gravity_keeps_entries_within_the_maximum() {
        let mut entry = 0i16;
        for _ in 0..1000 {
            apply(&mut entry, bonus(30));
        }
        assert!(entry as i32 <= HISTORY_MAX && entry as i32 > HISTORY_MAX * 9 / 10, "{entry}");
        for _ in 0..1000 {
            apply(&mut entry, -bonus(30));
        }
        assert!(entry as i32 >= -HISTORY_MAX && (entry as i32) < -HISTORY_MAX * 9 / 10, "{entry}");
    }

    #[test]
    fn a_cutoff_rewards_the_move_in_every_table_and_punishes_those_tried_before() {
        let pos = Chess::default();
        let moves = pos.legal_moves();
        let (best, tried) = (moves[0], moves[1]);
        let context = Some(PieceTo::of(Color::Black, moves[2]));
        let contexts = Contexts { moved: [context, None], threats: Bitboard::EMPTY };
        let mut history = History::default();
        history.reward_cutoff(best, &[tried], &[], &contexts, Color::White, None, (bonus(8), bonus(8)), 3);
        assert_eq!(history.butterfly(Color::White, Bitboard::EMPTY, best), bonus(8));
        assert_eq!(history.continuation(&contexts, 0, Color::White, best), bonus(8));
        assert_eq!(history.continuation(&contexts, 1, Color::White, best), 0);
        assert_eq!(history.quiet(&contexts, Color::White, tried), -2 * bonus(8));
        assert_eq!(history.killers(3), [Some(best), None]);
        assert_eq!(history.butterfly(Color::Black, Bitboard::EMPTY, best), 0, "the other side's table moved");
        let threatened = Bitboard::from(best.from().unwrap());
        assert_eq!(
            history.butterfly(Color::White, threatened, best),
            0,
            "the move from a threat is another entry"
        );
        history = History::default();
        assert_eq!(history.quiet(&contexts, Color::White, best), 0);
    }

    #[test]
    fn a_continuation_update_moves_only_the_contexts_present() {
        let moves = Chess::default().legal_moves();
        let mv = moves[0];
        let [one_back, two_back] = [moves[1], moves[2]].map(|m| Some(PieceTo::of(Color::Black, m)));
        let both = Contexts { moved: [one_back, two_back], threats: Bitboard::EMPTY };
        let mut history = History::default();
        history.update_continuations(&both, Color::White, mv, bonus(6));
        assert_eq!(history.continuation(&both, 0, Color::White, mv), bonus(6));
        assert_eq!(history.continuation(&both, 1, Color::White, mv), bonus(6));
        assert_eq!(history.butterfly(Color::White, Bitboard::EMPTY, mv), 0, "butterfly untouched");
        let after_null = Contexts { moved: [None, two_back], threats: Bitboard::EMPTY };
        history.update_continuations(&after_null, Color::White, mv, -bonus(6));
        assert_eq!(history.continuation(&both, 0, Color::White, mv), bonus(6), "no context one ply back");
        assert!(history.continuation(&both, 1, Color::White, mv) < bonus(6));
    }
}
