//! Texel tuning of the evaluation weights: fit the weights so that a
//! logistic function of the evaluation predicts the results of the games
//! the positions come from (least squares, Adam steps over the whole data).
//!
//! Data: game records as one line per game (`FEN moves... result`, the
//! format of `../shared/data/games/games.txt`) or PGN with a FEN tag and
//! ICCS moves (what `jiangjun match` writes), and JJDATA training files
//! (`jiangjun datagen`), whose records carry the game's result and a search
//! score: the target can blend the two (`--result-weight`). The evaluation
//! is for quiet positions: of the games, positions in check, right after a
//! capture or with a winning capture on the board are left out; datagen
//! already kept only positions out of check whose best move is quiet.
//!
//! Material is one value per piece in every phase, and the tapered tables
//! (piece-square, mobility) only say how much better or worse than average
//! a piece stands: each table is kept at mean zero over the pieces of the
//! data, its middlegame half weighted by the phase and its endgame half by
//! the rest, so that no table can carry a share of material that changes
//! with the phase. (With a tapered material and a phase made of that same
//! material, the tuner traded endgame values against the phase: an advisor
//! was worth -33 in the endgame, a cannon -32.)
//!
//! A share of the data is held out (every n-th game, every n-th block of
//! JJDATA records, as the positions of one game are alike) and the error
//! on it is reported before and after.

use crate::tools::records::{self, Game};
use crate::tools::{EXIT_USAGE, fail};
use jiangjun_engine::eval::params::{
    self, ADVISOR_MISSING, ATTACKERS, ATTACKERS_N, ELEPHANT_MISSING, MATERIAL, MOB_CANNON,
    MOB_CANNON_N, MOB_HORSE, MOB_HORSE_N, MOB_ROOK, MOB_ROOK_N, NUM_WEIGHTS, PST, WEIGHTS,
    pst_index,
};
use jiangjun_engine::eval::{Accumulator, known_win, psq, scale, terms};
use jiangjun_engine::position::Position;
use jiangjun_trainer::data;
use rayon::prelude::*;
use std::path::PathBuf;
use std::process::ExitCode;
use xiangqi::board::{Board, PieceValues};
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
    /// JJDATA training files (`jiangjun datagen`): quiet positions with the
    /// game's result and a search score.
    #[arg(long = "jjdata")]
    pub jjdata: Vec<PathBuf>,
    /// Share of the target taken from the game result; the rest comes from
    /// the search score of JJDATA records, through the same logistic (1:
    /// results only).
    #[arg(long, default_value_t = 1.0)]
    pub result_weight: f64,
    /// Share of the data held out to measure the error on positions that
    /// were not tuned on (0: none).
    #[arg(long, default_value_t = 0.1)]
    pub validation: f64,
    /// Tune on at most this many positions (evenly spaced over the data),
    /// to bound the time.
    #[arg(long)]
    pub max_positions: Option<usize>,
    /// Weight decay of everything but material (L2, per unit of mean
    /// squared error): tables the data rarely shows stay small instead of
    /// fitting its noise.
    #[arg(long, default_value_t = 1e-8)]
    pub decay: f64,
    /// Start from the weights of this file (a `weights.rs` as the tuner
    /// writes it) instead of the engine's; the errors "before" are theirs.
    #[arg(long)]
    pub start: Option<PathBuf>,
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

/// Records of a JJDATA file held out together (about ten games): the
/// positions of one game are alike, so single positions would leak.
const JJDATA_BLOCK: usize = 1024;

/// Read the data, tune, and write (or print) the weights' source.
pub fn run(a: &TuneArgs) -> ExitCode {
    if !(0.0..=1.0).contains(&a.result_weight) || !(0.0..0.5).contains(&a.validation) {
        return fail(
            EXIT_USAGE,
            "--result-weight must be in 0..=1 and --validation in 0..0.5",
        );
    }
    let games = match records::read_files(&a.games, &a.pgn) {
        Ok(g) => g,
        Err(e) => return fail(EXIT_USAGE, e),
    };
    let every = if a.validation > 0.0 {
        (1.0 / a.validation).round() as usize
    } else {
        0
    };
    let held = |i: usize| every > 0 && i % every == every - 1;
    let mut data = Data::default();
    for (i, g) in games.iter().enumerate() {
        data.add_game(g, a.skip, held(i));
    }
    for path in &a.jjdata {
        let recs = match data::read_records(path) {
            Ok(r) => r,
            Err(e) => return fail(EXIT_USAGE, e),
        };
        let before = data.train.len() + data.valid.len();
        for (i, r) in recs.iter().enumerate() {
            data.add_record(r, held(i / JJDATA_BLOCK));
        }
        eprintln!(
            "{}: {} records, {} quiet positions",
            path.display(),
            recs.len(),
            data.train.len() + data.valid.len() - before
        );
    }
    if data.train.is_empty() {
        return fail(
            EXIT_USAGE,
            "no positions (give --games, --pgn or --jjdata files)",
        );
    }
    if let Some(n) = a.max_positions {
        data.train = evenly_spaced(std::mem::take(&mut data.train), n);
    }
    eprintln!(
        "{} positions to tune on, {} held out ({} games read)",
        data.train.len(),
        data.valid.len(),
        games.len()
    );
    let start = match &a.start {
        None => engine_weights(),
        Some(p) => match std::fs::read_to_string(p)
            .map_err(|e| e.to_string())
            .and_then(|t| parse_weights(&t))
        {
            Ok(w) => w,
            Err(e) => return fail(EXIT_USAGE, format!("{}: {e}", p.display())),
        },
    };
    let report = tune(
        &start,
        &mut data,
        a.result_weight,
        a.decay,
        a.iterations,
        |t, e, v| eprintln!("iteration {t}: error {e:.6}, held out {v:.6}"),
    );
    let note = format!(
        "{} positions, K {:.3}, {} iterations; error (target) {:.6} -> {:.6}, \
         (result) {:.6} -> {:.6};\n//! {} held out: error (result) {:.6} -> {:.6}.",
        report.positions,
        report.k,
        a.iterations,
        report.error_before,
        report.error_after,
        report.result_error_before,
        report.result_error_after,
        report.held_out,
        report.valid_before,
        report.valid_after
    );
    eprintln!("{}", note.replace("\n//!", ""));
    let command: Vec<String> = std::env::args().skip(1).collect();
    let note = format!("Command: jiangjun {}\n//! {note}", command.join(" "));
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

/// The engine's weights.
fn engine_weights() -> Vec<(f64, f64)> {
    WEIGHTS.iter().map(|&(a, b)| (a as f64, b as f64)).collect()
}

/// The weights of a `weights.rs` source: its `(mg, eg)` pairs in order.
pub fn parse_weights(text: &str) -> Result<Vec<(f64, f64)>, String> {
    let body = text.split_once("= [").ok_or("no weight table (`= [`)")?.1;
    let mut w = Vec::new();
    for pair in body.split('(').skip(1) {
        let inner = pair.split(')').next().unwrap_or("");
        let (a, b) = inner
            .split_once(',')
            .ok_or_else(|| format!("not a pair: ({inner})"))?;
        let num = |x: &str| {
            x.trim()
                .parse::<i32>()
                .map_err(|e| format!("({inner}): {e}"))
        };
        w.push((num(a)? as f64, num(b)? as f64));
    }
    if w.len() != NUM_WEIGHTS {
        return Err(format!("{} weights, expected {NUM_WEIGHTS}", w.len()));
    }
    Ok(w)
}

/// Keep about `n` of the samples, evenly spaced.
fn evenly_spaced(v: Vec<Sample>, n: usize) -> Vec<Sample> {
    let len = v.len();
    if n >= len {
        return v;
    }
    v.into_iter()
        .enumerate()
        .filter(|(i, _)| i * n % len < n)
        .map(|(_, s)| s)
        .collect()
}

/// One position: its features (weight index, Red minus Black count), phase,
/// the scale for each stronger side, the fixed part of the evaluation (the
/// tempo and the known-win bonus, from Red's side), the game result from
/// Red's side (1, 0.5, 0), the search score from Red's side if the data
/// has one, and the target the tuner fits.
pub struct Sample {
    features: Vec<(u16, i16)>,
    phase: f64,
    scale: [f64; 2],
    fixed: f64,
    result: f64,
    score: Option<f64>,
    target: f64,
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

/// Calls `f(weight, count)` for the material, the piece-square entries and
/// the terms of the position, for both sides (Black's counts negated).
fn visit(board: &Board, f: impl FnMut(usize, Color, i32)) {
    struct Visit<F>(F);
    impl<F: FnMut(usize, Color, i32)> Accumulator for Visit<F> {
        fn add(&mut self, index: usize, color: Color, count: i32) {
            (self.0)(index, color, count)
        }
    }
    let mut v = Visit(f);
    for color in Color::BOTH {
        for kind in PieceKind::ALL {
            for sq in board.squares_of(color, kind) {
                v.add(MATERIAL + kind.index(), color, 1);
                v.add(pst_index(color, kind, sq), color, 1);
            }
        }
    }
    terms(board, &mut v);
}

/// The features of a position, material and piece-square values included.
pub fn features(board: &Board) -> Vec<(u16, i16)> {
    let mut c = Collect(vec![0; NUM_WEIGHTS]);
    visit(board, |i, color, n| c.add(i, color, n));
    c.0.iter()
        .enumerate()
        .filter(|(_, v)| **v != 0)
        .map(|(i, v)| (i as u16, *v as i16))
        .collect()
}

/// Piece values of the quiet test (king, advisor, elephant, horse, rook,
/// cannon, pawn): fixed, so that the positions tuned on do not depend on
/// the weights being tuned.
const QUIET_VALUES: PieceValues = [10_000, 200, 200, 400, 900, 450, 100];

fn quiet(board: &Position) -> bool {
    if board.in_check() {
        return false;
    }
    if board.history().last().is_some_and(|u| u.is_capture()) {
        return false;
    }
    !board
        .legal_captures()
        .iter()
        .any(|m| board.board().see(m, &QUIET_VALUES) > 0)
}

fn phase_of(board: &Position) -> f64 {
    board.phase().min(psq::MAX_PHASE) as f64 / psq::MAX_PHASE as f64
}

fn sample(board: &Position, result: f64, score: Option<f64>) -> Sample {
    let tempo = if board.side_to_move() == Color::Red {
        10.0
    } else {
        -10.0
    };
    Sample {
        features: features(board),
        phase: phase_of(board),
        scale: [
            scale(board, Color::Red) as f64 / 64.0,
            scale(board, Color::Black) as f64 / 64.0,
        ],
        fixed: tempo + known_win(board) as f64,
        result,
        score,
        target: result,
    }
}

/// How much each weight is used: pieces (of both sides) or term counts,
/// summed over the positions, weighted by the phase for the middlegame half
/// and by the rest for the endgame half.
pub struct Usage {
    mg: Vec<f64>,
    eg: Vec<f64>,
}

impl Default for Usage {
    fn default() -> Usage {
        Usage {
            mg: vec![0.0; NUM_WEIGHTS],
            eg: vec![0.0; NUM_WEIGHTS],
        }
    }
}

impl Usage {
    fn add(&mut self, board: &Position) {
        let phase = phase_of(board);
        visit(board, |i, _, n| {
            self.mg[i] += phase * n.abs() as f64;
            self.eg[i] += (1.0 - phase) * n.abs() as f64;
        });
    }
}

/// Positions to tune on, positions held out, and the use of the weights
/// over all of them.
#[derive(Default)]
pub struct Data {
    pub train: Vec<Sample>,
    pub valid: Vec<Sample>,
    pub usage: Usage,
}

impl Data {
    fn push(&mut self, board: &Position, result: f64, score: Option<f64>, held_out: bool) {
        self.usage.add(board);
        let s = sample(board, result, score);
        if held_out {
            self.valid.push(s);
        } else {
            self.train.push(s);
        }
    }

    /// The quiet positions of a game, from ply `skip` on, with its result.
    pub fn add_game(&mut self, g: &Game, skip: usize, held_out: bool) {
        let Ok(mut b) = Position::from_fen(&g.fen) else {
            return;
        };
        for (i, &mv) in g.moves.iter().enumerate() {
            b.make_move(mv);
            if i + 1 >= skip && quiet(&b) {
                self.push(&b, g.result, None, held_out);
            }
        }
    }

    /// A JJDATA record, if the rules accept it and it is not in check.
    pub fn add_record(&mut self, r: &data::Record, held_out: bool) {
        // Datagen kept only positions out of check whose best move is
        // quiet: they are taken as they are (a capture that wins by SEE
        // may be on the board, but the search preferred a quiet move).
        let Ok(board) = r.to_board() else {
            return;
        };
        let b = Position::new(board);
        if b.in_check() {
            return;
        }
        let score = match r.side_to_move {
            Color::Red => r.score as f64,
            Color::Black => -(r.score as f64),
        };
        self.push(
            &b,
            r.result.score_for(Color::Red) as f64,
            Some(score),
            held_out,
        );
    }
}

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
    fn samples_are_quiet_positions_with_results() {
        // No captures anywhere: every position is quiet.
        let games = records::games_from_lines(
            "3k5/9/9/9/9/9/4P4/9/9/4K4 w - - 0 1 e3e4 d9d8 e4e5 d8d9 1-0\n",
        )
        .games;
        let mut d = Data::default();
        d.add_game(&games[0], 0, false);
        assert_eq!(d.train.len(), 4);
        assert!(d.train.iter().all(|x| x.result == 1.0));
        // Skipping the first plies leaves the later positions; held-out
        // games go to the other set.
        let mut d = Data::default();
        d.add_game(&games[0], 3, true);
        assert_eq!((d.train.len(), d.valid.len()), (0, 2));
    }

    #[test]
    fn jjdata_records_become_samples_with_red_scores() {
        let b = Board::from_fen("3k5/9/9/9/9/9/4P4/9/9/4K4 b").unwrap();
        let r = data::Record::from_board(&b, data::GameResult::RedWins, -150);
        let mut d = Data::default();
        d.add_record(&r, false);
        assert_eq!(d.train.len(), 1);
        // The record's score is Black's; the sample keeps Red's.
        assert_eq!(d.train[0].score, Some(150.0));
        assert_eq!(d.train[0].result, 1.0);
        // A position in check is left out.
        let b = Board::from_fen("4k4/9/9/9/9/9/9/9/4R4/3K5 b").unwrap();
        d.add_record(
            &data::Record::from_board(&b, data::GameResult::Draw, 0),
            false,
        );
        assert_eq!(d.train.len(), 1);
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
    fn weights_sources_parse_back() {
        let w: Vec<(i32, i32)> = WEIGHTS.to_vec();
        let src = weights_source(&w, "Command: jiangjun tune (1, 2)\n//! note");
        let back = parse_weights(&src).unwrap();
        assert_eq!(back, engine_weights());
        assert!(parse_weights("pub const WEIGHTS = [(1, 2)];").is_err());
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
