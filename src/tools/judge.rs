//! `jiangjun judge`: rule on a game so far with the rules library, and,
//! given a directory of endgame tables, with the tables where the rules
//! leave the game going on.

use crate::tools::{EXIT_USAGE, fail, position_after};
use jiangjun_engine::tb::verdict;
use std::path::PathBuf;
use std::process::ExitCode;
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
}

/// Print `red`, `black`, `draw` or `ongoing` and the reason.
pub fn run(args: &JudgeArgs) -> ExitCode {
    // The tables first: a bad directory is an error whatever the game.
    let tables = match super::tb::open_option(args.tablebase.as_deref()) {
        Ok(t) => t,
        Err(e) => return fail(EXIT_USAGE, e),
    };
    let board = match position_after(&args.fen, &args.moves) {
        Ok(b) => b,
        Err(e) => return fail(EXIT_USAGE, e),
    };
    let ruling = xiangqi::rules::judge(&board, args.fold as usize);
    // A game the rules have ended keeps their ruling; only the final
    // position is asked (earlier ones say nothing of the game as played).
    if ruling == Outcome::Ongoing
        && let Some(tb) = &tables
    {
        match verdict(tb, &board) {
            Some(Ok(v)) => {
                outln!("{v}");
                return ExitCode::SUCCESS;
            }
            Some(Err(e)) => return fail(1, e),
            None => {}
        }
    }
    outln!("{ruling}");
    ExitCode::SUCCESS
}
