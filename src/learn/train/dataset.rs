//! Training positions in memory: read through the shared reader and filter, whole games held
//! out for validation, and the target each position is fitted to.
//!
//! Game `g` (counted across all files in order) is held out when a fixed hash of `g` falls
//! below the validation fraction, so the split depends only on the data and the fraction.
//! The target blends the game result with the search score: `lambda * result + (1 - lambda) *
//! sigmoid(score / wdl_scale)`, both from the side to move's point of view, where `wdl_scale`
//! is the centipawn scale at which the data's scores best predict its results (fitted here
//! unless given), so the net's centipawns mean what the search's did.

use crate::learn::data::{DataResult, Filter, PackedPosition, RecordReader};
use shakmaty::Color;
use std::path::PathBuf;

/// The loaded data set.
pub struct TrainingData {
    pub train: Vec<PackedPosition>,
    pub validation: Vec<PackedPosition>,
    pub games: u64,
    pub dropped: u64,
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

/// Reads `paths` through `filter`, at most `limit` positions.
pub fn load(
    paths: &[PathBuf],
    filter: Filter,
    fraction: f64,
    limit: Option<usize>,
) -> Result<TrainingData, String> {
    let mut data = TrainingData { train: Vec::new(), validation: Vec::new(), games: 0, dropped: 0 };
    let limit = limit.unwrap_or(usize::MAX);
    'files: for path in paths {
        let mut reader = RecordReader::open(path, filter).map_err(|e| e.to_string())?;
        data.train.reserve(reader.total() as usize);
        while let Some(game) = reader.next_game().map_err(|e| e.to_string())? {
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
        return Err("no training positions (empty files, or the filter dropped everything)".into());
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
    fn the_split_holds_out_about_the_fraction() {
        let held = (0..100_000).filter(|&g| is_validation_game(g, 0.1)).count();
        assert!((9_000..11_000).contains(&held), "{held}");
        assert_eq!((0..1000).filter(|&g| is_validation_game(g, 0.0)).count(), 0);
    }
}
