//! `jiangjun tb`: build endgame tables (`gen`), ask them about a position
//! (`probe`) and check them against the rules (`verify`). The tables
//! themselves are the `jiangjun-tablebase` crate; see docs/tablebases.md.

use crate::tools::{EXIT_USAGE, fail};
use jiangjun_tablebase::build::build;
use jiangjun_tablebase::verify::{load_for, verify};
use jiangjun_tablebase::{Material, Tablebases, Wdl, value};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;
use xiangqi::Board;

/// Exit code of `tb probe` for a position outside the tables.
pub const EXIT_NOT_IN_TABLES: u8 = 3;

#[derive(clap::Subcommand)]
pub enum TbCommand {
    /// Build tables (and every smaller table their captures lead to) into
    /// a directory; tables already there are reused.
    Gen(GenArgs),
    /// Print `wdl W dtm N bestmove M` for a position in the tables.
    Probe(ProbeArgs),
    /// Check every position of every table in a directory against its
    /// successors, with the rules crate's moves.
    Verify(VerifyArgs),
    /// List the tables of a directory: positions, results with each side
    /// to move, longest mate, bytes.
    Info(InfoArgs),
}

#[derive(clap::Args)]
pub struct GenArgs {
    /// The directory to write `<material>.jtb` files into.
    #[arg(long)]
    pub out: PathBuf,
    /// Material sets, like KRvKAABB (stronger side first).
    #[arg(required = true)]
    pub materials: Vec<String>,
}

#[derive(clap::Args)]
pub struct ProbeArgs {
    /// The directory of tables.
    #[arg(long)]
    pub path: PathBuf,
    /// The position.
    #[arg(long)]
    pub fen: String,
}

#[derive(clap::Args)]
pub struct VerifyArgs {
    /// The directory of tables.
    pub dir: PathBuf,
    /// Verify only these tables (default: all of the directory's).
    pub materials: Vec<String>,
}

#[derive(clap::Args)]
pub struct InfoArgs {
    /// The directory of tables.
    pub dir: PathBuf,
}

/// The tables of a tool's `--tablebase DIR` (`judge`, `bench`, `datagen`):
/// none without the option; a directory that cannot be read, holds a
/// damaged table or no table at all is an error naming it, so a tool stops
/// before it runs rather than going on without the tables it was given.
pub fn open_option(dir: Option<&Path>) -> Result<Option<Tablebases>, String> {
    let Some(dir) = dir else {
        return Ok(None);
    };
    match Tablebases::open(dir) {
        Ok(t) if t.is_empty() => Err(format!("no tables in {}", dir.display())),
        Ok(t) => Ok(Some(t)),
        Err(e) => Err(e.to_string()),
    }
}

/// Run a `tb` subcommand.
pub fn run(cmd: &TbCommand) -> ExitCode {
    match cmd {
        TbCommand::Gen(a) => gen_tables(a),
        TbCommand::Probe(a) => probe(a),
        TbCommand::Verify(a) => verify_dir(a),
        TbCommand::Info(a) => info(a),
    }
}

fn gen_tables(args: &GenArgs) -> ExitCode {
    let mut targets = Vec::new();
    for m in &args.materials {
        match m.parse::<Material>() {
            Ok(m) if m.pieces() <= jiangjun_tablebase::index::MAX_PIECES => targets.push(m),
            Ok(m) => return fail(EXIT_USAGE, format!("{m}: too many pieces")),
            Err(e) => return fail(EXIT_USAGE, e),
        }
    }
    let start = Instant::now();
    let result = build(&args.out, &targets, |b| {
        let s = &b.stats;
        outln!(
            "{} positions {} legal {} win {} draw {} loss {} rule-loss {} maxdtm {} passes {} time {:.1}s bytes {}",
            b.material,
            s.size,
            s.legal,
            s.wins,
            s.draws,
            s.losses,
            s.rule_losses,
            s.max_dtm,
            s.passes,
            b.seconds,
            b.bytes
        );
    });
    match result {
        Ok(built) => {
            let pos: u64 = built.iter().map(|b| b.stats.size).sum();
            let bytes: u64 = built.iter().map(|b| b.bytes).sum();
            outln!(
                "built {} tables, {pos} positions, {bytes} bytes, {:.1}s",
                built.len(),
                start.elapsed().as_secs_f64()
            );
            ExitCode::SUCCESS
        }
        Err(e) => fail(1, e),
    }
}

fn probe(args: &ProbeArgs) -> ExitCode {
    let board = match Board::from_fen(&args.fen) {
        Ok(b) => b,
        Err(e) => return fail(EXIT_USAGE, e),
    };
    let tb = match Tablebases::open(&args.path) {
        Ok(t) => t,
        Err(e) => return fail(EXIT_USAGE, e),
    };
    match tb.best_move(&board) {
        None => fail(
            EXIT_NOT_IN_TABLES,
            format!(
                "the position is not in the tables of {}",
                args.path.display()
            ),
        ),
        Some(Err(e)) => fail(1, e),
        Some(Ok((p, mv))) => {
            let mut line = format!("wdl {}", p.wdl.name());
            if let Some(d) = p.dtm {
                line.push_str(&format!(" dtm {d}"));
            }
            if let Some(m) = mv {
                line.push_str(&format!(" bestmove {m}"));
            }
            outln!("{line}");
            ExitCode::SUCCESS
        }
    }
}

fn verify_dir(args: &VerifyArgs) -> ExitCode {
    let tb = match Tablebases::open(&args.dir) {
        Ok(t) => t,
        Err(e) => return fail(EXIT_USAGE, e),
    };
    if tb.is_empty() {
        return fail(EXIT_USAGE, format!("no tables in {}", args.dir.display()));
    }
    let mut chosen = Vec::new();
    for name in &args.materials {
        match name.parse::<Material>() {
            Ok(m) if tb.file(&m.canonical().0).is_some() => chosen.push(m.canonical().0),
            Ok(m) => return fail(EXIT_USAGE, format!("{m} is not in {}", args.dir.display())),
            Err(e) => return fail(EXIT_USAGE, e),
        }
    }
    let set = match load_for(&tb, &chosen) {
        Ok(s) => s,
        Err(e) => return fail(EXIT_USAGE, e),
    };
    if chosen.is_empty() {
        chosen = tb.materials();
    }
    let mut failed = 0;
    for &m in &chosen {
        let start = Instant::now();
        let r = verify(&set, &m);
        outln!(
            "{m} positions {} rule-loss {} errors {} time {:.1}s",
            r.positions,
            r.rule_losses,
            r.errors,
            start.elapsed().as_secs_f64()
        );
        for msg in &r.messages {
            eprintln!("  {msg}");
        }
        if r.errors > 0 {
            failed += 1;
        }
    }
    if failed > 0 {
        outln!("verify failed: {failed} tables with errors");
        ExitCode::FAILURE
    } else {
        outln!("verify passed: {} tables", chosen.len());
        ExitCode::SUCCESS
    }
}

fn info(args: &InfoArgs) -> ExitCode {
    let tb = match Tablebases::open(&args.dir) {
        Ok(t) => t,
        Err(e) => return fail(EXIT_USAGE, e),
    };
    outln!("material indices legal red-to-move(W/D/L) black-to-move(W/D/L) maxdtm bytes");
    for m in tb.materials() {
        let Some(file) = tb.file(&m) else { continue };
        let values = match file.values() {
            Ok(v) => v,
            Err(e) => return fail(1, e),
        };
        // The first half of the indices has Red to move (see `index`).
        let half = values.len() / 2;
        let count = |vs: &[u16]| {
            let mut c = [0u64; 3];
            for &v in vs {
                if v == value::INVALID {
                    continue;
                }
                let i = match value::unpack(v).0 {
                    Wdl::Win => 0,
                    Wdl::Draw => 1,
                    Wdl::Loss => 2,
                };
                c[i] += 1;
            }
            c
        };
        let (r, b) = (count(&values[..half]), count(&values[half..]));
        outln!(
            "{m} {} {} {}/{}/{} {}/{}/{} {} {}",
            values.len(),
            r.iter().sum::<u64>() + b.iter().sum::<u64>(),
            r[0],
            r[1],
            r[2],
            b[0],
            b[1],
            b[2],
            file.max_dtm,
            file.file_len()
        );
    }
    ExitCode::SUCCESS
}
