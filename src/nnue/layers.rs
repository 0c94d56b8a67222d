//! One hidden size's weights, `Layers<H>`, and the arithmetic that reads them: a perspective's
//! accumulator from scratch and the output layer.
//!
//! `H` is a compile-time constant so every loop here (and the accumulator updates of
//! `accumulator.rs`) runs over fixed-size arrays: the compiler drops the bounds checks and
//! vectorises them for each size `Network` can hold. The file reader fills a `Layers<H>`, the
//! writer walks it in file order.

use super::{
    feature_index, output_bucket, Accumulator, Architecture, NetworkParts, ACTIVATION_SHIFT, QA, QB, SCALE,
};
use shakmaty::{Board, Color};

/// The weights of a net with `H` hidden neurons per perspective.
#[derive(Clone, PartialEq, Eq)]
pub struct Layers<const H: usize> {
    /// `INPUTS` rows of `H` weights.
    pub(super) feature_weights: Vec<[i16; H]>,
    pub(super) feature_bias: [i16; H],
    /// Per output bucket: the side to move's half, then the other side's.
    pub(super) output_weights: Vec<[[i16; H]; 2]>,
    /// Per output bucket, in `ACTIVATION_ONE * QB` units.
    pub(super) output_bias: Vec<i32>,
}

impl<const H: usize> Layers<H> {
    /// Hidden neurons per perspective.
    pub fn hidden(&self) -> usize {
        H
    }

    /// The weight row of input `index`.
    #[inline]
    pub(super) fn row(&self, index: usize) -> &[i16; H] {
        &self.feature_weights[index]
    }

    /// `perspective`'s accumulator of `board` from scratch, seen `mirrored` or not.
    pub fn refreshed(&self, board: &Board, perspective: Color, mirrored: bool) -> Accumulator<H> {
        let mut accumulator = Accumulator { values: self.feature_bias };
        for square in board.occupied() {
            let piece = board.piece_at(square).expect("occupied");
            accumulator.add(self.row(feature_index(perspective, mirrored, piece.color, piece.role, square)));
        }
        accumulator
    }

    /// Centipawns for the side to move, from its accumulator and the other side's, on a board
    /// with `pieces` pieces.
    #[inline]
    pub fn evaluate(&self, us: &Accumulator<H>, them: &Accumulator<H>, pieces: usize) -> i32 {
        let bucket = output_bucket(self.output_bias.len(), pieces);
        let weights = &self.output_weights[bucket];
        let sum = screlu_dot(&us.values, &weights[0]) + screlu_dot(&them.values, &weights[1]);
        // `sum` and the bias are in ACTIVATION_ONE * QB units.
        let total = i64::from(sum) + i64::from(self.output_bias[bucket]);
        (total * i64::from(SCALE) * (1 << ACTIVATION_SHIFT) / (i64::from(QA * QA) * i64::from(QB))) as i32
    }

    /// The payload in file order (see `file.rs`): feature rows, feature biases, each bucket's
    /// output weights, the output biases.
    /// The weights as flat lists in file order (`Network::parts`).
    pub(super) fn parts(&self, arch: Architecture) -> NetworkParts {
        NetworkParts {
            arch,
            hidden: H,
            feature_weights: self.feature_weights.iter().flatten().copied().collect(),
            feature_bias: self.feature_bias.to_vec(),
            output_weights: self.output_weights.iter().flatten().flatten().copied().collect(),
            output_bias: self.output_bias.clone(),
        }
    }

    pub(super) fn write_payload(&self, payload: &mut Vec<u8>) {
        let rows = self
            .feature_weights
            .iter()
            .chain([&self.feature_bias])
            .chain(self.output_weights.iter().flatten());
        for row in rows {
            payload.extend(row.iter().flat_map(|value| value.to_le_bytes()));
        }
        payload.extend(self.output_bias.iter().flat_map(|bias| bias.to_le_bytes()));
    }
}

/// `sum(round(clamp(x, 0, QA)^2 / 1024) * w)`: each activation fits 8 bits, so every product
/// and the sum stay inside i32 and the loop vectorises.
#[inline]
fn screlu_dot<const H: usize>(values: &[i16; H], weights: &[i16; H]) -> i32 {
    let mut sum = 0i32;
    for (&value, &weight) in values.iter().zip(weights) {
        let clipped = i32::from(value.clamp(0, QA as i16));
        let activation = (clipped * clipped + (1 << (ACTIVATION_SHIFT - 1))) >> ACTIVATION_SHIFT;
        sum += activation * i32::from(weight);
    }
    sum
}
