//! `jiangjun analyse`: go over whole games, every position searched at a
//! fixed time or depth, each move marked by how much of the mover's
//! expected score it lost (`annotate`), the games written back as an
//! annotated PGN and each game's score graph as SVG (`score_graph`). The
//! games come from PGN or from the Chinese game files (XQF, CBL, CBR, CBF),
//! a whole library in one run.

use crate::tools::annotate::{self, Analysis, Eval, GameInfo, Notation};
use crate::tools::{EXIT_USAGE, annotate_xqf, fail, records, score_graph};
use jiangjun_engine::Engine;
use jiangjun_engine::time::Clock;
use jiangjun_engine::{GoRequest, Limits};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use xiangqi::board::Board;

#[derive(clap::Args)]
pub struct AnalyseArgs {
    /// The games: PGN files, or Chinese game files (.xqf, .cbl, .cbr, .cbf),
    /// of which each game's main line is gone over.
    #[arg(required = true)]
    pub games: Vec<PathBuf>,
    /// Milliseconds of search a position (the default, 1000, unless --depth).
    #[arg(long)]
    pub movetime: Option<u64>,
    /// A fixed depth a position instead of a time.
    #[arg(long, conflicts_with = "movetime", value_parser = clap::value_parser!(i32).range(1..=60))]
    pub depth: Option<i32>,
    /// How moves are written in the PGN.
    #[arg(long, value_enum, default_value_t = Notation::Chinese)]
    pub notation: Notation,
    /// Write the annotated PGN here (default: stdout).
    #[arg(short, long)]
    pub out: Option<PathBuf>,
    /// Write each game's score graph as SVG: to this file for one game,
    /// FILE-N.svg (N from 1) for several.
    #[arg(long)]
    pub svg: Option<PathBuf>,
    /// Write each analysed game as XQF (for XQStudio, CCBridge and the other
    /// programs that read it): the game, each marked move's comment, the
    /// better line as a variation; to this file for one game, FILE-N.xqf
    /// for several.
    #[arg(long)]
    pub xqf: Option<PathBuf>,
    /// Only the Nth game (from 1) of all the files' games.
    #[arg(long, value_name = "N")]
    pub only: Option<usize>,
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Hash table size in MB.
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    #[command(flatten)]
    pub eval: crate::tools::EvalFileArg,
}

/// The games of the files, in order; a bad file is an error naming it.
fn read_games(paths: &[PathBuf]) -> Result<Vec<GameInfo>, String> {
    let mut out = Vec::new();
    for path in paths {
        if xiangqi_gamefile::Format::of_path(path).is_some() {
            let games = xiangqi_gamefile::read_path(path).map_err(|e| e.to_string())?;
            for g in games {
                let h = &g.headers;
                out.push(GameInfo {
                    fen: g.start_fen(),
                    moves: g.main_line(),
                    event: if h.event.is_empty() {
                        h.title.clone()
                    } else {
                        h.event.clone()
                    },
                    date: h.date.clone(),
                    red: h.red.clone(),
                    black: h.black.clone(),
                    result: h.result.pgn().to_string(),
                });
            }
        } else {
            for g in records::read_files(&[], std::slice::from_ref(path))? {
                let result = match g.result {
                    r if r >= 1.0 => "1-0",
                    r if r <= 0.0 => "0-1",
                    _ => "1/2-1/2",
                };
                out.push(GameInfo {
                    fen: g.fen,
                    moves: g.moves,
                    event: path.display().to_string(),
                    date: String::new(),
                    red: String::new(),
                    black: String::new(),
                    result: result.to_string(),
                });
            }
        }
    }
    Ok(out)
}

/// The search of every position of `game`, `progress` told after each.
fn analyse_game(
    game: &GameInfo,
    engine: &mut Engine,
    limits: &Limits,
    mut progress: impl FnMut(usize, usize),
) -> Result<Vec<Eval>, String> {
    let mut board =
        Board::from_fen(&game.fen).map_err(|e| format!("bad start {}: {e}", game.fen))?;
    let total = game.moves.len() + 1;
    let mut evals = Vec::with_capacity(total);
    for i in 0..total {
        let eval = if board.has_legal_move() {
            let r = engine.search(&board, limits.clone());
            Eval {
                score: r.score,
                pv: r.pv,
                depth: r.depth,
            }
        } else {
            Eval {
                score: annotate::LOST,
                pv: Vec::new(),
                depth: 0,
            }
        };
        evals.push(eval);
        progress(i + 1, total);
        if let Some(&mv) = game.moves.get(i) {
            if !board.is_legal_move(mv) {
                return Err(format!("move {} ({mv}) is not legal", i + 1));
            }
            board.make_move(mv);
        }
    }
    Ok(evals)
}

/// `graph.svg` (or `game.xqf`) for game `n` of several: `graph-n.svg`.
fn svg_path(base: &Path, n: usize, several: bool) -> PathBuf {
    if !several {
        return base.to_path_buf();
    }
    let stem = base
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let ext = base
        .extension()
        .map(|e| e.to_string_lossy().into_owned())
        .unwrap_or_else(|| "svg".into());
    base.with_file_name(format!("{stem}-{n}.{ext}"))
}

pub fn run(a: &AnalyseArgs) -> ExitCode {
    let network = match a.eval.resolve() {
        Ok((_, network)) => network,
        Err(e) => return fail(EXIT_USAGE, e),
    };
    let mut games = match read_games(&a.games) {
        Ok(g) => g,
        Err(e) => return fail(EXIT_USAGE, e),
    };
    let mut numbers: Vec<usize> = (1..=games.len()).collect();
    if let Some(n) = a.only {
        if n == 0 || n > games.len() {
            return fail(
                EXIT_USAGE,
                format!("--only {n}: the files have {} games", games.len()),
            );
        }
        games = vec![games.swap_remove(n - 1)];
        numbers = vec![n];
    }
    if games.is_empty() {
        return fail(EXIT_USAGE, "no game to analyse in the files");
    }
    let (limits, limit_text) = match (a.depth, a.movetime) {
        (Some(d), _) => (
            Limits::of(GoRequest {
                depth: Some(d),
                ..GoRequest::default()
            }),
            format!("depth {d} a position"),
        ),
        (None, ms) => {
            let ms = ms.unwrap_or(1000).max(1);
            (
                Limits::of(GoRequest {
                    clock: Clock {
                        movetime: Some(ms),
                        ..Clock::default()
                    },
                    ..GoRequest::default()
                }),
                format!("{ms} ms a position"),
            )
        }
    };
    let mut engine = Engine::new(a.hash.clamp(1, 65536), a.threads.clamp(1, 256));
    engine.set_network(network);
    let several = games.len() > 1;
    let mut pgn = String::new();
    for (k, (game, &number)) in games.into_iter().zip(&numbers).enumerate() {
        engine.clear_hash();
        let count = numbers.len();
        let evals = analyse_game(&game, &mut engine, &limits, |done, total| {
            if done % 10 == 0 || done == total {
                eprintln!("game {} of {count}: position {done} of {total}", k + 1);
            }
        });
        let evals = match evals {
            Ok(e) => e,
            Err(e) => return fail(1, format!("game {number}: {e}")),
        };
        let analysis = Analysis {
            game,
            evals,
            limit: limit_text.clone(),
        };
        let marks = annotate::verdicts(&analysis);
        let marked = marks.iter().filter(|(_, m)| m.is_some()).count();
        eprintln!(
            "game {} of {count} (game {number}): {marked} moves marked",
            k + 1
        );
        pgn.push_str(&annotate::pgn(&analysis, a.notation));
        if let Some(base) = &a.svg {
            let path = svg_path(base, number, several);
            if let Err(e) = std::fs::write(&path, score_graph::svg(&analysis)) {
                return fail(1, format!("{}: {e}", path.display()));
            }
        }
        if let Some(base) = &a.xqf {
            let path = svg_path(base, number, several);
            let written = annotate_xqf::bytes(&analysis)
                .and_then(|b| std::fs::write(&path, b).map_err(|e| e.to_string()));
            if let Err(e) = written {
                return fail(1, format!("{}: {e}", path.display()));
            }
        }
    }
    match &a.out {
        Some(path) => {
            if let Err(e) = std::fs::write(path, &pgn) {
                return fail(1, format!("{}: {e}", path.display()));
            }
        }
        None => out!("{pgn}"),
    }
    ExitCode::SUCCESS
}
