//! The subcommands of the `jiangjun` binary and the tools behind them:
//! perft reports, the rules judge, the match runner's command line, the
//! test-suite solver, the evaluation tuner (Texel), the search-parameter
//! tuner (SPSA), the book builder and the game-record reader they share,
//! self-play training data and the NNUE trainer, the strength ladder's
//! listing, the endgame tables' tools, and the analysis of whole games. Each
//! subcommand is a `clap::Args` struct (or subcommand enum) and a `run`
//! returning the process's exit code.

/// `print!` for the tools' output: a reader that closed the pipe early
/// (`jiangjun tb info DIR | head`) ends the process quietly with the
/// shell's status for a broken pipe (141) instead of the panic `print!`
/// gives; any other write error is reported and exits 1.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::tools::write_out(format_args!($($arg)*))
    };
}

/// `println!` for the tools' output, as [`out!`].
macro_rules! outln {
    () => {
        $crate::tools::write_out(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::tools::write_out(format_args!("{}\n", format_args!($($arg)*)))
    };
}

pub mod analyse;
pub mod annotate;
pub mod annotate_xqf;
pub mod bench;
pub mod book;
pub mod book_build;
pub mod book_formats;
pub mod datagen;
pub mod judge;
pub mod ladder;
pub mod match_cli;
pub mod perft;
pub mod records;
pub mod score_graph;
pub mod solve;
pub mod spsa;
pub mod tb;
pub mod train;
pub mod tune;

use jiangjun_engine::nnue::{EMBEDDED_NETWORK, EvalSource, Network, NnueError};
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use xiangqi::board::Board;

/// Write the tools' output to stdout (see [`out!`]).
pub fn write_out(args: std::fmt::Arguments) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout.write_fmt(args) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(141);
        }
        eprintln!("error: writing to stdout: {e}");
        std::process::exit(1);
    }
}

/// Exit code for bad arguments and unreadable or malformed input.
pub const EXIT_USAGE: u8 = 2;

/// Print `error: {message}` on stderr and return `code`.
pub fn fail(code: u8, message: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::from(code)
}

/// A tool's `--evalfile` option (bench, solve, datagen), defined once.
#[derive(clap::Args, Clone, Debug)]
pub struct EvalFileArg {
    /// Evaluate with this network file (NNUE) instead of the default
    /// evaluation; `none` or `hce`: the hand-made evaluation; `<built-in>`:
    /// the network built into the binary (the default when there is one).
    #[arg(long, value_name = "PATH")]
    pub evalfile: Option<std::path::PathBuf>,
}

impl EvalFileArg {
    /// The evaluation it names and its network, read now (`evalfile_network`).
    pub fn resolve(&self) -> Result<(EvalSource, Option<Arc<Network>>), NnueError> {
        evalfile_network(self.evalfile.as_deref())
    }
}

/// The evaluation a tool's `--evalfile` names (as the `EvalFile` option:
/// a network file, `none` or `hce` for the hand-made evaluation,
/// `<built-in>` for the network built into the binary; without one, the
/// engine's default evaluation) and its network, read now (`None`: the
/// hand-made evaluation).
pub fn evalfile_network(
    arg: Option<&Path>,
) -> Result<(EvalSource, Option<Arc<Network>>), NnueError> {
    let source = match arg {
        None => EvalSource::default_for(EMBEDDED_NETWORK),
        Some(a) => EvalSource::parse_os(a.as_os_str(), EMBEDDED_NETWORK)?,
    };
    let network = source.network()?;
    Ok((source, network))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evalfile_names_the_evaluations() {
        let (source, net) = evalfile_network(None).unwrap();
        assert_eq!(source, EvalSource::default_for(EMBEDDED_NETWORK));
        assert_eq!(net, jiangjun_engine::nnue::default_network());
        for hand_made in ["none", "hce"] {
            let (source, net) = evalfile_network(Some(Path::new(hand_made))).unwrap();
            assert_eq!((source, net), (EvalSource::HandMade, None));
        }
        let built_in = evalfile_network(Some(Path::new("<built-in>")));
        assert_eq!(built_in.is_ok(), EMBEDDED_NETWORK.is_some());
        let e = evalfile_network(Some(Path::new("/nonexistent/net.nnue"))).unwrap_err();
        assert!(e.to_string().contains("/nonexistent/net.nnue"), "{e}");
    }
}
