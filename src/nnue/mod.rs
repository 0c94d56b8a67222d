//! The evaluation network: what it computes, and the quantised form the engine runs.
//!
//! Architecture 1 (`Architecture::Perspective`): each side sees the board from its own side as
//! 768 inputs (own/their piece x 6 roles x 64 squares, the board flipped vertically for Black),
//! feeding `H` hidden neurons with shared weights (the accumulator). The side to move's
//! accumulator and the other side's are concatenated, squared-clipped (SCReLU: `clamp(x, 0,
//! 1)^2`) and summed with `2 * H` output weights into one score; `SCALE` turns it into
//! centipawns.
//!
//! Architecture 2 (`Architecture::OutputBuckets`) is the same with `OUTPUT_BUCKETS` sets of
//! output weights and biases, one per band of four pieces on the board (`output_bucket`): the
//! first layer's features are shared, and the last layer can weigh them differently in an
//! endgame than in the middlegame. An architecture-1 net is one bucket.
//!
//! Architecture 3 (`Architecture::Mirrored`) is architecture 2 with horizontally mirrored
//! inputs: a perspective whose king stands on files e-h sees the board mirrored left to right
//! (file a <-> h), so to the net its own king is always on files a-d and the first layer learns
//! half as many king placements. A position and its left-right mirror have the same inputs
//! (castling rights are no input). The mirroring is per perspective: each king decides its own
//! side's view, and a perspective's accumulator is recomputed when its king crosses between the
//! d- and e-files (`accumulator.rs`).
//!
//! Every architecture comes in the hidden sizes of `HIDDEN_SIZES` (nets 1-3 are 128). The
//! weights of one size are a `Layers<H>` whose loops run over fixed-size arrays, so they
//! vectorise; `Network` holds one of them behind an enum, chosen when the file is read, and
//! each evaluation dispatches on it once.
//!
//! Quantisation (the trainer's floats to integers): feature weights and biases times `QA`
//! (i16), output weights times `QB` (i16). An activation `clamp(v, 0, QA)^2` is rounded to
//! 1/1024 of its `QA^2` range (`ACTIVATION_ONE` = 254 stands for 1.0), so it fits 8 bits and
//! its product with an output weight fits i32 however the weights fall; the output bias is
//! stored times `ACTIVATION_ONE * QB` (i32). The trainer clips weights to `±WEIGHT_LIMIT`, so
//! an accumulator (at most 32 pieces plus the bias) stays inside i16 and the output sum
//! (`2 * H` terms of at most 254 x 1987, under 2^30 for H = 512) inside i32. `QA` (510) and
//! `QB` (1024) are as fine as those bounds allow, because a small net's weights are small:
//! with the common 255 and 64, rounding alone moved evaluations by up to 36 cp against the
//! float net in the trainer's test.
//!
//! `layers.rs` holds one size's weights and the output layer, `file.rs` reads and writes the
//! versioned net file, `accumulator.rs` keeps accumulators current along the search's moves,
//! `active.rs` holds the net compiled into the binary (which net plays is the engine's choice:
//! `EvalFile`).

mod accumulator;
mod active;
mod file;
mod layers;

pub use accumulator::{vector_width, Accumulator, AccumulatorStack, VectorWidth};
pub use active::default_network;
pub use file::{fnv1a, NetError, NetworkParts};
pub use layers::Layers;

use shakmaty::{Board, Color, File, Role, Square};

/// Inputs per perspective: 2 colours x 6 roles x 64 squares.
pub const INPUTS: usize = 768;
/// Hidden neurons per perspective of the shipped nets, and the trainer's default.
pub const HIDDEN: usize = 128;
/// The hidden sizes the engine plays (each compiled as its own `Layers<H>`).
pub const HIDDEN_SIZES: [usize; 4] = [128, 256, 384, 512];
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
/// Output buckets of architectures 2 and 3: pieces 2-5, 6-9, ..., 30-32.
pub const OUTPUT_BUCKETS: usize = 8;

/// What the inputs mean and how many output buckets read them; the id is in the net file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Architecture {
    /// 1: `(768 -> H) x 2 -> 1`, SCReLU.
    Perspective,
    /// 2: `(768 -> H) x 2 -> 1 x OUTPUT_BUCKETS`, SCReLU.
    OutputBuckets,
    /// 3: architecture 2 with each perspective mirrored left to right when its king stands on
    /// files e-h.
    Mirrored,
}

impl Architecture {
    /// Every architecture this build reads, by id.
    pub const ALL: [Architecture; 3] =
        [Architecture::Perspective, Architecture::OutputBuckets, Architecture::Mirrored];

    /// The id written in the net file.
    pub fn id(self) -> u32 {
        match self {
            Architecture::Perspective => 1,
            Architecture::OutputBuckets => 2,
            Architecture::Mirrored => 3,
        }
    }

    /// The architecture of a file's id, if this build reads it.
    pub fn from_id(id: u32) -> Option<Architecture> {
        Architecture::ALL.into_iter().find(|arch| arch.id() == id)
    }

    /// The architecture with `buckets` output buckets and (or not) mirrored inputs, if one is
    /// defined: mirrored inputs come with `OUTPUT_BUCKETS` buckets only.
    pub fn with(buckets: usize, mirrored: bool) -> Option<Architecture> {
        Architecture::ALL.into_iter().find(|arch| arch.buckets() == buckets && arch.is_mirrored() == mirrored)
    }

    /// Output buckets: 1 or `OUTPUT_BUCKETS`.
    pub fn buckets(self) -> usize {
        match self {
            Architecture::Perspective => 1,
            Architecture::OutputBuckets | Architecture::Mirrored => OUTPUT_BUCKETS,
        }
    }

    /// Whether a perspective whose king is on files e-h sees the board mirrored.
    pub fn is_mirrored(self) -> bool {
        self == Architecture::Mirrored
    }

    /// Whether `perspective` sees `board` mirrored left to right in this architecture.
    #[inline]
    pub fn mirrors(self, board: &Board, perspective: Color) -> bool {
        self.is_mirrored() && board.king_of(perspective).is_some_and(king_mirrors)
    }
}

/// Whether a king on `square` makes its perspective mirrored (in architecture 3): files e-h.
#[inline]
pub fn king_mirrors(square: Square) -> bool {
    square.file() >= File::E
}

/// The output bucket of a position with `pieces` pieces (kings included) for a net with
/// `buckets` buckets (1 or `OUTPUT_BUCKETS`).
#[inline]
pub fn output_bucket(buckets: usize, pieces: usize) -> usize {
    // One bucket clamps every band to 0.
    (pieces.saturating_sub(2) / (32 / OUTPUT_BUCKETS)).min(buckets - 1)
}

/// The input index of `color`'s `role` on `square` as `perspective` sees it, `mirrored` left
/// to right or not (see `Architecture::mirrors`).
#[inline]
pub fn feature_index(perspective: Color, mirrored: bool, color: Color, role: Role, square: Square) -> usize {
    let (relative_color, relative_square) = match perspective {
        Color::White => (color as usize ^ 1, square as usize),
        Color::Black => (color as usize, square as usize ^ 56),
    };
    // shakmaty's Color: Black = 0, White = 1, so `color ^ 1` is 0 for White ("own" for White).
    // `^ 7` mirrors the file and keeps the rank.
    relative_color * 384 + (role as usize - 1) * 64 + (relative_square ^ (7 * usize::from(mirrored)))
}

/// The weights of one hidden size (see the module comment).
#[derive(Clone, PartialEq, Eq)]
enum SizedLayers {
    H128(Box<Layers<128>>),
    H256(Box<Layers<256>>),
    H384(Box<Layers<384>>),
    H512(Box<Layers<512>>),
}

/// Runs `$body` with `$layers` bound to the `Layers<H>` inside a `SizedLayers`, monomorphised
/// for each size.
macro_rules! with_layers {
    ($sized:expr, $layers:ident => $body:expr) => {
        match $sized {
            SizedLayers::H128($layers) => $body,
            SizedLayers::H256($layers) => $body,
            SizedLayers::H384($layers) => $body,
            SizedLayers::H512($layers) => $body,
        }
    };
}
pub(crate) use with_layers;

/// The quantised network: an architecture, its weights at one hidden size, and their hash.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    arch: Architecture,
    layers: SizedLayers,
    /// FNV-1a of the weight bytes, as stored in the file.
    hash: u64,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Network(architecture {}, {INPUTS}->{}x2->1x{}, hash {:016x})",
            self.arch.id(),
            self.hidden(),
            self.buckets(),
            self.hash
        )
    }
}

impl Network {
    /// The weights' hash, which names the net in `info string` lines and `docs/nets.md`.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The net's architecture.
    pub fn arch(&self) -> Architecture {
        self.arch
    }

    /// Hidden neurons per perspective, one of `HIDDEN_SIZES`.
    pub fn hidden(&self) -> usize {
        with_layers!(&self.layers, layers => layers.hidden())
    }

    /// Output buckets: 1 (architecture 1) or `OUTPUT_BUCKETS`.
    pub fn buckets(&self) -> usize {
        self.arch.buckets()
    }

    /// Centipawns for the side to move of `board`, computed from scratch.
    pub fn evaluate_board(&self, board: &Board, turn: Color) -> i32 {
        with_layers!(&self.layers, layers => {
            let refreshed = |perspective| layers.refreshed(board, perspective, self.arch.mirrors(board, perspective));
            let (us, them) = (refreshed(turn), refreshed(!turn));
            layers.evaluate(&us, &them, board.occupied().count())
        })
    }
}

#[cfg(test)]
pub(crate) mod test_support {
    use super::{Architecture, Network, NetworkParts, INPUTS};
    use crate::rng::Rng;

    /// A net of random weights, large enough that every input moves the evaluation.
    pub fn random_network(arch: Architecture, hidden: usize, seed: u64) -> Network {
        let mut rng = Rng::new(seed);
        let mut values = |count: usize, range: usize| -> Vec<i16> {
            (0..count).map(|_| (rng.below(2 * range + 1) as i32 - range as i32) as i16).collect()
        };
        let buckets = arch.buckets();
        let parts = NetworkParts {
            arch,
            hidden,
            feature_weights: values(INPUTS * hidden, 60),
            feature_bias: values(hidden, 200),
            output_weights: values(buckets * 2 * hidden, 2000),
            output_bias: (0..buckets as i32).map(|bucket| bucket * 1000 - 3000).collect(),
        };
        Network::from_parts(parts).expect("weights within range")
    }
}

#[cfg(test)]
mod tests {
    use super::test_support::random_network;
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Position as _};

    #[test]
    fn perspectives_mirror_each_other() {
        // A white knight on b1 seen by White is a black knight on b8 seen by Black.
        let white_view = feature_index(Color::White, false, Color::White, Role::Knight, Square::B1);
        let black_view = feature_index(Color::Black, false, Color::Black, Role::Knight, Square::B8);
        assert_eq!(white_view, black_view);
        assert_eq!(white_view, 64 + 1);
        assert_eq!(
            feature_index(Color::White, false, Color::Black, Role::King, Square::H8),
            384 + 5 * 64 + 63
        );
        assert_eq!(feature_index(Color::Black, false, Color::White, Role::Pawn, Square::A2), 384 + 48);
    }

    #[test]
    fn a_mirrored_perspective_swaps_files_and_keeps_ranks() {
        // Seen mirrored, a knight on b1 stands on g1, and a pawn on h7 on a7.
        let knight = feature_index(Color::White, true, Color::White, Role::Knight, Square::B1);
        assert_eq!(knight, feature_index(Color::White, false, Color::White, Role::Knight, Square::G1));
        let pawn = feature_index(Color::Black, true, Color::White, Role::Pawn, Square::H7);
        assert_eq!(pawn, 384 + 8, "a7 as Black sees it is a2: rank 2, file a");
        assert!(king_mirrors(Square::E1) && king_mirrors(Square::H8));
        assert!(!king_mirrors(Square::D1) && !king_mirrors(Square::A8));
        let board = Board::from_ascii_board_fen(b"4k3/8/8/8/8/8/8/3K4").expect("valid board");
        assert!(!Architecture::Mirrored.mirrors(&board, Color::White), "king on d1");
        assert!(Architecture::Mirrored.mirrors(&board, Color::Black), "king on e8");
        assert!(!Architecture::OutputBuckets.mirrors(&board, Color::Black), "only architecture 3 mirrors");
    }

    #[test]
    fn architectures_round_trip_their_ids() {
        for arch in Architecture::ALL {
            assert_eq!(Architecture::from_id(arch.id()), Some(arch));
            assert_eq!(Architecture::with(arch.buckets(), arch.is_mirrored()), Some(arch));
        }
        assert_eq!(Architecture::from_id(4), None);
        assert_eq!(Architecture::with(1, true), None);
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

    /// The board of `fen` and of its mirror image left to right (castling rights dropped).
    fn with_mirror(fen: &str) -> [(Board, Color); 2] {
        let pos: Chess =
            fen.parse::<Fen>().expect("valid FEN").into_position(CastlingMode::Chess960).expect("legal");
        let board = pos.board().clone();
        let mut mirror = Board::empty();
        for square in board.occupied() {
            let piece = board.piece_at(square).expect("occupied");
            mirror.set_piece_at(square.flip_horizontal(), piece);
        }
        [(board, pos.turn()), (mirror, pos.turn())]
    }

    #[test]
    fn a_mirrored_net_scores_a_position_and_its_left_right_mirror_alike() {
        let mirrored = random_network(Architecture::Mirrored, 256, 7);
        let plain = random_network(Architecture::OutputBuckets, 256, 7);
        for fen in [
            // Kings on both sides of the d/e line, each way round, and on the line's edges.
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
            "2kr3r/ppp2ppp/2n5/8/8/2N5/PPP2PPP/2KR3R b - - 0 12",
            "8/5k2/3p4/8/2P5/4K3/8/8 b - - 0 50",
            "3k4/8/8/8/8/8/8/4K2R w - - 0 1",
        ] {
            let [(board, turn), (mirror, _)] = with_mirror(fen);
            assert_eq!(
                mirrored.evaluate_board(&board, turn),
                mirrored.evaluate_board(&mirror, turn),
                "{fen}"
            );
            assert_ne!(plain.evaluate_board(&board, turn), plain.evaluate_board(&mirror, turn), "{fen}");
        }
    }
}
