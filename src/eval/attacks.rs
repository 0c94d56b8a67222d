//! Attack maps for one side: what each piece type attacks, and everything together.
//!
//! Built once per evaluation and shared by the mobility, threat and king-safety terms; the
//! search's history reads the union alone (`attacked_squares`) at every node that orders moves.

use shakmaty::attacks::{bishop_attacks, king_attacks, knight_attacks, rook_attacks};
use shakmaty::{Bitboard, Board, Color, File, Role};

/// The squares `color`'s pawns capture on: toward the a-file, then toward the h-file (all
/// pawns at once, by shifting).
fn pawn_capture_sets(board: &Board, color: Color) -> (Bitboard, Bitboard) {
    let pawns = (board.pawns() & board.by_color(color)).0;
    let (not_a, not_h) = (!Bitboard::from_file(File::A).0, !Bitboard::from_file(File::H).0);
    let (west, east) = match color {
        Color::White => ((pawns & not_a) << 7, (pawns & not_h) << 9),
        Color::Black => ((pawns & not_a) >> 9, (pawns & not_h) >> 7),
    };
    (Bitboard(west), Bitboard(east))
}

/// Calls `visit(role, attacks)` for every attack set of `color`'s pieces: one per piece, but the
/// pawns' as two sets (all their captures to one side, then to the other), made by shifting.
/// Walking the role bitboards instead of asking the board what stands on each square is
/// several times faster, and the search pays it per node.
fn each_attack(board: &Board, color: Color, mut visit: impl FnMut(Role, Bitboard)) {
    let ours = board.by_color(color);
    let occupied = board.occupied();
    let (west, east) = pawn_capture_sets(board, color);
    visit(Role::Pawn, west);
    visit(Role::Pawn, east);
    for square in board.knights() & ours {
        visit(Role::Knight, knight_attacks(square));
    }
    for square in board.bishops() & ours {
        visit(Role::Bishop, bishop_attacks(square, occupied));
    }
    for square in board.rooks() & ours {
        visit(Role::Rook, rook_attacks(square, occupied));
    }
    for square in board.queens() & ours {
        visit(Role::Queen, bishop_attacks(square, occupied) | rook_attacks(square, occupied));
    }
    for square in board.kings() & ours {
        visit(Role::King, king_attacks(square));
    }
}

/// Every square `color` attacks: `AttackMap::of(board, color).all` without the per-role and
/// double-attack maps.
/// Written out rather than through `each_attack`: the search calls it at every node that orders
/// moves, and the union lets bishops and rooks share their loops with the queens.
pub fn attacked_squares(board: &Board, color: Color) -> Bitboard {
    let ours = board.by_color(color);
    let occupied = board.occupied();
    let (west, east) = pawn_capture_sets(board, color);
    let mut all = west | east;
    for square in board.knights() & ours {
        all |= knight_attacks(square);
    }
    for square in (board.bishops() | board.queens()) & ours {
        all |= bishop_attacks(square, occupied);
    }
    for square in (board.rooks() | board.queens()) & ours {
        all |= rook_attacks(square, occupied);
    }
    for square in board.kings() & ours {
        all |= king_attacks(square);
    }
    all
}

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
        each_attack(board, color, |role, attacks| {
            map.twice |= map.all & attacks;
            map.all |= attacks;
            map.by_role[role as usize - 1] |= attacks;
        });
        map
    }

    pub fn role(&self, role: Role) -> Bitboard {
        self.by_role[role as usize - 1]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Chess, Position as _};

    #[test]
    fn threats_are_every_square_the_attacker_reaches() {
        let pos = Chess::default();
        let threats = attacked_squares(pos.board(), Color::Black);
        // Black's sixth rank is covered by its pawns, its own pieces defend each other, and
        // nothing reaches White's half.
        assert_eq!(
            threats & Bitboard::from_rank(shakmaty::Rank::Sixth),
            Bitboard::from_rank(shakmaty::Rank::Sixth)
        );
        assert!(threats.contains(shakmaty::Square::D8), "the queen is defended");
        assert!((threats & Bitboard::from_rank(shakmaty::Rank::Fourth)).is_empty());
    }

    #[test]
    fn threats_match_every_piece_asked_one_by_one() {
        use shakmaty::{fen::Fen, CastlingMode, Position};
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        ];
        for fen in fens {
            let mut pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
            // Walk a few plies down each line so pawns reach the edge files and pieces trade.
            for ply in 0..12 {
                for attacker in [Color::White, Color::Black] {
                    let mut expected = Bitboard::EMPTY;
                    for square in pos.board().by_color(attacker) {
                        expected |= pos.board().attacks_from(square);
                    }
                    assert_eq!(attacked_squares(pos.board(), attacker), expected, "{fen} ply {ply}");
                }
                let moves = pos.legal_moves();
                let Some(&mv) = moves.get((ply * 7 + 3) % moves.len().max(1)) else { break };
                pos.play_unchecked(mv);
            }
        }
    }

    #[test]
    fn the_attack_map_matches_each_piece_asked_one_by_one() {
        use shakmaty::{fen::Fen, CastlingMode};
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r1bqkb1r/pp1p1ppp/2n1pn2/2p5/2PP4/2N1PN2/PP3PPP/R1BQKB1R w KQkq - 0 5",
        ];
        for fen in fens {
            let pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
            let board = pos.board();
            for color in [Color::White, Color::Black] {
                let mut expected = AttackMap::default();
                for square in board.by_color(color) {
                    let (role, attacks) = (board.role_at(square).unwrap(), board.attacks_from(square));
                    expected.twice |= expected.all & attacks;
                    expected.all |= attacks;
                    expected.by_role[role as usize - 1] |= attacks;
                }
                let map = AttackMap::of(board, color);
                assert_eq!(map.all, expected.all, "{fen}");
                assert_eq!(map.twice, expected.twice, "{fen}");
                assert_eq!(map.by_role, expected.by_role, "{fen}");
            }
        }
    }
}
