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
//! A share of the data is held out (every n-th game, every n-th block of
//! JJDATA records, as the positions of one game are alike) and the error
//! on it is reported before and after.
//!
//! The job is split three ways: `samples` turns game records and JJDATA
//! records into the positions tuned on, `optimise` fits the weights to
//! them, and `weights_file` reads and writes the `weights.rs` source.

mod optimise;
mod samples;
mod weights_file;

pub use optimise::{TuneReport, tune};
pub use samples::{Data, Sample, Usage, features};
pub use weights_file::{parse_weights, weights_source};

use crate::tools::records;
use crate::tools::{EXIT_USAGE, fail};
use jiangjun_trainer::data;
use samples::evenly_spaced;
use std::path::PathBuf;
use std::process::ExitCode;
use weights_file::engine_weights;

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
        None => out!("{src}"),
    }
    ExitCode::SUCCESS
}
