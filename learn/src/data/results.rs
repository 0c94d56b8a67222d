//! What datagen's games say about results: two tables over records, read by `patina-learn data
//! results` (through the shared reader and its filter) and checked against the win/draw/loss
//! model before it ships (docs/nets.md).
//!
//! - `level`: the draw rate of positions scored within `LEVEL_MARGIN` centipawns of 0, by
//!   material in bands of `LEVEL_BAND`.
//! - `big`: how positions scored 1000 cp or more for one side ended, for the side ahead, by
//!   material (capped at `BIG_MATERIAL_CAP`) and score band (`BIG_SCORE_BANDS`).
//!
//! Material counts both sides: pawn 1, knight and bishop 3, rook 5, queen 9, king 0. Counting
//! (`add`, `from_records`) is pure and separate from the text (`Display`), whose columns are
//! those of the Python script this replaces. Per-mille figures round half to even, as that script's
//! `{:.0f}` did, so the two print the same numbers.

use super::{DataResult, PackedPosition};
use std::collections::BTreeMap;
use std::fmt;

/// `level` counts positions whose score is at most this far from 0 (centipawns).
pub const LEVEL_MARGIN: i32 = 30;
/// `level`'s material band width: a row covers `band .. band + LEVEL_BAND`.
pub const LEVEL_BAND: u32 = 8;
/// `big`'s score bands, by their lower end (centipawns for one side); the last is open, and a
/// position scored below the first is not counted.
pub const BIG_SCORE_BANDS: [i32; 3] = [1000, 1500, 2000];
/// `big` puts every position with this much material or more in one row.
pub const BIG_MATERIAL_CAP: u32 = 20;

/// Material on the board, both sides: pawn 1, knight 3, bishop 3, rook 5, queen 9, king 0.
pub fn material(record: &PackedPosition) -> u32 {
    const VALUES: [u32; 8] = [1, 3, 3, 5, 9, 0, 0, 0];
    record.raw_pieces().map(|(_, code)| VALUES[(code & 7) as usize]).sum()
}

/// `part / whole` in thousandths, rounded half to even (0 when `whole` is 0).
pub fn per_mille(part: u64, whole: u64) -> u64 {
    if whole == 0 {
        return 0;
    }
    let scaled = u128::from(part) * 1000;
    let whole = u128::from(whole);
    let (quotient, remainder) = (scaled / whole, scaled % whole);
    let round_up = match (2 * remainder).cmp(&whole) {
        std::cmp::Ordering::Greater => true,
        std::cmp::Ordering::Equal => quotient % 2 == 1,
        std::cmp::Ordering::Less => false,
    };
    (quotient + u128::from(round_up)) as u64
}

/// Game results counted three ways; whose point of view depends on the table.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Outcomes {
    /// Games won (by White in `level`, by the side ahead in `big`).
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost (by White in `level`, by the side ahead in `big`).
    pub losses: u64,
}

impl Outcomes {
    /// All positions counted.
    pub fn total(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    fn add(&mut self, result: DataResult) {
        match result {
            DataResult::WhiteWins => self.wins += 1,
            DataResult::Draw => self.draws += 1,
            DataResult::BlackWins => self.losses += 1,
        }
    }
}

/// The `level` table: level positions by material band.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LevelTable {
    /// Results (White's view) by the lower end of the material band, in ascending order.
    pub rows: BTreeMap<u32, Outcomes>,
}

impl LevelTable {
    /// Counts `record` when its score is level (a mate score, stored as ±32000, never is).
    pub fn add(&mut self, record: &PackedPosition) {
        if i32::from(record.white_score()).abs() <= LEVEL_MARGIN {
            let band = material(record) / LEVEL_BAND * LEVEL_BAND;
            self.rows.entry(band).or_default().add(record.result());
        }
    }

    /// The table of `records`.
    pub fn from_records<'a>(records: impl IntoIterator<Item = &'a PackedPosition>) -> LevelTable {
        let mut table = LevelTable::default();
        records.into_iter().for_each(|record| table.add(record));
        table
    }
}

/// The `big` table: lopsided positions by material and score band, for the side ahead.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BigTable {
    /// Results for the side ahead by (material capped at `BIG_MATERIAL_CAP`, score band's lower
    /// end), in ascending order.
    pub rows: BTreeMap<(u32, i32), Outcomes>,
}

impl BigTable {
    /// Counts `record` when one side is scored in a band of `BIG_SCORE_BANDS`. A mate score
    /// counts in the top band, as its stored ±32000 says; the training filter drops those.
    pub fn add(&mut self, record: &PackedPosition) {
        let score = i32::from(record.white_score());
        let Some(&band) = BIG_SCORE_BANDS.iter().rev().find(|&&low| score.abs() >= low) else {
            return;
        };
        let ahead_result = match (score > 0, record.result()) {
            (true, result) => result,
            (false, DataResult::WhiteWins) => DataResult::BlackWins,
            (false, DataResult::BlackWins) => DataResult::WhiteWins,
            (false, DataResult::Draw) => DataResult::Draw,
        };
        let key = (material(record).min(BIG_MATERIAL_CAP), band);
        self.rows.entry(key).or_default().add(ahead_result);
    }

    /// The table of `records`.
    pub fn from_records<'a>(records: impl IntoIterator<Item = &'a PackedPosition>) -> BigTable {
        let mut table = BigTable::default();
        records.into_iter().for_each(|record| table.add(record));
        table
    }
}

impl fmt::Display for LevelTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "material  positions  draws per mille")?;
        for (material, counts) in &self.rows {
            let total = counts.total();
            writeln!(f, "{material:>8} {total:>10} {:>16}", per_mille(counts.draws, total))?;
        }
        Ok(())
    }
}

impl fmt::Display for BigTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "material  score  positions  win draw loss (per mille, side ahead)")?;
        for ((material, band), counts) in &self.rows {
            let total = counts.total();
            writeln!(
                f,
                "{material:>8} {band:>5}+ {total:>10} {:>4} {:>4} {:>4}",
                per_mille(counts.wins, total),
                per_mille(counts.draws, total),
                per_mille(counts.losses, total)
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::{GamePlace, SearchLabel};
    use patina::position::Position;

    /// A record of `fen` scored `white_score` in a game that ended `result`.
    fn record(fen: &str, white_score: i32, result: DataResult) -> PackedPosition {
        let pos = Position::from_fen(fen, false).expect("valid FEN");
        let label =
            SearchLabel { white_score, mate: false, best_is_capture: false, best_is_promotion: false };
        let place = GamePlace { ply: 10, game_start: false, result };
        PackedPosition::pack(pos.chess(), label, place).expect("packs")
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1";
    /// Kings and one white pawn: material 1.
    const PAWN: &str = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    /// White rook and bishop against a knight: material 11.
    const PIECES: &str = "4k3/8/2n5/8/8/8/8/R1B1K3 w - - 0 1";

    #[test]
    fn material_counts_both_sides() {
        assert_eq!(material(&record(START, 0, DataResult::Draw)), 78);
        assert_eq!(material(&record(PAWN, 0, DataResult::Draw)), 1);
        assert_eq!(material(&record(PIECES, 0, DataResult::Draw)), 11);
        assert_eq!(material(&record("4k3/8/8/8/8/8/8/4K3 w - - 0 1", 0, DataResult::Draw)), 0);
    }

    #[test]
    fn per_mille_rounds_half_to_even() {
        assert_eq!(per_mille(1, 3), 333);
        assert_eq!(per_mille(2, 3), 667);
        assert_eq!(per_mille(1, 16), 62, "62.5 rounds to even");
        assert_eq!(per_mille(3, 16), 188, "187.5 rounds to even");
        assert_eq!(per_mille(5, 5), 1000);
        assert_eq!(per_mille(0, 0), 0);
    }

    #[test]
    fn level_counts_draws_of_level_positions_by_material_band() {
        let records = [
            record(START, 30, DataResult::Draw),
            record(START, -30, DataResult::WhiteWins),
            record(START, 12, DataResult::Draw),
            record(START, 31, DataResult::Draw), // not level
            record(PAWN, 0, DataResult::Draw),
            record(PIECES, -5, DataResult::BlackWins),
            record(PIECES, 999, DataResult::WhiteWins), // not level
        ];
        let table = LevelTable::from_records(&records);
        let rows: Vec<_> = table.rows.iter().map(|(&band, &counts)| (band, counts)).collect();
        assert_eq!(
            rows,
            [
                (0, Outcomes { wins: 0, draws: 1, losses: 0 }),
                (8, Outcomes { wins: 0, draws: 0, losses: 1 }),
                (72, Outcomes { wins: 1, draws: 2, losses: 0 }),
            ]
        );
        assert_eq!(
            table.to_string(),
            "material  positions  draws per mille\n\
             \u{20}      0          1             1000\n\
             \u{20}      8          1                0\n\
             \u{20}     72          3              667\n"
        );
    }

    #[test]
    fn big_counts_results_for_the_side_ahead_by_material_and_band() {
        let records = [
            record(PAWN, 1000, DataResult::WhiteWins),
            record(PAWN, 1499, DataResult::Draw),
            record(PAWN, -1200, DataResult::BlackWins), // Black ahead and won
            record(PAWN, -1000, DataResult::WhiteWins), // Black ahead and lost
            record(PAWN, 999, DataResult::WhiteWins),   // not big
            record(PIECES, 1500, DataResult::WhiteWins),
            record(PIECES, -1999, DataResult::Draw),
            record(START, 2000, DataResult::WhiteWins), // material 78, capped at 20
            record(START, -5000, DataResult::BlackWins),
        ];
        let table = BigTable::from_records(&records);
        let rows: Vec<_> = table.rows.iter().map(|(&key, &counts)| (key, counts)).collect();
        assert_eq!(
            rows,
            [
                ((1, 1000), Outcomes { wins: 2, draws: 1, losses: 1 }),
                ((11, 1500), Outcomes { wins: 1, draws: 1, losses: 0 }),
                ((20, 2000), Outcomes { wins: 2, draws: 0, losses: 0 }),
            ]
        );
        assert_eq!(
            table.to_string(),
            "material  score  positions  win draw loss (per mille, side ahead)\n\
             \u{20}      1  1000+          4  500  250  250\n\
             \u{20}     11  1500+          2  500  500    0\n\
             \u{20}     20  2000+          2 1000    0    0\n"
        );
    }
}
