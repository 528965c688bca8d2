//! The portable kernels: plain Rust loops that the compiler vectorises for
//! whatever the build targets. They are the reference the hand-written
//! paths ([`avx2`](super::avx2), [`wasm`](super::wasm)) are tested against,
//! and what runs on a CPU that has neither.

use crate::nnue::rows;

/// Values the hand-written SCReLU kernels sum in 32-bit lanes before
/// widening to 64 bits. Each lane then holds at most `SCRELU_FLUSH / 16`
/// pairs of `c · (c · w)` (a `madd` of two, eight or four lanes wide, two
/// sums side by side), each pair below `2 · QA² · MAX_OUT_WEIGHT`: checked
/// by a test to stay inside `i32`.
pub(super) const SCRELU_FLUSH: usize = 1024;

/// Accumulator entries summed in `i32` before widening to `i64` here: at
/// most `CHUNK · QA · QA · MAX_OUT_WEIGHT` ≈ 5.3e8 per chunk, no overflow.
const DOT_CHUNK: usize = 64;

/// `Σ c · (c · w)` with `c = clamp(acc, 0, qa)`, over `N` values (0: the
/// slices' length, see `rows::by_width`): one half of the SCReLU output
/// layer. The length is a multiple of 64.
#[inline(always)]
pub(super) fn screlu_dot<const N: usize>(acc: &[i16], weights: &[i16], qa: i16) -> i64 {
    debug_assert_eq!(weights.len(), acc.len());
    let n = rows::width::<N>(acc.len());
    let (acc, weights) = (&acc[..n], &weights[..n]);
    let mut total = 0i64;
    for (a, w) in acc
        .as_chunks::<DOT_CHUNK>()
        .0
        .iter()
        .zip(weights.as_chunks::<DOT_CHUNK>().0)
    {
        let mut s = 0i32;
        for i in 0..DOT_CHUNK {
            let c = a[i].clamp(0, qa);
            // Exact: |c · w| ≤ 255 · 128 < 2^15.
            let cw = c.wrapping_mul(w[i]);
            s += c as i32 * cw as i32;
        }
        total += s as i64;
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::arch::{L1_STEP, MAX_L1};
    use crate::nnue::quant::{MAX_OUT_WEIGHT, QA};

    #[test]
    fn sums_stay_inside_their_integers() {
        let pair = 2 * (QA * QA) as i64 * MAX_OUT_WEIGHT as i64;
        assert!((SCRELU_FLUSH / 16) as i64 * pair <= i32::MAX as i64);
        let per_chunk = DOT_CHUNK as i64 * (QA * QA) as i64 * MAX_OUT_WEIGHT as i64;
        assert!(per_chunk <= i32::MAX as i64);
        assert_eq!(MAX_L1 % DOT_CHUNK, 0);
        assert_eq!(L1_STEP % 64, 0);
    }
}
