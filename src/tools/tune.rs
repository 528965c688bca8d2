//! Texel tuning of the evaluation weights: fit the weights so that a
//! logistic function of the evaluation predicts the results of the games
//! the positions come from (least squares, Adam steps over the whole data).
//!
//! Data: game records as one line per game (`FEN moves... result`, the
//! format of `../shared/data/games/games.txt`) or PGN with a FEN tag and
//! ICCS moves (what `jiangjun match` writes). Positions in check, right after
//! a capture or with a winning capture on the board are left out: the
//! evaluation is for quiet positions.

use crate::tools::records::{self, Game};
use crate::tools::{EXIT_USAGE, fail};
use jiangjun_engine::eval::params::{
    self, ATTACKERS, ATTACKERS_N, MATERIAL, MOB_CANNON, MOB_CANNON_N, MOB_HORSE, MOB_HORSE_N,
    MOB_ROOK, MOB_ROOK_N, NUM_WEIGHTS, PST, WEIGHTS, pst_index,
};
use jiangjun_engine::eval::{Accumulator, psq, scale, terms};
use jiangjun_engine::position::Position;
use std::path::PathBuf;
use std::process::ExitCode;
use xiangqi::board::Board;
use xiangqi::types::{Color, PieceKind};

/// `jiangjun tune`.
#[derive(clap::Args)]
pub struct TuneArgs {
    /// Game files, one game a line: FEN (6 fields), moves, result.
    #[arg(long = "games")]
    pub games: Vec<PathBuf>,
    /// PGN files with FEN tags and ICCS moves (as `jiangjun match` writes).
    #[arg(long = "pgn")]
    pub pgn: Vec<PathBuf>,
    /// Adam steps over the whole data.
    #[arg(long, default_value_t = 1000)]
    pub iterations: usize,
    /// Leave out the first plies of every game (opening theory).
    #[arg(long, default_value_t = 8)]
    pub skip: usize,
    /// Where to write the weights (default: print them).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Read the games, tune, and write (or print) the weights' source.
pub fn run(a: &TuneArgs) -> ExitCode {
    let games = match records::read_files(&a.games, &a.pgn) {
        Ok(g) => g,
        Err(e) => return fail(EXIT_USAGE, e),
    };
    let samples = samples(&games, a.skip);
    if samples.is_empty() {
        return fail(EXIT_USAGE, "no positions (give --games or --pgn files)");
    }
    let n_games = games.len();
    eprintln!("{} quiet positions from {n_games} games", samples.len());
    let report = tune(&samples, a.iterations, |t, e| {
        eprintln!("iteration {t}: error {e:.6}")
    });
    let note = format!(
        "{} positions from {n_games} games, K {:.3}, error {:.6} -> {:.6}, {} iterations.",
        report.positions, report.k, report.error_before, report.error_after, a.iterations
    );
    eprintln!("{note}");
    let src = weights_source(&report.weights, &note);
    match &a.out {
        Some(path) => {
            if let Err(e) = std::fs::write(path, src) {
                return fail(1, format!("{}: {e}", path.display()));
            }
        }
        None => print!("{src}"),
    }
    ExitCode::SUCCESS
}

/// One position: its features (weight index, Red minus Black count), phase,
/// the scale for each stronger side, whose move it is, and the game result
/// from Red's side (1, 0.5, 0).
pub struct Sample {
    features: Vec<(u16, i16)>,
    phase: f64,
    scale: [f64; 2],
    red_to_move: bool,
    result: f64,
}

struct Collect(Vec<i32>);

impl Accumulator for Collect {
    fn add(&mut self, index: usize, color: Color, count: i32) {
        match color {
            Color::Red => self.0[index] += count,
            Color::Black => self.0[index] -= count,
        }
    }
}

/// The features of a position, material and piece-square values included.
pub fn features(board: &Board) -> Vec<(u16, i16)> {
    let mut c = Collect(vec![0; NUM_WEIGHTS]);
    for color in Color::BOTH {
        for kind in PieceKind::ALL {
            for sq in board.squares_of(color, kind) {
                c.add(MATERIAL + kind.index(), color, 1);
                c.add(pst_index(color, kind, sq), color, 1);
            }
        }
    }
    terms(board, &mut c);
    c.0.iter()
        .enumerate()
        .filter(|(_, v)| **v != 0)
        .map(|(i, v)| (i as u16, *v as i16))
        .collect()
}

fn quiet(board: &Position) -> bool {
    if board.in_check() {
        return false;
    }
    if board.history().last().is_some_and(|u| u.captured != 0) {
        return false;
    }
    !board.legal_captures().iter().any(|m| board.see(m) > 0)
}

fn sample(board: &Position, result: f64) -> Sample {
    Sample {
        features: features(board),
        phase: board.phase().min(psq::MAX_PHASE) as f64 / psq::MAX_PHASE as f64,
        scale: [
            scale(board, Color::Red) as f64 / 64.0,
            scale(board, Color::Black) as f64 / 64.0,
        ],
        red_to_move: board.side_to_move() == Color::Red,
        result,
    }
}

/// Quiet positions of the games, from ply `skip` on, with their results.
pub fn samples(games: &[Game], skip: usize) -> Vec<Sample> {
    let mut out = Vec::new();
    for g in games {
        let Ok(mut b) = Position::from_fen(&g.fen) else {
            continue;
        };
        for (i, &mv) in g.moves.iter().enumerate() {
            b.make_move(mv);
            if i + 1 >= skip && quiet(&b) {
                out.push(sample(&b, g.result));
            }
        }
    }
    out
}

/// Weight decay of the non-material weights.
const L2: f64 = 1e-8;

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Evaluation (Red's view, tempo included) of a sample under `w` (mg, eg per weight).
fn eval(s: &Sample, w: &[(f64, f64)]) -> f64 {
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(i, c) in &s.features {
        mg += w[i as usize].0 * c as f64;
        eg += w[i as usize].1 * c as f64;
    }
    let v = mg * s.phase + eg * (1.0 - s.phase);
    let sc = if v >= 0.0 { s.scale[0] } else { s.scale[1] };
    v * sc + if s.red_to_move { 10.0 } else { -10.0 }
}

/// Mean squared error of the predictions, with `k` scaling evaluations.
fn error(samples: &[Sample], w: &[(f64, f64)], k: f64) -> f64 {
    samples
        .iter()
        .map(|s| (s.result - sigmoid(k * eval(s, w) / 400.0)).powi(2))
        .sum::<f64>()
        / samples.len().max(1) as f64
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
    pub k: f64,
    pub error_before: f64,
    pub error_after: f64,
    pub weights: Vec<(i32, i32)>,
}

/// Groups of weights whose common offset the data cannot tell apart from
/// a piece's material (every piece of the kind has exactly one entry of the
/// group): (first index, length, the material index that absorbs the mean,
/// or None when the offset cancels between the sides).
fn offset_groups() -> Vec<(usize, usize, Option<usize>)> {
    let mut g: Vec<(usize, usize, Option<usize>)> = (0..7)
        .map(|k| (PST + k * 50, 50, Some(MATERIAL + k)))
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

/// Move the mean of each group (over the entries the data uses) into
/// material, and zero the entries it never uses, so that only meaningful
/// differences remain in the tables.
fn center(w: &mut [(f64, f64)], used: &[u64]) {
    for (start, len, sink) in offset_groups() {
        let idx: Vec<usize> = (start..start + len).filter(|&i| used[i] > 0).collect();
        if idx.is_empty() {
            continue;
        }
        let total: f64 = idx.iter().map(|&i| used[i] as f64).sum();
        let mean = (
            idx.iter().map(|&i| w[i].0 * used[i] as f64).sum::<f64>() / total,
            idx.iter().map(|&i| w[i].1 * used[i] as f64).sum::<f64>() / total,
        );
        for i in start..start + len {
            if used[i] > 0 {
                w[i].0 -= mean.0;
                w[i].1 -= mean.1;
            } else {
                w[i] = (0.0, 0.0);
            }
        }
        if let Some(m) = sink
            && m != MATERIAL
        {
            w[m].0 += mean.0;
            w[m].1 += mean.1;
        }
    }
}

/// Tune all weights but the king's material for `iterations` Adam steps.
pub fn tune(
    samples: &[Sample],
    iterations: usize,
    mut progress: impl FnMut(usize, f64),
) -> TuneReport {
    let mut w: Vec<(f64, f64)> = WEIGHTS.iter().map(|&(a, b)| (a as f64, b as f64)).collect();
    let mut used = vec![0u64; NUM_WEIGHTS];
    for s in samples {
        for &(i, _) in &s.features {
            used[i as usize] += 1;
        }
    }
    let k = fit_k(samples, &w);
    let error_before = error(samples, &w, k);
    let n = samples.len().max(1) as f64;
    let (b1, b2, lr, eps) = (0.9, 0.999, 1.0, 1e-8);
    let mut m = vec![(0.0, 0.0); NUM_WEIGHTS];
    let mut v = vec![(0.0, 0.0); NUM_WEIGHTS];
    let frozen = |i: usize| i == MATERIAL + PieceKind::King.index();
    for t in 1..=iterations {
        let mut grad = vec![(0.0f64, 0.0f64); NUM_WEIGHTS];
        for s in samples {
            let e = eval(s, &w);
            let p = sigmoid(k * e / 400.0);
            // d(error)/d(eval), then through the taper and the scale.
            let d = -2.0 * (s.result - p) * p * (1.0 - p) * k / 400.0;
            let sc = if e >= 0.0 { s.scale[0] } else { s.scale[1] };
            let (dm, de) = (d * s.phase * sc, d * (1.0 - s.phase) * sc);
            for &(i, c) in &s.features {
                grad[i as usize].0 += dm * c as f64;
                grad[i as usize].1 += de * c as f64;
            }
        }
        for i in 0..NUM_WEIGHTS {
            if frozen(i) {
                continue;
            }
            let mut g = (grad[i].0 / n, grad[i].1 / n);
            // Weight decay on everything but material: features the data
            // rarely shows stay small instead of fitting its noise.
            if i >= PST {
                g.0 += L2 * w[i].0;
                g.1 += L2 * w[i].1;
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
        center(&mut w, &used);
        if t % 50 == 0 || t == iterations {
            progress(t, error(samples, &w, k));
        }
    }
    let error_after = error(samples, &w, k);
    // Back to the engine's units: the mean middlegame value of a horse and
    // a cannon is kept where it was, so that search margins keep their meaning.
    let unit = |w: &[(f64, f64)]| {
        (w[MATERIAL + PieceKind::Horse.index()].0 + w[MATERIAL + PieceKind::Cannon.index()].0) / 2.0
    };
    let start: Vec<(f64, f64)> = WEIGHTS.iter().map(|&(a, b)| (a as f64, b as f64)).collect();
    let f = unit(&start) / unit(&w).max(1.0);
    TuneReport {
        positions: samples.len(),
        k: k / f,
        error_before,
        error_after,
        weights: w
            .iter()
            .map(|&(a, b)| ((a * f).round() as i32, (b * f).round() as i32))
            .collect(),
    }
}

/// The weights as the source of `src/eval/weights.rs`.
pub fn weights_source(weights: &[(i32, i32)], note: &str) -> String {
    let mut out = String::from(
        "//! Evaluation weights (middlegame, endgame), in the layout of `params.rs`.\n\
         //! Generated by `jiangjun tune`; edit by retuning, not by hand.\n",
    );
    out.push_str(&format!("//! {note}\n\n#[rustfmt::skip]\n"));
    out.push_str("pub const WEIGHTS: [(i32, i32); super::params::NUM_WEIGHTS] = [\n");
    for (i, chunk) in weights.chunks(6).enumerate() {
        let names: Vec<&str> = (0..chunk.len())
            .map(|j| params::term_name(i * 6 + j))
            .collect();
        out.push_str("    ");
        out.push_str(
            &chunk
                .iter()
                .map(|(a, b)| format!("({a}, {b}),"))
                .collect::<Vec<_>>()
                .join(" "),
        );
        out.push_str(&format!(" // {}\n", names[0]));
    }
    out.push_str("];\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiangjun_engine::eval::evaluate_red;

    #[test]
    fn features_reproduce_the_evaluation() {
        let w: Vec<(f64, f64)> = WEIGHTS.iter().map(|&(a, b)| (a as f64, b as f64)).collect();
        for fen in [
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
            "2bak4/4a4/4b1n2/p1p1p3p/9/2P3p2/P3P3P/4B1N2/4A4/2BAK4 b",
            "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w",
            "2bakab2/9/9/9/9/9/9/9/4N4/4K4 w",
        ] {
            let b = Position::from_fen(fen).unwrap();
            let s = sample(&b, 0.5);
            let tempo = if s.red_to_move { 10.0 } else { -10.0 };
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
    fn samples_are_quiet_positions_with_results() {
        // No captures anywhere: every position is quiet.
        let games = records::games_from_lines(
            "3k5/9/9/9/9/9/4P4/9/9/4K4 w - - 0 1 e3e4 d9d8 e4e5 d8d9 1-0\n",
        )
        .games;
        let s = samples(&games, 0);
        assert_eq!(s.len(), 4);
        assert!(s.iter().all(|x| x.result == 1.0));
        // Skipping the first plies leaves the later positions.
        assert_eq!(samples(&games, 3).len(), 2);
    }

    #[test]
    fn tuning_lowers_the_error() {
        // Positions where Red is a rook up and won, and the reverse.
        let mut samples = Vec::new();
        for (fen, r) in [
            ("3k5/9/9/9/9/9/9/9/9/R3K4 w", 1.0),
            ("r2k5/9/9/9/9/9/9/9/9/4K4 w", 0.0),
            ("3k5/9/9/9/9/9/9/9/9/N3K4 w", 1.0),
            ("n2k5/9/9/9/9/9/9/9/9/4K4 w", 0.0),
        ] {
            samples.push(sample(&Position::from_fen(fen).unwrap(), r));
        }
        let report = tune(&samples, 50, |_, _| {});
        assert!(
            report.error_after <= report.error_before,
            "{} > {}",
            report.error_after,
            report.error_before
        );
        let src = weights_source(&report.weights, "test");
        assert!(src.contains("pub const WEIGHTS"));
    }
}
