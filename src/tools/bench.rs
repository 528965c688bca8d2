//! `jiangjun bench`: search a fixed set of positions to a fixed depth and
//! print the node count (the search's signature) and the speed.

use jiangjun_engine::bench::{DEFAULT_DEPTH, run_bench};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct BenchArgs {
    /// Depth in plies.
    #[arg(default_value_t = DEFAULT_DEPTH)]
    pub depth: i32,
}

pub fn run(args: &BenchArgs) -> ExitCode {
    let r = run_bench(args.depth.clamp(1, 60));
    println!("Total time (ms) : {}", r.millis);
    println!("Nodes searched  : {}", r.nodes);
    println!("Nodes/second    : {}", r.nps());
    ExitCode::SUCCESS
}
