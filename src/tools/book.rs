//! `jiangjun book build`, `probe`, `convert` and `coverage`: books of our
//! own format, ElephantEye's `BOOK.DAT` and BHGUI's `.obk`.

use crate::tools::book_formats::{self, ConvertArgs, CoverageArgs, OutFormat};
use crate::tools::{EXIT_USAGE, book_build, fail, position_after, records};
use jiangjun_engine::play::book::{Book, Format};
use std::path::PathBuf;
use std::process::ExitCode;
use xiangqi::board::START_FEN;

#[derive(clap::Subcommand)]
pub enum BookCommand {
    /// Build a book from game records.
    Build(BuildArgs),
    /// List the book moves of a position (any format).
    Probe(ProbeArgs),
    /// Convert a book between our format, .obk and BOOK.DAT.
    Convert(ConvertArgs),
    /// Count the positions of games' first plies that a book answers.
    Coverage(CoverageArgs),
}

#[derive(clap::Args)]
pub struct BuildArgs {
    /// Game files, one game a line: FEN (6 fields), moves, result.
    #[arg(long = "games")]
    pub games: Vec<PathBuf>,
    /// PGN files, moves in ICCS, WXF or Chinese notation; or Chinese game
    /// files, told by their extension: XQF (.xqf), CCBridge's libraries
    /// (.cbl) and games (.cbr, .cbf), of which each game's main line is read.
    #[arg(long = "pgn")]
    pub pgn: Vec<PathBuf>,
    /// Plies of each game that go into the book.
    #[arg(long, default_value_t = 20)]
    pub max_ply: usize,
    /// Moves played in fewer games are left out.
    #[arg(long, default_value_t = 2)]
    pub min_games: u32,
    /// Depth of the search that checks every book move (0: none).
    #[arg(long, default_value_t = 8)]
    pub verify_depth: i32,
    /// Moves this many centipawns worse than the best are dropped.
    #[arg(long, default_value_t = 80)]
    pub verify_margin: i32,
    /// The book file to write.
    #[arg(short, long)]
    pub out: PathBuf,
    /// Its format (default: from its name, `.obk`, `.dat`, else ours).
    #[arg(long, value_enum)]
    pub format: Option<OutFormat>,
}

#[derive(clap::Args)]
pub struct ProbeArgs {
    #[arg(long, default_value = START_FEN)]
    pub fen: String,
    /// Moves played from the FEN.
    #[arg(long, num_args = 0..)]
    pub moves: Vec<String>,
    /// The book (default: the built-in one).
    #[arg(long)]
    pub book: Option<PathBuf>,
}

pub fn run(cmd: &BookCommand) -> ExitCode {
    match cmd {
        BookCommand::Build(args) => build(args),
        BookCommand::Probe(args) => probe(args),
        BookCommand::Convert(args) => book_formats::convert(args),
        BookCommand::Coverage(args) => book_formats::coverage(args),
    }
}

/// Build the book and list what was left out.
fn build(a: &BuildArgs) -> ExitCode {
    let parsed = match records::read_files_all(&a.games, &a.pgn) {
        Ok(g) => g,
        Err(e) => return fail(EXIT_USAGE, e),
    };
    let all = parsed.games;
    // A book of no moves is no book: say what could not be read.
    if all.iter().all(|g| g.moves.is_empty()) {
        let mut why = if all.is_empty() {
            "no games with a result (give --games or --pgn files)".to_string()
        } else {
            format!("no move could be read from the {} games", all.len())
        };
        for m in parsed.malformed.iter().take(3) {
            why.push_str(&format!("\n  {m}"));
        }
        if parsed.malformed.len() > 3 {
            why.push_str(&format!("\n  ... {} more", parsed.malformed.len() - 3));
        }
        return fail(EXIT_USAGE, why);
    }
    let opts = book_build::BuildOptions {
        max_ply: a.max_ply,
        min_games: a.min_games,
        verify_depth: a.verify_depth.clamp(0, 30),
        verify_margin: a.verify_margin,
    };
    let report = book_build::build(&all, &opts, |done, total| {
        if done % 200 == 0 || done == total {
            eprintln!("verified {done} of {total} positions");
        }
    });
    let format = a.format.unwrap_or_else(|| OutFormat::from_name(&a.out));
    let written = if format == OutFormat::Jj {
        std::fs::write(&a.out, report.book.to_bytes())
            .map(|_| report.book.len())
            .map_err(|e| format!("{}: {e}", a.out.display()))
    } else {
        // Each position as our book answers it (a position and its
        // mirror merged), for formats that probe the mirror only when
        // the position is absent.
        let book = Book::from(report.book.clone());
        let positions: Vec<_> = report
            .boards
            .iter()
            .map(|b| (b.clone(), book.probe(b)))
            .filter(|(_, e)| !e.is_empty())
            .collect();
        book_formats::write_positions(&positions, format, &a.out)
    };
    let written = match written {
        Ok(n) => n,
        Err(e) => return fail(1, e),
    };
    outln!(
        "{} games, {} positions, {} moves written to {} ({format:?}); {} rare moves and {} moves refuted by the search left out",
        report.games,
        report.positions,
        written,
        a.out.display(),
        report.dropped_rare,
        report.dropped_by_search.len()
    );
    for (fen, mv, loss) in &report.dropped_by_search {
        outln!("  left out {mv} ({loss} cp below the best) in {fen}");
    }
    ExitCode::SUCCESS
}

/// Print the book moves of the position with their weights.
fn probe(a: &ProbeArgs) -> ExitCode {
    let book = match &a.book {
        Some(p) => match Book::load(p) {
            Ok(b) => b,
            Err(e) => return fail(EXIT_USAGE, e),
        },
        None => Book::default_book(),
    };
    let board = match position_after(&a.fen, &a.moves) {
        Ok(b) => b,
        Err(e) => return fail(EXIT_USAGE, e),
    };
    if let Some(p) = &a.book {
        eprintln!(
            "{}: {}, {} records",
            p.display(),
            book.format().name(),
            book.len()
        );
    }
    let entries = book.probe(&board);
    let total: u32 = entries.iter().map(|e| e.weight).sum();
    // A BOOK.DAT record has a weight and nothing else: no games, no score.
    let weight_only = book.format() == Format::ElephantEye;
    for e in &entries {
        let weight = format!(
            "{}  weight {:>5} ({:>5.1}%)",
            e.mv,
            e.weight,
            100.0 * e.weight as f64 / total.max(1) as f64
        );
        if weight_only {
            outln!("{weight}");
        } else {
            outln!("{weight}  games {:>5}  score {:>5}", e.games, e.score);
        }
    }
    if entries.is_empty() {
        outln!("no book moves");
    }
    ExitCode::SUCCESS
}
