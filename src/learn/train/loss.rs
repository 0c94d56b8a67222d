//! The loss a batch is fitted by: the squared error between `sigmoid(net centipawns / scale)`
//! and the target (`dataset::target`), and its gradient, summed over a batch on several
//! threads. Each thread takes a fixed slice of the batch and the slices are summed in order,
//! so a run is deterministic for the same data, settings and thread count.

use super::dataset::{sigmoid, target};
use super::model::FloatNet;
use crate::learn::data::PackedPosition;
use crate::nnue::SCALE;

/// A position of a batch, and whether it is used mirrored.
pub(super) type Sample<'a> = (&'a PackedPosition, bool);

/// Loss and gradient over `records` (`gradient` may be empty to skip it).
fn batch_loss(net: &FloatNet, records: &[Sample], settings: &Settings, gradient: &mut [f32]) -> f64 {
    let mut loss = 0.0f64;
    let scale = SCALE as f32 / settings.wdl_scale;
    for &(record, mirrored) in records {
        let features = net.features(record, mirrored);
        let wanted = target(record, settings.lambda, settings.wdl_scale);
        let mut squared_error = |output: f32| {
            let predicted = sigmoid(output * scale);
            let error = predicted - wanted;
            loss += f64::from(error * error);
            2.0 * error * predicted * (1.0 - predicted) * scale
        };
        if gradient.is_empty() {
            squared_error(net.forward(&features));
        } else {
            net.backward(&features, squared_error, gradient);
        }
    }
    loss
}

/// The numbers the inner loops need.
pub(super) struct Settings {
    pub lambda: f32,
    pub wdl_scale: f32,
}

/// Mean loss (and mean gradient into `gradient` unless it is empty) over `records` on
/// `threads` threads, each a fixed slice, summed in order.
pub(super) fn parallel_loss(
    net: &FloatNet,
    records: &[Sample],
    settings: &Settings,
    threads: usize,
    gradient: &mut [f32],
) -> f64 {
    let want_gradient = !gradient.is_empty();
    let chunk = records.len().div_ceil(threads.max(1)).max(1);
    let results: Vec<(f64, Vec<f32>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = records
            .chunks(chunk)
            .map(|slice| {
                scope.spawn(move || {
                    let mut local = if want_gradient { vec![0.0f32; net.params.len()] } else { Vec::new() };
                    let loss = batch_loss(net, slice, settings, &mut local);
                    (loss, local)
                })
            })
            .collect();
        handles.into_iter().map(|handle| handle.join().expect("a training thread panicked")).collect()
    });
    let count = records.len().max(1) as f32;
    let mut loss = 0.0;
    for (part, local) in results {
        loss += part;
        if want_gradient {
            gradient.iter_mut().zip(&local).for_each(|(g, l)| *g += l / count);
        }
    }
    loss / records.len().max(1) as f64
}
