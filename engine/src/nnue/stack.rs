//! The hidden layers after the accumulator ("layer stacks"), for networks
//! that have them (`Arch::hidden`, file version 2): one stack per output
//! bucket, chosen by piece count like the output of a network without them.
//!
//! ```text
//!   acc(stm), acc(other)          L1 i16 each, float 1.0 = QA = 255
//!     ──pairwise──▶ x             L1 values: for each perspective, unit j of
//!                                 its first half times unit j of its second,
//!                                 both clipped to [0, 1]; float 1.0 = 127
//!     ──affine, clipped ReLU──▶ y1   H1 values in [0, 1], 1.0 = 127
//!     ──affine, clipped ReLU──▶ y2   H2 values, the same
//!     ──affine──▶ out             eval = SCALE · out
//! ```
//!
//! The pairwise product (Stockfish's and Pikafish's choice since 2023)
//! halves what the first hidden layer reads, and gives a product of two
//! clipped units, as SCReLU's square does. All integer, exact:
//!
//! * `x = (c1 · c2 + 256) >> 9` with `c = clamp(A, 0, QA)`: at most
//!   `(255² + 256) / 512 = 127.5`, so 127, and `x ≈ 127 · x_float` (the
//!   scale is `255² / 512 ≈ 127.002`; the trainer's model uses 127);
//! * hidden layer: `y = clamp((b + Σ x · w + 32) >> 6, 0, 127)` with int8
//!   weights `w = round(64 · w_float)` (`|w| ≤ MAX_HIDDEN_WEIGHT = 127`,
//!   held as `i16` for the multiply-adds) and biases
//!   `b = round(127 · 64 · b_float)` in `i16`; the shifts round to
//!   nearest (ties up), as flooring would bias every activation; the sums
//!   stay below `2048 · 127 · 127 + 2^15 < 2^31`;
//! * output: `sum = Σ y · w + 127 · b` with `w = round(QO · w_float)` and
//!   `b = round(QO · b_float)`, both any `i16` (`64 · 127 · 2^15 < 2^31`),
//!   and **`eval = sum · SCALE / (127 · QO)`**, truncating toward zero.
//!
//! The loops are plain Rust over slices whose lengths the compiler knows
//! for the common L1 widths; [`simd::dispatch`](super::simd::dispatch)
//! compiles them for AVX2 when the CPU has it, and integer results do not
//! depend on the order of the sums, so the portable code gives the same
//! evaluation (tested).

use super::arch::{MAX_HIDDEN, MAX_L1};
use super::network::Network;
pub use super::quant::MAX_HIDDEN_WEIGHT;
use super::quant::{QA, SCALE};
use super::rows::width;

/// The hidden activations' 1.0.
pub const QACT: i32 = 127;
/// Right shift of the pairwise product: `QA² >> 9 = 127 = QACT`.
pub const PAIR_SHIFT: u32 = 9;
/// Added before that shift: rounding to nearest, not down (flooring every
/// activation biased the engine by up to 25 units against the float net).
const PAIR_ROUND: u16 = 1 << (PAIR_SHIFT - 1);
/// Hidden weights' scale, as a shift: float 1.0 = 64.
pub const HIDDEN_SHIFT: u32 = 6;
/// Added before the hidden layers' shift: rounding to nearest.
const HIDDEN_ROUND: i32 = 1 << (HIDDEN_SHIFT - 1);
/// Hidden weights' scale: float 1.0 = `QH`.
pub const QH: i32 = 1 << HIDDEN_SHIFT;
/// Output weights' and output bias' scale with hidden layers: float 1.0 = `QO`.
pub const QO: i32 = 256;

/// `x[j] = (clamp(a[j]) · clamp(a[j + L1/2]) + 256) >> 9` over one perspective.
#[inline(always)]
fn pairwise<const N: usize>(a: &[i16], x: &mut [u8]) {
    let n = width::<N>(a.len());
    let half = n / 2;
    let (lo, hi) = a[..n].split_at(half);
    let x = &mut x[..half];
    for j in 0..half {
        let c1 = lo[j].clamp(0, QA as i16) as u16;
        let c2 = hi[j].clamp(0, QA as i16) as u16;
        // Exact in u16: 255 · 255 + 256 < 2^16; rounded to nearest; ≤ 127.
        x[j] = ((c1 * c2 + PAIR_ROUND) >> PAIR_SHIFT) as u8;
    }
}

/// `out[o] = clamp((b[o] + Σ_j x[j] · w[o][j] + 32) >> 6, 0, 127)`, `w`
/// output-major, `N` the input count (0: `x.len()`).
#[inline(always)]
fn affine_crelu<const N: usize, X: Copy + Into<i32>, W: Copy + Into<i32>>(
    x: &[X],
    w: &[W],
    b: &[i16],
    out: &mut [u8],
) {
    let n = width::<N>(x.len());
    let x = &x[..n];
    for (o, y) in out.iter_mut().enumerate() {
        let row = &w[o * n..(o + 1) * n];
        let mut s = 0i32;
        for j in 0..n {
            s += x[j].into() * row[j].into();
        }
        *y = ((s + b[o] as i32 + HIDDEN_ROUND) >> HIDDEN_SHIFT).clamp(0, QACT) as u8;
    }
}

/// [`affine_crelu`] for the first hidden layer, the costly one
/// (`H1 × L1` multiply-adds): with AVX2's `vpmaddubsw` (32 byte products
/// summed in pairs into 16 `i16`, exact as `2 · 127 · 127 < 2^15`) and
/// `vpmaddwd` (into 8 `i32`), four output units at a time sharing each
/// load of `x`, when the CPU has AVX2; the portable loop otherwise. Both
/// compute the same integers.
#[inline(always)]
fn layer1(x: &[u8], w: &[i8], b: &[i16], out: &mut [u8]) {
    #[cfg(target_arch = "x86_64")]
    {
        if x.len().is_multiple_of(32)
            && out.len().is_multiple_of(4)
            && super::simd::kernel() == "avx2"
        {
            // SAFETY: the CPU supports AVX2 (just checked); the lengths are
            // whole blocks of 32 inputs and 4 outputs, as `layer1_avx2` needs.
            unsafe { layer1_avx2(x, w, b, out) };
            return;
        }
    }
    affine_crelu::<0, u8, i8>(x, w, b, out)
}

/// AVX2 body of [`layer1`]. Requires AVX2, `x.len()` a multiple of 32,
/// `out.len()` a multiple of 4, every `x ≤ 127`, every `|w| ≤ 127`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn layer1_avx2(x: &[u8], w: &[i8], b: &[i16], out: &mut [u8]) {
    use std::arch::x86_64::*;
    let n = x.len();
    assert!(w.len() >= out.len() * n && b.len() >= out.len());
    let ones = _mm256_set1_epi16(1);
    let hsum = |v: __m256i| -> i32 {
        let s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
        _mm_cvtsi128_si32(s)
    };
    for o in (0..out.len()).step_by(4) {
        let mut acc = [_mm256_setzero_si256(); 4];
        for j in (0..n).step_by(32) {
            // SAFETY: `j + 32 ≤ n` and `(o + k) · n + j + 32 ≤ w.len()`
            // (asserted above); unaligned loads.
            unsafe {
                let xv = _mm256_loadu_si256(x.as_ptr().add(j) as *const __m256i);
                for (k, a) in acc.iter_mut().enumerate() {
                    let wp = w.as_ptr().add((o + k) * n + j) as *const __m256i;
                    let pairs = _mm256_maddubs_epi16(xv, _mm256_loadu_si256(wp));
                    *a = _mm256_add_epi32(*a, _mm256_madd_epi16(pairs, ones));
                }
            }
        }
        for (k, a) in acc.iter().enumerate() {
            let s = hsum(*a) + b[o + k] as i32 + HIDDEN_ROUND;
            out[o + k] = (s >> HIDDEN_SHIFT).clamp(0, QACT) as u8;
        }
    }
}

/// Hidden layer 2 for the common sizes of layer 1 (a constant trip count
/// the compiler vectorises whole), any size otherwise.
#[inline(always)]
fn layer2(y1: &[u8], w: &[i16], b: &[i16], out: &mut [u8]) {
    match y1.len() {
        16 => affine_crelu::<16, u8, i16>(y1, w, b, out),
        32 => affine_crelu::<32, u8, i16>(y1, w, b, out),
        _ => affine_crelu::<0, u8, i16>(y1, w, b, out),
    }
}

/// The evaluation of a network with hidden layers (see the module docs)
/// from the halves `us` (the side to move's) and `them` in output bucket
/// `bucket`, `N` the accumulator width as in `rows::by_width` (0: any).
#[inline(always)]
pub(super) fn evaluate_stack<const N: usize>(
    net: &Network,
    us: &[i16],
    them: &[i16],
    bucket: usize,
) -> i32 {
    let n = width::<N>(net.l1());
    let half = n / 2;
    let mut x = [0u8; MAX_L1];
    for (k, values) in [us, them].into_iter().enumerate() {
        pairwise::<N>(values, &mut x[k * half..(k + 1) * half]);
    }
    let [h1, h2] = net.arch().hidden;
    let mut y1 = [0u8; MAX_HIDDEN];
    let (_, b) = net.hidden_layer(0, bucket);
    layer1(&x[..n], net.hidden1_i8(bucket), b, &mut y1[..h1]);
    let mut y2 = [0u8; MAX_HIDDEN];
    let (w, b) = net.hidden_layer(1, bucket);
    layer2(&y1[..h1], w, b, &mut y2[..h2]);
    let wo = net.output_weights(bucket);
    let mut s = 0i32;
    for k in 0..h2 {
        s += y2[k] as i32 * wo[k] as i32;
    }
    let sum = s as i64 + QACT as i64 * net.output_bias(bucket) as i64;
    (sum * SCALE as i64 / (QACT * QO) as i64) as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::accumulator::{Accumulator, evaluate_portable};
    use crate::nnue::quant::QB;
    use crate::nnue::{Arch, FeatureSet, evaluate, features, output_bucket};
    use xiangqi::{Board, Color};

    /// The integer formula of the module docs, the slow obvious way, in i64.
    fn reference_eval(net: &Network, board: &Board) -> i64 {
        let l1 = net.l1();
        let mut acc = vec![vec![0i64; l1]; 2];
        let mut pieces = 0;
        features::for_each_piece(board, |_, _| pieces += 1);
        for persp in Color::BOTH {
            let a = &mut acc[persp.index()];
            a.iter_mut()
                .zip(net.l1_bias())
                .for_each(|(a, &b)| *a = b as i64);
            for f in features::active_features(net.features(), board, persp) {
                a.iter_mut()
                    .zip(net.l1_row(f))
                    .for_each(|(a, &w)| *a += w as i64);
            }
        }
        let stm = board.side_to_move();
        let bucket = output_bucket(pieces, net.arch().output_buckets);
        let mut x = Vec::new();
        for persp in [stm, stm.flip()] {
            let a = &acc[persp.index()];
            for j in 0..l1 / 2 {
                let c = |v: i64| v.clamp(0, QA as i64);
                x.push((c(a[j]) * c(a[j + l1 / 2]) + 256) / 512);
            }
        }
        let layer = |input: &[i64], (w, b): (&[i16], &[i16])| -> Vec<i64> {
            b.iter()
                .enumerate()
                .map(|(o, &b)| {
                    let s: i64 = input
                        .iter()
                        .enumerate()
                        .map(|(j, &v)| v * w[o * input.len() + j] as i64)
                        .sum();
                    (s + b as i64 + 32).div_euclid(64).clamp(0, 127)
                })
                .collect()
        };
        let y1 = layer(&x, net.hidden_layer(0, bucket));
        let y2 = layer(&y1, net.hidden_layer(1, bucket));
        let s: i64 = y2
            .iter()
            .zip(net.output_weights(bucket))
            .map(|(&y, &w)| y * w as i64)
            .sum();
        let stack = (s + 127 * net.output_bias(bucket) as i64) * SCALE as i64 / (127 * QO as i64);
        // The skip path: Σ c² · w over both halves, as a version 1 net.
        let skip = net.skip_output(bucket).map_or(0, |(w, b)| {
            let mut sum = 0i64;
            for (k, persp) in [stm, stm.flip()].into_iter().enumerate() {
                for (j, &a) in acc[persp.index()].iter().enumerate() {
                    let c = a.clamp(0, QA as i64);
                    sum += c * c * w[k * l1 + j] as i64;
                }
            }
            (sum / QA as i64 + b as i64) * SCALE as i64 / (QA as i64 * QB as i64)
        });
        stack + skip
    }

    fn nets() -> Vec<Network> {
        let a = |f, l1, b, h1, h2| Arch::new(f, l1, b).unwrap().with_hidden(h1, h2).unwrap();
        vec![
            Network::random_arch(a(FeatureSet::PieceSquare, 1024, 8, 16, 32), 3),
            Network::random_arch(a(FeatureSet::PieceSquare, 256, 1, 8, 8), 4),
            Network::random_arch(a(FeatureSet::KingBucket6, 192, 3, 32, 16), 5),
            Network::random_arch(a(FeatureSet::PieceSquare, 512, 16, 64, 64), 6),
            // Threat inputs feeding hidden layers.
            Network::random_arch(a(FeatureSet::PieceSquareThreats, 256, 4, 16, 32), 7),
            Network::random_arch(a(FeatureSet::KingBucket6Threats, 128, 8, 8, 16), 8),
            // With the skip path beside the stack.
            Network::random_arch(
                a(FeatureSet::PieceSquare, 1024, 8, 16, 32)
                    .with_skip()
                    .unwrap(),
                9,
            ),
            Network::random_arch(
                a(FeatureSet::KingBucket9, 256, 3, 8, 16)
                    .with_skip()
                    .unwrap(),
                10,
            ),
        ]
    }

    /// Positions from the bench and from random play, every bucket's worth.
    fn boards() -> Vec<Board> {
        let mut v: Vec<Board> = crate::bench::POSITIONS
            .iter()
            .map(|f| Board::from_fen(f).unwrap())
            .collect();
        let mut b = Board::startpos();
        let mut seed = 12345u64;
        for _ in 0..400 {
            let moves = b.legal_moves();
            if moves.is_empty() {
                b = Board::startpos();
                continue;
            }
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            // Prefer captures, so that piece counts (and buckets) vary.
            let all = moves.as_slice();
            let caps: Vec<_> = all
                .iter()
                .filter(|m| b.piece_at(m.to()).is_some())
                .collect();
            let m = if !caps.is_empty() && seed >> 62 != 0 {
                *caps[(seed >> 33) as usize % caps.len()]
            } else {
                all[(seed >> 33) as usize % all.len()]
            };
            b.make_move(m);
            v.push(b.clone());
        }
        v
    }

    /// AVX2 (when the CPU has it), the portable code and the reference
    /// formula agree exactly, on random nets of several shapes and many
    /// positions; and the evaluations are not all one value.
    #[test]
    fn simd_portable_and_reference_agree() {
        let boards = boards();
        for net in nets() {
            let mut seen = std::collections::HashSet::new();
            for board in &boards {
                let acc = Accumulator::from_board(&net, board);
                let stm = board.side_to_move();
                let fast = evaluate(&net, &acc, stm);
                let portable = evaluate_portable(&net, &acc, stm);
                assert_eq!(fast, portable, "{}: {}", net.arch(), board.to_fen());
                assert_eq!(
                    fast as i64,
                    reference_eval(&net, board),
                    "{}",
                    board.to_fen()
                );
                seen.insert(fast);
            }
            assert!(
                seen.len() > 20,
                "{}: only {} values",
                net.arch(),
                seen.len()
            );
        }
    }

    #[test]
    fn integer_ranges_are_exact() {
        assert_eq!((QA * QA + PAIR_ROUND as i32) >> PAIR_SHIFT, QACT);
        assert!(QA * QA + (PAIR_ROUND as i32) < 1 << 16);
        let layer1 = MAX_L1 as i64 * (QACT * MAX_HIDDEN_WEIGHT as i32) as i64 + 2 * i16::MAX as i64;
        assert!(layer1 < i32::MAX as i64);
        let out = MAX_HIDDEN as i64 * QACT as i64 * i16::MAX as i64 + 127 * i16::MAX as i64;
        assert!(out < i32::MAX as i64);
    }
}
