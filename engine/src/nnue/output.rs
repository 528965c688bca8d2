//! The layers after the accumulator: given the two halves (the side to
//! move's, then the other's) and the output bucket, the evaluation, through
//! SCReLU into one output per bucket, or through the hidden layers
//! ([`stack`](super::stack)) for a network that has them, plus the SCReLU
//! output for one that has the skip path as well. It reads the
//! halves as slices, not the accumulator, so that the accumulator (the layer
//! above) calls it and nothing here calls back up.

use super::network::Network;
use super::quant::{QA, QB, SCALE};
use super::simd;
use super::stack;

/// The evaluation of the halves `us` (the side to move's) and `them` in
/// output bucket `bucket` (see the module docs of `nnue` for the exact
/// formula), `N` the accumulator width as in `rows::by_width` (0: any);
/// `side` is the side accumulator's part of the output sum (0 without one,
/// and always without hidden layers' nets, which cannot have one).
#[inline(always)]
pub(super) fn evaluate_n<const N: usize>(
    net: &Network,
    us: &[i16],
    them: &[i16],
    bucket: usize,
    side: i64,
) -> i32 {
    if net.arch().has_hidden() {
        debug_assert_eq!(side, 0);
        let stack = stack::evaluate_stack::<N>(net, us, them, bucket);
        // The skip path: version 1's output beside the stack, each
        // truncated by its own formula, so a stack whose output weights
        // and bias are zero leaves exactly the version 1 evaluation.
        return match net.skip_output(bucket) {
            Some((w, b)) => stack + screlu_output::<N>(net.l1(), us, them, w, b, 0),
            None => stack,
        };
    }
    let w = net.output_weights(bucket);
    screlu_output::<N>(net.l1(), us, them, w, net.output_bias(bucket), side)
}

/// The SCReLU output layer of weights `w` (side to move's `l1`, then the
/// other's) and bias `bias` on the halves `us` and `them`, `extra` added
/// to its sum before the rounding (the side accumulator's part).
#[inline(always)]
fn screlu_output<const N: usize>(
    l1: usize,
    us: &[i16],
    them: &[i16],
    w: &[i16],
    bias: i16,
    extra: i64,
) -> i32 {
    let (w_us, w_them) = w.split_at(l1);
    let sum = simd::screlu_dot::<N>(us, w_us, QA as i16)
        + simd::screlu_dot::<N>(them, w_them, QA as i16)
        + extra;
    let out = (sum / QA as i64 + bias as i64) * SCALE as i64 / (QA as i64 * QB as i64);
    out as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::quant::{MAX_L1_WEIGHT, MAX_OUT_WEIGHT};

    #[test]
    fn limits_keep_the_integer_arithmetic_exact() {
        assert!(33 * MAX_L1_WEIGHT as i32 <= i16::MAX as i32);
        assert!(QA * MAX_OUT_WEIGHT as i32 <= i16::MAX as i32);
    }
}
