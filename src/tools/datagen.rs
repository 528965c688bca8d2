//! `jiangjun datagen`: self-play games that write NNUE training positions
//! in the JJDATA format (`jiangjun_trainer::data`).
//!
//! # A game
//!
//! 1. **Start.** From the game's seed: an opening (a random line of the
//!    openings file, or the start position), then `random_plies` random
//!    legal moves. The position reached is searched with `start_nodes`
//!    nodes; if the game is already over or |score| > `max_start_score`,
//!    the start is thrown away and another drawn (up to
//!    [`START_ATTEMPTS`] times).
//! 2. **Play.** Each move is the best move of a search of `nodes` nodes on
//!    one thread; the hash table and histories are cleared at the start of
//!    each game, so a game depends only on its seed and the settings.
//! 3. **End**, checked before every move, first rule that applies:
//!    - the rules (`xiangqi::rules::judge`, repetition at the third
//!      occurrence): checkmate, stalemate, perpetual check or chase,
//!      repetition, the natural-move limit, dead draws;
//!    - a win for Red (Black) when the last [`WIN_PLIES`] search scores,
//!      seen from Red, were all at least [`WIN_SCORE`] (at most
//!      −[`WIN_SCORE`]): both sides agree, twice each;
//!    - a draw when the game has lasted at least [`DRAW_AFTER_PLY`] plies
//!      (random plies included) and the last [`DRAW_PLIES`] search scores
//!      were all within ±[`DRAW_SCORE`] (exclusive);
//!
//!      (these five numbers are the defaults of `--win-plies`,
//!      `--win-score`, `--draw-after`, `--draw-plies`, `--draw-score`:
//!      adjudicating sooner makes data cheaper, and different);
//!    - a draw at `max_plies` plies (random plies included).
//!
//!    With `--tablebase DIR`, right after the rules: a game whose position
//!    is in the tables ends there with the tables' result
//!    ([`jiangjun_engine::tb::verdict`]; a win the natural-move limit
//!    would cut short is left to play on). A start already in the tables
//!    is thrown away like one already over. Without tables nothing of this
//!    runs and the output is as before.
//!
//! # What is kept
//!
//! Every searched position, except those in check, those whose best move
//! is a capture or gives check, and those with a mate score. A record holds
//! the board, the side to move, the search score from the side to move's
//! point of view (engine units, a pawn before the river ≈ 100) and the
//! game's result.
//!
//! # Evaluation
//!
//! The searches evaluate with the engine's default evaluation (the built-in
//! network when there is one), or with the one `--evalfile` names: a
//! network file (the data for a network's successor comes from its own
//! self-play), `none` or `hce` for the hand-made evaluation, `<built-in>`
//! for the built-in network. The scores written are that evaluation's
//! searches'.
//!
//! # Order and determinism
//!
//! Game `i` is played from the seed derived from (`seed`, `i`) and the
//! games are appended in index order (finished games wait until those
//! before them are written), so a run depends only on the seed and the
//! settings, not on the thread count or the machine's speed. With a
//! position target, the run stops after the game that reaches it: the file
//! holds whole games. Each game is flushed as it is written: killing the
//! run loses only games not yet written. Files made with different seeds
//! are shards of one data set: concatenate them, or append to one file.

use crate::tools::{EXIT_USAGE, EvalFileArg, fail};
use jiangjun_engine::Engine;
use jiangjun_engine::nnue::{self, Network};
use jiangjun_engine::tb::{Tablebases, verdict};
use jiangjun_engine::{GoRequest, Limits};
use jiangjun_engine::{SCORE_MATE_IN_MAX, Score};
use jiangjun_trainer::data::{DataError, DataWriter, GameResult, Record};
use jiangjun_trainer::rng::Rng;
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use xiangqi::rng::mix64;
use xiangqi::rules::{Outcome, judge};
use xiangqi::{Board, Color};

/// The openings file used when `--openings` is not given and it exists.
pub const DEFAULT_OPENINGS: &str = "../shared/data/openings/openings.epd";
/// Nodes searched for every move. 2500: a net trained on 2500-node
/// self-play beat one trained on the same CPU time of 5000-node self-play by
/// +70 Elo (`notes/2026-11-26-cheaper-self-play.md`); shards up to seed
/// 303 were made at 5000.
pub const NODES: u64 = 2500;
/// Repetition ends a game at this occurrence of a position.
pub const FOLD: usize = 3;
/// Win adjudication: this many consecutive scores...
pub const WIN_PLIES: usize = 4;
/// ...all at least this good for the winner.
pub const WIN_SCORE: Score = 1500;
/// Draw adjudication: not before this ply...
pub const DRAW_AFTER_PLY: usize = 80;
/// ...this many consecutive scores...
pub const DRAW_PLIES: usize = 20;
/// ...all of absolute value below this.
pub const DRAW_SCORE: Score = 10;
/// Starts tried for one game before giving up.
pub const START_ATTEMPTS: usize = 1000;

/// `jiangjun datagen`.
#[derive(clap::Args, Clone, Debug)]
pub struct DatagenArgs {
    /// Data file to append to (created with a header if missing).
    #[arg(long)]
    pub out: PathBuf,
    /// Number of games to play.
    #[arg(
        long,
        required_unless_present = "positions",
        conflicts_with = "positions"
    )]
    pub games: Option<u64>,
    /// Play games until this many positions are written (the last game is
    /// written whole).
    #[arg(long)]
    pub positions: Option<u64>,
    /// Nodes searched for every move.
    #[arg(long, default_value_t = NODES, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// Games played at once, each on one thread with its own engine and
    /// hash table (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Seed of the openings and random plies (default: from the clock,
    /// printed). The same seed and settings give the same file.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Opening positions, one FEN (or EPD line) a line; a random one starts
    /// each game (default: ../shared/data/openings/openings.epd if present,
    /// else the start position).
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Random legal plies played after the opening.
    #[arg(long, default_value_t = 8)]
    pub random_plies: usize,
    /// Nodes of the search that checks a start is balanced.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    pub start_nodes: u64,
    /// Starts whose score is beyond this are thrown away.
    #[arg(long, default_value_t = 300)]
    pub max_start_score: i32,
    /// Games still going after this many plies are drawn.
    #[arg(long, default_value_t = 400)]
    pub max_plies: usize,
    /// Hash table size per thread, in MB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Win adjudication: this many consecutive search scores...
    #[arg(long, default_value_t = WIN_PLIES, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub win_plies: usize,
    /// ...all at least this good for the winner.
    #[arg(long, default_value_t = WIN_SCORE)]
    pub win_score: Score,
    /// Draw adjudication: not before this ply...
    #[arg(long, default_value_t = DRAW_AFTER_PLY)]
    pub draw_after: usize,
    /// ...this many consecutive search scores...
    #[arg(long, default_value_t = DRAW_PLIES, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub draw_plies: usize,
    /// ...all of absolute value below this (0: never).
    #[arg(long, default_value_t = DRAW_SCORE)]
    pub draw_score: Score,
    #[command(flatten)]
    pub eval: EvalFileArg,
    /// A directory of endgame tables (`jiangjun tb gen`): a game entering
    /// them ends there with their result.
    #[arg(long, value_name = "DIR")]
    pub tablebase: Option<PathBuf>,
    /// No progress lines.
    #[arg(long)]
    pub quiet: bool,
}

/// How games are played (everything a game depends on besides its index).
#[derive(Clone, Debug)]
pub struct Config {
    pub seed: u64,
    /// Start positions (FENs); empty means the start position.
    pub openings: Vec<String>,
    pub random_plies: usize,
    pub start_nodes: u64,
    pub max_start_score: Score,
    pub nodes: u64,
    pub max_plies: usize,
    pub hash_mb: usize,
    pub adjudication: Adjudication,
    /// The searches' network; `None`: the hand-made evaluation. By
    /// default the engine's default evaluation (`nnue::default_network`).
    pub network: Option<Arc<Network>>,
    /// Endgame tables that end a game entering them; `None`: no table
    /// adjudication.
    pub tablebases: Option<Arc<Tablebases>>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            seed: 1,
            openings: Vec::new(),
            random_plies: 8,
            start_nodes: 1000,
            max_start_score: 300,
            nodes: NODES,
            max_plies: 400,
            hash_mb: 16,
            adjudication: Adjudication::default(),
            network: nnue::default_network(),
            tablebases: None,
        }
    }
}

/// When a game is ended on its search scores (see the module's "End").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Adjudication {
    pub win_plies: usize,
    pub win_score: Score,
    pub draw_after: usize,
    pub draw_plies: usize,
    pub draw_score: Score,
}

impl Default for Adjudication {
    fn default() -> Adjudication {
        Adjudication {
            win_plies: WIN_PLIES,
            win_score: WIN_SCORE,
            draw_after: DRAW_AFTER_PLY,
            draw_plies: DRAW_PLIES,
            draw_score: DRAW_SCORE,
        }
    }
}

/// When to stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Games(u64),
    /// At least this many positions (whole games).
    Positions(u64),
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// By the rules.
    Rules(Outcome),
    /// Adjudicated on the search scores.
    Adjudicated,
    /// The ply cap.
    PlyCap,
    /// The position entered the endgame tables.
    Tablebase,
}

/// A played game: its kept positions (with the result filled in).
#[derive(Clone, Debug)]
pub struct Game {
    pub records: Vec<Record>,
    pub result: GameResult,
    pub end: End,
    /// Plies from the opening position, random plies included.
    pub plies: usize,
}

/// A game as it is written.
#[derive(Clone, Copy, Debug)]
pub struct Written {
    pub index: u64,
    pub positions: usize,
    pub result: GameResult,
    pub end: End,
    pub plies: usize,
}

/// Running totals of a run.
#[derive(Clone, Copy, Debug, Default)]
pub struct Totals {
    pub games: u64,
    pub positions: u64,
    /// Games won by Red, drawn, won by Black.
    pub red: u64,
    pub draws: u64,
    pub black: u64,
    pub plies: u64,
    /// Games ended by the endgame tables.
    pub tablebase: u64,
    pub elapsed: Duration,
}

/// Why a run failed.
#[derive(Debug, thiserror::Error)]
pub enum DatagenError {
    #[error(transparent)]
    Data(#[from] DataError),
    #[error("{0}")]
    Engine(String),
    #[error("endgame tables: {0}")]
    Tablebase(String),
    #[error(
        "no balanced start found in {START_ATTEMPTS} tries (check the openings, --random-plies, --max-start-score)"
    )]
    NoStart,
}

/// The seed of game `index` of a run seeded with `seed`.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    mix64(mix64(seed).wrapping_add(mix64(index ^ 0x5851_f42d_4c95_7f2d)))
}

fn nodes(n: u64) -> Limits {
    Limits::of(GoRequest {
        nodes: Some(n),
        ..GoRequest::default()
    })
}

/// A balanced start for a game: opening, random plies, a short search.
fn start_position(engine: &mut Engine, cfg: &Config, rng: &mut Rng) -> Option<Board> {
    'attempt: for _ in 0..START_ATTEMPTS {
        let mut board = if cfg.openings.is_empty() {
            Board::startpos()
        } else {
            let fen = &cfg.openings[rng.below(cfg.openings.len())];
            Board::from_fen(fen).expect("openings are checked when read")
        };
        for _ in 0..cfg.random_plies {
            if judge(&board, FOLD) != Outcome::Ongoing {
                continue 'attempt;
            }
            let moves = board.legal_moves();
            board.make_move(moves.as_slice()[rng.below(moves.len())]);
        }
        if judge(&board, FOLD) != Outcome::Ongoing {
            continue;
        }
        if let Some(tb) = &cfg.tablebases
            && verdict(tb, &board).is_some()
        {
            continue;
        }
        let r = engine.search(&board, nodes(cfg.start_nodes));
        if r.best.is_some() && r.score.abs() <= cfg.max_start_score {
            return Some(board);
        }
    }
    None
}

fn winner(color: Color) -> GameResult {
    match color {
        Color::Red => GameResult::RedWins,
        Color::Black => GameResult::BlackWins,
    }
}

/// Play game `index` on `engine` (one thread). Returns `Ok(None)` if
/// `abort` is set meanwhile.
pub fn play_game(
    engine: &mut Engine,
    cfg: &Config,
    index: u64,
    abort: &AtomicBool,
) -> Result<Option<Game>, DatagenError> {
    engine.new_game();
    let mut rng = Rng::new(game_seed(cfg.seed, index));
    let mut board = start_position(engine, cfg, &mut rng).ok_or(DatagenError::NoStart)?;
    let mut plies = cfg.random_plies;
    let mut records = Vec::new();
    // Search scores from Red's side, one per move played.
    let mut red_scores: Vec<Score> = Vec::new();
    let all = |s: &[Score], n: usize, f: &dyn Fn(Score) -> bool| {
        s.len() >= n && s[s.len() - n..].iter().all(|&x| f(x))
    };
    let (result, end) = loop {
        if abort.load(Ordering::Relaxed) {
            return Ok(None);
        }
        match judge(&board, FOLD) {
            Outcome::Ongoing => {}
            o @ Outcome::Win(c, _) => break (winner(c), End::Rules(o)),
            o @ Outcome::Draw(_) => break (GameResult::Draw, End::Rules(o)),
        }
        if let Some(tb) = &cfg.tablebases {
            match verdict(tb, &board) {
                None => {}
                Some(Ok(v)) => break (v.winner().map_or(GameResult::Draw, winner), End::Tablebase),
                Some(Err(e)) => return Err(DatagenError::Tablebase(e)),
            }
        }
        if plies >= cfg.max_plies {
            break (GameResult::Draw, End::PlyCap);
        }
        let r = engine.search(&board, nodes(cfg.nodes));
        let us = board.side_to_move();
        let best = r.best.expect("the rules found a legal move");
        let score = r.score;
        if !board.in_check()
            && board.piece_at(best.to()).is_none()
            && !board.gives_check(best)
            && score.abs() < SCORE_MATE_IN_MAX
        {
            let score = score.clamp(-i16::MAX as Score, i16::MAX as Score) as i16;
            records.push(Record::from_board(&board, GameResult::Draw, score));
        }
        red_scores.push(if us == Color::Red { score } else { -score });
        let adj = &cfg.adjudication;
        if all(&red_scores, adj.win_plies, &|s| s >= adj.win_score) {
            break (GameResult::RedWins, End::Adjudicated);
        }
        if all(&red_scores, adj.win_plies, &|s| s <= -adj.win_score) {
            break (GameResult::BlackWins, End::Adjudicated);
        }
        if plies >= adj.draw_after
            && all(&red_scores, adj.draw_plies, &|s| s.abs() < adj.draw_score)
        {
            break (GameResult::Draw, End::Adjudicated);
        }
        board.make_move(best);
        plies += 1;
    };
    for r in &mut records {
        r.result = result;
    }
    Ok(Some(Game {
        records,
        result,
        end,
        plies,
    }))
}

/// Play games on `threads` threads and append their positions to `out` in
/// game order until `target` is met. `on_written` is called after each
/// game is written (and flushed).
pub fn generate(
    cfg: &Config,
    target: Target,
    threads: usize,
    out: &Path,
    mut on_written: impl FnMut(&Written, &Totals),
) -> Result<Totals, DatagenError> {
    let mut writer = DataWriter::append(out)?;
    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let start = Instant::now();
    let mut totals = Totals::default();
    let threads = threads.max(1);
    if let Target::Games(0) | Target::Positions(0) = target {
        writer.finish()?;
        return Ok(totals);
    }
    let mut engines = Vec::with_capacity(threads);
    for _ in 0..threads {
        let mut engine = Engine::try_new(cfg.hash_mb, 1)
            .map_err(|e| DatagenError::Engine(format!("cannot start a search thread: {e}")))?;
        // One network in memory, shared by every game's engine.
        engine.set_network(cfg.network.clone());
        engines.push(engine);
    }
    let result = std::thread::scope(|scope| -> Result<(), DatagenError> {
        let (tx, rx) = mpsc::channel::<(u64, Result<Game, DatagenError>)>();
        for mut engine in engines {
            let tx = tx.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if let Target::Games(n) = target
                        && index >= n
                    {
                        break;
                    }
                    match play_game(&mut engine, cfg, index, stop) {
                        Ok(Some(game)) => {
                            if tx.send((index, Ok(game))).is_err() {
                                break;
                            }
                        }
                        Ok(None) => break,
                        Err(e) => {
                            let _ = tx.send((index, Err(e)));
                            break;
                        }
                    }
                }
            });
        }
        drop(tx);
        // Stop the players however this ends (error or target met).
        struct StopOnDrop<'a>(&'a AtomicBool);
        impl Drop for StopOnDrop<'_> {
            fn drop(&mut self) {
                self.0.store(true, Ordering::Relaxed);
            }
        }
        let _stop = StopOnDrop(&stop);
        let mut pending = BTreeMap::new();
        let mut to_write = 0u64;
        for (index, game) in rx {
            pending.insert(index, game?);
            while let Some(game) = pending.remove(&to_write) {
                for r in &game.records {
                    writer.write(r)?;
                }
                writer.flush()?;
                totals.games += 1;
                totals.positions += game.records.len() as u64;
                totals.plies += game.plies as u64;
                totals.tablebase += u64::from(game.end == End::Tablebase);
                match game.result {
                    GameResult::RedWins => totals.red += 1,
                    GameResult::Draw => totals.draws += 1,
                    GameResult::BlackWins => totals.black += 1,
                }
                totals.elapsed = start.elapsed();
                let written = Written {
                    index: to_write,
                    positions: game.records.len(),
                    result: game.result,
                    end: game.end,
                    plies: game.plies,
                };
                on_written(&written, &totals);
                to_write += 1;
                let done = match target {
                    Target::Games(n) => totals.games >= n,
                    Target::Positions(n) => totals.positions >= n,
                };
                if done {
                    return Ok(());
                }
            }
        }
        Ok(())
    });
    result?;
    writer.finish()?;
    totals.elapsed = start.elapsed();
    Ok(totals)
}

/// Read the openings: a file's FENs, the default file's if it exists, or
/// none (the start position).
fn openings(args: &DatagenArgs) -> Result<(Vec<String>, String), String> {
    let path = match &args.openings {
        Some(p) => p.clone(),
        None => {
            let p = PathBuf::from(DEFAULT_OPENINGS);
            if !p.exists() {
                return Ok((Vec::new(), "the start position".into()));
            }
            p
        }
    };
    let fens = xiangqi_match::read_openings(&path).map_err(|e| e.to_string())?;
    let what = format!("{} openings from {}", fens.len(), path.display());
    Ok((fens, what))
}

fn hms(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// The progress line.
fn progress(t: &Totals, target: Option<Target>) -> String {
    let secs = t.elapsed.as_secs_f64().max(1e-9);
    let pps = t.positions as f64 / secs;
    let g = t.games.max(1) as f64;
    let mut line = format!(
        "games {}  positions {}  {:.0} pos/s  red {:.0}% draw {:.0}% black {:.0}%  {:.0} plies/game",
        t.games,
        t.positions,
        pps,
        100.0 * t.red as f64 / g,
        100.0 * t.draws as f64 / g,
        100.0 * t.black as f64 / g,
        t.plies as f64 / g
    );
    let left = match target {
        Some(Target::Games(n)) => n.saturating_sub(t.games) as f64 / (t.games as f64 / secs),
        Some(Target::Positions(n)) => n.saturating_sub(t.positions) as f64 / pps,
        None => f64::NAN,
    };
    if left.is_finite() {
        line += &format!("  ETA {}", hms(Duration::from_secs_f64(left)));
    }
    line
}

/// The command: read the settings, generate, report.
pub fn run(args: &DatagenArgs) -> ExitCode {
    let (openings, from) = match openings(args) {
        Ok(o) => o,
        Err(e) => return fail(EXIT_USAGE, e),
    };
    let seed = args.seed.unwrap_or_else(|| {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        mix64(t.as_nanos() as u64 ^ std::process::id() as u64)
    });
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let target = match (args.games, args.positions) {
        (Some(g), _) => Target::Games(g),
        (None, Some(p)) => Target::Positions(p),
        (None, None) => return fail(EXIT_USAGE, "give --games or --positions"),
    };
    let (eval, network) = match args.eval.resolve() {
        Ok(chosen) => chosen,
        Err(e) => return fail(EXIT_USAGE, e),
    };
    let tablebases = match super::tb::open_option(args.tablebase.as_deref()) {
        Ok(t) => t.map(Arc::new),
        Err(e) => return fail(EXIT_USAGE, e),
    };
    let cfg = Config {
        seed,
        openings,
        random_plies: args.random_plies,
        start_nodes: args.start_nodes,
        max_start_score: args.max_start_score,
        nodes: args.nodes,
        max_plies: args.max_plies,
        hash_mb: args.hash.max(1),
        adjudication: Adjudication {
            win_plies: args.win_plies,
            win_score: args.win_score,
            draw_after: args.draw_after,
            draw_plies: args.draw_plies,
            draw_score: args.draw_score,
        },
        network,
        tablebases,
    };
    if !args.quiet {
        eprintln!(
            "datagen: seed {seed}, {threads} threads, {} nodes/move, start: {from} + {} random plies, {eval}, to {}",
            cfg.nodes,
            cfg.random_plies,
            args.out.display()
        );
    }
    let tty = std::io::stderr().is_terminal();
    let every = if tty {
        Duration::from_millis(500)
    } else {
        Duration::from_secs(10)
    };
    let mut last = Instant::now();
    let result = generate(&cfg, target, threads, &args.out, |_, t| {
        if !args.quiet && last.elapsed() >= every {
            last = Instant::now();
            if tty {
                eprint!("\r{}\x1b[K", progress(t, Some(target)));
            } else {
                eprintln!("{}", progress(t, Some(target)));
            }
        }
    });
    match result {
        Ok(t) => {
            if !args.quiet {
                if tty {
                    eprint!("\r\x1b[K");
                }
                eprintln!("{}", progress(&t, None));
                eprintln!(
                    "wrote {} positions from {} games to {} in {}",
                    t.positions,
                    t.games,
                    args.out.display(),
                    hms(t.elapsed)
                );
                if cfg.tablebases.is_some() {
                    eprintln!("{} games ended by the endgame tables", t.tablebase);
                }
            }
            ExitCode::SUCCESS
        }
        Err(e) => fail(1, e),
    }
}
