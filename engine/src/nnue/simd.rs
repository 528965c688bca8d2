//! Runtime selection of AVX2 code for the NNUE loops.
//!
//! The loops are plain Rust over fixed-size arrays, which the compiler
//! vectorises for whatever the build targets. The default x86-64 target
//! only has SSE2, for which it vectorises the output layer poorly (4 lanes
//! and widening shuffles); compiled for AVX2 the same source is about four
//! times faster there (`examples/nnue_bench.rs`). [`dispatch`] runs a
//! closure through a copy compiled with AVX2 enabled when the CPU has it,
//! and as it is otherwise: same source, same results (integer code is
//! exact; float loops keep their order, no fused multiply-add).

/// The kernel [`dispatch`] runs on this CPU: `avx2`, or `baseline` (the
/// build target's own vector width: SSE2 on x86-64, NEON on aarch64). Said
/// by `jiangjun bench` on stderr, so that one can see which code a binary
/// picked on a given machine (or under an emulator such as Wine).
pub fn kernel() -> &'static str {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx2") {
            return "avx2";
        }
    }
    "baseline"
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
