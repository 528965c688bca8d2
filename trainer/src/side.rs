//! The side accumulator of threat squares in float (`Arch::side`, the
//! engine's `nnue::side`): its values, its share of the output, its
//! gradient and its Adam step, and growing it beside a trained net.
//!
//! ```text
//! s_us   = bs + Σ_{threat squares seen by the side to move} Ws[i]   (side values)
//! s_them = bs + Σ_{threat squares seen by the other side}   Ws[i]
//! out   += Wso[bucket] · [screlu(s_us), screlu(s_them)]
//! ```
//!
//! Quantised as the first layer (`Ws`, `bs` at `QA`) and its output layer
//! (`Wso` at `QB`), added to the output sum before the engine's one
//! rounding. Grown with `Wso` at zero, a net evaluates as before, bit for
//! bit; the rows start random so that `Wso`'s gradient is not zero.

use crate::inputs::Inputs;
use crate::model::{FloatNet, Hidden, L1_LIMIT, screlu};
use crate::rng::Rng;
use crate::train::adam;
use jiangjun_engine::nnue::side::{SIDE_INPUTS, SideWeights};
use jiangjun_engine::nnue::{Network, QA, QB};
use rayon::prelude::*;

/// Random side weights for a fresh net or a grown one: rows uniform in
/// ±0.1 (some 40 to 90 attacks a position put the values inside SCReLU's
/// slope), biases zero, output weights uniform in ±1/√(2·side).
pub fn randomise(net: &mut FloatNet, rng: &mut Rng) {
    let w = net.arch.side;
    if w == 0 {
        return;
    }
    net.side_w.iter_mut().for_each(|x| *x = rng.symmetric(0.1));
    net.side_b.fill(0.0);
    let a = 1.0 / ((2 * w) as f32).sqrt();
    net.side_out.iter_mut().for_each(|x| *x = rng.symmetric(a));
}

/// `net` (without hidden layers or a side accumulator) with a side
/// accumulator of `width` units beside its first layer: the rows random,
/// the output weights zero, so that it evaluates exactly as `net` (float
/// and quantised) until training moves them.
pub fn grow(net: &FloatNet, width: usize, rng: &mut Rng) -> Result<FloatNet, String> {
    if net.arch.side != 0 {
        return Err(format!("{} has threat squares already", net.arch));
    }
    let arch = net.arch.with_side(width).map_err(|e| e.to_string())?;
    let mut grown = FloatNet::zeros(arch);
    for (to, from) in grown.blocks_mut().into_iter().zip(net.blocks()) {
        to.clone_from(&from.to_vec());
    }
    grown.side_w = vec![0.0; SIDE_INPUTS * width];
    grown.side_b = vec![0.0; width];
    grown.side_out = vec![0.0; arch.output_buckets * 2 * width];
    randomise(&mut grown, rng);
    grown.side_out.fill(0.0);
    Ok(grown)
}

/// The side values of `inp` for both perspectives (empty without a side
/// accumulator).
#[inline(always)]
pub fn values(net: &FloatNet, inp: &Inputs) -> (Vec<f32>, Vec<f32>) {
    let w = net.arch.side;
    if w == 0 {
        return (Vec::new(), Vec::new());
    }
    let sum = |feats: &[u32]| {
        let mut v = net.side_b.clone();
        for &i in feats {
            let row = &net.side_w[i as usize * w..(i as usize + 1) * w];
            v.iter_mut().zip(row).for_each(|(v, &r)| *v += r);
        }
        v
    };
    (
        sum(&inp.side_us[..inp.side_len]),
        sum(&inp.side_them[..inp.side_len]),
    )
}

/// The side accumulator's share of the raw output in `bucket` (0 without one).
#[inline(always)]
pub fn output(net: &FloatNet, h: &Hidden, bucket: usize) -> f32 {
    let w = net.arch.side;
    if w == 0 {
        return 0.0;
    }
    let wo = &net.side_out[bucket * 2 * w..(bucket + 1) * 2 * w];
    let mut sum = 0.0;
    for (half, s) in [&h.side_us, &h.side_them].into_iter().enumerate() {
        for (&x, &wt) in s.iter().zip(&wo[half * w..(half + 1) * w]) {
            sum += wt * screlu(x);
        }
    }
    sum
}

/// The engine's network's side weights into `f` (its integers over their scales).
pub fn from_network(f: &mut FloatNet, net: &Network) {
    let w = net.arch().side;
    if w == 0 {
        return;
    }
    for i in 0..SIDE_INPUTS {
        for (d, &q) in f.side_w[i * w..(i + 1) * w].iter_mut().zip(net.side_row(i)) {
            *d = q as f32 / QA as f32;
        }
    }
    for (d, &q) in f.side_b.iter_mut().zip(net.side_bias()) {
        *d = q as f32 / QA as f32;
    }
    for b in 0..net.arch().output_buckets {
        let dst = &mut f.side_out[b * 2 * w..(b + 1) * 2 * w];
        for (d, &q) in dst.iter_mut().zip(net.side_output(b)) {
            *d = q as f32 / QB as f32;
        }
    }
}

/// One thread's gradient of the side accumulator's weights.
pub struct SideGrad {
    width: usize,
    /// The rows' gradient (`SIDE_INPUTS × side`), those written since the
    /// last reset marked and listed.
    pub(crate) rows: Vec<f32>,
    pub(crate) touched: Vec<bool>,
    list: Vec<u32>,
    pub(crate) bias: Vec<f32>,
    pub(crate) out: Vec<f32>,
    /// Scratch: d loss / d side values of one perspective.
    d: Vec<f32>,
}

impl SideGrad {
    /// Empty for a network without a side accumulator.
    pub fn new(net: &FloatNet) -> SideGrad {
        let w = net.arch.side;
        SideGrad {
            width: w,
            rows: vec![0.0; net.side_w.len()],
            touched: vec![false; if w == 0 { 0 } else { SIDE_INPUTS }],
            list: Vec::new(),
            bias: vec![0.0; w],
            out: vec![0.0; net.side_out.len()],
            d: vec![0.0; w],
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
        self.bias.fill(0.0);
        self.out.fill(0.0);
    }

    /// The backward pass of one position whose output's gradient is `g`.
    #[inline(always)]
    pub fn accumulate(&mut self, net: &FloatNet, inp: &Inputs, h: &Hidden, bucket: usize, g: f32) {
        let w = self.width;
        if w == 0 {
            return;
        }
        let wo = &net.side_out[bucket * 2 * w..(bucket + 1) * 2 * w];
        let go = &mut self.out[bucket * 2 * w..(bucket + 1) * 2 * w];
        let halves = [
            (&h.side_us, &inp.side_us[..inp.side_len]),
            (&h.side_them, &inp.side_them[..inp.side_len]),
        ];
        for (half, (s, feats)) in halves.into_iter().enumerate() {
            for j in 0..w {
                let x = s[j];
                go[half * w + j] += g * screlu(x);
                let slope = if x > 0.0 && x < 1.0 { 2.0 * x } else { 0.0 };
                self.d[j] = g * wo[half * w + j] * slope;
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
                let row = &mut self.rows[i * w..(i + 1) * w];
                row.iter_mut().zip(&self.d).for_each(|(r, &d)| *r += d);
            }
        }
    }
}

/// One Adam step of the side weights from the threads' gradients (summed
/// in thread order, times `scale`), rows only where some thread has a
/// gradient, each clamped into the first layer's range.
pub fn step(
    net: &mut FloatNet,
    (m, v): (&mut FloatNet, &mut FloatNet),
    grads: &[&SideGrad],
    scale: f32,
    lr_t: f32,
) {
    let w = net.arch.side;
    if w == 0 {
        return;
    }
    for (block, (wt, (mm, vv))) in [
        (&mut net.side_b, (&mut m.side_b, &mut v.side_b)),
        (&mut net.side_out, (&mut m.side_out, &mut v.side_out)),
    ]
    .into_iter()
    .enumerate()
    {
        let mut g = vec![0.0f32; wt.len()];
        for grad in grads {
            let src = if block == 0 { &grad.bias } else { &grad.out };
            g.iter_mut().zip(src).for_each(|(a, &b)| *a += b);
        }
        g.iter_mut().for_each(|x| *x *= scale);
        adam(wt, mm, vv, &g, lr_t);
    }
    let touched: Vec<bool> = (0..SIDE_INPUTS)
        .map(|i| grads.iter().any(|g| g.touched[i]))
        .collect();
    net.side_w
        .par_chunks_mut(w)
        .zip(m.side_w.par_chunks_mut(w))
        .zip(v.side_w.par_chunks_mut(w))
        .enumerate()
        .filter(|(i, _)| touched[*i])
        .for_each(|(i, ((wt, mm), vv))| {
            let mut g = vec![0.0f32; w];
            for grad in grads.iter().filter(|gr| gr.touched[i]) {
                let row = &grad.rows[i * w..(i + 1) * w];
                g.iter_mut().zip(row).for_each(|(a, &b)| *a += b);
            }
            g.iter_mut().for_each(|x| *x *= scale);
            adam(wt, mm, vv, &g, lr_t);
            wt.iter_mut()
                .for_each(|x| *x = x.clamp(-L1_LIMIT, L1_LIMIT));
        });
}
