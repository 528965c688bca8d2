use clap::{Parser, Subcommand};
use jiangjun::tools::{
    analyse, bench, book, datagen, judge, ladder, match_cli, perft, solve, spsa, tb, train, tune,
};
use std::process::ExitCode;

/// Jiangjun, a Xiangqi engine. With no command it speaks UCCI or UCI on stdin/stdout.
#[derive(Parser)]
// bin_name: usage lines say `jiangjun`, not `jiangjun.exe`, on Windows too.
#[command(name = "jiangjun", bin_name = "jiangjun", version = jiangjun::VERSION, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal move tree (move generator test and speed).
    Perft(perft::PerftArgs),
    /// Rule on a game so far: prints `red`, `black`, `draw` or `ongoing` and the reason.
    Judge(judge::JudgeArgs),
    /// Go over whole games (PGN, XQF, CBL, CBR, CBF): every move marked by how
    /// much it lost (?!, ?, ??), the better move given; an annotated PGN and
    /// a score graph (SVG).
    Analyse(analyse::AnalyseArgs),
    /// Play a match between two UCI or UCCI engines, judged by the rules, with
    /// Elo, LOS, pentanomial counts and an optional SPRT.
    Match(match_cli::MatchArgs),
    /// Tune the evaluation weights from game results (Texel's method) and
    /// write them as the source of src/eval/weights.rs.
    Tune(tune::TuneArgs),
    /// Tune the search's parameters by SPSA over games of a tuning build
    /// (features `tune`) against itself, and write them into the table's
    /// source (engine/src/search/params.rs).
    Spsa(spsa::SpsaArgs),
    /// Run an EPD test suite (bm/dm): search each position for a fixed time
    /// and count the positions solved.
    Solve(solve::SolveArgs),
    /// Build or probe an opening book.
    #[command(subcommand)]
    Book(book::BookCommand),
    /// Search a fixed set of positions to a fixed depth: prints the node count
    /// (the search's signature) and the speed.
    Bench(bench::BenchArgs),
    /// Self-play at a fixed node count, writing NNUE training positions
    /// (JJDATA) to a file.
    Datagen(datagen::DatagenArgs),
    /// Train the NNUE on JJDATA files and write the engine's network file.
    Train(train::TrainArgs),
    /// Print the strength ladder: each rung's node budget, skill pick and
    /// noise, the `Skill Level` that selects it and its rating.
    Ladder(ladder::LadderArgs),
    /// Endgame tables: build them, probe a position, verify them.
    #[command(subcommand)]
    Tb(tb::TbCommand),
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    match Cli::parse().command {
        Some(Command::Perft(args)) => perft::run(&args),
        Some(Command::Judge(args)) => judge::run(&args),
        Some(Command::Analyse(args)) => analyse::run(&args),
        Some(Command::Match(args)) => match_cli::run(&args),
        Some(Command::Tune(args)) => tune::run(&args),
        Some(Command::Spsa(args)) => spsa::run(&args),
        Some(Command::Solve(args)) => solve::run_suite(&args),
        Some(Command::Book(cmd)) => book::run(&cmd),
        Some(Command::Bench(args)) => bench::run(&args),
        Some(Command::Datagen(args)) => datagen::run(&args),
        Some(Command::Train(args)) => train::run(&args),
        Some(Command::Ladder(args)) => ladder::run(&args),
        Some(Command::Tb(cmd)) => tb::run(&cmd),
        None => {
            jiangjun_protocol::run_stdio();
            ExitCode::SUCCESS
        }
    }
}
