//! King safety: the pawn shield and storm in front of the king, open files beside it, attacks
//! on the squares around it, and safe checks the opponent could give. Counts go to a `Tally`
//! (see `sink.rs`); the king-zone gate is decided here, so a tracer sees the counts after it.

use super::attacks::AttackMap;
use super::params::*;
use super::sink::Tally;
use shakmaty::attacks::{bishop_attacks, king_attacks, knight_attacks, rook_attacks};
use shakmaty::{Bitboard, Board, Color, Role};

const FILE_A: u64 = 0x0101_0101_0101_0101;

fn shift_forward(color: Color, bits: u64, ranks: u32) -> u64 {
    match color {
        Color::White => bits << (8 * ranks),
        Color::Black => bits >> (8 * ranks),
    }
}

/// The king safety of `color` (negative numbers: danger).
pub fn king_safety(
    board: &Board,
    color: Color,
    ours: &AttackMap,
    theirs: &AttackMap,
    tally: &mut impl Tally,
) {
    let Some(king) = board.king_of(color) else { return };
    let file = king.file() as u32;
    let mut files = FILE_A << file;
    if file > 0 {
        files |= FILE_A << (file - 1);
    }
    if file < 7 {
        files |= FILE_A << (file + 1);
    }
    let king_bit = 1u64 << king as u32;
    let our_pawns = (board.pawns() & board.by_color(color)).0;
    let their_pawns = (board.pawns() & board.by_color(!color)).0;

    // Shield and storm on the king's file and its neighbours.
    let rank_bits = 0xffu64 << (8 * king.rank() as u32);
    let near = shift_forward(color, rank_bits, 1) & files;
    let far = shift_forward(color, rank_bits, 2) & files;
    tally.add(SHIELD_PAWN_NEAR, (our_pawns & near).count_ones() as i32);
    tally.add(SHIELD_PAWN_FAR, (our_pawns & far).count_ones() as i32);
    let storm_zone = shift_forward(color, rank_bits, 3) | shift_forward(color, rank_bits, 4);
    tally.add(PAWN_STORM, (their_pawns & storm_zone & files).count_ones() as i32);
    for offset in [-1i32, 0, 1] {
        let f = file as i32 + offset;
        if !(0..8).contains(&f) {
            continue;
        }
        let mask = FILE_A << f;
        if our_pawns & mask == 0 {
            tally.add(if their_pawns & mask == 0 { KING_OPEN_FILE } else { KING_SEMI_OPEN_FILE }, 1);
        }
    }

    // Attacks on the king zone: the king's square, its neighbours, and one rank further out.
    let around = king_attacks(king).0 | king_bit;
    let zone = Bitboard(around | shift_forward(color, around, 1));
    let roles = [Role::Knight, Role::Bishop, Role::Rook, Role::Queen];
    // Counted once at least two kinds of piece join in: a lone attacker rarely mates.
    let attacking_kinds = roles.iter().filter(|&&role| (theirs.role(role) & zone).any()).count();
    if attacking_kinds >= 2 {
        for (index, &role) in roles.iter().enumerate() {
            tally.add(KING_ZONE_ATTACK + index, (theirs.role(role) & zone).count() as i32);
        }
    }

    // Safe checks: squares that check our king, reached by an enemy piece, not defended by us.
    let occupied = board.occupied();
    let unsafe_for_them = ours.all;
    let open = !board.by_color(!color) & !unsafe_for_them;
    let knight_checks = knight_attacks(king) & theirs.role(Role::Knight) & open;
    let bishop_lines = bishop_attacks(king, occupied);
    let rook_lines = rook_attacks(king, occupied);
    let bishop_checks = bishop_lines & theirs.role(Role::Bishop) & open;
    let rook_checks = rook_lines & theirs.role(Role::Rook) & open;
    let queen_checks = (bishop_lines | rook_lines) & theirs.role(Role::Queen) & open;
    for (index, checks) in [knight_checks, bishop_checks, rook_checks, queen_checks].into_iter().enumerate() {
        tally.add(SAFE_CHECK + index, checks.count() as i32);
    }
}
