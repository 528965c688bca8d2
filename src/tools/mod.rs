//! The subcommands of the `jiangjun` binary and the tools behind them:
//! perft reports, the rules judge, the match runner's command line, the
//! test-suite solver, the tuner, the book builder and the game-record
//! reader they share, self-play training data and the NNUE trainer. Each
//! subcommand is a `clap::Args` struct (or subcommand enum) and a `run`
//! returning the process's exit code.

pub mod bench;
pub mod book;
pub mod book_build;
pub mod datagen;
pub mod judge;
pub mod match_cli;
pub mod perft;
pub mod records;
pub mod solve;
pub mod train;
pub mod tune;

use std::process::ExitCode;
use xiangqi::board::Board;

/// Exit code for bad arguments and unreadable or malformed input.
pub const EXIT_USAGE: u8 = 2;

/// Print `error: {message}` on stderr and return `code`.
pub fn fail(code: u8, message: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::from(code)
}

/// The position after `moves` (ICCS, separate words or several to a
/// string) from `fen`; the error names the bad FEN or the bad move's number.
pub fn position_after(fen: &str, moves: &[String]) -> Result<Board, String> {
    let mut board = Board::from_fen(fen).map_err(|e| format!("invalid FEN: {e}"))?;
    for (i, text) in moves.iter().flat_map(|m| m.split_whitespace()).enumerate() {
        let m = board
            .parse_move(text)
            .map_err(|e| format!("move {}: {e}", i + 1))?;
        board.make_move(m);
    }
    Ok(board)
}
