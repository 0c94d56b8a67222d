//! Files of records: which format a file name means (`DataFormat`), a streaming reader that
//! checks each record and applies a filter, a buffered writer, and the parser of the older text lines (`FEN | score | result`) that
//! `patina-learn data convert` turns into records.
//!
//! A file is a bare sequence of 32-byte records, no header, so files concatenate with `cat`
//! and a count is the length over 32. A length that is not a multiple of 32 means a truncated
//! write: the reader refuses the file rather than guess where records start.

use super::format::{DataResult, PackedPosition, RecordError, RECORD_BYTES};
use super::Filter;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, FromSetup};
use std::fmt;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// What a data file holds, chosen by its name: datagen writes, and the tools read, by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DataFormat {
    /// 32-byte records of every searched position: any name but `*.txt`.
    Records,
    /// `FEN | score | result` lines of the quiet positions: `*.txt`.
    Text,
}

impl DataFormat {
    /// The format a file of this name holds: `Text` for a `.txt` extension (any case).
    pub fn of(path: &Path) -> DataFormat {
        match path.extension().and_then(|ext| ext.to_str()) {
            Some(ext) if ext.eq_ignore_ascii_case("txt") => DataFormat::Text,
            _ => DataFormat::Records,
        }
    }
}

/// Reads records in file order, passing those the filter accepts.
pub struct RecordReader {
    path: PathBuf,
    input: BufReader<File>,
    filter: Filter,
    /// Records read so far (accepted or not).
    pub read: u64,
    /// Records the filter dropped so far.
    pub dropped: u64,
    /// Games `next_game` has read so far, those the filter emptied included.
    pub games: u64,
    /// `next_game` reads no more games than this.
    game_cap: u64,
    total: u64,
    /// A record read ahead by `next_game` to see where the game ends.
    lookahead: Option<PackedPosition>,
}

fn invalid(path: &Path, reason: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, format!("{}: {reason}", path.display()))
}

impl RecordReader {
    /// Opens `path` for reading through `filter`; a length that is not a whole number of
    /// records is refused.
    pub fn open(path: &Path, filter: Filter) -> io::Result<RecordReader> {
        let file =
            File::open(path).map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
        let length = file.metadata()?.len();
        if length % RECORD_BYTES as u64 != 0 {
            return Err(invalid(
                path,
                format!("{length} bytes is not a whole number of {RECORD_BYTES}-byte records (truncated?)"),
            ));
        }
        Ok(RecordReader {
            path: path.to_path_buf(),
            input: BufReader::with_capacity(1 << 20, file),
            filter,
            read: 0,
            dropped: 0,
            games: 0,
            game_cap: u64::MAX,
            total: length / RECORD_BYTES as u64,
            lookahead: None,
        })
    }

    /// Makes `next_game` end the file once `games` games are read (counted as `games` counts
    /// them), so that a file still being written is read to a fixed point.
    pub fn stop_after_games(&mut self, games: u64) {
        self.game_cap = games;
    }

    /// Records in the file, before filtering.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// The next record, filter or not.
    fn next_raw(&mut self) -> io::Result<Option<PackedPosition>> {
        if let Some(record) = self.lookahead.take() {
            return Ok(Some(record));
        }
        let mut bytes = [0u8; RECORD_BYTES];
        match self.input.read_exact(&mut bytes) {
            Ok(()) => {}
            Err(error) if error.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
            Err(error) => return Err(error),
        }
        self.read += 1;
        PackedPosition::from_bytes(bytes)
            .map(Some)
            .map_err(|error: RecordError| invalid(&self.path, format!("record {}: {error}", self.read)))
    }

    /// The next accepted record; `Ok(None)` at the end of the file.
    pub fn next_record(&mut self) -> io::Result<Option<PackedPosition>> {
        while let Some(record) = self.next_raw()? {
            if self.filter.accepts(&record) {
                return Ok(Some(record));
            }
            self.dropped += 1;
        }
        Ok(None)
    }

    /// The accepted records of the next game (a game-start record and those up to the next
    /// one; the file's first record starts a game whatever its flag), the first marked as the
    /// game's start even when the filter dropped the original first; games the filter empties
    /// are skipped, but counted in `games`. `Ok(None)` at the end of the file, or once the
    /// `stop_after_games` count is read.
    pub fn next_game(&mut self) -> io::Result<Option<Vec<PackedPosition>>> {
        while self.games < self.game_cap {
            let Some(first) = self.next_raw()? else { break };
            self.games += 1;
            let mut game = vec![first];
            while let Some(record) = self.next_raw()? {
                if record.is_game_start() {
                    self.lookahead = Some(record);
                    break;
                }
                game.push(record);
            }
            let before = game.len();
            game.retain(|record| self.filter.accepts(record));
            self.dropped += (before - game.len()) as u64;
            if let Some(start) = game.first_mut() {
                start.set_game_start(true);
                return Ok(Some(game));
            }
        }
        Ok(None)
    }

    /// Records not read yet (before filtering).
    pub fn remaining(&self) -> u64 {
        self.total - self.read + u64::from(self.lookahead.is_some())
    }
}

/// Every accepted record of `path`, in file order.
pub fn read_all(path: &Path, filter: Filter) -> io::Result<Vec<PackedPosition>> {
    let mut reader = RecordReader::open(path, filter)?;
    let mut records = Vec::with_capacity(reader.total() as usize);
    while let Some(record) = reader.next_record()? {
        records.push(record);
    }
    Ok(records)
}

/// Buffered record output; `finish` flushes and reports a failed write.
pub struct RecordWriter {
    output: BufWriter<File>,
    /// Records handed to `write` so far.
    pub written: u64,
}

impl RecordWriter {
    /// Creates (or truncates) `path`.
    pub fn create(path: &Path) -> io::Result<RecordWriter> {
        let file =
            File::create(path).map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
        Ok(RecordWriter { output: BufWriter::with_capacity(1 << 20, file), written: 0 })
    }

    /// Appends one record (buffered: a failed write may only show at `finish`).
    pub fn write(&mut self, record: &PackedPosition) -> io::Result<()> {
        self.written += 1;
        self.output.write_all(record.as_bytes())
    }

    /// Flushes the buffer and syncs the file to disk.
    pub fn finish(mut self) -> io::Result<()> {
        self.output.flush()?;
        self.output.get_ref().sync_all()
    }
}

/// One text line of the older datagen format, parsed.
#[derive(Debug, Clone)]
pub struct TextLine {
    pub board: Chess,
    /// Centipawns, White's point of view.
    pub white_score: i32,
    /// White's points in half points: 0, 1 or 2.
    pub result_halves: u8,
}

/// Why a text line is not `FEN | score | result`; each names the offending field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TextLineError {
    /// The line splits into this many `|`-separated fields, not three.
    FieldCount(usize),
    /// The FEN does not parse.
    Fen {
        /// The FEN field.
        fen: String,
        /// What the parser said.
        reason: String,
    },
    /// The FEN parses but is no legal position.
    Illegal {
        /// The FEN field.
        fen: String,
        /// What is wrong with the position.
        reason: String,
    },
    /// The score field is not an integer.
    Score(String),
    /// The result field is not 1.0, 0.5 or 0.0.
    Result(String),
}

impl fmt::Display for TextLineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TextLineError::FieldCount(count) => {
                write!(f, "expected 'FEN | score | result', got {count} fields")
            }
            TextLineError::Fen { fen, reason } => write!(f, "invalid FEN '{fen}': {reason}"),
            TextLineError::Illegal { fen, reason } => write!(f, "illegal position '{fen}': {reason}"),
            TextLineError::Score(score) => write!(f, "score '{score}' is not an integer"),
            TextLineError::Result(result) => write!(f, "result '{result}' (accepted: 1.0, 0.5, 0.0)"),
        }
    }
}

impl std::error::Error for TextLineError {}

/// Writes `FEN | score | result` and a newline, the line `read_text_line` parses.
pub fn write_text_line(out: &mut String, fen: impl fmt::Display, white_cp: i32, result: DataResult) {
    use std::fmt::Write as _;
    // Writing into a String cannot fail.
    let _ = writeln!(out, "{fen} | {white_cp} | {}", result.text_label());
}

/// Parses `FEN | score | result`; `Ok(None)` for a blank or `#` comment line.
pub fn read_text_line(line: &str) -> Result<Option<TextLine>, TextLineError> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let fields: Vec<&str> = line.split('|').map(str::trim).collect();
    let [fen, score, result] = fields[..] else {
        return Err(TextLineError::FieldCount(fields.len()));
    };
    let parsed: Fen =
        fen.parse().map_err(|e| TextLineError::Fen { fen: fen.to_string(), reason: format!("{e}") })?;
    let board = Chess::from_setup(parsed.into_setup(), CastlingMode::Chess960)
        .map_err(|e| TextLineError::Illegal { fen: fen.to_string(), reason: format!("{e}") })?;
    let white_score = score.parse().map_err(|_| TextLineError::Score(score.to_string()))?;
    let result_halves = match result {
        "1.0" | "1" => 2,
        "0.5" => 1,
        "0.0" | "0" => 0,
        _ => return Err(TextLineError::Result(result.to_string())),
    };
    Ok(Some(TextLine { board, white_score, result_halves }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::format::{DataResult, GamePlace, SearchLabel};

    #[test]
    fn text_lines_parse_or_say_why_not() {
        let line = read_text_line("8/8/4k3/8/8/3BK3/8/8 w - - 0 1 | -12 | 0.5").unwrap().unwrap();
        assert_eq!((line.white_score, line.result_halves), (-12, 1));
        assert!(read_text_line("# comment").unwrap().is_none());
        assert!(read_text_line("8/8/8/8/8/8/8/8 w - - 0 1 | 0 | 0.5")
            .unwrap_err()
            .to_string()
            .contains("illegal position"));
        assert_eq!(
            read_text_line("8/8/4k3/8/8/3BK3/8/8 w - - 0 1 | 0 | 2").unwrap_err().to_string(),
            "result '2' (accepted: 1.0, 0.5, 0.0)"
        );
        assert_eq!(read_text_line("a | b").unwrap_err(), TextLineError::FieldCount(2));
    }

    #[test]
    fn files_round_trip_and_truncation_is_refused() {
        let dir = std::env::temp_dir().join(format!("patina-data-io-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.bin");
        let place = GamePlace { ply: 0, game_start: true, result: DataResult::WhiteWins };
        let quiet =
            SearchLabel { white_score: 5, mate: false, best_is_capture: false, best_is_promotion: false };
        let noisy = SearchLabel { best_is_capture: true, ..quiet };
        let mut writer = RecordWriter::create(&path).unwrap();
        writer.write(&PackedPosition::pack(&Chess::default(), quiet, place).unwrap()).unwrap();
        writer.write(&PackedPosition::pack(&Chess::default(), noisy, place).unwrap()).unwrap();
        writer.finish().unwrap();
        assert_eq!(read_all(&path, Filter::NONE).unwrap().len(), 2);
        assert_eq!(read_all(&path, Filter::TRAINING).unwrap().len(), 1);
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..40]).unwrap();
        let error = read_all(&path, Filter::NONE).unwrap_err();
        assert!(error.to_string().contains("40 bytes is not a whole number"), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
