//! The quantised network and its file format.
//!
//! # File format (versions 1, 2 and 3), all numbers little-endian
//!
//! | bytes   | field                                                  |
//! |---------|--------------------------------------------------------|
//! | 0..8    | magic `JJNNUE\0\0`                                     |
//! | 8..10   | `u16` format version: 1 without hidden layers, 2 with, 3 with them and a skip path |
//! | 10..12  | `u16` feature set: 0 = `psq`, 1 = `kingbucket6`, 2 = `psq+threats`, 3 = `kingbucket6+threats`, 4 = `kingbucket9`, 5 = `kingbucket3` (see `features`) |
//! | 12..16  | `u32` inputs per perspective (1260, 7560, 18900, 25200 or 11340: the feature set's) |
//! | 16..20  | `u32` L1, accumulator units per perspective (64..=2048, a multiple of 64) |
//! | 20..24  | `u32` output buckets (1..=16)                          |
//! | 24..26  | `u16` QA · 26..28 `u16` QB · 28..30 `u16` SCALE        |
//! | 30, 31  | version 1: reserved, 0; versions 2 and 3: `u8` H1 and `u8` H2, the hidden layer sizes (8..=64, multiples of 8); version 4: `u8` the side accumulator's width (16..=64, a multiple of 16), then 0 |
//! | 32..40  | `u64` payload length in bytes                          |
//! | 40..48  | `u64` FNV-1a 64-bit hash of the payload                |
//! | 48..    | payload: `i16` values                                  |
//!
//! The payload, in order: first-layer weights, feature-major (`inputs × L1`:
//! the L1 weights of feature 0, then of feature 1, ...; a threat set's
//! threat rows last, each weight within ±`MAX_THREAT_WEIGHT`); first-layer biases
//! (`L1`); then, version 1, output weights per bucket (`buckets × 2·L1`:
//! the side to move's half, then the other side's) and output biases
//! (`buckets`); version 2, per bucket and block after block: hidden-layer-1
//! weights (`buckets × H1 × L1`, output-major: the L1 weights of unit 0,
//! then of unit 1, ...), its biases (`buckets × H1`), hidden-layer-2
//! weights (`buckets × H2 × H1`), its biases (`buckets × H2`), output
//! weights (`buckets × H2`) and output biases (`buckets`). The hidden
//! layers' quantisation is fixed by the version (see `nnue::stack`).
//! Version 3 is version 2 followed by a version 1 output layer, the skip
//! path: its weights (`buckets × 2·L1`) and biases (`buckets`), evaluated
//! as in version 1 and added to the hidden layers' evaluation. A net
//! without hidden layers grows into one with them exactly by keeping its
//! output layer as the skip path, the hidden layers' output at zero.
//! Any feature set may have hidden layers: the threat inputs and the
//! hidden layers are independent of each other. Version 4 is version 1
//! followed by the side accumulator of threat squares (`side`): its rows
//! (`SIDE_INPUTS × side`, input-major), its biases (`side`) and its output
//! weights per bucket (`buckets × 2·side`, the side to move's half first),
//! all within ±`MAX_L1_WEIGHT` but the output weights (±`MAX_OUT_WEIGHT`).
//!
//! The header chooses the architecture ([`Arch`]): the feature set, L1,
//! the bucket count and the hidden sizes may be anything the engine
//! supports, and the inputs and the payload length must be what those
//! imply, so a file is never read with the wrong shape. The quantisation
//! constants must be the engine's. An engine older than version 2 refuses
//! a file with hidden layers by its version.

use super::arch::{Arch, NnueError};
use super::features::{FeatureSet, InputBlock};
use super::quant::{MAX_HIDDEN_WEIGHT, MAX_L1_WEIGHT, MAX_OUT_WEIGHT, QA, QB, SCALE};
use super::side::{SIDE_INPUTS, SideWeights};
use crate::large_pages::LargeBuf;
use std::path::Path;
use xiangqi::rng::{GAMMA, SplitMix64};

pub(super) use super::arch::{
    HEADER_LEN, MAGIC, VERSION, VERSION_HIDDEN, VERSION_SIDE, VERSION_SKIP,
};

/// A quantised network (see the module docs of `nnue` for the arithmetic).
/// Every instance satisfies the weight limits, so evaluation never overflows.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    arch: Arch,
    /// `inputs × L1`, feature-major.
    /// In huge pages where possible: evaluation reads rows of it at random.
    l1_weights: LargeBuf<i16>,
    l1_bias: Box<[i16]>,
    /// Hidden layers 1 and 2 (empty without): weights `buckets × H1 × L1`
    /// and `buckets × H2 × H1`, output-major; biases `buckets × H`.
    hidden_weights: [Box<[i16]>; 2],
    hidden_bias: [Box<[i16]>; 2],
    /// Hidden layer 1's weights again as `i8` (what the evaluation reads:
    /// half the bytes per evaluation, and AVX2's byte multiply-add).
    hidden1_i8: Box<[i8]>,
    /// `buckets × 2·L1`, or `buckets × H2` with hidden layers.
    out_weights: Box<[i16]>,
    out_bias: Box<[i16]>,
    /// The skip path's output layer (`Arch::skip`; empty without):
    /// `buckets × 2·L1` and `buckets`, as `out_weights` of a version 1 net.
    skip_weights: Box<[i16]>,
    skip_bias: Box<[i16]>,
    /// The side accumulator of threat squares (`Arch::side`; empty
    /// without): rows `SIDE_INPUTS × side`, biases `side`, output weights
    /// `buckets × 2·side`. The rows (3 MiB for 16 units, read at random)
    /// in large pages where the system has them: `bench` with a grown
    /// 16-unit net 1.5 % faster than in a `Box` (2026-12-08 note).
    side_rows: LargeBuf<i16>,
    side_bias: Box<[i16]>,
    side_out: Box<[i16]>,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let bytes = self.to_bytes();
        write!(
            f,
            "Network {{ {}, payload hash {:#018x} }}",
            self.arch,
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
    /// Build a network of architecture `arch` (without hidden layers) from
    /// its four parameter blocks, laid out as in the file's payload. Checks
    /// the lengths and the weight limits.
    pub fn new(
        arch: Arch,
        l1_weights: &[i16],
        l1_bias: &[i16],
        out_weights: &[i16],
        out_bias: &[i16],
    ) -> Result<Network, NnueError> {
        Network::from_blocks(arch, &[l1_weights, l1_bias, out_weights, out_bias])
    }

    /// Build a network of architecture `arch` from its parameter blocks in
    /// the payload's order: four without hidden layers (first-layer
    /// weights and biases, output weights and biases), eight with them
    /// (first-layer weights and biases, hidden-1 weights and biases,
    /// hidden-2 weights and biases, output weights and biases), ten with
    /// the skip path (its output weights and biases last), seven with the
    /// side accumulator (its rows, biases and output weights after the
    /// four). Checks the lengths and the weight limits.
    pub fn from_blocks(arch: Arch, blocks: &[&[i16]]) -> Result<Network, NnueError> {
        let checked = Arch::new(arch.features, arch.l1, arch.output_buckets)?
            .with_hidden(arch.hidden[0], arch.hidden[1])?;
        let arch = if arch.skip {
            checked.with_skip()?
        } else {
            checked
        }
        .with_side(arch.side)?;
        let (l1, buckets, [h1, h2]) = (arch.l1, arch.output_buckets, arch.hidden);
        let mut expected: Vec<(&'static str, usize)> = if arch.has_hidden() {
            vec![
                ("first-layer weights", arch.inputs() * l1),
                ("first-layer biases", l1),
                ("hidden-layer-1 weights", buckets * h1 * l1),
                ("hidden-layer-1 biases", buckets * h1),
                ("hidden-layer-2 weights", buckets * h2 * h1),
                ("hidden-layer-2 biases", buckets * h2),
                ("output weights", buckets * h2),
                ("output biases", buckets),
            ]
        } else {
            vec![
                ("first-layer weights", arch.inputs() * l1),
                ("first-layer biases", l1),
                ("output weights", buckets * 2 * l1),
                ("output biases", buckets),
            ]
        };
        if arch.skip {
            expected.extend([
                ("skip output weights", buckets * 2 * l1),
                ("skip output biases", buckets),
            ]);
        }
        let side = arch.side;
        if side != 0 {
            expected.extend([
                ("threat-square weights", SIDE_INPUTS * side),
                ("threat-square biases", side),
                ("threat-square output weights", buckets * 2 * side),
            ]);
        }
        if blocks.len() != expected.len() {
            return Err(NnueError::Shape {
                what: "parameter block list",
                expected: expected.len(),
                found: blocks.len(),
            });
        }
        for (block, &(what, len)) in blocks.iter().zip(&expected) {
            check_len(what, block, len)?;
        }
        // Each input block's rows have the block's own limit: as many of
        // them as can be active at once must fit an `i16`.
        for (at, block) in arch.features.placed_blocks() {
            let rows = &blocks[0][at * l1..(at + block.size()) * l1];
            check_range(block.rows_name(), rows, block.weight_bound())?;
        }
        check_range("first-layer biases", blocks[1], MAX_L1_WEIGHT)?;
        let empty: Box<[i16]> = Box::new([]);
        let (hidden_weights, hidden_bias, out) = if arch.has_hidden() {
            // Hidden weights are int8 (kept as i16 for the multiply-adds);
            // biases and output weights may be any i16 (see `stack`).
            check_range("hidden-layer-1 weights", blocks[2], MAX_HIDDEN_WEIGHT)?;
            check_range("hidden-layer-2 weights", blocks[4], MAX_HIDDEN_WEIGHT)?;
            (
                [blocks[2].into(), blocks[4].into()],
                [blocks[3].into(), blocks[5].into()],
                6,
            )
        } else {
            check_range("output weights", blocks[2], MAX_OUT_WEIGHT)?;
            (
                [empty.clone(), empty.clone()],
                [empty.clone(), empty.clone()],
                2,
            )
        };
        let (skip_weights, skip_bias) = if arch.skip {
            check_range("skip output weights", blocks[8], MAX_OUT_WEIGHT)?;
            (blocks[8].into(), blocks[9].into())
        } else {
            (empty.clone(), empty.clone())
        };
        let (side_rows, side_bias, side_out) = if side != 0 {
            check_range("threat-square weights", blocks[4], MAX_L1_WEIGHT)?;
            check_range("threat-square biases", blocks[5], MAX_L1_WEIGHT)?;
            check_range("threat-square output weights", blocks[6], MAX_OUT_WEIGHT)?;
            (
                LargeBuf::from_slice(blocks[4]),
                blocks[5].into(),
                blocks[6].into(),
            )
        } else {
            (LargeBuf::from_slice(&[]), empty.clone(), empty)
        };
        Ok(Network {
            arch,
            l1_weights: LargeBuf::from_slice(blocks[0]),
            l1_bias: blocks[1].into(),
            hidden1_i8: hidden_weights[0].iter().map(|&w| w as i8).collect(),
            hidden_weights,
            hidden_bias,
            out_weights: blocks[out].into(),
            out_bias: blocks[out + 1].into(),
            skip_weights,
            skip_bias,
            side_rows,
            side_bias,
            side_out,
        })
    }

    /// The parameter blocks in the payload's order (see [`Network::from_blocks`]).
    pub fn blocks(&self) -> Vec<&[i16]> {
        let mut v: Vec<&[i16]> = vec![&self.l1_weights, &self.l1_bias];
        if self.arch.has_hidden() {
            v.extend([
                &*self.hidden_weights[0],
                &self.hidden_bias[0],
                &self.hidden_weights[1],
                &self.hidden_bias[1],
            ]);
        }
        v.extend([&*self.out_weights, &self.out_bias]);
        if self.arch.skip {
            v.extend([&*self.skip_weights, &self.skip_bias]);
        }
        if self.arch.side != 0 {
            v.extend([&*self.side_rows, &self.side_bias, &self.side_out]);
        }
        v
    }

    /// A network of net 2's architecture with random weights within the
    /// limits, the same for the same seed. For tests and benchmarks: it
    /// does not play.
    pub fn random(seed: u64) -> Network {
        Network::random_arch(Arch::NET2, seed)
    }

    /// [`Network::random`] of architecture `arch`.
    pub fn random_arch(arch: Arch, seed: u64) -> Network {
        let mut rng = SplitMix64::new(seed ^ GAMMA);
        let mut next =
            |range: i32| ((rng.next_u64() >> 33) % (2 * range as u64 + 1)) as i32 - range;
        let (l1, buckets, [h1, h2]) = (arch.l1, arch.output_buckets, arch.hidden);
        let mut block = |n: usize, range: i32, offset: i32| -> Vec<i16> {
            (0..n).map(|_| (next(range) + offset) as i16).collect()
        };
        let l1w = block(arch.inputs() * l1, 48, 0);
        let l1b = block(l1, 64, 64);
        let mut blocks = if arch.has_hidden() {
            // Small hidden weights and centred biases keep the hidden units
            // inside their clipped range often enough to matter.
            vec![
                l1w,
                l1b,
                block(buckets * h1 * l1, 16, 0),
                block(buckets * h1, 4000, 0),
                block(buckets * h2 * h1, MAX_HIDDEN_WEIGHT as i32, 0),
                block(buckets * h2, 4000, 0),
                block(buckets * h2, 400, 0),
                block(buckets, 1000, 0),
            ]
        } else {
            vec![
                l1w,
                l1b,
                block(buckets * 2 * l1, MAX_OUT_WEIGHT as i32, 0),
                block(buckets, 1000, 0),
            ]
        };
        if arch.skip {
            blocks.push(block(buckets * 2 * l1, MAX_OUT_WEIGHT as i32, 0));
            blocks.push(block(buckets, 1000, 0));
        }
        if arch.side != 0 {
            // About half the side units above zero, as the first layer's.
            blocks.push(block(SIDE_INPUTS * arch.side, 48, 0));
            blocks.push(block(arch.side, 64, 64));
            blocks.push(block(buckets * 2 * arch.side, MAX_OUT_WEIGHT as i32, 0));
        }
        let blocks: Vec<&[i16]> = blocks.iter().map(|b| &b[..]).collect();
        Network::from_blocks(arch, &blocks).expect("random weights are within the limits")
    }

    /// The architecture.
    #[inline(always)]
    pub fn arch(&self) -> Arch {
        self.arch
    }

    /// The feature set.
    #[inline(always)]
    pub fn features(&self) -> FeatureSet {
        self.arch.features
    }

    /// Accumulator units per perspective.
    #[inline(always)]
    pub fn l1(&self) -> usize {
        self.arch.l1
    }

    /// The first-layer weights of input `feature` (`L1` values).
    #[inline(always)]
    pub fn l1_row(&self, feature: usize) -> &[i16] {
        let l1 = self.arch.l1;
        &self.l1_weights[feature * l1..(feature + 1) * l1]
    }

    /// The first-layer biases.
    #[inline(always)]
    pub fn l1_bias(&self) -> &[i16] {
        &self.l1_bias
    }

    /// The output weights of `bucket`: side to move's `L1`, then the
    /// other's; with hidden layers, the `H2` weights of the last one.
    #[inline(always)]
    pub fn output_weights(&self, bucket: usize) -> &[i16] {
        let w = if self.arch.has_hidden() {
            self.arch.hidden[1]
        } else {
            2 * self.arch.l1
        };
        &self.out_weights[bucket * w..(bucket + 1) * w]
    }

    /// Hidden layer `layer`'s (0 or 1) weights in `bucket`'s stack,
    /// output-major (`H × inputs`), and its biases (`H`). Empty slices for
    /// a network without hidden layers.
    #[inline(always)]
    pub fn hidden_layer(&self, layer: usize, bucket: usize) -> (&[i16], &[i16]) {
        let [h1, h2] = self.arch.hidden;
        let (outputs, inputs) = [(h1, self.arch.l1), (h2, h1)][layer];
        let w = &self.hidden_weights[layer];
        let b = &self.hidden_bias[layer];
        if w.is_empty() {
            return (w, b);
        }
        (
            &w[bucket * outputs * inputs..(bucket + 1) * outputs * inputs],
            &b[bucket * outputs..(bucket + 1) * outputs],
        )
    }

    /// Hidden layer 1's weights in `bucket`'s stack as `i8` (the values of
    /// [`Network::hidden_layer`]`(0, bucket).0`, all within ±127).
    #[inline(always)]
    pub fn hidden1_i8(&self, bucket: usize) -> &[i8] {
        let n = self.arch.hidden[0] * self.arch.l1;
        &self.hidden1_i8[bucket * n..(bucket + 1) * n]
    }

    /// The output bias of `bucket`, in units of `1 / (QA · QB)` (with
    /// hidden layers, of `1 / QO`: see `stack`).
    #[inline(always)]
    pub fn output_bias(&self, bucket: usize) -> i16 {
        self.out_bias[bucket]
    }

    /// The skip path's output weights of `bucket` (side to move's `L1`,
    /// then the other's) and its bias, in the units of a network without
    /// hidden layers; `None` without the skip path.
    #[inline(always)]
    pub fn skip_output(&self, bucket: usize) -> Option<(&[i16], i16)> {
        if !self.arch.skip {
            return None;
        }
        let w = 2 * self.arch.l1;
        Some((
            &self.skip_weights[bucket * w..(bucket + 1) * w],
            self.skip_bias[bucket],
        ))
    }

    /// The side accumulator's output weights of `bucket`: the side to
    /// move's `side` units, then the other's (empty without it).
    #[inline(always)]
    pub fn side_output(&self, bucket: usize) -> &[i16] {
        let w = 2 * self.arch.side;
        &self.side_out[bucket * w..(bucket + 1) * w]
    }

    /// Length of this network's file.
    pub fn file_len(&self) -> usize {
        self.arch.file_len()
    }

    /// The network file: header and payload.
    pub fn to_bytes(&self) -> Vec<u8> {
        let payload_len = self.arch.payload_len();
        let mut payload = Vec::with_capacity(payload_len);
        for block in self.blocks() {
            for v in block.iter() {
                payload.extend_from_slice(&v.to_le_bytes());
            }
        }
        debug_assert_eq!(payload.len(), payload_len);
        let mut out = Vec::with_capacity(HEADER_LEN + payload_len);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&self.arch.version().to_le_bytes());
        out.extend_from_slice(&self.arch.features.id().to_le_bytes());
        out.extend_from_slice(&(self.arch.inputs() as u32).to_le_bytes());
        out.extend_from_slice(&(self.arch.l1 as u32).to_le_bytes());
        out.extend_from_slice(&(self.arch.output_buckets as u32).to_le_bytes());
        out.extend_from_slice(&(QA as u16).to_le_bytes());
        out.extend_from_slice(&(QB as u16).to_le_bytes());
        out.extend_from_slice(&(SCALE as u16).to_le_bytes());
        // Zero in version 1 (reserved); the hidden sizes in versions 2 and
        // 3; the side width and 0 in version 4.
        let sizes = match self.arch.side {
            0 => [self.arch.hidden[0] as u8, self.arch.hidden[1] as u8],
            w => [w as u8, 0],
        };
        out.extend_from_slice(&sizes);
        out.extend_from_slice(&(payload_len as u64).to_le_bytes());
        out.extend_from_slice(&fnv1a64(&payload).to_le_bytes());
        debug_assert_eq!(out.len(), HEADER_LEN);
        out.extend_from_slice(&payload);
        out
    }

    /// The architecture a header names, after checking every header field
    /// against the engine and against each other.
    fn read_header(h: &[u8]) -> Result<Arch, NnueError> {
        let u16_at = |i: usize| u16::from_le_bytes([h[i], h[i + 1]]);
        let u32_at = |i: usize| u32::from_le_bytes([h[i], h[i + 1], h[i + 2], h[i + 3]]) as u64;
        let version = u16_at(8);
        if ![VERSION, VERSION_HIDDEN, VERSION_SKIP, VERSION_SIDE].contains(&version) {
            return Err(NnueError::UnsupportedVersion { found: version });
        }
        let features = FeatureSet::from_id(u16_at(10))
            .ok_or(NnueError::UnknownFeatureSet { found: u16_at(10) })?;
        for (what, expected, found) in [
            ("input count", features.inputs() as u64, u32_at(12)),
            ("QA", QA as u64, u16_at(24) as u64),
            ("QB", QB as u64, u16_at(26) as u64),
            ("SCALE", SCALE as u64, u16_at(28) as u64),
        ] {
            if expected != found {
                return Err(NnueError::Dimension {
                    what,
                    expected,
                    found,
                });
            }
        }
        // Anything beyond the limits fails here, before it is multiplied.
        let l1 = usize::try_from(u32_at(16)).unwrap_or(usize::MAX);
        let buckets = usize::try_from(u32_at(20)).unwrap_or(usize::MAX);
        let arch = Arch::new(features, l1, buckets)?;
        let arch = if version == VERSION {
            if u16_at(30) != 0 {
                return Err(NnueError::Dimension {
                    what: "reserved header field",
                    expected: 0,
                    found: u16_at(30) as u64,
                });
            }
            arch
        } else if version == VERSION_SIDE {
            if h[30] == 0 || h[31] != 0 {
                return Err(NnueError::Unsupported {
                    what: "threat-square width in a version 4 file",
                    found: u16_at(30) as u64,
                    allowed: "a width from 16 to 64, a multiple of 16 (byte 30), then 0",
                });
            }
            arch.with_side(h[30] as usize)?
        } else {
            let (h1, h2) = (h[30] as usize, h[31] as usize);
            if h1 == 0 || h2 == 0 {
                return Err(NnueError::Unsupported {
                    what: "hidden layer sizes in a version 2 or 3 file",
                    found: (h1 * 256 + h2) as u64,
                    allowed: "two sizes from 8 to 64, multiples of 8 (bytes 30 and 31)",
                });
            }
            let arch = arch.with_hidden(h1, h2)?;
            if version == VERSION_SKIP {
                arch.with_skip()?
            } else {
                arch
            }
        };
        let found = u64::from_le_bytes(h[32..40].try_into().expect("8 bytes"));
        if found != arch.payload_len() as u64 {
            return Err(NnueError::PayloadMismatch {
                arch: arch.to_string(),
                expected: arch.payload_len() as u64,
                found,
            });
        }
        Ok(arch)
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
        let arch = Network::read_header(h)?;
        let payload_len = arch.payload_len();
        if payload.len() < payload_len {
            return Err(NnueError::Truncated {
                expected: payload_len as u64,
                found: payload.len() as u64,
            });
        }
        if payload.len() > payload_len {
            return Err(NnueError::Oversized {
                extra: (payload.len() - payload_len) as u64,
            });
        }
        let expected = u64::from_le_bytes(h[40..48].try_into().expect("8 bytes"));
        let found = fnv1a64(payload);
        if found != expected {
            return Err(NnueError::Checksum { expected, found });
        }
        let values: Vec<i16> = payload
            .chunks_exact(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]))
            .collect();
        let (l1, b, [h1, h2]) = (arch.l1, arch.output_buckets, arch.hidden);
        let mut lens: Vec<usize> = if arch.has_hidden() {
            vec![
                arch.inputs() * l1,
                l1,
                b * h1 * l1,
                b * h1,
                b * h2 * h1,
                b * h2,
                b * h2,
                b,
            ]
        } else {
            vec![arch.inputs() * l1, l1, b * 2 * l1, b]
        };
        if arch.skip {
            lens.extend([b * 2 * l1, b]);
        }
        if arch.side != 0 {
            lens.extend([SIDE_INPUTS * arch.side, arch.side, b * 2 * arch.side]);
        }
        let mut rest = &values[..];
        let mut blocks = Vec::with_capacity(lens.len());
        for &n in &lens {
            let (block, tail) = rest.split_at(n);
            blocks.push(block);
            rest = tail;
        }
        Network::from_blocks(arch, &blocks)
    }

    /// Read a network file from disk. Only a regular file is opened (a
    /// FIFO would block, a device such as `/dev/zero` would never end), and
    /// at most one byte more than the largest network is read, however
    /// large the file is.
    pub fn load(path: impl AsRef<Path>) -> Result<Network, NnueError> {
        let path = path.as_ref();
        let io = |source| NnueError::Io {
            path: path.display().to_string(),
            source,
        };
        let limit = Arch::max_file_len() as u64;
        let bytes = crate::files::read_regular_file(path, limit).map_err(io)?;
        match Network::from_bytes(&bytes) {
            // Maybe not all was read: count the excess on disk.
            Err(NnueError::Oversized { extra }) => {
                let expected = bytes.len() as u64 - extra;
                Err(NnueError::Oversized {
                    extra: std::fs::metadata(path)
                        .map_or(extra, |m| m.len().saturating_sub(expected)),
                })
            }
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

impl SideWeights for Network {
    #[inline(always)]
    fn side_width(&self) -> usize {
        self.arch.side
    }

    #[inline(always)]
    fn side_row(&self, index: usize) -> &[i16] {
        let w = self.arch.side;
        &self.side_rows[index * w..(index + 1) * w]
    }

    #[inline(always)]
    fn side_bias(&self) -> &[i16] {
        &self.side_bias
    }
}

#[cfg(test)]
#[path = "network_tests.rs"]
mod tests;
