//! Writing a book's positions in any of the three formats, and the
//! `jiangjun book convert` and `jiangjun book coverage` subcommands.

use crate::tools::{EXIT_USAGE, fail};
use jiangjun_engine::play::book::walk::{Walk, walk};
use jiangjun_engine::play::book::{Book, Entry, JjBook, eleeye, obk, obk_file};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use xiangqi::board::Board;

/// The formats a book can be written in.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutFormat {
    /// Jiangjun's own (JJBOOK1).
    Jj,
    /// BHGUI's .obk (SQLite).
    Obk,
    /// ElephantEye's BOOK.DAT.
    Eleeye,
}

impl OutFormat {
    /// The format a file name suggests (`.obk`, `.dat`), else ours.
    pub fn from_name(path: &Path) -> OutFormat {
        let ext = path
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase());
        match ext.as_deref() {
            Some("obk") => OutFormat::Obk,
            Some("dat") => OutFormat::Eleeye,
            _ => OutFormat::Jj,
        }
    }
}

/// Write `positions` (each with its moves as the book should answer them)
/// to `out`; returns the number of moves written.
pub fn write_positions(
    positions: &[(Board, Vec<Entry>)],
    format: OutFormat,
    out: &Path,
) -> Result<usize, String> {
    let err = |e: &dyn std::fmt::Display| format!("{}: {e}", out.display());
    match format {
        OutFormat::Jj => {
            let book = JjBook::from_positions(positions);
            std::fs::write(out, book.to_bytes()).map_err(|e| err(&e))?;
            Ok(book.len())
        }
        OutFormat::Eleeye => {
            let book = eleeye::EleeyeBook::from_records(eleeye::records_of(positions));
            std::fs::write(out, book.to_bytes()).map_err(|e| err(&e))?;
            Ok(book.len())
        }
        OutFormat::Obk => obk_file::write(out, &obk::rows_of(positions)).map_err(|e| err(&e)),
    }
}

#[derive(clap::Args)]
pub struct ConvertArgs {
    /// The book to read (any format, told by its content; `<built-in>`:
    /// the one inside the binary).
    pub input: PathBuf,
    /// The book to write.
    pub output: PathBuf,
    /// The output's format (default: from its name, `.obk`, `.dat`, else ours).
    #[arg(long, value_enum)]
    pub format: Option<OutFormat>,
    /// How deep the walk from the start position goes.
    #[arg(long, default_value_t = 200)]
    pub max_plies: usize,
}

/// Walk the input book from the start position and write what it answers.
pub fn convert(a: &ConvertArgs) -> ExitCode {
    // `<built-in>`: the book inside the binary, for GUIs that want a file.
    let book = if a.input.as_os_str() == "<built-in>" {
        Book::default_book()
    } else {
        match Book::load(&a.input) {
            Ok(b) => b,
            Err(e) => return fail(EXIT_USAGE, e),
        }
    };
    let format = a.format.unwrap_or_else(|| OutFormat::from_name(&a.output));
    let w: Walk = walk(&book, &Board::startpos(), a.max_plies);
    let written = match write_positions(&w.positions, format, &a.output) {
        Ok(n) => n,
        Err(e) => return fail(1, e),
    };
    outln!(
        "{} ({}): {} records; {} reached from the start position and {} unreachable; \
         {} positions, {} moves written to {} ({format:?})",
        a.input.display(),
        book.format().name(),
        w.total,
        w.reached,
        w.unreachable(),
        w.positions.len(),
        written,
        a.output.display()
    );
    if written < w.moves() {
        outln!(
            "{} moves could not be written (keys the format cannot store)",
            w.moves() - written
        );
    }
    ExitCode::SUCCESS
}

#[derive(clap::Args)]
pub struct CoverageArgs {
    /// The book (any format).
    #[arg(long)]
    pub book: PathBuf,
    /// Game files, one game a line: FEN (6 fields), moves, result; or
    /// Chinese game files (.xqf, .cbl, .cbr, .cbf), each game's main line.
    #[arg(long)]
    pub games: Vec<PathBuf>,
    /// The plies of each game whose positions are probed.
    #[arg(long, default_value_t = 20)]
    pub plies: usize,
}

/// The start and first `plies` moves of each game of a one-game-a-line
/// text, unfinished games (`*`) included: the result does not matter here.
/// A game stops at its first move that is not legal.
fn openings(text: &str, plies: usize) -> Vec<(Board, Vec<xiangqi::types::Move>)> {
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() < 7 {
            continue;
        }
        let Ok(start) = Board::from_fen(&f[..6].join(" ")) else {
            continue;
        };
        let mut b = start.clone();
        let mut moves = Vec::new();
        for text in f[6..f.len() - 1].iter().take(plies) {
            let Ok(m) = b.parse_move(text) else { break };
            b.make_move(m);
            moves.push(m);
        }
        out.push((start, moves));
    }
    out
}

/// How many positions of the games' first plies the book answers, and
/// whether every record found there is a legal move.
pub fn coverage(a: &CoverageArgs) -> ExitCode {
    let book = match Book::load(&a.book) {
        Ok(b) => b,
        Err(e) => return fail(EXIT_USAGE, e),
    };
    let mut games = Vec::new();
    for path in &a.games {
        if xiangqi_gamefile::Format::of_path(path).is_some() {
            match xiangqi_gamefile::read_path(path) {
                Ok(list) => games.extend(list.into_iter().map(|g| {
                    let line = g.main_line().into_iter().take(a.plies).collect();
                    (g.start, line)
                })),
                Err(e) => return fail(EXIT_USAGE, e),
            }
            continue;
        }
        match std::fs::read_to_string(path) {
            Ok(text) => games.extend(openings(&text, a.plies)),
            Err(e) => return fail(EXIT_USAGE, format!("{}: {e}", path.display())),
        }
    }
    let (mut positions, mut hits, mut moves, mut illegal, mut played) = (0, 0, 0, 0, 0);
    let n_games = games.len();
    for (mut b, line) in games {
        for m in line {
            positions += 1;
            let found = book.probe_found(&b, false);
            if !found.is_empty() {
                hits += 1;
                moves += found.len();
                illegal += found
                    .iter()
                    .filter(|f| !b.is_legal_move(f.entry.mv))
                    .count();
                played += found.iter().any(|f| f.entry.mv == m) as usize;
            }
            b.make_move(m);
        }
    }
    outln!(
        "{} games, {positions} positions in their first {} plies: {hits} in the book ({:.1}%), \
         {moves} book moves found, {illegal} of them illegal; the game's move was a book move in {played}",
        n_games,
        a.plies,
        100.0 * hits as f64 / positions.max(1) as f64
    );
    if illegal > 0 {
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
