//! `jiangjun analyse GAME...`: every move of a finished game searched at a
//! chosen time or depth and judged by the expected score it lost
//! (`jiangjun_engine::analysis`: the marks `??`, `?`, `?!` and the better
//! line), as players go over a game to find where it turned. Writes an
//! annotated PGN (ICCS or Chinese notation) and each game's score graph as
//! an SVG, with progress on stderr.

use super::records::{self, Game};
use crate::tools::{EXIT_USAGE, EvalFileArg, fail};
use jiangjun_engine::analysis::{self, Judged, MARKS, Verdict, judge_moves, mate_moves};
use jiangjun_engine::nnue::Network;
use jiangjun_engine::play::time::Clock;
use jiangjun_engine::{Engine, Limits, SCORE_MATE, Score};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use xiangqi::board::Board;
use xiangqi::types::{Color, Move};

use xiangqi::{OUTCOME_FOLD, Outcome};

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    /// Coordinates: `h2e2`.
    Iccs,
    /// Chinese: 炮二平五.
    Chinese,
}

#[derive(clap::Args)]
pub struct AnalyseArgs {
    /// Game files: PGN (ICCS, WXF or Chinese moves), or one game a line
    /// (`FEN moves... result`, `.txt`).
    #[arg(required = true)]
    pub games: Vec<PathBuf>,
    /// Milliseconds of search per position (ignored with --depth).
    #[arg(long, default_value_t = 1000)]
    pub movetime: u64,
    /// Search every position to this depth instead of for a time (the same
    /// analysis on every machine).
    #[arg(long)]
    pub depth: Option<i32>,
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// The notation of the annotated PGN's moves and lines.
    #[arg(long, value_enum, default_value_t = Notation::Iccs)]
    pub notation: Notation,
    /// Write the annotated PGN here (default: standard output).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Draw each game's score graph as an SVG: this file for one game;
    /// with more, `NAME-N.svg` beside it (N from 1).
    #[arg(long)]
    pub svg: Option<PathBuf>,
    #[command(flatten)]
    pub eval: EvalFileArg,
}

/// The search of `board`, or the game's verdict when it is over (mated or
/// stalemated: lost for the side to move; drawn by rule: 0).
fn verdict(engine: &mut Engine, board: &Board, limits: &Limits) -> Verdict {
    match xiangqi::rules::judge(board, OUTCOME_FOLD) {
        Outcome::Ongoing => {}
        Outcome::Win(c, _) => {
            let score = if c == board.side_to_move() {
                SCORE_MATE
            } else {
                -SCORE_MATE
            };
            return Verdict {
                score,
                best: None,
                pv: Vec::new(),
                depth: 0,
            };
        }
        Outcome::Draw(_) => {
            return Verdict {
                score: 0,
                best: None,
                pv: Vec::new(),
                depth: 0,
            };
        }
    }
    let r = engine.search(board, limits.clone());
    Verdict {
        score: r.score,
        best: r.best,
        pv: r.pv,
        depth: r.depth,
    }
}

/// Search every position of `game` (progress on stderr as `label`).
pub fn analyse_game(
    engine: &mut Engine,
    game: &Game,
    limits: &Limits,
    label: &str,
) -> Result<(Board, Vec<Judged>), String> {
    let start = Board::from_fen(&game.fen).map_err(|e| format!("invalid FEN: {e}"))?;
    engine.new_game();
    let mut board = start.clone();
    let mut verdicts = Vec::with_capacity(game.moves.len() + 1);
    let n = game.moves.len();
    for (i, &mv) in game.moves.iter().enumerate() {
        eprint!("\r{label}: move {}/{n}", i + 1);
        verdicts.push(verdict(engine, &board, limits));
        board.make_move(mv);
    }
    verdicts.push(verdict(engine, &board, limits));
    eprintln!("\r{label}: {n} moves analysed");
    Ok((start.clone(), judge_moves(&start, &game.moves, &verdicts)))
}

/// A move in the chosen notation, in `board` (the position before it).
fn written(board: &Board, mv: Move, notation: Notation) -> String {
    match notation {
        Notation::Iccs => mv.to_string(),
        Notation::Chinese => xiangqi::notation::chinese(board, mv),
    }
}

/// `line` from `board` in the chosen notation (stops at an illegal move).
fn written_line(board: &Board, line: &[Move], notation: Notation) -> String {
    let mut b = board.clone();
    let mut words = Vec::new();
    for &m in line {
        if !b.is_legal_move(m) {
            break;
        }
        words.push(written(&b, m, notation));
        b.make_move(m);
    }
    words.join(" ")
}

/// A score for a comment: `+1.25` (Red's view, in pawns) or `#-3`.
pub fn score_text(red_score: Score) -> String {
    match mate_moves(red_score) {
        Some(m) => format!("#{m}"),
        None if red_score.abs() >= SCORE_MATE - 1 => {
            if red_score > 0 { "#0" } else { "#-0" }.into()
        }
        None => format!("{:+.2}", red_score as f64 / 100.0),
    }
}

fn result_text(result: f64) -> &'static str {
    if result > 0.75 {
        "1-0"
    } else if result < 0.25 {
        "0-1"
    } else {
        "1/2-1/2"
    }
}

/// The annotated PGN of one game.
pub fn annotated_pgn(
    start: &Board,
    game: &Game,
    judged: &[Judged],
    notation: Notation,
    annotator: &str,
) -> String {
    let mut pgn = String::new();
    let result = result_text(game.result);
    let _ = writeln!(pgn, "[Event \"Analysis\"]");
    let _ = writeln!(pgn, "[FEN \"{}\"]", game.fen);
    let _ = writeln!(pgn, "[Result \"{result}\"]");
    let _ = writeln!(pgn, "[Annotator \"{annotator}\"]");
    if notation == Notation::Chinese {
        let _ = writeln!(pgn, "[Format \"Chinese\"]");
    }
    let counts: Vec<usize> = MARKS
        .iter()
        .map(|(_, m, _)| judged.iter().filter(|j| j.mark == Some(m)).count())
        .collect();
    let _ = writeln!(
        pgn,
        "[Marks \"?? {} ? {} ?! {}\"]\n",
        counts[0], counts[1], counts[2]
    );
    let mut board = start.clone();
    let mut number = start.fullmove().max(1) as usize;
    let mut body = Vec::new();
    for (i, j) in judged.iter().enumerate() {
        if j.mover == Color::Red {
            body.push(format!("{number}."));
        } else if i == 0 {
            body.push(format!("{number}..."));
        }
        let mark = j.mark.unwrap_or("");
        body.push(format!("{}{mark}", written(&board, j.mv, notation)));
        let mut comment = score_text(j.red_score);
        if j.mark.is_some()
            && let Some(b) = j.better
        {
            let _ = write!(
                comment,
                "; {:.0}% lost; better {} ({})",
                j.loss() * 100.0,
                written(&board, b, notation),
                written_line(&board, &j.line, notation)
            );
        }
        body.push(format!("{{{comment}}}"));
        board.make_move(j.mv);
        if j.mover == Color::Black {
            number += 1;
        }
    }
    body.push(result.to_string());
    // Lines of at most about 80 characters, as PGN asks.
    let mut line = String::new();
    for word in body {
        if !line.is_empty() && line.chars().count() + word.chars().count() > 79 {
            let _ = writeln!(pgn, "{line}");
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&word);
    }
    let _ = writeln!(pgn, "{line}\n");
    pgn
}

/// The SVG file of game `index` (from 1) of `count`.
fn svg_path(base: &Path, index: usize, count: usize) -> PathBuf {
    if count == 1 {
        return base.to_path_buf();
    }
    let stem = base
        .file_stem()
        .map_or("graph".into(), |s| s.to_string_lossy());
    base.with_file_name(format!("{stem}-{index}.svg"))
}

fn open_network(eval: &EvalFileArg) -> Result<Option<Arc<Network>>, String> {
    eval.resolve().map(|(_, n)| n).map_err(|e| e.to_string())
}

pub fn run(a: &AnalyseArgs) -> ExitCode {
    let network = match open_network(&a.eval) {
        Ok(n) => n,
        Err(e) => return fail(EXIT_USAGE, e),
    };
    let (lines, pgn): (Vec<PathBuf>, Vec<PathBuf>) = a
        .games
        .iter()
        .cloned()
        .partition(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("txt")));
    // A game cut at a move that cannot be read is not analysed as if it
    // ended there: the file and the move are named instead.
    let games = match records::read_files_all(&lines, &pgn) {
        Ok(p) if !p.malformed.is_empty() => return fail(EXIT_USAGE, &p.malformed[0]),
        Ok(p) if p.games.is_empty() => return fail(EXIT_USAGE, "no complete game in the files"),
        Ok(p) => p.games,
        Err(e) => return fail(EXIT_USAGE, e),
    };
    let limits = Limits {
        depth: a.depth.map(|d| d.clamp(1, 64)),
        clock: Clock {
            movetime: a.depth.is_none().then_some(a.movetime.clamp(1, 3_600_000)),
            ..Clock::default()
        },
        multipv: 1,
        move_overhead: 0,
        ..Limits::default()
    };
    let mut engine = match Engine::try_new(a.hash.clamp(1, 65536), a.threads.clamp(1, 256)) {
        Ok(e) => e,
        Err(e) => return fail(1, format!("cannot start the engine: {e}")),
    };
    engine.set_network(network);
    let how = match a.depth {
        Some(d) => format!("depth {d}"),
        None => format!("{} ms a move", a.movetime),
    };
    let annotator = format!("Jiangjun {} ({how})", crate::VERSION);
    let mut pgn = String::new();
    for (i, game) in games.iter().enumerate() {
        let label = format!("game {}/{}", i + 1, games.len());
        let (start, judged) = match analyse_game(&mut engine, game, &limits, &label) {
            Ok(r) => r,
            Err(e) => return fail(EXIT_USAGE, format!("{label}: {e}")),
        };
        pgn.push_str(&annotated_pgn(
            &start, game, &judged, a.notation, &annotator,
        ));
        if let Some(base) = &a.svg {
            let path = svg_path(base, i + 1, games.len());
            let svg = analysis::graph::graph(&judged, &format!("{label}, {how}"));
            if let Err(e) = std::fs::write(&path, svg) {
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

#[cfg(test)]
#[path = "analyse_tests.rs"]
mod tests;
