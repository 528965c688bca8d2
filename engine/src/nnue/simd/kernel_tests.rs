//! Every hand-written path against the portable kernel: the same integers
//! on random values, on the extremes the network's bounds allow, and at
//! every width the network can have.

use super::portable;
use crate::nnue::arch::{L1_STEP, MAX_L1};
use crate::nnue::quant::{MAX_L1_WEIGHT, MAX_OUT_WEIGHT, QA};

/// A small deterministic generator (xorshift64*), so that failures repeat.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `-bound..=bound`.
    fn within(&mut self, bound: i16) -> i16 {
        let span = 2 * bound as u64 + 1;
        ((self.next() % span) as i64 - bound as i64) as i16
    }
}

/// Accumulator values and output weights of width `n`: random within
/// the bounds, or pinned to their extremes (the largest sums there are).
fn cases(n: usize, rng: &mut Rng) -> Vec<(Vec<i16>, Vec<i16>)> {
    // An accumulator entry is bias + 32 rows: within 33 · MAX_L1_WEIGHT.
    let acc_bound = 33 * MAX_L1_WEIGHT;
    let random = (
        (0..n).map(|_| rng.within(acc_bound)).collect(),
        (0..n).map(|_| rng.within(MAX_OUT_WEIGHT)).collect(),
    );
    let small = (
        (0..n).map(|_| rng.within(2 * QA as i16)).collect(),
        (0..n).map(|_| rng.within(MAX_OUT_WEIGHT)).collect(),
    );
    let top = (vec![i16::MAX; n], vec![MAX_OUT_WEIGHT; n]);
    let bottom = (vec![QA as i16; n], vec![-MAX_OUT_WEIGHT; n]);
    let negative = (vec![i16::MIN; n], vec![MAX_OUT_WEIGHT; n]);
    vec![random, small, top, bottom, negative]
}

fn each_case(mut check: impl FnMut(&[i16], &[i16], i64)) {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for n in (L1_STEP..=MAX_L1).step_by(L1_STEP) {
        for (acc, w) in cases(n, &mut rng) {
            let want = portable::screlu_dot::<0>(&acc, &w, QA as i16);
            check(&acc, &w, want);
        }
    }
}

#[test]
fn the_dispatched_kernel_equals_the_portable_one() {
    each_case(|acc, w, want| {
        assert_eq!(
            super::screlu_dot::<0>(acc, w, QA as i16),
            want,
            "width {}",
            acc.len()
        );
    });
    // The widths the network compiles a constant trip count for.
    let mut rng = Rng(7);
    for n in [256, 512, 768, 1024] {
        for (acc, w) in cases(n, &mut rng) {
            let want = portable::screlu_dot::<0>(&acc, &w, QA as i16);
            let got = match n {
                256 => super::screlu_dot::<256>(&acc, &w, QA as i16),
                512 => super::screlu_dot::<512>(&acc, &w, QA as i16),
                768 => super::screlu_dot::<768>(&acc, &w, QA as i16),
                _ => super::screlu_dot::<1024>(&acc, &w, QA as i16),
            };
            assert_eq!(got, want, "width {n}");
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[test]
fn the_avx2_kernel_equals_the_portable_one() {
    if !std::is_x86_feature_detected!("avx2") {
        eprintln!("SKIPPED: this CPU has no AVX2");
        return;
    }
    each_case(|acc, w, want| {
        // SAFETY: AVX2 was checked above; equal lengths, multiples of 64.
        let got = unsafe { super::avx2::screlu_dot(acc, w, QA as i16) };
        assert_eq!(got, want, "width {}", acc.len());
    });
}
