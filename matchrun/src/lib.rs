//! `jiangjun match`: play engines against each other from an opening file,
//! each opening twice with colours swapped, several games at once; judge the
//! games by the project's rules; write PGN; report W/D/L, Elo with its 95%
//! interval, LOS, pentanomial counts and the SPRT log-likelihood ratio,
//! stopping early when the SPRT decides.

pub mod engine;
pub mod game;
pub mod pgn;
pub mod stats;

use engine::{Engine, EngineSpec};
use game::{GameConfig, TimeControl};
use pgn::GameRecord;
use stats::{Penta, Sprt, SprtDecision, Wdl};
use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;
use std::time::Instant;

pub struct MatchConfig {
    pub engines: [EngineSpec; 2],
    /// Opening positions (FENs); each is played twice.
    pub openings: Vec<String>,
    pub games: usize,
    pub tc: TimeControl,
    pub concurrency: usize,
    pub pgn: Option<std::path::PathBuf>,
    pub chinese_moves: bool,
    pub sprt: Option<Sprt>,
    /// Settings of each game (its time controls are filled in per game).
    pub game: GameConfig,
    /// Print the progress line on stderr.
    pub progress: bool,
}

/// Results from the first engine's point of view.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub names: [String; 2],
    pub wdl: Wdl,
    pub penta: Penta,
    pub terminations: BTreeMap<String, u64>,
    pub llr: Option<f64>,
    pub decision: Option<SprtDecision>,
    pub sprt: Option<Sprt>,
    pub tc: String,
    pub seconds: f64,
}

impl Summary {
    fn pair_score(a_points: f64) -> usize {
        (a_points * 2.0).round() as usize
    }

    /// The final report.
    pub fn report(&self) -> String {
        let w = &self.wdl;
        let (elo, err) = w.elo();
        let mut s = format!(
            "Results of {} vs {} ({}): {} games in {:.0} s\n",
            self.names[0],
            self.names[1],
            self.tc,
            w.games(),
            self.seconds
        );
        s.push_str(&format!(
            "W {}  D {}  L {}  score {:.1}%  draw ratio {:.1}%\n",
            w.wins,
            w.draws,
            w.losses,
            100.0 * w.score(),
            100.0 * w.draw_ratio()
        ));
        s.push_str(&format!(
            "Elo {:+.1} +/- {:.1} (95%)  LOS {:.1}%\n",
            elo,
            err,
            100.0 * w.los()
        ));
        let c = self.penta.counts;
        if self.penta.pairs() > 0 {
            let (pe, perr) = self.penta.elo();
            s.push_str(&format!(
                "Pentanomial [LL LD WL+DD WD WW] = [{} {} {} {} {}] over {} pairs: Elo {:+.1} +/- {:.1}\n",
                c[0],
                c[1],
                c[2],
                c[3],
                c[4],
                self.penta.pairs(),
                pe,
                perr
            ));
        }
        if let (Some(sp), Some(llr)) = (self.sprt, self.llr) {
            let (lo, hi) = sp.bounds();
            let verdict = match self.decision {
                Some(SprtDecision::AcceptH1) => "H1 accepted",
                Some(SprtDecision::AcceptH0) => "H0 accepted",
                _ => "no decision",
            };
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
        let (elo, err) = w.elo();
        let mut s = format!(
            "[{done:>5}/{total}] {} {:.1} - {:.1} {}  W {} D {} L {}  Elo {:+.1} +/- {:.1}",
            self.names[0],
            w.wins as f64 + 0.5 * w.draws as f64,
            w.losses as f64 + 0.5 * w.draws as f64,
            self.names[1],
            w.wins,
            w.draws,
            w.losses,
            elo,
            err
        );
        if let (Some(sp), Some(llr)) = (self.sprt, self.llr) {
            let (lo, hi) = sp.bounds();
            s.push_str(&format!("  LLR {llr:.2} ({lo:.2}, {hi:.2})"));
        }
        s
    }
}

/// Read opening FENs from an EPD/FEN file: one position a line, anything
/// after the first `;` ignored, `#` lines skipped. Every FEN is checked.
pub fn read_openings(path: &std::path::Path) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let fen = line.split(';').next().unwrap_or("").trim();
        if fen.is_empty() || fen.starts_with('#') {
            continue;
        }
        match xiangqi::board::Board::from_fen(fen) {
            Ok(b) => out.push(b.to_fen()),
            Err(e) => return Err(format!("{}:{}: {e}", path.display(), i + 1)),
        }
    }
    if out.is_empty() {
        return Err(format!("{}: no positions", path.display()));
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

/// Play the match. Engines that cannot be started at all are an error;
/// after that, crashes, hangs, illegal moves and time losses lose the game
/// for the engine at fault, which is restarted, and the match goes on.
pub fn run(cfg: &MatchConfig) -> Result<Summary, String> {
    // Fail fast if an engine cannot even start.
    for spec in &cfg.engines {
        Engine::start(spec)?.quit();
    }
    let tcs: Vec<TimeControl> = cfg
        .engines
        .iter()
        .map(|s| match &s.tc {
            Some(t) => TimeControl::parse(t),
            None => Ok(cfg.tc.clone()),
        })
        .collect::<Result<_, _>>()?;
    let mut pgn_file = match &cfg.pgn {
        Some(p) => Some(std::fs::File::create(p).map_err(|e| format!("{}: {e}", p.display()))?),
        None => None,
    };
    let date = pgn_date();
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let started = Instant::now();
    let mut summary = Summary {
        names: [cfg.engines[0].name.clone(), cfg.engines[1].name.clone()],
        sprt: cfg.sprt,
        tc: if tcs[0] == tcs[1] {
            tcs[0].to_string()
        } else {
            format!("{} vs {}", tcs[0], tcs[1])
        },
        ..Summary::default()
    };
    let (tx, rx) = channel::<Finished>();
    let terminal = std::io::stderr().is_terminal();
    std::thread::scope(|scope| -> Result<(), String> {
        for _ in 0..cfg.concurrency.max(1) {
            let tx = tx.clone();
            let (next, stop, tcs) = (&next, &stop, &tcs);
            scope.spawn(move || {
                let mut pool: [Option<Engine>; 2] = [None, None];
                loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= cfg.games {
                        break;
                    }
                    let fen = &cfg.openings[(i / 2) % cfg.openings.len()];
                    let a_red = i % 2 == 0;
                    let record = play_one(cfg, &mut pool, tcs, fen, a_red, i + 1);
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
        // Results of each pair's first game, waiting for its partner.
        let mut pair_half: BTreeMap<usize, f64> = BTreeMap::new();
        let mut done = 0;
        for f in rx {
            done += 1;
            let rec = &f.record;
            // Points of the first engine.
            let a = match (rec.result, f.a_red) {
                ("1-0", true) | ("0-1", false) => Some(1.0),
                ("0-1", true) | ("1-0", false) => Some(0.0),
                ("1/2-1/2", _) => Some(0.5),
                _ => None,
            };
            match a {
                Some(1.0) => summary.wdl.wins += 1,
                Some(0.0) => summary.wdl.losses += 1,
                Some(_) => summary.wdl.draws += 1,
                None => {}
            }
            let ending = termination_kind(rec);
            *summary.terminations.entry(ending).or_default() += 1;
            if let Some(a) = a {
                let pair = f.index / 2;
                if let Some(other) = pair_half.remove(&pair) {
                    summary.penta.counts[Summary::pair_score(a + other)] += 1;
                } else {
                    pair_half.insert(pair, a);
                }
            }
            if let Some(file) = pgn_file.as_mut() {
                file.write_all(rec.to_pgn(&date, cfg.chinese_moves).as_bytes())
                    .map_err(|e| format!("writing PGN: {e}"))?;
                let _ = file.flush();
            }
            if let Some(sp) = cfg.sprt {
                let llr = if summary.penta.pairs() > 0 {
                    sp.llr_penta(&summary.penta)
                } else {
                    sp.llr_wdl(&summary.wdl)
                };
                summary.llr = Some(llr);
                let d = sp.decide(llr);
                summary.decision = Some(d);
                if d != SprtDecision::Continue {
                    stop.store(true, Ordering::Relaxed);
                }
            }
            if cfg.progress {
                let line = summary.progress_line(done, cfg.games);
                if terminal {
                    eprint!("\r{line}\x1b[K");
                } else if done % 10 == 0 || done == cfg.games {
                    eprintln!("{line}");
                }
            }
        }
        if cfg.progress && terminal {
            eprintln!();
        }
        Ok(())
    })?;
    summary.seconds = started.elapsed().as_secs_f64();
    Ok(summary)
}

/// Play one game with this worker's engines, (re)starting them as needed.
fn play_one(
    cfg: &MatchConfig,
    pool: &mut [Option<Engine>; 2],
    tcs: &[TimeControl],
    fen: &str,
    a_red: bool,
    round: usize,
) -> GameRecord {
    // pool[0] is the first engine, pool[1] the second.
    for (k, slot) in pool.iter_mut().enumerate() {
        if slot.is_none() {
            match Engine::start(&cfg.engines[k]) {
                Ok(e) => *slot = Some(e),
                Err(why) => {
                    // It cannot play: the game is lost for it.
                    let red_is_k = (k == 0) == a_red;
                    let (red, black) = if a_red {
                        (&cfg.engines[0].name, &cfg.engines[1].name)
                    } else {
                        (&cfg.engines[1].name, &cfg.engines[0].name)
                    };
                    return GameRecord {
                        round,
                        red: red.clone(),
                        black: black.clone(),
                        fen: fen.to_string(),
                        moves: Vec::new(),
                        result: if red_is_k { "0-1" } else { "1-0" },
                        termination: "abandoned",
                        reason: format!("{} could not start: {why}", cfg.engines[k].name),
                        time_control: tcs[k].to_string(),
                    };
                }
            }
        }
    }
    let (red_k, black_k) = if a_red { (0, 1) } else { (1, 0) };
    let mut gcfg = cfg.game.clone();
    gcfg.tc = [tcs[red_k].clone(), tcs[black_k].clone()];
    let [p0, p1] = pool;
    let (Some(e0), Some(e1)) = (p0.as_mut(), p1.as_mut()) else {
        unreachable!("both engines were started above")
    };
    let engines = if a_red { [e0, e1] } else { [e1, e0] };
    let played = game::play(engines, fen, &gcfg, round);
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

/// A short name for how a game ended, for the summary.
fn termination_kind(rec: &GameRecord) -> String {
    let r = &rec.reason;
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
    rec.termination.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pgn_dates() {
        let d = pgn_date();
        let parts: Vec<&str> = d.split('.').collect();
        assert_eq!(parts.iter().map(|p| p.len()).collect::<Vec<_>>(), [4, 2, 2]);
        assert!(d.chars().all(|c| c.is_ascii_digit() || c == '.'), "{d}");
        assert!(parts[0] >= "2024", "{d}");
    }
}
