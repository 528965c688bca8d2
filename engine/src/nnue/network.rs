//! The quantised network and its file format.
//!
//! # File format (version 1), all numbers little-endian
//!
//! | bytes   | field                                                  |
//! |---------|--------------------------------------------------------|
//! | 0..8    | magic `JJNNUE\0\0`                                     |
//! | 8..10   | `u16` format version (1)                               |
//! | 10..12  | `u16` feature set ([`FEATURE_SET_ID`], 0 = piece × square) |
//! | 12..16  | `u32` inputs per perspective (1260)                    |
//! | 16..20  | `u32` L1, accumulator units per perspective            |
//! | 20..24  | `u32` output buckets                                   |
//! | 24..26  | `u16` QA · 26..28 `u16` QB · 28..30 `u16` SCALE        |
//! | 30..32  | reserved, 0                                            |
//! | 32..40  | `u64` payload length in bytes                          |
//! | 40..48  | `u64` FNV-1a 64-bit hash of the payload                |
//! | 48..    | payload: `i16` values                                  |
//!
//! The payload, in order: first-layer weights, feature-major (`inputs × L1`:
//! the L1 weights of feature 0, then of feature 1, ...); first-layer biases
//! (`L1`); output weights per bucket (`buckets × 2·L1`: the side to move's
//! half, then the other side's); output biases (`buckets`). Every header
//! field must match what this engine was built with: a network is only ever
//! read by the architecture that wrote it.

use super::features::{FEATURE_SET_ID, FEATURES};
use super::{L1, MAX_L1_WEIGHT, MAX_OUT_WEIGHT, OUTPUT_BUCKETS, QA, QB, SCALE};
use std::path::Path;

/// The first bytes of every network file.
pub const MAGIC: [u8; 8] = *b"JJNNUE\0\0";
/// The format version this engine reads and writes.
pub const VERSION: u16 = 1;
/// Length of the header before the payload.
pub const HEADER_LEN: usize = 48;
/// Number of `i16` values in the payload.
pub const PAYLOAD_VALUES: usize = FEATURES * L1 + L1 + OUTPUT_BUCKETS * 2 * L1 + OUTPUT_BUCKETS;
/// Length of the payload in bytes.
pub const PAYLOAD_LEN: usize = 2 * PAYLOAD_VALUES;
/// Length of every network file this engine reads.
pub const FILE_LEN: usize = HEADER_LEN + PAYLOAD_LEN;

/// Why a network could not be built or read.
#[derive(Debug, thiserror::Error)]
pub enum NnueError {
    #[error("network file too short: {found} bytes, the header alone is {HEADER_LEN}")]
    TooShort { found: usize },
    #[error("not a Jiangjun network file: this is {kind}")]
    BadMagic { kind: String },
    #[error("network file version {found} is not supported (this engine reads version {VERSION})")]
    UnsupportedVersion { found: u16 },
    #[error("network {what} is {found}, but this engine is built for {expected}")]
    Dimension {
        what: &'static str,
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

/// One accumulator-sized row of `i16`, aligned for SIMD loads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Row(pub [i16; L1]);

/// The output weights of one bucket: side to move's half, then the other's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
struct OutRow([i16; 2 * L1]);

/// A quantised network (see the module docs of `nnue` for the arithmetic).
/// Every instance satisfies the weight limits, so evaluation never overflows.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    l1_weights: Box<[Row]>,
    l1_bias: Row,
    out_weights: Box<[OutRow]>,
    out_bias: [i16; OUTPUT_BUCKETS],
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let bytes = self.to_bytes();
        write!(
            f,
            "Network {{ {FEATURES} x {L1} -> {OUTPUT_BUCKETS} bucket(s), payload hash {:#018x} }}",
            u64::from_le_bytes(bytes[40..48].try_into().expect("8 bytes"))
        )
    }
}

/// FNV-1a, 64 bits: the payload checksum.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

fn check_range(what: &'static str, values: &[i16], limit: i16) -> Result<(), NnueError> {
    match values.iter().position(|v| v.unsigned_abs() > limit as u16) {
        Some(index) => Err(NnueError::OutOfRange {
            what,
            index,
            value: values[index],
            limit,
        }),
        None => Ok(()),
    }
}

fn check_len(what: &'static str, values: &[i16], expected: usize) -> Result<(), NnueError> {
    if values.len() == expected {
        Ok(())
    } else {
        Err(NnueError::Shape {
            what,
            expected,
            found: values.len(),
        })
    }
}

impl Network {
    /// Build a network from its four parameter blocks, laid out as in the
    /// file's payload. Checks the lengths and the weight limits.
    pub fn new(
        l1_weights: &[i16],
        l1_bias: &[i16],
        out_weights: &[i16],
        out_bias: &[i16],
    ) -> Result<Network, NnueError> {
        check_len("first-layer weights", l1_weights, FEATURES * L1)?;
        check_len("first-layer biases", l1_bias, L1)?;
        check_len("output weights", out_weights, OUTPUT_BUCKETS * 2 * L1)?;
        check_len("output biases", out_bias, OUTPUT_BUCKETS)?;
        check_range("first-layer weights", l1_weights, MAX_L1_WEIGHT)?;
        check_range("first-layer biases", l1_bias, MAX_L1_WEIGHT)?;
        check_range("output weights", out_weights, MAX_OUT_WEIGHT)?;
        let mut rows = vec![Row([0; L1]); FEATURES].into_boxed_slice();
        for (row, w) in rows.iter_mut().zip(l1_weights.chunks_exact(L1)) {
            row.0.copy_from_slice(w);
        }
        let mut bias = Row([0; L1]);
        bias.0.copy_from_slice(l1_bias);
        let mut outs = vec![OutRow([0; 2 * L1]); OUTPUT_BUCKETS].into_boxed_slice();
        for (row, w) in outs.iter_mut().zip(out_weights.chunks_exact(2 * L1)) {
            row.0.copy_from_slice(w);
        }
        let mut ob = [0; OUTPUT_BUCKETS];
        ob.copy_from_slice(out_bias);
        Ok(Network {
            l1_weights: rows,
            l1_bias: bias,
            out_weights: outs,
            out_bias: ob,
        })
    }

    /// A network of random weights within the limits, the same for the same
    /// seed. For tests and benchmarks: it does not play.
    pub fn random(seed: u64) -> Network {
        let mut s = seed ^ 0x9e37_79b9_7f4a_7c15;
        let mut next = |range: i32| {
            // SplitMix64.
            s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^= z >> 31;
            ((z >> 33) % (2 * range as u64 + 1)) as i32 - range
        };
        let l1w: Vec<i16> = (0..FEATURES * L1).map(|_| next(48) as i16).collect();
        let l1b: Vec<i16> = (0..L1).map(|_| (next(64) + 64) as i16).collect();
        let ow: Vec<i16> = (0..OUTPUT_BUCKETS * 2 * L1)
            .map(|_| next(MAX_OUT_WEIGHT as i32) as i16)
            .collect();
        let ob: Vec<i16> = (0..OUTPUT_BUCKETS).map(|_| next(1000) as i16).collect();
        Network::new(&l1w, &l1b, &ow, &ob).expect("random weights are within the limits")
    }

    /// The first-layer weights of input `feature`.
    #[inline(always)]
    pub fn l1_row(&self, feature: usize) -> &[i16; L1] {
        &self.l1_weights[feature].0
    }

    /// The first-layer biases.
    #[inline(always)]
    pub fn l1_bias(&self) -> &[i16; L1] {
        &self.l1_bias.0
    }

    /// The output weights of `bucket`: side to move's `L1`, then the other's.
    #[inline(always)]
    pub fn output_weights(&self, bucket: usize) -> &[i16; 2 * L1] {
        &self.out_weights[bucket].0
    }

    /// The output bias of `bucket`, in units of `1 / (QA · QB)`.
    #[inline(always)]
    pub fn output_bias(&self, bucket: usize) -> i16 {
        self.out_bias[bucket]
    }

    /// All parameters in payload order.
    fn values(&self) -> impl Iterator<Item = i16> + '_ {
        self.l1_weights
            .iter()
            .flat_map(|r| r.0.iter().copied())
            .chain(self.l1_bias.0.iter().copied())
            .chain(self.out_weights.iter().flat_map(|r| r.0.iter().copied()))
            .chain(self.out_bias.iter().copied())
    }

    /// The network file: header and payload.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut payload = Vec::with_capacity(PAYLOAD_LEN);
        for v in self.values() {
            payload.extend_from_slice(&v.to_le_bytes());
        }
        debug_assert_eq!(payload.len(), PAYLOAD_LEN);
        let mut out = Vec::with_capacity(HEADER_LEN + PAYLOAD_LEN);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&FEATURE_SET_ID.to_le_bytes());
        out.extend_from_slice(&(FEATURES as u32).to_le_bytes());
        out.extend_from_slice(&(L1 as u32).to_le_bytes());
        out.extend_from_slice(&(OUTPUT_BUCKETS as u32).to_le_bytes());
        out.extend_from_slice(&(QA as u16).to_le_bytes());
        out.extend_from_slice(&(QB as u16).to_le_bytes());
        out.extend_from_slice(&(SCALE as u16).to_le_bytes());
        out.extend_from_slice(&0u16.to_le_bytes());
        out.extend_from_slice(&(PAYLOAD_LEN as u64).to_le_bytes());
        out.extend_from_slice(&fnv1a64(&payload).to_le_bytes());
        debug_assert_eq!(out.len(), HEADER_LEN);
        out.extend_from_slice(&payload);
        out
    }

    /// Read a network file, checking every header field, the length, the
    /// checksum and the weight limits.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NnueError> {
        // What a file is, before whether it is long enough: a short book
        // is a book, not a short network.
        if bytes.len() >= MAGIC.len() && bytes[..MAGIC.len()] != MAGIC {
            return Err(NnueError::BadMagic {
                kind: file_kind(bytes),
            });
        }
        if bytes.len() < HEADER_LEN {
            return Err(NnueError::TooShort { found: bytes.len() });
        }
        let (h, payload) = bytes.split_at(HEADER_LEN);
        let u16_at = |i: usize| u16::from_le_bytes([h[i], h[i + 1]]) as u64;
        let u32_at = |i: usize| u32::from_le_bytes(h[i..i + 4].try_into().expect("4 bytes")) as u64;
        let u64_at = |i: usize| u64::from_le_bytes(h[i..i + 8].try_into().expect("8 bytes"));
        if u16_at(8) != VERSION as u64 {
            return Err(NnueError::UnsupportedVersion {
                found: u16_at(8) as u16,
            });
        }
        for (what, expected, found) in [
            ("feature set", FEATURE_SET_ID as u64, u16_at(10)),
            ("input count", FEATURES as u64, u32_at(12)),
            ("L1 size", L1 as u64, u32_at(16)),
            ("output bucket count", OUTPUT_BUCKETS as u64, u32_at(20)),
            ("QA", QA as u64, u16_at(24)),
            ("QB", QB as u64, u16_at(26)),
            ("SCALE", SCALE as u64, u16_at(28)),
            ("reserved header field", 0, u16_at(30)),
            ("payload length", PAYLOAD_LEN as u64, u64_at(32)),
        ] {
            if expected != found {
                return Err(NnueError::Dimension {
                    what,
                    expected,
                    found,
                });
            }
        }
        if payload.len() < PAYLOAD_LEN {
            return Err(NnueError::Truncated {
                expected: PAYLOAD_LEN as u64,
                found: payload.len() as u64,
            });
        }
        if payload.len() > PAYLOAD_LEN {
            return Err(NnueError::Oversized {
                extra: (payload.len() - PAYLOAD_LEN) as u64,
            });
        }
        let found = fnv1a64(payload);
        if found != u64_at(40) {
            return Err(NnueError::Checksum {
                expected: u64_at(40),
                found,
            });
        }
        let values: Vec<i16> = payload
            .chunks_exact(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]))
            .collect();
        let (l1w, rest) = values.split_at(FEATURES * L1);
        let (l1b, rest) = rest.split_at(L1);
        let (ow, ob) = rest.split_at(OUTPUT_BUCKETS * 2 * L1);
        Network::new(l1w, l1b, ow, ob)
    }

    /// Read a network file from disk. Only a regular file is opened (a
    /// FIFO would block, a device such as `/dev/zero` would never end), and
    /// at most one byte more than a network is read, however large it is.
    pub fn load(path: impl AsRef<Path>) -> Result<Network, NnueError> {
        let path = path.as_ref();
        let io = |source| NnueError::Io {
            path: path.display().to_string(),
            source,
        };
        let bytes = crate::files::read_regular_file(path, FILE_LEN as u64).map_err(io)?;
        match Network::from_bytes(&bytes) {
            // Only the first extra byte was read: count them all.
            Err(NnueError::Oversized { .. }) => Err(NnueError::Oversized {
                extra: std::fs::metadata(path)
                    .map_or(1, |m| m.len().saturating_sub(FILE_LEN as u64)),
            }),
            result => result,
        }
    }

    /// Write the network file to disk.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), NnueError> {
        let path = path.as_ref();
        std::fs::write(path, self.to_bytes()).map_err(|source| NnueError::Io {
            path: path.display().to_string(),
            source,
        })
    }
}

/// What a file that is not a network is, for the error that refuses it:
/// the project's other binary files by their magic, else text or unknown
/// bytes (shown as text or hex, never as a raw byte array).
fn file_kind(bytes: &[u8]) -> String {
    const KNOWN: [(&[u8], &str); 3] = [
        (
            b"JJCKPT",
            "a trainer checkpoint (JJCKPT): the trainer writes the network itself with --out",
        ),
        (b"JJDATA", "training data (JJDATA), not a network"),
        (b"JJBOOK", "an opening book (JJBOOK), not a network"),
    ];
    if let Some((_, kind)) = KNOWN.iter().find(|(magic, _)| bytes.starts_with(magic)) {
        return (*kind).to_string();
    }
    let head = &bytes[..bytes.len().min(16)];
    if head
        .iter()
        .all(|b| b.is_ascii_graphic() || *b == b' ' || b.is_ascii_whitespace())
    {
        let text: String = head.iter().map(|&b| b as char).collect();
        format!("a text file starting {:?}", text.trim_end())
    } else {
        let hex: Vec<String> = head.iter().take(8).map(|b| format!("{b:02x}")).collect();
        format!(
            "an unknown kind of file (its first bytes are {}; a network starts with JJNNUE)",
            hex.join(" ")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file() -> Vec<u8> {
        Network::random(3).to_bytes()
    }

    /// Rewrite the checksum after editing the payload.
    fn reseal(bytes: &mut [u8]) {
        let sum = fnv1a64(&bytes[HEADER_LEN..]);
        bytes[40..48].copy_from_slice(&sum.to_le_bytes());
    }

    #[test]
    fn round_trip() {
        let net = Network::random(3);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), HEADER_LEN + PAYLOAD_LEN);
        assert_eq!(&bytes[0..8], b"JJNNUE\0\0");
        let back = Network::from_bytes(&bytes).unwrap();
        assert_eq!(back, net);
        assert_eq!(back.to_bytes(), bytes);
        assert_ne!(Network::random(4), net);
    }

    #[test]
    fn rejects_short_files() {
        let e = Network::from_bytes(&file()[..20]).unwrap_err();
        assert!(matches!(e, NnueError::TooShort { found: 20 }), "{e}");
        assert!(e.to_string().contains("too short"));
    }

    #[test]
    fn rejects_wrong_magic() {
        let mut b = file();
        b[0] = b'X';
        let e = Network::from_bytes(&b).unwrap_err();
        assert!(matches!(e, NnueError::BadMagic { .. }), "{e}");
        assert!(e.to_string().contains("not a Jiangjun network file"));
        assert!(e.to_string().contains("unknown kind of file"), "{e}");
    }

    #[test]
    fn names_the_other_kinds_of_file() {
        for (bytes, want) in [
            (
                &b"JJCKPT\0\0 and more bytes of a checkpoint"[..],
                "trainer checkpoint",
            ),
            (&b"JJDATA\x01\0 records follow"[..], "training data"),
            (&b"JJBOOK1\0"[..], "opening book"),
            (
                &b"rnbakabnr/9/1c5c1 w"[..],
                "text file starting \"rnbakabnr/9/1c5c\"",
            ),
        ] {
            let e = Network::from_bytes(bytes).unwrap_err().to_string();
            assert!(e.contains(want), "{e}");
            assert!(!e.contains('['), "no raw byte arrays: {e}");
        }
    }

    #[test]
    fn rejects_other_versions() {
        let mut b = file();
        b[8..10].copy_from_slice(&2u16.to_le_bytes());
        let e = Network::from_bytes(&b).unwrap_err();
        assert!(
            matches!(e, NnueError::UnsupportedVersion { found: 2 }),
            "{e}"
        );
        assert!(e.to_string().contains("version 2"));
    }

    #[test]
    fn rejects_other_dimensions() {
        for (offset, what) in [
            (10, "feature set"),
            (12, "input count"),
            (16, "L1 size"),
            (20, "output bucket count"),
            (24, "QA"),
            (26, "QB"),
            (28, "SCALE"),
            (30, "reserved header field"),
            (32, "payload length"),
        ] {
            let mut b = file();
            b[offset] = b[offset].wrapping_add(1);
            let e = Network::from_bytes(&b).unwrap_err();
            match &e {
                NnueError::Dimension { what: w, .. } => assert_eq!(*w, what),
                other => panic!("{what}: {other}"),
            }
            assert!(e.to_string().contains("built for"), "{e}");
        }
        let mut b = file();
        b[16..20].copy_from_slice(&512u32.to_le_bytes());
        let e = Network::from_bytes(&b).unwrap_err().to_string();
        assert!(
            e.contains("L1 size is 512") && e.contains(&L1.to_string()),
            "{e}"
        );
    }

    #[test]
    fn rejects_truncated_and_oversized_files() {
        let b = file();
        let e = Network::from_bytes(&b[..b.len() - 1]).unwrap_err();
        assert!(matches!(e, NnueError::Truncated { .. }), "{e}");
        assert!(e.to_string().contains("truncated"));
        let e = Network::from_bytes(&b[..HEADER_LEN]).unwrap_err();
        assert!(matches!(e, NnueError::Truncated { found: 0, .. }), "{e}");
        let mut long = b.clone();
        long.extend_from_slice(&[0, 0, 0]);
        let e = Network::from_bytes(&long).unwrap_err();
        assert!(matches!(e, NnueError::Oversized { extra: 3 }), "{e}");
        assert!(e.to_string().contains("oversized"));
    }

    #[test]
    fn rejects_bad_checksums() {
        let mut b = file();
        let last = b.len() - 1;
        b[last] ^= 0x40;
        let e = Network::from_bytes(&b).unwrap_err();
        assert!(matches!(e, NnueError::Checksum { .. }), "{e}");
        assert!(e.to_string().contains("corrupt"));
    }

    #[test]
    fn rejects_weights_beyond_the_limits() {
        // A first-layer weight of 1000 (> 992), correctly checksummed.
        let mut b = file();
        b[HEADER_LEN..HEADER_LEN + 2].copy_from_slice(&1000i16.to_le_bytes());
        reseal(&mut b);
        let e = Network::from_bytes(&b).unwrap_err();
        assert!(
            matches!(
                e,
                NnueError::OutOfRange {
                    index: 0,
                    value: 1000,
                    ..
                }
            ),
            "{e}"
        );
        // An output weight of 129 (> 128).
        let mut b = file();
        let at = HEADER_LEN + 2 * (FEATURES * L1 + L1 + 5);
        b[at..at + 2].copy_from_slice(&129i16.to_le_bytes());
        reseal(&mut b);
        let e = Network::from_bytes(&b).unwrap_err().to_string();
        assert!(e.contains("output weights[5] = 129"), "{e}");
        b[at..at + 2].copy_from_slice(&(-128i16).to_le_bytes());
        reseal(&mut b);
        assert!(Network::from_bytes(&b).is_ok());
    }

    #[test]
    fn new_checks_lengths() {
        let e = Network::new(&[0; 3], &[0; L1], &[0; 2 * L1], &[0]).unwrap_err();
        assert!(matches!(e, NnueError::Shape { found: 3, .. }), "{e}");
    }

    #[test]
    fn load_and_save() {
        let dir = std::env::temp_dir().join(format!("jj-nnue-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("net.nnue");
        let net = Network::random(5);
        net.save(&path).unwrap();
        assert_eq!(Network::load(&path).unwrap(), net);
        let e = Network::load(dir.join("missing.nnue")).unwrap_err();
        assert!(e.to_string().contains("missing.nnue"), "{e}");
        // A directory or a device is refused before it is read.
        for other in [dir.clone(), "/dev/zero".into()] {
            if other.exists() {
                let e = Network::load(&other).unwrap_err().to_string();
                assert!(e.contains("not a regular file"), "{e}");
            }
        }
        // A long file is read only so far, but its excess is counted.
        let mut long = net.to_bytes();
        long.extend_from_slice(&[0; 1000]);
        let long_path = dir.join("long.nnue");
        std::fs::write(&long_path, &long).unwrap();
        let e = Network::load(&long_path).unwrap_err();
        assert!(matches!(e, NnueError::Oversized { extra: 1000 }), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
