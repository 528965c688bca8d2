//! `jiangjun judge`: rule on a game so far with the rules library.

use crate::tools::{EXIT_USAGE, fail, position_after};
use std::process::ExitCode;
use xiangqi::board::START_FEN;

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
}

/// Print `red`, `black`, `draw` or `ongoing` and the reason.
pub fn run(args: &JudgeArgs) -> ExitCode {
    match position_after(&args.fen, &args.moves) {
        Ok(board) => {
            println!("{}", xiangqi::rules::judge(&board, args.fold as usize));
            ExitCode::SUCCESS
        }
        Err(e) => fail(EXIT_USAGE, e),
    }
}
