//! Network architectures: the feature set, the accumulator width (L1), the
//! number of output buckets and the hidden layers after the accumulator (if
//! any), as a network file's header names them, and every error reading or
//! building a network can give.
//!
//! One engine evaluates any architecture within the limits here; the
//! network it is given decides which (net 2 is [`Arch::NET2`]).

use super::features::FeatureSet;
use super::side::{MAX_SIDE, SIDE_INPUTS, SIDE_STEP};
use std::fmt;

/// The first bytes of every network file.
pub(super) const MAGIC: [u8; 8] = *b"JJNNUE\0\0";
/// The format version of networks without hidden layers (the accumulator
/// straight into one output per bucket).
pub(super) const VERSION: u16 = 1;
/// The format version of networks with hidden layers (`Arch::hidden`); the
/// header's byte 30 and 31 give their sizes (reserved, zero, in version 1).
pub(super) const VERSION_HIDDEN: u16 = 2;
/// The format version of networks with hidden layers and, beside them, the
/// accumulator's SCReLU output layer of version 1 (`Arch::skip`), the two
/// outputs added: what a net without hidden layers grows into exactly.
pub(super) const VERSION_SKIP: u16 = 3;
/// The format version of networks without hidden layers and with the side
/// accumulator of threat squares (`Arch::side`); the header's byte 30
/// gives its width.
pub(super) const VERSION_SIDE: u16 = 4;
/// Length of the header before the payload.
pub(super) const HEADER_LEN: usize = 48;

/// L1 must be a multiple of this: the SIMD loops work in blocks of 64
/// `i16` (four AVX2 registers), and the output layer's `i32` partial sums
/// are exact for one block (see `DOT_CHUNK`).
pub(super) const L1_STEP: usize = 64;
/// Widest accumulator accepted (keeps files, and a bad header's claims, bounded).
pub(super) const MAX_L1: usize = 2048;
/// Most output buckets accepted (more than the 31 piece counts is useless).
pub(super) const MAX_OUTPUT_BUCKETS: usize = 16;
/// Hidden layer sizes are multiples of this (whole SIMD blocks of the
/// second hidden layer's input) ...
pub(super) const HIDDEN_STEP: usize = 8;
/// ... up to this (a byte in the header; wider would cost more than it can give).
pub(super) const MAX_HIDDEN: usize = 64;

/// The shape of a network.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Arch {
    pub features: FeatureSet,
    /// Accumulator units per perspective.
    pub l1: usize,
    /// Output buckets, chosen by piece count (`features::output_bucket`).
    /// With hidden layers each bucket has its own stack of them.
    pub output_buckets: usize,
    /// Sizes of the two hidden layers after the accumulator (`[0, 0]`: none,
    /// the accumulator feeds one output per bucket, version 1 files).
    pub hidden: [usize; 2],
    /// With hidden layers: the accumulator also feeds, through SCReLU, one
    /// output per bucket as a network without them does (the skip path),
    /// added to the hidden layers' output (version 3 files).
    pub skip: bool,
    /// Units per perspective of the side accumulator of threat squares
    /// (`side`; 0: none), whose SCReLU output adds to the first layer's
    /// (version 4 files, only without hidden layers).
    pub side: usize,
}

impl Arch {
    /// Net 2's architecture: 1260 piece-square inputs, 256 units, one output.
    pub const NET2: Arch = Arch {
        features: FeatureSet::PieceSquare,
        l1: 256,
        output_buckets: 1,
        hidden: [0, 0],
        skip: false,
        side: 0,
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
            hidden: [0, 0],
            skip: false,
            side: 0,
        })
    }

    /// This architecture with hidden layers of `h1` and `h2` units after
    /// the accumulator (both 0: none), if the engine supports them.
    pub fn with_hidden(self, h1: usize, h2: usize) -> Result<Arch, NnueError> {
        let ok = |h: usize| h > 0 && h.is_multiple_of(HIDDEN_STEP) && h <= MAX_HIDDEN;
        if !(h1 == 0 && h2 == 0) {
            for (what, h) in [
                ("first hidden layer size", h1),
                ("second hidden layer size", h2),
            ] {
                if !ok(h) {
                    return Err(NnueError::Unsupported {
                        what,
                        found: h as u64,
                        allowed: "a multiple of 8 from 8 to 64",
                    });
                }
            }
        }
        if h1 != 0 && self.side != 0 {
            return Err(NnueError::Unsupported {
                what: "hidden layers beside threat squares",
                found: h1 as u64,
                allowed: "none: the side accumulator is for networks without hidden layers",
            });
        }
        Ok(Arch {
            hidden: [h1, h2],
            skip: self.skip && h1 != 0,
            ..self
        })
    }

    /// This architecture (which must have no hidden layers) with a side
    /// accumulator of `width` units of threat squares (0: none).
    pub fn with_side(self, width: usize) -> Result<Arch, NnueError> {
        if width != 0 && (!width.is_multiple_of(SIDE_STEP) || width > MAX_SIDE) {
            return Err(NnueError::Unsupported {
                what: "threat-square width",
                found: width as u64,
                allowed: "a multiple of 16 from 16 to 64",
            });
        }
        if width != 0 && self.has_hidden() {
            return Err(NnueError::Unsupported {
                what: "threat squares beside hidden layers",
                found: width as u64,
                allowed: "none: the side accumulator is for networks without hidden layers",
            });
        }
        Ok(Arch {
            side: width,
            ..self
        })
    }

    /// This architecture (which must have hidden layers) with the skip
    /// path beside them.
    pub fn with_skip(self) -> Result<Arch, NnueError> {
        if !self.has_hidden() {
            return Err(NnueError::Unsupported {
                what: "skip path without hidden layers",
                found: 0,
                allowed: "hidden layers beside it",
            });
        }
        Ok(Arch { skip: true, ..self })
    }

    /// Whether the accumulator feeds hidden layers.
    #[inline(always)]
    pub const fn has_hidden(&self) -> bool {
        self.hidden[0] != 0
    }

    /// The file format version of this architecture.
    pub const fn version(&self) -> u16 {
        if self.side != 0 {
            VERSION_SIDE
        } else if self.skip {
            VERSION_SKIP
        } else if self.has_hidden() {
            VERSION_HIDDEN
        } else {
            VERSION
        }
    }

    /// `i16` values of one output bucket's layers after the accumulator:
    /// with hidden layers `H1 × L1 + H1 + H2 × H1 + H2 + H2 + 1` (and
    /// `2·L1 + 1` more with the skip path), else `2·L1 + 1`.
    pub const fn stack_values(&self) -> usize {
        let [h1, h2] = self.hidden;
        let screlu = 2 * self.l1 + 1;
        if self.has_hidden() {
            h1 * self.l1 + h1 + h2 * h1 + h2 + h2 + 1 + if self.skip { screlu } else { 0 }
        } else {
            screlu
        }
    }

    /// Inputs per perspective.
    pub fn inputs(&self) -> usize {
        self.features.inputs()
    }

    /// `i16` values of the side accumulator and its output: its rows, its
    /// biases and per bucket `2 · side` output weights (0 without it).
    pub const fn side_values(&self) -> usize {
        self.side * (SIDE_INPUTS + 1 + 2 * self.output_buckets)
    }

    /// Number of `i16` values in the file's payload.
    pub fn payload_values(&self) -> usize {
        let (l1, b) = (self.l1, self.output_buckets);
        self.inputs() * l1 + l1 + b * self.stack_values() + self.side_values()
    }

    /// Length of the payload in bytes.
    pub fn payload_len(&self) -> usize {
        2 * self.payload_values()
    }

    /// Length of the network file.
    pub fn file_len(&self) -> usize {
        HEADER_LEN + self.payload_len()
    }

    /// The longest file of any supported architecture.
    pub fn max_file_len() -> usize {
        // The widest feature set, without and with the deepest hidden layers.
        let features = FeatureSet::ALL
            .into_iter()
            .max_by_key(|f| f.inputs())
            .unwrap_or(FeatureSet::PieceSquare);
        let widest = Arch {
            features,
            l1: MAX_L1,
            output_buckets: MAX_OUTPUT_BUCKETS,
            hidden: [0, 0],
            skip: false,
            side: 0,
        };
        let deepest = Arch {
            hidden: [MAX_HIDDEN, MAX_HIDDEN],
            skip: true,
            ..widest
        };
        let beside = Arch {
            side: MAX_SIDE,
            ..widest
        };
        let (a, b, c) = (widest.file_len(), deepest.file_len(), beside.file_len());
        let ab = if a > b { a } else { b };
        if ab > c { ab } else { c }
    }
}

/// `kingbucket6 (7560 inputs) x 512 -> 8 output buckets`; with hidden
/// layers `psq (1260 inputs) x 1024 -> 16 -> 32 -> 8 output buckets`, and
/// `... -> 16 -> 32 (+ skip) -> 8 output buckets` with the skip path.
impl fmt::Display for Arch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({} inputs) x {} ",
            self.features,
            self.inputs(),
            self.l1
        )?;
        if self.side != 0 {
            write!(
                f,
                "+ threat squares ({SIDE_INPUTS} inputs) x {} ",
                self.side
            )?;
        }
        write!(f, "-> ")?;
        if self.has_hidden() {
            write!(f, "{} -> {} ", self.hidden[0], self.hidden[1])?;
            write!(f, "{}-> ", if self.skip { "(+ skip) " } else { "" })?;
        }
        write!(
            f,
            "{} output bucket{}",
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
    #[error(
        "network file version {found} is not supported (this engine reads version {VERSION}, \
         {VERSION_HIDDEN} for nets with hidden layers, {VERSION_SKIP} for hidden layers with \
         a skip path and {VERSION_SIDE} for threat squares)"
    )]
    UnsupportedVersion { found: u16 },
    #[error(
        "network feature set {found} is unknown (this engine reads {})",
        FeatureSet::known()
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
    /// A network that cannot be grown exactly into the shape asked for
    /// (`grow`).
    #[error("cannot grow {from} into {to} exactly: {why}")]
    Growth {
        from: String,
        to: String,
        why: String,
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
        // With hidden layers the largest: 25,200 inputs x 2048, then 64
        // and 64 hidden units per bucket and the skip path, about 108 MB.
        let widest = Arch::new(FeatureSet::KingBucket6Threats, MAX_L1, MAX_OUTPUT_BUCKETS).unwrap();
        let deepest = widest
            .with_hidden(MAX_HIDDEN, MAX_HIDDEN)
            .and_then(|a| a.with_skip())
            .unwrap();
        assert!(deepest.file_len() > widest.file_len());
        // Threat squares 64 wide beside the widest first layer, about 116 MB.
        let beside = widest.with_side(MAX_SIDE).unwrap();
        assert!(beside.file_len() > deepest.file_len());
        assert_eq!(Arch::max_file_len(), beside.file_len());
        assert!(Arch::max_file_len() < 128 << 20);
        let t = Arch::new(FeatureSet::PieceSquareThreats, 512, 8).unwrap();
        assert_eq!(
            t.to_string(),
            "psq+threats (18900 inputs) x 512 -> 8 output buckets"
        );
    }

    #[test]
    fn hidden_layers() {
        let a = Arch::new(FeatureSet::PieceSquare, 1024, 8).unwrap();
        assert_eq!(a.with_hidden(0, 0).unwrap(), a);
        assert_eq!(a.version(), VERSION);
        let h = a.with_hidden(16, 32).unwrap();
        assert_eq!(h.version(), VERSION_HIDDEN);
        assert_eq!(
            h.payload_values(),
            1260 * 1024 + 1024 + 8 * (16 * 1024 + 16 + 32 * 16 + 32 + 32 + 1)
        );
        assert_eq!(
            h.to_string(),
            "psq (1260 inputs) x 1024 -> 16 -> 32 -> 8 output buckets"
        );
        for (h1, h2) in [(16, 0), (0, 32), (12, 32), (16, 72)] {
            let e = a.with_hidden(h1, h2).unwrap_err();
            assert!(e.to_string().contains("hidden layer size"), "{e}");
        }
        // The skip path: the version 1 output layer beside the stack.
        assert!(a.with_skip().is_err());
        let s = h.with_skip().unwrap();
        assert_eq!(s.version(), VERSION_SKIP);
        assert_eq!(s.payload_values(), h.payload_values() + 8 * (2 * 1024 + 1));
        assert_eq!(
            s.to_string(),
            "psq (1260 inputs) x 1024 -> 16 -> 32 (+ skip) -> 8 output buckets"
        );
        assert_eq!(s.with_hidden(0, 0).unwrap(), a);
    }
}
