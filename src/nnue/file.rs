//! The net file: a header that says what the weights are for, then the weights.
//!
//! Layout (little-endian):
//!
//! | bytes  | field |
//! |--------|-------|
//! | 0..8   | magic `PATINANN` |
//! | 8..12  | file format version, 1 |
//! | 12..16 | architecture id: 1, 2 or 3 (`Architecture`; 2 and 3 have `OUTPUT_BUCKETS` buckets) |
//! | 16..20 | inputs per perspective (768) |
//! | 20..24 | hidden neurons per perspective `H`, one of `HIDDEN_SIZES` |
//! | 24..28 | QA, 28..32 QB, 32..36 SCALE |
//! | 36..44 | FNV-1a 64 of the payload |
//! | 44..   | payload: feature weights (`INPUTS x H` i16, row per input), feature biases (`H` i16), per bucket the output weights (`2 x H` i16, side to move first), then per bucket the output bias (i32) |
//!
//! Architecture 3 has architecture 2's layout; only the meaning of an input index differs (a
//! perspective whose king is on files e-h indexes the mirrored square, see `nnue`). A file of
//! architecture 3, or of another size than 128, is refused by builds from before it with
//! `WrongArchitecture`, never misread.
//!
//! Loading refuses a file whose header names another architecture, size or quantisation,
//! whose length is not the header's, whose hash does not match (a corrupt copy), or whose
//! weights could overflow the integer arithmetic; the error says which.

use super::{Architecture, Layers, Network, SizedLayers, HIDDEN, HIDDEN_SIZES, INPUTS, QA, QB, SCALE};
use std::fmt;

const MAGIC: &[u8; 8] = b"PATINANN";
const VERSION: u32 = 1;
const HEADER_BYTES: usize = 44;

/// Payload bytes of a net with `hidden` neurons and `buckets` output buckets.
const fn payload_bytes(hidden: usize, buckets: usize) -> usize {
    (INPUTS * hidden + hidden + buckets * 2 * hidden) * 2 + buckets * 4
}

/// The largest quantised feature weight or bias: keeps 32 pieces plus the bias inside i16.
const FEATURE_WEIGHT_MAX: i16 = 990;
/// The largest quantised output weight: keeps the output sum inside i32.
const OUTPUT_WEIGHT_MAX: i16 = 2048;

/// Why a net file was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetError {
    /// The file could not be read; the message names the path and the OS error.
    Io(String),
    /// The file is shorter than a header.
    Truncated {
        /// Bytes in the file.
        length: usize,
        /// Bytes of the smallest net (one bucket, `HIDDEN` neurons), header included.
        expected: usize,
    },
    /// The file is not the length its header's architecture and size call for.
    WrongLength {
        /// Bytes in the file.
        length: usize,
        /// Bytes a net of the header's architecture and size takes, header included.
        expected: usize,
        /// Architecture id from the header.
        arch: u32,
        /// Hidden neurons per perspective from the header.
        hidden: u32,
    },
    /// The file does not start with `PATINANN`.
    BadMagic,
    /// The header's format version, which this build does not read.
    UnsupportedVersion(u32),
    /// The header names an architecture or layer sizes this build does not play.
    WrongArchitecture {
        /// Architecture id from the header.
        arch: u32,
        /// Inputs per perspective from the header.
        inputs: u32,
        /// Hidden neurons per perspective from the header.
        hidden: u32,
    },
    /// The header's quantisation differs from this build's `QA`, `QB` and `SCALE`.
    WrongQuantisation {
        /// Feature-layer quantisation from the header.
        qa: u32,
        /// Output-weight quantisation from the header.
        qb: u32,
        /// Output-to-centipawn scale from the header.
        scale: u32,
    },
    /// The payload's FNV-1a hash is not the one in the header: a damaged copy.
    HashMismatch {
        /// Hash the header records.
        stored: u64,
        /// Hash of the payload as read.
        computed: u64,
    },
    /// A weight is larger than the integer arithmetic can take without overflow.
    WeightOutOfRange {
        /// Which weights: `"feature"`, `"feature bias"` or `"output"`.
        what: &'static str,
        /// The offending quantised value.
        value: i32,
    },
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::Io(reason) => write!(f, "{reason}"),
            NetError::Truncated { length, expected } => {
                write!(f, "net file is {length} bytes, expected {expected} (truncated or not a net)")
            }
            NetError::WrongLength { length, expected, arch, hidden } => write!(
                f,
                "net file is {length} bytes, but architecture {arch} ({INPUTS} -> {hidden}) takes {expected} \
                 (truncated or not a net)"
            ),
            NetError::BadMagic => write!(f, "not a Patina net file (no PATINANN magic)"),
            NetError::UnsupportedVersion(version) => {
                write!(f, "net file format version {version} (this build reads {VERSION})")
            }
            NetError::WrongArchitecture { arch, inputs, hidden } => write!(
                f,
                "net architecture {arch} ({inputs} -> {hidden}) is not one this build plays: architectures 1-3, \
                 {INPUTS} -> {}",
                HIDDEN_SIZES.map(|size| size.to_string()).join(", ")
            ),
            NetError::WrongQuantisation { qa, qb, scale } => write!(
                f,
                "net quantisation QA {qa} QB {qb} scale {scale} does not match this build's QA {QA} QB {QB} scale {SCALE}"
            ),
            NetError::HashMismatch { stored, computed } => {
                write!(f, "net weights are corrupt (hash {computed:016x}, header says {stored:016x})")
            }
            NetError::WeightOutOfRange { what, value } => {
                write!(f, "net {what} weight {value} is out of range (the arithmetic could overflow)")
            }
        }
    }
}

impl std::error::Error for NetError {}

/// FNV-1a, 64 bits: enough to tell nets apart and catch a damaged copy.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(0xcbf2_9ce4_8422_2325, |hash, &byte| (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3))
}

fn u32_at(bytes: &[u8], offset: usize) -> u32 {
    u32::from_le_bytes(bytes[offset..offset + 4].try_into().expect("4 bytes"))
}

struct Cursor<'a> {
    bytes: &'a [u8],
    offset: usize,
}

impl Cursor<'_> {
    fn i16s<const N: usize>(&mut self, limit: i16, what: &'static str) -> Result<[i16; N], NetError> {
        let mut values = [0i16; N];
        for value in &mut values {
            *value = i16::from_le_bytes([self.bytes[self.offset], self.bytes[self.offset + 1]]);
            self.offset += 2;
            if value.unsigned_abs() > limit as u16 {
                return Err(NetError::WeightOutOfRange { what, value: i32::from(*value) });
            }
        }
        Ok(values)
    }
}

/// A net's quantised weights as flat lists in file order: what the trainer makes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NetworkParts {
    /// The architecture, which fixes the output buckets.
    pub arch: Architecture,
    /// Hidden neurons per perspective, one of `HIDDEN_SIZES`.
    pub hidden: usize,
    /// `INPUTS x hidden`, a row per input.
    pub feature_weights: Vec<i16>,
    /// `hidden` biases.
    pub feature_bias: Vec<i16>,
    /// Per bucket, `2 x hidden`: the side to move's half, then the other side's.
    pub output_weights: Vec<i16>,
    /// Per bucket, in `ACTIVATION_ONE * QB` units.
    pub output_bias: Vec<i32>,
}

/// A whole file: the header for `arch` and `hidden`, then `payload`.
fn file_bytes(arch: Architecture, hidden: usize, payload: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(HEADER_BYTES + payload.len());
    bytes.extend_from_slice(MAGIC);
    for field in [VERSION, arch.id(), INPUTS as u32, hidden as u32, QA as u32, QB as u32, SCALE as u32] {
        bytes.extend(field.to_le_bytes());
    }
    bytes.extend(fnv1a(payload).to_le_bytes());
    bytes.extend_from_slice(payload);
    bytes
}

/// The weights of a payload already checked for length, each checked for range.
fn read_layers<const H: usize>(payload: &[u8], buckets: usize) -> Result<Box<Layers<H>>, NetError> {
    let mut cursor = Cursor { bytes: payload, offset: 0 };
    let mut feature_weights = Vec::with_capacity(INPUTS);
    for _ in 0..INPUTS {
        feature_weights.push(cursor.i16s::<H>(FEATURE_WEIGHT_MAX, "feature")?);
    }
    let feature_bias = cursor.i16s::<H>(FEATURE_WEIGHT_MAX, "feature bias")?;
    let mut output_weights = Vec::with_capacity(buckets);
    for _ in 0..buckets {
        output_weights.push([
            cursor.i16s::<H>(OUTPUT_WEIGHT_MAX, "output")?,
            cursor.i16s::<H>(OUTPUT_WEIGHT_MAX, "output")?,
        ]);
    }
    let output_bias = (0..buckets)
        .map(|bucket| {
            let at = cursor.offset + 4 * bucket;
            i32::from_le_bytes(payload[at..at + 4].try_into().expect("4 bytes"))
        })
        .collect();
    Ok(Box::new(Layers { feature_weights, feature_bias, output_weights, output_bias }))
}

impl Network {
    /// Reads a net from a file's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() < HEADER_BYTES {
            let expected = HEADER_BYTES + payload_bytes(HIDDEN, 1);
            return Err(NetError::Truncated { length: bytes.len(), expected });
        }
        if &bytes[0..8] != MAGIC {
            return Err(NetError::BadMagic);
        }
        let version = u32_at(bytes, 8);
        if version != VERSION {
            return Err(NetError::UnsupportedVersion(version));
        }
        let (arch_id, inputs, hidden) = (u32_at(bytes, 12), u32_at(bytes, 16), u32_at(bytes, 20));
        let arch = match Architecture::from_id(arch_id) {
            Some(arch) if inputs as usize == INPUTS && HIDDEN_SIZES.contains(&(hidden as usize)) => arch,
            _ => return Err(NetError::WrongArchitecture { arch: arch_id, inputs, hidden }),
        };
        let (qa, qb, scale) = (u32_at(bytes, 24), u32_at(bytes, 28), u32_at(bytes, 32));
        if (qa as i32, qb as i32, scale as i32) != (QA, QB, SCALE) {
            return Err(NetError::WrongQuantisation { qa, qb, scale });
        }
        let expected = HEADER_BYTES + payload_bytes(hidden as usize, arch.buckets());
        if bytes.len() != expected {
            return Err(NetError::WrongLength { length: bytes.len(), expected, arch: arch_id, hidden });
        }
        let stored = u64::from_le_bytes(bytes[36..44].try_into().expect("8 bytes"));
        let payload = &bytes[HEADER_BYTES..];
        let computed = fnv1a(payload);
        if stored != computed {
            return Err(NetError::HashMismatch { stored, computed });
        }
        let buckets = arch.buckets();
        let layers = match hidden {
            128 => SizedLayers::H128(read_layers(payload, buckets)?),
            256 => SizedLayers::H256(read_layers(payload, buckets)?),
            384 => SizedLayers::H384(read_layers(payload, buckets)?),
            512 => SizedLayers::H512(read_layers(payload, buckets)?),
            _ => return Err(NetError::WrongArchitecture { arch: arch_id, inputs, hidden }),
        };
        Ok(Network { arch, layers, hash: computed })
    }

    /// Builds a net from quantised weights (the trainer's output), checking them as a file is
    /// checked: the lists must have the lengths `parts.arch` and `parts.hidden` call for.
    pub fn from_parts(parts: NetworkParts) -> Result<Network, NetError> {
        let mut payload = Vec::with_capacity(payload_bytes(parts.hidden, parts.arch.buckets()));
        let weights = parts.feature_weights.iter().chain(&parts.feature_bias).chain(&parts.output_weights);
        payload.extend(weights.flat_map(|value| value.to_le_bytes()));
        payload.extend(parts.output_bias.iter().flat_map(|bias| bias.to_le_bytes()));
        Network::from_bytes(&file_bytes(parts.arch, parts.hidden, &payload))
    }

    /// The quantised weights as flat lists: the inverse of `from_parts`.
    pub fn parts(&self) -> NetworkParts {
        super::with_layers!(&self.layers, layers => layers.parts(self.arch))
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut payload = Vec::with_capacity(payload_bytes(self.hidden(), self.buckets()));
        super::with_layers!(&self.layers, layers => layers.write_payload(&mut payload));
        file_bytes(self.arch, self.hidden(), &payload)
    }

    /// Reads a net file.
    pub fn load(path: &std::path::Path) -> Result<Network, NetError> {
        let bytes =
            std::fs::read(path).map_err(|e| NetError::Io(format!("cannot read {}: {e}", path.display())))?;
        Network::from_bytes(&bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::test_support::random_network;

    /// A net of weights following a pattern, built as the trainer builds one.
    fn patterned(arch: Architecture, hidden: usize) -> Network {
        let buckets = arch.buckets();
        let parts = NetworkParts {
            arch,
            hidden,
            feature_weights: (0..INPUTS * hidden)
                .map(|i| ((i * 7 + i / hidden * 3) % 61) as i16 - 30)
                .collect(),
            feature_bias: vec![5; hidden],
            output_weights: (0..buckets * 2 * hidden).map(|i| (i % 9) as i16 - 4).collect(),
            output_bias: (0..buckets as i32).map(|bucket| 100 * bucket).collect(),
        };
        Network::from_parts(parts).unwrap()
    }

    fn small_net() -> Network {
        patterned(Architecture::Perspective, HIDDEN)
    }

    #[test]
    fn parts_are_what_the_net_was_built_from() {
        for net in
            [patterned(Architecture::OutputBuckets, HIDDEN), random_network(Architecture::Mirrored, 256, 5)]
        {
            let parts = net.parts();
            assert_eq!(Network::from_parts(parts.clone()).unwrap(), net);
            assert_eq!(parts.output_bias.len(), net.buckets());
        }
        let parts = patterned(Architecture::OutputBuckets, HIDDEN).parts();
        assert_eq!(parts.output_bias, (0..8).map(|bucket| 100 * bucket).collect::<Vec<i32>>());
        assert_eq!(parts.feature_bias, vec![5; HIDDEN]);
    }

    #[test]
    fn round_trips() {
        let nets = [
            small_net(),
            patterned(Architecture::OutputBuckets, HIDDEN),
            patterned(Architecture::Mirrored, 256),
            random_network(Architecture::Mirrored, 512, 3),
            random_network(Architecture::OutputBuckets, 384, 4),
        ];
        for net in nets {
            let bytes = net.to_bytes();
            assert_eq!(u32_at(&bytes, 12), net.arch().id());
            assert_eq!(u32_at(&bytes, 20) as usize, net.hidden());
            assert_eq!(bytes.len(), HEADER_BYTES + payload_bytes(net.hidden(), net.buckets()));
            let back = Network::from_bytes(&bytes).unwrap();
            assert_eq!(back, net);
            assert_eq!(back.to_bytes(), bytes);
        }
    }

    #[test]
    fn the_same_weights_of_two_architectures_are_two_nets() {
        let plain = patterned(Architecture::OutputBuckets, 256);
        let mirrored = patterned(Architecture::Mirrored, 256);
        assert_eq!(plain.hash(), mirrored.hash(), "the hash covers the weights");
        assert_ne!(plain, mirrored);
        assert_eq!(Network::from_bytes(&mirrored.to_bytes()).unwrap().arch(), Architecture::Mirrored);
    }

    #[test]
    fn a_bucketed_net_cut_to_one_buckets_length_is_refused() {
        let bytes = patterned(Architecture::OutputBuckets, HIDDEN).to_bytes();
        let cut = HEADER_BYTES + payload_bytes(HIDDEN, 1);
        let error = Network::from_bytes(&bytes[..cut]).unwrap_err();
        assert!(matches!(error, NetError::WrongLength { length, arch: 2, .. } if length == cut), "{error}");
    }

    #[test]
    fn damaged_files_are_refused_with_the_reason() {
        let bytes = small_net().to_bytes();
        let short = Network::from_bytes(&bytes[..1000]).unwrap_err();
        assert!(matches!(short, NetError::WrongLength { length: 1000, .. }), "{short}");
        assert!(short.to_string().contains("truncated"), "{short}");
        assert_eq!(
            Network::from_bytes(b"hello").unwrap_err(),
            NetError::Truncated { length: 5, expected: bytes.len() }
        );
        let mut magic = bytes.clone();
        magic[0] = b'X';
        assert_eq!(Network::from_bytes(&magic).unwrap_err(), NetError::BadMagic);
        let mut flipped = bytes.clone();
        flipped[HEADER_BYTES + 10] ^= 1;
        assert!(matches!(Network::from_bytes(&flipped).unwrap_err(), NetError::HashMismatch { .. }));
        let mut size = bytes.clone();
        size[20..24].copy_from_slice(&256u32.to_le_bytes());
        let error = Network::from_bytes(&size).unwrap_err();
        assert!(error.to_string().contains("768 -> 256"), "{error}");
        let mut odd_size = bytes.clone();
        odd_size[20..24].copy_from_slice(&200u32.to_le_bytes());
        let error = Network::from_bytes(&odd_size).unwrap_err();
        assert_eq!(error, NetError::WrongArchitecture { arch: 1, inputs: 768, hidden: 200 });
        assert!(error.to_string().contains("128, 256, 384, 512"), "{error}");
        let mut arch = bytes.clone();
        arch[12..16].copy_from_slice(&4u32.to_le_bytes());
        assert!(matches!(
            Network::from_bytes(&arch).unwrap_err(),
            NetError::WrongArchitecture { arch: 4, .. }
        ));
    }

    #[test]
    fn overflowing_weights_are_refused() {
        let mut parts = NetworkParts {
            arch: Architecture::Perspective,
            hidden: HIDDEN,
            feature_weights: vec![1; INPUTS * HIDDEN],
            feature_bias: vec![0; HIDDEN],
            output_weights: vec![1; 2 * HIDDEN],
            output_bias: vec![0],
        };
        parts.output_weights[3] = 3000;
        let error = Network::from_parts(parts.clone()).unwrap_err();
        assert_eq!(error, NetError::WeightOutOfRange { what: "output", value: 3000 });
        parts.output_weights[3] = 0;
        parts.feature_weights[INPUTS * HIDDEN - 1] = -1000;
        let error = Network::from_parts(parts).unwrap_err();
        assert_eq!(error, NetError::WeightOutOfRange { what: "feature", value: -1000 });
    }
}
