//! Training data for the evaluation network: one position in 32 bytes, and the reader and
//! writer every tool shares (`patina-learn datagen`, `patina-learn data`, `patina-learn train`).
//!
//! # The record, byte by byte (little-endian)
//!
//! | bytes  | field | meaning |
//! |--------|-------|---------|
//! | 0..8   | occupancy | `u64`, bit `s` set when square `s` (a1 = 0, h8 = 63) holds a piece |
//! | 8..24  | pieces | 32 nibbles, low nibble first: one per set bit of `occupancy`, in square order; `role \| colour << 3` with role 0..5 = pawn, knight, bishop, rook, queen, king and colour 1 = black; unused nibbles 0 |
//! | 24     | flags | bit 0 black to move, 1 side to move in check, 2 best move a capture, 3 best move a promotion, 4 first record of a game, 5 score is a mate score; bits 6-7 the result: 0 black won, 1 draw, 2 white won |
//! | 25     | en passant | the en-passant square (0..63) when the capture is legal, else 64 |
//! | 26     | halfmove clock | plies since the last capture or pawn move, capped at 255 |
//! | 27     | ply | plies played since the end of the opening, capped at 255 |
//! | 28..30 | fullmove | `u16`, the FEN's move number |
//! | 30..32 | score | `i16`, the search score in centipawns from White's point of view (mates as ±32000) |
//!
//! Castling rights are not kept: no evaluation feature reads them, and 32 bytes is the budget.
//! A position decoded from a record has none.
//!
//! `format.rs` packs and unpacks a record, `io.rs` reads and writes files of them (and the text
//! lines of the older datagen format), `filter.rs` decides which records a reader passes on,
//! `results.rs` counts how games ended by material and score, `sidecar.rs` reads and writes the
//! `FILE.progress` record of how a datagen file was made, `text.rs` reads the text lines as
//! the WDL fit takes them, and `tools.rs` holds the `patina-learn data`
//! verbs.

mod filter;
mod format;
mod io;
pub mod results;
mod sidecar;
mod text;
pub mod tools;

pub use filter::{Filter, FilterError};
pub use format::{DataResult, GamePlace, PackedPosition, RecordError, SearchLabel, MATE_SCORE, RECORD_BYTES};
pub use io::{
    read_all, read_text_line, write_text_line, DataFormat, RecordReader, RecordWriter, TextLineError,
};
pub use sidecar::{recorded_checkpoint, sidecar_path, Checkpoint, SidecarError};
pub use text::{read_data_line, DataLine, FileCounts, NO_POSITIONS};

/// Records made from FENs and positions, for other modules' tests.
#[cfg(test)]
pub(crate) mod test_support {
    use super::format::{GamePlace, SearchLabel};
    use super::{DataResult, PackedPosition};
    use patina::position::Position;

    pub fn pack_position(pos: &Position) -> PackedPosition {
        let label =
            SearchLabel { white_score: 0, mate: false, best_is_capture: false, best_is_promotion: false };
        let place = GamePlace { ply: 0, game_start: true, result: DataResult::Draw };
        PackedPosition::pack(pos.chess(), label, place).expect("a legal position packs")
    }

    pub fn pack_fen(fen: &str) -> PackedPosition {
        pack_position(&Position::from_fen(fen, false).expect("valid FEN"))
    }
}
