//! `jiangjun perft`, printing with `--divide` the Pikafish-style perft
//! report of `go perft` (`jiangjun_protocol::format::perft_report`).

use crate::tools::{EXIT_USAGE, fail};
use jiangjun_protocol::format::perft_report;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Instant;
use xiangqi::Board;
use xiangqi::board::START_FEN;
use xiangqi::perft::divide_until;

#[derive(clap::Args)]
pub struct PerftArgs {
    /// Depth in plies.
    pub depth: u32,
    /// Position to start from (default: the start position).
    #[arg(long, default_value = START_FEN)]
    pub fen: String,
    /// Print the count below each root move.
    #[arg(long)]
    pub divide: bool,
}

/// Count the leaves and print the count, the time and the speed.
pub fn run(args: &PerftArgs) -> ExitCode {
    let mut board = match Board::from_fen(&args.fen) {
        Ok(b) => b,
        Err(e) => return fail(EXIT_USAGE, e),
    };
    let start = Instant::now();
    let total = if args.divide {
        let (text, total) = report(&mut board, args.depth);
        out!("{text}");
        total
    } else {
        let n = xiangqi::perft::perft(&mut board, args.depth);
        outln!("Nodes searched: {n}");
        n
    };
    let secs = start.elapsed().as_secs_f64();
    outln!(
        "Time: {:.3} s, {:.0} leaves/s",
        secs,
        total as f64 / secs.max(1e-9)
    );
    ExitCode::SUCCESS
}

/// The Pikafish `go perft` report: one `move: count` line per root move, a
/// blank line, `Nodes searched: N`. Returns the text and the total, or `None`
/// if stopped.
pub fn report_until(board: &mut Board, depth: u32, stop: &AtomicBool) -> Option<(String, u64)> {
    Some(perft_report(&divide_until(board, depth.max(1), stop)?))
}

/// `report_until` without a stop flag.
pub fn report(board: &mut Board, depth: u32) -> (String, u64) {
    let never = AtomicBool::new(false);
    report_until(board, depth, &never).unwrap_or_default()
}
