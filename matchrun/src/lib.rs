//! Engine-vs-engine matches for Xiangqi (Chinese chess) engines that speak
//! UCI or UCCI, judged by the rules of the [`xiangqi`] crate: the runner,
//! not the engines, keeps the clocks, checks every move and rules on the
//! game (checkmate, stalemate, perpetual check and chase, repetition, the
//! natural-move limit, insufficient material), with optional resign and
//! draw adjudication by the engines' scores.
//!
//! Each opening is played twice with colours swapped, several games at
//! once. The games can be written as PGN, each one as soon as it ends; the
//! [`Summary`] has W/D/L, Elo with its 95% interval, LOS, pentanomial counts
//! over the game pairs and the SPRT log-likelihood ratio, and a match with
//! an SPRT stops as soon as it decides. Engines that crash, hang, play an
//! illegal move or overstep their time lose that game and are restarted;
//! the match goes on.
//!
//! A match that was stopped resumes from its PGN ([`MatchConfig::resume`]):
//! game `n` (the `Round` tag) always has the same opening and colours, so
//! the games in the PGN are counted and the others played.
//!
//! A match can also be played in shards, on many cores or machines
//! ([`MatchConfig::shard`], [`shard`]): each shard plays a range of the
//! games, each game as the whole match would, and [`merge::merge`] joins
//! the shards' PGNs into the match's PGN and [`Summary`].
//!
//! ```no_run
//! use xiangqi_match::engine::EngineSpec;
//! use xiangqi_match::time_control::TimeControl;
//! use xiangqi_match::stats::Sprt;
//! use xiangqi_match::MatchConfig;
//!
//! let new = EngineSpec::parse("name=new,cmd=./engine-new,proto=uci")?;
//! let old = EngineSpec::parse("name=old,cmd=./engine-old,proto=ucci,option.hashsize=64")?;
//! let mut cfg = MatchConfig::new([new, old], TimeControl::parse("10+0.1")?);
//! cfg.games = 200;
//! cfg.concurrency = 2;
//! cfg.openings = xiangqi_match::read_openings("openings.epd".as_ref())?;
//! cfg.sprt = Some(Sprt::parse("elo0=0,elo1=5")?);
//! cfg.pgn = Some("games.pgn".into());
//! let summary = xiangqi_match::run(&cfg)?;
//! print!("{}", summary.report());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Settings given as text (engine specs, time controls, SPRT and
//! adjudication settings) share one `key=value,...` syntax, see [`kv`].

pub mod engine;
pub mod game;
pub mod host;
pub mod kv;
pub mod merge;
pub mod pgn;
mod resume;
pub mod shard;
pub mod spec;
pub mod stats;
mod tally;
pub mod time_control;

use engine::{Engine, EngineSpec, StartError};
use game::GameConfig;
use pgn::{GameRecord, INTERRUPTED};
use resume::{open_pgn, resume_from};
use shard::ShardFile;
use stats::{Penta, Sprt, SprtDecision, Wdl};
use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;
use std::time::Instant;
use tally::Tally;
use thiserror::Error;
use time_control::TimeControl;

/// What to play: the engines, openings, number of games, clocks and the
/// settings of each game.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The two engines; results are from the first one's view.
    pub engines: [EngineSpec; 2],
    /// Opening positions (FENs); each is played twice, colours swapped.
    pub openings: Vec<String>,
    /// Games to play (fewer if the SPRT decides first).
    pub games: usize,
    /// The time control of an engine whose spec has none.
    pub tc: TimeControl,
    /// Games played at once.
    pub concurrency: usize,
    /// Write the games here.
    pub pgn: Option<PathBuf>,
    /// Moves in the PGN in Chinese notation (炮二平五) instead of ICCS (h2e2).
    pub chinese_moves: bool,
    /// Stop when this SPRT decides.
    pub sprt: Option<Sprt>,
    /// Settings of each game but its time controls.
    pub game: GameConfig,
    /// Print the progress line on stderr.
    pub progress: bool,
    /// Continue the match in `pgn`: its games are counted, not played again,
    /// and the others are added to it. A PGN that does not exist yet starts
    /// the match.
    pub resume: bool,
    /// Play only these games (indices from 0, the PGN's `Round` minus 1):
    /// one shard of the match, each game with the opening and colours the
    /// whole match gives it. A shard needs `pgn`, next to which it writes
    /// the match's settings ([`shard`]); its SPRT does not stop it early,
    /// as the other shards' games count too ([`merge`] joins them).
    pub shard: Option<Range<usize>>,
}

impl MatchConfig {
    /// The games this run plays (or resumes): the shard's, or all.
    pub fn games_to_play(&self) -> Result<Range<usize>, MatchError> {
        match &self.shard {
            None => Ok(0..self.games),
            Some(r) if r.start < r.end && r.end <= self.games => Ok(r.clone()),
            Some(r) => Err(MatchError::Shard(format!(
                "shard {}..{} is not a non-empty range of the match's {} games",
                r.start, r.end, self.games
            ))),
        }
    }

    /// Two games from the start position at `tc`, one at a time, with the
    /// default [`GameConfig`], no PGN, no SPRT, no progress line. Two
    /// engines of the same name are told apart by a `-2` on the second.
    pub fn new(engines: [EngineSpec; 2], tc: TimeControl) -> MatchConfig {
        let [a, mut b] = engines;
        if a.name == b.name {
            b.name.push_str("-2");
        }
        MatchConfig {
            engines: [a, b],
            openings: vec![xiangqi::board::START_FEN.to_string()],
            games: 2,
            tc,
            concurrency: 1,
            pgn: None,
            chinese_moves: false,
            sprt: None,
            game: GameConfig::default(),
            progress: false,
            resume: false,
            shard: None,
        }
    }
}

/// A match that could not be played.
#[derive(Debug, Error)]
pub enum MatchError {
    /// An engine cannot even start (checked before the first game).
    #[error(transparent)]
    Start(#[from] StartError),
    #[error("{}: {source}", .path.display())]
    CreatePgn {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("writing PGN: {0}")]
    WritePgn(#[source] std::io::Error),
    #[error("{}: {source}", .path.display())]
    ReadPgn {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The PGN to resume is not of this match (other engines, openings or
    /// colours), or a game in it is there twice or has no number.
    #[error("{}: cannot resume: {reason}", .path.display())]
    Resume { path: PathBuf, reason: String },
    #[error("resuming a match needs its PGN")]
    ResumeWithoutPgn,
    /// A shard that cannot be played (no PGN, games outside the match).
    #[error("{0}")]
    Shard(String),
    #[error("{}: {reason}", .path.display())]
    Settings { path: PathBuf, reason: String },
    /// Shards that do not make one match.
    #[error("cannot merge: {0}")]
    Merge(String),
    /// An engine was stopped from outside mid-game (a cluster requeueing
    /// the job, Ctrl-C): that game is not counted, the others finished are.
    #[error(
        "game {round} was cut off ({reason}); it is not counted: the games finished are, \
         and --resume plays the rest"
    )]
    Interrupted { round: usize, reason: String },
}

/// Results from the first engine's point of view.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub names: [String; 2],
    pub wdl: Wdl,
    pub penta: Penta,
    /// Games by how they ended (checkmate, lost on time, ...).
    pub terminations: BTreeMap<String, u64>,
    /// The SPRT's log-likelihood ratio and verdict, if there is an SPRT.
    pub llr: Option<f64>,
    pub decision: Option<SprtDecision>,
    /// Games counted and the ratio when the SPRT decided (the games that
    /// were still being played then are counted after it).
    pub decided_at: Option<(u64, f64)>,
    pub sprt: Option<Sprt>,
    /// The time control(s), as text.
    pub tc: String,
    /// How long the match took (this run of it).
    pub seconds: f64,
    /// Games counted from the PGN of a resumed match.
    pub resumed: u64,
    /// The games of a shard and the match's number of games.
    pub shard: Option<(Range<usize>, usize)>,
}

impl Summary {
    fn pair_score(a_points: f64) -> usize {
        (a_points * 2.0).round() as usize
    }

    /// The final report.
    pub fn report(&self) -> String {
        let w = &self.wdl;
        let mut s = format!(
            "Results of {} vs {} ({}): {} games in {:.0} s\n",
            self.names[0],
            self.names[1],
            self.tc,
            w.games(),
            self.seconds
        );
        if self.resumed > 0 {
            s.push_str(&format!(
                "({} of them from the PGN resumed)\n",
                self.resumed
            ));
        }
        if let Some((r, games)) = &self.shard {
            s.push_str(&format!(
                "(one shard: games {}-{} of {games}; `jiangjun match merge` joins the shards)\n",
                r.start + 1,
                r.end
            ));
        }
        s.push_str(&format!(
            "W {}  D {}  L {}  score {:.1}%  draw ratio {:.1}%\n",
            w.wins,
            w.draws,
            w.losses,
            100.0 * w.score(),
            100.0 * w.draw_ratio()
        ));
        let elo = stats::elo_text(w.score(), w.elo(), w.games());
        let interval = if elo.contains("+/-") { " (95%)" } else { "" };
        s.push_str(&format!("{elo}{interval}  LOS {:.1}%\n", 100.0 * w.los()));
        let c = self.penta.counts;
        if self.penta.pairs() > 0 {
            let pairs = self.penta.pairs();
            let elo = stats::elo_text(self.penta.score(), self.penta.elo(), 2 * pairs);
            s.push_str(&format!(
                "Pentanomial [LL LD WL+DD WD WW] = [{} {} {} {} {}] over {pairs} pairs: {elo}\n",
                c[0], c[1], c[2], c[3], c[4],
            ));
        }
        if let (Some(sp), Some(llr)) = (self.sprt, self.llr) {
            let (lo, hi) = sp.bounds();
            let mut verdict = match self.decision {
                Some(SprtDecision::AcceptH1) => "H1 accepted",
                Some(SprtDecision::AcceptH0) => "H0 accepted",
                _ => "no decision",
            }
            .to_string();
            if let Some((games, at)) = self.decided_at.filter(|&(g, _)| g != w.games()) {
                verdict.push_str(&format!(" at game {games} (LLR {at:.2})"));
            }
            s.push_str(&format!(
                "SPRT ({:?}, elo0 {}, elo1 {}, alpha {}, beta {}): LLR {:.2} ({:.2}, {:.2}) {verdict}\n",
                sp.model, sp.elo0, sp.elo1, sp.alpha, sp.beta, llr, lo, hi
            ));
        }
        s.push_str("Game endings:");
        for (k, v) in &self.terminations {
            s.push_str(&format!(" {k}: {v};"));
        }
        s.push('\n');
        s
    }

    fn progress_line(&self, done: usize, total: usize) -> String {
        let w = &self.wdl;
        let elo = stats::elo_text(w.score(), w.elo(), w.games());
        let mut s = format!(
            "[{done:>5}/{total}] {} {:.1} - {:.1} {}  W {} D {} L {}  {elo}",
            self.names[0],
            w.wins as f64 + 0.5 * w.draws as f64,
            w.losses as f64 + 0.5 * w.draws as f64,
            self.names[1],
            w.wins,
            w.draws,
            w.losses,
        );
        if let (Some(sp), Some(llr)) = (self.sprt, self.llr) {
            let (lo, hi) = sp.bounds();
            s.push_str(&format!("  LLR {llr:.2} ({lo:.2}, {hi:.2})"));
        }
        s
    }
}

/// An opening file that cannot be used.
#[derive(Debug, Error)]
pub enum OpeningsError {
    #[error("{}: {source}", .path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A line that is not a FEN, with its number (from 1).
    #[error("{}:{line}: {reason}", .path.display())]
    BadFen {
        path: PathBuf,
        line: usize,
        reason: String,
    },
    #[error("{}: no positions", .path.display())]
    Empty { path: PathBuf },
}

/// Read opening FENs from an EPD/FEN file: one position a line, anything
/// after the first `;` ignored, blank and `#` lines skipped. Every FEN is
/// checked; the first bad one is an error naming its line.
pub fn read_openings(path: &Path) -> Result<Vec<String>, OpeningsError> {
    let text = std::fs::read_to_string(path).map_err(|source| OpeningsError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let fen = line.split(';').next().unwrap_or("").trim();
        if fen.is_empty() || fen.starts_with('#') {
            continue;
        }
        match xiangqi::board::Board::from_fen(fen) {
            Ok(b) => out.push(b.to_fen()),
            Err(e) => {
                return Err(OpeningsError::BadFen {
                    path: path.to_path_buf(),
                    line: i + 1,
                    reason: e.to_string(),
                });
            }
        }
    }
    if out.is_empty() {
        return Err(OpeningsError::Empty {
            path: path.to_path_buf(),
        });
    }
    Ok(out)
}

/// Today's date (UTC) as the PGN Date tag writes it: `YYYY.MM.DD`.
pub fn pgn_date() -> String {
    jiff::Timestamp::now().strftime("%Y.%m.%d").to_string()
}

struct Finished {
    index: usize,
    record: GameRecord,
    /// The first engine played Red.
    a_red: bool,
}

/// Game `index` (from 0): its opening's index in the list and whether the
/// first engine has Red. Openings go in order, each twice, colours swapped.
pub fn game_setup(index: usize, openings: usize) -> (usize, bool) {
    ((index / 2) % openings.max(1), index.is_multiple_of(2))
}

/// The time control(s) as the summary names them.
pub(crate) fn tc_text(tcs: &[TimeControl; 2]) -> String {
    if tcs[0] == tcs[1] {
        tcs[0].to_string()
    } else {
        format!("{} vs {}", tcs[0], tcs[1])
    }
}

/// Play the match. Engines that cannot be started at all are an error;
/// after that, crashes, hangs, illegal moves and time losses lose the game
/// for the engine at fault, which is restarted, and the match goes on.
/// Each game is written to the PGN as soon as it ends.
pub fn run(cfg: &MatchConfig) -> Result<Summary, MatchError> {
    let tcs: [TimeControl; 2] =
        std::array::from_fn(|k| cfg.engines[k].tc.clone().unwrap_or_else(|| cfg.tc.clone()));
    let started = Instant::now();
    let range = cfg.games_to_play()?;
    let mut tally = Tally::new(Summary {
        names: [cfg.engines[0].name.clone(), cfg.engines[1].name.clone()],
        sprt: cfg.sprt,
        tc: tc_text(&tcs),
        shard: cfg.shard.clone().map(|r| (r, cfg.games)),
        ..Summary::default()
    });
    // The settings go next to the shard's PGN before any game is played.
    let shard_file = match (&cfg.shard, &cfg.pgn) {
        (Some(_), Some(pgn)) => Some(ShardFile::open(cfg, pgn)?),
        (Some(_), None) => return Err(MatchError::Shard("a shard needs --pgn".into())),
        _ => None,
    };
    // Only a whole match may stop when its SPRT decides.
    let may_stop = cfg.shard.is_none();
    let (done, resume_len) = if cfg.resume {
        let path = cfg.pgn.as_ref().ok_or(MatchError::ResumeWithoutPgn)?;
        let (done, len) = resume_from(cfg, path, &mut tally)?;
        (done, Some(len))
    } else {
        (Vec::new(), None)
    };
    tally.summary.resumed = done.len() as u64;
    let pending: Vec<usize> = range.filter(|i| done.binary_search(i).is_err()).collect();
    let pending: &[usize] = if may_stop && tally.decided() {
        &[]
    } else {
        &pending
    };
    // Fail fast if an engine cannot even start.
    if !pending.is_empty() {
        for spec in &cfg.engines {
            Engine::start(spec)?.quit();
        }
    }
    let mut pgn_file = match &cfg.pgn {
        Some(p) => Some(open_pgn(p, resume_len)?),
        None => None,
    };
    let date = pgn_date();
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let total = done.len() + pending.len();
    let mut interrupted = None;
    let (tx, rx) = channel::<Finished>();
    let terminal = std::io::stderr().is_terminal();
    std::thread::scope(|scope| -> Result<(), MatchError> {
        for _ in 0..cfg.concurrency.max(1) {
            let tx = tx.clone();
            let (next, stop, tcs) = (&next, &stop, &tcs);
            scope.spawn(move || {
                let mut pool: [Option<Engine>; 2] = [None, None];
                loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let Some(&i) = pending.get(next.fetch_add(1, Ordering::Relaxed)) else {
                        break;
                    };
                    let (opening, a_red) = game_setup(i, cfg.openings.len());
                    let mut record = play_one(cfg, &mut pool, tcs, opening, a_red, i);
                    record.opening = Some(opening + 1);
                    if record.termination == INTERRUPTED {
                        // No new game: the match is being stopped.
                        stop.store(true, Ordering::Relaxed);
                    }
                    if tx
                        .send(Finished {
                            index: i,
                            record,
                            a_red,
                        })
                        .is_err()
                    {
                        break;
                    }
                }
                for e in pool.iter_mut() {
                    if let Some(e) = e.take() {
                        e.quit();
                    }
                }
            });
        }
        drop(tx);
        let mut count = done.len();
        for f in rx {
            let rec = &f.record;
            if rec.termination == INTERRUPTED {
                // Its engines were stopped from outside: this run ends
                // (the others' games in play are still written).
                stop.store(true, Ordering::Relaxed);
                interrupted.get_or_insert((rec.round, rec.reason.clone()));
                continue;
            }
            count += 1;
            if let Some(file) = pgn_file.as_mut() {
                // One write per game, straight to the file.
                file.write_all(rec.to_pgn(&date, cfg.chinese_moves).as_bytes())
                    .map_err(MatchError::WritePgn)?;
                file.flush().map_err(MatchError::WritePgn)?;
            }
            let ending = termination_kind(&rec.reason, rec.termination);
            tally.add(f.index, rec.result, f.a_red, ending);
            if may_stop && tally.decided() {
                stop.store(true, Ordering::Relaxed);
            }
            if cfg.progress {
                let line = tally.summary.progress_line(count, total);
                if terminal {
                    eprint!("\r{line}\x1b[K");
                } else if count % 10 == 0 || count == total {
                    eprintln!("{line}");
                }
            }
        }
        if cfg.progress && terminal {
            eprintln!();
        }
        Ok(())
    })?;
    if let Some((round, reason)) = interrupted {
        return Err(MatchError::Interrupted { round, reason });
    }
    let mut summary = tally.summary;
    summary.seconds = started.elapsed().as_secs_f64();
    if let Some(f) = shard_file {
        f.finish(summary.seconds)?;
    }
    Ok(summary)
}

/// Play game `index` with this worker's engines, (re)starting them as
/// needed; the first engine has Red if `a_red`.
fn play_one(
    cfg: &MatchConfig,
    pool: &mut [Option<Engine>; 2],
    tcs: &[TimeControl; 2],
    opening: usize,
    a_red: bool,
    index: usize,
) -> GameRecord {
    let fen = &cfg.openings[opening];
    let round = index + 1;
    // Options of each engine (pool index) in this game, and by colour.
    let options: [Vec<(String, String)>; 2] =
        std::array::from_fn(|k| cfg.engines[k].options_for_game(index));
    let (red_k, black_k) = if a_red { (0, 1) } else { (1, 0) };
    // pool[0] is the first engine, pool[1] the second.
    for (k, slot) in pool.iter_mut().enumerate() {
        if slot.is_none() {
            match Engine::start(&cfg.engines[k]) {
                Ok(e) => *slot = Some(e),
                Err(why) => {
                    // It cannot play: the game is lost for it, unless it
                    // was stopped from outside while it started.
                    let red_is_k = k == red_k;
                    let stopped = why.stopped_from_outside();
                    return GameRecord {
                        round,
                        opening: None,
                        red: cfg.engines[red_k].name.clone(),
                        black: cfg.engines[black_k].name.clone(),
                        fen: fen.to_string(),
                        moves: Vec::new(),
                        result: match (stopped, red_is_k) {
                            (true, _) => "*",
                            (false, true) => "0-1",
                            (false, false) => "1-0",
                        },
                        termination: if stopped { INTERRUPTED } else { "abandoned" },
                        reason: format!("{} could not start: {why}", cfg.engines[k].name),
                        time_control: tcs[k].to_string(),
                        options: [String::new(), String::new()],
                    };
                }
            }
        }
    }
    let tc = [tcs[red_k].clone(), tcs[black_k].clone()];
    let [p0, p1] = pool;
    let (Some(e0), Some(e1)) = (p0.as_mut(), p1.as_mut()) else {
        unreachable!("both engines were started above")
    };
    let engines = if a_red { [e0, e1] } else { [e1, e0] };
    let by_colour = [&options[red_k][..], &options[black_k][..]];
    let played = game::play(engines, fen, &tc, &cfg.game, round, by_colour);
    // Restart engines that crashed or hung.
    for (colour, broken) in played.broken.iter().enumerate() {
        if *broken {
            let k = if colour == 0 { red_k } else { black_k };
            if let Some(e) = pool[k].take() {
                e.quit();
            }
        }
    }
    played.record
}

/// A short name for how a game ended, for the summary: from the reason
/// (the last comment) and the `Termination` tag.
pub fn termination_kind(reason: &str, termination: &str) -> String {
    let r = reason;
    for key in [
        "checkmate",
        "stalemate",
        "perpetual check",
        "perpetual chase",
        "repetition",
        "natural move limit",
        "insufficient material",
        "lost on time",
        "illegal move",
        "crashed",
        "hung",
        "resigns",
        "both engines agree",
        "scores stayed near zero",
        "plies",
        "could not start",
        "gave no move",
    ] {
        if r.contains(key) {
            return key.to_string();
        }
    }
    termination.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openings_name_the_bad_line() {
        let dir = std::env::temp_dir().join(format!("xm-openings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("o.epd");
        let start = xiangqi::board::START_FEN;
        std::fs::write(&path, format!("# two\n{start}; id \"a\"\n\nnot a fen\n")).unwrap();
        let e = read_openings(&path).unwrap_err();
        assert!(matches!(e, OpeningsError::BadFen { line: 4, .. }), "{e}");
        assert!(
            e.to_string()
                .starts_with(&format!("{}:4: ", path.display()))
        );
        std::fs::write(&path, format!("{start}\n# end\n")).unwrap();
        assert_eq!(read_openings(&path).unwrap(), vec![start.to_string()]);
        std::fs::write(&path, "# nothing\n").unwrap();
        assert!(matches!(
            read_openings(&path),
            Err(OpeningsError::Empty { .. })
        ));
        let _ = std::fs::remove_dir_all(&dir);
        assert!(matches!(
            read_openings(&path),
            Err(OpeningsError::Read { .. })
        ));
    }

    /// The openings' move counters reach the engines as the file gives
    /// them: Fairy-Stockfish's time manager spends two to three times more
    /// on a first move it is told is move 1 than on the same position as
    /// move 2, so a runner that reset `3 2` to `0 1` measured 12.5 %
    /// where the counters kept gave 58.3 % (issue 106).
    #[test]
    fn openings_keep_their_move_counters() {
        let dir = std::env::temp_dir().join(format!("xm-counters-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("o.epd");
        let fens = [
            "rnbaka1nr/9/1c2b2c1/p1p1p1p1p/9/9/P1P1P1P1P/2CC5/9/RNBAKABNR b - - 3 2",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 40 21",
        ];
        std::fs::write(&path, format!("{}; id \"a\"\n{}\n", fens[0], fens[1])).unwrap();
        assert_eq!(read_openings(&path).unwrap(), fens);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn pgn_dates() {
        let d = pgn_date();
        let parts: Vec<&str> = d.split('.').collect();
        assert_eq!(parts.iter().map(|p| p.len()).collect::<Vec<_>>(), [4, 2, 2]);
        assert!(d.chars().all(|c| c.is_ascii_digit() || c == '.'), "{d}");
        assert!(parts[0] >= "2024", "{d}");
    }

    #[test]
    fn same_names_are_told_apart() {
        let spec = EngineSpec::parse("cmd=./engine").unwrap();
        let cfg = MatchConfig::new([spec.clone(), spec], TimeControl::Nodes(100));
        assert_eq!(cfg.engines[0].name, "engine");
        assert_eq!(cfg.engines[1].name, "engine-2");
    }
}
