//! The checkpoint `patina-learn train` writes after every epoch (`OUT.ckpt`), so a killed run
//! resumes at the next epoch and ends with the same net as one uninterrupted run.
//!
//! Layout (little-endian): magic `PATINACK`, a u64 fingerprint of the settings and data (a run
//! with other settings refuses the file rather than mix two runs), u32 hidden size, u32
//! architecture id (`nnue::Architecture`, which fixes the output buckets), u32 epochs done, u32
//! best epoch, f32 best validation loss, u64 optimiser steps, then four f32 vectors
//! of the parameter count: weights, Adam's first and second moments, the best epoch's
//! weights. Written to a temporary file and renamed, so a kill mid-write leaves the old one.

use super::error::{CheckpointProblem, TrainError};
use super::model::FloatNet;
use super::optimizer::AdamW;
use patina::nnue::Architecture;
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"PATINACK";
const HEADER_BYTES: usize = 8 + 8 + 4 + 4 + 4 + 4 + 4 + 8;

/// Everything a run needs to go on.
#[derive(Debug, Clone, PartialEq)]
pub struct Checkpoint {
    pub fingerprint: u64,
    pub epochs_done: u32,
    pub best_epoch: u32,
    pub best_loss: f32,
    pub net: FloatNet,
    pub optimizer: AdamW,
    pub best: FloatNet,
}

fn bad(path: &Path, problem: CheckpointProblem) -> TrainError {
    TrainError::Checkpoint { path: path.to_path_buf(), problem }
}

pub fn path_for(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".ckpt");
    PathBuf::from(name)
}

impl Checkpoint {
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let params = self.net.params.len();
        let mut bytes = Vec::with_capacity(HEADER_BYTES + 16 * params);
        bytes.extend_from_slice(MAGIC);
        bytes.extend(self.fingerprint.to_le_bytes());
        bytes.extend((self.net.hidden as u32).to_le_bytes());
        bytes.extend(self.net.arch.id().to_le_bytes());
        bytes.extend(self.epochs_done.to_le_bytes());
        bytes.extend(self.best_epoch.to_le_bytes());
        bytes.extend(self.best_loss.to_le_bytes());
        bytes.extend(self.optimizer.steps.to_le_bytes());
        for vector in
            [&self.net.params, &self.optimizer.first_moment, &self.optimizer.second_moment, &self.best.params]
        {
            bytes.extend(vector.iter().flat_map(|value| value.to_le_bytes()));
        }
        let temporary = path.with_extension("ckpt-tmp");
        std::fs::write(&temporary, &bytes)?;
        std::fs::rename(&temporary, path)
    }

    /// Reads a checkpoint; `Ok(None)` when there is none. Refuses one from other settings.
    pub fn load(path: &Path, fingerprint: u64) -> Result<Option<Checkpoint>, TrainError> {
        let bytes = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(error) => return Err(bad(path, CheckpointProblem::Read(error))),
        };
        if bytes.len() < HEADER_BYTES || &bytes[0..8] != MAGIC {
            return Err(bad(path, CheckpointProblem::NotACheckpoint));
        }
        let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
        let stored = u64::from_le_bytes(bytes[8..16].try_into().expect("8 bytes"));
        if stored != fingerprint {
            return Err(bad(path, CheckpointProblem::OtherRun));
        }
        let hidden = u32_at(16) as usize;
        let arch = Architecture::from_id(u32_at(20))
            .ok_or_else(|| bad(path, CheckpointProblem::UnknownArchitecture(u32_at(20))))?;
        let params = FloatNet::param_count(hidden, arch.buckets());
        if bytes.len() != HEADER_BYTES + 16 * params {
            return Err(bad(path, CheckpointProblem::Truncated));
        }
        let vector = |index: usize| -> Vec<f32> {
            let start = HEADER_BYTES + index * 4 * params;
            bytes[start..start + 4 * params]
                .chunks_exact(4)
                .map(|chunk| f32::from_le_bytes(chunk.try_into().expect("4 bytes")))
                .collect()
        };
        Ok(Some(Checkpoint {
            fingerprint,
            epochs_done: u32_at(24),
            best_epoch: u32_at(28),
            best_loss: f32::from_bits(u32_at(32)),
            net: FloatNet { hidden, arch, params: vector(0) },
            optimizer: AdamW {
                first_moment: vector(1),
                second_moment: vector(2),
                steps: u64::from_le_bytes(bytes[36..44].try_into().expect("8 bytes")),
            },
            best: FloatNet { hidden, arch, params: vector(3) },
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_refuses_other_settings() {
        let dir = std::env::temp_dir().join(format!("patina-ckpt-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = path_for(&dir.join("net.nnue"));
        let net = FloatNet::random(4, Architecture::Mirrored, 1);
        let mut optimizer = AdamW::new(net.params.len());
        optimizer.steps = 17;
        optimizer.first_moment[3] = 0.25;
        let checkpoint = Checkpoint {
            fingerprint: 42,
            epochs_done: 3,
            best_epoch: 2,
            best_loss: 0.125,
            best: FloatNet::random(4, Architecture::Mirrored, 2),
            net,
            optimizer,
        };
        checkpoint.save(&path).unwrap();
        assert_eq!(Checkpoint::load(&path, 42).unwrap(), Some(checkpoint));
        assert!(matches!(
            Checkpoint::load(&path, 43),
            Err(TrainError::Checkpoint { problem: CheckpointProblem::OtherRun, .. })
        ));
        std::fs::write(&path, b"PATINACK").unwrap();
        let error = Checkpoint::load(&path, 42).unwrap_err();
        assert!(matches!(error, TrainError::Checkpoint { problem: CheckpointProblem::NotACheckpoint, .. }));
        assert!(error.to_string().contains("not a Patina training checkpoint"), "{error}");
        assert_eq!(Checkpoint::load(&dir.join("none.ckpt"), 42).unwrap(), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
