//! The float model of the hidden layers after the accumulator (the
//! engine's `nnue::stack`), forward and backward, for networks that have
//! them (`Arch::hidden`):
//!
//! ```text
//! x   = [pair(a_us), pair(a_them)],  pair(a)[j] = c(a[j]) · c(a[j + L1/2]),  c = clamp(·, 0, 1)
//! y1  = c(W1[bucket] · x  + b1[bucket])      (H1)
//! y2  = c(W2[bucket] · y1 + b2[bucket])      (H2)
//! out = Wo[bucket] · y2 + bo[bucket]
//! ```
//!
//! Weights are output-major (`W1[bucket]` is `H1` rows of `L1`), as in the
//! network file. Quantisation (`FloatNet::quantise` in `model`):
//! `W → round(64 · W)` (int8), `b → round(127 · 64 · b)`,
//! `Wo, bo → round(QO · ·)`; the clipping limits keep every value in
//! range ([`HIDDEN_W_LIMIT`] and the others).

use jiangjun_engine::nnue::stack::{MAX_HIDDEN_WEIGHT, QACT, QH, QO};

/// Largest hidden weight: quantises to at most 127 (int8).
pub const HIDDEN_W_LIMIT: f32 = MAX_HIDDEN_WEIGHT as f32 / QH as f32;
/// Largest hidden bias: quantises into an `i16` at `127 · 64`.
pub const HIDDEN_B_LIMIT: f32 = i16::MAX as f32 / (QACT * QH) as f32;
/// Largest output weight or bias after hidden layers: quantises into an `i16` at `QO`.
pub const STACK_OUT_LIMIT: f32 = i16::MAX as f32 / QO as f32;

#[inline(always)]
fn clip01(x: f32) -> f32 {
    x.clamp(0.0, 1.0)
}

/// Slope of the clipped ReLU at `z`.
#[inline(always)]
fn slope(z: f32) -> f32 {
    if z > 0.0 && z < 1.0 { 1.0 } else { 0.0 }
}

/// Every value of one forward pass, for the backward pass.
pub struct Activations {
    /// Pairwise products: the side to move's `L1/2`, then the other's.
    pub x: Vec<f32>,
    pub z1: Vec<f32>,
    pub y1: Vec<f32>,
    pub z2: Vec<f32>,
    pub y2: Vec<f32>,
    pub out: f32,
}

/// `out[o] = b[o] + Σ_j w[o][j] · x[j]` in 8 interleaved partial sums
/// (a fixed order, reproducible, and vectorisable). Plain loops into a
/// vector made first, not `collect`: the iterator's code was not inlined
/// into the AVX2 caller, and ran as scalar code for an eighth of a
/// layered net's training time.
#[inline(always)]
fn affine(x: &[f32], w: &[f32], b: &[f32]) -> Vec<f32> {
    let n = x.len();
    let mut out = vec![0.0f32; b.len()];
    for (o, (y, &b)) in out.iter_mut().zip(b).enumerate() {
        let row = &w[o * n..(o + 1) * n];
        let mut lanes = [0.0f32; 8];
        for (x, w) in x.chunks_exact(8).zip(row.chunks_exact(8)) {
            for k in 0..8 {
                lanes[k] += x[k] * w[k];
            }
        }
        let mut tail = 0.0f32;
        for (x, w) in x
            .chunks_exact(8)
            .remainder()
            .iter()
            .zip(row.chunks_exact(8).remainder())
        {
            tail += x * w;
        }
        *y = b + lanes.iter().sum::<f32>() + tail;
    }
    out
}

/// The hidden layers' weights of a float network (`FloatNet::stack` in
/// `model`), borrowed: the model owns them, this module only reads them,
/// so it needs nothing of the model's and imports nothing from it.
#[derive(Clone, Copy)]
pub struct StackParams<'a> {
    /// Accumulator units per perspective.
    pub l1: usize,
    /// `[H1, H2]`.
    pub hidden: [usize; 2],
    pub h1_w: &'a [f32],
    pub h1_b: &'a [f32],
    pub h2_w: &'a [f32],
    pub h2_b: &'a [f32],
    pub out_w: &'a [f32],
    pub out_b: &'a [f32],
}

impl<'a> StackParams<'a> {
    /// Bucket `bucket`'s slices of the hidden blocks: (W1, b1, W2, b2, Wo, bo).
    #[inline(always)]
    pub fn layers(&self, bucket: usize) -> [&'a [f32]; 6] {
        let (l1, [h1, h2]) = (self.l1, self.hidden);
        [
            &self.h1_w[bucket * h1 * l1..(bucket + 1) * h1 * l1],
            &self.h1_b[bucket * h1..(bucket + 1) * h1],
            &self.h2_w[bucket * h2 * h1..(bucket + 1) * h2 * h1],
            &self.h2_b[bucket * h2..(bucket + 1) * h2],
            &self.out_w[bucket * h2..(bucket + 1) * h2],
            &self.out_b[bucket..bucket + 1],
        ]
    }
}

/// The forward pass from the accumulator's values `us` (the side to
/// move's) and `them`.
#[inline(always)]
pub fn forward(net: &StackParams, us: &[f32], them: &[f32], bucket: usize) -> Activations {
    let half = net.l1 / 2;
    let mut x = vec![0.0f32; 2 * half];
    for (x, a) in x.chunks_exact_mut(half).zip([us, them]) {
        let (lo, hi) = a[..2 * half].split_at(half);
        for ((x, &lo), &hi) in x.iter_mut().zip(lo).zip(hi) {
            *x = clip01(lo) * clip01(hi);
        }
    }
    let [w1, b1, w2, b2, wo, bo] = net.layers(bucket);
    let z1 = affine(&x, w1, b1);
    let y1: Vec<f32> = z1.iter().map(|&z| clip01(z)).collect();
    let z2 = affine(&y1, w2, b2);
    let y2: Vec<f32> = z2.iter().map(|&z| clip01(z)).collect();
    let out = bo[0] + y2.iter().zip(wo).map(|(y, w)| y * w).sum::<f32>();
    Activations {
        x,
        z1,
        y1,
        z2,
        y2,
        out,
    }
}

/// Gradient blocks of the hidden layers, shaped like the network's.
pub struct StackGrad<'a> {
    pub h1_w: &'a mut [f32],
    pub h1_b: &'a mut [f32],
    pub h2_w: &'a mut [f32],
    pub h2_b: &'a mut [f32],
    pub out_w: &'a mut [f32],
    pub out_b: &'a mut [f32],
}

/// The backward pass of `g = d loss / d out`: adds the hidden layers'
/// gradients into `grad` (bucket `bucket`'s parts) and writes
/// `d loss / d a` of both perspectives' accumulators into `d_us`, `d_them`.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub fn backward(
    net: &StackParams,
    (us, them): (&[f32], &[f32]),
    bucket: usize,
    act: &Activations,
    g: f32,
    grad: StackGrad,
    d_us: &mut [f32],
    d_them: &mut [f32],
) {
    let (l1, [h1, h2]) = (net.l1, net.hidden);
    let [w1, _, w2, _, wo, _] = net.layers(bucket);
    let gw1 = &mut grad.h1_w[bucket * h1 * l1..(bucket + 1) * h1 * l1];
    let gb1 = &mut grad.h1_b[bucket * h1..(bucket + 1) * h1];
    let gw2 = &mut grad.h2_w[bucket * h2 * h1..(bucket + 1) * h2 * h1];
    let gb2 = &mut grad.h2_b[bucket * h2..(bucket + 1) * h2];
    let gwo = &mut grad.out_w[bucket * h2..(bucket + 1) * h2];
    grad.out_b[bucket] += g;
    let mut dz2 = vec![0.0f32; h2];
    for k in 0..h2 {
        gwo[k] += g * act.y2[k];
        dz2[k] = g * wo[k] * slope(act.z2[k]);
    }
    let mut dz1 = vec![0.0f32; h1];
    for (k, &d) in dz2.iter().enumerate() {
        if d == 0.0 {
            continue;
        }
        gb2[k] += d;
        let (row, grow) = (&w2[k * h1..(k + 1) * h1], &mut gw2[k * h1..(k + 1) * h1]);
        for i in 0..h1 {
            grow[i] += d * act.y1[i];
            dz1[i] += d * row[i];
        }
    }
    let mut dx = vec![0.0f32; l1];
    for (i, d) in dz1.iter_mut().enumerate() {
        *d *= slope(act.z1[i]);
        if *d == 0.0 {
            continue;
        }
        let d = *d;
        gb1[i] += d;
        let (row, grow) = (&w1[i * l1..(i + 1) * l1], &mut gw1[i * l1..(i + 1) * l1]);
        // Zipped slices: no bounds checks, so the loop is vectorised.
        for (((g, &x), dx), &w) in grow.iter_mut().zip(&act.x[..l1]).zip(&mut dx).zip(row) {
            *g += d * x;
            *dx += d * w;
        }
    }
    let half = l1 / 2;
    for (k, (a, d)) in [(us, d_us), (them, d_them)].into_iter().enumerate() {
        let dx = &dx[k * half..(k + 1) * half];
        let (lo, hi) = a[..l1].split_at(half);
        let (d_lo, d_hi) = d[..l1].split_at_mut(half);
        for ((((&dx, &lo), &hi), d_lo), d_hi) in dx.iter().zip(lo).zip(hi).zip(d_lo).zip(d_hi) {
            *d_lo = dx * clip01(hi) * slope(lo);
            *d_hi = dx * clip01(lo) * slope(hi);
        }
    }
}
