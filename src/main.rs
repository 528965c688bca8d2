use clap::{Parser, Subcommand};
use jiangjun::board::{Board, START_FEN};
use jiangjun::tools::{bench, perft};
use std::process::ExitCode;
use std::time::Instant;

/// Jiangjun, a Xiangqi engine. With no command it speaks UCCI or UCI on stdin/stdout.
#[derive(Parser)]
#[command(name = "jiangjun", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal move tree (move generator test and speed).
    Perft {
        /// Depth in plies.
        depth: u32,
        /// Position to start from (default: the start position).
        #[arg(long, default_value = START_FEN)]
        fen: String,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
    },
    /// Rule on a game so far: prints `red`, `black`, `draw` or `ongoing` and the reason.
    Judge {
        /// Starting position (default: the start position).
        #[arg(long, default_value = START_FEN)]
        fen: String,
        /// The moves played from it (ICCS, separate words or one quoted string).
        #[arg(long, num_args = 0..)]
        moves: Vec<String>,
        /// Occurrences of a position that end the game by repetition (2: the
        /// first recurrence, as the rule books rule; 3 as match play does).
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(2..=10))]
        fold: u8,
    },
    /// Search a fixed set of positions to a fixed depth: prints the node count
    /// (the search's signature) and the speed.
    Bench {
        /// Depth in plies.
        #[arg(default_value_t = bench::DEFAULT_DEPTH)]
        depth: i32,
    },
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Perft { depth, fen, divide }) => run_perft(depth, &fen, divide),
        Some(Command::Judge { fen, moves, fold }) => run_judge(&fen, &moves, fold as usize),
        Some(Command::Bench { depth }) => {
            let r = bench::run_bench(depth.clamp(1, 60));
            println!("Total time (ms) : {}", r.millis);
            println!("Nodes searched  : {}", r.nodes);
            println!("Nodes/second    : {}", r.nps());
            ExitCode::SUCCESS
        }
        None => {
            jiangjun::protocol::run_stdio();
            ExitCode::SUCCESS
        }
    }
}

fn run_judge(fen: &str, moves: &[String], fold: usize) -> ExitCode {
    let mut board = match Board::from_fen(fen) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: invalid FEN: {e}");
            return ExitCode::from(2);
        }
    };
    let words = moves.iter().flat_map(|m| m.split_whitespace());
    for (i, text) in words.enumerate() {
        match board.parse_move(text) {
            Ok(m) => board.make_move(m),
            Err(e) => {
                eprintln!("error: move {}: {e}", i + 1);
                return ExitCode::from(2);
            }
        }
    }
    println!("{}", jiangjun::rules::judge(&board, fold));
    ExitCode::SUCCESS
}

fn run_perft(depth: u32, fen: &str, divide: bool) -> ExitCode {
    let mut board = match Board::from_fen(fen) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let start = Instant::now();
    let total = if divide {
        let (text, total) = perft::report(&mut board, depth);
        print!("{text}");
        total
    } else {
        let n = perft::perft(&mut board, depth);
        println!("Nodes searched: {n}");
        n
    };
    let secs = start.elapsed().as_secs_f64();
    println!(
        "Time: {:.3} s, {:.0} leaves/s",
        secs,
        total as f64 / secs.max(1e-9)
    );
    ExitCode::SUCCESS
}
