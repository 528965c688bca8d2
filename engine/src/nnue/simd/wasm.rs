//! The WebAssembly `simd128` kernels, for the browser build (compiled in
//! when the build enables `simd128`, as `web/build.sh` does). Each gives
//! exactly the integers its portable twin gives.

use std::arch::wasm32::*;

use super::portable::SCRELU_FLUSH;

/// `Σ c · (c · w)` with `c = clamp(acc, 0, qa)` (see
/// [`portable::screlu_dot`](super::portable::screlu_dot)): eight values a
/// vector, `i32x4_dot_i16x8` for the multiply-add, 32-bit sums widened to
/// 64 bits every `SCRELU_FLUSH` values. The length is a multiple of 64.
#[inline]
pub(super) fn screlu_dot(acc: &[i16], w: &[i16], qa: i16) -> i64 {
    debug_assert_eq!(acc.len(), w.len());
    let n = acc.len().min(w.len()) / 64 * 64;
    let zero = i16x8_splat(0);
    let top = i16x8_splat(qa);
    let mut total = 0i64;
    let mut start = 0;
    while start < n {
        let end = (start + SCRELU_FLUSH).min(n);
        let (mut s0, mut s1) = (i32x4_splat(0), i32x4_splat(0));
        let mut i = start;
        while i < end {
            // SAFETY: `i + 16 <= end <= n <= len` of both slices (steps of
            // 16 inside blocks of whole 64s), so the four unaligned 16-byte
            // loads read inside them.
            let (a0, a1, w0, w1) = unsafe {
                (
                    v128_load(acc.as_ptr().add(i).cast()),
                    v128_load(acc.as_ptr().add(i + 8).cast()),
                    v128_load(w.as_ptr().add(i).cast()),
                    v128_load(w.as_ptr().add(i + 8).cast()),
                )
            };
            let c0 = i16x8_min(i16x8_max(a0, zero), top);
            let c1 = i16x8_min(i16x8_max(a1, zero), top);
            s0 = i32x4_add(s0, i32x4_dot_i16x8(c0, i16x8_mul(c0, w0)));
            s1 = i32x4_add(s1, i32x4_dot_i16x8(c1, i16x8_mul(c1, w1)));
            i += 16;
        }
        let s = [s0, s1];
        for v in s {
            total += i32x4_extract_lane::<0>(v) as i64
                + i32x4_extract_lane::<1>(v) as i64
                + i32x4_extract_lane::<2>(v) as i64
                + i32x4_extract_lane::<3>(v) as i64;
        }
        start = end;
    }
    total
}
