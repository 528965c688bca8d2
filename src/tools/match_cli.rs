//! `jiangjun match`: the command line of the `xiangqi-match` runner, and
//! `jiangjun match merge`, which joins the shards of a match.

use crate::tools::{EXIT_USAGE, fail};
use std::error::Error;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;
use xiangqi_match::engine::EngineSpec;
use xiangqi_match::game::{Adjudication, DrawRule, GameConfig, ResignRule};
use xiangqi_match::stats::Sprt;
use xiangqi_match::time_control::TimeControl;
use xiangqi_match::{MatchConfig, MatchError, read_openings, shard};

#[derive(clap::Args)]
#[command(
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    args_override_self = true
)]
pub struct MatchArgs {
    #[command(subcommand)]
    pub command: Option<MatchCommand>,
    /// An engine: name=A,cmd=PATH,proto=uci|ucci[,option.NAME=VALUE...][,arg=ARG]
    /// [,dir=DIR][,ranks=1-10][,timeunit=ms|s][,tc=TC][,ponder=on]. Give it twice.
    /// option.NAME=V1|V2|... changes the option between games (the values in
    /// turn; several such options go through every combination).
    #[arg(long = "engine", required = true, num_args = 1)]
    pub engines: Vec<String>,
    /// Opening positions, one FEN (or EPD line) per line; each is played twice
    /// with colours swapped. Default: the start position. A Chinese game file
    /// (.xqf, .cbl, .cbr, .cbf) gives each game's position after
    /// --opening-plies plies of its main line (the same position once).
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// With a game file as --openings: the plies of each game's main line
    /// played before the match's game starts (0: the game's start position,
    /// as for a collection of endgames). A game with fewer moves is passed over.
    #[arg(long, default_value_t = 0)]
    pub opening_plies: usize,
    /// Number of games.
    #[arg(long, default_value_t = 2)]
    pub games: usize,
    /// Time control: BASE+INC or MOVES/BASE[+INC] in seconds, st=SECONDS per
    /// move, nodes=N or depth=N.
    #[arg(long, default_value = "10+0.1")]
    pub tc: String,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Write the games here, each as soon as it ends.
    #[arg(long)]
    pub pgn: Option<PathBuf>,
    /// Continue the match in the --pgn file: its games are counted, not
    /// played again, and the missing ones are played (same openings, same
    /// colours). Starts the match if the file does not exist.
    #[arg(long, requires = "pgn")]
    pub resume: bool,
    /// Both engines ponder (as ponder=on in their specs).
    #[arg(long)]
    pub ponder: bool,
    /// Moves in the PGN in Chinese notation (炮二平五) instead of ICCS (h2e2).
    #[arg(long)]
    pub chinese: bool,
    /// Stop early when the SPRT decides: elo0=0,elo1=5,alpha=0.05,beta=0.05[,model=normalized|logistic].
    #[arg(long)]
    pub sprt: Option<String>,
    /// Resign adjudication: movecount=N,score=CP (both engines agree for N moves).
    #[arg(long)]
    pub resign: Option<String>,
    /// Draw adjudication: movenumber=N,movecount=M,score=CP.
    #[arg(long)]
    pub draw: Option<String>,
    /// Milliseconds an engine may exceed its clock before losing on time.
    #[arg(long, default_value_t = 100)]
    pub tolerance_ms: u64,
    /// Seconds a node- or depth-limited search may take before it is a hang.
    #[arg(long, default_value_t = 60)]
    pub hang_timeout: u64,
    /// Occurrences of a position that end a game by repetition.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(2..=10))]
    pub fold: u8,
    /// Games reaching this many plies are drawn (a safety net).
    #[arg(long, default_value_t = 1000)]
    pub max_plies: usize,
    /// No progress line on stderr.
    #[arg(long)]
    pub quiet: bool,
    /// Play shard K of N (from 1) of the match: the N shards split the
    /// --games into runs of whole pairs, each game with the opening and
    /// colours the whole match gives it. Needs --pgn; writes the match's
    /// settings to PGN.settings for `jiangjun match merge`. A shard's SPRT
    /// never stops it early.
    #[arg(
        long,
        value_name = "K/N",
        requires = "pgn",
        conflicts_with = "shard_games"
    )]
    pub shard: Option<String>,
    /// Play the games A..B of the match only (indices from 0, B excluded:
    /// the PGN rounds A+1 to B), as --shard does.
    #[arg(long, value_name = "A..B", requires = "pgn")]
    pub shard_games: Option<String>,
}

#[derive(clap::Subcommand)]
pub enum MatchCommand {
    /// Join the shards of a match (played with --shard or --shard-games)
    /// into its PGN, in game order, and its summary; shards of other
    /// settings, overlapping shards and missing games are refused.
    Merge(MergeArgs),
}

#[derive(clap::Args)]
pub struct MergeArgs {
    /// Write the match's PGN here (and its settings to OUT.settings).
    #[arg(long)]
    pub out: PathBuf,
    /// The shards' PGN files (each with its .settings beside it), any order.
    #[arg(required = true)]
    pub shards: Vec<PathBuf>,
}

/// The openings of a game file: each game's position after `plies` plies
/// of its main line, in file order, each position once.
fn game_file_openings(path: &Path, plies: usize) -> Result<Vec<String>, Box<dyn Error>> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for g in xiangqi_gamefile::read_path(path)? {
        let line = g.main_line();
        let Some(moves) = line.get(..plies) else {
            continue;
        };
        let mut board = g.start.clone();
        for &mv in moves {
            board.make_move(mv);
        }
        let fen = board.to_fen();
        if seen.insert(fen.clone()) {
            out.push(fen);
        }
    }
    if out.is_empty() {
        return Err(format!(
            "{}: no game with {plies} plies to open with",
            path.display()
        )
        .into());
    }
    Ok(out)
}

/// The match the arguments describe.
fn config(a: &MatchArgs) -> Result<MatchConfig, Box<dyn Error>> {
    let [e0, e1] = a.engines.as_slice() else {
        return Err(format!("give exactly two --engine options, not {}", a.engines.len()).into());
    };
    let mut engines = [EngineSpec::parse(e0)?, EngineSpec::parse(e1)?];
    if a.ponder {
        for e in &mut engines {
            e.ponder = true;
        }
    }
    let mut cfg = MatchConfig::new(engines, TimeControl::parse(&a.tc)?);
    if let Some(p) = &a.openings {
        cfg.openings = if xiangqi_gamefile::Format::of_path(p).is_some() {
            game_file_openings(p, a.opening_plies)?
        } else {
            read_openings(p)?
        };
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
    cfg.resume = a.resume;
    cfg.chinese_moves = a.chinese;
    cfg.game = GameConfig {
        tolerance: Duration::from_millis(a.tolerance_ms),
        hang_timeout: Duration::from_secs(a.hang_timeout.max(1)),
        fold: a.fold as usize,
        adjudication,
        max_plies: a.max_plies.max(10),
    };
    cfg.progress = !a.quiet;
    cfg.shard = match (&a.shard, &a.shard_games) {
        (Some(k_of_n), _) => Some(shard::parse_shard(k_of_n, a.games)?),
        (None, Some(range)) => Some(shard::parse_range(range, a.games)?),
        (None, None) => None,
    };
    Ok(cfg)
}

/// Play the match and print the summary: exit code 2 for bad arguments,
/// 1 if the match could not be played.
pub fn run(a: &MatchArgs) -> ExitCode {
    if let Some(MatchCommand::Merge(m)) = &a.command {
        return merge(m);
    }
    let cfg = match config(a) {
        Ok(c) => c,
        Err(e) => return fail(EXIT_USAGE, e),
    };
    match xiangqi_match::run(&cfg) {
        Ok(summary) => {
            out!("{}", summary.report());
            ExitCode::SUCCESS
        }
        Err(e) => fail(1, e),
    }
}

/// Merge the shards and print the match's summary: exit code 2 if they
/// do not make one match, 1 if a file cannot be read or written.
fn merge(m: &MergeArgs) -> ExitCode {
    match xiangqi_match::merge::merge(&m.shards, &m.out) {
        Ok(summary) => {
            eprintln!("merged {} shards into {}", m.shards.len(), m.out.display());
            out!("{}", summary.report());
            ExitCode::SUCCESS
        }
        Err(e @ (MatchError::Merge(_) | MatchError::Settings { .. })) => fail(EXIT_USAGE, e),
        Err(e) => fail(1, e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi::Board;
    use xiangqi_gamefile::{Game, write_xqf};

    /// Two games from the start and one endgame: with no plies the start
    /// position once and the endgame; with two, each game's position after
    /// its first two moves (the endgame, one move long, passed over).
    #[test]
    fn openings_from_a_game_file() {
        let dir = std::env::temp_dir().join(format!("jj-openings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut fens = Vec::new();
        for (i, (fen, moves)) in [
            (xiangqi::START_FEN, "h2e2 h9g7"),
            (xiangqi::START_FEN, "c3c4 b9c7 b0c2"),
            ("3k5/9/9/9/9/9/9/9/r7r/4K4 b", "a1a0"),
        ]
        .iter()
        .enumerate()
        {
            let mut board = Board::from_fen(fen).unwrap();
            let mut g = Game::new(board.clone());
            let mut at = 0;
            for text in moves.split(' ') {
                let mv = board.parse_move(text).unwrap();
                at = g.add(at, mv, None);
                board.make_move(mv);
            }
            let path = dir.join(format!("{i}.xqf"));
            std::fs::write(&path, write_xqf(&g)).unwrap();
            fens.push(path);
        }
        // A library stands in as three files read one after the other.
        let read = |plies| -> Vec<String> {
            fens.iter()
                .flat_map(|p| game_file_openings(p, plies).unwrap_or_default())
                .collect()
        };
        let start = Board::startpos().to_fen();
        assert_eq!(
            read(0),
            vec![
                start.clone(),
                start,
                "3k5/9/9/9/9/9/9/9/r7r/4K4 b - - 0 1".to_string()
            ]
        );
        let two = read(2);
        assert_eq!(two.len(), 2);
        assert!(two[0].starts_with("rnbakab1r/9/1c4nc1/"), "{two:?}");
        let e = game_file_openings(&fens[2], 2).unwrap_err().to_string();
        assert!(e.contains("2.xqf: no game with 2 plies"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
