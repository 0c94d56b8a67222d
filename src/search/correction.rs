//! Correction history: how far the static evaluation has been from the search's own result in
//! positions with the same pawns (and the same pieces of one side), learned as the search runs
//! and added to every later static evaluation of such positions, so that pruning trusts an
//! evaluation that is right on average for the structure on the board.
//!
//! Keys are hashes of piece bitboards, computed in a few multiplications per node: the pawns of
//! both sides, and each side's non-pawn pieces (its king included).

use super::params::{
    CORRECTION_GRAIN, CORRECTION_LIMIT, CORRECTION_SIZE, CORRECTION_TABLES_DIVISOR, CORRECTION_WEIGHT_CAP,
};
use shakmaty::{Bitboard, Board, Chess, Color, Position as _, Role};

fn mix(mut x: u64) -> u64 {
    // splitmix64's finaliser: every input bit reaches every output bit.
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

fn hash_boards(boards: &[Bitboard]) -> u64 {
    boards.iter().fold(0x9e37_79b9_7f4a_7c15, |acc, board| mix(acc ^ board.0))
}

fn pawn_key(board: &Board) -> u64 {
    hash_boards(&[board.pawns() & board.white(), board.pawns() & board.black()])
}

fn non_pawn_key(board: &Board, color: Color) -> u64 {
    let side = board.by_color(color);
    let roles = [Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King];
    let boards = roles.map(|role| board.by_role(role) & side);
    hash_boards(&boards)
}

/// One thread's correction tables, indexed by the side to move.
pub struct Correction {
    pawn: Box<[[i32; CORRECTION_SIZE]; 2]>,
    /// [side to move][colour whose pieces are hashed]
    non_pawn: Box<[[[i32; CORRECTION_SIZE]; 2]; 2]>,
}

impl Default for Correction {
    fn default() -> Self {
        Correction {
            pawn: Box::new([[0; CORRECTION_SIZE]; 2]),
            non_pawn: Box::new([[[0; CORRECTION_SIZE]; 2]; 2]),
        }
    }
}

/// Where one position's corrections live.
#[derive(Debug, Clone, Copy)]
pub struct Slots {
    side: usize,
    pawn: usize,
    non_pawn: [usize; 2],
}

impl Slots {
    pub fn of(pos: &Chess) -> Slots {
        let board = pos.board();
        let slot = |key: u64| (key as usize) & (CORRECTION_SIZE - 1);
        Slots {
            side: pos.turn() as usize,
            pawn: slot(pawn_key(board)),
            non_pawn: [slot(non_pawn_key(board, Color::Black)), slot(non_pawn_key(board, Color::White))],
        }
    }
}

impl Correction {
    /// The centipawns to add to a raw static evaluation of the position at `slots`.
    pub fn correction(&self, slots: Slots) -> i32 {
        let sum = self.pawn[slots.side][slots.pawn]
            + self.non_pawn[slots.side][0][slots.non_pawn[0]]
            + self.non_pawn[slots.side][1][slots.non_pawn[1]];
        (sum / (CORRECTION_GRAIN * CORRECTION_TABLES_DIVISOR)).clamp(-CORRECTION_LIMIT, CORRECTION_LIMIT)
    }

    /// The search found `score` where the raw static evaluation said `raw_eval`, at `depth`:
    /// move each entry toward the error, more for deeper (more trustworthy) results.
    pub fn learn(&mut self, slots: Slots, raw_eval: i32, score: i32, depth: i32) {
        let error = (score - raw_eval).clamp(-CORRECTION_LIMIT * 4, CORRECTION_LIMIT * 4) * CORRECTION_GRAIN;
        let weight = (depth + 1).clamp(1, CORRECTION_WEIGHT_CAP);
        let bound = CORRECTION_LIMIT * CORRECTION_GRAIN;
        let blend = |entry: &mut i32| {
            *entry = ((*entry * (256 - weight) + error * weight) / 256).clamp(-bound, bound);
        };
        blend(&mut self.pawn[slots.side][slots.pawn]);
        blend(&mut self.non_pawn[slots.side][0][slots.non_pawn[0]]);
        blend(&mut self.non_pawn[slots.side][1][slots.non_pawn[1]]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::CastlingMode;

    fn chess(fen: &str) -> Chess {
        fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
    }

    #[test]
    fn a_learned_error_corrects_positions_sharing_its_structure() {
        let mut table = Correction::default();
        let learned = chess("4k3/pp6/8/8/8/8/PP6/R3K3 w - - 0 1");
        let rook_moved = chess("4k3/pp6/8/8/8/8/PP6/3RK3 w - - 0 1");
        let nothing_shared = chess("2k5/p7/1p6/8/8/8/PP6/3RK3 w - - 0 1");
        for _ in 0..500 {
            table.learn(Slots::of(&learned), 0, 15, 10);
        }
        // Pawns, White's pieces and Black's pieces each learned the 15 cp error (less rounding),
        // and their sum is halved.
        assert!((22..=23).contains(&table.correction(Slots::of(&learned))));
        assert!((14..=15).contains(&table.correction(Slots::of(&rook_moved))));
        assert_eq!(table.correction(Slots::of(&nothing_shared)), 0);
        // The other side to move has its own tables.
        let black_to_move = chess("4k3/pp6/8/8/8/8/PP6/R3K3 b - - 0 1");
        assert_eq!(table.correction(Slots::of(&black_to_move)), 0);
        for _ in 0..500 {
            table.learn(Slots::of(&learned), 0, 2000, 30);
        }
        assert_eq!(table.correction(Slots::of(&learned)), CORRECTION_LIMIT);
        table = Correction::default();
        assert_eq!(table.correction(Slots::of(&learned)), 0);
    }
}
