//! The trainer's inner loops: one position's forward and backward pass, the same arithmetic as
//! `FloatNet::forward` and `FloatNet::backward` (the reference the tests hold these to), made
//! fast for batches of millions.
//!
//! - A thread's buffers (`Workspace`) are made once and reused for every position, so the
//!   loops allocate nothing.
//! - The accumulator is built a block of `BLOCK` neurons at a time, each block summed over
//!   every active input in a fixed-size array the compiler keeps in vector registers, instead
//!   of reading and writing the whole accumulator once per input.
//! - The output's dot product keeps `BLOCK` partial sums, so it vectorises (one running sum
//!   would be a chain of dependent additions).
//! - The first layer's gradient is sparse: a position touches about 30 of the 768 input rows
//!   per perspective, so each thread records which rows it touched, and only those are summed
//!   across threads, zeroed, and stepped by the optimiser (`optimizer::AdamW::step_rows`).

use super::model::{Features, FloatNet, Layout};
use patina::nnue::INPUTS;

/// Neurons handled together; every hidden size the engine plays is a multiple of it.
const BLOCK: usize = 64;

/// One thread's buffers.
pub(super) struct Workspace {
    /// The two accumulators before the activation, side to move's first.
    sums: Vec<f32>,
    /// d(loss)/d(accumulator), same layout.
    d_sums: Vec<f32>,
    /// The gradient summed over this thread's positions, in `params`' layout; empty when only
    /// the loss is wanted.
    pub gradient: Vec<f32>,
    /// Per input row: whether `gradient` holds anything there.
    pub touched: Vec<bool>,
}

impl Workspace {
    /// Buffers for `net`, with a gradient when `with_gradient`.
    pub fn new(net: &FloatNet, with_gradient: bool) -> Workspace {
        Workspace {
            sums: vec![0.0; 2 * net.hidden],
            d_sums: vec![0.0; 2 * net.hidden],
            gradient: if with_gradient { vec![0.0; net.params.len()] } else { Vec::new() },
            touched: if with_gradient { vec![false; INPUTS] } else { Vec::new() },
        }
    }

    /// Builds the accumulators and returns the output, as `FloatNet::forward`.
    #[inline]
    pub fn forward(&mut self, net: &FloatNet, features: &Features) -> f32 {
        let layout = net.layout();
        self.forward_in(net, features, layout, layout.bucket(features.len))
    }

    /// `forward` with the net's layout and the position's bucket (output weights and bias
    /// offsets) already found.
    #[inline]
    fn forward_in(
        &mut self,
        net: &FloatNet,
        features: &Features,
        layout: Layout,
        (output_at, output_bias_at): (usize, usize),
    ) -> f32 {
        let hidden = net.hidden;
        let bias = &net.params[layout.feature_bias..layout.feature_bias + hidden];
        let output_weights = &net.params[output_at..output_at + 2 * hidden];
        let mut total = net.params[output_bias_at];
        for (half, inputs) in features.perspectives().into_iter().enumerate() {
            let sums = &mut self.sums[half * hidden..(half + 1) * hidden];
            let weights = &output_weights[half * hidden..(half + 1) * hidden];
            total += accumulate_and_dot(&net.params, hidden, bias, inputs, sums, weights);
        }
        total
    }

    /// Evaluates once, asks `loss_slope` for d(loss)/d(output), and adds that times the
    /// output's gradient to `self.gradient`, as `FloatNet::backward`.
    #[inline]
    pub fn backward(&mut self, net: &FloatNet, features: &Features, loss_slope: impl FnOnce(f32) -> f32) {
        let hidden = net.hidden;
        let layout = net.layout();
        let (output_at, output_bias_at) = layout.bucket(features.len);
        let output = self.forward_in(net, features, layout, (output_at, output_bias_at));
        let d_output = loss_slope(output);
        let output_weights = &net.params[output_at..output_at + 2 * hidden];
        self.gradient[output_bias_at] += d_output;
        let output_gradient = &mut self.gradient[output_at..output_at + 2 * hidden];
        for (((&sum, &weight), g), d_sum) in
            self.sums.iter().zip(output_weights).zip(output_gradient).zip(&mut self.d_sums)
        {
            let clamped = sum.clamp(0.0, 1.0);
            *g += d_output * clamped * clamped;
            // screlu's slope: 2x inside (0, 1), nothing where it is flat.
            let slope = if sum > 0.0 && sum < 1.0 { 2.0 * clamped } else { 0.0 };
            *d_sum = d_output * weight * slope;
        }
        let bias_gradient = layout.feature_bias..layout.feature_bias + hidden;
        for (half, inputs) in features.perspectives().into_iter().enumerate() {
            let d_sum = &self.d_sums[half * hidden..(half + 1) * hidden];
            add(&mut self.gradient[bias_gradient.clone()], d_sum);
            for &input in inputs {
                let input = usize::from(input);
                self.touched[input] = true;
                add(&mut self.gradient[input * hidden..(input + 1) * hidden], d_sum);
            }
        }
    }
}

/// `sums = bias + the rows of `inputs``, then the dot product of `screlu(sums)` with
/// `weights`, a block of neurons at a time.
#[inline]
fn accumulate_and_dot(
    params: &[f32],
    hidden: usize,
    bias: &[f32],
    inputs: &[u16],
    sums: &mut [f32],
    weights: &[f32],
) -> f32 {
    let mut partial = [0.0f32; BLOCK];
    let mut start = 0;
    while start + BLOCK <= hidden {
        let mut block: [f32; BLOCK] = bias[start..start + BLOCK].try_into().expect("a whole block");
        for &input in inputs {
            let at = usize::from(input) * hidden + start;
            let row: &[f32; BLOCK] = params[at..at + BLOCK].try_into().expect("a whole block");
            for lane in 0..BLOCK {
                block[lane] += row[lane];
            }
        }
        let block_weights: &[f32; BLOCK] = weights[start..start + BLOCK].try_into().expect("a whole block");
        for lane in 0..BLOCK {
            let clamped = block[lane].clamp(0.0, 1.0);
            partial[lane] += clamped * clamped * block_weights[lane];
        }
        sums[start..start + BLOCK].copy_from_slice(&block);
        start += BLOCK;
    }
    // A hidden size that is not a multiple of the block (only small test nets): one at a time.
    for neuron in start..hidden {
        let sum =
            bias[neuron] + inputs.iter().map(|&i| params[usize::from(i) * hidden + neuron]).sum::<f32>();
        sums[neuron] = sum;
        let clamped = sum.clamp(0.0, 1.0);
        partial[0] += clamped * clamped * weights[neuron];
    }
    partial.iter().sum()
}

/// `into += values`, element by element.
#[inline]
fn add(into: &mut [f32], values: &[f32]) {
    into.iter_mut().zip(values).for_each(|(a, b)| *a += b);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::test_support::pack_fen;
    use patina::nnue::Architecture;

    const FENS: [&str; 4] = [
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "8/5k2/3p4/8/2P5/4K3/8/8 b - - 0 50",
        "2kr3r/ppp2ppp/2n5/8/8/2N5/PPP2PPP/2KR3R b - - 0 12",
        "6k1/5ppp/8/3p4/8/2N5/PPP2PPP/6K1 b - - 0 20",
    ];

    /// Biases spread over the activation's three regions, so every branch is exercised.
    fn spread_net(hidden: usize, arch: Architecture) -> FloatNet {
        let mut net = FloatNet::random(hidden, arch, 21);
        let bias_at = net.layout().feature_bias;
        for neuron in 0..hidden {
            net.params[bias_at + neuron] = (neuron % 7) as f32 * 0.3 - 0.6;
        }
        net
    }

    #[test]
    fn forward_and_backward_match_the_reference() {
        for (arch, hidden) in [
            (Architecture::Perspective, 128),
            (Architecture::OutputBuckets, 256),
            (Architecture::Mirrored, 36),
        ] {
            let net = spread_net(hidden, arch);
            let mut workspace = Workspace::new(&net, true);
            let mut reference = vec![0.0; net.params.len()];
            for (index, fen) in FENS.iter().enumerate() {
                let features = net.features(&pack_fen(fen), index % 2 == 1);
                let (fast, slow) = (workspace.forward(&net, &features), net.forward(&features));
                assert!((fast - slow).abs() < 1e-4, "{arch:?} {fen}: {fast} against {slow}");
                let slope = |output: f32| 0.5 - output;
                workspace.backward(&net, &features, slope);
                net.backward(&features, slope, &mut reference);
            }
            for (index, (fast, slow)) in workspace.gradient.iter().zip(&reference).enumerate() {
                assert!((fast - slow).abs() < 1e-4, "{arch:?} param {index}: {fast} against {slow}");
            }
            for input in 0..INPUTS {
                let row = &reference[input * hidden..(input + 1) * hidden];
                if row.iter().any(|&g| g != 0.0) {
                    assert!(
                        workspace.touched[input],
                        "{arch:?}: row {input} has a gradient but is not marked"
                    );
                }
            }
            assert!(workspace.touched.iter().filter(|&&t| t).count() < INPUTS / 4, "only the rows used");
        }
    }
}
