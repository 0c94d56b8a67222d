//! The `FEN | score | result` lines of the older datagen format (score in centipawns and
//! result `1.0`/`0.5`/`0.0`, both White's point of view), as `patina-learn wdl-fit` reads them.

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

/// What one data file contributed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FileCounts {
    /// Positions taken from the file (within the limit).
    pub positions: usize,
    /// Lines that were neither blank, a `#` comment nor a valid data line.
    pub bad_lines: usize,
    /// Positions left out because the Syzygy tables hold them (`wdl_fit::TABLE_PIECES`).
    pub table_positions: usize,
}

/// One line of a datagen file, as every reader of that format classifies it.
pub enum DataLine {
    /// Blank, or a `#` comment.
    Skip,
    /// Neither of the above nor a valid `FEN | score | result` line.
    Bad,
    /// A position, its score and the result in half points.
    Record(Chess, i32, u8),
}

/// What a set of data files with no usable line is told, by `patina-learn wdl-fit`.
pub const NO_POSITIONS: &str = "the data files hold no valid 'FEN | score | result' lines";

/// Classifies one line (with or without its newline) of a datagen file.
pub fn read_data_line(bytes: &[u8]) -> DataLine {
    let Ok(line) = std::str::from_utf8(bytes) else { return DataLine::Bad };
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return DataLine::Skip;
    }
    match parse_fields(line) {
        Some((pos, score, result_halves)) => DataLine::Record(pos, score, result_halves),
        None => DataLine::Bad,
    }
}

/// `FEN | score | result` into a position, a score and a result in half points (`None` for
/// anything else).
fn parse_fields(line: &str) -> Option<(Chess, i32, u8)> {
    let mut fields = line.split('|').map(str::trim);
    let (fen, score, result) = (fields.next()?, fields.next()?, fields.next()?);
    if fields.next().is_some() {
        return None;
    }
    let fen: Fen = fen.parse().ok()?;
    let pos: Chess = fen.into_position(CastlingMode::Chess960).ok()?;
    let score: i32 = score.parse().ok()?;
    let result_halves = match result {
        "1.0" | "1" | "1-0" => 2,
        "0.5" | "1/2-1/2" => 1,
        "0.0" | "0" | "0-1" => 0,
        _ => return None,
    };
    Some((pos, score, result_halves))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_datagen_lines_and_rejects_bad_ones() {
        let good = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | 23 | 0.5";
        assert!(matches!(read_data_line(good.as_bytes()), DataLine::Record(_, 23, 1)));
        assert!(matches!(read_data_line(b"# comment\n"), DataLine::Skip));
        assert!(matches!(read_data_line(b"   \n"), DataLine::Skip));
        for bad in
            ["8/8/8 w - - 0 1 | 0 | 1.0", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 | x | 1.0", "a | 1", "k | 1 | 2 | 3"]
        {
            assert!(matches!(read_data_line(bad.as_bytes()), DataLine::Bad), "{bad}");
        }
        assert!(matches!(read_data_line(&[0xff, b'\n']), DataLine::Bad));
    }
}
