//! The float network the trainer fits: the same computation as `nnue` (see its module
//! comment) in f32, with the gradient of the loss, and its quantisation into the engine's
//! `Network`.
//!
//! Parameters live in one flat vector so the optimiser, the checkpoint and the gradient all
//! share a layout: feature weights (`INPUTS` rows of `hidden`), feature biases (`hidden`),
//! per output bucket the output weights (`2 x hidden`, side to move first), then the output
//! biases (one per bucket). The architecture decides the output buckets and how a record's
//! pieces become input indices (`Features`); the arithmetic is the same for all three.

use super::error::WidenError;
use crate::data::PackedPosition;
use patina::nnue::{
    output_bucket, Architecture, NetError, Network, NetworkParts, ACTIVATION_ONE, INPUTS, QA, QB, SCALE,
    WEIGHT_LIMIT,
};
use patina::rng::Rng;
use shakmaty::Color;

/// At most 32 pieces: a position's inputs, per perspective.
pub struct Features {
    /// Input index of each piece from White's perspective; the first `len` are used.
    pub white: [u16; 32],
    /// Input index of each piece from Black's perspective (board flipped), in the same order.
    pub black: [u16; 32],
    /// Pieces on the board: how many entries of `white` and `black` are used.
    pub len: usize,
    /// The side to move.
    pub turn: Color,
}

/// The record's code of a king (`role as u8 - 1`), without its colour bit.
const KING_CODE: u8 = 5;

impl Features {
    /// The inputs of a record for a net of `arch`, indexed as `nnue::feature_index` does.
    pub fn of(record: &PackedPosition, arch: Architecture) -> Features {
        Features::oriented(record, arch, false)
    }

    /// The inputs of a record, or of its mirror image across the d/e file line when
    /// `mirrored`: the same position for an evaluation, since no input sees castling rights.
    /// For a mirrored architecture each perspective whose king is on files e-h also sees its
    /// board mirrored, so both orientations give the same inputs.
    pub fn oriented(record: &PackedPosition, arch: Architecture, mirrored: bool) -> Features {
        let mut features = Features { white: [0; 32], black: [0; 32], len: 0, turn: record.turn() };
        let file_flip = if mirrored { 7 } else { 0 };
        // One pass over the record (the trainer's hottest loop after the net itself): squares
        // as oriented, and piece codes.
        let mut pieces = [(0usize, 0usize); 32];
        for (slot, (square, code)) in pieces.iter_mut().zip(record.raw_pieces()) {
            *slot = (usize::from(square) ^ file_flip, usize::from(code));
            features.len += 1;
        }
        let pieces = &pieces[..features.len];
        // Per perspective (White, Black): 7 when its king stands on files e-h of the board
        // as oriented, in a mirrored architecture.
        let mut king_flip = [0; 2];
        if arch.is_mirrored() {
            for &(square, code) in pieces.iter().filter(|&&(_, code)| code & 7 == usize::from(KING_CODE)) {
                king_flip[code >> 3] = if square & 7 >= 4 { 7 } else { 0 };
            }
        }
        for (index, &(square, code)) in pieces.iter().enumerate() {
            let (black_piece, role) = (code >> 3, code & 7);
            features.white[index] = (black_piece * 384 + role * 64 + (square ^ king_flip[0])) as u16;
            features.black[index] =
                ((1 - black_piece) * 384 + role * 64 + (square ^ 56 ^ king_flip[1])) as u16;
        }
        features
    }

    /// The side to move's inputs, then the other side's.
    pub(super) fn perspectives(&self) -> [&[u16]; 2] {
        let (white, black) = (&self.white[..self.len], &self.black[..self.len]);
        match self.turn {
            Color::White => [white, black],
            Color::Black => [black, white],
        }
    }
}

/// The float network.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    /// Hidden neurons per perspective.
    pub hidden: usize,
    /// The architecture: output buckets and input mirroring.
    pub arch: Architecture,
    /// Every weight and bias, in the layout of the module comment.
    pub params: Vec<f32>,
}

/// Where the parts of a net's `params` start (the module comment's layout).
#[derive(Clone, Copy, Debug)]
pub(super) struct Layout {
    buckets: usize,
    hidden: usize,
    /// The feature biases; the feature weights are everything before.
    pub feature_bias: usize,
    /// The first bucket's output weights.
    pub output: usize,
    /// The first bucket's output bias.
    pub output_bias: usize,
}

impl Layout {
    /// Where the output weights and the bias of the bucket for `pieces` pieces start.
    pub fn bucket(&self, pieces: usize) -> (usize, usize) {
        let bucket = output_bucket(self.buckets, pieces);
        (self.output + bucket * 2 * self.hidden, self.output_bias + bucket)
    }
}

/// `clamp(x, 0, 1)^2` and its derivative.
#[inline]
fn screlu(x: f32) -> (f32, f32) {
    if x <= 0.0 {
        (0.0, 0.0)
    } else if x >= 1.0 {
        (1.0, 0.0)
    } else {
        (x * x, 2.0 * x)
    }
}

impl FloatNet {
    /// Length of `params` for a net of this size.
    pub fn param_count(hidden: usize, buckets: usize) -> usize {
        INPUTS * hidden + hidden + buckets * (2 * hidden + 1)
    }

    /// Output buckets: 1 or `nnue::OUTPUT_BUCKETS`.
    pub fn buckets(&self) -> usize {
        self.arch.buckets()
    }

    fn feature_bias_at(&self) -> usize {
        INPUTS * self.hidden
    }
    /// Where the output weights of every bucket start.
    fn output_at(&self) -> usize {
        self.feature_bias_at() + self.hidden
    }
    /// Where the output biases start.
    fn output_bias_at(&self) -> usize {
        self.output_at() + self.buckets() * 2 * self.hidden
    }

    /// Where `features`' bucket's output weights start, and its bias.
    fn bucket_at(&self, features: &Features) -> (usize, usize) {
        self.layout().bucket(features.len)
    }

    /// Where each part of `params` starts.
    pub(super) fn layout(&self) -> Layout {
        Layout {
            buckets: self.buckets(),
            hidden: self.hidden,
            feature_bias: self.feature_bias_at(),
            output: self.output_at(),
            output_bias: self.output_bias_at(),
        }
    }

    /// Small random weights: feature weights uniform in ±1/sqrt(32) (about 32 inputs are
    /// active), output weights in ±1/sqrt(2 * hidden), biases 0.
    pub fn random(hidden: usize, arch: Architecture, seed: u64) -> FloatNet {
        let mut rng = Rng::new(seed);
        let params = vec![0.0; FloatNet::param_count(hidden, arch.buckets())];
        let mut net = FloatNet { hidden, arch, params };
        let (bias, output, output_bias) = (net.feature_bias_at(), net.output_at(), net.output_bias_at());
        let feature_range = 1.0 / 32f32.sqrt();
        let output_range = 1.0 / ((2 * hidden) as f32).sqrt();
        for (index, value) in net.params.iter_mut().enumerate() {
            let unit = rng.unit() as f32 * 2.0 - 1.0;
            *value = match index {
                i if i < bias => unit * feature_range,
                i if i >= output && i < output_bias => unit * output_range,
                _ => 0.0,
            };
        }
        net
    }

    /// The float weights an engine net was quantised from, as near as its rounding allows: the
    /// start of a run that fine-tunes a net (`--init`).
    pub fn dequantised(net: &Network) -> FloatNet {
        let parts = net.parts();
        fn scaled(values: &[i16], factor: i32) -> impl Iterator<Item = f32> + '_ {
            values.iter().map(move |&v| f32::from(v) / factor as f32)
        }
        let output_bias =
            parts.output_bias.iter().map(|&bias| (f64::from(bias) / (ACTIVATION_ONE * f64::from(QB))) as f32);
        let params = scaled(&parts.feature_weights, QA)
            .chain(scaled(&parts.feature_bias, QA))
            .chain(scaled(&parts.output_weights, QB))
            .chain(output_bias)
            .collect();
        FloatNet { hidden: parts.hidden, arch: parts.arch, params }
    }

    /// This net as one of `arch` with `hidden` neurons that evaluates as it does, so a run can
    /// start a wider or mirrored net from what a smaller one learned (`--init`):
    /// - extra neurons get random feature weights (from `seed`) and zero output weights: they
    ///   change nothing until training finds them a use;
    /// - a net of one output bucket lends its output layer to every bucket;
    /// - plain inputs become mirrored ones: exact wherever a perspective's king stands on files
    ///   a-d, and elsewhere as near as the net is to left-right symmetric (a net trained with
    ///   `--mirror` is near).
    ///
    /// Fewer neurons or buckets, or plain inputs from mirrored ones, would lose what the net
    /// knows: those are refused, with the reason.
    pub fn widened(&self, arch: Architecture, hidden: usize, seed: u64) -> Result<FloatNet, WidenError> {
        let (from_hidden, from_buckets) = (self.hidden, self.buckets());
        if hidden < from_hidden {
            return Err(WidenError::FewerNeurons(from_hidden));
        }
        if from_buckets != arch.buckets() && from_buckets != 1 {
            return Err(WidenError::Buckets { from: from_buckets, to: arch.buckets() });
        }
        if self.arch.is_mirrored() && !arch.is_mirrored() {
            return Err(WidenError::MirroredToPlain);
        }
        let mut net = FloatNet::random(hidden, arch, seed);
        for input in 0..INPUTS {
            net.params[input * hidden..input * hidden + from_hidden]
                .copy_from_slice(&self.params[input * from_hidden..(input + 1) * from_hidden]);
        }
        let (from_bias, to_bias) = (self.feature_bias_at(), net.feature_bias_at());
        net.params[to_bias..to_bias + from_hidden]
            .copy_from_slice(&self.params[from_bias..from_bias + from_hidden]);
        let (from_output, to_output, to_output_bias) =
            (self.output_at(), net.output_at(), net.output_bias_at());
        net.params[to_output..to_output_bias].fill(0.0);
        for bucket in 0..arch.buckets() {
            let source = bucket % from_buckets;
            for half in 0..2 {
                let from = from_output + (source * 2 + half) * from_hidden;
                let to = to_output + (bucket * 2 + half) * hidden;
                net.params[to..to + from_hidden].copy_from_slice(&self.params[from..from + from_hidden]);
            }
            net.params[to_output_bias + bucket] = self.params[self.output_bias_at() + source];
        }
        Ok(net)
    }

    /// The two accumulators (side to move's first), before the activation.
    fn accumulate(&self, features: &Features) -> [Vec<f32>; 2] {
        let hidden = self.hidden;
        let bias = &self.params[self.feature_bias_at()..self.output_at()];
        features.perspectives().map(|inputs| {
            let mut sums = bias.to_vec();
            for &input in inputs {
                let row = &self.params[input as usize * hidden..(input as usize + 1) * hidden];
                sums.iter_mut().zip(row).for_each(|(sum, weight)| *sum += weight);
            }
            sums
        })
    }

    /// The output in network units (centipawns = output x `SCALE`), side to move's view.
    pub fn forward(&self, features: &Features) -> f32 {
        let sums = self.accumulate(features);
        let (output_at, bias_at) = self.bucket_at(features);
        let output = &self.params[output_at..output_at + 2 * self.hidden];
        let mut total = self.params[bias_at];
        for (half, sums) in sums.iter().enumerate() {
            let weights = &output[half * self.hidden..(half + 1) * self.hidden];
            total += sums.iter().zip(weights).map(|(&x, &w)| screlu(x).0 * w).sum::<f32>();
        }
        total
    }

    /// Evaluates once, asks `loss_slope` for d(loss)/d(output) at the output, and adds that
    /// times the output's gradient to `gradient` (same layout as `params`).
    pub fn backward(&self, features: &Features, loss_slope: impl FnOnce(f32) -> f32, gradient: &mut [f32]) {
        let hidden = self.hidden;
        let sums = self.accumulate(features);
        let ((output_at, output_bias_at), bias_at) = (self.bucket_at(features), self.feature_bias_at());
        let output_weights = &self.params[output_at..output_at + 2 * hidden];
        let activated: Vec<[f32; 2]> = sums.iter().flatten().map(|&x| screlu(x).into()).collect();
        let output = self.params[output_bias_at]
            + activated.iter().zip(output_weights).map(|(pair, w)| pair[0] * w).sum::<f32>();
        let d_output = loss_slope(output);
        gradient[output_bias_at] += d_output;
        let mut d_sums = [vec![0.0f32; hidden], vec![0.0f32; hidden]];
        for (index, (&[value, slope], &weight)) in activated.iter().zip(output_weights).enumerate() {
            gradient[output_at + index] += d_output * value;
            d_sums[index / hidden][index % hidden] = d_output * weight * slope;
        }
        for (half, inputs) in features.perspectives().into_iter().enumerate() {
            let d_sum = &d_sums[half];
            gradient[bias_at..bias_at + hidden].iter_mut().zip(d_sum).for_each(|(g, d)| *g += d);
            for &input in inputs {
                let row = &mut gradient[input as usize * hidden..(input as usize + 1) * hidden];
                row.iter_mut().zip(d_sum).for_each(|(g, d)| *g += d);
            }
        }
    }

    /// Keeps every weight inside what quantisation can hold.
    pub fn clip(&mut self) {
        self.params.iter_mut().for_each(|w| *w = w.clamp(-WEIGHT_LIMIT, WEIGHT_LIMIT));
    }

    /// The engine's integer network: every weight rounded to its quantisation (see `nnue`).
    /// Fails only for a hidden size the engine does not play.
    pub fn quantise(&self) -> Result<Network, NetError> {
        let q = |values: &[f32], factor: i32| -> Vec<i16> {
            values.iter().map(|&value| (value * factor as f32).round() as i16).collect()
        };
        let (bias_at, output_at, output_bias_at) =
            (self.feature_bias_at(), self.output_at(), self.output_bias_at());
        let output_bias = self.params[output_bias_at..]
            .iter()
            .map(|&bias| (f64::from(bias) * ACTIVATION_ONE * f64::from(QB)).round() as i32)
            .collect();
        Network::from_parts(NetworkParts {
            arch: self.arch,
            hidden: self.hidden,
            feature_weights: q(&self.params[..bias_at], QA),
            feature_bias: q(&self.params[bias_at..output_at], QA),
            output_weights: q(&self.params[output_at..output_bias_at], QB),
            output_bias,
        })
    }

    /// A record's inputs for this net's architecture, mirrored left to right or not.
    pub fn features(&self, record: &PackedPosition, mirrored: bool) -> Features {
        Features::oriented(record, self.arch, mirrored)
    }

    /// Centipawns for the side to move, as the float net sees it.
    pub fn centipawns(&self, features: &Features) -> f32 {
        self.forward(features) * SCALE as f32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::PackedPosition;

    pub(crate) fn record_of(fen: &str) -> PackedPosition {
        use crate::data::test_support::pack_fen;
        pack_fen(fen)
    }

    #[test]
    fn a_dequantised_net_quantises_back_to_the_same_net() {
        for (arch, hidden, seed) in [(Architecture::OutputBuckets, 128, 4), (Architecture::Mirrored, 256, 5)]
        {
            let mut float = FloatNet::random(hidden, arch, seed);
            let bias_at = float.output_bias_at();
            float.params[bias_at] = 0.37;
            let net = float.quantise().unwrap();
            let back = FloatNet::dequantised(&net);
            assert_eq!(back.params.len(), float.params.len());
            assert_eq!(back.quantise().unwrap(), net);
            let drift = float.params.iter().zip(&back.params).map(|(a, b)| (a - b).abs()).fold(0.0, f32::max);
            assert!(drift <= 0.5 / QA.min(QB) as f32 + 1e-6, "rounding moved a weight by {drift}");
        }
    }

    #[test]
    fn a_widened_net_evaluates_as_the_one_it_came_from() {
        // Both kings on files a-d, so mirroring changes no input; then both on files e-h.
        let near = record_of("2k5/pp3p2/2n5/3p4/3P4/2N2B2/PP3PPP/1K6 w - - 0 20");
        let far = record_of("6k1/5ppp/8/3p4/8/2N5/PPP2PPP/6K1 b - - 0 20");
        for (from_arch, to_arch) in [
            (Architecture::OutputBuckets, Architecture::OutputBuckets),
            (Architecture::Perspective, Architecture::OutputBuckets),
            (Architecture::OutputBuckets, Architecture::Mirrored),
        ] {
            let narrow = FloatNet::random(128, from_arch, 11);
            let wide = narrow.widened(to_arch, 256, 12).unwrap();
            assert_eq!((wide.arch, wide.hidden), (to_arch, 256));
            let records: &[&PackedPosition] =
                if to_arch.is_mirrored() && !from_arch.is_mirrored() { &[&near] } else { &[&near, &far] };
            for record in records {
                let (before, after) = (
                    narrow.forward(&narrow.features(record, false)),
                    wide.forward(&wide.features(record, false)),
                );
                assert!(
                    (before - after).abs() < 1e-5,
                    "{from_arch:?} -> {to_arch:?}: {before} became {after}"
                );
            }
            let feature_weights = &wide.params[..wide.feature_bias_at()];
            assert!(
                feature_weights.chunks(256).all(|row| row[128..].iter().any(|&w| w != 0.0)),
                "new neurons start random"
            );
        }
        // Given mirrored inputs, a net evaluates the far position as it did its mirror image.
        let plain = FloatNet::random(128, Architecture::OutputBuckets, 13);
        let mirrored = plain.widened(Architecture::Mirrored, 128, 14).unwrap();
        let expected = plain.forward(&plain.features(&far, true));
        let got = mirrored.forward(&mirrored.features(&far, false));
        assert!((expected - got).abs() < 1e-5, "{expected} against {got}");

        let wide = FloatNet::random(256, Architecture::Mirrored, 15);
        for (arch, hidden, reason) in [
            (Architecture::Mirrored, 128, "cannot become fewer"),
            (Architecture::OutputBuckets, 256, "cannot become plain"),
            (Architecture::Perspective, 256, "output buckets cannot become 1"),
        ] {
            let error = wide.widened(arch, hidden, 1).unwrap_err().to_string();
            assert!(error.contains(reason), "{error}");
        }
    }

    #[test]
    fn gradient_matches_finite_differences() {
        for (arch, fen) in [
            (Architecture::Perspective, "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"),
            (Architecture::OutputBuckets, "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"),
            (Architecture::OutputBuckets, "8/5k2/3p4/8/2P5/4K3/8/8 b - - 0 50"),
            (Architecture::Mirrored, "8/5k2/3p4/8/2P5/4K3/8/8 b - - 0 50"),
        ] {
            check_gradient(arch, fen);
        }
    }

    fn check_gradient(arch: Architecture, fen: &str) {
        let buckets = arch.buckets();
        let mut net = FloatNet::random(4, arch, 3);
        // Biases away from the kinks of the activation, so the difference quotient is smooth.
        let bias_at = net.feature_bias_at();
        net.params[bias_at..bias_at + 4].copy_from_slice(&[0.3, 0.5, 0.45, 0.6]);
        let features = Features::of(&record_of(fen), arch);
        let mut gradient = vec![0.0; net.params.len()];
        net.backward(&features, |_| 1.0, &mut gradient);
        let (output_at, output_bias_at) = net.bucket_at(&features);
        assert!(gradient[output_bias_at] == 1.0, "the position's own bucket's bias");
        let others = (net.output_at()..net.output_bias_at() + buckets)
            .filter(|&i| !(output_at..output_at + 2 * net.hidden).contains(&i) && i != output_bias_at);
        assert!(others.clone().all(|i| gradient[i] == 0.0), "other buckets are untouched");
        let mut checked = 0;
        for index in (0..net.params.len()).filter(|&i| gradient[i] != 0.0 || i % 97 == 0) {
            let epsilon = 1e-3;
            let mut plus = net.clone();
            plus.params[index] += epsilon;
            let mut minus = net.clone();
            minus.params[index] -= epsilon;
            let numeric = (plus.forward(&features) - minus.forward(&features)) / (2.0 * epsilon);
            assert!(
                (numeric - gradient[index]).abs() < 2e-3,
                "param {index}: numeric {numeric} analytic {}",
                gradient[index]
            );
            checked += 1;
        }
        assert!(checked > 60, "only {checked} parameters checked");
    }
}

#[cfg(test)]
mod mirror_tests {
    use super::*;
    use crate::data::test_support::pack_fen;
    use patina::nnue::feature_index;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Position as _};

    fn sorted(features: &Features) -> Vec<(u16, u16)> {
        let mut pairs: Vec<(u16, u16)> =
            (0..features.len).map(|i| (features.white[i], features.black[i])).collect();
        pairs.sort_unstable();
        pairs
    }

    #[test]
    fn mirrored_features_are_those_of_the_mirrored_position() {
        let record = pack_fen("4k3/8/8/2n5/8/8/1P6/R3K3 b - - 0 1");
        let mirror = pack_fen("3k4/8/8/5n2/8/8/6P1/3K3R b - - 0 1");
        for arch in Architecture::ALL {
            assert_eq!(
                sorted(&Features::oriented(&record, arch, true)),
                sorted(&Features::of(&mirror, arch))
            );
        }
        let plain = Architecture::OutputBuckets;
        assert_ne!(sorted(&Features::of(&record, plain)), sorted(&Features::of(&mirror, plain)));
        let mirrored = Architecture::Mirrored;
        assert_eq!(sorted(&Features::of(&record, mirrored)), sorted(&Features::of(&mirror, mirrored)));
    }

    #[test]
    fn the_trainer_indexes_inputs_as_the_engine_does() {
        for fen in [
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
            "2kr3r/ppp2ppp/2n5/8/8/2N5/PPP2PPP/2KR3R b - - 0 12",
            "8/5k2/3p4/8/2P5/4K3/8/8 b - - 0 50",
        ] {
            let pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
            let board = pos.board();
            for arch in Architecture::ALL {
                let features = Features::of(&pack_fen(fen), arch);
                for (perspective, trained) in
                    [(Color::White, &features.white), (Color::Black, &features.black)]
                {
                    let mirrored = arch.mirrors(board, perspective);
                    let mut engine: Vec<u16> = board
                        .occupied()
                        .into_iter()
                        .map(|square| {
                            let piece = board.piece_at(square).unwrap();
                            feature_index(perspective, mirrored, piece.color, piece.role, square) as u16
                        })
                        .collect();
                    let mut trained = trained[..features.len].to_vec();
                    engine.sort_unstable();
                    trained.sort_unstable();
                    assert_eq!(trained, engine, "{fen} {arch:?} {perspective:?}");
                }
            }
        }
    }
}
