use clap::{Parser, Subcommand};
use jiangjun::tools::perft;
use jiangjun_engine::bench;
use std::process::ExitCode;
use std::time::Instant;
use xiangqi::board::{Board, START_FEN};
use xiangqi_match as matchrun;

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
    /// Play a match between two UCI or UCCI engines, judged by the rules, with
    /// Elo, LOS, pentanomial counts and an optional SPRT.
    Match(MatchArgs),
    /// Tune the evaluation weights from game results (Texel's method) and
    /// write them as the source of src/eval/weights.rs.
    Tune {
        /// Game files, one game a line: FEN (6 fields), moves, result.
        #[arg(long = "games")]
        games: Vec<std::path::PathBuf>,
        /// PGN files with FEN tags and ICCS moves (as `jiangjun match` writes).
        #[arg(long = "pgn")]
        pgn: Vec<std::path::PathBuf>,
        /// Adam steps over the whole data.
        #[arg(long, default_value_t = 1000)]
        iterations: usize,
        /// Leave out the first plies of every game (opening theory).
        #[arg(long, default_value_t = 8)]
        skip: usize,
        /// Where to write the weights (default: print them).
        #[arg(long)]
        out: Option<std::path::PathBuf>,
    },
    /// Run an EPD test suite (bm/dm): search each position for a fixed time
    /// and count the positions solved.
    Solve {
        /// The suite, e.g. ../shared/data/tactics/mate_suite.epd.
        epd: std::path::PathBuf,
        /// Milliseconds per position.
        #[arg(long, default_value_t = 1000)]
        movetime: u64,
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Hash table size in MB.
        #[arg(long, default_value_t = 64)]
        hash: usize,
    },
    /// Build or probe an opening book.
    #[command(subcommand)]
    Book(BookCommand),
    /// Search a fixed set of positions to a fixed depth: prints the node count
    /// (the search's signature) and the speed.
    Bench {
        /// Depth in plies.
        #[arg(default_value_t = bench::DEFAULT_DEPTH)]
        depth: i32,
    },
}

#[derive(Subcommand)]
enum BookCommand {
    /// Build a book from game records.
    Build {
        /// Game files, one game a line: FEN (6 fields), moves, result.
        #[arg(long = "games")]
        games: Vec<std::path::PathBuf>,
        /// PGN files with ICCS moves.
        #[arg(long = "pgn")]
        pgn: Vec<std::path::PathBuf>,
        /// Plies of each game that go into the book.
        #[arg(long, default_value_t = 20)]
        max_ply: usize,
        /// Moves played in fewer games are left out.
        #[arg(long, default_value_t = 2)]
        min_games: u32,
        /// Depth of the search that checks every book move (0: none).
        #[arg(long, default_value_t = 8)]
        verify_depth: i32,
        /// Moves this many centipawns worse than the best are dropped.
        #[arg(long, default_value_t = 80)]
        verify_margin: i32,
        /// The book file to write.
        #[arg(short, long)]
        out: std::path::PathBuf,
    },
    /// List the book moves of a position.
    Probe {
        #[arg(long, default_value = START_FEN)]
        fen: String,
        /// Moves played from the FEN.
        #[arg(long, num_args = 0..)]
        moves: Vec<String>,
        /// The book (default: the built-in one).
        #[arg(long)]
        book: Option<std::path::PathBuf>,
    },
}

#[derive(clap::Args)]
struct MatchArgs {
    /// An engine: name=A,cmd=PATH,proto=uci|ucci[,option.NAME=VALUE...][,arg=ARG]
    /// [,dir=DIR][,ranks=1-10][,timeunit=ms|s][,tc=TC]. Give it twice.
    #[arg(long = "engine", required = true, num_args = 1)]
    engines: Vec<String>,
    /// Opening positions, one FEN (or EPD line) per line; each is played twice
    /// with colours swapped. Default: the start position.
    #[arg(long)]
    openings: Option<std::path::PathBuf>,
    /// Number of games.
    #[arg(long, default_value_t = 2)]
    games: usize,
    /// Time control: BASE+INC or MOVES/BASE[+INC] in seconds, st=SECONDS per
    /// move, nodes=N or depth=N.
    #[arg(long, default_value = "10+0.1")]
    tc: String,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Write the games here.
    #[arg(long)]
    pgn: Option<std::path::PathBuf>,
    /// Moves in the PGN in Chinese notation (炮二平五) instead of ICCS (h2e2).
    #[arg(long)]
    chinese: bool,
    /// Stop early when the SPRT decides: elo0=0,elo1=5,alpha=0.05,beta=0.05[,model=normalized|logistic].
    #[arg(long)]
    sprt: Option<String>,
    /// Resign adjudication: movecount=N,score=CP (both engines agree for N moves).
    #[arg(long)]
    resign: Option<String>,
    /// Draw adjudication: movenumber=N,movecount=M,score=CP.
    #[arg(long)]
    draw: Option<String>,
    /// Milliseconds an engine may exceed its clock before losing on time.
    #[arg(long, default_value_t = 100)]
    tolerance_ms: u64,
    /// Seconds a node- or depth-limited search may take before it is a hang.
    #[arg(long, default_value_t = 60)]
    hang_timeout: u64,
    /// Occurrences of a position that end a game by repetition.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(2..=10))]
    fold: u8,
    /// Games reaching this many plies are drawn (a safety net).
    #[arg(long, default_value_t = 1000)]
    max_plies: usize,
    /// No progress line on stderr.
    #[arg(long)]
    quiet: bool,
}

fn match_config(a: &MatchArgs) -> Result<matchrun::MatchConfig, Box<dyn std::error::Error>> {
    use matchrun::engine::EngineSpec;
    use matchrun::game::{Adjudication, DrawRule, GameConfig, ResignRule};
    use matchrun::stats::Sprt;
    use matchrun::time_control::TimeControl;
    let [e0, e1] = a.engines.as_slice() else {
        return Err(format!("give exactly two --engine options, not {}", a.engines.len()).into());
    };
    let engines = [EngineSpec::parse(e0)?, EngineSpec::parse(e1)?];
    let mut cfg = matchrun::MatchConfig::new(engines, TimeControl::parse(&a.tc)?);
    if let Some(p) = &a.openings {
        cfg.openings = matchrun::read_openings(p)?;
    }
    cfg.sprt = a.sprt.as_deref().map(Sprt::parse).transpose()?;
    let adjudication = Adjudication {
        resign: a.resign.as_deref().map(ResignRule::parse).transpose()?,
        draw: a.draw.as_deref().map(DrawRule::parse).transpose()?,
    };
    if a.games == 0 {
        return Err("--games must be at least 1".into());
    }
    cfg.games = a.games;
    cfg.concurrency = a.concurrency.clamp(1, 256);
    cfg.pgn = a.pgn.clone();
    cfg.chinese_moves = a.chinese;
    cfg.game = GameConfig {
        tolerance: std::time::Duration::from_millis(a.tolerance_ms),
        hang_timeout: std::time::Duration::from_secs(a.hang_timeout.max(1)),
        fold: a.fold as usize,
        adjudication,
        max_plies: a.max_plies.max(10),
    };
    cfg.progress = !a.quiet;
    Ok(cfg)
}

fn run_match(a: &MatchArgs) -> ExitCode {
    let cfg = match match_config(a) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    match matchrun::run(&cfg) {
        Ok(summary) => {
            print!("{}", summary.report());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Perft { depth, fen, divide }) => run_perft(depth, &fen, divide),
        Some(Command::Judge { fen, moves, fold }) => run_judge(&fen, &moves, fold as usize),
        Some(Command::Match(args)) => run_match(&args),
        Some(Command::Book(cmd)) => run_book(cmd),
        Some(Command::Solve {
            epd,
            movetime,
            threads,
            hash,
        }) => run_solve(&epd, movetime, threads, hash),
        Some(Command::Tune {
            games,
            pgn,
            iterations,
            skip,
            out,
        }) => run_tune(&games, &pgn, iterations, skip, out.as_deref()),
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

fn run_tune(
    games: &[std::path::PathBuf],
    pgn: &[std::path::PathBuf],
    iterations: usize,
    skip: usize,
    out: Option<&std::path::Path>,
) -> ExitCode {
    use jiangjun::tools::{records, tune};
    let games_read = match records::read_files(games, pgn) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let n_games = games_read.len();
    let samples = tune::samples(&games_read, skip);
    if samples.is_empty() {
        eprintln!("error: no positions (give --games or --pgn files)");
        return ExitCode::from(2);
    }
    eprintln!("{} quiet positions from {n_games} games", samples.len());
    let report = tune::tune(&samples, iterations, |t, e| {
        eprintln!("iteration {t}: error {e:.6}")
    });
    let note = format!(
        "{} positions from {n_games} games, K {:.3}, error {:.6} -> {:.6}, {iterations} iterations.",
        report.positions, report.k, report.error_before, report.error_after
    );
    eprintln!("{note}");
    let src = tune::weights_source(&report.weights, &note);
    match out {
        Some(path) => {
            if let Err(e) = std::fs::write(path, src) {
                eprintln!("error: {}: {e}", path.display());
                return ExitCode::FAILURE;
            }
        }
        None => print!("{src}"),
    }
    ExitCode::SUCCESS
}

fn run_solve(epd: &std::path::Path, movetime: u64, threads: usize, hash: usize) -> ExitCode {
    use jiangjun::tools::solve;
    let text = match std::fs::read_to_string(epd) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {}: {e}", epd.display());
            return ExitCode::from(2);
        }
    };
    let problems = match solve::parse_epd(&text) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {}: {e}", epd.display());
            return ExitCode::from(2);
        }
    };
    let mut solved = 0;
    for p in &problems {
        let o = solve::solve(p, movetime, threads.clamp(1, 256), hash.clamp(1, 65536));
        solved += o.solved as usize;
        println!(
            "{} {:<32} best {} mate {} (dm {}) depth {}",
            if o.solved { "solved  " } else { "UNSOLVED" },
            p.id,
            o.best.map_or("none".into(), |m| m.to_string()),
            o.mate.map_or("-".into(), |m| m.to_string()),
            p.mate_in.map_or("-".into(), |m| m.to_string()),
            o.depth
        );
    }
    println!(
        "solved {solved} of {} in {movetime} ms each",
        problems.len()
    );
    ExitCode::SUCCESS
}

fn run_book(cmd: BookCommand) -> ExitCode {
    use jiangjun::tools::{book_build, records};
    use jiangjun_engine::book::Book;
    match cmd {
        BookCommand::Build {
            games,
            pgn,
            max_ply,
            min_games,
            verify_depth,
            verify_margin,
            out,
        } => {
            let all = match records::read_files(&games, &pgn) {
                Ok(g) => g,
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::from(2);
                }
            };
            if all.is_empty() {
                eprintln!("error: no games with a result (give --games or --pgn files)");
                return ExitCode::from(2);
            }
            let opts = book_build::BuildOptions {
                max_ply,
                min_games,
                verify_depth: verify_depth.clamp(0, 30),
                verify_margin,
            };
            let report = book_build::build(&all, &opts, |done, total| {
                if done % 200 == 0 || done == total {
                    eprintln!("verified {done} of {total} positions");
                }
            });
            if let Err(e) = std::fs::write(&out, report.book.to_bytes()) {
                eprintln!("error: {}: {e}", out.display());
                return ExitCode::FAILURE;
            }
            println!(
                "{} games, {} positions, {} moves written to {}; {} rare moves and {} moves refuted by the search left out",
                report.games,
                report.positions,
                report.book.len(),
                out.display(),
                report.dropped_rare,
                report.dropped_by_search.len()
            );
            for (fen, mv, loss) in &report.dropped_by_search {
                println!("  left out {mv} ({loss} cp below the best) in {fen}");
            }
            ExitCode::SUCCESS
        }
        BookCommand::Probe { fen, moves, book } => {
            let book = match book {
                Some(p) => match Book::load(&p) {
                    Ok(b) => b,
                    Err(e) => {
                        eprintln!("error: {e}");
                        return ExitCode::from(2);
                    }
                },
                None => Book::default_book(),
            };
            let mut board = match Board::from_fen(&fen) {
                Ok(b) => b,
                Err(e) => {
                    eprintln!("error: invalid FEN: {e}");
                    return ExitCode::from(2);
                }
            };
            for (i, text) in moves.iter().flat_map(|m| m.split_whitespace()).enumerate() {
                match board.parse_move(text) {
                    Ok(m) => board.make_move(m),
                    Err(e) => {
                        eprintln!("error: move {}: {e}", i + 1);
                        return ExitCode::from(2);
                    }
                }
            }
            let entries = book.probe(&board);
            let total: u32 = entries.iter().map(|e| e.weight).sum();
            for e in &entries {
                println!(
                    "{}  weight {:>5} ({:>5.1}%)  games {:>5}  score {:>5}",
                    e.mv,
                    e.weight,
                    100.0 * e.weight as f64 / total.max(1) as f64,
                    e.games,
                    e.score
                );
            }
            if entries.is_empty() {
                println!("no book moves");
            }
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
    println!("{}", xiangqi::rules::judge(&board, fold));
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
        let n = xiangqi::perft::perft(&mut board, depth);
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
