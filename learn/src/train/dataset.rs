//! Training positions in memory: read through the shared reader and filter, whole games held
//! out for validation, and the target each position is fitted to.
//!
//! A position seen before (the same pieces on the same squares, the same side to move: what
//! the net sees) is dropped unless duplicates are kept: the first record of it, in file order,
//! is the one trained on, so a common opening position weighs once, not once per game.
//!
//! Reading may end before the files do: after their first `--games` games, so that a file
//! datagen is still writing is cut at a fixed point, or once `--limit` positions are kept.
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
use std::fmt;
use std::path::PathBuf;

/// What `DataSelection::load` does with a position it has already read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Duplicates {
    /// Drop it: each position is trained on (or held out) once.
    Drop,
    /// Keep every record, as runs before duplicates were dropped did.
    Keep,
}

/// The loaded data set.
#[derive(Default)]
pub struct TrainingData {
    pub train: Vec<PackedPosition>,
    pub validation: Vec<PackedPosition>,
    /// Games with a position the filter passed: the split's game numbers count these.
    pub games: u64,
    /// Records the filter dropped.
    pub dropped: u64,
    /// Records dropped as repeats of a position read before.
    pub duplicates: u64,
    /// What ended the reading before the files ended, if anything did.
    pub stopped_by: Option<ReadStop>,
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
    /// Read only the first this many games of the files, counted across them in order, a game
    /// the filter empties included: a fixed cut of a file datagen is still writing. With
    /// `limit` too, reading stops at whichever is reached first.
    pub games: Option<u64>,
}

/// What ended the reading before the end of the files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadStop {
    /// `--games`: this many games were read.
    Games(u64),
    /// `--limit`: this many positions were asked for, and at least as many kept.
    Limit(usize),
}

impl fmt::Display for ReadStop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadStop::Games(games) => write!(f, "--games {games}"),
            ReadStop::Limit(positions) => write!(f, "--limit {positions}"),
        }
    }
}

impl DataSelection {
    /// The selected positions, split: the files are read through the filter in order, in
    /// whole games, until `games` games are read or `limit` positions kept, whichever comes
    /// first. Asking for more games than the files hold is an error unless `limit` stopped
    /// the reading first: the run would not be the one its recipe names.
    pub fn load(&self) -> Result<TrainingData, TrainError> {
        let mut data = TrainingData::default();
        let limit = self.limit.unwrap_or(usize::MAX);
        // Games read from the files so far, those the filter emptied included.
        let mut games_read = 0;
        let mut seen = HashSet::new();
        for path in &self.data {
            let unreadable = |error| TrainError::Data { path: path.clone(), error };
            let mut reader = RecordReader::open(path, self.filter).map_err(unreadable)?;
            if let Some(games) = self.games {
                reader.stop_after_games(games - games_read);
            }
            data.train.reserve(reader.total() as usize);
            while let Some(mut game) = reader.next_game().map_err(unreadable)? {
                if self.duplicates == Duplicates::Drop {
                    let before = game.len();
                    game.retain(|record| seen.insert(position_key(record)));
                    data.duplicates += (before - game.len()) as u64;
                }
                let side = if is_validation_game(data.games, self.validation_fraction) {
                    &mut data.validation
                } else {
                    &mut data.train
                };
                data.games += 1;
                side.extend(game);
                if data.train.len() + data.validation.len() >= limit {
                    data.stopped_by = Some(ReadStop::Limit(limit));
                    break;
                }
            }
            data.dropped += reader.dropped;
            games_read += reader.games;
            if data.stopped_by.is_none() && self.games == Some(games_read) {
                data.stopped_by = Some(ReadStop::Games(games_read));
            }
            if data.stopped_by.is_some() {
                break;
            }
        }
        if let (Some(asked), None) = (self.games, data.stopped_by) {
            return Err(TrainError::TooFewGames { asked, found: games_read });
        }
        if data.train.is_empty() {
            return Err(TrainError::NoTrainingPositions);
        }
        Ok(data)
    }
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
    use crate::data::{GamePlace, RecordWriter, SearchLabel};
    use std::path::Path;

    /// Every record of `paths`, kept whatever it repeats, none held out, no cut.
    fn selection(paths: &[&Path], filter: Filter) -> DataSelection {
        DataSelection {
            data: paths.iter().map(|path| path.to_path_buf()).collect(),
            filter,
            duplicates: Duplicates::Keep,
            validation_fraction: 0.0,
            limit: None,
            games: None,
        }
    }

    /// Writes games of the start position to `path`, one per `(first, length, noisy)`: records
    /// scored `first`, `first + 1`, ... so each says which game and ply it is; a noisy game's
    /// best moves are captures, so the training filter empties it.
    fn write_games(path: &Path, games: &[(i32, u32, bool)]) {
        let mut writer = RecordWriter::create(path).unwrap();
        for &(first, length, noisy) in games {
            for ply in 0..length {
                let label = SearchLabel {
                    white_score: first + ply as i32,
                    mate: false,
                    best_is_capture: noisy,
                    best_is_promotion: false,
                };
                let place = GamePlace { ply, game_start: ply == 0, result: DataResult::Draw };
                writer
                    .write(&PackedPosition::pack(&shakmaty::Chess::default(), label, place).unwrap())
                    .unwrap();
            }
        }
        writer.finish().unwrap();
    }

    #[test]
    fn games_reads_the_first_games_whole_across_files_and_limit_stops_it_sooner() {
        let dir = std::env::temp_dir().join(format!("patina-games-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (a, b) = (dir.join("a.bin"), dir.join("b.bin"));
        // Games 1-4 in a (game 3 all noisy), games 5-6 in b; game g's records score 100g + ply.
        write_games(&a, &[(100, 3, false), (200, 2, false), (300, 2, true), (400, 4, false)]);
        write_games(&b, &[(500, 2, false), (600, 3, false)]);
        let read = |games, limit| {
            let cut = DataSelection { games, limit, ..selection(&[&a, &b], Filter::TRAINING) };
            cut.load().map(|data| {
                let scores: Vec<i16> = data.train.iter().map(|record| record.white_score()).collect();
                (scores, data.games, data.dropped, data.stopped_by)
            })
        };
        let first_two = vec![100, 101, 102, 200, 201];
        assert_eq!(read(Some(2), None).unwrap(), (first_two.clone(), 2, 0, Some(ReadStop::Games(2))));
        // The emptied game counts as a game read, and reading stops before game 4.
        assert_eq!(read(Some(3), None).unwrap(), (first_two.clone(), 2, 2, Some(ReadStop::Games(3))));
        let first_five = vec![100, 101, 102, 200, 201, 400, 401, 402, 403, 500, 501];
        assert_eq!(read(Some(5), None).unwrap(), (first_five.clone(), 4, 2, Some(ReadStop::Games(5))));
        let (all, _, _, stopped_by) = read(Some(6), None).unwrap();
        assert_eq!((all.len(), stopped_by), (14, Some(ReadStop::Games(6))), "exactly the games held");
        assert_eq!(read(None, None).unwrap().0, all);

        // Both given: whichever is reached first ends the reading, after a whole game.
        assert_eq!(read(Some(2), Some(9)).unwrap(), (first_two, 2, 0, Some(ReadStop::Games(2))));
        assert_eq!(read(Some(6), Some(10)).unwrap(), (first_five, 4, 2, Some(ReadStop::Limit(10))));
        assert_eq!(read(Some(7), Some(9)).unwrap().3, Some(ReadStop::Limit(9)), "--limit came first");

        // More games than the files hold is no silent short read.
        let error = read(Some(7), None).unwrap_err();
        assert!(matches!(error, TrainError::TooFewGames { asked: 7, found: 6 }), "{error}");
        assert!(error.to_string().starts_with("--games 7, but the data holds only 6 games"), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_position_read_again_is_dropped_unless_duplicates_are_kept() {
        use crate::data::test_support::pack_fen;
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
        let read = |duplicates| {
            let every = DataSelection { duplicates, ..selection(&[&path], Filter::NONE) };
            every.load().unwrap()
        };
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
