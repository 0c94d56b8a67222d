//! Opening books in EPD form: one position per line, as the common books (noob_3moves.epd and
//! the like) ship them.
//!
//! A line holds the four FEN fields that say where the pieces are, whose turn it is, the
//! castling rights and the en-passant square; the two move counters may follow, and anything
//! after that (EPD operations such as `c0 "..."`) is ignored. Blank lines and lines starting with
//! `#` are skipped. Every line is checked when the book is loaded, so a bad book fails at once
//! with the line number and the offending text rather than halfway through a long run.

use super::OpeningError;
use crate::position::{Position, PositionError};
use std::fmt;
use std::path::{Path, PathBuf};

/// Why a book line is not a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BookLineError {
    /// The line has fewer than the four FEN fields every EPD line starts with; the line.
    TooFewFields(String),
    /// The fields do not make a valid position.
    Position(PositionError),
}

impl fmt::Display for BookLineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookLineError::TooFewFields(line) => write!(f, "expected at least four FEN fields, got '{line}'"),
            BookLineError::Position(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for BookLineError {}

/// A loaded, validated book: each entry is a complete six-field FEN.
#[derive(Debug, Clone)]
pub struct Book {
    path: PathBuf,
    fens: Vec<String>,
    chess960: bool,
}

impl Book {
    /// Reads and validates every line of the EPD file at `path`.
    pub fn load(path: &Path, chess960: bool) -> Result<Book, OpeningError> {
        let text = std::fs::read_to_string(path)
            .map_err(|error| OpeningError::Io { path: path.to_path_buf(), error })?;
        Book::parse(path, &text, chess960)
    }

    /// Validates the lines of `text`; `path` only names the book in errors.
    pub fn parse(path: &Path, text: &str, chess960: bool) -> Result<Book, OpeningError> {
        let mut fens = Vec::new();
        for (index, line) in text.lines().enumerate() {
            let trimmed = line.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            let book_error =
                |reason| OpeningError::Book { path: path.to_path_buf(), line: index + 1, reason };
            let fen = fen_of_epd(trimmed).map_err(book_error)?;
            Position::from_fen(&fen, chess960).map_err(|error| book_error(BookLineError::Position(error)))?;
            fens.push(fen);
        }
        if fens.is_empty() {
            return Err(OpeningError::EmptyBook(path.to_path_buf()));
        }
        Ok(Book { path: path.to_path_buf(), fens, chess960 })
    }

    /// Positions in the book (the kept lines).
    pub fn len(&self) -> usize {
        self.fens.len()
    }

    /// True when the book holds no position (`load` and `parse` never return one).
    pub fn is_empty(&self) -> bool {
        self.fens.is_empty()
    }

    /// The file the book was read from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The position on line `index` (0-based among the kept lines).
    pub fn position(&self, index: usize) -> Option<Position> {
        let fen = self.fens.get(index)?;
        Position::from_fen(fen, self.chess960).ok()
    }
}

/// The six-field FEN of one EPD line: its first four fields plus its counters, or `0 1` when
/// the two fields after them are not both counters.
fn fen_of_epd(line: &str) -> Result<String, BookLineError> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() < 4 {
        return Err(BookLineError::TooFewFields(line.to_string()));
    }
    let counters = match (fields.get(4), fields.get(5)) {
        (Some(half), Some(full)) if half.parse::<u32>().is_ok() && full.parse::<u32>().is_ok() => {
            format!("{half} {full}")
        }
        _ => "0 1".to_string(),
    };
    Ok(format!("{} {counters}", fields[..4].join(" ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_fens_with_and_without_counters() {
        let text = "\
# a comment
r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4

rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - c0 \"king pawn\";
";
        let book = Book::parse(Path::new("t.epd"), text, false).unwrap();
        assert_eq!(book.len(), 2);
        assert_eq!(book.fens[0], "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4");
        assert_eq!(book.fens[1], "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        assert!(book.position(1).is_some() && book.position(2).is_none());
    }

    #[test]
    fn bad_lines_are_named_by_number_and_text() {
        let text = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\nnonsense w\n";
        let error = Book::parse(Path::new("t.epd"), text, false).unwrap_err().to_string();
        assert!(error.contains("t.epd line 2") && error.contains("'nonsense w'"), "{error}");
        let text = "8/8/8/8/8/8/8/8 w - -\n";
        let error = Book::parse(Path::new("t.epd"), text, false).unwrap_err().to_string();
        assert!(error.contains("line 1") && error.contains("no king"), "{error}");
        let error = Book::parse(Path::new("t.epd"), "# only a comment\n", false).unwrap_err();
        assert!(error.to_string().contains("no positions"), "{error}");
    }
}
