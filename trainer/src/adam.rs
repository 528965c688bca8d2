//! Adam, the optimiser of every parameter block (a leaf: the training step
//! and the side accumulator's step use it).

pub const BETA1: f32 = 0.9;
pub const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

/// Adam on one slice of weights with its moments and gradient (already
/// averaged); `lr_t` includes the bias correction.
#[inline(always)]
pub fn adam(w: &mut [f32], m: &mut [f32], v: &mut [f32], g: &[f32], lr_t: f32) {
    for i in 0..w.len() {
        m[i] = BETA1 * m[i] + (1.0 - BETA1) * g[i];
        v[i] = BETA2 * v[i] + (1.0 - BETA2) * g[i] * g[i];
        w[i] -= lr_t * m[i] / (v[i].sqrt() + EPSILON);
    }
}
