//! The board as a person reads it: Unicode pieces in a frame with coordinates, White at the
//! bottom, then who is to move and the FEN.

use crate::position::Position;
use shakmaty::{Color, Piece, Position as _, Role, Square};
use std::fmt::Write as _;

/// The Unicode chess symbol of a piece (outlined for White, filled for Black).
pub fn symbol(piece: Piece) -> char {
    match (piece.color, piece.role) {
        (Color::White, Role::King) => '♔',
        (Color::White, Role::Queen) => '♕',
        (Color::White, Role::Rook) => '♖',
        (Color::White, Role::Bishop) => '♗',
        (Color::White, Role::Knight) => '♘',
        (Color::White, Role::Pawn) => '♙',
        (Color::Black, Role::King) => '♚',
        (Color::Black, Role::Queen) => '♛',
        (Color::Black, Role::Rook) => '♜',
        (Color::Black, Role::Bishop) => '♝',
        (Color::Black, Role::Knight) => '♞',
        (Color::Black, Role::Pawn) => '♟',
    }
}

/// The diagram, the side to move with the move number, and the FEN; ends without a newline.
pub fn diagram(pos: &Position) -> String {
    let chess = pos.chess();
    let board = chess.board();
    let mut text = String::from("  ┌─────────────────┐\n");
    for rank in (0..8u32).rev() {
        let _ = write!(text, "{} │", rank + 1);
        for file in 0..8u32 {
            let square = Square::new(rank * 8 + file);
            // Empty dark squares get a dot, light ones stay blank, so the pattern still shows.
            let empty = if (rank + file) % 2 == 0 { '·' } else { ' ' };
            let _ = write!(text, " {}", board.piece_at(square).map_or(empty, symbol));
        }
        text.push_str(" │\n");
    }
    text.push_str("  └─────────────────┘\n");
    text.push_str("    a b c d e f g h\n\n");
    let side = match chess.turn() {
        Color::White => "White",
        Color::Black => "Black",
    };
    let check = if chess.is_check() { ", in check" } else { "" };
    let _ = write!(text, "{side} to move (move {}){check}\nFEN: {}", chess.fullmoves(), pos.fen());
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_reads_from_whites_side() {
        let text = diagram(&Position::default());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[1], "8 │ ♜ ♞ ♝ ♛ ♚ ♝ ♞ ♜ │");
        assert_eq!(lines[3], "6 │   ·   ·   ·   · │");
        assert_eq!(lines[8], "1 │ ♖ ♘ ♗ ♕ ♔ ♗ ♘ ♖ │");
        assert_eq!(lines[10], "    a b c d e f g h");
        assert!(text.contains("White to move (move 1)\nFEN: rnbqkbnr/"));
    }
}
