//! Static exchange evaluation: would a capture sequence on one square win at least a threshold?
//!
//! `see_ge(pos, m, threshold)` plays out the exchange on the move's target square, each side
//! recapturing with its least valuable attacker and either side free to stop, and answers
//! whether the mover ends at least `threshold` centipawns up. X-rays through the pieces that
//! leave are found by recomputing slider attacks on the shrinking occupancy. Pins are ignored
//! (a pinned recapturer counts), the usual trade of accuracy for speed.

use shakmaty::attacks::{bishop_attacks, rook_attacks};
use shakmaty::{Bitboard, Chess, Move, Position as _, Role};

/// Exchange values of pawn, knight, bishop, rook, queen, king.
pub const SEE_VALUE: [i32; 6] = [100, 300, 300, 500, 900, 20_000];

/// The exchange value of `role` (what capturing such a piece gains).
pub fn value(role: Role) -> i32 {
    SEE_VALUE[role as usize - 1]
}

/// True when `m` wins at least `threshold` centipawns once the exchange on its square ends.
pub fn see_ge(pos: &Chess, m: Move, threshold: i32) -> bool {
    let (from, to) = match m {
        Move::Normal { from, to, promotion: None, .. } => (from, to),
        // Castling, en passant and promotions: count only what is taken outright.
        _ => {
            let gain = match m {
                Move::EnPassant { .. } => value(Role::Pawn),
                _ => m.capture().map_or(0, value) + m.promotion().map_or(0, |r| value(r) - value(Role::Pawn)),
            };
            return gain >= threshold;
        }
    };
    let board = pos.board();
    // What we gain if the opponent does not recapture, less what we need.
    let mut balance = m.capture().map_or(0, value) - threshold;
    if balance < 0 {
        return false;
    }
    // Even losing the moved piece for nothing keeps us above the threshold.
    balance -= value(m.role());
    if balance >= 0 {
        return true;
    }
    let mut occupied = board.occupied() ^ Bitboard::from(from) ^ Bitboard::from(to);
    let diagonal = board.bishops_and_queens();
    let straight = board.rooks_and_queens();
    let mut attackers = (board.attacks_to(to, shakmaty::Color::White, occupied)
        | board.attacks_to(to, shakmaty::Color::Black, occupied))
        & occupied;
    let mut side = !pos.turn();
    // `mover_wins` flips each time a side recaptures: whoever cannot continue profitably stops.
    let mut mover_wins = true;
    loop {
        let ours = attackers & board.by_color(side);
        if ours.is_empty() {
            break;
        }
        let role = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King]
            .into_iter()
            .find(|&role| (ours & board.by_role(role)).any())
            .unwrap_or(Role::King);
        mover_wins = !mover_wins;
        // The side recapturing now is down `-balance - 1`; negating flips the point of view.
        balance = -balance - 1 - value(role);
        // Ahead even if the capturing piece is lost: stop here. (A king "capturing" into a
        // defended square is recaptured next round at its huge value, which undoes it.)
        if balance >= 0 {
            break;
        }
        let Some(square) = (ours & board.by_role(role)).first() else { break };
        occupied ^= Bitboard::from(square);
        // Reveal sliders behind the piece that just captured.
        if matches!(role, Role::Pawn | Role::Bishop | Role::Queen) {
            attackers |= bishop_attacks(to, occupied) & diagonal;
        }
        if matches!(role, Role::Rook | Role::Queen) {
            attackers |= rook_attacks(to, occupied) & straight;
        }
        attackers &= occupied;
        side = !side;
    }
    mover_wins
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::uci::UciMove;
    use shakmaty::CastlingMode;

    fn check(fen: &str, uci: &str, threshold: i32) -> bool {
        let pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
        let m = uci.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        see_ge(&pos, m, threshold)
    }

    /// The exchange's exact value `v` satisfies see_ge(v) and not see_ge(v + 1).
    fn exactly(fen: &str, uci: &str, expected: i32) {
        assert!(check(fen, uci, expected), "{fen} {uci} should win at least {expected}");
        assert!(!check(fen, uci, expected + 1), "{fen} {uci} should win no more than {expected}");
    }

    #[test]
    fn undefended_pawn_wins_a_pawn() {
        exactly("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5", 100);
    }

    #[test]
    fn defended_pawn_taken_by_rook_loses_the_exchange() {
        exactly("4k3/8/3p4/4p3/8/8/8/4RK2 w - - 0 1", "e1e5", 100 - 500);
    }

    #[test]
    fn knight_takes_defended_pawn_behind_xray() {
        // Nxd5 exd5 Rxd5? the rook battery decides: knight for pawn, then rook trades.
        exactly("1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1", "d3e5", 100 - 300);
    }

    #[test]
    fn quiet_move_to_attacked_square_loses_the_piece() {
        exactly("4k3/8/8/3p4/8/8/8/1N2K3 w - - 0 1", "b1c3", 0);
        exactly("4k3/8/8/3p4/8/8/8/1N2K3 w - - 0 1", "b1a3", 0);
        exactly("4k3/8/8/8/3p4/8/8/1N2K3 w - - 0 1", "b1c3", -300);
    }

    #[test]
    fn king_cannot_recapture_a_defended_square() {
        // Qxf7+ Kxf7 is impossible when the bishop guards f7, so the queen wins the pawn.
        exactly("4k3/5p2/8/8/2B5/8/8/4KQ2 w - - 0 1", "f1f7", 100);
    }
}
