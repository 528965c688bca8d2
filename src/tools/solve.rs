//! `jiangjun solve`: run the search on each position of an EPD test suite
//! (`FEN; bm MOVE; dm N; id "..."`) for a fixed time and count the positions
//! where it finds the mate (a mate score within the `dm` moves, with the
//! key move when the suite gives one) or, without `dm`, plays the `bm` move.

use jiangjun_engine::Engine;
use jiangjun_engine::nnue::Network;
use jiangjun_engine::time::Clock;
use jiangjun_engine::{GoRequest, Limits};
use jiangjun_engine::{SCORE_MATE, SCORE_MATE_IN_MAX};
use std::sync::Arc;
use xiangqi::board::Board;
use xiangqi::types::Move;

pub struct Problem {
    pub id: String,
    pub fen: String,
    pub best: Vec<String>,
    pub mate_in: Option<i32>,
}

/// Parse EPD lines; `#` lines and blank lines are skipped.
pub fn parse_epd(text: &str) -> Result<Vec<Problem>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split(';').map(str::trim);
        let fen = fields.next().unwrap_or("").to_string();
        Board::from_fen(&fen).map_err(|e| format!("line {}: {e}", n + 1))?;
        let mut p = Problem {
            id: format!("line {}", n + 1),
            fen,
            best: Vec::new(),
            mate_in: None,
        };
        for f in fields {
            if let Some(v) = f.strip_prefix("bm ") {
                p.best = v.split_whitespace().map(String::from).collect();
            } else if let Some(v) = f.strip_prefix("dm ") {
                p.mate_in = v.trim().parse().ok();
            } else if let Some(v) = f.strip_prefix("id ") {
                p.id = v.trim_matches('"').to_string();
            }
        }
        out.push(p);
    }
    Ok(out)
}

/// `jiangjun solve`.
#[derive(clap::Args)]
pub struct SolveArgs {
    /// The suite, e.g. ../shared/data/tactics/mate_suite.epd.
    pub epd: std::path::PathBuf,
    /// Milliseconds per position.
    #[arg(long, default_value_t = 1000)]
    pub movetime: u64,
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Hash table size in MB.
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    #[command(flatten)]
    pub eval: crate::tools::EvalFileArg,
}

/// Solve every problem of the suite, a line each, then the count.
pub fn run_suite(a: &SolveArgs) -> std::process::ExitCode {
    use crate::tools::{EXIT_USAGE, fail};
    let network = match a.eval.resolve() {
        Ok((_, network)) => network,
        Err(e) => return fail(EXIT_USAGE, e),
    };
    let problems = match std::fs::read_to_string(&a.epd)
        .map_err(|e| e.to_string())
        .and_then(|text| parse_epd(&text))
    {
        Ok(p) => p,
        Err(e) => return fail(EXIT_USAGE, format!("{}: {e}", a.epd.display())),
    };
    let mut solved = 0;
    for p in &problems {
        let o = solve(
            p,
            a.movetime,
            a.threads.clamp(1, 256),
            a.hash.clamp(1, 65536),
            network.clone(),
        );
        solved += o.solved as usize;
        outln!(
            "{} {:<32} best {} mate {} (dm {}) depth {}",
            if o.solved { "solved  " } else { "UNSOLVED" },
            p.id,
            o.best.map_or("none".into(), |m| m.to_string()),
            o.mate.map_or("-".into(), |m| m.to_string()),
            p.mate_in.map_or("-".into(), |m| m.to_string()),
            o.depth
        );
    }
    outln!(
        "solved {solved} of {} in {} ms each",
        problems.len(),
        a.movetime
    );
    std::process::ExitCode::SUCCESS
}

pub struct Outcome {
    pub solved: bool,
    pub best: Option<Move>,
    /// Mate distance in moves found, if any.
    pub mate: Option<i32>,
    pub depth: i32,
}

/// Search one problem for `movetime_ms` with `threads` threads, evaluating
/// with `network` (`None`: the hand-made evaluation).
pub fn solve(
    p: &Problem,
    movetime_ms: u64,
    threads: usize,
    hash_mb: usize,
    network: Option<Arc<Network>>,
) -> Outcome {
    let board = match Board::from_fen(&p.fen) {
        Ok(b) => b,
        Err(_) => {
            return Outcome {
                solved: false,
                best: None,
                mate: None,
                depth: 0,
            };
        }
    };
    let limits = Limits::of(GoRequest {
        clock: Clock {
            movetime: Some(movetime_ms),
            ..Clock::default()
        },
        mate: p.mate_in.map(|m| m.max(1) as u32),
        ..GoRequest::default()
    });
    let mut engine = Engine::new(hash_mb, threads);
    engine.set_network(network);
    let r = engine.search(&board, limits);
    let mate = (r.score >= SCORE_MATE_IN_MAX).then(|| (SCORE_MATE - r.score + 1) / 2);
    let played = r.best.map(|m| m.to_string());
    let plays_bm = played.as_ref().is_some_and(|m| p.best.contains(m));
    let solved = match p.mate_in {
        // Any mate within the distance; the key move when it is the only one.
        Some(n) => mate.is_some_and(|m| m <= n),
        None => plays_bm,
    };
    Outcome {
        solved,
        best: r.best,
        mate,
        depth: r.depth,
    }
}
