//! The side accumulator of threat squares in float (`Arch::side`, the
//! engine's `nnue::side`): its values, its share of the output, its
//! gradient and its Adam step. A leaf beside `stack`: the model holds the
//! weights and hands them here as slices ([`SideParams`]).
//!
//! ```text
//! s_us   = bs + Σ_{threat squares seen by the side to move} Ws[i]   (side values)
//! s_them = bs + Σ_{threat squares seen by the other side}   Ws[i]
//! out   += Wso[bucket] · [screlu(s_us), screlu(s_them)]
//! ```
//!
//! Quantised as the first layer (`Ws`, `bs` at `QA`) and its output layer
//! (`Wso` at `QB`), added to the output sum before the engine's one
//! rounding. Grown with `Wso` at zero (`FloatNet::grow_side`), a net
//! evaluates as before, bit for bit; the rows start random so that `Wso`'s
//! gradient is not zero.
//!
//! **Factors.** Each of the 95,760 inputs is seen a handful of times in a
//! few million positions, and its row alone learns those positions by
//! heart. So in training a row is the sum of three: its own, one shared by
//! every input of the same attacker and attacked piece on the same target
//! square whatever the attacker's square ([`F1`], the 17,640 threat inputs'
//! keys), and one shared by every input of the same two pieces ([`F2`]);
//! all three take the input's gradient. The engine's file holds the sums
//! ([`fold`]), so the engine never sees the factors.

use crate::activation::{screlu, screlu_slope};
use crate::adam::adam;
use crate::rng::Rng;
use jiangjun_engine::nnue::side::{SIDE_INPUTS, SideWeights, input_parts};
use jiangjun_engine::nnue::{Network, QA, QB};
use rayon::prelude::*;
use std::sync::LazyLock;

/// Factor rows of (attacker, attacked piece, target square): 14 × 14 × 90.
pub const F1: usize = 14 * 14 * 90;
/// Factor rows of (attacker, attacked piece): 14 × 14.
pub const F2: usize = 14 * 14;

/// Each input's two factor rows.
static FACTORS: LazyLock<Vec<(u16, u8)>> = LazyLock::new(|| {
    (0..SIDE_INPUTS)
        .map(|i| {
            let (a, _, v, to) = input_parts(i);
            (((a * 14 + v) * 90 + to) as u16, (a * 14 + v) as u8)
        })
        .collect()
});

/// The factor rows (in [`F1`] and in [`F2`]) of side input `i`.
#[inline(always)]
pub fn factors(i: usize) -> (usize, usize) {
    let (f1, f2) = FACTORS[i];
    (f1 as usize, f2 as usize)
}

/// The side accumulator's weights: `width` units, rows `SIDE_INPUTS ×
/// width` (input-major), the factor rows (`F1 × width`, `F2 × width`),
/// biases `width`, output weights `buckets × 2·width` (the side to move's
/// half first).
pub struct SideParams<'a> {
    pub width: usize,
    pub rows: &'a [f32],
    pub f1: &'a [f32],
    pub f2: &'a [f32],
    pub bias: &'a [f32],
    pub out: &'a [f32],
}

/// Input `i`'s whole row, its own plus its factors', into `dst`.
#[inline(always)]
fn add_row(p: &SideParams, i: usize, dst: &mut [f32]) {
    let w = p.width;
    let (a, b) = factors(i);
    let (own, f1, f2) = (
        &p.rows[i * w..(i + 1) * w],
        &p.f1[a * w..(a + 1) * w],
        &p.f2[b * w..(b + 1) * w],
    );
    for j in 0..w {
        dst[j] += own[j] + f1[j] + f2[j];
    }
}

/// The rows as the engine reads them: each input's own plus its factors'.
pub fn fold(p: &SideParams) -> Vec<f32> {
    let w = p.width;
    let mut rows = vec![0.0; SIDE_INPUTS * w];
    for (i, dst) in rows
        .chunks_exact_mut(w.max(1))
        .enumerate()
        .take(SIDE_INPUTS)
    {
        if w != 0 {
            add_row(p, i, dst);
        }
    }
    rows
}

/// The three blocks, mutable: rows, biases, output weights.
type Blocks<'a> = (&'a mut [f32], &'a mut [f32], &'a mut [f32]);

/// Random side weights of `width` units: rows uniform in ±0.1 (the 40 to
/// 90 attacks of a position put the values inside SCReLU's slope), biases
/// zero, output weights uniform in ±1/√(2·width). Nothing for width 0.
pub fn randomise(width: usize, (rows, bias, out): Blocks, rng: &mut Rng) {
    if width == 0 {
        return;
    }
    rows.iter_mut().for_each(|x| *x = rng.symmetric(0.1));
    bias.fill(0.0);
    let a = 1.0 / ((2 * width) as f32).sqrt();
    out.iter_mut().for_each(|x| *x = rng.symmetric(a));
}

/// How the side weights of a grown net start (`--side-start`); either way
/// the grown net evaluates exactly as the old one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum SideStart {
    /// Rows random ([`randomise`]), output weights at zero.
    #[default]
    Random,
    /// Rows at zero, output weights in opposite pairs ([`quiet_start`]).
    Quiet,
}

/// A quiet start for grown side weights: rows at zero, biases at 0.5 (in
/// SCReLU's slope) and each unit's output weight for the side to move the
/// opposite of its weight for the other side (uniform in ±1/√(2·width)).
/// With every row at zero both halves hold the biases, so the share is
/// zero, in float and once quantised (the integers round symmetrically),
/// and still every row's gradient is not: rows learn only what the data
/// asks, where random rows would hand every position a random code of its
/// attacks for the output weights to learn by heart.
pub fn quiet_start(width: usize, (rows, bias, out): Blocks, rng: &mut Rng) {
    if width == 0 {
        return;
    }
    rows.fill(0.0);
    bias.fill(0.5);
    let a = 1.0 / ((2 * width) as f32).sqrt();
    for bucket in out.chunks_exact_mut(2 * width) {
        let (us, them) = bucket.split_at_mut(width);
        for (u, t) in us.iter_mut().zip(them) {
            *u = rng.symmetric(a);
            *t = -*u;
        }
    }
}

/// The side values of the inputs `us` (the side to move's) and `them`
/// (empty without a side accumulator).
#[inline(always)]
pub fn values(p: &SideParams, us: &[u32], them: &[u32]) -> (Vec<f32>, Vec<f32>) {
    let w = p.width;
    if w == 0 {
        return (Vec::new(), Vec::new());
    }
    let sum = |feats: &[u32]| {
        let mut v = p.bias.to_vec();
        for &i in feats {
            add_row(p, i as usize, &mut v);
        }
        v
    };
    (sum(us), sum(them))
}

/// The side accumulator's share of the raw output in `bucket`, given its
/// values (0 without one).
#[inline(always)]
pub fn output(p: &SideParams, (us, them): (&[f32], &[f32]), bucket: usize) -> f32 {
    let w = p.width;
    if w == 0 {
        return 0.0;
    }
    let wo = &p.out[bucket * 2 * w..(bucket + 1) * 2 * w];
    let mut sum = 0.0;
    for (half, s) in [us, them].into_iter().enumerate() {
        for (&x, &wt) in s.iter().zip(&wo[half * w..(half + 1) * w]) {
            sum += wt * screlu(x);
        }
    }
    sum
}

/// The engine's network's side weights into `blocks` (its integers over
/// their scales); nothing without a side accumulator.
pub fn from_network(net: &Network, (rows, bias, out): Blocks) {
    let w = net.arch().side;
    if w == 0 {
        return;
    }
    for i in 0..SIDE_INPUTS {
        for (d, &q) in rows[i * w..(i + 1) * w].iter_mut().zip(net.side_row(i)) {
            *d = q as f32 / QA as f32;
        }
    }
    for (d, &q) in bias.iter_mut().zip(net.side_bias()) {
        *d = q as f32 / QA as f32;
    }
    for b in 0..net.arch().output_buckets {
        let dst = &mut out[b * 2 * w..(b + 1) * 2 * w];
        for (d, &q) in dst.iter_mut().zip(net.side_output(b)) {
            *d = q as f32 / QB as f32;
        }
    }
}

/// One thread's gradient of the side accumulator's weights.
pub struct SideGrad {
    width: usize,
    /// The rows' gradient (`SIDE_INPUTS × width`), those written since the
    /// last reset marked and listed.
    pub(crate) rows: Vec<f32>,
    pub(crate) touched: Vec<bool>,
    list: Vec<u32>,
    /// The factor rows' gradients (dense: 17,640 and 196 rows).
    pub(crate) f1: Vec<f32>,
    pub(crate) f2: Vec<f32>,
    pub(crate) bias: Vec<f32>,
    pub(crate) out: Vec<f32>,
    /// Scratch: d loss / d side values of one perspective.
    d: Vec<f32>,
}

impl SideGrad {
    /// The gradient of a side accumulator of `width` units (0: none,
    /// empty) over `buckets` output buckets.
    pub fn new(width: usize, buckets: usize) -> SideGrad {
        SideGrad {
            width,
            rows: vec![0.0; SIDE_INPUTS * width],
            touched: vec![false; if width == 0 { 0 } else { SIDE_INPUTS }],
            list: Vec::new(),
            f1: vec![0.0; F1 * width],
            f2: vec![0.0; F2 * width],
            bias: vec![0.0; width],
            out: vec![0.0; buckets * 2 * width],
            d: vec![0.0; width],
        }
    }

    /// Zero what was written since the last reset.
    pub fn reset(&mut self) {
        let w = self.width;
        for &i in &self.list {
            let i = i as usize;
            self.rows[i * w..(i + 1) * w].fill(0.0);
            self.touched[i] = false;
        }
        self.list.clear();
        self.f1.fill(0.0);
        self.f2.fill(0.0);
        self.bias.fill(0.0);
        self.out.fill(0.0);
    }

    /// The backward pass of one position (its inputs `feats` and side
    /// values `values`, the side to move's first) whose output's gradient
    /// is `g`.
    #[inline(always)]
    pub fn accumulate(
        &mut self,
        p: &SideParams,
        feats: (&[u32], &[u32]),
        values: (&[f32], &[f32]),
        bucket: usize,
        g: f32,
    ) {
        let w = self.width;
        if w == 0 {
            return;
        }
        let wo = &p.out[bucket * 2 * w..(bucket + 1) * 2 * w];
        let go = &mut self.out[bucket * 2 * w..(bucket + 1) * 2 * w];
        let halves = [(values.0, feats.0), (values.1, feats.1)];
        for (half, (s, feats)) in halves.into_iter().enumerate() {
            for j in 0..w {
                let x = s[j];
                go[half * w + j] += g * screlu(x);
                self.d[j] = g * wo[half * w + j] * screlu_slope(x);
            }
            for (b, &d) in self.bias.iter_mut().zip(&self.d) {
                *b += d;
            }
            for &i in feats {
                let i = i as usize;
                if !self.touched[i] {
                    self.touched[i] = true;
                    self.list.push(i as u32);
                }
                let (a, b) = factors(i);
                for (row, k) in [(&mut self.rows, i), (&mut self.f1, a), (&mut self.f2, b)] {
                    let row = &mut row[k * w..(k + 1) * w];
                    row.iter_mut().zip(&self.d).for_each(|(r, &d)| *r += d);
                }
            }
        }
    }
}

/// One Adam step of the side weights, each block as (weights, first
/// moments, second moments) in the order rows, factor rows 1 and 2, biases,
/// output weights, from the threads' gradients (summed in thread order,
/// times `scale`): rows only where some thread has a gradient, each
/// clamped into ±`row_limit` (the folded rows are clamped when written).
pub fn step(
    blocks: [(&mut Vec<f32>, &mut Vec<f32>, &mut Vec<f32>); 5],
    grads: &[&SideGrad],
    scale: f32,
    lr_t: f32,
    row_limit: f32,
) {
    let [(rows, rm, rv), f1, f2, bias, out] = blocks;
    let Some(w) = grads.first().map(|g| g.width).filter(|&w| w != 0) else {
        return;
    };
    for (block, (wt, m, v)) in [f1, f2, bias, out].into_iter().enumerate() {
        let mut g = vec![0.0f32; wt.len()];
        for grad in grads {
            let src = [&grad.f1, &grad.f2, &grad.bias, &grad.out][block];
            g.iter_mut().zip(src).for_each(|(a, &b)| *a += b);
        }
        g.iter_mut().for_each(|x| *x *= scale);
        adam(wt, m, v, &g, lr_t);
    }
    let touched: Vec<bool> = (0..SIDE_INPUTS)
        .map(|i| grads.iter().any(|g| g.touched[i]))
        .collect();
    rows.par_chunks_mut(w)
        .zip(rm.par_chunks_mut(w))
        .zip(rv.par_chunks_mut(w))
        .enumerate()
        .filter(|(i, _)| touched[*i])
        .for_each(|(i, ((wt, m), v))| {
            let mut g = vec![0.0f32; w];
            for grad in grads.iter().filter(|gr| gr.touched[i]) {
                let row = &grad.rows[i * w..(i + 1) * w];
                g.iter_mut().zip(row).for_each(|(a, &b)| *a += b);
            }
            g.iter_mut().for_each(|x| *x *= scale);
            adam(wt, m, v, &g, lr_t);
            wt.iter_mut()
                .for_each(|x| *x = x.clamp(-row_limit, row_limit));
        });
}
