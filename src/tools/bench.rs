//! `jiangjun bench`: search a fixed set of positions to a fixed depth and
//! print the node count (the search's signature) and the speed.

use jiangjun_engine::bench::{DEFAULT_DEPTH, MAX_DEPTH, run_bench};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct BenchArgs {
    /// Depth in plies (1 to 20; each ply more takes about 1.5 times as long).
    #[arg(default_value_t = DEFAULT_DEPTH,
          value_parser = clap::value_parser!(i32).range(1..=MAX_DEPTH as i64))]
    pub depth: i32,
}

pub fn run(args: &BenchArgs) -> ExitCode {
    let r = run_bench(args.depth);
    println!("Total time (ms) : {}", r.millis);
    println!("Nodes searched  : {}", r.nodes);
    println!("Nodes/second    : {}", r.nps());
    ExitCode::SUCCESS
}
