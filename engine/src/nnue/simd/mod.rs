//! The NNUE loops' instruction sets, chosen on the CPU at run time.
//!
//! Two kinds of code run here. Most loops are plain Rust over fixed-size
//! arrays, which the compiler vectorises for whatever the build targets.
//! The default x86-64 target only has SSE2, for which it vectorises the
//! output layer poorly (4 lanes and widening shuffles); compiled for AVX2
//! the same source is about four times faster there
//! (`examples/nnue_bench.rs`). [`dispatch`] runs a closure through a copy
//! compiled with AVX2 enabled when the CPU has it, and as it is otherwise:
//! same source, same results (integer code is exact; float loops keep
//! their order, no fused multiply-add).
//!
//! Where even the AVX2 copy is slow, a kernel is written by hand, once per
//! instruction set: [`avx2`] (chosen at run time), [`wasm`] (`simd128`,
//! chosen when the build enables it, as the browser build does) and
//! [`portable`] (the reference, and every other CPU). The network calls
//! only the functions below; each path gives exactly the integers of the
//! portable one (tested on random and extreme values).

#[cfg(target_arch = "x86_64")]
mod avx2;
mod portable;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod wasm;

#[cfg(test)]
mod kernel_tests;

/// The kernel [`dispatch`] runs on this CPU: `avx2`, `simd128` (the
/// browser build), or `baseline` (the build target's own vector width:
/// SSE2 on x86-64, NEON on aarch64). Said
/// by `jiangjun bench` on stderr, so that one can see which code a binary
/// picked on a given machine (or under an emulator such as Wine).
pub fn kernel() -> &'static str {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx2") {
            return "avx2";
        }
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        return "simd128";
    }
    #[allow(unreachable_code)]
    "baseline"
}

/// Whether this CPU runs the [`avx2`] kernels (checked once by the
/// standard library, then a load of its cached answer).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn has_avx2() -> bool {
    std::is_x86_feature_detected!("avx2")
}

/// `Σ c · (c · w)` with `c = clamp(acc, 0, qa)`, in 64 bits: one half of
/// the SCReLU output layer, `N` its width as in `rows::by_width` (0: the
/// slices' length, a multiple of 64). The hand-written kernel of the CPU,
/// or the portable loop.
#[inline(always)]
pub(crate) fn screlu_dot<const N: usize>(acc: &[i16], weights: &[i16], qa: i16) -> i64 {
    #[cfg(target_arch = "x86_64")]
    {
        if has_avx2() {
            let n = super::rows::width::<N>(acc.len());
            // SAFETY: AVX2 was just checked; both slices are cut to the
            // same length `n`, a multiple of 64 (every L1 is).
            return unsafe { avx2::screlu_dot(&acc[..n], &weights[..n], qa) };
        }
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        let n = super::rows::width::<N>(acc.len());
        return wasm::screlu_dot(&acc[..n], &weights[..n], qa);
    }
    #[allow(unreachable_code)]
    portable::screlu_dot::<N>(acc, weights, qa)
}

/// Run `f`, with what it inlines compiled for AVX2 if the CPU supports it.
#[inline(always)]
pub fn dispatch<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: `with_avx2` only requires AVX2, which the CPU was just
            // checked to support.
            return unsafe { with_avx2(f) };
        }
    }
    f()
}

/// `f()` compiled with AVX2 enabled (LLVM inlines `f` and its `#[inline]`
/// callees into this body).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn with_avx2<R>(f: impl FnOnce() -> R) -> R {
    f()
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_kernel_is_named() {
        assert!(["avx2", "baseline"].contains(&super::kernel()));
        #[cfg(target_arch = "x86_64")]
        assert_eq!(
            super::kernel() == "avx2",
            std::is_x86_feature_detected!("avx2")
        );
    }

    #[test]
    fn dispatch_runs_the_closure() {
        let v: Vec<i32> = (0..100).collect();
        assert_eq!(
            super::dispatch(
                #[inline(always)]
                || v.iter().sum::<i32>()
            ),
            4950
        );
    }
}
