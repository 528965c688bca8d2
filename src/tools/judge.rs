//! `jiangjun judge`: rule on a game so far with the rules library, and,
//! given a directory of endgame tables, with the tables where the rules
//! leave the game going on. The game is a FEN and moves, or the main line
//! of each game of a Chinese game file (XQF, CBL, CBR, CBF).

use crate::tools::{EXIT_USAGE, fail, position_after};
use jiangjun_engine::tb::verdict;
use jiangjun_tablebase::Tablebases;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use xiangqi::board::Board;
use xiangqi::board::START_FEN;
use xiangqi::rules::Outcome;

#[derive(clap::Args)]
pub struct JudgeArgs {
    /// Starting position (default: the start position).
    #[arg(long, default_value = START_FEN)]
    pub fen: String,
    /// The moves played from it (ICCS, separate words or one quoted string).
    #[arg(long, num_args = 0..)]
    pub moves: Vec<String>,
    /// Occurrences of a position that end the game by repetition (2: the
    /// first recurrence, as the rule books rule; 3 as match play does).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(2..=10))]
    pub fold: u8,
    /// A directory of endgame tables (`jiangjun tb gen`): a game the rules
    /// leave going on whose final position is in them is ruled by them.
    #[arg(long, value_name = "DIR")]
    pub tablebase: Option<PathBuf>,
    /// A game file (.xqf, .cbl, .cbr, .cbf) instead of --fen and --moves:
    /// each of its games is ruled on at the end of its main line, one line
    /// a game (`game N: ...` for a library of several).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["fen", "moves"])]
    pub game: Option<PathBuf>,
}

/// Print `red`, `black`, `draw` or `ongoing` and the reason.
pub fn run(args: &JudgeArgs) -> ExitCode {
    // The tables first: a bad directory is an error whatever the game.
    let tables = match super::tb::open_option(args.tablebase.as_deref()) {
        Ok(t) => t,
        Err(e) => return fail(EXIT_USAGE, e),
    };
    let boards = match &args.game {
        Some(path) => match game_ends(path) {
            Ok(b) => b,
            Err(e) => return fail(EXIT_USAGE, e),
        },
        None => match position_after(&args.fen, &args.moves) {
            Ok(b) => vec![b],
            Err(e) => return fail(EXIT_USAGE, e),
        },
    };
    let several = boards.len() > 1;
    for (i, board) in boards.iter().enumerate() {
        let ruling = match rule(board, args.fold, tables.as_ref()) {
            Ok(r) => r,
            Err(e) => return fail(1, e),
        };
        if several {
            outln!("game {}: {ruling}", i + 1);
        } else {
            outln!("{ruling}");
        }
    }
    ExitCode::SUCCESS
}

/// The board at the end of each game's main line in a game file.
fn game_ends(path: &Path) -> Result<Vec<Board>, String> {
    let games = xiangqi_gamefile::read_path(path).map_err(|e| e.to_string())?;
    if games.is_empty() {
        return Err(format!("{}: no game in the file", path.display()));
    }
    Ok(games
        .iter()
        .map(|g| {
            let mut board = g.start.clone();
            for mv in g.main_line() {
                board.make_move(mv);
            }
            board
        })
        .collect())
}

/// The rules' ruling on `board`, or the tables' on a game the rules leave going on.
fn rule(board: &Board, fold: u8, tables: Option<&Tablebases>) -> Result<String, String> {
    let ruling = xiangqi::rules::judge(board, fold as usize);
    // A game the rules have ended keeps their ruling; only the final
    // position is asked (earlier ones say nothing of the game as played).
    if ruling == Outcome::Ongoing
        && let Some(tb) = tables
    {
        match verdict(tb, board) {
            Some(Ok(v)) => return Ok(v.to_string()),
            Some(Err(e)) => return Err(e.to_string()),
            None => {}
        }
    }
    Ok(ruling.to_string())
}
