//! The hold-out split: which positions the fit learns from and which only measure it.
//!
//! Whole games are held out, never single positions: the positions of one game share their
//! result and most of their pieces, so a game on both sides would let the validation loss
//! reward learning that game by heart. A game is held out when a hash of its number in the
//! data (`Rng::for_item`, a fixed seed) falls below the fraction, so the split depends only on
//! the data's order and the fraction: the same for every run, thread count and batch size,
//! and a longer prefix of the same file keeps the split of the shorter one.

use super::data::Dataset;
use patina::rng::Rng;

/// Fixed so every run splits the same data the same way.
const SPLIT_SEED: u64 = 0x7370_6c69_7421;

/// How many positions (and held-out games) each side of a split has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SplitSizes {
    /// Positions the fit learns from.
    pub train: usize,
    /// Positions held out to measure the fit.
    pub validation: usize,
    /// Games held out.
    pub validation_games: usize,
}

/// Position indices on each side, ascending; together they are every position once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Split {
    pub train: Vec<u32>,
    pub validation: Vec<u32>,
    pub validation_games: usize,
}

impl Split {
    /// Holds out about `fraction` (0 to 1) of the games of `data`.
    pub fn by_game(data: &Dataset, fraction: f64) -> Split {
        let mut split = Split { train: Vec::new(), validation: Vec::new(), validation_games: 0 };
        for (game, positions) in data.games().enumerate() {
            let side = if is_held_out(game, fraction) {
                split.validation_games += 1;
                &mut split.validation
            } else {
                &mut split.train
            };
            side.extend(positions.map(|index| index as u32));
        }
        split
    }

    pub fn sizes(&self) -> SplitSizes {
        SplitSizes {
            train: self.train.len(),
            validation: self.validation.len(),
            validation_games: self.validation_games,
        }
    }
}

fn is_held_out(game: usize, fraction: f64) -> bool {
    Rng::for_item(SPLIT_SEED, game as u64).unit() < fraction
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Chess;

    /// `games` one-position games.
    fn data(games: usize) -> Dataset {
        let mut data = Dataset::default();
        for game in 0..games {
            data.push(&Chess::default(), 0, (game % 3) as u8).expect("fits");
        }
        data
    }

    #[test]
    fn split_is_deterministic_disjoint_and_complete() {
        let data = data(4000);
        let split = Split::by_game(&data, 0.05);
        assert_eq!(split, Split::by_game(&data, 0.05));
        let mut all: Vec<u32> = split.train.iter().chain(&split.validation).copied().collect();
        all.sort_unstable();
        assert_eq!(all, (0..4000).collect::<Vec<u32>>(), "every position on exactly one side");
        assert_eq!(split.validation.len(), split.validation_games);
        assert!((150..250).contains(&split.validation.len()), "{} of 4000", split.validation.len());
    }

    #[test]
    fn a_longer_prefix_keeps_the_split_and_the_fraction_bounds_hold() {
        let (short, long) = (Split::by_game(&data(500), 0.1), Split::by_game(&data(1000), 0.1));
        assert!(long.validation.starts_with(&short.validation));
        assert!(Split::by_game(&data(100), 0.0).validation.is_empty());
        assert!(Split::by_game(&data(100), 1.0).train.is_empty());
    }
}
