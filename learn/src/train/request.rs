//! What `patina-learn train` is asked to do (`TrainRequest`), the checks that refuse a request the
//! engine could not play the result of, and the fingerprint that ties a checkpoint to the
//! request and data that made it.

use super::dataset::{DataSelection, Duplicates, TrainingData};
use super::error::{TrainError, WdlScaleError};
use super::model::FloatNet;
use super::optimizer::LrSchedule;
use crate::data::PackedPosition;
use patina::nnue::{Architecture, Network, HIDDEN_SIZES, OUTPUT_BUCKETS};
use std::path::PathBuf;

/// What `patina-learn train` was asked to do.
#[derive(Debug, Clone)]
pub struct TrainRequest {
    /// The positions to train on and to hold out.
    pub selection: DataSelection,
    /// The net file to write; the checkpoint goes beside it (`OUT.ckpt`).
    pub out: PathBuf,
    /// Hidden neurons per perspective: one of `nnue::HIDDEN_SIZES`, the sizes the engine plays.
    pub hidden: usize,
    /// Output buckets: 1 (architecture 1) or `nnue::OUTPUT_BUCKETS` (architectures 2 and 3).
    pub output_buckets: usize,
    /// Each perspective sees the board mirrored left to right when its king is on files e-h
    /// (architecture 3; needs `nnue::OUTPUT_BUCKETS` output buckets).
    pub mirror_inputs: bool,
    /// Passes over the training positions (mirrored copies included).
    pub epochs: u32,
    /// Positions per optimiser step.
    pub batch: usize,
    /// AdamW's starting learning rate.
    pub learning_rate: f32,
    /// How the rate moves from there: a cosine to 1% by the end, or tenfold drops.
    pub schedule: LrSchedule,
    /// AdamW's decoupled weight decay.
    pub weight_decay: f32,
    /// Weight of the game result in the target (0: the search score alone, 1: results only).
    pub lambda: f32,
    /// Where the result weight ramps to by the last step (linearly from `lambda`); `None`
    /// keeps `lambda` throughout. Validation is scored at the end weight.
    pub lambda_end: Option<f32>,
    /// Write the net after every N-th epoch too (`epoch_path`).
    pub save_every: Option<u32>,
    /// Centipawns per logit of the target's sigmoid.
    pub wdl_scale: WdlScale,
    /// Threads for the gradient; a run is deterministic for a given count, not across counts.
    pub threads: usize,
    /// Seed of the starting weights and of every epoch's shuffle.
    pub seed: u64,
    /// Each epoch also trains on every position mirrored across the d/e file line (not with
    /// `mirror_inputs`, whose net sees a position and its mirror alike).
    pub mirror: bool,
    /// A net file to start from instead of random weights (fine-tuning an earlier net on new
    /// data); its architecture and size must be the ones asked for.
    pub init: Option<PathBuf>,
    /// Which epoch's weights are written. Not part of the checkpoint's fingerprint: a finished
    /// run rerun with the other choice writes that one without training again.
    pub keep: Keep,
}

/// Which epoch's weights `patina-learn train` writes at the end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Keep {
    /// The epoch with the lowest validation loss (or the `--init` net, if none beat it).
    Best,
    /// The last epoch's, whatever its validation loss: a long fine-tune's full step, which
    /// matches have preferred where the held-out loss had stopped falling (docs/nets.md, net 8).
    Last,
}

/// The target's scale: fixed, or the one at which the data's scores best predict its results.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum WdlScale {
    /// This many centipawns per logit (positive).
    Centipawns(f32),
    /// Fit the scale at which the training positions' scores best predict their results.
    Fit,
}

impl WdlScale {
    /// The centipawns per logit it stands for: the number, or the scale fitted to `train`.
    pub fn resolve(self, train: &[PackedPosition]) -> f32 {
        match self {
            WdlScale::Centipawns(cp) => cp,
            WdlScale::Fit => super::fit_wdl_scale(train),
        }
    }

    /// `--wdl-scale`'s text: a positive number of centipawns, or `fit`.
    pub fn parse(text: &str) -> Result<WdlScale, WdlScaleError> {
        if text == "fit" {
            return Ok(WdlScale::Fit);
        }
        match text.parse::<f32>() {
            Ok(cp) if cp.is_finite() && cp > 0.0 => Ok(WdlScale::Centipawns(cp)),
            _ => Err(WdlScaleError(text.to_string())),
        }
    }
}

impl TrainRequest {
    /// The architecture asked for, or why there is none the engine plays.
    pub fn architecture(&self) -> Result<Architecture, TrainError> {
        if !HIDDEN_SIZES.contains(&self.hidden) {
            return Err(TrainError::HiddenSize(self.hidden));
        }
        if !matches!(self.output_buckets, 1 | OUTPUT_BUCKETS) {
            return Err(TrainError::OutputBuckets(self.output_buckets));
        }
        Architecture::with(self.output_buckets, self.mirror_inputs).ok_or(TrainError::MirrorNeedsBuckets)
    }

    /// The weights the run starts from: `init`'s, or random ones from `seed`. An `init` net of
    /// another architecture or size is widened to the one asked for when that keeps its
    /// evaluation (`FloatNet::widened`); its architecture and size are returned beside it then.
    pub fn starting_net(
        &self,
        arch: Architecture,
    ) -> Result<(FloatNet, Option<(Architecture, usize)>), TrainError> {
        let Some(path) = &self.init else {
            return Ok((FloatNet::random(self.hidden, arch, self.seed), None));
        };
        let net = Network::load(path).map_err(|error| TrainError::Net {
            flag: Some("--init"),
            path: path.clone(),
            error,
        })?;
        let start = FloatNet::dequantised(&net);
        if (net.arch(), net.hidden()) == (arch, self.hidden) {
            return Ok((start, None));
        }
        let widened = start.widened(arch, self.hidden, self.seed).map_err(|reason| TrainError::Widen {
            path: path.clone(),
            from: (net.arch().id(), net.hidden()),
            to: (arch.id(), self.hidden),
            reason,
        })?;
        Ok((widened, Some((net.arch(), net.hidden()))))
    }

    /// The result weight at `step` of `total_steps`.
    pub fn lambda_at(&self, step: u64, total_steps: u64) -> f32 {
        match self.lambda_end {
            None => self.lambda,
            Some(end) => {
                let progress = (step as f32 / total_steps.max(1) as f32).min(1.0);
                self.lambda + (end - self.lambda) * progress
            }
        }
    }

    /// The weight validation is scored at: the one the run ends at.
    pub fn final_lambda(&self) -> f32 {
        self.lambda_end.unwrap_or(self.lambda)
    }

    /// Where `--save-every` writes the net of `epoch`: `--out` with `-eEPOCH` before its
    /// extension.
    pub fn epoch_path(&self, epoch: u32) -> PathBuf {
        let stem = self.out.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let name = match self.out.extension() {
            Some(extension) => format!("{stem}-e{epoch}.{}", extension.to_string_lossy()),
            None => format!("{stem}-e{epoch}"),
        };
        self.out.with_file_name(name)
    }

    /// Copies of each training position an epoch trains on: 2 when it is also trained mirrored.
    pub fn copies(&self) -> usize {
        if self.mirror && !self.mirror_inputs {
            2
        } else {
            1
        }
    }
}

/// The settings, data and starting weights that make a run; a checkpoint from another run
/// is refused.
pub(super) fn fingerprint(
    request: &TrainRequest,
    data: &TrainingData,
    wdl_scale: f32,
    start: &FloatNet,
) -> u64 {
    let start_hash = request.init.as_ref().map(|_| {
        let bytes: Vec<u8> = start.params.iter().flat_map(|w| w.to_le_bytes()).collect();
        patina::nnue::fnv1a(&bytes)
    });
    let text = format!(
        "{:?} {} {} {} {} {} {} {:?} {} {} {} {} {} {} {} {:?} {} {} {} {:?}{}{}{}",
        request.selection.data,
        request.hidden,
        request.output_buckets,
        request.mirror_inputs,
        request.epochs,
        request.batch,
        request.learning_rate,
        request.schedule,
        request.weight_decay,
        request.lambda,
        wdl_scale,
        request.selection.validation_fraction,
        request.selection.filter,
        request.threads,
        request.seed,
        request.selection.limit,
        data.train.len(),
        data.validation.len(),
        request.mirror,
        start_hash,
        // Runs from before duplicates were dropped keep their fingerprint.
        if request.selection.duplicates == Duplicates::Drop { " dedup" } else { "" },
        request.lambda_end.map(|end| format!(" lambda-end {end}")).unwrap_or_default(),
        // Likewise runs without `--games`.
        request.selection.games.map(|games| format!(" games {games}")).unwrap_or_default()
    );
    patina::nnue::fnv1a(text.as_bytes())
}
