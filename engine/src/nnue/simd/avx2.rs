//! The AVX2 kernels, written by hand where the compiler's own vectorisation
//! of the portable loops is slow (`examples/nnue_bench.rs` measures each).
//!
//! Every function here requires AVX2 (`#[target_feature]`) and is called
//! only through [`super`]'s dispatch after the CPU was checked. Each gives
//! exactly the integers its portable twin gives: the arithmetic is the
//! same, only the order of exact integer additions differs.

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

use super::portable::SCRELU_FLUSH;

/// `Σ c · (c · w)` with `c = clamp(acc, 0, qa)` (see
/// [`portable::screlu_dot`](super::portable::screlu_dot)).
///
/// Sixteen values a step: clamp, `c · w` in 16 bits (exact, the network's
/// output weights are bounded so that it fits), then `vpmaddwd` multiplies
/// by `c` again and adds pairs into eight 32-bit sums, kept in registers
/// and widened to 64 bits once every `SCRELU_FLUSH` values. The compiler's
/// version of the portable loop reduced every 64 values to a scalar and
/// worked in 128-bit registers.
///
/// # Safety
/// The CPU must support AVX2. `acc` and `w` must have the same length, a
/// multiple of 64.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn screlu_dot(acc: &[i16], w: &[i16], qa: i16) -> i64 {
    debug_assert_eq!(acc.len(), w.len());
    debug_assert_eq!(acc.len() % 64, 0);
    let n = acc.len().min(w.len()) / 64 * 64;
    let zero = _mm256_setzero_si256();
    let top = _mm256_set1_epi16(qa);
    let mut total = 0i64;
    let mut start = 0;
    while start < n {
        let end = (start + SCRELU_FLUSH).min(n);
        // Two independent sums, so that consecutive `vpaddd`s do not wait
        // on each other.
        let (mut s0, mut s1) = (zero, zero);
        let mut i = start;
        while i < end {
            // SAFETY: `i + 32 <= end <= n <= len` of both slices (steps of
            // 32 inside blocks of whole 64s), so the four unaligned 32-byte
            // loads read inside them; AVX2 is enabled for this function.
            let (a0, a1, w0, w1) = unsafe {
                (
                    _mm256_loadu_si256(acc.as_ptr().add(i).cast()),
                    _mm256_loadu_si256(acc.as_ptr().add(i + 16).cast()),
                    _mm256_loadu_si256(w.as_ptr().add(i).cast()),
                    _mm256_loadu_si256(w.as_ptr().add(i + 16).cast()),
                )
            };
            let c0 = _mm256_min_epi16(_mm256_max_epi16(a0, zero), top);
            let c1 = _mm256_min_epi16(_mm256_max_epi16(a1, zero), top);
            s0 = _mm256_add_epi32(s0, _mm256_madd_epi16(c0, _mm256_mullo_epi16(c0, w0)));
            s1 = _mm256_add_epi32(s1, _mm256_madd_epi16(c1, _mm256_mullo_epi16(c1, w1)));
            i += 32;
        }
        total += sum_i32x8(s0) + sum_i32x8(s1);
        start = end;
    }
    total
}

/// The sum of a register's eight 32-bit lanes, in 64 bits.
#[target_feature(enable = "avx2")]
fn sum_i32x8(v: __m256i) -> i64 {
    let lo = _mm256_cvtepi32_epi64(_mm256_castsi256_si128(v));
    let hi = _mm256_cvtepi32_epi64(_mm256_extracti128_si256::<1>(v));
    let s = _mm256_add_epi64(lo, hi);
    let s = _mm_add_epi64(_mm256_castsi256_si128(s), _mm256_extracti128_si256::<1>(s));
    _mm_cvtsi128_si64(s) + _mm_extract_epi64::<1>(s)
}
