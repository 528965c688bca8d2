//! The fit: Adam steps on the mean squared error of a logistic of the
//! evaluation against the targets, each step followed by a projection back
//! to the parameterisation.
//!
//! Material is one value per piece in every phase, and the tapered tables
//! (piece-square, mobility) only say how much better or worse than average
//! a piece stands: each table is kept at mean zero over the pieces of the
//! data, its middlegame half weighted by the phase and its endgame half by
//! the rest, so that no table can carry a share of material that changes
//! with the phase. (With a tapered material and a phase made of that same
//! material, the tuner traded endgame values against the phase: an advisor
//! was worth -33 in the endgame, a cannon -32.)

use super::samples::{Data, Sample, Usage};
use jiangjun_engine::eval::params::{
    ADVISOR_MISSING, ATTACKERS, ATTACKERS_N, ELEPHANT_MISSING, MATERIAL, MOB_CANNON, MOB_CANNON_N,
    MOB_HORSE, MOB_HORSE_N, MOB_ROOK, MOB_ROOK_N, NUM_WEIGHTS, PST,
};
use rayon::prelude::*;
use xiangqi::types::PieceKind;

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Evaluation (Red's view, tempo included) of a sample under `w` (mg, eg
/// per weight), and the scale it applied.
fn eval_scaled(s: &Sample, w: &[(f64, f64)]) -> (f64, f64) {
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(i, c) in &s.features {
        mg += w[i as usize].0 * c as f64;
        eg += w[i as usize].1 * c as f64;
    }
    let v = mg * s.phase + eg * (1.0 - s.phase);
    let sc = if v >= 0.0 { s.scale[0] } else { s.scale[1] };
    (v * sc + s.fixed, sc)
}

/// Evaluation (Red's view, tempo included) of a sample under `w`.
fn eval(s: &Sample, w: &[(f64, f64)]) -> f64 {
    eval_scaled(s, w).0
}

/// Samples per parallel task; the partial sums are added in order, so the
/// result does not depend on the number of threads.
const CHUNK: usize = 4096;

/// Mean squared error of the predictions of the targets, with `k` scaling
/// evaluations.
fn error(samples: &[Sample], w: &[(f64, f64)], k: f64) -> f64 {
    error_of(samples, w, k, |s| s.target)
}

/// Mean squared error of the predictions of `target`.
fn error_of(samples: &[Sample], w: &[(f64, f64)], k: f64, target: fn(&Sample) -> f64) -> f64 {
    let parts: Vec<f64> = samples
        .par_chunks(CHUNK)
        .map(|c| {
            c.iter()
                .map(|s| (target(s) - sigmoid(k * eval(s, w) / 400.0)).powi(2))
                .sum::<f64>()
        })
        .collect();
    parts.iter().sum::<f64>() / samples.len().max(1) as f64
}

/// The gradient of the error (times the number of samples).
fn gradient(samples: &[Sample], w: &[(f64, f64)], k: f64) -> Vec<(f64, f64)> {
    let parts: Vec<Vec<(f64, f64)>> = samples
        .par_chunks(CHUNK)
        .map(|c| {
            let mut grad = vec![(0.0f64, 0.0f64); NUM_WEIGHTS];
            for s in c {
                let (e, sc) = eval_scaled(s, w);
                let p = sigmoid(k * e / 400.0);
                // d(error)/d(eval), then through the taper and the scale.
                let d = -2.0 * (s.target - p) * p * (1.0 - p) * k / 400.0;
                let (dm, de) = (d * s.phase * sc, d * (1.0 - s.phase) * sc);
                for &(i, c) in &s.features {
                    grad[i as usize].0 += dm * c as f64;
                    grad[i as usize].1 += de * c as f64;
                }
            }
            grad
        })
        .collect();
    let mut grad = vec![(0.0f64, 0.0f64); NUM_WEIGHTS];
    for p in parts {
        for (g, q) in grad.iter_mut().zip(p) {
            g.0 += q.0;
            g.1 += q.1;
        }
    }
    grad
}

/// The scaling constant that best fits the current weights.
fn fit_k(samples: &[Sample], w: &[(f64, f64)]) -> f64 {
    let (mut lo, mut hi) = (0.1, 10.0);
    for _ in 0..60 {
        let a = lo + (hi - lo) / 3.0;
        let b = hi - (hi - lo) / 3.0;
        if error(samples, w, a) < error(samples, w, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

pub struct TuneReport {
    pub positions: usize,
    pub held_out: usize,
    pub k: f64,
    /// Error on the tuning positions with today's weights, and after: of
    /// the targets (what is minimised), and of the game results.
    pub error_before: f64,
    pub error_after: f64,
    pub result_error_before: f64,
    pub result_error_after: f64,
    /// The same on the held-out positions.
    pub valid_before: f64,
    pub valid_after: f64,
    pub weights: Vec<(i32, i32)>,
}

/// Tables whose common offset the data cannot tell apart from a piece's
/// material (every piece of the kind has exactly one entry of the table):
/// (first index, length, the material index that takes the offset's
/// average, or None when the offset cancels between the sides).
fn offset_groups() -> Vec<(usize, usize, Option<usize>)> {
    let mut g: Vec<(usize, usize, Option<usize>)> = PieceKind::ALL
        .iter()
        .map(|&k| {
            let sink = (k != PieceKind::King).then_some(MATERIAL + k.index());
            (PST + k.index() * 50, 50, sink)
        })
        .collect();
    g.push((
        MOB_ROOK,
        MOB_ROOK_N,
        Some(MATERIAL + PieceKind::Rook.index()),
    ));
    g.push((
        MOB_CANNON,
        MOB_CANNON_N,
        Some(MATERIAL + PieceKind::Cannon.index()),
    ));
    g.push((
        MOB_HORSE,
        MOB_HORSE_N,
        Some(MATERIAL + PieceKind::Horse.index()),
    ));
    g.push((ATTACKERS, ATTACKERS_N, None));
    g
}

/// Bring the weights back to the parameterisation: every table of
/// `offset_groups` at mean zero over its use (the middlegame half weighted
/// by the phase, the endgame half by the rest), its average offset moved
/// into material, entries the data never uses zeroed, missing defenders
/// never a gain for the defender, and material one value in both halves
/// (the average of the two over its use).
fn project(w: &mut [(f64, f64)], u: &Usage) {
    for (start, len, sink) in offset_groups() {
        let r = start..start + len;
        let (um, ue): (f64, f64) = (u.mg[r.clone()].iter().sum(), u.eg[r.clone()].iter().sum());
        let a = if um > 0.0 {
            r.clone().map(|i| u.mg[i] * w[i].0).sum::<f64>() / um
        } else {
            0.0
        };
        let b = if ue > 0.0 {
            r.clone().map(|i| u.eg[i] * w[i].1).sum::<f64>() / ue
        } else {
            0.0
        };
        for i in r {
            if u.mg[i] + u.eg[i] > 0.0 {
                w[i].0 -= a;
                w[i].1 -= b;
            } else {
                w[i] = (0.0, 0.0);
            }
        }
        if let Some(m) = sink
            && um + ue > 0.0
        {
            let d = (a * um + b * ue) / (um + ue);
            w[m].0 += d;
            w[m].1 += d;
        }
    }
    // A missing enemy defender can only help our attackers: a negative
    // weight would be a share of the defender's value traded against the
    // attackers' count (an advisor worth less than nothing in an endgame).
    for i in [ADVISOR_MISSING, ELEPHANT_MISSING] {
        w[i] = (w[i].0.max(0.0), w[i].1.max(0.0));
    }
    for (i, wi) in w.iter_mut().enumerate().take(PST).skip(MATERIAL) {
        let (um, ue) = (u.mg[i], u.eg[i]);
        let v = if um + ue > 0.0 {
            (wi.0 * um + wi.1 * ue) / (um + ue)
        } else {
            (wi.0 + wi.1) / 2.0
        };
        *wi = (v, v);
    }
}

/// Tune all weights but the king's material for `iterations` Adam steps
/// (weight decay `decay` on all but material), starting from `today`
/// brought to the parameterisation. The
/// targets of `data.train` are set first: the result, blended with the
/// search score (where there is one) by `result_weight`; the held-out
/// positions are always measured against the result.
pub fn tune(
    today: &[(f64, f64)],
    data: &mut Data,
    result_weight: f64,
    decay: f64,
    iterations: usize,
    mut progress: impl FnMut(usize, f64, f64),
) -> TuneReport {
    let k = fit_k(&data.train, today);
    for s in &mut data.train {
        s.target = match s.score {
            Some(score) => {
                result_weight * s.result + (1.0 - result_weight) * sigmoid(k * score / 400.0)
            }
            None => s.result,
        };
    }
    let (train, valid) = (&data.train, &data.valid);
    let error_before = error(train, today, k);
    let result_error_before = error_of(train, today, k, |s| s.result);
    let valid_before = error(valid, today, k);
    let mut w = today.to_vec();
    project(&mut w, &data.usage);
    progress(0, error(train, &w, k), error(valid, &w, k));
    let n = train.len().max(1) as f64;
    let (b1, b2, lr, eps) = (0.9, 0.999, 1.0, 1e-8);
    let mut m = vec![(0.0, 0.0); NUM_WEIGHTS];
    let mut v = vec![(0.0, 0.0); NUM_WEIGHTS];
    let frozen = |i: usize| i == MATERIAL + PieceKind::King.index();
    for t in 1..=iterations {
        let grad = gradient(train, &w, k);
        for i in 0..NUM_WEIGHTS {
            if frozen(i) {
                continue;
            }
            let mut g = (grad[i].0 / n, grad[i].1 / n);
            if i < PST {
                // Material: one value, moved by both halves' gradient.
                g = (g.0 + g.1, g.0 + g.1);
            } else {
                // Weight decay on everything but material: features the
                // data rarely shows stay small instead of fitting its noise.
                g.0 += decay * w[i].0;
                g.1 += decay * w[i].1;
            }
            m[i].0 = b1 * m[i].0 + (1.0 - b1) * g.0;
            m[i].1 = b1 * m[i].1 + (1.0 - b1) * g.1;
            v[i].0 = b2 * v[i].0 + (1.0 - b2) * g.0 * g.0;
            v[i].1 = b2 * v[i].1 + (1.0 - b2) * g.1 * g.1;
            let mh = (
                m[i].0 / (1.0 - b1.powi(t as i32)),
                m[i].1 / (1.0 - b1.powi(t as i32)),
            );
            let vh = (
                v[i].0 / (1.0 - b2.powi(t as i32)),
                v[i].1 / (1.0 - b2.powi(t as i32)),
            );
            w[i].0 -= lr * mh.0 / (vh.0.sqrt() + eps);
            w[i].1 -= lr * mh.1 / (vh.1.sqrt() + eps);
        }
        project(&mut w, &data.usage);
        if t % 50 == 0 || t == iterations {
            progress(t, error(train, &w, k), error(valid, &w, k));
        }
    }
    let error_after = error(train, &w, k);
    let result_error_after = error_of(train, &w, k, |s| s.result);
    let valid_after = error(valid, &w, k);
    // Back to the engine's units: the mean value of a horse and a cannon
    // is kept at today's middlegame one, so that search margins keep their
    // meaning.
    let unit = |w: &[(f64, f64)]| {
        (w[MATERIAL + PieceKind::Horse.index()].0 + w[MATERIAL + PieceKind::Cannon.index()].0) / 2.0
    };
    let f = unit(today) / unit(&w).max(1.0);
    TuneReport {
        positions: train.len(),
        held_out: valid.len(),
        k: k / f,
        error_before,
        error_after,
        result_error_before,
        result_error_after,
        valid_before,
        valid_after,
        weights: w
            .iter()
            .map(|&(a, b)| ((a * f).round() as i32, (b * f).round() as i32))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::tune::samples::sample;
    use crate::tools::tune::weights_file::{engine_weights, weights_source};
    use jiangjun_engine::Position;
    use jiangjun_engine::eval::WEIGHTS;
    use jiangjun_engine::eval::evaluate_red;
    use jiangjun_trainer::data;
    use xiangqi::board::Board;
    use xiangqi::types::Color;

    fn data_of(positions: &[(&str, f64)]) -> Data {
        let mut d = Data::default();
        for &(fen, r) in positions {
            d.push(&Position::from_fen(fen).unwrap(), r, None, false);
        }
        d
    }

    #[test]
    fn features_reproduce_the_evaluation() {
        let w: Vec<(f64, f64)> = WEIGHTS.iter().map(|&(a, b)| (a as f64, b as f64)).collect();
        for fen in [
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
            "2bak4/4a4/4b1n2/p1p1p3p/9/2P3p2/P3P3P/4B1N2/4A4/2BAK4 b",
            "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w",
            "2bakab2/9/9/9/9/9/9/9/4N4/4K4 w",
            // A known win: the fixed bonus is part of the sample.
            "3k5/9/9/9/9/9/9/9/9/R3K4 b",
        ] {
            let b = Position::from_fen(fen).unwrap();
            let s = sample(&b, 0.5, None);
            let tempo = if b.side_to_move() == Color::Red {
                10.0
            } else {
                -10.0
            };
            let got = eval(&s, &w) - tempo;
            // The engine rounds the taper and the scale in integers.
            assert!(
                (got - evaluate_red(&b) as f64).abs() <= 2.0,
                "{fen}: {got} vs {}",
                evaluate_red(&b)
            );
        }
    }

    #[test]
    fn projection_ties_material_and_centres_the_tables() {
        let d = data_of(&[
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
                0.5,
            ),
            ("3k5/9/9/9/9/9/9/9/4R4/4K4 w", 1.0),
            (
                "2bak4/4a4/4b1n2/p1p1p3p/9/2P3p2/P3P3P/4B1N2/4A4/2BAK4 b",
                0.5,
            ),
        ]);
        let mut w: Vec<(f64, f64)> = WEIGHTS.iter().map(|&(a, b)| (a as f64, b as f64)).collect();
        // An endgame offset in the rook table is endgame material in disguise.
        let rook_table = PST + PieceKind::Rook.index() * 50;
        for wi in &mut w[rook_table..rook_table + 50] {
            wi.1 -= 300.0;
        }
        w[ADVISOR_MISSING].1 = -50.0;
        project(&mut w, &d.usage);
        for (i, wi) in w.iter().enumerate().take(PST).skip(MATERIAL) {
            assert_eq!(wi.0, wi.1, "material {i} is one value");
        }
        assert!(w[ADVISOR_MISSING].1 >= 0.0);
        for (start, len, _) in offset_groups() {
            let r = start..start + len;
            let mean_mg: f64 = r.clone().map(|i| d.usage.mg[i] * w[i].0).sum();
            let mean_eg: f64 = r.clone().map(|i| d.usage.eg[i] * w[i].1).sum();
            assert!(mean_mg.abs() < 1e-6 && mean_eg.abs() < 1e-6, "{start}");
            // Entries no position uses are zero.
            assert!(
                r.filter(|&i| d.usage.mg[i] + d.usage.eg[i] == 0.0)
                    .all(|i| w[i] == (0.0, 0.0))
            );
        }
    }

    #[test]
    fn tuning_lowers_the_error() {
        // Positions where Red is a rook up and won, and the reverse.
        let mut d = data_of(&[
            ("3k5/9/9/9/9/9/9/9/9/R3K4 w", 1.0),
            ("r2k5/9/9/9/9/9/9/9/9/4K4 w", 0.0),
            ("3k5/9/9/9/9/9/9/9/9/N3K4 w", 1.0),
            ("n2k5/9/9/9/9/9/9/9/9/4K4 w", 0.0),
        ]);
        let report = tune(&engine_weights(), &mut d, 1.0, 1e-8, 50, |_, _, _| {});
        assert!(
            report.error_after <= report.error_before,
            "{} > {}",
            report.error_after,
            report.error_before
        );
        for k in 1..7 {
            let (a, b) = report.weights[MATERIAL + k];
            assert_eq!(a, b, "material stays one value");
        }
        let src = weights_source(&report.weights, "test");
        assert!(src.contains("pub const WEIGHTS"));
    }

    #[test]
    fn search_scores_blend_into_the_target() {
        let mut d = Data::default();
        let b = Board::from_fen("3k5/9/9/9/9/9/4P4/9/9/4K4 w").unwrap();
        d.add_record(
            &data::Record::from_board(&b, data::GameResult::Draw, 400),
            false,
        );
        tune(&engine_weights(), &mut d, 0.5, 1e-8, 0, |_, _, _| {});
        // Half the draw, half a clearly winning score.
        let t = d.train[0].target;
        assert!(t > 0.5 && t < 1.0, "{t}");
    }
}
