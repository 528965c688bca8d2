//! Calibrated quantisation: round the output layer so that the engine's
//! integer evaluation follows the float network closely on real positions.
//!
//! Rounding every output weight to the nearest step of `1 / QB` adds up to
//! noticeable noise: with `QB = 64` a step is `SCALE / 64 ≈ 6` units per
//! unit of activation, and 512 independent rounding errors give an RMS
//! error of several units. Rounding the first layer moves the activations a
//! little too. This pass starts from nearest rounding and then, on a set of
//! calibration positions, minimises
//!
//! ```text
//! Σ_x ( Σ_j W2q[j] / QB · c_j(x)² / QA² + b2q / (QA · QB) − out_float(x) )²
//! ```
//!
//! over the integer output weights by coordinate descent (each weight moved
//! to the integer that best reduces the error given the others, two passes),
//! then re-centres the bias. `c_j(x)` are the engine's own clamped
//! accumulator values, so the refit also absorbs the first layer's
//! rounding. Only the output layer and bias change; the first layer is
//! rounded to nearest. A network with hidden layers is rounded to nearest
//! throughout (its output layer reads the hidden layers, not the
//! accumulator).

use crate::data::{Chunk, Record};
use crate::model::FloatNet;
use jiangjun_engine::nnue::{Accumulator, MAX_OUT_WEIGHT, Network, QA, QB};
use xiangqi::{Piece, Square};

/// Coordinate-descent passes over the output weights.
const PASSES: usize = 8;

/// Quantise `net`, refitting the output layer on `calibration` (positions
/// the network is meant for; a few thousand are enough). Buckets with
/// fewer than `2 · L1` calibration positions keep nearest rounding.
pub fn quantise_calibrated(net: &FloatNet, calibration: &[Chunk]) -> Network {
    let base = net.quantise();
    if net.arch.has_hidden() {
        return base;
    }
    let (l1, buckets) = (net.l1(), net.arch.output_buckets);
    let mut out_w: Vec<i16> = (0..buckets)
        .flat_map(|b| base.output_weights(b).to_vec())
        .collect();
    let mut out_b: Vec<i16> = (0..buckets).map(|b| base.output_bias(b)).collect();

    // Per bucket: the engine's activations c² / QA² (side to move's half,
    // then the other's) and the float network's output.
    let mut h: Vec<Vec<Vec<f32>>> = vec![Vec::new(); buckets];
    let mut target: Vec<Vec<f64>> = vec![Vec::new(); buckets];
    let mut acc = Accumulator::new(&base);
    for c in calibration {
        let inp = net.inputs(c, false);
        let rec = Record::unpack(c, 0).expect("calibration positions are checked records");
        let mut pieces: Vec<(Piece, Square)> = Vec::with_capacity(inp.len);
        rec.for_each_piece(|p, sq| pieces.push((p, sq)));
        acc.refresh_pieces(&base, &pieces);
        let mut row = vec![0.0f32; 2 * l1];
        let stm = inp.side_to_move;
        for (half, persp) in [stm, stm.flip()].into_iter().enumerate() {
            for (j, &a) in acc.values(persp).iter().enumerate() {
                let c = a.clamp(0, QA as i16) as f32 / QA as f32;
                row[half * l1 + j] = c * c;
            }
        }
        let b = net.bucket(&inp);
        h[b].push(row);
        target[b].push(net.output(&net.hidden(&inp), b) as f64);
    }

    for b in 0..buckets {
        let (h, t) = (&h[b], &target[b]);
        if h.len() < 2 * l1 {
            continue;
        }
        let w = &mut out_w[b * 2 * l1..(b + 1) * 2 * l1];
        let bias_unit = 1.0 / (QA * QB) as f64;
        // Residuals of the integer network against the float one.
        let mut e: Vec<f64> = h
            .iter()
            .zip(t)
            .map(|(row, &t)| {
                let s: f64 = row
                    .iter()
                    .zip(w.iter())
                    .map(|(&x, &q)| x as f64 * q as f64 / QB as f64)
                    .sum();
                s + out_b[b] as f64 * bias_unit - t
            })
            .collect();
        for _ in 0..PASSES {
            for j in 0..2 * l1 {
                let (mut hh, mut eh) = (0.0f64, 0.0f64);
                for (row, &e) in h.iter().zip(&e) {
                    let x = row[j] as f64;
                    hh += x * x;
                    eh += e * x;
                }
                if hh == 0.0 {
                    continue;
                }
                let best = (w[j] as f64 - eh / hh * QB as f64)
                    .round()
                    .clamp(-(MAX_OUT_WEIGHT as f64), MAX_OUT_WEIGHT as f64)
                    as i16;
                if best != w[j] {
                    let d = (best - w[j]) as f64 / QB as f64;
                    for (row, e) in h.iter().zip(e.iter_mut()) {
                        *e += d * row[j] as f64;
                    }
                    w[j] = best;
                }
            }
            let mean = e.iter().sum::<f64>() / e.len() as f64;
            let shift = (mean / bias_unit).round();
            let new_bias = (out_b[b] as f64 - shift).clamp(-(i16::MAX as f64), i16::MAX as f64);
            let applied = out_b[b] as f64 - new_bias;
            out_b[b] = new_bias as i16;
            e.iter_mut().for_each(|x| *x -= applied * bias_unit);
        }
    }
    let l1_w: Vec<i16> = (0..net.arch.inputs())
        .flat_map(|f| base.l1_row(f).to_vec())
        .collect();
    Network::new(net.arch, &l1_w, base.l1_bias(), &out_w, &out_b)
        .expect("calibrated weights keep the engine's shape and limits")
}
