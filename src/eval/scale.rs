//! Endgame scaling: material that looks winning on paper but rarely is.
//!
//! Returns a factor out of `SCALE_NORMAL` applied to the endgame part of the score: opposite-
//! coloured bishops with only pawns otherwise, and a stronger side without pawns whose extra
//! material is no more than a minor piece.

use shakmaty::{Bitboard, Board, Color, Role};

/// The endgame scale that leaves the score unchanged; scales are out of this (64ths).
pub const SCALE_NORMAL: i32 = 64;

fn non_pawn_material(board: &Board, color: Color) -> i32 {
    let ours = board.by_color(color);
    [(Role::Knight, 3), (Role::Bishop, 3), (Role::Rook, 5), (Role::Queen, 9)]
        .iter()
        .map(|&(role, value)| (ours & board.by_role(role)).count() as i32 * value)
        .sum()
}

/// Scale factor for the endgame score when `strong` is the side ahead.
pub fn endgame_scale(board: &Board, strong: Color) -> i32 {
    let weak = !strong;
    let strong_pawns = (board.pawns() & board.by_color(strong)).count();
    let strong_material = non_pawn_material(board, strong);
    let weak_material = non_pawn_material(board, weak);
    if strong_pawns == 0 && strong_material - weak_material <= 3 {
        // Without pawns, a minor piece more is rarely enough (KBvK, KRvKB, KRBvKR...).
        return if strong_material <= 3 { 0 } else { SCALE_NORMAL / 8 };
    }
    let bishops = board.bishops();
    let only_bishops = (board.knights() | board.rooks() | board.queens()).is_empty();
    if only_bishops
        && (bishops & board.by_color(Color::White)).count() == 1
        && (bishops & board.by_color(Color::Black)).count() == 1
    {
        let light = (bishops & Bitboard::LIGHT_SQUARES).count();
        if light == 1 {
            // Opposite-coloured bishops: famously drawish.
            return SCALE_NORMAL / 2;
        }
    }
    SCALE_NORMAL
}
