//! The activation the trainer's layers share, in float: SCReLU and its
//! slope (a leaf: the model, the side accumulator and the training step
//! all read it).

/// SCReLU on floats: `clamp(x, 0, 1)²`.
#[inline(always)]
pub fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

/// SCReLU's slope: `2x` on (0, 1), else 0.
#[inline(always)]
pub fn screlu_slope(x: f32) -> f32 {
    if x > 0.0 && x < 1.0 { 2.0 * x } else { 0.0 }
}
