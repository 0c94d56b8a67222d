//! Weight averaging ("model soup"): the weight-by-weight mean of several nets, equal or
//! weighted.
//!
//! Nets fine-tuned from one starting net at a small learning rate stay in one basin of the
//! loss, so their mean is a net too, and it keeps what each learned from its own data: s13,
//! the mean of n8z (net 6 fine-tuned on dg10-dg13) and n13z (net 6 fine-tuned on
//! dg14-dg16), beat net 6 by +28 Elo where each fine-tune alone read about +5
//! (docs/nets.md). Nets from different starts have unrelated hidden neurons (any permutation
//! of them is the same net), and their mean is noise: nothing here can tell, so the caller
//! names nets of one lineage.
//!
//! Weights take a fraction of a fine-tune's step: h13, `net6.nnue n13z.nnue` at 0.5 each, read
//! +16 against net 6 where n13z whole read +5. Weights are convex (none negative, scaled to sum
//! to 1), so every weight of the result still lies between its inputs.

use crate::nnue::{NetError, Network, NetworkParts};
use std::fmt;
use std::path::{Path, PathBuf};

/// Why nets could not be averaged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SoupError {
    /// No net was given.
    Empty,
    /// A net could not be read; the path and what was wrong with it.
    Unreadable(PathBuf, NetError),
    /// The weights are not one per net, or one is negative or not finite, or all are 0.
    Weights(String),
    /// A net's architecture or hidden size differs from the first one's.
    Mismatch {
        /// The net that differs.
        path: PathBuf,
        /// Its shape.
        found: String,
        /// The first net's shape.
        expected: String,
    },
    /// The mean failed the checks every net file passes (it cannot: each mean lies between
    /// valid inputs; kept so a broken invariant is an error, not a crash).
    Invalid(NetError),
    /// The output file could not be written.
    Write(String),
}

impl fmt::Display for SoupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SoupError::Empty => write!(f, "no nets to average"),
            SoupError::Weights(message) => write!(f, "{message}"),
            SoupError::Unreadable(path, error) => write!(f, "{}: {error}", path.display()),
            SoupError::Mismatch { path, found, expected } => write!(
                f,
                "{} is {found}, the first net is {expected}: only nets of one shape average",
                path.display()
            ),
            SoupError::Invalid(error) => write!(f, "the mean is not a valid net: {error}"),
            SoupError::Write(message) => write!(f, "{message}"),
        }
    }
}

/// A net's shape in words, for errors.
fn shape(parts: &NetworkParts) -> String {
    format!("architecture {} x {}", parts.arch.id(), parts.hidden)
}

/// The weighted mean of each position across equally long lists, a half rounded to the even
/// neighbour (unbiased, and what Python's `round` does: s13 was first made by a script). The
/// weights are used as given and the sum is divided by their total last, so equal or
/// whole-number weights make an exact sum and keep every true tie (with weights of 1/6 each,
/// `7 x 5 - 14` would come to 3.4999... instead of 3.5).
fn mean_of<T: Copy + Into<f64>>(lists: &[&[T]], weights: &[f64], from_f64: impl Fn(f64) -> T) -> Vec<T> {
    let total: f64 = weights.iter().sum();
    (0..lists[0].len())
        .map(|index| {
            let sum: f64 = lists.iter().zip(weights).map(|(list, weight)| list[index].into() * weight).sum();
            from_f64((sum / total).round_ties_even())
        })
        .collect()
}

/// The weights checked (one per net, none negative or not finite, not all 0) and kept as
/// given: the mean divides by their total. Weight 1 each when none are given.
fn checked_weights(weights: Option<&[f64]>, nets: usize) -> Result<Vec<f64>, SoupError> {
    let Some(weights) = weights else {
        return Ok(vec![1.0; nets]);
    };
    if weights.len() != nets {
        return Err(SoupError::Weights(format!(
            "{} weights for {nets} nets: give one per net",
            weights.len()
        )));
    }
    if let Some(bad) = weights.iter().find(|weight| !weight.is_finite() || **weight < 0.0) {
        return Err(SoupError::Weights(format!(
            "weight {bad} is not a finite number of at least 0 (the mean must lie between the nets)"
        )));
    }
    if weights.iter().sum::<f64>() <= 0.0 {
        return Err(SoupError::Weights("the weights sum to 0".to_string()));
    }
    Ok(weights.to_vec())
}

/// The weight-by-weight mean of `nets` at `weights` (one per net, any positive total), which
/// `average_files` has checked share architecture and hidden size (so every list is as long as
/// the first net's). Each mean lies between its inputs, so it stays inside the ranges every
/// input was checked for.
fn average(nets: &[NetworkParts], weights: &[f64]) -> Result<NetworkParts, SoupError> {
    let first = nets.first().ok_or(SoupError::Empty)?;
    let lists = |field: fn(&NetworkParts) -> &[i16]| nets.iter().map(field).collect::<Vec<_>>();
    let biases = nets.iter().map(|parts| parts.output_bias.as_slice()).collect::<Vec<_>>();
    let to_i16 = |value: f64| value as i16;
    Ok(NetworkParts {
        arch: first.arch,
        hidden: first.hidden,
        feature_weights: mean_of(&lists(|parts| &parts.feature_weights), weights, to_i16),
        feature_bias: mean_of(&lists(|parts| &parts.feature_bias), weights, to_i16),
        output_weights: mean_of(&lists(|parts| &parts.output_weights), weights, to_i16),
        output_bias: mean_of(&biases, weights, |value| value as i32),
    })
}

/// What `average_files` wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SoupReport {
    /// Nets averaged.
    pub nets: usize,
    /// The written net's hash (what `eval` and the engine's `info string` name it by).
    pub hash: u64,
}

/// Reads the net files `inputs`, averages them (at `weights`, one per net, or equally) and
/// writes the mean to `out`.
pub fn average_files(
    inputs: &[PathBuf],
    weights: Option<&[f64]>,
    out: &Path,
) -> Result<SoupReport, SoupError> {
    if inputs.is_empty() {
        return Err(SoupError::Empty);
    }
    let weights = checked_weights(weights, inputs.len())?;
    let mut parts: Vec<NetworkParts> = Vec::with_capacity(inputs.len());
    for path in inputs {
        let net = Network::load(path).map_err(|error| SoupError::Unreadable(path.clone(), error))?;
        let net_parts = net.parts();
        if let Some(first) = parts.first() {
            if (net_parts.arch, net_parts.hidden) != (first.arch, first.hidden) {
                return Err(SoupError::Mismatch {
                    path: path.clone(),
                    found: shape(&net_parts),
                    expected: shape(first),
                });
            }
        }
        parts.push(net_parts);
    }
    let mean = Network::from_parts(average(&parts, &weights)?).map_err(SoupError::Invalid)?;
    std::fs::write(out, mean.to_bytes())
        .map_err(|error| SoupError::Write(format!("cannot write {}: {error}", out.display())))?;
    Ok(SoupReport { nets: parts.len(), hash: mean.hash() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::default_network;

    #[test]
    fn a_net_averaged_with_itself_is_itself() {
        let net = default_network().parts();
        assert_eq!(average(&[net.clone(), net.clone()], &[0.5, 0.5]).unwrap(), net);
        assert_eq!(average(std::slice::from_ref(&net), &[1.0]).unwrap(), net);
        assert_eq!(average(&[net.clone(), net.clone()], &[0.3, 0.7]).unwrap(), net);
    }

    #[test]
    fn each_weight_is_the_rounded_mean() {
        let mut low = default_network().parts();
        let mut high = low.clone();
        (low.feature_weights[0], high.feature_weights[0]) = (10, 13);
        (low.feature_bias[2], high.feature_bias[2]) = (-10, -13);
        (low.feature_weights[1], high.feature_weights[1]) = (10, 11);
        (low.output_bias[1], high.output_bias[1]) = (-400, -390);
        let mean = average(&[low.clone(), high.clone()], &[0.5, 0.5]).unwrap();
        // Halves round to the even neighbour: 11.5 -> 12, -11.5 -> -12, 10.5 -> 10.
        let rounded =
            (mean.feature_weights[0], mean.feature_bias[2], mean.feature_weights[1], mean.output_bias[1]);
        assert_eq!(rounded, (12, -12, 10, -395));
        assert_eq!(mean.feature_weights[2..], low.feature_weights[2..]);
        assert!(Network::from_parts(mean).is_ok());
        // A third of the way from low to high: 10 + 3/3 = 11, -10 - 3/3 = -11, 10 + 1/3 -> 10,
        // -400 + 10/3 = -396.67 -> -397.
        let third = average(&[low.clone(), high], &[2.0, 1.0]).unwrap();
        let rounded =
            (third.feature_weights[0], third.feature_bias[2], third.feature_weights[1], third.output_bias[1]);
        assert_eq!(rounded, (11, -11, 10, -397));
        assert_eq!(third.feature_weights[2..], low.feature_weights[2..]);
    }

    #[test]
    fn weights_are_one_per_net_none_negative_and_not_all_zero() {
        assert_eq!(checked_weights(None, 4).unwrap(), vec![1.0; 4]);
        assert_eq!(checked_weights(Some(&[1.0, 3.0]), 2).unwrap(), vec![1.0, 3.0]);
        assert_eq!(checked_weights(Some(&[0.0, 2.0]), 2).unwrap(), vec![0.0, 2.0]);
        let refused = |weights: &[f64], nets| checked_weights(Some(weights), nets).unwrap_err().to_string();
        assert_eq!(refused(&[0.5], 2), "1 weights for 2 nets: give one per net");
        assert!(refused(&[1.5, -0.5], 2).starts_with("weight -0.5 is not a finite number of at least 0"));
        assert!(refused(&[f64::NAN, 1.0], 2).starts_with("weight NaN is not"));
        assert!(refused(&[f64::INFINITY, 1.0], 2).starts_with("weight inf is not"));
        assert_eq!(refused(&[0.0, 0.0], 2), "the weights sum to 0");
    }

    #[test]
    fn equal_weights_keep_the_plain_means_ties() {
        // 7 x 5 - 14 = 21 over six nets is 3.5, a tie that goes to 4; weights of 1/6 each
        // would sum to 3.4999... and round to 3.
        let lists: [&[i16]; 6] = [&[7], &[7], &[7], &[7], &[7], &[-14]];
        assert_eq!(mean_of(&lists, &[1.0; 6], |value| value as i16), vec![4]);
        let twice: [&[i16]; 2] = [&[3], &[0]];
        assert_eq!(mean_of(&twice, &[3.0, 1.0], |value| value as i16), vec![2]);
    }

    #[test]
    fn nets_of_two_shapes_are_refused_by_name() {
        let buckets = default_network().parts();
        let hidden = buckets.hidden;
        let one_bucket = NetworkParts {
            arch: crate::nnue::Architecture::Perspective,
            output_weights: buckets.output_weights[..2 * hidden].to_vec(),
            output_bias: buckets.output_bias[..1].to_vec(),
            ..buckets.clone()
        };
        let dir = std::env::temp_dir().join(format!("patina-soup-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (first, second, out) = (dir.join("buckets.nnue"), dir.join("one.nnue"), dir.join("out.nnue"));
        std::fs::write(&first, Network::from_parts(buckets).unwrap().to_bytes()).unwrap();
        std::fs::write(&second, Network::from_parts(one_bucket).unwrap().to_bytes()).unwrap();
        let error = average_files(&[first, second], None, &out).unwrap_err();
        assert!(matches!(error, SoupError::Mismatch { .. }), "{error}");
        assert!(error
            .to_string()
            .contains("one.nnue is architecture 1 x 128, the first net is architecture 2 x 128"));
        assert!(!out.exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn no_nets_is_an_error() {
        assert_eq!(average(&[], &[]), Err(SoupError::Empty));
        let out = std::env::temp_dir().join("patina-soup-none.nnue");
        assert_eq!(average_files(&[], None, &out), Err(SoupError::Empty));
    }
}
