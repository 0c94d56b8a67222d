//! Attack maps: every square one side attacks. The search's history reads them at every node
//! that orders moves (a quiet move's history is kept apart for moves from and to squares the
//! opponent attacks), so they are written for speed: role bitboards walked, pawns shifted.

use shakmaty::attacks::{bishop_attacks, king_attacks, knight_attacks, rook_attacks};
use shakmaty::{Bitboard, Board, Color, File};

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

/// Every square `color` attacks. Written out rather than per role: the union lets bishops and
/// rooks share their loops with the queens.
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
}
