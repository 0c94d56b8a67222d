//! The loss a batch is fitted by: the squared error between `sigmoid(net centipawns / scale)`
//! and the target (`dataset::target`), and its gradient, summed over a batch on several
//! threads. Each thread takes a fixed slice of the batch and the slices are summed in order,
//! so a run is deterministic for the same data, settings and thread count.

use super::dataset::{sigmoid, target};
use super::kernel::Workspace;
use super::model::FloatNet;
use crate::data::PackedPosition;
use patina::nnue::{INPUTS, SCALE};

/// A position of a batch, and whether it is used mirrored. Batches hold copies, gathered in
/// one pass: the positions of an epoch's shuffle lie scattered over gigabytes, and reading
/// each only when the net wants it would wait on memory once per position.
pub(super) type Sample = (PackedPosition, bool);

/// The numbers the inner loops need.
pub(super) struct Settings {
    pub lambda: f32,
    pub wdl_scale: f32,
}

/// Summed loss over `records`, and their summed gradient into `workspace` if it has one.
/// Compiled for AVX-512, AVX2 and the baseline, chosen at run time (as the engine's
/// `evaluate_line`): the kernel inlines into it, so the portable build trains at full width.
#[multiversion::multiversion(targets("x86_64+avx512f+avx512bw+avx2+fma", "x86_64+avx2+fma"))]
fn slice_loss(net: &FloatNet, records: &[Sample], settings: &Settings, workspace: &mut Workspace) -> f64 {
    let mut loss = 0.0f64;
    let scale = SCALE as f32 / settings.wdl_scale;
    let want_gradient = !workspace.gradient.is_empty();
    for (record, mirrored) in records {
        let features = net.features(record, *mirrored);
        let wanted = target(record, settings.lambda, settings.wdl_scale);
        let mut squared_error = |output: f32| {
            let predicted = sigmoid(output * scale);
            let error = predicted - wanted;
            loss += f64::from(error * error);
            2.0 * error * predicted * (1.0 - predicted) * scale
        };
        if want_gradient {
            workspace.backward(net, &features, squared_error);
        } else {
            squared_error(workspace.forward(net, &features));
        }
    }
    loss
}

/// Mean loss over `records` on `threads` threads.
pub(super) fn parallel_loss(net: &FloatNet, records: &[Sample], settings: &Settings, threads: usize) -> f64 {
    let mut workspaces: Vec<Workspace> = (0..threads.max(1)).map(|_| Workspace::new(net, false)).collect();
    let (loss, _) = spread(net, records, settings, &mut workspaces);
    loss / records.len().max(1) as f64
}

/// The gradient's buffers, one per thread, kept from batch to batch.
pub(super) struct GradientThreads {
    workspaces: Vec<Workspace>,
}

impl GradientThreads {
    pub fn new(net: &FloatNet, threads: usize) -> GradientThreads {
        GradientThreads { workspaces: (0..threads.max(1)).map(|_| Workspace::new(net, true)).collect() }
    }

    /// Mean loss over `records`; writes their mean gradient into `gradient` (every entry) and,
    /// per input row, whether any position used it into `touched` (a row not used has a zero
    /// gradient).
    pub fn mean_gradient(
        &mut self,
        net: &FloatNet,
        records: &[Sample],
        settings: &Settings,
        gradient: &mut [f32],
        touched: &mut [bool],
    ) -> f64 {
        let (loss, used) = spread(net, records, settings, &mut self.workspaces);
        let count = records.len().max(1) as f32;
        let hidden = net.hidden;
        let parts = &mut self.workspaces[..used];
        for (input, used) in touched.iter_mut().enumerate().take(INPUTS) {
            let span = input * hidden..(input + 1) * hidden;
            let into = &mut gradient[span.clone()];
            *used = parts.iter().any(|part| part.touched[input]);
            into.fill(0.0);
            for part in parts.iter_mut().filter(|part| part.touched[input]) {
                let row = &mut part.gradient[span.clone()];
                into.iter_mut().zip(row.iter()).for_each(|(g, l)| *g += l / count);
                row.fill(0.0);
                part.touched[input] = false;
            }
        }
        let rest = INPUTS * hidden..;
        gradient[rest.clone()].fill(0.0);
        for part in parts {
            let local = &mut part.gradient[rest.clone()];
            gradient[rest.clone()].iter_mut().zip(local.iter()).for_each(|(g, l)| *g += l / count);
            local.fill(0.0);
        }
        loss / records.len().max(1) as f64
    }
}

/// Summed loss over `records`, each thread's fixed slice into its own workspace, summed in
/// order; returns how many workspaces were used.
fn spread(
    net: &FloatNet,
    records: &[Sample],
    settings: &Settings,
    workspaces: &mut [Workspace],
) -> (f64, usize) {
    let chunk = records.len().div_ceil(workspaces.len()).max(1);
    let slices: Vec<&[Sample]> = records.chunks(chunk).collect();
    let used = slices.len();
    let losses: Vec<f64> = std::thread::scope(|scope| {
        let handles: Vec<_> = slices
            .into_iter()
            .zip(workspaces.iter_mut())
            .map(|(slice, workspace)| scope.spawn(move || slice_loss(net, slice, settings, workspace)))
            .collect();
        handles.into_iter().map(|handle| handle.join().expect("a training thread panicked")).collect()
    });
    (losses.iter().sum(), used)
}
