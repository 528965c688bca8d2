//! `jiangjun spsa`: tune the search's parameters (the table in
//! `jiangjun_engine::search_params`) by SPSA over engine-vs-engine games.
//!
//! Each iteration plays a tuning build of the engine (feature `tune`, which
//! announces every parameter as a UCI option) against itself through the
//! match runner: theta + c_k delta against theta - c_k delta, a few game
//! pairs at a short time control, and moves theta toward the side that
//! scored more (see `schedule` for the arithmetic). Every iteration is
//! logged and the state saved, so a stopped run resumes (`--resume`); given
//! its seed a run draws the same perturbations and openings. At the end the
//! tuned values can be written into the table's default column
//! (`--write-back`).
//!
//! - `schedule`: gains, perturbations, openings and the update;
//! - `state`: the state file;
//! - `write_back`: rewriting the table's defaults;
//! - `announce`: checking that the engine is a tuning build of this table.

mod announce;
pub mod schedule;
pub mod state;
pub mod write_back;

use crate::tools::{EXIT_USAGE, fail};
use jiangjun_engine::search_params::{PARAMS, ParamSpec};
use schedule::Gains;
use state::State;
use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use xiangqi_match::engine::{EngineSpec, OptionSetting, Proto};
use xiangqi_match::time_control::TimeControl;
use xiangqi_match::{MatchConfig, read_openings};

#[derive(clap::Args)]
pub struct SpsaArgs {
    /// The tuning build of the engine (cargo build --release --features tune).
    #[arg(long, value_name = "PATH")]
    pub engine_cmd: PathBuf,
    /// Iterations of the run (its length N: the gains depend on it).
    #[arg(long, default_value_t = 1000)]
    pub iterations: u64,
    /// Games per iteration: game pairs, each opening with colours swapped.
    #[arg(long, default_value_t = 2)]
    pub games_per_iteration: usize,
    /// Time control of the games: BASE+INC in seconds, st=SECONDS, nodes=N
    /// or depth=N.
    #[arg(long, default_value = "2+0.02")]
    pub tc: String,
    /// Opening positions (FEN or EPD, one a line); default: the start position.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// The state file, saved after every iteration.
    #[arg(long, value_name = "PATH")]
    pub state: PathBuf,
    /// Continue the run in the --state file (start it if there is none).
    #[arg(long)]
    pub resume: bool,
    /// The iteration log (default: the state file's name with `.log`).
    #[arg(long, value_name = "PATH")]
    pub log: Option<PathBuf>,
    /// Seed of the perturbations and the opening order.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Tune only these parameters (comma-separated); default: all of them.
    #[arg(long, value_delimiter = ',')]
    pub params: Vec<String>,
    /// Multiply every tuned parameter's learning rate `r_end` by this for
    /// the run. The table's rates suit runs of tens of thousands of games;
    /// a run of a few thousand moves its parameters by a fraction of their
    /// perturbation with them (notes/2026-11-26-spsa-first-run.md).
    #[arg(long, default_value_t = 1.0, value_name = "F")]
    pub rate_scale: f64,
    /// An option for both sides, NAME=VALUE (repeatable; after the
    /// runner's own Hash=16 and OwnBook=false, so it can replace them).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// Play at most this many iterations now, then save and stop (resume
    /// later with --resume).
    #[arg(long, value_name = "N")]
    pub pause_after: Option<u64>,
    /// At the end of the run, write the tuned values into the default column
    /// of this copy of engine/src/search/params.rs.
    #[arg(long, value_name = "PATH")]
    pub write_back: Option<PathBuf>,
}

/// A run's fixed inputs, checked.
struct Run {
    specs: Vec<ParamSpec>,
    gains: Vec<Gains>,
    openings: Vec<String>,
    tc: TimeControl,
    /// The options both sides are set to before the parameters.
    options: Vec<(String, String)>,
}

/// The parameters `names` names (all if empty), in table order.
fn select(names: &[String]) -> Result<Vec<ParamSpec>, String> {
    if let Some(bad) = names.iter().find(|n| PARAMS.iter().all(|p| p.name != *n)) {
        return Err(format!("--params: no parameter '{bad}'"));
    }
    Ok(PARAMS
        .iter()
        .filter(|p| names.is_empty() || names.iter().any(|n| n == p.name))
        .copied()
        .collect())
}

fn prepare(a: &SpsaArgs) -> Result<Run, String> {
    if a.iterations == 0 {
        return Err("--iterations must be at least 1".into());
    }
    if a.games_per_iteration == 0 || !a.games_per_iteration.is_multiple_of(2) {
        return Err("--games-per-iteration must be even (game pairs) and above 0".into());
    }
    if !(a.rate_scale.is_finite() && a.rate_scale > 0.0 && a.rate_scale <= 1000.0) {
        return Err(format!(
            "--rate-scale {} is not a factor in (0, 1000]",
            a.rate_scale
        ));
    }
    let specs = select(&a.params)?;
    let tc = TimeControl::parse(&a.tc).map_err(|e| e.to_string())?;
    let openings = match &a.openings {
        Some(p) => read_openings(p).map_err(|e| e.to_string())?,
        None => vec![xiangqi::board::START_FEN.to_string()],
    };
    if openings.is_empty() {
        return Err("no openings".into());
    }
    let mut options = vec![
        ("Hash".to_string(), "16".to_string()),
        ("OwnBook".to_string(), "false".to_string()),
    ];
    for o in &a.options {
        let (name, value) = o
            .split_once('=')
            .ok_or_else(|| format!("--option '{o}' is not NAME=VALUE"))?;
        options.push((name.trim().to_string(), value.trim().to_string()));
    }
    let gains = run_gains(&specs, a.iterations, a.rate_scale);
    Ok(Run {
        specs,
        gains,
        openings,
        tc,
        options,
    })
}

/// The gains of each of `specs` over a run of `iterations`, every learning
/// rate multiplied by `rate_scale` (the perturbations are not).
fn run_gains(specs: &[ParamSpec], iterations: u64, rate_scale: f64) -> Vec<Gains> {
    specs
        .iter()
        .map(|s| {
            let scaled = ParamSpec {
                r_end: s.r_end * rate_scale,
                ..*s
            };
            Gains::new(&scaled, iterations)
        })
        .collect()
}

/// The state to go on from: the saved one when resuming (which must be of
/// this run), else a new one at the defaults.
fn initial_state(a: &SpsaArgs, run: &Run) -> Result<State, String> {
    let fresh = State {
        seed: a.seed,
        iterations: a.iterations,
        games_per_iteration: a.games_per_iteration,
        tc: a.tc.clone(),
        rate_scale: a.rate_scale,
        next: 0,
        wins: 0,
        draws: 0,
        losses: 0,
        endings: BTreeMap::new(),
        theta: run
            .specs
            .iter()
            .map(|s| (s.name.to_string(), s.default as f64))
            .collect(),
    };
    if !a.state.exists() {
        return Ok(fresh);
    }
    if !a.resume {
        return Err(format!(
            "{} exists: give --resume to continue that run, or another --state",
            a.state.display()
        ));
    }
    let st = State::load(&a.state)?;
    let same = (st.seed, st.iterations, st.games_per_iteration, &st.tc)
        == (
            fresh.seed,
            fresh.iterations,
            fresh.games_per_iteration,
            &fresh.tc,
        )
        && st.rate_scale == fresh.rate_scale;
    let names = |s: &State| s.theta.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    if !same || names(&st) != names(&fresh) {
        return Err(format!(
            "{} is a run with seed {}, {} iterations of {} games at {} over {} parameters, \
             rate scale {}: resume it with the same settings",
            a.state.display(),
            st.seed,
            st.iterations,
            st.games_per_iteration,
            st.tc,
            st.theta.len(),
            st.rate_scale
        ));
    }
    Ok(st)
}

/// One side of an iteration: the tuning build with `values`.
fn side(a: &SpsaArgs, run: &Run, name: &str, values: &[i32]) -> EngineSpec {
    let fixed = |(n, v): (String, String)| OptionSetting {
        name: n,
        values: vec![v],
    };
    let params = run.specs.iter().zip(values).map(|(s, v)| OptionSetting {
        name: s.name.to_string(),
        values: vec![v.to_string()],
    });
    EngineSpec {
        name: name.to_string(),
        cmd: a.engine_cmd.to_string_lossy().into_owned(),
        args: Vec::new(),
        dir: None,
        proto: Proto::Uci,
        options: run
            .options
            .iter()
            .cloned()
            .map(fixed)
            .chain(params)
            .collect(),
        ranks_from_one: false,
        ucci_seconds: false,
        tc: None,
        ponder: false,
    }
}

fn pairs_text(specs: &[ParamSpec], values: impl Iterator<Item = String>) -> String {
    let v: Vec<String> = specs
        .iter()
        .zip(values)
        .map(|(s, v)| format!("{}={v}", s.name))
        .collect();
    v.join(" ")
}

/// Play iteration `st.next` and move the state past it; returns its log line.
fn iterate(a: &SpsaArgs, run: &Run, st: &mut State) -> Result<String, String> {
    let k = st.next;
    let n = run.specs.len();
    let theta: Vec<f64> = st.theta.iter().map(|(_, v)| *v).collect();
    let delta = schedule::perturbation(st.seed, k, n);
    let plus = schedule::side_values(&run.specs, &theta, &run.gains, &delta, k, 1.0);
    let minus = schedule::side_values(&run.specs, &theta, &run.gains, &delta, k, -1.0);
    let pairs = a.games_per_iteration / 2;
    let openings = schedule::openings_for(st.seed, k, pairs, run.openings.len())
        .into_iter()
        .map(|i| run.openings[i].clone())
        .collect();
    let mut cfg = MatchConfig::new(
        [side(a, run, "plus", &plus), side(a, run, "minus", &minus)],
        run.tc.clone(),
    );
    cfg.openings = openings;
    cfg.games = a.games_per_iteration;
    cfg.concurrency = a.concurrency.clamp(1, 256);
    let summary = xiangqi_match::run(&cfg).map_err(|e| format!("iteration {k}: {e}"))?;
    let w = summary.wdl;
    let score = w.wins as i64 - w.losses as i64;
    let next = schedule::update(&run.specs, &theta, &run.gains, &delta, k, score);
    for ((_, v), new) in st.theta.iter_mut().zip(&next) {
        *v = *new;
    }
    st.next = k + 1;
    st.wins += w.wins;
    st.draws += w.draws;
    st.losses += w.losses;
    for (kind, count) in &summary.terminations {
        *st.endings.entry(kind.clone()).or_default() += count;
    }
    let faults = faults(&summary.terminations);
    if !faults.is_empty() {
        eprintln!("spsa: iteration {k}: {faults} (scored like any other result)");
    }
    Ok(format!(
        "iteration {k} wdl {} {} {} | ends {} | plus {} | minus {} | theta {}",
        w.wins,
        w.draws,
        w.losses,
        endings_text(&summary.terminations),
        pairs_text(&run.specs, plus.iter().map(i32::to_string)),
        pairs_text(&run.specs, minus.iter().map(i32::to_string)),
        pairs_text(&run.specs, next.iter().map(|v| format!("{v:.3}")))
    ))
}

/// Endings that say more about the machine or the build than about the
/// parameters: a run full of them tunes noise.
const FAULTS: [&str; 6] = [
    "lost on time",
    "crashed",
    "hung",
    "illegal move",
    "gave no move",
    "could not start",
];

/// The games among `endings` that ended by a fault, as text ("" if none).
fn faults(endings: &BTreeMap<String, u64>) -> String {
    let found: Vec<String> = endings
        .iter()
        .filter(|(kind, _)| FAULTS.contains(&kind.as_str()))
        .map(|(kind, count)| format!("{count} {kind}"))
        .collect();
    found.join(", ")
}

/// `endings` as `kind:count` items, comma-separated.
fn endings_text(endings: &BTreeMap<String, u64>) -> String {
    let items: Vec<String> = endings.iter().map(|(k, v)| format!("{k}:{v}")).collect();
    items.join(", ")
}

/// The tuned values, rounded to the engine's integers.
fn rounded(st: &State) -> BTreeMap<String, i32> {
    st.theta
        .iter()
        .map(|(n, v)| (n.clone(), v.round() as i32))
        .collect()
}

fn log_path(a: &SpsaArgs) -> PathBuf {
    a.log
        .clone()
        .unwrap_or_else(|| a.state.with_extension("log"))
}

fn append(path: &Path, line: &str) -> Result<(), String> {
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| writeln!(f, "{line}"))
        .map_err(|e| format!("{}: {e}", path.display()))
}

fn tune(a: &SpsaArgs) -> Result<ExitCode, (u8, String)> {
    let usage = |e: String| (EXIT_USAGE, e);
    let run = prepare(a).map_err(usage)?;
    let mut st = initial_state(a, &run).map_err(usage)?;
    announce::check(&a.engine_cmd, &run.specs).map_err(usage)?;
    let log = log_path(a);
    if st.next == 0 {
        let header = format!(
            "# spsa seed {} iterations {} games {} tc {} rate-scale {} params {}",
            st.seed,
            st.iterations,
            st.games_per_iteration,
            st.tc,
            st.rate_scale,
            pairs_text(&run.specs, run.specs.iter().map(|s| s.default.to_string()))
        );
        append(&log, &header).map_err(usage)?;
    }
    let budget = a.pause_after.unwrap_or(u64::MAX);
    let mut played = 0;
    while st.next < st.iterations && played < budget {
        let line = iterate(a, &run, &mut st).map_err(|e| (1, e))?;
        // The log first: a run stopped between the two plays the iteration
        // again, and its later line is the one that counts.
        append(&log, &line).map_err(|e| (1, e))?;
        st.save(&a.state).map_err(|e| (1, e))?;
        played += 1;
        let faults = faults(&st.endings);
        eprintln!(
            "spsa: iteration {}/{} done, plus side so far +{} ={} -{}{}",
            st.next,
            st.iterations,
            st.wins,
            st.draws,
            st.losses,
            if faults.is_empty() {
                String::new()
            } else {
                format!("; faults so far: {faults}")
            }
        );
    }
    // Save even if nothing was played, so that a new run leaves its state.
    st.save(&a.state).map_err(|e| (1, e))?;
    eprintln!("spsa: games by ending: {}", endings_text(&st.endings));
    let values = rounded(&st);
    if st.next < st.iterations {
        eprintln!(
            "spsa: paused after iteration {} of {}; continue with --resume",
            st.next, st.iterations
        );
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(path) = &a.write_back {
        write_back::write_back(path, &values).map_err(|e| (1, e))?;
        eprintln!("spsa: tuned values written into {}", path.display());
    }
    for p in &run.specs {
        let v = values.get(p.name).copied().unwrap_or(p.default);
        outln!("{} {} (default {})", p.name, v, p.default);
    }
    Ok(ExitCode::SUCCESS)
}

/// Run or resume the tuning: exit code 2 for bad arguments or an engine
/// that is not a tuning build, 1 if a match could not be played.
pub fn run(a: &SpsaArgs) -> ExitCode {
    tune(a).unwrap_or_else(|(code, e)| fail(code, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rate_scale_multiplies_the_steps_and_not_the_perturbations() {
        let plain = run_gains(&PARAMS[..3], 1000, 1.0);
        let scaled = run_gains(&PARAMS[..3], 1000, 10.0);
        for (p, s) in plain.iter().zip(&scaled) {
            for k in [0, 500, 999] {
                assert_eq!(p.c_k(k), s.c_k(k));
                let ratio = s.a_k(k) / p.a_k(k);
                assert!((ratio - 10.0).abs() < 1e-9, "step ratio {ratio} at {k}");
            }
        }
    }
}
