//! `jiangjun bench`: search a fixed set of positions to a fixed depth and
//! print the node count (the search's signature) and the speed.

use crate::tools::{EXIT_USAGE, EvalFileArg, fail};
use jiangjun_engine::bench::{DEFAULT_DEPTH, MAX_DEPTH, run_bench_with_network};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct BenchArgs {
    /// Depth in plies (1 to 20; each ply more takes about 1.5 times as long).
    #[arg(default_value_t = DEFAULT_DEPTH,
          value_parser = clap::value_parser!(i32).range(1..=MAX_DEPTH as i64))]
    pub depth: i32,
    /// The evaluation to search with (to measure a network's speed).
    #[command(flatten)]
    pub eval: EvalFileArg,
}

pub fn run(args: &BenchArgs) -> ExitCode {
    let network = match args.eval.resolve() {
        Ok((_, network)) => network,
        Err(e) => return fail(EXIT_USAGE, e),
    };
    // Which evaluation and vector code ran, for comparing speeds across
    // machines and builds; stderr, as stdout is the figures alone.
    match &network {
        Some(_) => eprintln!("NNUE kernel: {}", jiangjun_engine::nnue::simd::kernel()),
        None => eprintln!("Evaluation: hand-made (no NNUE kernel)"),
    }
    let r = run_bench_with_network(args.depth, network);
    println!("Total time (ms) : {}", r.millis);
    println!("Nodes searched  : {}", r.nodes);
    println!("Nodes/second    : {}", r.nps());
    ExitCode::SUCCESS
}
