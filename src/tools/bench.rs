//! `jiangjun bench`: search a fixed set of positions to a fixed depth and
//! print the node count (the search's signature) and the speed. Other
//! positions (`--positions`) and endgame tables (`--tablebase`) measure
//! what probing costs: the same positions with and without tables.

use crate::tools::{EXIT_USAGE, EvalFileArg, fail};
use jiangjun_engine::bench::{DEFAULT_DEPTH, MAX_DEPTH, POSITIONS, run_bench_on};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use xiangqi::board::Board;

#[derive(clap::Args)]
pub struct BenchArgs {
    /// Depth in plies (1 to 20; each ply more takes about 1.5 times as long).
    #[arg(default_value_t = DEFAULT_DEPTH,
          value_parser = clap::value_parser!(i32).range(1..=MAX_DEPTH as i64))]
    pub depth: i32,
    /// The evaluation to search with (to measure a network's speed).
    #[command(flatten)]
    pub eval: EvalFileArg,
    /// Search these positions instead of the built-in ones (an EPD/FEN
    /// file: one a line, anything after `;` ignored, `#` lines skipped).
    #[arg(long, value_name = "FILE")]
    pub positions: Option<PathBuf>,
    /// Probe the endgame tables of this directory in the searches (to
    /// compare with the same bench without them).
    #[arg(long, value_name = "DIR")]
    pub tablebase: Option<PathBuf>,
}

pub fn run(args: &BenchArgs) -> ExitCode {
    let network = match args.eval.resolve() {
        Ok((_, network)) => network,
        Err(e) => return fail(EXIT_USAGE, e),
    };
    let tables = match super::tb::open_option(args.tablebase.as_deref()) {
        Ok(t) => t.map(Arc::new),
        Err(e) => return fail(EXIT_USAGE, e),
    };
    let boards: Vec<Board> = match &args.positions {
        None => POSITIONS
            .iter()
            .map(|fen| Board::from_fen(fen).expect("bench positions are valid"))
            .collect(),
        Some(path) => match xiangqi_match::read_openings(path) {
            // read_openings has checked every FEN.
            Ok(fens) => fens
                .iter()
                .filter_map(|f| Board::from_fen(f).ok())
                .collect(),
            Err(e) => return fail(EXIT_USAGE, e),
        },
    };
    // Which evaluation and vector code ran, for comparing speeds across
    // machines and builds; stderr, as stdout is the figures alone.
    match &network {
        Some(_) => eprintln!("NNUE kernel: {}", jiangjun_engine::nnue::simd::kernel()),
        None => eprintln!("Evaluation: hand-made (no NNUE kernel)"),
    }
    let with_tables = tables.is_some();
    let r = run_bench_on(&boards, args.depth, network, tables);
    // Each position's figures (stderr) when the set or the tables are not
    // the default ones: which positions the tables change.
    if with_tables || args.positions.is_some() {
        for (i, (nodes, hits, ms)) in r.per_position.iter().enumerate() {
            eprintln!("position {:>3}: nodes {nodes} tbhits {hits} ms {ms}", i + 1);
        }
    }
    outln!("Total time (ms) : {}", r.millis);
    outln!("Nodes searched  : {}", r.nodes);
    outln!("Nodes/second    : {}", r.nps());
    if with_tables {
        outln!("Table hits      : {}", r.tbhits);
    }
    ExitCode::SUCCESS
}
