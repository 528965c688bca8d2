//! The state of an SPSA run, saved after every iteration so that a stopped
//! run resumes where it was: the run's settings (which a resumed run must
//! repeat), the next iteration, the running totals and theta. A plain text
//! file of `key value` lines, one `ending COUNT KIND` line per way the games
//! ended (state files written before these lines existed read as none) and
//! one `theta NAME VALUE` line per parameter; theta is written in Rust's
//! shortest round-trip form, so that a resumed run continues from exactly the
//! values it stopped at.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

const HEADER: &str = "# jiangjun spsa state";
const VERSION: u32 = 1;

#[derive(Clone, Debug, PartialEq)]
pub struct State {
    pub seed: u64,
    /// The run's length `N` (the gains depend on it).
    pub iterations: u64,
    pub games_per_iteration: usize,
    /// The time control, as given.
    pub tc: String,
    /// The factor on every learning rate (`--rate-scale`); a file without
    /// the line is a run at 1.
    pub rate_scale: f64,
    /// The iteration to play next (from 0); the run is over at `iterations`.
    pub next: u64,
    /// Wins, draws and losses of the plus side over the iterations played.
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// The games played so far by how they ended (the match runner's
    /// termination kinds: "checkmate", "lost on time", ...), so that a run
    /// whose results come from time losses or crashes shows it.
    pub endings: BTreeMap<String, u64>,
    /// The parameters tuned, with their current values.
    pub theta: Vec<(String, f64)>,
}

impl State {
    pub fn to_text(&self) -> String {
        let mut s = format!("{HEADER}\nversion {VERSION}\n");
        // Writing to a String cannot fail.
        let _ = writeln!(s, "seed {}", self.seed);
        let _ = writeln!(s, "iterations {}", self.iterations);
        let _ = writeln!(s, "games_per_iteration {}", self.games_per_iteration);
        let _ = writeln!(s, "tc {}", self.tc);
        let _ = writeln!(s, "rate_scale {}", self.rate_scale);
        let _ = writeln!(s, "next {}", self.next);
        let _ = writeln!(s, "wdl {} {} {}", self.wins, self.draws, self.losses);
        for (kind, count) in &self.endings {
            let _ = writeln!(s, "ending {count} {kind}");
        }
        for (name, v) in &self.theta {
            let _ = writeln!(s, "theta {name} {v}");
        }
        s
    }

    pub fn parse(text: &str) -> Result<State, String> {
        let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
        if lines.next() != Some(HEADER) {
            return Err("not an SPSA state file".into());
        }
        let mut st = State {
            seed: 0,
            iterations: 0,
            games_per_iteration: 0,
            tc: String::new(),
            rate_scale: 1.0,
            next: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            endings: BTreeMap::new(),
            theta: Vec::new(),
        };
        let mut seen = Vec::new();
        for line in lines {
            let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
            let rest = rest.trim();
            let bad = || format!("bad line '{line}'");
            let num = |t: &str| t.parse::<u64>().map_err(|_| bad());
            match key {
                "version" if num(rest)? == VERSION as u64 => {}
                "version" => return Err(format!("state version {rest}, not {VERSION}")),
                "seed" => st.seed = num(rest)?,
                "iterations" => st.iterations = num(rest)?,
                "games_per_iteration" => st.games_per_iteration = num(rest)? as usize,
                "tc" => st.tc = rest.to_string(),
                "rate_scale" => {
                    st.rate_scale = rest.parse().map_err(|_| bad())?;
                    if !(st.rate_scale.is_finite() && st.rate_scale > 0.0) {
                        return Err(bad());
                    }
                }
                "next" => st.next = num(rest)?,
                "wdl" => {
                    let v: Vec<u64> = rest.split_whitespace().map(num).collect::<Result<_, _>>()?;
                    let [w, d, l] = v[..] else {
                        return Err(bad());
                    };
                    (st.wins, st.draws, st.losses) = (w, d, l);
                }
                "ending" => {
                    let (count, kind) = rest.split_once(' ').ok_or_else(bad)?;
                    let kind = kind.trim();
                    if kind.is_empty() || st.endings.contains_key(kind) {
                        return Err(bad());
                    }
                    st.endings.insert(kind.to_string(), num(count)?);
                }
                "theta" => {
                    let (name, v) = rest.split_once(' ').ok_or_else(bad)?;
                    let v: f64 = v.trim().parse().map_err(|_| bad())?;
                    if !v.is_finite() {
                        return Err(bad());
                    }
                    st.theta.push((name.to_string(), v));
                }
                _ => return Err(format!("unknown key in '{line}'")),
            }
            seen.push(key);
        }
        for key in [
            "version",
            "seed",
            "iterations",
            "games_per_iteration",
            "tc",
            "next",
        ] {
            if !seen.contains(&key) {
                return Err(format!("no '{key}' line"));
            }
        }
        if st.next > st.iterations {
            return Err(format!(
                "next iteration {} is past the run's {}",
                st.next, st.iterations
            ));
        }
        Ok(st)
    }

    pub fn load(path: &Path) -> Result<State, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        State::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Write the state next to `path` and rename it over `path`, so that a
    /// run stopped while saving keeps the previous state whole.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = std::path::PathBuf::from(tmp);
        std::fs::write(&tmp, self.to_text())
            .and_then(|_| std::fs::rename(&tmp, path))
            .map_err(|e| format!("{}: {e}", path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> State {
        State {
            seed: 42,
            iterations: 300,
            games_per_iteration: 4,
            tc: "2+0.02".into(),
            rate_scale: 10.0,
            next: 17,
            wins: 20,
            draws: 30,
            losses: 18,
            endings: BTreeMap::from([
                ("checkmate".into(), 40),
                ("lost on time".into(), 1),
                ("perpetual check".into(), 27),
            ]),
            theta: vec![
                ("razor_base".into(), 201.337_259_1),
                ("se_depth".into(), 0.1 + 0.2),
            ],
        }
    }

    #[test]
    fn the_text_round_trips_exactly() {
        let st = sample();
        assert_eq!(State::parse(&st.to_text()), Ok(st.clone()));
        let dir = std::env::temp_dir().join(format!("jj-spsa-state-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("spsa.state");
        st.save(&path).unwrap();
        assert_eq!(State::load(&path), Ok(st));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn bad_files_are_refused() {
        let text = sample().to_text();
        assert!(State::parse("hello").is_err());
        assert!(State::parse(&text.replace("version 1", "version 9")).is_err());
        assert!(State::parse(&text.replace("next 17", "next 301")).is_err());
        assert!(State::parse(&text.replace("next 17\n", "")).is_err());
        assert!(State::parse(&text.replace("201.3372591", "NaN")).is_err());
        assert!(State::parse(&text.replace("wdl 20 30 18", "wdl 20 30")).is_err());
        assert!(State::parse(&text.replace("rate_scale 10", "rate_scale 0")).is_err());
        assert!(State::parse(&text.replace("rate_scale 10", "rate_scale x")).is_err());
        assert!(State::parse(&format!("{text}colour blue\n")).is_err());
        assert!(
            State::parse(&text.replace("ending 1 lost on time", "ending x lost on time")).is_err()
        );
        assert!(State::parse(&text.replace("ending 1 lost on time", "ending 1")).is_err());
        assert!(
            State::parse(&text.replace("ending 1 lost on time", "ending 2 checkmate")).is_err()
        );
    }

    #[test]
    fn a_state_saved_before_endings_were_counted_still_loads() {
        let st = sample();
        let old: String = st
            .to_text()
            .lines()
            .filter(|l| !l.starts_with("ending "))
            .map(|l| format!("{l}\n"))
            .collect();
        let loaded = State::parse(&old).expect("an older state file loads");
        assert!(loaded.endings.is_empty());
        let older: String = old
            .lines()
            .filter(|l| !l.starts_with("rate_scale "))
            .map(|l| format!("{l}\n"))
            .collect();
        let loaded_older = State::parse(&older).expect("a state file without a rate scale loads");
        assert_eq!(loaded_older.rate_scale, 1.0);
        assert_eq!(loaded.theta, st.theta);
        assert_eq!((loaded.next, loaded.wins), (st.next, st.wins));
    }
}
