//! Attack maps for one side: what each piece type attacks, and everything together.
//!
//! Built once per evaluation and shared by the mobility, threat and king-safety terms.

use shakmaty::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks};
use shakmaty::{Bitboard, Board, Color, Role};

/// Squares attacked by one side, by attacking role and in total.
#[derive(Debug, Clone, Copy, Default)]
pub struct AttackMap {
    /// Indexed by `role as usize - 1` (pawn .. king).
    pub by_role: [Bitboard; 6],
    pub all: Bitboard,
    /// Squares attacked at least twice (any roles).
    pub twice: Bitboard,
}

impl AttackMap {
    pub fn of(board: &Board, color: Color) -> AttackMap {
        let mut map = AttackMap::default();
        let occupied = board.occupied();
        for square in board.by_color(color) & board.occupied() {
            let Some(role) = board.role_at(square) else { continue };
            let attacks = match role {
                Role::Pawn => pawn_attacks(color, square),
                Role::Knight => knight_attacks(square),
                Role::Bishop => bishop_attacks(square, occupied),
                Role::Rook => rook_attacks(square, occupied),
                Role::Queen => bishop_attacks(square, occupied) | rook_attacks(square, occupied),
                Role::King => king_attacks(square),
            };
            map.twice |= map.all & attacks;
            map.all |= attacks;
            map.by_role[role as usize - 1] |= attacks;
        }
        map
    }

    pub fn role(&self, role: Role) -> Bitboard {
        self.by_role[role as usize - 1]
    }
}
