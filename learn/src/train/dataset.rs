//! Training positions in memory: read through the shared reader and filter, whole games held
//! out for validation, and the target each position is fitted to.
//!
//! A position seen before (the same pieces on the same squares, the same side to move: what
//! the net sees) is dropped unless duplicates are kept: the first record of it, in file order,
//! is the one trained on, so a common opening position weighs once, not once per game.
//!
//! Game `g` (counted across all files in order) is held out when a fixed hash of `g` falls
//! below the validation fraction, so the split depends only on the data and the fraction.
//! The target blends the game result with the search score: `lambda * result + (1 - lambda) *
//! sigmoid(score / wdl_scale)`, both from the side to move's point of view, where `wdl_scale`
//! is the centipawn scale at which the data's scores best predict its results (fitted here
//! unless given), so the net's centipawns mean what the search's did.

use super::error::TrainError;
use crate::data::{DataResult, Filter, PackedPosition, RecordReader};
use shakmaty::Color;
use std::collections::HashSet;
use std::path::PathBuf;

/// What `load` does with a position it has already read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Duplicates {
    /// Drop it: each position is trained on (or held out) once.
    Drop,
    /// Keep every record, as runs before duplicates were dropped did.
    Keep,
}

/// The loaded data set.
pub struct TrainingData {
    pub train: Vec<PackedPosition>,
    pub validation: Vec<PackedPosition>,
    pub games: u64,
    pub dropped: u64,
    /// Records dropped as repeats of a position read before.
    pub duplicates: u64,
}

/// A 64-bit key of what the net sees of a record: its pieces and the side to move.
fn position_key(record: &PackedPosition) -> u64 {
    let bytes = record.as_bytes();
    let mut key = u64::from(record.turn() == Color::Black);
    for chunk in bytes[..24].chunks_exact(8) {
        key = mix(key ^ u64::from_le_bytes(chunk.try_into().expect("8 bytes")));
    }
    key
}

fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// Whether game `g` is held out.
pub fn is_validation_game(game: u64, fraction: f64) -> bool {
    (mix(game) % 1_000_000) < (fraction * 1_000_000.0) as u64
}

/// Which positions a run reads and how it splits them: `train` and `net-loss` share it, so a
/// net is scored on exactly the positions a run with the same selection held out.
#[derive(Debug, Clone)]
pub struct DataSelection {
    /// Record files from `patina-learn datagen` or `patina-learn data`, read in order.
    pub data: Vec<PathBuf>,
    /// Which records to drop while reading.
    pub filter: Filter,
    /// Whether a position read again is read again.
    pub duplicates: Duplicates,
    /// Share of the games held out for validation, 0 to 1.
    pub validation_fraction: f64,
    /// Stop once this many positions are kept (after the filter and the duplicates), in whole games.
    pub limit: Option<usize>,
}

impl DataSelection {
    /// The selected positions, split.
    pub fn load(&self) -> Result<TrainingData, TrainError> {
        load(&self.data, self.filter, self.duplicates, self.validation_fraction, self.limit)
    }
}

/// Reads `paths` through `filter`, in whole games, until `limit` positions are kept.
pub fn load(
    paths: &[PathBuf],
    filter: Filter,
    duplicates: Duplicates,
    fraction: f64,
    limit: Option<usize>,
) -> Result<TrainingData, TrainError> {
    let mut data =
        TrainingData { train: Vec::new(), validation: Vec::new(), games: 0, dropped: 0, duplicates: 0 };
    let limit = limit.unwrap_or(usize::MAX);
    let mut seen = HashSet::new();
    'files: for path in paths {
        let unreadable = |error| TrainError::Data { path: path.clone(), error };
        let mut reader = RecordReader::open(path, filter).map_err(unreadable)?;
        data.train.reserve(reader.total() as usize);
        while let Some(mut game) = reader.next_game().map_err(unreadable)? {
            if duplicates == Duplicates::Drop {
                let before = game.len();
                game.retain(|record| seen.insert(position_key(record)));
                data.duplicates += (before - game.len()) as u64;
            }
            let side =
                if is_validation_game(data.games, fraction) { &mut data.validation } else { &mut data.train };
            data.games += 1;
            side.extend(game);
            if data.train.len() + data.validation.len() >= limit {
                data.dropped += reader.dropped;
                break 'files;
            }
        }
        data.dropped += reader.dropped;
    }
    if data.train.is_empty() {
        return Err(TrainError::NoTrainingPositions);
    }
    Ok(data)
}

/// The logistic function, `1 / (1 + e^-x)`: logits to a 0..1 expected score.
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The side to move's share of the game's point.
fn own_result(record: &PackedPosition) -> f32 {
    let white = match record.result() {
        DataResult::WhiteWins => 1.0,
        DataResult::Draw => 0.5,
        DataResult::BlackWins => 0.0,
    };
    if record.turn() == Color::White {
        white
    } else {
        1.0 - white
    }
}

/// The search score in centipawns from the side to move's point of view.
fn own_score(record: &PackedPosition) -> f32 {
    let white = f32::from(record.white_score());
    if record.turn() == Color::White {
        white
    } else {
        -white
    }
}

/// What the net's win probability is fitted to.
pub fn target(record: &PackedPosition, lambda: f32, wdl_scale: f32) -> f32 {
    lambda * own_result(record) + (1.0 - lambda) * sigmoid(own_score(record) / wdl_scale)
}

/// The scale `s` minimising the squared error of `sigmoid(score / s)` against the results, by
/// golden-section search over 50..2000 cp on up to a million positions.
pub fn fit_wdl_scale(records: &[PackedPosition]) -> f32 {
    let step = (records.len() / 1_000_000).max(1);
    let sample: Vec<(f32, f32)> =
        records.iter().step_by(step).map(|r| (own_score(r), own_result(r))).collect();
    let loss = |scale: f32| -> f64 {
        sample.iter().map(|&(score, result)| f64::from(sigmoid(score / scale) - result).powi(2)).sum()
    };
    let (mut low, mut high) = (50.0f32, 2000.0f32);
    let ratio = (5f32.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = high - ratio * (high - low);
        let b = low + ratio * (high - low);
        if loss(a) < loss(b) {
            high = b;
        } else {
            low = a;
        }
    }
    (low + high) / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_read_again_is_dropped_unless_duplicates_are_kept() {
        use crate::data::test_support::pack_fen;
        use crate::data::RecordWriter;
        let dir = std::env::temp_dir().join(format!("patina-dedup-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.bin");
        let mut writer = RecordWriter::create(&path).unwrap();
        let start = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        // The same position in a second game (another move number), then with the other side
        // to move, which the net sees differently.
        let (again, other_side) = (start.replace("0 1", "4 9"), start.replace(" b ", " w "));
        let games: [&[&str]; 3] = [
            &[start, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"],
            &[&again],
            &[&other_side],
        ];
        for game in games {
            for (ply, fen) in game.iter().enumerate() {
                let mut record = pack_fen(fen);
                record.set_game_start(ply == 0);
                writer.write(&record).unwrap();
            }
        }
        writer.finish().unwrap();
        let read =
            |duplicates| load(std::slice::from_ref(&path), Filter::NONE, duplicates, 0.0, None).unwrap();
        let (dropped, kept) = (read(Duplicates::Drop), read(Duplicates::Keep));
        assert_eq!((kept.train.len(), kept.duplicates), (4, 0));
        assert_eq!((dropped.train.len(), dropped.duplicates), (3, 1));
        assert_eq!(dropped.train, [kept.train[0], kept.train[1], kept.train[3]], "the first of each is kept");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_split_holds_out_about_the_fraction() {
        let held = (0..100_000).filter(|&g| is_validation_game(g, 0.1)).count();
        assert!((9_000..11_000).contains(&held), "{held}");
        assert_eq!((0..1000).filter(|&g| is_validation_game(g, 0.0)).count(), 0);
    }
}
