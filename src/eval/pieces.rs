//! Piece terms: mobility, outposts, rooks on open files and the seventh, the bishop pair,
//! threats against enemy pieces, and space. Each adds its counts to a `Tally` (see `sink.rs`).

use super::attacks::AttackMap;
use super::params::*;
use super::pawns::{forward_ranks, relative_rank};
use super::sink::Tally;
use shakmaty::attacks::{bishop_attacks, knight_attacks, rook_attacks};
use shakmaty::{Bitboard, Board, Color, Role, Square};

const FILE_A: u64 = 0x0101_0101_0101_0101;

fn file_of(square: Square) -> u64 {
    FILE_A << square.file() as u32
}

fn count(bits: Bitboard) -> usize {
    bits.count()
}

fn times(bits: Bitboard) -> i32 {
    bits.count() as i32
}

/// Mobility: squares each piece reaches that hold no own piece and no enemy pawn attack.
pub fn mobility(board: &Board, color: Color, theirs: &AttackMap, tally: &mut impl Tally) {
    let occupied = board.occupied();
    let area = !(board.by_color(color) | theirs.role(Role::Pawn));
    let ours = board.by_color(color);
    for square in ours & board.knights() {
        tally.add(KNIGHT_MOBILITY + count(knight_attacks(square) & area), 1);
    }
    for square in ours & board.bishops() {
        tally.add(BISHOP_MOBILITY + count(bishop_attacks(square, occupied) & area), 1);
    }
    for square in ours & board.rooks() {
        tally.add(ROOK_MOBILITY + count(rook_attacks(square, occupied) & area), 1);
    }
    for square in ours & board.queens() {
        let reach = (bishop_attacks(square, occupied) | rook_attacks(square, occupied)) & area;
        tally.add(QUEEN_MOBILITY + count(reach), 1);
    }
}

/// Knights and bishops on squares in the enemy half that a pawn defends and no enemy pawn can
/// ever attack.
pub fn outposts(board: &Board, color: Color, ours: &AttackMap, tally: &mut impl Tally) {
    let their_pawns = board.pawns() & board.by_color(!color);
    let minors = board.by_color(color) & (board.knights() | board.bishops());
    for square in minors & ours.role(Role::Pawn) {
        let rank = relative_rank(color, square);
        if !(3..=5).contains(&rank) {
            continue;
        }
        let file = square.file() as u32;
        let mut sides = 0u64;
        if file > 0 {
            sides |= FILE_A << (file - 1);
        }
        if file < 7 {
            sides |= FILE_A << (file + 1);
        }
        if their_pawns.0 & sides & forward_ranks(color, square) != 0 {
            continue;
        }
        tally.add(if board.knights().contains(square) { KNIGHT_OUTPOST } else { BISHOP_OUTPOST }, 1);
    }
}

/// Rooks on open and semi-open files, and on the seventh rank when it matters.
pub fn rooks(board: &Board, color: Color, tally: &mut impl Tally) {
    let our_pawns = (board.pawns() & board.by_color(color)).0;
    let their_pawns = (board.pawns() & board.by_color(!color)).0;
    let their_king_rank = board.king_of(!color).map(|king| relative_rank(color, king));
    for square in board.by_color(color) & board.rooks() {
        let file = file_of(square);
        if our_pawns & file == 0 {
            tally.add(if their_pawns & file == 0 { ROOK_OPEN_FILE } else { ROOK_SEMI_OPEN_FILE }, 1);
        }
        if relative_rank(color, square) == 6 {
            let seventh = match color {
                Color::White => 0xffu64 << 48,
                Color::Black => 0xffu64 << 8,
            };
            if their_king_rank == Some(7) || their_pawns & seventh != 0 {
                tally.add(ROOK_ON_SEVENTH, 1);
            }
        }
    }
}

pub fn bishop_pair(board: &Board, color: Color, tally: &mut impl Tally) {
    if (board.by_color(color) & board.bishops()).count() >= 2 {
        tally.add(BISHOP_PAIR, 1);
    }
}

/// Threats we make: pawns hitting pieces, minors hitting majors, rooks hitting queens, and
/// enemy pieces attacked but not defended.
pub fn threats(board: &Board, color: Color, ours: &AttackMap, theirs: &AttackMap, tally: &mut impl Tally) {
    let enemy = board.by_color(!color);
    let their_pieces = enemy & !board.pawns() & !board.kings();
    tally.add(THREAT_BY_PAWN, times(their_pieces & ours.role(Role::Pawn)));
    let minors = ours.role(Role::Knight) | ours.role(Role::Bishop);
    tally.add(THREAT_BY_MINOR, times(enemy & (board.rooks() | board.queens()) & minors));
    tally.add(THREAT_BY_ROOK, times(enemy & board.queens() & ours.role(Role::Rook)));
    tally.add(HANGING_PIECE, times(their_pieces & ours.all & !theirs.all));
}

/// Safe squares in our central files behind the front line, which pieces can use.
pub fn space(board: &Board, color: Color, theirs: &AttackMap, tally: &mut impl Tally) {
    let centre_files = 0x3c3c_3c3c_3c3c_3c3cu64;
    let our_ranks = match color {
        Color::White => 0xffff_ff00u64,
        Color::Black => 0xffff_ff00u64 << 24,
    };
    let our_pawns = board.pawns() & board.by_color(color);
    let safe = Bitboard(centre_files & our_ranks) & !our_pawns & !theirs.role(Role::Pawn);
    tally.add(SPACE, times(safe));
}
