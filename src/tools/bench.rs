//! `jiangjun bench`: search a fixed set of positions to a fixed depth and
//! print the node count (the search's signature) and the speed.

use crate::tools::{EXIT_USAGE, fail};
use jiangjun_engine::bench::{DEFAULT_DEPTH, MAX_DEPTH, run_bench, run_bench_with_network};
use jiangjun_engine::nnue::Network;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

#[derive(clap::Args)]
pub struct BenchArgs {
    /// Depth in plies (1 to 20; each ply more takes about 1.5 times as long).
    #[arg(default_value_t = DEFAULT_DEPTH,
          value_parser = clap::value_parser!(i32).range(1..=MAX_DEPTH as i64))]
    pub depth: i32,
    /// Evaluate with this network file (NNUE) instead of the default
    /// evaluation: measures the network's speed.
    #[arg(long, value_name = "PATH")]
    pub evalfile: Option<PathBuf>,
}

pub fn run(args: &BenchArgs) -> ExitCode {
    let r = match &args.evalfile {
        None => run_bench(args.depth),
        Some(path) => match Network::load(path) {
            Ok(net) => run_bench_with_network(args.depth, Some(Arc::new(net))),
            Err(e) => return fail(EXIT_USAGE, e),
        },
    };
    println!("Total time (ms) : {}", r.millis);
    println!("Nodes searched  : {}", r.nodes);
    println!("Nodes/second    : {}", r.nps());
    ExitCode::SUCCESS
}
