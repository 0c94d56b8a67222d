//! The `patina-learn data` verbs: `convert` (older text lines to records), `stats` (what a data set
//! holds), `results` (how games ended by material and score, `results.rs`), `shuffle`
//! (positions in random order) and `interleave` (whole games of several files in random
//! order). Each reads through the shared reader and its filter and reports counts; `main.rs`
//! prints them.
//!
//! `shuffle` breaks games apart, so it marks every record as its own game: a trainer that holds
//! out whole games then holds out single positions, which is all a shuffled file still allows.
//! `interleave` keeps games whole, so shuffle only what no trainer will split by games.

use super::format::{DataResult, GamePlace, PackedPosition, RecordError, SearchLabel};
use super::io::{read_text_line, write_text_line, RecordReader, RecordWriter, TextLineError};
use super::results::{BigTable, LevelTable};
use super::Filter;
use patina::rng::Rng;
use shakmaty::{Color, Position as _};
use std::fmt;
use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

/// Why a `patina-learn data` verb stopped; each names the file at fault.
#[derive(Debug)]
pub enum DataToolError {
    /// A record file could not be opened, read, created or written: the reader's or writer's
    /// error, which names the file.
    Records(io::Error),
    /// A text file could not be read, or the output not written.
    Io {
        /// The file.
        path: PathBuf,
        /// What the OS said.
        error: io::Error,
    },
    /// A text line's position does not fit a record (more than 32 pieces).
    Pack {
        /// The text file.
        path: PathBuf,
        /// The line, counting from 1.
        line: u64,
        /// Why it does not fit.
        error: RecordError,
    },
}

impl fmt::Display for DataToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataToolError::Records(error) => write!(f, "{error}"),
            DataToolError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            DataToolError::Pack { path, line, error } => write!(f, "{} line {line}: {error}", path.display()),
        }
    }
}

impl std::error::Error for DataToolError {}

impl From<io::Error> for DataToolError {
    fn from(error: io::Error) -> DataToolError {
        DataToolError::Records(error)
    }
}

/// Wraps an error of writing or reading `path` (one whose message does not name it).
fn io_error(path: &Path) -> impl Fn(io::Error) -> DataToolError + '_ {
    move |error| DataToolError::Io { path: path.to_path_buf(), error }
}

/// What `convert` did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct ConvertReport {
    /// Lines read, blank and comment lines included.
    pub lines: u64,
    /// Records written.
    pub records: u64,
    /// Games told apart (a new file, a lower move number or another result).
    pub games: u64,
    /// Lines that were not valid data (skipped).
    pub bad_lines: u64,
    /// Why the first five bad lines were refused.
    pub first_errors: Vec<BadLine>,
}

/// A text line `convert` skipped, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadLine {
    /// The text file.
    pub path: PathBuf,
    /// The line, counting from 1.
    pub line: u64,
    /// What is wrong with it.
    pub error: TextLineError,
}

impl fmt::Display for BadLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} line {}: {}", self.path.display(), self.line, self.error)
    }
}

/// Converts `FEN | score | result` files into one record file. Game starts are inferred as
/// `patina-learn tune` does (a new file, a lower move number or another result than the line
/// before); a record's ply counts from its game's first kept line.
pub fn convert(inputs: &[PathBuf], out: &Path) -> Result<ConvertReport, DataToolError> {
    let mut writer = RecordWriter::create(out)?;
    let mut report = ConvertReport::default();
    for input in inputs {
        let file = std::fs::File::open(input).map_err(io_error(input))?;
        // (fullmove, result, first ply index) of the game the last line belonged to.
        let mut game: Option<(u32, u8, u32)> = None;
        for (number, line) in BufReader::new(file).lines().enumerate() {
            let line = line.map_err(io_error(input))?;
            report.lines += 1;
            let parsed = match read_text_line(&line) {
                Ok(Some(parsed)) => parsed,
                Ok(None) => continue,
                Err(error) => {
                    report.bad_lines += 1;
                    if report.first_errors.len() < 5 {
                        report.first_errors.push(BadLine {
                            path: input.clone(),
                            line: number as u64 + 1,
                            error,
                        });
                    }
                    continue;
                }
            };
            let board = &parsed.board;
            let ply_index = board.fullmoves().get() * 2 + u32::from(board.turn() == Color::Black);
            let starts = match game {
                Some((fullmove, result, _)) => {
                    board.fullmoves().get() < fullmove || parsed.result_halves != result
                }
                None => true,
            };
            let first_ply = match (starts, game) {
                (false, Some((_, _, first))) => first,
                _ => ply_index,
            };
            game = Some((board.fullmoves().get(), parsed.result_halves, first_ply));
            report.games += u64::from(starts);
            let result = [DataResult::BlackWins, DataResult::Draw, DataResult::WhiteWins]
                [parsed.result_halves as usize];
            let place = GamePlace { ply: ply_index.saturating_sub(first_ply), game_start: starts, result };
            let label = SearchLabel {
                white_score: parsed.white_score,
                mate: false,
                best_is_capture: false,
                best_is_promotion: false,
            };
            let record = PackedPosition::pack(board, label, place).map_err(|error| DataToolError::Pack {
                path: input.clone(),
                line: number as u64 + 1,
                error,
            })?;
            writer.write(&record).map_err(io_error(out))?;
        }
    }
    report.records = writer.written;
    writer.finish().map_err(io_error(out))?;
    Ok(report)
}

/// Writes every accepted record of `inputs` to `out` as a `FEN | score | result` line (the
/// text `patina-learn datagen --out FILE.txt` writes and `convert` reads: White's centipawns and
/// White's points), for tools that want positions rather than records. A record keeps no
/// castling rights or en-passant square, so neither is in its FEN. Returns the lines written.
pub fn export(inputs: &[PathBuf], out: &Path, filter: Filter) -> Result<u64, DataToolError> {
    let file = std::fs::File::create(out).map_err(io_error(out))?;
    let mut text = io::BufWriter::new(file);
    let mut written = 0;
    let mut line = String::new();
    for input in inputs {
        let mut reader = RecordReader::open(input, filter)?;
        while let Some(record) = reader.next_record()? {
            line.clear();
            write_text_line(&mut line, record.fen(), i32::from(record.white_score()), record.result());
            text.write_all(line.as_bytes()).map_err(io_error(out))?;
            written += 1;
        }
    }
    text.flush().map_err(io_error(out))?;
    Ok(written)
}

/// What a data set holds, after the filter.
#[derive(Debug, Clone)]
pub struct Stats {
    /// Records the filter passed.
    pub records: u64,
    /// Records the filter dropped.
    pub dropped: u64,
    /// Games with at least one record passed.
    pub games: u64,
    /// White wins, draws, Black wins.
    pub results: [u64; 3],
    /// Passed records with Black to move.
    pub black_to_move: u64,
    /// Passed records whose side to move is in check.
    pub in_check: u64,
    /// Passed records whose best move is a capture or promotion.
    pub noisy: u64,
    /// Passed records with a mate score.
    pub mates: u64,
    /// Scores (White's view) in 100 cp buckets from -1000 to +1000; the ends hold the rest
    /// (mates excluded).
    pub score_buckets: [u64; 22],
    /// Records by number of pieces on the board (index 0..=32).
    pub piece_counts: [u64; 33],
}

/// Reads every file through `filter` and counts.
pub fn stats(inputs: &[PathBuf], filter: Filter) -> Result<Stats, DataToolError> {
    let mut stats = Stats::default();
    for input in inputs {
        let mut reader = RecordReader::open(input, filter)?;
        while let Some(game) = reader.next_game()? {
            stats.games += 1;
            for record in &game {
                stats.add(record);
            }
        }
        stats.dropped += reader.dropped;
    }
    Ok(stats)
}

impl Default for Stats {
    fn default() -> Stats {
        Stats {
            records: 0,
            dropped: 0,
            games: 0,
            results: [0; 3],
            black_to_move: 0,
            in_check: 0,
            noisy: 0,
            mates: 0,
            score_buckets: [0; 22],
            piece_counts: [0; 33],
        }
    }
}

impl Stats {
    fn add(&mut self, record: &PackedPosition) {
        self.records += 1;
        self.results[match record.result() {
            DataResult::WhiteWins => 0,
            DataResult::Draw => 1,
            DataResult::BlackWins => 2,
        }] += 1;
        self.black_to_move += u64::from(record.turn() == Color::Black);
        self.in_check += u64::from(record.in_check());
        self.noisy += u64::from(record.best_is_capture() || record.best_is_promotion());
        if record.is_mate_score() {
            self.mates += 1;
        } else {
            let bucket = (record.white_score() as i32 + 1100).div_euclid(100).clamp(0, 21);
            self.score_buckets[bucket as usize] += 1;
        }
        self.piece_counts[record.piece_count() as usize] += 1;
    }
}

fn percent(part: u64, whole: u64) -> f64 {
    part as f64 * 100.0 / whole.max(1) as f64
}

impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.records;
        writeln!(f, "positions {n} in {} games ({} dropped by the filter)", self.games, self.dropped)?;
        let [w, d, b] = self.results;
        writeln!(
            f,
            "results   white {w} ({:.1}%)  draw {d} ({:.1}%)  black {b} ({:.1}%)",
            percent(w, n),
            percent(d, n),
            percent(b, n)
        )?;
        writeln!(
            f,
            "flags     black to move {:.1}%  in check {}  noisy best move {}  mate scores {}",
            percent(self.black_to_move, n),
            self.in_check,
            self.noisy,
            self.mates
        )?;
        writeln!(f, "scores (White's view, centipawns)")?;
        for (index, &count) in self.score_buckets.iter().enumerate() {
            let low = index as i32 * 100 - 1100;
            let label = match index {
                0 => "      < -1000".to_string(),
                21 => "     >= +1000".to_string(),
                _ => format!("{low:>+6}..{:>+5}", low + 99),
            };
            writeln!(f, "  {label} {count:>10} {:>5.1}% {}", percent(count, n), bar(count, n))?;
        }
        writeln!(f, "pieces on the board")?;
        for (pieces, &count) in self.piece_counts.iter().enumerate().filter(|(_, &count)| count > 0) {
            writeln!(f, "  {pieces:>2} {count:>10} {:>5.1}% {}", percent(count, n), bar(count, n))?;
        }
        Ok(())
    }
}

fn bar(count: u64, whole: u64) -> String {
    "#".repeat((percent(count, whole) / 2.0).round() as usize)
}

/// Reads every file through `filter` into both tables of `results.rs`.
pub fn results(inputs: &[PathBuf], filter: Filter) -> Result<(LevelTable, BigTable), DataToolError> {
    let (mut level, mut big) = (LevelTable::default(), BigTable::default());
    for input in inputs {
        let mut reader = RecordReader::open(input, filter)?;
        while let Some(record) = reader.next_record()? {
            level.add(&record);
            big.add(&record);
        }
    }
    Ok((level, big))
}

/// Writes every accepted record of `inputs` to `out` in a random order drawn from `seed`.
pub fn shuffle(inputs: &[PathBuf], out: &Path, seed: u64, filter: Filter) -> Result<u64, DataToolError> {
    let mut records = Vec::new();
    for input in inputs {
        records.extend(super::read_all(input, filter)?);
    }
    let mut rng = Rng::new(seed);
    for index in (1..records.len()).rev() {
        records.swap(index, rng.below(index + 1));
    }
    let mut writer = RecordWriter::create(out)?;
    for record in &mut records {
        record.set_game_start(true);
        writer.write(record).map_err(io_error(out))?;
    }
    writer.finish().map_err(io_error(out))?;
    Ok(records.len() as u64)
}

/// Merges the games of `inputs` into `out`: each next game comes from a file drawn at random,
/// weighted by the records it has left, so the files mix evenly from start to end.
pub fn interleave(inputs: &[PathBuf], out: &Path, seed: u64, filter: Filter) -> Result<u64, DataToolError> {
    let mut readers =
        inputs.iter().map(|input| RecordReader::open(input, filter)).collect::<Result<Vec<_>, _>>()?;
    let mut writer = RecordWriter::create(out)?;
    let mut rng = Rng::new(seed);
    loop {
        let left: u64 = readers.iter().map(RecordReader::remaining).sum();
        if left == 0 {
            break;
        }
        let mut pick = rng.next_u64() % left;
        let index = readers
            .iter()
            .position(|reader| {
                let remaining = reader.remaining();
                if pick < remaining {
                    true
                } else {
                    pick -= remaining;
                    false
                }
            })
            .expect("a file with records left");
        if let Some(game) = readers[index].next_game()? {
            for record in &game {
                writer.write(record).map_err(io_error(out))?;
            }
        }
    }
    let written = writer.written;
    writer.finish().map_err(io_error(out))?;
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::read_all;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("patina-data-tools-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    const TEXT: &str = "\
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | 23 | 0.5
rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 | 30 | 0.5
not a line
rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1 | -5 | 1.0
";

    #[test]
    fn convert_then_stats_shuffle_export_and_interleave() {
        let dir = scratch("all");
        let text = dir.join("a.txt");
        std::fs::write(&text, TEXT).unwrap();
        let bin = dir.join("a.bin");
        let report = convert(std::slice::from_ref(&text), &bin).unwrap();
        assert_eq!((report.records, report.games, report.bad_lines), (3, 2, 1));
        assert!(report.first_errors[0].to_string().contains("a.txt line 3: "), "{:?}", report.first_errors);
        let records = read_all(&bin, Filter::NONE).unwrap();
        assert_eq!(records[1].ply(), 1);
        assert!(records[0].is_game_start() && !records[1].is_game_start() && records[2].is_game_start());

        let counted = stats(std::slice::from_ref(&bin), Filter::NONE).unwrap();
        assert_eq!((counted.records, counted.games, counted.results), (3, 2, [1, 2, 0]));
        assert_eq!(counted.piece_counts[32], 3);
        assert!(counted.to_string().contains("positions 3 in 2 games"));

        let shuffled = dir.join("s.bin");
        assert_eq!(shuffle(std::slice::from_ref(&bin), &shuffled, 1, Filter::NONE).unwrap(), 3);
        let mut fens: Vec<String> =
            read_all(&shuffled, Filter::NONE).unwrap().iter().map(|r| r.fen()).collect();
        let mut original: Vec<String> = records.iter().map(|r| r.fen()).collect();
        fens.sort();
        original.sort();
        assert_eq!(fens, original);

        let exported = dir.join("e.txt");
        assert_eq!(export(std::slice::from_ref(&bin), &exported, Filter::NONE).unwrap(), 3);
        let lines: Vec<String> =
            std::fs::read_to_string(&exported).unwrap().lines().map(String::from).collect();
        let expected = [
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b - - 0 1 | 23 | 0.5",
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w - - 0 2 | 30 | 0.5",
            "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b - - 0 1 | -5 | 1.0",
        ];
        assert_eq!(lines, expected, "positions (castling dropped), scores and results come back");
        let again = dir.join("again.bin");
        assert_eq!(convert(&[exported], &again).unwrap().records, 3, "convert reads what export writes");

        let mixed = dir.join("m.bin");
        assert_eq!(interleave(&[bin.clone(), bin.clone()], &mixed, 7, Filter::NONE).unwrap(), 6);
        assert_eq!(stats(&[mixed], Filter::NONE).unwrap().games, 4, "games stay whole");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
