//! Tuning positions, traced once and kept compact.
//!
//! Each `FEN | score | result` line (`patina-learn datagen`'s format: score in centipawns and result
//! `1.0`/`0.5`/`0.0`, both White's point of view) is parsed and traced (`eval::trace`) as it is
//! read; only the trace is kept. A coefficient is one `u16`: the parameter index in the high
//! 9 bits and a signed 7-bit count in the low 7 (a count outside -64..=63, rare, is split over
//! several entries with the same index, whose sum is the count). Per position there is a 12-byte
//! record (where its entries start, how many, the search score, the result, the phase and the
//! two endgame scales), so a typical position costs 60-100 bytes.
//!
//! Files are read in chunks of lines; the lines of a chunk are traced on `threads` threads and
//! appended in file order, so the data set does not depend on the thread count.
//!
//! Datagen writes each game whole, its positions in move order, so the loader also marks where
//! games start (for the validation split, `split.rs`): a new file, a lower move number than the
//! line before, or another result. Two games can only merge (a game so short that the next one
//! starts at a later move with the same result), never split, so no game lies on both sides.

use super::TuneError;
use patina::eval::params::PARAM_COUNT;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};
use std::io::{BufRead, BufReader};
use std::ops::Range;
use std::path::Path;

const COUNT_BITS: u32 = 7;
const COUNT_MIN: i32 = -(1 << (COUNT_BITS - 1));
const COUNT_MAX: i32 = (1 << (COUNT_BITS - 1)) - 1;
const _: () = assert!(PARAM_COUNT <= 1 << (16 - COUNT_BITS), "parameter indices no longer fit 9 bits");

/// Lines traced per parallel chunk.
const CHUNK_LINES: usize = 1 << 14;

/// One position's fixed-size part; its coefficients are `entries[start..start + len]`.
#[derive(Debug, Clone, Copy)]
pub struct Record {
    start: u32,
    len: u16,
    /// Search score in centipawns, White's point of view, clamped to the `i16` range.
    pub score: i16,
    /// Game result in half points for White: 0, 1 or 2.
    pub result_halves: u8,
    pub phase: u8,
    /// Endgame scale when White is ahead, and when Black is.
    pub scale: [u8; 2],
}

impl Record {
    pub fn result(&self) -> f64 {
        f64::from(self.result_halves) / 2.0
    }
}

/// Every loaded position.
#[derive(Debug, Default)]
pub struct Dataset {
    entries: Vec<u16>,
    /// Every position's fixed-size part, in load order.
    pub records: Vec<Record>,
    /// The index of each game's first position, ascending.
    game_starts: Vec<u32>,
}

/// What one data file contributed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FileCounts {
    /// Positions taken from the file (within the limit).
    pub positions: usize,
    /// Lines that were neither blank, a `#` comment nor a valid data line.
    pub bad_lines: usize,
}

/// A line's contents, traced.
struct Parsed {
    coefficients: Vec<(u16, i32)>,
    score: i16,
    result_halves: u8,
    phase: u8,
    scale: [u8; 2],
    /// The FEN's move number, to see where games start.
    fullmove: u32,
}

/// Whether a position with `fullmove` and `result_halves` starts a game after `previous`, the
/// move number and result of the line before in the same file.
fn starts_game(previous: Option<(u32, u8)>, fullmove: u32, result_halves: u8) -> bool {
    previous.is_none_or(|(before, result_before)| fullmove < before || result_halves != result_before)
}

impl Dataset {
    /// Positions loaded.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// True when no position is loaded.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// The coefficients of position `index` as `(parameter index, count)` pairs.
    pub fn coefficients(&self, index: usize) -> impl Iterator<Item = (usize, f64)> + '_ {
        let record = &self.records[index];
        let start = record.start as usize;
        self.entries[start..start + record.len as usize].iter().map(|&entry| {
            let count = ((entry << (16 - COUNT_BITS)) as i16) >> (16 - COUNT_BITS);
            ((entry >> COUNT_BITS) as usize, f64::from(count))
        })
    }

    /// Each game's positions, in order.
    pub fn games(&self) -> impl Iterator<Item = Range<usize>> + '_ {
        let ends = self.game_starts.iter().skip(1).map(|&start| start as usize).chain([self.len()]);
        self.game_starts.iter().map(|&start| start as usize).zip(ends).map(|(start, end)| start..end)
    }

    /// Games told apart (see the module comment); each position belongs to one.
    pub fn game_count(&self) -> usize {
        self.game_starts.len()
    }

    /// Average memory per position, in bytes.
    pub fn bytes_per_position(&self) -> f64 {
        let bytes = self.entries.len() * 2 + self.records.len() * std::mem::size_of::<Record>();
        bytes as f64 / self.records.len().max(1) as f64
    }

    /// Gives back the slack the vectors kept while growing.
    pub fn shrink_to_fit(&mut self) {
        self.entries.shrink_to_fit();
        self.records.shrink_to_fit();
        self.game_starts.shrink_to_fit();
    }

    /// Traces `pos` and adds it, as a game of its own, with its search score and result (in
    /// half points).
    pub fn push(&mut self, pos: &Chess, score: i32, result_halves: u8) -> Result<(), TuneError> {
        let parsed = trace(pos, score, result_halves);
        self.append(parsed, true)
    }

    fn append(&mut self, parsed: Parsed, starts_game: bool) -> Result<(), TuneError> {
        if starts_game {
            self.game_starts.push(self.records.len() as u32);
        }
        let start = self.entries.len();
        for (index, mut count) in parsed.coefficients {
            while count != 0 {
                let part = count.clamp(COUNT_MIN, COUNT_MAX);
                self.entries.push(index << COUNT_BITS | (part as u16 & ((1 << COUNT_BITS) - 1)));
                count -= part;
            }
        }
        let len = self.entries.len() - start;
        let (Ok(start), Ok(len)) = (u32::try_from(start), u16::try_from(len)) else {
            // Leave the set as it was: drop this position's half-written entries and game start.
            self.entries.truncate(start);
            if starts_game {
                self.game_starts.pop();
            }
            return Err(TuneError::TooMuchData(self.records.len()));
        };
        let Parsed { score, result_halves, phase, scale, .. } = parsed;
        self.records.push(Record { start, len, score, result_halves, phase, scale });
        Ok(())
    }

    /// Reads every data line of `path` (up to `limit` positions in all), tracing on `threads`.
    pub fn load(&mut self, path: &Path, limit: usize, threads: usize) -> Result<FileCounts, TuneError> {
        let io_error = |error| TuneError::Io { path: path.to_path_buf(), error };
        let file = std::fs::File::open(path).map_err(io_error)?;
        let mut reader = BufReader::new(file);
        let mut counts = FileCounts::default();
        let mut previous = None;
        // One buffer per line of a chunk, reused from chunk to chunk.
        let mut lines: Vec<Vec<u8>> = vec![Vec::new(); CHUNK_LINES];
        loop {
            let mut filled = 0;
            let mut at_end = false;
            while filled < CHUNK_LINES {
                let line = &mut lines[filled];
                line.clear();
                if reader.read_until(b'\n', line).map_err(io_error)? == 0 {
                    at_end = true;
                    break;
                }
                filled += 1;
            }
            for parsed in parse_chunk(&lines[..filled], threads) {
                match parsed {
                    Line::Skip => {}
                    Line::Bad => counts.bad_lines += 1,
                    Line::Data(_) if self.len() >= limit => return Ok(counts),
                    Line::Data(parsed) => {
                        let (fullmove, result) = (parsed.fullmove, parsed.result_halves);
                        self.append(*parsed, starts_game(previous, fullmove, result))?;
                        previous = Some((fullmove, result));
                        counts.positions += 1;
                    }
                }
            }
            if at_end || self.len() >= limit {
                return Ok(counts);
            }
        }
    }
}

enum Line {
    Skip,
    Bad,
    Data(Box<Parsed>),
}

/// Parses and traces `lines`, split over `threads` threads, results in line order.
fn parse_chunk(lines: &[Vec<u8>], threads: usize) -> Vec<Line> {
    let per_thread = lines.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = lines
            .chunks(per_thread)
            .map(|part| scope.spawn(move || part.iter().map(|line| parse_line(line)).collect::<Vec<_>>()))
            .collect();
        handles
            .into_iter()
            .flat_map(|handle| handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
            .collect()
    })
}

fn parse_line(bytes: &[u8]) -> Line {
    match read_data_line(bytes) {
        DataLine::Skip => Line::Skip,
        DataLine::Bad => Line::Bad,
        DataLine::Record(pos, score, result_halves) => {
            Line::Data(Box::new(trace(&pos, score, result_halves)))
        }
    }
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

/// What a set of data files with no usable line is told, by `patina-learn tune` and `patina-learn wdl-fit`.
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

fn trace(pos: &Chess, score: i32, result_halves: u8) -> Parsed {
    let trace = patina::eval::trace(pos);
    // Phase is at most 24 and scales at most 64, so the narrowing is lossless.
    let narrow = |value: i32| value.clamp(0, u8::MAX as i32) as u8;
    Parsed {
        coefficients: trace.coefficients,
        score: score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
        result_halves,
        phase: narrow(trace.phase),
        scale: [narrow(trace.scale[0]), narrow(trace.scale[1])],
        fullmove: pos.fullmoves().get(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_datagen_lines_and_rejects_bad_ones() {
        let good = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | 23 | 0.5";
        assert!(matches!(parse_line(good.as_bytes()), Line::Data(_)));
        assert!(matches!(parse_line(b"# comment\n"), Line::Skip));
        assert!(matches!(parse_line(b"   \n"), Line::Skip));
        for bad in
            ["8/8/8 w - - 0 1 | 0 | 1.0", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 | x | 1.0", "a | 1", "k | 1 | 2 | 3"]
        {
            assert!(matches!(parse_line(bad.as_bytes()), Line::Bad), "{bad}");
        }
        assert!(matches!(parse_line(&[0xff, b'\n']), Line::Bad));
    }

    #[test]
    fn large_counts_survive_packing() {
        let mut data = Dataset::default();
        let parsed = Parsed {
            coefficients: vec![(3, 1), (7, -200), (PARAM_COUNT as u16 - 1, 64)],
            score: 0,
            result_halves: 1,
            phase: 24,
            scale: [64, 64],
            fullmove: 1,
        };
        data.append(parsed, true).expect("fits");
        let mut sums = vec![0.0; PARAM_COUNT];
        for (index, count) in data.coefficients(0) {
            sums[index] += count;
        }
        assert_eq!((sums[3], sums[7], sums[PARAM_COUNT - 1]), (1.0, -200.0, 64.0));
        assert_eq!(sums.iter().filter(|&&c| c != 0.0).count(), 3);
    }

    #[test]
    fn games_start_at_a_file_start_an_earlier_move_or_another_result() {
        assert!(starts_game(None, 30, 1));
        assert!(!starts_game(Some((30, 1)), 30, 1), "the other side's move");
        assert!(!starts_game(Some((30, 1)), 34, 1), "quiet positions skipped");
        assert!(starts_game(Some((30, 1)), 6, 1), "back to an opening");
        assert!(starts_game(Some((30, 1)), 31, 2), "another result");

        let mut data = Dataset::default();
        let parsed = |fullmove| Parsed {
            coefficients: vec![(0, 1)],
            score: 0,
            result_halves: 1,
            phase: 24,
            scale: [64, 64],
            fullmove,
        };
        for (fullmove, starts) in [(5, true), (6, false), (7, false), (4, true), (9, false)] {
            data.append(parsed(fullmove), starts).expect("fits");
        }
        assert_eq!(data.games().collect::<Vec<_>>(), [0..3, 3..5]);
        assert_eq!(data.game_count(), 2);
    }
}
