//! Where the term code sends "parameter `i`, `n` times for this side".
//!
//! The term functions are generic over a `Tally` (and the driver in `mod.rs` over a `Sink`), and
//! are monomorphised per sink, so evaluating costs what the old "sum the named constants" code
//! cost. Scoring sinks multiply by `params::ACTIVE` at once; the tracer (`trace.rs`) keeps the
//! counts instead. All arithmetic is on integers, so the order in which terms arrive never
//! changes a score.

use super::params::ACTIVE;
use super::Tapered;
use shakmaty::Color;

/// The evaluation terms shown by `eval`, in display order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TermId {
    Material,
    PieceSquares,
    Pawns,
    PassedPawns,
    Mobility,
    KingSafety,
    Threats,
    Outposts,
    Rooks,
    BishopPair,
    Space,
    Tempo,
}

pub const TERM_COUNT: usize = 12;

/// Display names, indexed by `TermId as usize`.
pub const TERM_NAMES: [&str; TERM_COUNT] = [
    "material",
    "piece-squares",
    "pawns",
    "passed pawns",
    "mobility",
    "king safety",
    "threats",
    "outposts",
    "rooks",
    "bishop pair",
    "space",
    "tempo",
];

/// Receives weighted counts: `count` times parameter `index`, for whichever side is current.
pub trait Tally {
    fn add(&mut self, index: usize, count: i32);
}

/// A `Tally` that the evaluation driver can also point at a term and side.
pub trait Sink: Tally {
    /// Directs the following `add`s to `color`'s share of `term`.
    fn begin(&mut self, term: TermId, color: Color);
    /// Whether the pawn-only terms (`TermId::Pawns`) must arrive parameter by parameter through
    /// `Tally::add` (the tracer recounts them) rather than as the pawn cache's per-side totals
    /// (`add_pawn_totals`, what scoring sinks take). The driver in `mod.rs` decides with it, so
    /// this file needs nothing from `pawns.rs`.
    const COUNTS_PAWN_TERMS: bool = false;
    /// Adds both sides' cached pawn-only totals, White first (never called when
    /// `COUNTS_PAWN_TERMS`).
    fn add_pawn_totals(&mut self, _totals: [Tapered; 2]) {}
}

/// White 0, Black 1: the order of every per-side array in the evaluation.
#[inline]
pub fn side_index(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

#[inline]
fn add_weight(score: &mut Tapered, index: usize, count: i32) {
    let weight = ACTIVE.values[index];
    score.mg += weight.mg * count;
    score.eg += weight.eg * count;
}

/// One side's score; the pawn cache fills its entries with this.
#[derive(Debug, Default)]
pub struct Score(pub Tapered);

impl Tally for Score {
    #[inline]
    fn add(&mut self, index: usize, count: i32) {
        add_weight(&mut self.0, index, count);
    }
}

/// Each side's total over all terms: what `evaluate` needs.
#[derive(Debug, Default)]
pub struct Totals {
    pub sides: [Tapered; 2],
    side: usize,
}

impl Tally for Totals {
    #[inline]
    fn add(&mut self, index: usize, count: i32) {
        add_weight(&mut self.sides[self.side], index, count);
    }
}

impl Sink for Totals {
    #[inline]
    fn begin(&mut self, _term: TermId, color: Color) {
        self.side = side_index(color);
    }

    #[inline]
    fn add_pawn_totals(&mut self, totals: [Tapered; 2]) {
        self.sides[0] += totals[0];
        self.sides[1] += totals[1];
    }
}

/// Every term for each side: what `breakdown` shows.
#[derive(Debug, Default)]
pub struct TermTable {
    pub terms: [[Tapered; 2]; TERM_COUNT],
    term: usize,
    side: usize,
}

impl Tally for TermTable {
    fn add(&mut self, index: usize, count: i32) {
        add_weight(&mut self.terms[self.term][self.side], index, count);
    }
}

impl Sink for TermTable {
    fn begin(&mut self, term: TermId, color: Color) {
        self.term = term as usize;
        self.side = side_index(color);
    }

    fn add_pawn_totals(&mut self, totals: [Tapered; 2]) {
        self.terms[TermId::Pawns as usize] = totals;
    }
}
