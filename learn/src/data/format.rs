//! Packing a position into the 32-byte record (`mod.rs` has the layout) and reading it back.
//!
//! `PackedPosition::pack` is the only writer; `PackedPosition::from_bytes` checks everything a
//! reader relies on (valid piece codes, a result, an en-passant square, one king a side), so
//! a corrupt file is refused with the record's number rather than fed to a trainer.

use shakmaty::fen::Fen;
use shakmaty::{Bitboard, Board, Chess, Color, EnPassantMode, Piece, Position as _, Role, Setup, Square};
use std::fmt;

/// Bytes per record.
pub const RECORD_BYTES: usize = 32;

/// The score a mate is stored as (White's point of view, signed).
pub const MATE_SCORE: i16 = 32_000;

const FLAG_BLACK_TO_MOVE: u8 = 1;
const FLAG_IN_CHECK: u8 = 1 << 1;
const FLAG_CAPTURE: u8 = 1 << 2;
const FLAG_PROMOTION: u8 = 1 << 3;
const FLAG_GAME_START: u8 = 1 << 4;
const FLAG_MATE: u8 = 1 << 5;
const RESULT_SHIFT: u8 = 6;
const NO_EN_PASSANT: u8 = 64;

/// A game's result from White's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DataResult {
    /// `0-1`; stored as 0.
    BlackWins = 0,
    /// `1/2-1/2`; stored as 1.
    Draw = 1,
    /// `1-0`; stored as 2.
    WhiteWins = 2,
}

impl DataResult {
    /// White's share of the point: 0, 0.5 or 1.
    pub fn white_points(self) -> f32 {
        self as u8 as f32 / 2.0
    }

    /// How a text line spells it: `1.0`, `0.5` or `0.0` (what `read_text_line` reads).
    pub fn text_label(self) -> &'static str {
        ["0.0", "0.5", "1.0"][self as usize]
    }
}

/// Why bytes or a position could not be a record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordError {
    /// The position has this many pieces; a record holds at most 32.
    TooManyPieces(u32),
    /// A piece nibble is no role and colour (valid: 0-5 and 8-13).
    BadPieceCode {
        /// The square holding it (a1 = 0, h8 = 63).
        square: u8,
        /// The nibble.
        code: u8,
    },
    /// The result bits hold this value, not 0, 1 or 2.
    BadResult(u8),
    /// The en-passant byte holds this value, not a square 0..63 or 64 for none.
    BadEnPassant(u8),
    /// A side has no king, or more than one.
    MissingKing,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::TooManyPieces(n) => write!(f, "{n} pieces (at most 32 fit a record)"),
            RecordError::BadPieceCode { square, code } => {
                write!(f, "piece code {code} on square {square} (valid: 0-5 and 8-13)")
            }
            RecordError::BadResult(code) => write!(f, "result code {code} (valid: 0, 1, 2)"),
            RecordError::BadEnPassant(square) => write!(f, "en-passant square {square} (valid: 0-64)"),
            RecordError::MissingKing => write!(f, "a side has no king or more than one"),
        }
    }
}

impl std::error::Error for RecordError {}

/// What the search said about the position a record is made from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchLabel {
    /// Centipawns from White's point of view; ignored when `mate` is set.
    pub white_score: i32,
    /// The score was a mate score; its sign is `white_score`'s.
    pub mate: bool,
    /// The search's best move captures (en passant included); false where none is known.
    pub best_is_capture: bool,
    /// The search's best move promotes.
    pub best_is_promotion: bool,
}

/// Where a record sits in its game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GamePlace {
    /// Plies since the opening ended.
    pub ply: u32,
    /// This is the first record of its game in the file.
    pub game_start: bool,
    /// How the game ended.
    pub result: DataResult,
}

/// One position with its labels, as stored.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PackedPosition([u8; RECORD_BYTES]);

impl fmt::Debug for PackedPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PackedPosition({} | {} | {:?})", self.fen(), self.white_score(), self.result())
    }
}

fn role_code(role: Role) -> u8 {
    role as u8 - 1
}

fn role_from_code(code: u8) -> Role {
    [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King][code as usize]
}

impl PackedPosition {
    /// Packs a position and its labels.
    pub fn pack(board: &Chess, label: SearchLabel, place: GamePlace) -> Result<PackedPosition, RecordError> {
        let mut bytes = [0u8; RECORD_BYTES];
        let pieces = board.board();
        let occupied = pieces.occupied();
        if occupied.count() > 32 {
            return Err(RecordError::TooManyPieces(occupied.count() as u32));
        }
        bytes[0..8].copy_from_slice(&u64::from(occupied).to_le_bytes());
        for (index, square) in occupied.into_iter().enumerate() {
            let piece = pieces.piece_at(square).expect("occupied square has a piece");
            let code = role_code(piece.role) | (u8::from(piece.color == Color::Black) << 3);
            bytes[8 + index / 2] |= code << (4 * (index % 2));
        }
        let mut flags = (place.result as u8) << RESULT_SHIFT;
        let set = |flag: u8, on: bool| if on { flag } else { 0 };
        flags |= set(FLAG_BLACK_TO_MOVE, board.turn() == Color::Black);
        flags |= set(FLAG_IN_CHECK, board.is_check());
        flags |= set(FLAG_CAPTURE, label.best_is_capture);
        flags |= set(FLAG_PROMOTION, label.best_is_promotion);
        flags |= set(FLAG_GAME_START, place.game_start);
        flags |= set(FLAG_MATE, label.mate);
        bytes[24] = flags;
        bytes[25] = board.ep_square(EnPassantMode::Legal).map_or(NO_EN_PASSANT, |sq| sq as u8);
        bytes[26] = board.halfmoves().min(255) as u8;
        bytes[27] = place.ply.min(255) as u8;
        bytes[28..30].copy_from_slice(&(board.fullmoves().get().min(u16::MAX as u32) as u16).to_le_bytes());
        let score = if label.mate {
            if label.white_score >= 0 {
                MATE_SCORE
            } else {
                -MATE_SCORE
            }
        } else {
            label.white_score.clamp(-(MATE_SCORE as i32 - 1), MATE_SCORE as i32 - 1) as i16
        };
        bytes[30..32].copy_from_slice(&score.to_le_bytes());
        Ok(PackedPosition(bytes))
    }

    /// Checks and wraps stored bytes.
    pub fn from_bytes(bytes: [u8; RECORD_BYTES]) -> Result<PackedPosition, RecordError> {
        let record = PackedPosition(bytes);
        let mut kings = [0; 2];
        for (square, code) in record.raw_pieces() {
            if code & 7 > 5 || code > 13 {
                return Err(RecordError::BadPieceCode { square, code });
            }
            if code & 7 == 5 {
                kings[(code >> 3) as usize] += 1;
            }
        }
        if kings != [1, 1] {
            return Err(RecordError::MissingKing);
        }
        if bytes[24] >> RESULT_SHIFT > 2 {
            return Err(RecordError::BadResult(bytes[24] >> RESULT_SHIFT));
        }
        if bytes[25] > NO_EN_PASSANT {
            return Err(RecordError::BadEnPassant(bytes[25]));
        }
        Ok(record)
    }

    /// The 32 stored bytes, as written to a file.
    pub fn as_bytes(&self) -> &[u8; RECORD_BYTES] {
        &self.0
    }

    /// Bitboard of occupied squares, bit `s` for square `s` (a1 = 0, h8 = 63).
    pub fn occupancy(&self) -> u64 {
        u64::from_le_bytes(self.0[0..8].try_into().expect("8 bytes"))
    }

    /// `(square, code)` for every piece, code = role (0 pawn .. 5 king) | colour << 3.
    pub fn raw_pieces(&self) -> impl Iterator<Item = (u8, u8)> + '_ {
        Bitboard(self.occupancy())
            .into_iter()
            .take(32)
            .enumerate()
            .map(|(index, square)| (square as u8, (self.0[8 + index / 2] >> (4 * (index % 2))) & 0xf))
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        if self.0[24] & FLAG_BLACK_TO_MOVE != 0 {
            Color::Black
        } else {
            Color::White
        }
    }
    /// The side to move is in check.
    pub fn in_check(&self) -> bool {
        self.0[24] & FLAG_IN_CHECK != 0
    }
    /// The search's best move was a capture.
    pub fn best_is_capture(&self) -> bool {
        self.0[24] & FLAG_CAPTURE != 0
    }
    /// The search's best move was a promotion.
    pub fn best_is_promotion(&self) -> bool {
        self.0[24] & FLAG_PROMOTION != 0
    }
    /// The record is the first of its game in the file.
    pub fn is_game_start(&self) -> bool {
        self.0[24] & FLAG_GAME_START != 0
    }
    /// The score is a mate score (`white_score` is then ±`MATE_SCORE`).
    pub fn is_mate_score(&self) -> bool {
        self.0[24] & FLAG_MATE != 0
    }
    /// How the game ended.
    pub fn result(&self) -> DataResult {
        match self.0[24] >> RESULT_SHIFT {
            0 => DataResult::BlackWins,
            1 => DataResult::Draw,
            _ => DataResult::WhiteWins,
        }
    }
    /// Centipawns from White's point of view (±32000 for mates).
    pub fn white_score(&self) -> i16 {
        i16::from_le_bytes([self.0[30], self.0[31]])
    }
    /// Plies played since the end of the opening, capped at 255.
    pub fn ply(&self) -> u8 {
        self.0[27]
    }
    /// The halfmove clock: plies since the last capture or pawn move, capped at 255.
    pub fn halfmoves(&self) -> u8 {
        self.0[26]
    }
    /// The FEN's move number.
    pub fn fullmoves(&self) -> u16 {
        u16::from_le_bytes([self.0[28], self.0[29]])
    }
    /// Pieces on the board, kings included (2 to 32).
    pub fn piece_count(&self) -> u32 {
        self.occupancy().count_ones()
    }

    /// Marks (or unmarks) the record as the first of a game.
    pub fn set_game_start(&mut self, start: bool) {
        self.0[24] = (self.0[24] & !FLAG_GAME_START) | if start { FLAG_GAME_START } else { 0 };
    }

    /// The position as a shakmaty setup (no castling rights; see the module comment).
    pub fn to_setup(&self) -> Setup {
        let mut board = Board::empty();
        for (square, code) in self.raw_pieces() {
            let color = if code >> 3 == 1 { Color::Black } else { Color::White };
            board.set_piece_at(Square::new(square as u32), Piece { color, role: role_from_code(code & 7) });
        }
        let mut setup = Setup::empty();
        setup.board = board;
        setup.turn = self.turn();
        setup.ep_square = (self.0[25] < NO_EN_PASSANT).then(|| Square::new(self.0[25] as u32));
        setup.halfmoves = self.halfmoves() as u32;
        setup.fullmoves = std::num::NonZeroU32::new(self.fullmoves().max(1) as u32).expect("at least 1");
        setup
    }

    /// The position's FEN (castling `-`).
    pub fn fen(&self) -> String {
        Fen::try_from_setup(self.to_setup()).unwrap_or_else(|lossy| lossy.ignore()).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::FromSetup;

    fn chess(fen: &str) -> Chess {
        let fen: Fen = fen.parse().unwrap();
        Chess::from_setup(fen.into_setup(), CastlingMode::Standard).unwrap()
    }

    fn label(score: i32) -> SearchLabel {
        SearchLabel { white_score: score, mate: false, best_is_capture: true, best_is_promotion: false }
    }

    #[test]
    fn round_trips_every_field() {
        let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w - - 4 4";
        let place = GamePlace { ply: 7, game_start: true, result: DataResult::Draw };
        let record = PackedPosition::pack(&chess(fen), label(-123), place).unwrap();
        let back = PackedPosition::from_bytes(*record.as_bytes()).unwrap();
        assert_eq!(back.fen(), fen);
        assert_eq!(back.white_score(), -123);
        assert_eq!(back.result(), DataResult::Draw);
        assert_eq!(back.ply(), 7);
        assert!(back.is_game_start() && back.best_is_capture() && !back.best_is_promotion());
        assert!(!back.in_check() && !back.is_mate_score());
        assert_eq!(back.turn(), Color::White);
        assert_eq!(back.piece_count(), 32);
    }

    #[test]
    fn keeps_black_to_move_en_passant_and_check() {
        let fen = "4k3/8/8/8/3pP3/8/8/4K2R b - e3 0 30";
        let place = GamePlace { ply: 300, game_start: false, result: DataResult::BlackWins };
        let mated =
            SearchLabel { white_score: -1, mate: true, best_is_capture: false, best_is_promotion: true };
        let record = PackedPosition::pack(&chess(fen), mated, place).unwrap();
        assert_eq!(record.fen(), "4k3/8/8/8/3pP3/8/8/4K2R b - e3 0 30");
        assert_eq!(record.ply(), 255);
        assert_eq!(record.white_score(), -MATE_SCORE);
        assert!(record.is_mate_score() && record.best_is_promotion());
        let check = PackedPosition::pack(&chess("4k3/8/8/8/8/8/8/4K2r w - - 0 1"), label(0), place).unwrap();
        assert!(check.in_check());
    }

    #[test]
    fn corrupt_bytes_are_refused() {
        let place = GamePlace { ply: 0, game_start: false, result: DataResult::WhiteWins };
        let record = PackedPosition::pack(&Chess::default(), label(0), place).unwrap();
        let mut bytes = *record.as_bytes();
        bytes[8] = 0x7f;
        assert!(matches!(PackedPosition::from_bytes(bytes), Err(RecordError::BadPieceCode { .. })));
        let mut bytes = *record.as_bytes();
        bytes[24] |= 0xc0;
        assert_eq!(PackedPosition::from_bytes(bytes), Err(RecordError::BadResult(3)));
        let mut bytes = *record.as_bytes();
        bytes[0..8].copy_from_slice(&0u64.to_le_bytes());
        assert_eq!(PackedPosition::from_bytes(bytes), Err(RecordError::MissingKing));
    }
}
