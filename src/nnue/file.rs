//! The net file: a header that says what the weights are for, then the weights.
//!
//! Layout (little-endian):
//!
//! | bytes  | field |
//! |--------|-------|
//! | 0..8   | magic `PATINANN` |
//! | 8..12  | file format version, 1 |
//! | 12..16 | architecture id (`ARCH_PERSPECTIVE_768`, or `ARCH_OUTPUT_BUCKETS` with `OUTPUT_BUCKETS` buckets) |
//! | 16..20 | inputs per perspective (768) |
//! | 20..24 | hidden neurons per perspective |
//! | 24..28 | QA, 28..32 QB, 32..36 SCALE |
//! | 36..44 | FNV-1a 64 of the payload |
//! | 44..   | payload: feature weights (`INPUTS x HIDDEN` i16, row per input), feature biases (`HIDDEN` i16), per bucket the output weights (`2 x HIDDEN` i16, side to move first), then per bucket the output bias (i32) |
//!
//! Loading refuses a file whose header names another architecture, size or quantisation,
//! whose length is not the header's, whose hash does not match (a corrupt copy), or whose
//! weights could overflow the integer arithmetic; the error says which.

use super::{
    Network, ARCH_OUTPUT_BUCKETS, ARCH_PERSPECTIVE_768, HIDDEN, INPUTS, OUTPUT_BUCKETS, QA, QB, SCALE,
};
use std::fmt;

const MAGIC: &[u8; 8] = b"PATINANN";
const VERSION: u32 = 1;
const HEADER_BYTES: usize = 44;

/// Payload bytes of a net with `buckets` output buckets.
const fn payload_bytes(buckets: usize) -> usize {
    (INPUTS * HIDDEN + HIDDEN + buckets * 2 * HIDDEN) * 2 + buckets * 4
}

/// The architecture ids this build reads, with their output buckets.
const ARCHITECTURES: [(u32, usize); 2] = [(ARCH_PERSPECTIVE_768, 1), (ARCH_OUTPUT_BUCKETS, OUTPUT_BUCKETS)];

/// Output buckets of an architecture id this build reads.
fn buckets_of(arch: u32) -> Option<usize> {
    ARCHITECTURES.iter().find(|&&(id, _)| id == arch).map(|&(_, buckets)| buckets)
}

/// The architecture id of a net with `buckets` output buckets (`from_parts` allows no other).
fn arch_of(buckets: usize) -> u32 {
    ARCHITECTURES.iter().find(|&&(_, count)| count == buckets).map_or(ARCH_PERSPECTIVE_768, |&(id, _)| id)
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
    /// The file is shorter than a header, or not the length its header calls for.
    Truncated {
        /// Bytes in the file.
        length: usize,
        /// Bytes a net of the header's architecture takes (a one-bucket net's without a header).
        expected: usize,
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
            NetError::BadMagic => write!(f, "not a Patina net file (no PATINANN magic)"),
            NetError::UnsupportedVersion(version) => {
                write!(f, "net file format version {version} (this build reads {VERSION})")
            }
            NetError::WrongArchitecture { arch, inputs, hidden } => write!(
                f,
                "net architecture {arch} ({inputs} -> {hidden}) does not match this build's {ARCH_PERSPECTIVE_768} \
                 or {ARCH_OUTPUT_BUCKETS} ({INPUTS} -> {HIDDEN})"
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

impl Network {
    /// Reads a net from a file's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() < HEADER_BYTES {
            let expected = HEADER_BYTES + payload_bytes(1);
            return Err(NetError::Truncated { length: bytes.len(), expected });
        }
        if &bytes[0..8] != MAGIC {
            return Err(NetError::BadMagic);
        }
        let version = u32_at(bytes, 8);
        if version != VERSION {
            return Err(NetError::UnsupportedVersion(version));
        }
        let (arch, inputs, hidden) = (u32_at(bytes, 12), u32_at(bytes, 16), u32_at(bytes, 20));
        let buckets = match buckets_of(arch) {
            Some(buckets) if (inputs as usize, hidden as usize) == (INPUTS, HIDDEN) => buckets,
            _ => return Err(NetError::WrongArchitecture { arch, inputs, hidden }),
        };
        let expected = HEADER_BYTES + payload_bytes(buckets);
        let (qa, qb, scale) = (u32_at(bytes, 24), u32_at(bytes, 28), u32_at(bytes, 32));
        if (qa as i32, qb as i32, scale as i32) != (QA, QB, SCALE) {
            return Err(NetError::WrongQuantisation { qa, qb, scale });
        }
        if bytes.len() != expected {
            return Err(NetError::Truncated { length: bytes.len(), expected });
        }
        let stored = u64::from_le_bytes(bytes[36..44].try_into().expect("8 bytes"));
        let payload = &bytes[HEADER_BYTES..];
        let computed = fnv1a(payload);
        if stored != computed {
            return Err(NetError::HashMismatch { stored, computed });
        }
        let mut cursor = Cursor { bytes: payload, offset: 0 };
        let mut feature_weights = Vec::with_capacity(INPUTS);
        for _ in 0..INPUTS {
            feature_weights.push(cursor.i16s::<HIDDEN>(FEATURE_WEIGHT_MAX, "feature")?);
        }
        let feature_bias = cursor.i16s::<HIDDEN>(FEATURE_WEIGHT_MAX, "feature bias")?;
        let mut output_weights = Vec::with_capacity(buckets);
        for _ in 0..buckets {
            output_weights.push([
                cursor.i16s::<HIDDEN>(OUTPUT_WEIGHT_MAX, "output")?,
                cursor.i16s::<HIDDEN>(OUTPUT_WEIGHT_MAX, "output")?,
            ]);
        }
        let output_bias = (0..buckets)
            .map(|bucket| {
                let at = cursor.offset + 4 * bucket;
                i32::from_le_bytes(payload[at..at + 4].try_into().expect("4 bytes"))
            })
            .collect();
        Ok(Network { feature_weights, feature_bias, output_weights, output_bias, hash: computed })
    }

    /// Builds a net from quantised weights (the trainer's output), computing its hash. One
    /// output bucket is architecture 1, `OUTPUT_BUCKETS` architecture 2.
    pub fn from_parts(
        feature_weights: Vec<[i16; HIDDEN]>,
        feature_bias: [i16; HIDDEN],
        output_weights: Vec<[[i16; HIDDEN]; 2]>,
        output_bias: Vec<i32>,
    ) -> Network {
        assert_eq!(feature_weights.len(), INPUTS, "one row per input");
        assert_eq!(output_weights.len(), output_bias.len(), "weights and a bias per bucket");
        assert!(
            ARCHITECTURES.iter().any(|&(_, buckets)| buckets == output_bias.len()),
            "1 or {OUTPUT_BUCKETS} output buckets"
        );
        let mut net = Network { feature_weights, feature_bias, output_weights, output_bias, hash: 0 };
        net.hash = fnv1a(&net.payload());
        net
    }

    fn payload(&self) -> Vec<u8> {
        let mut payload = Vec::with_capacity(payload_bytes(self.buckets()));
        let rows = self
            .feature_weights
            .iter()
            .chain([&self.feature_bias])
            .chain(self.output_weights.iter().flatten());
        for row in rows {
            payload.extend(row.iter().flat_map(|value| value.to_le_bytes()));
        }
        payload.extend(self.output_bias.iter().flat_map(|bias| bias.to_le_bytes()));
        payload
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let payload = self.payload();
        let mut bytes = Vec::with_capacity(HEADER_BYTES + payload.len());
        bytes.extend_from_slice(MAGIC);
        for field in [
            VERSION,
            arch_of(self.buckets()),
            INPUTS as u32,
            HIDDEN as u32,
            QA as u32,
            QB as u32,
            SCALE as u32,
        ] {
            bytes.extend(field.to_le_bytes());
        }
        bytes.extend(fnv1a(&payload).to_le_bytes());
        bytes.extend(payload);
        bytes
    }

    /// Reads a net file.
    pub fn load(path: &std::path::Path) -> Result<Network, NetError> {
        let bytes =
            std::fs::read(path).map_err(|e| NetError::Io(format!("cannot read {}: {e}", path.display())))?;
        Network::from_bytes(&bytes)
    }

    pub(super) fn feature_row(&self, index: usize) -> &[i16; HIDDEN] {
        &self.feature_weights[index]
    }

    pub(super) fn feature_bias(&self) -> &[i16; HIDDEN] {
        &self.feature_bias
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small_net() -> Network {
        let rows = (0..INPUTS).map(|i| std::array::from_fn(|j| ((i * 7 + j * 3) % 61) as i16 - 30)).collect();
        Network::from_parts(rows, [5; HIDDEN], vec![[[3; HIDDEN], [-2; HIDDEN]]], vec![100])
    }

    fn bucketed_net() -> Network {
        let rows = (0..INPUTS).map(|i| std::array::from_fn(|j| ((i * 5 + j) % 41) as i16 - 20)).collect();
        let outputs = (0..OUTPUT_BUCKETS as i16).map(|b| [[3 + b; HIDDEN], [-2 - b; HIDDEN]]).collect();
        Network::from_parts(rows, [5; HIDDEN], outputs, (0..OUTPUT_BUCKETS as i32).map(|b| 100 * b).collect())
    }

    #[test]
    fn round_trips() {
        for net in [small_net(), bucketed_net()] {
            let bytes = net.to_bytes();
            let arch = u32_at(&bytes, 12);
            assert_eq!(arch, if net.buckets() == 1 { ARCH_PERSPECTIVE_768 } else { ARCH_OUTPUT_BUCKETS });
            let back = Network::from_bytes(&bytes).unwrap();
            assert_eq!(back, net);
        }
    }

    #[test]
    fn a_bucketed_net_cut_to_one_buckets_length_is_refused() {
        let bytes = bucketed_net().to_bytes();
        let cut = HEADER_BYTES + payload_bytes(1);
        let error = Network::from_bytes(&bytes[..cut]).unwrap_err();
        assert!(matches!(error, NetError::Truncated { length, .. } if length == cut), "{error}");
    }

    #[test]
    fn damaged_files_are_refused_with_the_reason() {
        let bytes = small_net().to_bytes();
        let short = Network::from_bytes(&bytes[..1000]).unwrap_err();
        assert!(matches!(short, NetError::Truncated { length: 1000, .. }), "{short}");
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
        let mut arch = bytes.clone();
        arch[20..24].copy_from_slice(&256u32.to_le_bytes());
        let error = Network::from_bytes(&arch).unwrap_err();
        assert!(error.to_string().contains("768 -> 256"), "{error}");
    }

    #[test]
    fn overflowing_weights_are_refused() {
        let mut net = small_net();
        net.output_weights[0][0][3] = 3000;
        let bytes =
            Network::from_parts(net.feature_weights.clone(), net.feature_bias, net.output_weights, vec![0])
                .to_bytes();
        let error = Network::from_bytes(&bytes).unwrap_err();
        assert_eq!(error, NetError::WeightOutOfRange { what: "output", value: 3000 });
    }
}
