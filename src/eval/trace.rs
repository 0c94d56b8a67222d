//! The evaluation as coefficients: for each parameter, how many times White's terms count it
//! minus how many times Black's do. This is what `patina tune` fits against.
//!
//! The linear part of the evaluation is `sum(coefficient * weight)` for the middlegame and the
//! endgame separately. The non-linear parts are kept outside: gates (king-zone attacks count only
//! once two kinds of attacker join in) are applied before counting, so the trace holds the
//! counts after gating, and the phase blend and endgame scale are stored beside the counts.
//! The scale depends on which side is ahead in the endgame, so both candidates are stored.
//! `Trace::white_score` applies them exactly as `evaluate` does, so for the weights the engine
//! plays with it gives the same integer as `evaluate` (from White's point of view).

use super::params::{EvalParams, PARAM_COUNT};
use super::sink::{Sink, Tally, TermId};
use super::{taper, Tapered};
use shakmaty::Color;

/// One position's evaluation as coefficients, White-relative.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trace {
    /// `(parameter index, White's count minus Black's)`, non-zero ones only, by index.
    pub coefficients: Vec<(u16, i32)>,
    /// Game phase, 0 (pawn endgame) to `PHASE_MAX` (all pieces on the board).
    pub phase: i32,
    /// Endgame scale out of `SCALE_NORMAL` when White is the side ahead, and when Black is.
    pub scale: [i32; 2],
}

impl Trace {
    /// The middlegame and endgame sums under `params`, before phase and scale.
    pub fn linear(&self, params: &EvalParams) -> Tapered {
        let mut total = Tapered::default();
        for &(index, count) in &self.coefficients {
            let weight = params.values[index as usize];
            total.mg += weight.mg * count;
            total.eg += weight.eg * count;
        }
        total
    }

    /// The scale that applies when the endgame sum is `eg` (White is ahead when `eg >= 0`).
    pub fn scale_for(&self, eg: i32) -> i32 {
        if eg >= 0 {
            self.scale[0]
        } else {
            self.scale[1]
        }
    }

    /// The evaluation under `params` in centipawns, White's point of view, with the integer
    /// blend `evaluate` uses.
    pub fn white_score(&self, params: &EvalParams) -> i32 {
        let total = self.linear(params);
        taper(total, self.phase, self.scale_for(total.eg))
    }
}

/// Counts parameters instead of weighing them.
pub struct Tracer {
    counts: [i32; PARAM_COUNT],
    sign: i32,
}

impl Tracer {
    pub fn new() -> Tracer {
        Tracer { counts: [0; PARAM_COUNT], sign: 1 }
    }

    /// The non-zero counts, by index.
    pub fn coefficients(&self) -> Vec<(u16, i32)> {
        let nonzero = self.counts.iter().enumerate().filter(|(_, &count)| count != 0);
        nonzero.map(|(index, &count)| (index as u16, count)).collect()
    }
}

impl Tally for Tracer {
    #[inline]
    fn add(&mut self, index: usize, count: i32) {
        self.counts[index] += self.sign * count;
    }
}

impl Sink for Tracer {
    fn begin(&mut self, _term: TermId, color: Color) {
        self.sign = match color {
            Color::White => 1,
            Color::Black => -1,
        };
    }

    const COUNTS_PAWN_TERMS: bool = true;
}
