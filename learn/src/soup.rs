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
//! +16 against net 6 where n13z whole read +5. Weights are convex (none negative, divided by
//! their total), so every weight of the result still lies between its inputs.
//!
//! An output scale multiplies the result's output layer (weights and biases), and with it every
//! evaluation: fine-tunes on self-play labels inflate the evaluation (s19's mean |cp| is 257
//! to net 7's 239, `net-loss`), and the search's margins were tuned at the older scale. A single
//! net with a scale is that net rescaled.

use patina::nnue::{NetError, Network, NetworkParts};
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
    /// The output scale is not a finite number above 0, or one net comes with none.
    Scale(String),
    /// A net's architecture or hidden size differs from the first one's.
    Mismatch {
        /// The net that differs.
        path: PathBuf,
        /// Its shape.
        found: String,
        /// The first net's shape.
        expected: String,
    },
    /// The result failed the checks every net file passes: an output scale above 1 took an
    /// output weight past its limit (a mean alone cannot: each lies between valid inputs).
    Invalid(NetError),
    /// The output file could not be written.
    Write(String),
}

impl fmt::Display for SoupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SoupError::Empty => write!(f, "no nets to average"),
            SoupError::Weights(message) | SoupError::Scale(message) => write!(f, "{message}"),
            SoupError::Unreadable(path, error) => write!(f, "{}: {error}", path.display()),
            SoupError::Mismatch { path, found, expected } => write!(
                f,
                "{} is {found}, the first net is {expected}: only nets of one shape average",
                path.display()
            ),
            SoupError::Invalid(error) => write!(f, "the result is not a valid net: {error}"),
            SoupError::Write(message) => write!(f, "{message}"),
        }
    }
}

/// A net's shape in words, for errors.
fn shape(parts: &NetworkParts) -> String {
    format!("architecture {} x {}", parts.arch.id(), parts.hidden)
}

/// The weighted mean of each position across equally long lists, times `scale`, a half rounded
/// to the even neighbour (unbiased, and what Python's `round` does: s13 was first made by a
/// script). The weights are used as given and the sum is divided by their total last, so equal
/// or whole-number weights make an exact sum and keep every true tie (with weights of 1/6 each,
/// `7 x 5 - 14` would come to 3.4999... instead of 3.5).
fn mean_of<T: Copy + Into<f64>, U>(
    lists: &[&[T]],
    weights: &[f64],
    scale: f64,
    from_f64: impl Fn(f64) -> U,
) -> Vec<U> {
    let total: f64 = weights.iter().sum();
    (0..lists[0].len())
        .map(|index| {
            let sum: f64 = lists.iter().zip(weights).map(|(list, weight)| list[index].into() * weight).sum();
            from_f64((sum / total * scale).round_ties_even())
        })
        .collect()
}

/// The output scale checked: a finite number above 0, and not 1 for a single net (which would
/// only copy it).
fn checked_output_scale(scale: f64, nets: usize) -> Result<f64, SoupError> {
    if !(scale.is_finite() && scale > 0.0) {
        return Err(SoupError::Scale(format!("output scale {scale} is not a finite number above 0")));
    }
    if nets == 1 && scale == 1.0 {
        return Err(SoupError::Scale(
            "one net and an output scale of 1: nothing to average or rescale".to_string(),
        ));
    }
    Ok(scale)
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

/// The weight-by-weight mean of `nets` at `weights` (one per net, any positive total), its
/// output layer times `output_scale`; `average_files` has checked that the nets share
/// architecture and hidden size (so every list is as long as the first net's). Each mean lies
/// between its inputs, so only a scale above 1 can leave the ranges every input was checked
/// for (`Network::from_parts` then refuses it).
fn average(nets: &[NetworkParts], weights: &[f64], output_scale: f64) -> Result<NetworkParts, SoupError> {
    let first = nets.first().ok_or(SoupError::Empty)?;
    let lists = |field: fn(&NetworkParts) -> &[i16]| nets.iter().map(field).collect::<Vec<_>>();
    let biases = nets.iter().map(|parts| parts.output_bias.as_slice()).collect::<Vec<_>>();
    // A weight past i16 saturates, and the net checks refuse it (the limits are far inside
    // i16); nothing checks an output bias, so one past i32 is refused here, not saturated.
    let to_i16 = |value: f64| value as i16;
    let output_bias = mean_of(&biases, weights, output_scale, |value| value as i64)
        .into_iter()
        .map(i32::try_from)
        .collect::<Result<Vec<i32>, _>>()
        .map_err(|_| {
            SoupError::Scale(format!(
                "output scale {output_scale} takes an output bias past the 32-bit range"
            ))
        })?;
    Ok(NetworkParts {
        arch: first.arch,
        hidden: first.hidden,
        feature_weights: mean_of(&lists(|parts| &parts.feature_weights), weights, 1.0, to_i16),
        feature_bias: mean_of(&lists(|parts| &parts.feature_bias), weights, 1.0, to_i16),
        output_weights: mean_of(&lists(|parts| &parts.output_weights), weights, output_scale, to_i16),
        output_bias,
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

/// Reads the net files `inputs`, averages them (at `weights`, one per net, or equally),
/// multiplies the output layer by `output_scale` (1: unchanged) and writes the result to `out`.
pub fn average_files(
    inputs: &[PathBuf],
    weights: Option<&[f64]>,
    output_scale: f64,
    out: &Path,
) -> Result<SoupReport, SoupError> {
    if inputs.is_empty() {
        return Err(SoupError::Empty);
    }
    let weights = checked_weights(weights, inputs.len())?;
    let output_scale = checked_output_scale(output_scale, inputs.len())?;
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
    let mean = Network::from_parts(average(&parts, &weights, output_scale)?).map_err(SoupError::Invalid)?;
    std::fs::write(out, mean.to_bytes())
        .map_err(|error| SoupError::Write(format!("cannot write {}: {error}", out.display())))?;
    Ok(SoupReport { nets: parts.len(), hash: mean.hash() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use patina::nnue::default_network;

    #[test]
    fn a_net_averaged_with_itself_is_itself() {
        let net = default_network().parts();
        assert_eq!(average(&[net.clone(), net.clone()], &[0.5, 0.5], 1.0).unwrap(), net);
        assert_eq!(average(std::slice::from_ref(&net), &[1.0], 1.0).unwrap(), net);
        assert_eq!(average(&[net.clone(), net.clone()], &[0.3, 0.7], 1.0).unwrap(), net);
    }

    #[test]
    fn each_weight_is_the_rounded_mean() {
        let mut low = default_network().parts();
        let mut high = low.clone();
        (low.feature_weights[0], high.feature_weights[0]) = (10, 13);
        (low.feature_bias[2], high.feature_bias[2]) = (-10, -13);
        (low.feature_weights[1], high.feature_weights[1]) = (10, 11);
        (low.output_bias[1], high.output_bias[1]) = (-400, -390);
        let mean = average(&[low.clone(), high.clone()], &[0.5, 0.5], 1.0).unwrap();
        // Halves round to the even neighbour: 11.5 -> 12, -11.5 -> -12, 10.5 -> 10.
        let rounded =
            (mean.feature_weights[0], mean.feature_bias[2], mean.feature_weights[1], mean.output_bias[1]);
        assert_eq!(rounded, (12, -12, 10, -395));
        assert_eq!(mean.feature_weights[2..], low.feature_weights[2..]);
        assert!(Network::from_parts(mean).is_ok());
        // A third of the way from low to high: 10 + 3/3 = 11, -10 - 3/3 = -11, 10 + 1/3 -> 10,
        // -400 + 10/3 = -396.67 -> -397.
        let third = average(&[low.clone(), high], &[2.0, 1.0], 1.0).unwrap();
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
        assert_eq!(mean_of(&lists, &[1.0; 6], 1.0, |value| value as i16), vec![4]);
        let twice: [&[i16]; 2] = [&[3], &[0]];
        assert_eq!(mean_of(&twice, &[3.0, 1.0], 1.0, |value| value as i16), vec![2]);
    }

    #[test]
    fn nets_of_two_shapes_are_refused_by_name() {
        let buckets = default_network().parts();
        let hidden = buckets.hidden;
        let one_bucket = NetworkParts {
            arch: patina::nnue::Architecture::Perspective,
            output_weights: buckets.output_weights[..2 * hidden].to_vec(),
            output_bias: buckets.output_bias[..1].to_vec(),
            ..buckets.clone()
        };
        let dir = std::env::temp_dir().join(format!("patina-soup-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (first, second, out) = (dir.join("buckets.nnue"), dir.join("one.nnue"), dir.join("out.nnue"));
        std::fs::write(&first, Network::from_parts(buckets).unwrap().to_bytes()).unwrap();
        std::fs::write(&second, Network::from_parts(one_bucket).unwrap().to_bytes()).unwrap();
        let error = average_files(&[first, second], None, 1.0, &out).unwrap_err();
        assert!(matches!(error, SoupError::Mismatch { .. }), "{error}");
        let expected =
            format!("one.nnue is architecture 1 x {hidden}, the first net is architecture 2 x {hidden}");
        assert!(error.to_string().contains(&expected), "{error}");
        assert!(!out.exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn no_nets_is_an_error() {
        assert_eq!(average(&[], &[], 1.0), Err(SoupError::Empty));
        let out = std::env::temp_dir().join("patina-soup-none.nnue");
        assert_eq!(average_files(&[], None, 1.0, &out), Err(SoupError::Empty));
    }

    #[test]
    fn an_output_scale_multiplies_only_the_output_layer() {
        let net = default_network().parts();
        let scaled = average(std::slice::from_ref(&net), &[1.0], 0.93).unwrap();
        assert_eq!(scaled.feature_weights, net.feature_weights);
        assert_eq!(scaled.feature_bias, net.feature_bias);
        let expected = |value: f64| (value * 0.93).round_ties_even();
        for (before, after) in net.output_weights.iter().zip(&scaled.output_weights) {
            assert_eq!(f64::from(*after), expected(f64::from(*before)));
        }
        for (before, after) in net.output_bias.iter().zip(&scaled.output_bias) {
            assert_eq!(f64::from(*after), expected(f64::from(*before)));
        }
        assert!(Network::from_parts(scaled).is_ok());
        // Scaling a mean is scaling the sum once: (10 + 13) / 2 x 0.5 = 5.75 -> 6.
        let (mut low, mut high) = (net.clone(), net);
        (low.output_weights[0], high.output_weights[0]) = (10, 13);
        assert_eq!(average(&[low, high], &[1.0, 1.0], 0.5).unwrap().output_weights[0], 6);
    }

    #[test]
    fn an_output_scale_is_positive_finite_and_not_a_plain_copy() {
        assert_eq!(checked_output_scale(0.93, 1).unwrap(), 0.93);
        assert_eq!(checked_output_scale(1.0, 2).unwrap(), 1.0);
        let refused = |scale: f64, nets| checked_output_scale(scale, nets).unwrap_err().to_string();
        assert_eq!(refused(0.0, 2), "output scale 0 is not a finite number above 0");
        assert_eq!(refused(-1.0, 2), "output scale -1 is not a finite number above 0");
        assert_eq!(refused(f64::NAN, 2), "output scale NaN is not a finite number above 0");
        assert_eq!(refused(1.0, 1), "one net and an output scale of 1: nothing to average or rescale");
    }

    #[test]
    fn a_scale_that_takes_an_output_bias_past_32_bits_is_refused_not_saturated() {
        let mut net = default_network().parts();
        net.output_bias[0] = 1_000_000;
        let error = average(std::slice::from_ref(&net), &[1.0], 10_000.0).unwrap_err();
        assert_eq!(error.to_string(), "output scale 10000 takes an output bias past the 32-bit range");
    }

    #[test]
    fn a_scale_that_overflows_the_output_weights_is_refused_and_writes_nothing() {
        let dir = std::env::temp_dir().join(format!("patina-soup-scale-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (input, out) = (dir.join("net.nnue"), dir.join("out.nnue"));
        std::fs::write(&input, default_network().to_bytes()).unwrap();
        let error = average_files(std::slice::from_ref(&input), None, 1000.0, &out).unwrap_err();
        assert!(matches!(error, SoupError::Invalid(_)), "{error}");
        assert!(error.to_string().starts_with("the result is not a valid net: "), "{error}");
        assert!(!out.exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
