//! Reading the data a fit learns from: datagen's records (through the training filter: not in
//! check, best move quiet, no mate score, as `patina-learn train` reads them) or the `FEN | score |
//! result` lines of a `*.txt` file, keeping only each position's material, score and result,
//! all from White's point of view.
//!
//! Positions of `TABLE_PIECES` pieces or fewer are left out: the Syzygy tables hold them, and
//! in datagen's data (`--table-playout`) their score is the table's label (0 for a draw, the
//! resignation score or more for a win), not a search score the model could describe.

use super::FitError;
use crate::data::{read_data_line, DataLine, FileCounts};
use crate::data::{DataFormat, Filter, RecordReader};
use patina::wdl::board_material;
use shakmaty::{Board, Position as _};
use std::io::{BufRead, BufReader};
use std::path::Path;

/// The most pieces (kings included) of a position the fit leaves out: the Syzygy tables' reach.
pub const TABLE_PIECES: usize = 5;

/// One position as the model sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sample {
    /// The model's material count of the position, 0 to `MATERIAL_MAX`.
    pub material: u8,
    /// Search score in centipawns, White's point of view.
    pub score_cp: i32,
    /// White's result in half points: 0, 1 or 2.
    pub result_halves: u8,
}

/// Appends the positions of `path` (records, or text lines when it is `*.txt`) to `samples`
/// until it holds `limit`.
pub fn load(path: &Path, limit: usize, samples: &mut Vec<Sample>) -> Result<FileCounts, FitError> {
    match DataFormat::of(path) {
        DataFormat::Records => load_records(path, limit, samples),
        DataFormat::Text => load_text(path, limit, samples),
    }
}

fn load_records(path: &Path, limit: usize, samples: &mut Vec<Sample>) -> Result<FileCounts, FitError> {
    let io_error = |error| FitError::Io { path: path.to_path_buf(), error };
    let mut reader = RecordReader::open(path, Filter::TRAINING).map_err(io_error)?;
    let mut counts = FileCounts::default();
    while samples.len() < limit {
        let Some(record) = reader.next_record().map_err(io_error)? else { break };
        let result_halves = (2.0 * record.result().white_points()) as u8;
        keep(&record.to_setup().board, i32::from(record.white_score()), result_halves, samples, &mut counts);
    }
    Ok(counts)
}

fn load_text(path: &Path, limit: usize, samples: &mut Vec<Sample>) -> Result<FileCounts, FitError> {
    let io_error = |error| FitError::Io { path: path.to_path_buf(), error };
    let mut reader = BufReader::new(std::fs::File::open(path).map_err(io_error)?);
    let mut counts = FileCounts::default();
    let mut bytes = Vec::new();
    while samples.len() < limit {
        bytes.clear();
        if reader.read_until(b'\n', &mut bytes).map_err(io_error)? == 0 {
            break;
        }
        match read_data_line(&bytes) {
            DataLine::Skip => {}
            DataLine::Bad => counts.bad_lines += 1,
            DataLine::Record(pos, score_cp, result_halves) => {
                keep(pos.board(), score_cp, result_halves, samples, &mut counts);
            }
        }
    }
    Ok(counts)
}

/// Appends one position's sample and counts it, or only counts it when it is a table position
/// (`TABLE_PIECES` pieces or fewer): both readers' one test.
fn keep(board: &Board, score_cp: i32, result_halves: u8, samples: &mut Vec<Sample>, counts: &mut FileCounts) {
    if board.occupied().count() <= TABLE_PIECES {
        counts.table_positions += 1;
    } else {
        samples.push(Sample { material: board_material(board) as u8, score_cp, result_halves });
        counts.positions += 1;
    }
}
