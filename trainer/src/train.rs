//! Training: mini-batch Adam on the float network, batches split across
//! threads.
//!
//! # Loss
//!
//! For a position with search score `s` (side to move's view) and game
//! result `r` (1 win, ½ draw, 0 loss for the side to move):
//!
//! ```text
//! p      = sigmoid(SCALE · out / K)                 the net's expected result
//! target = λ · sigmoid(s / K) + (1 − λ) · r
//! loss   = mean over the batch of (p − target)²
//! ```
//!
//! `K` is the evaluation scale of a logistic unit, and must match the scale
//! of the scores in the data. The default evaluation's Texel fit
//! (`engine/src/eval/weights.rs`, `K 1.200` in `sigmoid(K · eval / 400)`)
//! puts it at 400 / 1.2 ≈ 333 of our units, the default; the best fit of
//! `sigmoid(score / K)` to the game results of its own self-play data (81,361
//! positions of `datagen --seed 2`) is 346. (Data made by the hand-made
//! evaluation before the bootstrap retune, whose fit was `K 2.991`, wants 134.)
//!
//! # Parallelism and determinism
//!
//! A batch is cut into one contiguous part per thread; each part
//! accumulates its own gradient (the first layer's sparsely: only the rows
//! of features it saw, which it remembers), then the parts are summed in
//! part order and Adam updates the weights: dense for the small layers,
//! sparse ("lazy") for the first layer, whose untouched rows and moments
//! stay as they are. Each epoch's order is a shuffle seeded by the seed and
//! the epoch number, so a run is reproducible for a given seed and thread
//! count, and resuming from a checkpoint continues it exactly.

use crate::adam::{BETA1, BETA2, adam};
use crate::data::Chunk;
use crate::model::{FloatNet, Hidden, screlu};
use crate::rng::Rng;
use crate::side;
use crate::stack;
use jiangjun_engine::nnue::simd::dispatch;
use jiangjun_engine::nnue::{Arch, FeatureSet, Network, SCALE};
use rayon::prelude::*;
use std::time::Instant;
use xiangqi::rng::{GAMMA, mix64};

/// How to train.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainConfig {
    /// Total epochs (a resumed run continues up to this many).
    pub epochs: usize,
    pub batch_size: usize,
    /// Adam's learning rate in the first epoch.
    pub lr: f32,
    /// The learning rate is multiplied by this after every epoch.
    pub lr_decay: f32,
    /// Weight of the search score against the game result in the target.
    pub lambda: f32,
    /// Evaluation units per logistic unit (see the module docs).
    pub k: f32,
    /// Threads, and parts of every batch.
    pub threads: usize,
    pub seed: u64,
    /// Share of the data held out for validation.
    pub val_fraction: f32,
    /// Train on the left-right mirror image of each position in about
    /// half of the epochs (a fresh seeded choice per position and epoch).
    pub mirror: bool,
    /// Give each first-layer row of a d-file king bucket and its f-file
    /// twin (`kingbucket9`, `FeatureSet::mirror_twin`) the sum of both
    /// gradients, so that they learn alike, as one shared bucket would,
    /// and keep the difference they started with (a net grown from one
    /// without buckets keeps evaluating exactly where it was exact).
    pub tie_mirrored: bool,
    /// The hidden layers' learning rate (with their output layer's) is
    /// the learning rate times this: layers grown fresh beside a trained
    /// first layer (`--grow-from` with `--hidden-layers`) need the rate of
    /// a fresh net, which would undo what the first layer learnt.
    pub hidden_lr_scale: f32,
    /// The network's architecture (a resumed state must have it).
    pub arch: Arch,
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            epochs: 10,
            batch_size: 16384,
            lr: 0.001,
            lr_decay: 1.0,
            lambda: 1.0,
            k: 333.0,
            threads: 1,
            seed: 1,
            val_fraction: 0.05,
            mirror: false,
            tie_mirrored: false,
            hidden_lr_scale: 1.0,
            arch: Arch::NET2,
        }
    }
}

impl TrainConfig {
    /// Reasons the configuration cannot be used.
    pub fn check(&self) -> Result<(), String> {
        if self.batch_size == 0 {
            return Err("the batch size must be at least 1".into());
        }
        if self.tie_mirrored && self.arch.features.mirror_twin(0).is_none() {
            return Err(format!(
                "--tie-mirrored needs king buckets with mirrored twins ({}), not {}",
                FeatureSet::with_mirror_twins(),
                self.arch.features
            ));
        }
        if self.threads == 0 {
            return Err("at least one thread is needed".into());
        }
        if !(0.0..=1.0).contains(&self.lambda) {
            return Err(format!("lambda {} is not between 0 and 1", self.lambda));
        }
        let positive = |x: f32| x.is_finite() && x > 0.0;
        if !positive(self.k) {
            return Err(format!("K {} must be positive", self.k));
        }
        if !positive(self.lr) || !positive(self.lr_decay) || !positive(self.hidden_lr_scale) {
            return Err("the learning rates and the decay must be positive".into());
        }
        if !(0.0..1.0).contains(&self.val_fraction) {
            return Err(format!(
                "validation fraction {} is not in [0, 1)",
                self.val_fraction
            ));
        }
        Ok(())
    }

    /// The learning rate of epoch `epoch` (0-based).
    pub fn lr_at(&self, epoch: usize) -> f32 {
        self.lr * self.lr_decay.powi(epoch as i32)
    }
}

/// Everything that training changes: the weights, Adam's moments, the
/// step and epoch counts. Checkpoints save and restore it whole.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainState {
    pub net: FloatNet,
    /// Adam's first and second moments, shaped like the network.
    pub m: FloatNet,
    pub v: FloatNet,
    /// Adam steps taken.
    pub step: u64,
    /// Epochs completed.
    pub epoch: usize,
}

impl TrainState {
    /// A fresh start from random weights, of net 2's architecture.
    pub fn new(seed: u64) -> TrainState {
        TrainState::with_arch(Arch::NET2, seed)
    }

    /// A start from the weights of an engine network: the float net whose
    /// nearest rounding is `net` again (`FloatNet::from_network`), Adam's
    /// moments zero, no step or epoch taken.
    pub fn from_network(net: &Network) -> TrainState {
        TrainState::starting_at(FloatNet::from_network(net))
    }

    /// No step taken yet from `net`: Adam's moments zero.
    pub fn starting_at(net: FloatNet) -> TrainState {
        let arch = net.arch;
        TrainState {
            net,
            m: FloatNet::zeros(arch),
            v: FloatNet::zeros(arch),
            step: 0,
            epoch: 0,
        }
    }

    /// A fresh start from random weights of architecture `arch`.
    pub fn with_arch(arch: Arch, seed: u64) -> TrainState {
        TrainState::starting_at(FloatNet::random(
            arch,
            &mut Rng::new(seed ^ 0x1417_2a5e_ed00_0001),
        ))
    }
}

/// What one epoch did.
#[derive(Clone, Debug)]
pub struct EpochReport {
    /// 1-based.
    pub epoch: usize,
    pub lr: f32,
    /// Mean loss over the epoch's training batches (weights moving).
    pub train_loss: f64,
    /// Mean loss on the held-out positions after the epoch, if any.
    pub val_loss: Option<f64>,
    /// The same against the search score alone (λ = 1) and against the
    /// game result alone (λ = 0): comparable across runs with different λ.
    pub val_score_loss: Option<f64>,
    pub val_result_loss: Option<f64>,
    pub positions: usize,
    pub seconds: f64,
}

impl EpochReport {
    pub fn positions_per_second(&self) -> f64 {
        self.positions as f64 / self.seconds.max(1e-9)
    }
}

#[inline(always)]
fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The training target of a packed record, side to move's view.
#[inline]
pub fn target(chunk: &Chunk, lambda: f32, k: f32) -> f32 {
    let black = chunk[45] & 1 == 1;
    let red_result = ((chunk[45] >> 1) & 3) as f32 / 2.0;
    let result = if black { 1.0 - red_result } else { red_result };
    let score = i16::from_le_bytes([chunk[46], chunk[47]]) as f32;
    lambda * sigmoid(score / k) + (1.0 - lambda) * result
}

/// The loss of one position (for validation and tests).
#[inline(always)]
pub fn position_loss(net: &FloatNet, chunk: &Chunk, lambda: f32, k: f32) -> f32 {
    position_losses(net, chunk, [lambda], k)[0]
}

/// The losses of one position against several blends `lambdas`.
#[inline(always)]
fn position_losses<const N: usize>(
    net: &FloatNet,
    chunk: &Chunk,
    lambdas: [f32; N],
    k: f32,
) -> [f32; N] {
    let inp = net.inputs(chunk, false);
    let out = net.output(&net.hidden(&inp), net.bucket(&inp));
    let p = sigmoid(SCALE as f32 * out / k);
    lambdas.map(|lambda| (p - target(chunk, lambda, k)).powi(2))
}

/// Mean loss over `data`, computed in parallel (in the current rayon pool).
pub fn mean_loss(net: &FloatNet, data: &[Chunk], lambda: f32, k: f32) -> f64 {
    mean_losses(net, data, [lambda], k)[0]
}

/// Mean losses over `data` against each blend in `lambdas`, in one pass.
pub fn mean_losses<const N: usize>(
    net: &FloatNet,
    data: &[Chunk],
    lambdas: [f32; N],
    k: f32,
) -> [f64; N] {
    if data.is_empty() {
        return [0.0; N];
    }
    let parts: Vec<[f64; N]> = data
        .par_chunks(4096)
        .map(|part| {
            dispatch(
                #[inline(always)]
                || {
                    let mut sums = [0.0f64; N];
                    for c in part {
                        let l = position_losses(net, c, lambdas, k);
                        for (s, l) in sums.iter_mut().zip(l) {
                            *s += l as f64;
                        }
                    }
                    sums
                },
            )
        })
        .collect();
    let mut total = [0.0f64; N];
    for p in &parts {
        for (t, x) in total.iter_mut().zip(p) {
            *t += x;
        }
    }
    total.map(|t| t / data.len() as f64)
}

/// Whether position `index` is mirrored in epoch `epoch` (0-based): a hash
/// of the seed, the epoch and the index, so runs stay reproducible.
#[inline(always)]
pub fn mirrored(seed: u64, epoch: usize, index: u32) -> bool {
    mix64(seed ^ (epoch as u64).wrapping_mul(GAMMA) ^ index as u64) & 1 == 1
}

/// One thread's gradient.
struct Grad {
    /// Accumulator units per perspective.
    l1: usize,
    l1_w: Vec<f32>,
    /// Rows of `l1_w` written since the last reset, and their list.
    touched: Vec<bool>,
    rows: Vec<u32>,
    l1_b: Vec<f32>,
    out_w: Vec<f32>,
    out_b: Vec<f32>,
    /// The hidden layers' (empty without).
    h1_w: Vec<f32>,
    h1_b: Vec<f32>,
    h2_w: Vec<f32>,
    h2_b: Vec<f32>,
    /// The skip path's (empty without).
    skip_w: Vec<f32>,
    skip_b: Vec<f32>,
    /// Scratch: d loss / d first-layer output, per perspective.
    d_us: Vec<f32>,
    d_them: Vec<f32>,
    /// The side accumulator's (empty without one).
    side: side::SideGrad,
    loss: f64,
}

impl Grad {
    fn new(arch: Arch) -> Grad {
        let (l1, inputs) = (arch.l1, arch.inputs());
        let shape = FloatNet::zeros(arch);
        let side = side::SideGrad::new(arch.side, arch.output_buckets);
        Grad {
            l1,
            l1_w: vec![0.0; inputs * l1],
            touched: vec![false; inputs],
            rows: Vec::with_capacity(inputs),
            l1_b: vec![0.0; l1],
            out_w: shape.out_w,
            out_b: shape.out_b,
            h1_w: shape.h1_w,
            h1_b: shape.h1_b,
            h2_w: shape.h2_w,
            h2_b: shape.h2_b,
            skip_w: shape.skip_w,
            skip_b: shape.skip_b,
            d_us: vec![0.0; l1],
            d_them: vec![0.0; l1],
            side,
            loss: 0.0,
        }
    }

    /// Add `d` to the gradient row of feature `f`.
    #[inline(always)]
    fn add_row(
        l1_w: &mut [f32],
        touched: &mut [bool],
        rows: &mut Vec<u32>,
        l1: usize,
        f: usize,
        d: &[f32],
    ) {
        if !touched[f] {
            touched[f] = true;
            rows.push(f as u32);
        }
        for (g, &x) in l1_w[f * l1..(f + 1) * l1].iter_mut().zip(d) {
            *g += x;
        }
    }

    /// Zero what `add_row` and the dense parts wrote.
    fn reset(&mut self) {
        let l1 = self.l1;
        for &f in &self.rows {
            let f = f as usize;
            self.l1_w[f * l1..(f + 1) * l1].fill(0.0);
            self.touched[f] = false;
        }
        self.rows.clear();
        self.l1_b.fill(0.0);
        self.out_w.fill(0.0);
        self.out_b.fill(0.0);
        for g in [
            &mut self.h1_w,
            &mut self.h1_b,
            &mut self.h2_w,
            &mut self.h2_b,
            &mut self.skip_w,
            &mut self.skip_b,
        ] {
            g.fill(0.0);
        }
        self.side.reset();
        self.loss = 0.0;
    }

    /// Forward and backward pass of one position, summing into self.
    #[inline(always)]
    fn accumulate(&mut self, net: &FloatNet, chunk: &Chunk, mirror: bool, lambda: f32, k: f32) {
        let inp = net.inputs(chunk, mirror);
        let h = net.hidden(&inp);
        let bucket = net.bucket(&inp);
        let l1 = self.l1;
        // An `if`, not `bool::then` with a closure: the closure was not
        // inlined, so the hidden layers' forward pass ran without AVX2.
        let act = if net.arch.has_hidden() {
            Some(stack::forward(&net.stack(), &h.us, &h.them, bucket))
        } else {
            None
        };
        let out = match &act {
            Some(a) => a.out + net.skip_output(&h, bucket),
            None => net.output(&h, bucket),
        };
        let p = sigmoid(SCALE as f32 * out / k);
        let err = p - target(chunk, lambda, k);
        self.loss += (err * err) as f64;
        // d loss / d out.
        let g = 2.0 * err * p * (1.0 - p) * SCALE as f32 / k;
        if let Some(act) = act {
            let grad = stack::StackGrad {
                h1_w: &mut self.h1_w,
                h1_b: &mut self.h1_b,
                h2_w: &mut self.h2_w,
                h2_b: &mut self.h2_b,
                out_w: &mut self.out_w,
                out_b: &mut self.out_b,
            };
            stack::backward(
                &net.stack(),
                (&h.us, &h.them),
                bucket,
                &act,
                g,
                grad,
                &mut self.d_us,
                &mut self.d_them,
            );
            if net.arch.skip {
                let b = (&mut self.skip_w[..], &mut self.skip_b[..]);
                let d = (&mut self.d_us[..], &mut self.d_them[..]);
                screlu_backward(l1, &h, &net.skip_w, b, bucket, g, d, true);
            }
        } else {
            let b = (&mut self.out_w[..], &mut self.out_b[..]);
            let d = (&mut self.d_us[..], &mut self.d_them[..]);
            screlu_backward(l1, &h, &net.out_w, b, bucket, g, d, false);
            let feats = (&inp.side_us[..inp.side_len], &inp.side_them[..inp.side_len]);
            let values = (&h.side_us[..], &h.side_them[..]);
            self.side.accumulate(&net.side(), feats, values, bucket, g);
        }
        let (d_us, d_them) = (&self.d_us, &self.d_them);
        for ((b, &u), &t) in self.l1_b.iter_mut().zip(d_us).zip(d_them) {
            *b += u + t;
        }
        let (w, t, r) = (&mut self.l1_w, &mut self.touched, &mut self.rows);
        for i in 0..inp.len {
            Grad::add_row(w, t, r, l1, inp.us[i] as usize, d_us);
            Grad::add_row(w, t, r, l1, inp.them[i] as usize, d_them);
        }
    }
}

/// The SCReLU output layer's backward pass (weights `w`, `2·L1` per
/// bucket, and the gradients of them and of the biases): its gradient,
/// and `d loss / d a` written into `d` (the layer alone) or, with `add`,
/// added to it (the skip path, beside the hidden layers' share).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn screlu_backward(
    l1: usize,
    h: &Hidden,
    w: &[f32],
    (gw, gb): (&mut [f32], &mut [f32]),
    bucket: usize,
    g: f32,
    (d_us, d_them): (&mut [f32], &mut [f32]),
    add: bool,
) {
    let w = &w[bucket * 2 * l1..(bucket + 1) * 2 * l1];
    let gw = &mut gw[bucket * 2 * l1..(bucket + 1) * 2 * l1];
    for (half, (a, d)) in [(&h.us, d_us), (&h.them, d_them)].into_iter().enumerate() {
        let (w, gw) = (
            &w[half * l1..(half + 1) * l1],
            &mut gw[half * l1..(half + 1) * l1],
        );
        // Zipped slices, not indices: with no bounds checks left the
        // compiler vectorises the loop (indexed, it ran one value at a
        // time and was a fifth of the training time of a 512-wide net).
        for (((&x, &w), gw), d) in a[..l1].iter().zip(w).zip(gw.iter_mut()).zip(&mut d[..l1]) {
            *gw += g * screlu(x);
            // screlu'(x) = 2x on (0, 1), else 0.
            let slope = if x > 0.0 && x < 1.0 { 2.0 * x } else { 0.0 };
            let before = if add { *d } else { 0.0 };
            *d = before + g * w * slope;
        }
    }
    gb[bucket] += g;
}

/// The trainer: state plus per-thread gradient buffers.
pub struct Trainer {
    pub config: TrainConfig,
    pub state: TrainState,
    grads: Vec<Grad>,
}

impl Trainer {
    pub fn new(config: TrainConfig, mut state: TrainState) -> Trainer {
        // A step clamps only the rows it changes, so every row starts
        // inside its limit.
        state.net.clip();
        let grads = (0..config.threads)
            .map(|_| Grad::new(state.net.arch))
            .collect();
        Trainer {
            config,
            state,
            grads,
        }
    }

    /// One optimisation step on the positions `batch` (indices into `data`).
    /// Returns the batch's summed loss (before the step).
    pub fn step(&mut self, data: &[Chunk], batch: &[u32], lr: f32) -> f64 {
        let n = batch.len();
        if n == 0 {
            return 0.0;
        }
        let parts = self.grads.len();
        let per_part = n.div_ceil(parts);
        let (lambda, k) = (self.config.lambda, self.config.k);
        let (mirror, seed, epoch) = (self.config.mirror, self.config.seed, self.state.epoch);
        let net = &self.state.net;
        self.grads
            .par_iter_mut()
            .zip(batch.par_chunks(per_part))
            .for_each(|(grad, idx)| {
                dispatch(
                    #[inline(always)]
                    || {
                        for &i in idx {
                            let m = mirror && mirrored(seed, epoch, i);
                            grad.accumulate(net, &data[i as usize], m, lambda, k);
                        }
                    },
                )
            });

        self.state.step += 1;
        let t = self.state.step as i32;
        let lr_t = lr * (1.0 - BETA2.powi(t)).sqrt() / (1.0 - BETA1.powi(t));
        let scale = 1.0 / n as f32;
        let grads = &self.grads;
        let loss: f64 = grads.iter().map(|g| g.loss).sum();
        let tie = self.config.tie_mirrored;
        let (hidden, hidden_scale) = (
            self.state.net.arch.has_hidden(),
            self.config.hidden_lr_scale,
        );

        // Dense layers: sum in part order, average, step.
        let st = &mut self.state;
        for (block, (w, (m, v))) in [
            (&mut st.net.l1_b, (&mut st.m.l1_b, &mut st.v.l1_b)),
            (&mut st.net.out_w, (&mut st.m.out_w, &mut st.v.out_w)),
            (&mut st.net.out_b, (&mut st.m.out_b, &mut st.v.out_b)),
            (&mut st.net.h1_w, (&mut st.m.h1_w, &mut st.v.h1_w)),
            (&mut st.net.h1_b, (&mut st.m.h1_b, &mut st.v.h1_b)),
            (&mut st.net.h2_w, (&mut st.m.h2_w, &mut st.v.h2_w)),
            (&mut st.net.h2_b, (&mut st.m.h2_b, &mut st.v.h2_b)),
            (&mut st.net.skip_w, (&mut st.m.skip_w, &mut st.v.skip_w)),
            (&mut st.net.skip_b, (&mut st.m.skip_b, &mut st.v.skip_b)),
        ]
        .into_iter()
        .enumerate()
        {
            if w.is_empty() {
                continue;
            }
            let mut g = vec![0.0f32; w.len()];
            for grad in grads {
                let src = match block {
                    0 => &grad.l1_b,
                    1 => &grad.out_w,
                    2 => &grad.out_b,
                    3 => &grad.h1_w,
                    4 => &grad.h1_b,
                    5 => &grad.h2_w,
                    6 => &grad.h2_b,
                    7 => &grad.skip_w,
                    _ => &grad.skip_b,
                };
                for (a, &b) in g.iter_mut().zip(src) {
                    *a += b;
                }
            }
            g.iter_mut().for_each(|x| *x *= scale);
            // Blocks 1 to 6 are the hidden layers and their output layer
            // in a net that has them (the skip path is 7 and 8).
            let stack = hidden && (1..=6).contains(&block);
            adam(w, m, v, &g, if stack { lr_t * hidden_scale } else { lr_t });
        }

        // The first layer: only rows some part touched.
        let l1 = st.net.l1();
        let limits: Vec<f32> = (0..st.net.arch.inputs())
            .map(|f| st.net.row_limit(f))
            .collect();
        let mut touched = vec![false; st.net.arch.inputs()];
        // With tied buckets, a row's step also takes its twin's gradient.
        let set = st.net.arch.features;
        let twin = |f: usize| if tie { set.mirror_twin(f) } else { None };
        for grad in grads {
            for &f in &grad.rows {
                touched[f as usize] = true;
                if let Some(t) = twin(f as usize) {
                    touched[t] = true;
                }
            }
        }
        st.net
            .l1_w
            .par_chunks_mut(l1)
            .zip(st.m.l1_w.par_chunks_mut(l1))
            .zip(st.v.l1_w.par_chunks_mut(l1))
            .enumerate()
            .filter(|(f, _)| touched[*f])
            .for_each(|(f, ((w, m), v))| {
                let mut g = vec![0.0f32; l1];
                for r in std::iter::once(f).chain(twin(f)) {
                    for grad in grads.iter().filter(|gr| gr.touched[r]) {
                        for (a, &b) in g.iter_mut().zip(&grad.l1_w[r * l1..(r + 1) * l1]) {
                            *a += b;
                        }
                    }
                }
                g.iter_mut().for_each(|x| *x *= scale);
                let limit = limits[f];
                dispatch(
                    #[inline(always)]
                    || {
                        adam(w, m, v, &g, lr_t);
                        w.iter_mut().for_each(|x| *x = x.clamp(-limit, limit));
                    },
                );
            });
        let sides: Vec<&side::SideGrad> = grads.iter().map(|g| &g.side).collect();
        // The side accumulator, grown fresh beside a trained net, learns
        // at the hidden layers' rate.
        let side_lr = lr_t * self.config.hidden_lr_scale;
        let net = &mut st.net;
        side::step(
            [
                (&mut net.side_w, &mut st.m.side_w, &mut st.v.side_w),
                (&mut net.side_f1, &mut st.m.side_f1, &mut st.v.side_f1),
                (&mut net.side_f2, &mut st.m.side_f2, &mut st.v.side_f2),
                (&mut net.side_b, &mut st.m.side_b, &mut st.v.side_b),
                (&mut net.side_out, &mut st.m.side_out, &mut st.v.side_out),
            ],
            &sides,
            scale,
            side_lr,
            crate::model::L1_LIMIT,
        );
        st.net.clip_dense();
        self.grads.par_iter_mut().for_each(Grad::reset);
        loss
    }

    /// The shuffled order of the training positions in epoch `epoch` (0-based).
    pub fn epoch_order(&self, n: usize, epoch: usize) -> Vec<u32> {
        let mut order: Vec<u32> = (0..n as u32).collect();
        let salt = (epoch as u64 + 1).wrapping_mul(GAMMA);
        Rng::new(self.config.seed ^ salt).shuffle(&mut order);
        order
    }

    /// Train one epoch on `train`, then measure the loss on `val`.
    pub fn epoch(&mut self, train: &[Chunk], val: &[Chunk]) -> EpochReport {
        let start = Instant::now();
        let e = self.state.epoch;
        let lr = self.config.lr_at(e);
        let order = self.epoch_order(train.len(), e);
        let mut loss = 0.0;
        for batch in order.chunks(self.config.batch_size) {
            loss += self.step(train, batch, lr);
        }
        let seconds = start.elapsed().as_secs_f64();
        self.state.epoch += 1;
        let val_losses = (!val.is_empty()).then(|| {
            mean_losses(
                &self.state.net,
                val,
                [self.config.lambda, 1.0, 0.0],
                self.config.k,
            )
        });
        EpochReport {
            epoch: self.state.epoch,
            lr,
            train_loss: loss / train.len().max(1) as f64,
            val_loss: val_losses.map(|l| l[0]),
            val_score_loss: val_losses.map(|l| l[1]),
            val_result_loss: val_losses.map(|l| l[2]),
            positions: train.len(),
            seconds,
        }
    }
}

/// Shuffle the positions with the seed and hold out the last
/// `val_fraction` of them: returns (training, validation).
pub fn split(mut data: Vec<Chunk>, val_fraction: f32, seed: u64) -> (Vec<Chunk>, Vec<Chunk>) {
    Rng::new(seed ^ 0x5b11_7000_0000_0001).shuffle(&mut data);
    let n_val = ((data.len() as f64) * val_fraction as f64).round() as usize;
    let n_val = n_val.min(data.len().saturating_sub(1));
    let val = data.split_off(data.len() - n_val);
    (data, val)
}

#[cfg(test)]
#[path = "train_tests.rs"]
mod tests;
