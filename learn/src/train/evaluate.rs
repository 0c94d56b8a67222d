//! `patina-learn net-loss`: the loss of finished nets on the positions `patina-learn train` would hold out
//! of the same files, read once for all of them. It compares nets that no run trained (a soup,
//! a net from another data set) on one footing: the number is the one `train --init NET` prints
//! as its starting net's validation loss, given the same data, filter, fraction and target.

use super::dataset::DataSelection;
use super::error::TrainError;
use super::loss::{parallel_loss, Sample, Settings};
use super::model::FloatNet;
use super::request::WdlScale;
use crate::data::PackedPosition;
use patina::nnue::Network;
use std::path::PathBuf;

/// What `patina-learn net-loss` is asked to measure.
#[derive(Debug, Clone)]
pub struct LossRequest {
    /// Net files to score, in order.
    pub nets: Vec<PathBuf>,
    /// The positions, read and held out as `patina-learn train` reads them (the same games held out
    /// at the same fraction).
    pub selection: DataSelection,
    /// Weight of the game result in the target.
    pub lambda: f32,
    /// Centipawns per logit of the target's sigmoid (`fit`: fitted to the training games, as
    /// `train` fits it).
    pub wdl_scale: WdlScale,
    /// Threads the loss is summed on.
    pub threads: usize,
}

/// One net's score.
#[derive(Debug, Clone, PartialEq)]
pub struct NetLoss {
    /// The net file as given.
    pub path: PathBuf,
    /// The net file's hash, as the engine reports it.
    pub hash: u64,
    /// Mean loss over the held-out positions.
    pub loss: f64,
    /// Mean size of its evaluation over the same positions, in centipawns: the scale the
    /// search's margins meet (two nets of one loss can differ here).
    pub mean_abs_cp: f64,
}

/// What was measured: the held-out positions and each net's loss on them.
#[derive(Debug, Clone, PartialEq)]
pub struct LossReport {
    /// Held-out positions the losses are means over.
    pub positions: usize,
    /// Games read from the data, held out or not.
    pub games: u64,
    /// Mean size of the labels (the search scores) of the held-out positions, in centipawns:
    /// what the nets' `mean_abs_cp` is read against.
    pub label_mean_abs_cp: f64,
    /// Each net's score, in the order asked for.
    pub losses: Vec<NetLoss>,
}

/// Scores every net of `request` on the held-out positions of its data. Every net is loaded
/// before the data is read, so a bad net file fails at once and not after minutes of reading.
pub fn held_out_losses(request: &LossRequest) -> Result<LossReport, TrainError> {
    let fraction = request.selection.validation_fraction;
    if !(fraction > 0.0 && fraction < 1.0) {
        return Err(TrainError::ValidationFraction(fraction));
    }
    let nets = request
        .nets
        .iter()
        .map(|path| {
            let net = Network::load(path).map_err(|error| TrainError::Net {
                flag: None,
                path: path.clone(),
                error,
            })?;
            Ok((path.clone(), net.hash(), FloatNet::dequantised(&net)))
        })
        .collect::<Result<Vec<_>, TrainError>>()?;
    let data = request.selection.load()?;
    if data.validation.is_empty() {
        return Err(TrainError::NoHeldOutPositions);
    }
    let samples: Vec<Sample> = data.validation.iter().map(|record| (*record, false)).collect();
    let settings = Settings { lambda: request.lambda, wdl_scale: request.wdl_scale.resolve(&data.train) };
    let losses = nets
        .into_iter()
        .map(|(path, hash, net)| NetLoss {
            path,
            hash,
            loss: parallel_loss(&net, &samples, &settings, request.threads),
            mean_abs_cp: mean_abs_centipawns(&net, &data.validation),
        })
        .collect();
    let label_total: f64 = data.validation.iter().map(|record| f64::from(record.white_score()).abs()).sum();
    Ok(LossReport {
        positions: samples.len(),
        games: data.games,
        label_mean_abs_cp: label_total / samples.len() as f64,
        losses,
    })
}

/// The mean of `|net(position)|` in centipawns, each position from its side to move's view.
fn mean_abs_centipawns(net: &FloatNet, positions: &[PackedPosition]) -> f64 {
    let total: f64 =
        positions.iter().map(|record| f64::from(net.centipawns(&net.features(record, false)).abs())).sum();
    total / positions.len().max(1) as f64
}
