//! The evaluation network: what it computes, and the quantised form the engine runs.
//!
//! Architecture 1 (`ARCH_PERSPECTIVE_768`): each side sees the board from its own side as 768
//! inputs (own/their piece x 6 roles x 64 squares, the board flipped vertically for Black),
//! feeding `HIDDEN` neurons with shared weights (the accumulator). The side to move's
//! accumulator and the other side's are concatenated, squared-clipped (SCReLU: `clamp(x, 0,
//! 1)^2`) and summed with `2 * HIDDEN` output weights into one score; `SCALE` turns it into
//! centipawns.
//!
//! Architecture 2 (`ARCH_OUTPUT_BUCKETS`) is the same with `OUTPUT_BUCKETS` sets of output
//! weights and biases, one per band of four pieces on the board (`output_bucket`): the first
//! layer's features are shared, and the last layer can weigh them differently in an endgame
//! than in the middlegame. The engine reads both; an architecture-1 net is one bucket.
//!
//! Quantisation (the trainer's floats to integers): feature weights and biases times `QA`
//! (i16), output weights times `QB` (i16). An activation `clamp(v, 0, QA)^2` is rounded to
//! 1/1024 of its `QA^2` range (`ACTIVATION_ONE` = 254 stands for 1.0), so it fits 8 bits and
//! its product with an output weight fits i32 however the weights fall; the output bias is
//! stored times `ACTIVATION_ONE * QB` (i32). The trainer clips weights to `±WEIGHT_LIMIT`, so
//! an accumulator (at most 32 pieces plus the bias) stays inside i16 and the output sum
//! (`2 * HIDDEN` terms of at most 254 x 1987) inside i32. `QA` (510) and `QB` (1024) are as
//! fine as those bounds allow, because a small net's weights are small: with the common 255
//! and 64, rounding alone moved evaluations by up to 36 cp against the float net in the
//! trainer's test.
//!
//! `file.rs` reads and writes the versioned net file, `accumulator.rs` keeps accumulators
//! current along the search's moves, `active.rs` holds the net compiled into the binary (which
//! net plays is the engine's choice: `EvalFile`, `UseNNUE`).

mod accumulator;
mod active;
mod file;

pub use accumulator::{Accumulator, AccumulatorStack};
pub use active::default_network;
pub use file::{fnv1a, NetError};

use shakmaty::{Board, Color, Role, Square};

/// Inputs per perspective: 2 colours x 6 roles x 64 squares.
pub const INPUTS: usize = 768;
/// Neurons per perspective in the first layer.
pub const HIDDEN: usize = 128;
/// Quantisation of the first layer (the activation's 1.0).
pub const QA: i32 = 510;
/// Quantisation of the output weights.
pub const QB: i32 = 1024;
/// Bits an activation's square drops, so it fits 8 bits.
const ACTIVATION_SHIFT: u32 = 10;
/// An activation's quantised 1.0: `QA^2 >> ACTIVATION_SHIFT`, unrounded.
pub const ACTIVATION_ONE: f64 = (QA * QA) as f64 / (1 << ACTIVATION_SHIFT) as f64;
/// Output units to centipawns.
pub const SCALE: i32 = 400;
/// The largest absolute float weight the trainer keeps (see the module comment).
pub const WEIGHT_LIMIT: f32 = 1.94;
/// Architecture id written in the file: `(768 -> HIDDEN) x 2 -> 1`, SCReLU.
pub const ARCH_PERSPECTIVE_768: u32 = 1;
/// Architecture id of `(768 -> HIDDEN) x 2 -> 1 x OUTPUT_BUCKETS`, SCReLU.
pub const ARCH_OUTPUT_BUCKETS: u32 = 2;
/// Output buckets of architecture 2: pieces 2-5, 6-9, ..., 30-32.
pub const OUTPUT_BUCKETS: usize = 8;

/// The output bucket of a position with `pieces` pieces (kings included) for a net with
/// `buckets` buckets (1 or `OUTPUT_BUCKETS`).
#[inline]
pub fn output_bucket(buckets: usize, pieces: usize) -> usize {
    // One bucket clamps every band to 0.
    (pieces.saturating_sub(2) / (32 / OUTPUT_BUCKETS)).min(buckets - 1)
}

/// The input index of `color`'s `role` on `square` as `perspective` sees it.
#[inline]
pub fn feature_index(perspective: Color, color: Color, role: Role, square: Square) -> usize {
    let (relative_color, relative_square) = match perspective {
        Color::White => (color as usize ^ 1, square as usize),
        Color::Black => (color as usize, square as usize ^ 56),
    };
    // shakmaty's Color: Black = 0, White = 1, so `color ^ 1` is 0 for White ("own" for White).
    relative_color * 384 + (role as usize - 1) * 64 + relative_square
}

/// Every active input of `board` for both perspectives: `(white's index, black's index)`.
pub fn features(board: &Board) -> impl Iterator<Item = (usize, usize)> + '_ {
    board.occupied().into_iter().map(move |square| {
        let piece = board.piece_at(square).expect("occupied");
        (
            feature_index(Color::White, piece.color, piece.role, square),
            feature_index(Color::Black, piece.color, piece.role, square),
        )
    })
}

/// The quantised network.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// `INPUTS` rows of `HIDDEN` weights.
    feature_weights: Vec<[i16; HIDDEN]>,
    feature_bias: [i16; HIDDEN],
    /// Per output bucket: the side to move's half, then the other side's.
    output_weights: Vec<[[i16; HIDDEN]; 2]>,
    /// Per output bucket.
    output_bias: Vec<i32>,
    /// FNV-1a of the weight bytes, as stored in the file.
    hash: u64,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network({INPUTS}->{HIDDEN}x2->1x{}, hash {:016x})", self.buckets(), self.hash)
    }
}

impl Network {
    /// The weights' hash, which names the net in `info string` lines and `docs/nets.md`.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Output buckets: 1 (architecture 1) or `OUTPUT_BUCKETS`.
    pub fn buckets(&self) -> usize {
        self.output_bias.len()
    }

    /// Centipawns for the side to move, from its accumulator and the other side's, on a board
    /// with `pieces` pieces.
    #[inline]
    pub fn evaluate(&self, us: &Accumulator, them: &Accumulator, pieces: usize) -> i32 {
        let bucket = output_bucket(self.buckets(), pieces);
        let weights = &self.output_weights[bucket];
        let sum = screlu_dot(&us.values, &weights[0]) + screlu_dot(&them.values, &weights[1]);
        // `sum` and the bias are in ACTIVATION_ONE * QB units.
        let total = i64::from(sum) + i64::from(self.output_bias[bucket]);
        (total * i64::from(SCALE) * (1 << ACTIVATION_SHIFT) / (i64::from(QA * QA) * i64::from(QB))) as i32
    }

    /// Centipawns for the side to move of `board`, computed from scratch.
    pub fn evaluate_board(&self, board: &Board, turn: Color) -> i32 {
        let [white, black] = Accumulator::refreshed(self, board);
        let pieces = board.occupied().count();
        match turn {
            Color::White => self.evaluate(&white, &black, pieces),
            Color::Black => self.evaluate(&black, &white, pieces),
        }
    }
}

/// `sum(round(clamp(x, 0, QA)^2 / 1024) * w)`: each activation fits 8 bits, so every product
/// and the sum stay inside i32 and the loop vectorises as 16-bit multiply-adds.
#[inline]
fn screlu_dot(values: &[i16; HIDDEN], weights: &[i16; HIDDEN]) -> i32 {
    let mut sum = 0i32;
    for (&value, &weight) in values.iter().zip(weights) {
        let clipped = i32::from(value.clamp(0, QA as i16));
        let activation = (clipped * clipped + (1 << (ACTIVATION_SHIFT - 1))) >> ACTIVATION_SHIFT;
        sum += activation * i32::from(weight);
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perspectives_mirror_each_other() {
        // A white knight on b1 seen by White is a black knight on b8 seen by Black.
        let white_view = feature_index(Color::White, Color::White, Role::Knight, Square::B1);
        let black_view = feature_index(Color::Black, Color::Black, Role::Knight, Square::B8);
        assert_eq!(white_view, black_view);
        assert_eq!(white_view, 64 + 1);
        assert_eq!(feature_index(Color::White, Color::Black, Role::King, Square::H8), 384 + 5 * 64 + 63);
        assert_eq!(feature_index(Color::Black, Color::White, Role::Pawn, Square::A2), 384 + 48);
    }

    #[test]
    fn output_buckets_band_the_piece_count() {
        assert_eq!(output_bucket(1, 32), 0);
        let bands: Vec<usize> = (2..=32).map(|pieces| output_bucket(OUTPUT_BUCKETS, pieces)).collect();
        assert_eq!(&bands[..4], &[0; 4], "2-5 pieces");
        assert_eq!(&bands[4..8], &[1; 4], "6-9 pieces");
        assert_eq!(&bands[28..], &[7; 3], "30-32 pieces");
        assert_eq!(output_bucket(OUTPUT_BUCKETS, 40), OUTPUT_BUCKETS - 1, "never past the last");
    }
}
