//! The float network the trainer optimises: one of the engine's
//! architectures (`jiangjun_engine::nnue::Arch`: feature set, L1, output
//! buckets) with `f32` weights, and its quantisation into the engine's
//! integer network.
//!
//! ```text
//! a_us   = b1 + Σ_{f ∈ features(side to move)} W1[f]       (L1 values)
//! a_them = b1 + Σ_{f ∈ features(other side)}   W1[f]
//!          (features through the engine's declared blocks, king
//!          buckets and their mirror included, the attacks of a threat
//!          block rebuilt from the record's squares; an input active
//!          twice counts twice)
//! h      = [screlu(a_us), screlu(a_them)],  screlu(x) = clamp(x, 0, 1)²
//! out    = W2[bucket] · h + b2[bucket]
//! eval   = SCALE · out   (centipawn-like, side to move's view)
//! ```
//!
//! With hidden layers (`Arch::hidden`), `h` is the pairwise product of
//! each perspective's halves and feeds one stack of layers per bucket
//! ([`crate::stack`]); what follows is for networks without, and for the
//! skip path (`Arch::skip`) of one with them: `W2`, `b2` kept as `skip_w`,
//! `skip_b`, its `out` added to the stack's.
//!
//! Quantisation: `W1, b1 → round(· QA)`, `W2 → round(· QB)`,
//! `b2 → round(· QA · QB)`; the engine's integer formula then computes the
//! same `eval` up to rounding. The weights are kept inside the ranges that
//! quantise within the engine's limits ([`L1_LIMIT`], each input block's
//! own for its rows ([`block_limit`]), [`OUT_LIMIT`], [`OUT_BIAS_LIMIT`]).

pub use crate::activation::screlu;
use crate::data::Chunk;
pub use crate::inputs::{Inputs, MAX_INPUTS};
use crate::rng::Rng;
use crate::side::{self, SideStart};
use crate::stack::{self, HIDDEN_B_LIMIT, HIDDEN_W_LIMIT, STACK_OUT_LIMIT};
use jiangjun_engine::nnue::features::{Block, InputBlock};
use jiangjun_engine::nnue::side::SIDE_INPUTS;
use jiangjun_engine::nnue::stack::{MAX_HIDDEN_WEIGHT, QACT, QH, QO};
use jiangjun_engine::nnue::threats::MAX_THREAT_WEIGHT;
use jiangjun_engine::nnue::{Arch, MAX_L1_WEIGHT, MAX_OUT_WEIGHT, Network, QA, QB, SCALE};
use xiangqi::Board;

/// Largest first-layer weight or bias: quantises to at most `MAX_L1_WEIGHT`.
pub const L1_LIMIT: f32 = MAX_L1_WEIGHT as f32 / QA as f32;
/// Largest threat weight: quantises to at most `MAX_THREAT_WEIGHT`.
pub const THREAT_LIMIT: f32 = MAX_THREAT_WEIGHT as f32 / QA as f32;

/// Largest weight of `block`'s rows: quantises to at most its bound.
pub fn block_limit(block: Block) -> f32 {
    block.weight_bound() as f32 / QA as f32
}
/// Largest output weight: quantises to at most `MAX_OUT_WEIGHT`.
pub const OUT_LIMIT: f32 = MAX_OUT_WEIGHT as f32 / QB as f32;
/// Largest output bias: quantises into an `i16`.
pub const OUT_BIAS_LIMIT: f32 = i16::MAX as f32 / (QA * QB) as f32;

/// Clamp every value of `v` into `±limit`.
fn clamp(v: &mut [f32], limit: f32) {
    v.iter_mut().for_each(|w| *w = w.clamp(-limit, limit));
}

/// First-layer values summed at a time by [`FloatNet::hidden`]: 64 `f32`,
/// eight AVX2 registers; every accumulator width is a multiple of 64.
const HIDDEN_TILE: usize = 64;

/// The float network: one of the engine's shapes, `f32` weights.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    pub arch: Arch,
    /// First-layer weights, feature-major: `W1[f]` is `l1_w[f * L1..(f + 1) * L1]`.
    pub l1_w: Vec<f32>,
    pub l1_b: Vec<f32>,
    /// Output weights per bucket: side to move's `L1`, then the other's;
    /// with hidden layers, the `H2` weights of the last one.
    pub out_w: Vec<f32>,
    pub out_b: Vec<f32>,
    /// Hidden layers (empty without): `buckets × H1 × L1`, `buckets × H1`,
    /// `buckets × H2 × H1`, `buckets × H2`, output-major.
    pub h1_w: Vec<f32>,
    pub h1_b: Vec<f32>,
    pub h2_w: Vec<f32>,
    pub h2_b: Vec<f32>,
    /// The skip path's SCReLU output layer (empty without): as `out_w`
    /// and `out_b` of a network without hidden layers.
    pub skip_w: Vec<f32>,
    pub skip_b: Vec<f32>,
    /// The side accumulator of threat squares (`Arch::side`; empty
    /// without): rows `SIDE_INPUTS × side`, input-major, biases `side`,
    /// output weights `buckets × 2·side` (the side to move's half first),
    /// its SCReLU output added to the first layer's ([`crate::side`]).
    pub side_w: Vec<f32>,
    pub side_b: Vec<f32>,
    pub side_out: Vec<f32>,
    /// Its factor rows (training only: the file holds the folded rows).
    pub side_f1: Vec<f32>,
    pub side_f2: Vec<f32>,
}

/// The first layer's values of one position for both perspectives (`L1`
/// each), and the side accumulator's (`side` each; empty without one).
pub struct Hidden {
    pub us: Vec<f32>,
    pub them: Vec<f32>,
    pub side_us: Vec<f32>,
    pub side_them: Vec<f32>,
}

impl FloatNet {
    /// All parameters zero.
    pub fn zeros(arch: Arch) -> FloatNet {
        let (l1, buckets, [h1, h2]) = (arch.l1, arch.output_buckets, arch.hidden);
        let out = if arch.has_hidden() { h2 } else { 2 * l1 };
        let skip = if arch.skip { buckets } else { 0 };
        FloatNet {
            arch,
            l1_w: vec![0.0; arch.inputs() * l1],
            l1_b: vec![0.0; l1],
            out_w: vec![0.0; buckets * out],
            out_b: vec![0.0; buckets],
            h1_w: vec![0.0; buckets * h1 * l1],
            h1_b: vec![0.0; buckets * h1],
            h2_w: vec![0.0; buckets * h2 * h1],
            h2_b: vec![0.0; buckets * h2],
            skip_w: vec![0.0; skip * 2 * l1],
            skip_b: vec![0.0; skip],
            side_w: vec![0.0; SIDE_INPUTS * arch.side],
            side_b: vec![0.0; arch.side],
            side_out: vec![0.0; buckets * 2 * arch.side],
            side_f1: vec![0.0; side::F1 * arch.side],
            side_f2: vec![0.0; side::F2 * arch.side],
        }
    }

    /// This network (without hidden layers) grown into one with hidden
    /// layers of `h1` and `h2` units beside its output layer, which stays
    /// as the skip path: the hidden layers start as [`FloatNet::random`]
    /// makes them but with their output weights and biases at zero, so the
    /// grown net's evaluation is this one's exactly (float and quantised)
    /// until training moves them.
    pub fn grow_stack(&self, h1: usize, h2: usize, rng: &mut Rng) -> Result<FloatNet, String> {
        if self.arch.has_hidden() {
            return Err(format!("{} has hidden layers already", self.arch));
        }
        let arch = self
            .arch
            .with_hidden(h1, h2)
            .and_then(|a| a.with_skip())
            .map_err(|e| e.to_string())?;
        let mut net = FloatNet::random(arch, rng);
        net.l1_w.clone_from(&self.l1_w);
        net.l1_b.clone_from(&self.l1_b);
        net.skip_w.clone_from(&self.out_w);
        net.skip_b.clone_from(&self.out_b);
        net.out_w.fill(0.0);
        net.out_b.fill(0.0);
        Ok(net)
    }

    /// Random initial weights: first layer uniform in ±0.1 (with about 32
    /// active inputs, pre-activations of spread ≈ 0.33, inside SCReLU's
    /// slope), output layer uniform in ±1/√(2·L1), biases zero. With hidden
    /// layers, each layer uniform in ±1/√inputs and the hidden biases 0.1
    /// (inside the clipped ReLU's slope, so that every unit learns).
    pub fn random(arch: Arch, rng: &mut Rng) -> FloatNet {
        let mut net = FloatNet::zeros(arch);
        for w in &mut net.l1_w {
            *w = rng.symmetric(0.1);
        }
        let [h1, h2] = arch.hidden;
        let fan_in = if arch.has_hidden() { h2 } else { 2 * arch.l1 };
        let a = 1.0 / (fan_in as f32).sqrt();
        for w in &mut net.out_w {
            *w = rng.symmetric(a);
        }
        for (w, n) in [(&mut net.h1_w, arch.l1), (&mut net.h2_w, h1.max(1))] {
            let a = 1.0 / (n as f32).sqrt();
            w.iter_mut().for_each(|w| *w = rng.symmetric(a));
        }
        net.h1_b.fill(0.1);
        net.h2_b.fill(0.1);
        let w = net.arch.side;
        side::randomise(
            w,
            (&mut net.side_w, &mut net.side_b, &mut net.side_out),
            rng,
        );
        net
    }

    /// The side accumulator's weights, for [`side`]'s passes.
    #[inline(always)]
    pub fn side(&self) -> side::SideParams<'_> {
        side::SideParams {
            width: self.arch.side,
            rows: &self.side_w,
            f1: &self.side_f1,
            f2: &self.side_f2,
            bias: &self.side_b,
            out: &self.side_out,
        }
    }

    /// This network (without hidden layers or a side accumulator) with a
    /// side accumulator of threat squares of `width` units beside its first
    /// layer, started as `start` says ([`SideStart`]): either way the grown
    /// net evaluates exactly as this one (float and quantised) until
    /// training moves it.
    pub fn grow_side(
        &self,
        width: usize,
        start: SideStart,
        rng: &mut Rng,
    ) -> Result<FloatNet, String> {
        if self.arch.side != 0 {
            return Err(format!("{} has threat squares already", self.arch));
        }
        let arch = self.arch.with_side(width).map_err(|e| e.to_string())?;
        let mut grown = FloatNet::zeros(arch);
        for (to, from) in grown.blocks_mut().into_iter().zip(self.blocks()) {
            if !from.is_empty() {
                to.clear();
                to.extend_from_slice(from);
            }
        }
        let blocks = (
            &mut grown.side_w[..],
            &mut grown.side_b[..],
            &mut grown.side_out[..],
        );
        match start {
            SideStart::Random => {
                side::randomise(width, blocks, rng);
                grown.side_out.fill(0.0);
            }
            SideStart::Quiet => side::quiet_start(width, blocks, rng),
        }
        Ok(grown)
    }

    /// Accumulator units per perspective.
    #[inline(always)]
    pub fn l1(&self) -> usize {
        self.arch.l1
    }

    /// The inputs of a packed record, mirrored if asked, for this network.
    #[inline(always)]
    pub fn inputs(&self, chunk: &Chunk, mirror: bool) -> Inputs {
        let mut inp = Inputs::from_chunk_mirrored(self.arch.features, chunk, mirror);
        if self.arch.side != 0 {
            inp.add_side();
        }
        inp
    }

    /// The output bucket of `inp`.
    #[inline(always)]
    pub fn bucket(&self, inp: &Inputs) -> usize {
        inp.bucket(self.arch.output_buckets)
    }

    /// The hidden layers' weights, for [`stack`]'s passes.
    #[inline(always)]
    pub fn stack(&self) -> stack::StackParams<'_> {
        stack::StackParams {
            l1: self.l1(),
            hidden: self.arch.hidden,
            h1_w: &self.h1_w,
            h1_b: &self.h1_b,
            h2_w: &self.h2_w,
            h2_b: &self.h2_b,
            out_w: &self.out_w,
            out_b: &self.out_b,
        }
    }

    /// The first layer: biases plus the rows of the active features.
    #[inline(always)]
    pub fn hidden(&self, inp: &Inputs) -> Hidden {
        let l1 = self.l1();
        let (side_us, side_them) = side::values(
            &self.side(),
            &inp.side_us[..inp.side_len],
            &inp.side_them[..inp.side_len],
        );
        let mut h = Hidden {
            us: vec![0.0; l1],
            them: vec![0.0; l1],
            side_us,
            side_them,
        };
        // A tile of the sums at a time, held in registers while every
        // active row is added to it: each sum is loaded and stored once
        // rather than once per row. Each value is still the bias plus the
        // rows in feature order, so the result does not change.
        for (acc, feats) in [(&mut h.us, &inp.us), (&mut h.them, &inp.them)] {
            let feats = &feats[..inp.len];
            for (t, (out, bias)) in acc
                .chunks_exact_mut(HIDDEN_TILE)
                .zip(self.l1_b.chunks_exact(HIDDEN_TILE))
                .enumerate()
            {
                let mut sums = [0.0f32; HIDDEN_TILE];
                sums.copy_from_slice(bias);
                for &f in feats {
                    let start = f as usize * l1 + t * HIDDEN_TILE;
                    let row = &self.l1_w[start..start + HIDDEN_TILE];
                    for (s, &w) in sums.iter_mut().zip(row) {
                        *s += w;
                    }
                }
                out.copy_from_slice(&sums);
            }
        }
        h
    }

    /// The raw output (`eval / SCALE`) for the given first-layer values.
    /// Summed in 8 interleaved partial sums (a fixed order, so results are
    /// reproducible) that the compiler can keep in one vector register.
    #[inline(always)]
    pub fn output(&self, h: &Hidden, bucket: usize) -> f32 {
        if self.arch.has_hidden() {
            return stack::forward(&self.stack(), &h.us, &h.them, bucket).out
                + self.skip_output(h, bucket);
        }
        self.screlu_output(h, &self.out_w, &self.out_b, bucket)
            + side::output(&self.side(), (&h.side_us, &h.side_them), bucket)
    }

    /// The skip path's output (0 without it).
    #[inline(always)]
    pub fn skip_output(&self, h: &Hidden, bucket: usize) -> f32 {
        if self.arch.skip {
            self.screlu_output(h, &self.skip_w, &self.skip_b, bucket)
        } else {
            0.0
        }
    }

    /// The SCReLU output layer of weights `w` and biases `b` (`out_w` and
    /// `out_b`, or the skip path's).
    #[inline(always)]
    fn screlu_output(&self, h: &Hidden, w: &[f32], b: &[f32], bucket: usize) -> f32 {
        let l1 = self.l1();
        let w = &w[bucket * 2 * l1..(bucket + 1) * 2 * l1];
        let mut lanes = [0.0f32; 8];
        for (a, w) in [(&h.us, &w[..l1]), (&h.them, &w[l1..])] {
            for (a, w) in a.chunks_exact(8).zip(w.chunks_exact(8)) {
                for k in 0..8 {
                    lanes[k] += w[k] * screlu(a[k]);
                }
            }
        }
        b[bucket] + lanes.iter().sum::<f32>()
    }

    /// The evaluation in centipawn-like units, side to move's view.
    pub fn evaluate(&self, inp: &Inputs) -> f32 {
        SCALE as f32 * self.output(&self.hidden(inp), self.bucket(inp))
    }

    /// The evaluation of a board.
    pub fn evaluate_board(&self, board: &Board) -> f32 {
        let mut inp = Inputs::from_board(self.arch.features, board);
        if self.arch.side != 0 {
            inp.add_side();
        }
        self.evaluate(&inp)
    }

    /// Keep every weight inside the range that quantises within the
    /// engine's limits.
    pub fn clip(&mut self) {
        // Each input block's rows have the block's own limit.
        let l1 = self.l1();
        for (at, block) in self.arch.features.placed_blocks() {
            let rows = &mut self.l1_w[at * l1..(at + block.size()) * l1];
            clamp(rows, block_limit(block));
        }
        clamp(&mut self.side_w, L1_LIMIT);
        self.clip_dense();
    }

    /// The limit of first-layer row `f` (an input's weights), as
    /// [`FloatNet::clip`] applies it.
    pub fn row_limit(&self, f: usize) -> f32 {
        self.arch.features.block_of(f).map_or(L1_LIMIT, block_limit)
    }

    /// [`FloatNet::clip`] on everything but the first layer's rows: a
    /// training step clamps the rows it changed itself: clamping every row
    /// (up to 25 M weights) at every step cost a 1024-wide `psq+threats`
    /// net a tenth of its training speed (`notes/2026-11-27-net6-data.md`).
    pub fn clip_dense(&mut self) {
        clamp(&mut self.l1_b, L1_LIMIT);
        if self.arch.has_hidden() {
            clamp(&mut self.h1_w, HIDDEN_W_LIMIT);
            clamp(&mut self.h2_w, HIDDEN_W_LIMIT);
            clamp(&mut self.h1_b, HIDDEN_B_LIMIT);
            clamp(&mut self.h2_b, HIDDEN_B_LIMIT);
            clamp(&mut self.out_w, STACK_OUT_LIMIT);
            clamp(&mut self.out_b, STACK_OUT_LIMIT);
            clamp(&mut self.skip_w, OUT_LIMIT);
            clamp(&mut self.skip_b, OUT_BIAS_LIMIT);
        } else {
            clamp(&mut self.out_w, OUT_LIMIT);
            clamp(&mut self.out_b, OUT_BIAS_LIMIT);
        }
        clamp(&mut self.side_b, L1_LIMIT);
        clamp(&mut self.side_out, OUT_LIMIT);
    }

    /// The engine's integer network (weights outside the limits are clipped).
    pub fn quantise(&self) -> Network {
        let q = |v: &[f32], scale: f32, limit: i16| -> Vec<i16> {
            v.iter()
                .map(|&w| (w * scale).round().clamp(-(limit as f32), limit as f32) as i16)
                .collect()
        };
        let l1 = self.l1();
        let mut l1_w = Vec::with_capacity(self.l1_w.len());
        for (at, block) in self.arch.features.placed_blocks() {
            let rows = &self.l1_w[at * l1..(at + block.size()) * l1];
            l1_w.extend(q(rows, QA as f32, block.weight_bound()));
        }
        let mut blocks = vec![l1_w, q(&self.l1_b, QA as f32, MAX_L1_WEIGHT)];
        if self.arch.has_hidden() {
            let hw = MAX_HIDDEN_WEIGHT;
            blocks.extend([
                q(&self.h1_w, QH as f32, hw),
                q(&self.h1_b, (QACT * QH) as f32, i16::MAX),
                q(&self.h2_w, QH as f32, hw),
                q(&self.h2_b, (QACT * QH) as f32, i16::MAX),
                q(&self.out_w, QO as f32, i16::MAX),
                q(&self.out_b, QO as f32, i16::MAX),
            ]);
        }
        // The SCReLU output layer: the only one without hidden layers, the
        // skip path's (last in the file) with them.
        let screlu = match (self.arch.has_hidden(), self.arch.skip) {
            (false, _) => Some((&self.out_w, &self.out_b)),
            (true, true) => Some((&self.skip_w, &self.skip_b)),
            (true, false) => None,
        };
        if let Some((w, b)) = screlu {
            blocks.extend([
                q(w, QB as f32, MAX_OUT_WEIGHT),
                q(b, (QA * QB) as f32, i16::MAX),
            ]);
        }
        if self.arch.side != 0 {
            blocks.extend([
                q(&side::fold(&self.side()), QA as f32, MAX_L1_WEIGHT),
                q(&self.side_b, QA as f32, MAX_L1_WEIGHT),
                q(&self.side_out, QB as f32, MAX_OUT_WEIGHT),
            ]);
        }
        let blocks: Vec<&[i16]> = blocks.iter().map(|b| &b[..]).collect();
        Network::from_blocks(self.arch, &blocks)
            .expect("quantised weights have the engine's shape and limits")
    }

    /// The float network whose weights are exactly those of an engine
    /// network (`W1 / QA`, `W2 / QB`, `b2 / (QA · QB)`): its evaluation is
    /// the engine's up to the engine's integer truncations (< 1.1 units).
    pub fn from_network(net: &Network) -> FloatNet {
        let mut f = FloatNet::zeros(net.arch());
        let l1 = f.l1();
        for (feature, row) in f.l1_w.chunks_exact_mut(l1).enumerate() {
            for (w, &q) in row.iter_mut().zip(net.l1_row(feature)) {
                *w = q as f32 / QA as f32;
            }
        }
        for (w, &q) in f.l1_b.iter_mut().zip(net.l1_bias()) {
            *w = q as f32 / QA as f32;
        }
        if net.arch().has_hidden() {
            // The file's blocks, in order, each at its scale.
            let blocks = net.blocks();
            let scales = [QH, QACT * QH, QH, QACT * QH, QO, QO];
            for ((dst, src), scale) in [
                &mut f.h1_w,
                &mut f.h1_b,
                &mut f.h2_w,
                &mut f.h2_b,
                &mut f.out_w,
                &mut f.out_b,
            ]
            .into_iter()
            .zip(&blocks[2..])
            .zip(scales)
            {
                for (w, &q) in dst.iter_mut().zip(src.iter()) {
                    *w = q as f32 / scale as f32;
                }
            }
            for bucket in 0..net.arch().output_buckets {
                if let Some((w, b)) = net.skip_output(bucket) {
                    let dst = &mut f.skip_w[bucket * 2 * l1..(bucket + 1) * 2 * l1];
                    for (d, &q) in dst.iter_mut().zip(w) {
                        *d = q as f32 / QB as f32;
                    }
                    f.skip_b[bucket] = b as f32 / (QA * QB) as f32;
                }
            }
            return f;
        }
        for (bucket, row) in f.out_w.chunks_exact_mut(2 * l1).enumerate() {
            for (w, &q) in row.iter_mut().zip(net.output_weights(bucket)) {
                *w = q as f32 / QB as f32;
            }
            f.out_b[bucket] = net.output_bias(bucket) as f32 / (QA * QB) as f32;
        }
        side::from_network(net, (&mut f.side_w, &mut f.side_b, &mut f.side_out));
        f
    }

    /// Number of parameters.
    pub fn len(&self) -> usize {
        self.blocks().iter().map(|b| b.len()).sum()
    }

    /// Never: every architecture has weights. (For clippy's `len_without_is_empty`.)
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The parameter blocks, in checkpoint order: first layer weights and
    /// biases, output weights and biases, then the hidden layers' weights
    /// and biases (empty without hidden layers, so such a checkpoint is
    /// what it was before they existed), then the skip path's output
    /// weights and biases (empty without it).
    pub fn blocks(&self) -> [&[f32]; 15] {
        [
            &self.l1_w,
            &self.l1_b,
            &self.out_w,
            &self.out_b,
            &self.h1_w,
            &self.h1_b,
            &self.h2_w,
            &self.h2_b,
            &self.skip_w,
            &self.skip_b,
            &self.side_w,
            &self.side_b,
            &self.side_out,
            &self.side_f1,
            &self.side_f2,
        ]
    }

    /// The parameter blocks, mutable.
    pub fn blocks_mut(&mut self) -> [&mut Vec<f32>; 15] {
        [
            &mut self.l1_w,
            &mut self.l1_b,
            &mut self.out_w,
            &mut self.out_b,
            &mut self.h1_w,
            &mut self.h1_b,
            &mut self.h2_w,
            &mut self.h2_b,
            &mut self.skip_w,
            &mut self.skip_b,
            &mut self.side_w,
            &mut self.side_b,
            &mut self.side_out,
            &mut self.side_f1,
            &mut self.side_f2,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiangjun_engine::nnue::{Accumulator, FeatureSet, evaluate};

    /// Weights that are exact multiples of the quantisation steps quantise
    /// without rounding: the engine then differs only by its truncations.
    #[test]
    fn quantisation_matches_the_engine_on_exact_weights() {
        let mut rng = Rng::new(3);
        for arch in [
            Arch::NET2,
            Arch::new(FeatureSet::KingBucket6, 512, 8).unwrap(),
            Arch::new(FeatureSet::KingBucket6Threats, 128, 4).unwrap(),
        ] {
            exact_weights_in(arch, &mut rng);
        }
    }

    fn exact_weights_in(arch: Arch, rng: &mut Rng) {
        let mut net = FloatNet::zeros(arch);
        for w in &mut net.l1_w {
            *w = (rng.below(41) as f32 - 20.0) / QA as f32;
        }
        for w in &mut net.l1_b {
            *w = (rng.below(101) as f32) / QA as f32;
        }
        for w in &mut net.out_w {
            *w = (rng.below(257) as f32 - 128.0) / QB as f32;
        }
        for (b, x) in net.out_b.iter_mut().enumerate() {
            *x = (1234.0 - 100.0 * b as f32) / (QA * QB) as f32;
        }
        let q = net.quantise();
        for fen in [
            xiangqi::START_FEN,
            "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 b - - 0 1",
            "4k4/4a4/9/9/9/9/9/9/4A4/3K5 w - - 0 1",
        ] {
            let board = Board::from_fen(fen).unwrap();
            let acc = Accumulator::from_board(&q, &board);
            let engine = evaluate(&q, &acc, board.side_to_move()) as f32;
            let float = net.evaluate_board(&board);
            assert!((engine - float).abs() <= 1.0, "{fen}: {engine} vs {float}");
        }
    }

    #[test]
    fn clipping_keeps_quantised_weights_in_the_engine_limits() {
        let mut net = FloatNet::zeros(Arch::NET2);
        net.l1_w[0] = 100.0;
        net.l1_b[1] = -100.0;
        net.out_w[2] = 5.0;
        net.out_b[0] = -9.0;
        net.clip();
        assert_eq!(net.l1_w[0], L1_LIMIT);
        let q = net.quantise();
        assert_eq!(q.l1_row(0)[0], MAX_L1_WEIGHT);
        assert_eq!(q.l1_bias()[1], -MAX_L1_WEIGHT);
        assert_eq!(q.output_weights(0)[2], MAX_OUT_WEIGHT);
        assert!(q.output_bias(0) <= -i16::MAX + 1);
        // Quantising without clipping clips too.
        let mut wild = FloatNet::zeros(Arch::NET2);
        wild.out_w[0] = 1e6;
        assert_eq!(wild.quantise().output_weights(0)[0], MAX_OUT_WEIGHT);
    }

    /// With threat inputs and hidden layers at once, each block keeps its
    /// own limit: piece-square rows, threat rows and int8 hidden weights.
    #[test]
    fn clipping_with_threats_and_hidden_layers() {
        let arch = Arch::new(FeatureSet::PieceSquareThreats, 64, 1)
            .unwrap()
            .with_hidden(8, 8)
            .unwrap();
        let mut net = FloatNet::zeros(arch);
        let first_threat = 1260 * 64;
        net.l1_w[first_threat - 1] = 100.0;
        net.l1_w[first_threat] = 100.0;
        net.l1_w[first_threat + 1] = -100.0;
        net.h1_w[0] = 100.0;
        net.h2_w[0] = -100.0;
        net.clip();
        assert_eq!(net.l1_w[first_threat - 1], L1_LIMIT);
        assert_eq!(net.l1_w[first_threat], THREAT_LIMIT);
        assert_eq!(net.l1_w[first_threat + 1], -THREAT_LIMIT);
        let q = net.quantise();
        assert_eq!(q.l1_row(1259)[63], MAX_L1_WEIGHT);
        assert_eq!(
            &q.l1_row(1260)[..2],
            &[MAX_THREAT_WEIGHT, -MAX_THREAT_WEIGHT]
        );
        assert_eq!(q.hidden_layer(0, 0).0[0], MAX_HIDDEN_WEIGHT);
        assert_eq!(q.hidden_layer(1, 0).0[0], -MAX_HIDDEN_WEIGHT);
    }
}
