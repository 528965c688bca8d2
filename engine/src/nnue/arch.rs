//! Network architectures: the feature set, the accumulator width (L1) and
//! the number of output buckets, as a network file's header names them,
//! and every error reading or building a network can give.
//!
//! One engine evaluates any architecture within the limits here; the
//! network it is given decides which (net 2 is [`Arch::NET2`]).

use super::features::FeatureSet;
use std::fmt;

/// The first bytes of every network file.
pub const MAGIC: [u8; 8] = *b"JJNNUE\0\0";
/// The format version this engine reads and writes.
pub const VERSION: u16 = 1;
/// Length of the header before the payload.
pub const HEADER_LEN: usize = 48;

/// L1 must be a multiple of this: the SIMD loops work in blocks of 64
/// `i16` (four AVX2 registers), and the output layer's `i32` partial sums
/// are exact for one block (see `DOT_CHUNK`).
pub const L1_STEP: usize = 64;
/// Widest accumulator accepted (keeps files, and a bad header's claims, bounded).
pub const MAX_L1: usize = 2048;
/// Most output buckets accepted (more than the 31 piece counts is useless).
pub const MAX_OUTPUT_BUCKETS: usize = 16;

/// The shape of a network.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Arch {
    pub features: FeatureSet,
    /// Accumulator units per perspective.
    pub l1: usize,
    /// Output buckets, chosen by piece count (`features::output_bucket`).
    pub output_buckets: usize,
}

impl Arch {
    /// Net 2's architecture: 1260 piece-square inputs, 256 units, one output.
    pub const NET2: Arch = Arch {
        features: FeatureSet::PieceSquare,
        l1: 256,
        output_buckets: 1,
    };

    /// An architecture, if the engine supports it.
    pub fn new(features: FeatureSet, l1: usize, output_buckets: usize) -> Result<Arch, NnueError> {
        if l1 == 0 || !l1.is_multiple_of(L1_STEP) || l1 > MAX_L1 {
            return Err(NnueError::Unsupported {
                what: "L1 size",
                found: l1 as u64,
                allowed: "a multiple of 64 from 64 to 2048",
            });
        }
        if output_buckets == 0 || output_buckets > MAX_OUTPUT_BUCKETS {
            return Err(NnueError::Unsupported {
                what: "output bucket count",
                found: output_buckets as u64,
                allowed: "1 to 16",
            });
        }
        Ok(Arch {
            features,
            l1,
            output_buckets,
        })
    }

    /// Inputs per perspective.
    pub const fn inputs(&self) -> usize {
        self.features.inputs()
    }

    /// Number of `i16` values in the file's payload.
    pub const fn payload_values(&self) -> usize {
        let (l1, b) = (self.l1, self.output_buckets);
        self.inputs() * l1 + l1 + b * 2 * l1 + b
    }

    /// Length of the payload in bytes.
    pub const fn payload_len(&self) -> usize {
        2 * self.payload_values()
    }

    /// Length of the network file.
    pub const fn file_len(&self) -> usize {
        HEADER_LEN + self.payload_len()
    }

    /// The longest file of any supported architecture.
    pub const fn max_file_len() -> usize {
        Arch {
            features: FeatureSet::KingBucket6Threats,
            l1: MAX_L1,
            output_buckets: MAX_OUTPUT_BUCKETS,
        }
        .file_len()
    }
}

/// `kingbucket6 x 512 -> 8 buckets`.
impl fmt::Display for Arch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({} inputs) x {} -> {} output bucket{}",
            self.features,
            self.inputs(),
            self.l1,
            self.output_buckets,
            if self.output_buckets == 1 { "" } else { "s" }
        )
    }
}

/// Why a network could not be built or read.
#[derive(Debug, thiserror::Error)]
pub enum NnueError {
    #[error("network file too short: {found} bytes, the header alone is {HEADER_LEN}")]
    TooShort { found: usize },
    #[error("not a Jiangjun network file: this is {kind}")]
    BadMagic { kind: String },
    #[error("network file version {found} is not supported (this engine reads version {VERSION})")]
    UnsupportedVersion { found: u16 },
    #[error(
        "network feature set {found} is unknown (this engine reads 0 = psq, 1 = kingbucket6, \
         2 = psq+threats and 3 = kingbucket6+threats)"
    )]
    UnknownFeatureSet { found: u16 },
    #[error("network {what} {found} is not supported (it must be {allowed})")]
    Unsupported {
        what: &'static str,
        found: u64,
        allowed: &'static str,
    },
    #[error("network {what} is {found}, but this engine is built for {expected}")]
    Dimension {
        what: &'static str,
        expected: u64,
        found: u64,
    },
    #[error(
        "network header does not match its payload: it gives a payload of {found} bytes, \
         but {arch} takes {expected}"
    )]
    PayloadMismatch {
        arch: String,
        expected: u64,
        found: u64,
    },
    #[error("network file truncated: the payload has {found} of its {expected} bytes")]
    Truncated { expected: u64, found: u64 },
    #[error("network file oversized: {extra} unexpected bytes after the payload")]
    Oversized { extra: u64 },
    #[error(
        "network file corrupt: the header's checksum is {expected:#018x}, the payload hashes to {found:#018x}"
    )]
    Checksum { expected: u64, found: u64 },
    #[error("network {what} has {found} values, expected {expected}")]
    Shape {
        what: &'static str,
        expected: usize,
        found: usize,
    },
    #[error("network {what}[{index}] = {value} is outside the allowed range ±{limit}")]
    OutOfRange {
        what: &'static str,
        index: usize,
        value: i16,
        limit: i16,
    },
    #[error("cannot access network file {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    /// `<built-in>` asked for in a binary built without a network.
    #[error("no network is built into this binary (give a network file)")]
    NoneBuiltIn,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_and_sizes() {
        assert_eq!(Arch::NET2.inputs(), 1260);
        assert_eq!(Arch::NET2.payload_values(), 1260 * 256 + 256 + 2 * 256 + 1);
        let a = Arch::new(FeatureSet::KingBucket6, 512, 8).unwrap();
        assert_eq!(a.payload_values(), 7560 * 512 + 512 + 8 * 1024 + 8);
        assert_eq!(
            a.to_string(),
            "kingbucket6 (7560 inputs) x 512 -> 8 output buckets"
        );
        for (l1, buckets) in [(0, 1), (100, 1), (4096, 1), (256, 0), (256, 17)] {
            let e = Arch::new(FeatureSet::PieceSquare, l1, buckets).unwrap_err();
            assert!(e.to_string().contains("not supported"), "{e}");
        }
        // The largest: 25,200 inputs x 2048, about 103 MB.
        assert_eq!(
            Arch::max_file_len(),
            Arch::new(FeatureSet::KingBucket6Threats, MAX_L1, MAX_OUTPUT_BUCKETS)
                .unwrap()
                .file_len()
        );
        assert!(Arch::max_file_len() < 128 << 20);
        let t = Arch::new(FeatureSet::PieceSquareThreats, 512, 8).unwrap();
        assert_eq!(
            t.to_string(),
            "psq+threats (18900 inputs) x 512 -> 8 output buckets"
        );
    }
}
