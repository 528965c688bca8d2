//! Engine options: their values, how they are announced in each dialect, and
//! `setoption` handling. Names match case-insensitively, ignoring spaces and
//! underscores, so `Move Overhead`, `moveoverhead` and `move_overhead` are one
//! option; UCCI names (`hashsize`) and UCI names (`Hash`) both work.

use super::command::{Dialect, excerpt};
use jiangjun_engine::nnue::{BUILTIN_NETWORK, EMBEDDED_NETWORK, EvalSource};
use jiangjun_engine::strength::{self, ELO_MAX, ELO_MIN, Grade, Randomness, Strength};

pub const MAX_HASH_MB: usize = 65536;
pub const MAX_THREADS: usize = 256;
pub const MAX_MULTIPV: usize = 128;
pub const MAX_OVERHEAD: u64 = 5000;
pub const MAX_SKILL: i64 = 20;
/// Largest `nodestime` (nodes per millisecond), as Stockfish.
pub const MAX_NODESTIME: u64 = 10000;
/// Largest `Random Seed` (within what every GUI's spin control holds).
pub const MAX_SEED: u64 = i32::MAX as u64;
/// How UCCI spells an empty string value.
pub const EMPTY: &str = "<empty>";

#[derive(Clone, Debug)]
pub struct Options {
    pub hash_mb: usize,
    pub threads: usize,
    pub multipv: usize,
    pub move_overhead: u64,
    pub ponder: bool,
    pub show_wdl: bool,
    pub usemillisec: bool,
    pub batch: bool,
    pub debug: bool,
    /// Play from the opening book.
    pub own_book: bool,
    /// Book file; empty for the built-in book.
    pub book_file: String,
    /// UCI `Skill Level`, 0 to 20 (20: full strength).
    pub skill_level: i64,
    /// UCI `UCI_LimitStrength`: play at `UCI_Elo` (instead of `Skill Level`).
    pub limit_strength: bool,
    pub elo: i64,
    /// UCCI `randomness`, `pruning`, `knowledge`.
    pub randomness: Randomness,
    pub pruning: Grade,
    pub knowledge: Grade,
    /// UCI `UCI_AnalyseMode`: analysing, not playing (no book moves).
    pub analyse_mode: bool,
    /// `Debug Log File` (UCCI `debuglogfile`); empty: no log.
    pub debug_log_file: String,
    /// `nodestime`: when above 0, clock times are in nodes (this many per ms).
    pub nodestime: u64,
    /// `Random Seed`: 0 seeds from the clock; others make the book choice,
    /// skill picks and randomness repeatable.
    pub random_seed: u64,
    /// `EvalFile` (UCCI `evalfile`): the evaluation in force (the values
    /// mean what `EvalSource::parse` says).
    pub eval: EvalSource,
}

/// The `BookFile` value that names the built-in book.
pub const BUILTIN_BOOK: &str = "<built-in>";

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            move_overhead: 10,
            ponder: false,
            show_wdl: false,
            usemillisec: true,
            batch: false,
            debug: false,
            own_book: true,
            book_file: String::new(),
            skill_level: MAX_SKILL,
            limit_strength: false,
            elo: ELO_MIN,
            randomness: Randomness::None,
            pruning: Grade::Large,
            knowledge: Grade::Large,
            analyse_mode: false,
            debug_log_file: String::new(),
            nodestime: 0,
            random_seed: 0,
            eval: EvalSource::default_for(EMBEDDED_NETWORK),
        }
    }
}

/// What the session must do after an option changed.
#[derive(Debug, PartialEq, Eq)]
pub enum Effect {
    None,
    ResizeHash,
    ClearHash,
    NewGame,
    LoadBook,
    /// Open (or close) the debug log.
    DebugLog,
    /// Seed the random generator again.
    Reseed,
    /// The node clock (`nodestime`) starts again.
    ResetNodeClock,
    /// Evaluate as `eval` says: load its network (or go back to the
    /// hand-made evaluation).
    LoadNetwork,
    /// Nothing to do but tell the GUI this (an `info string`, not an error).
    Note(String),
}

/// `EvalFile`'s announced default: `<built-in>` when a network is built in
/// (and then evaluates by default), else empty (the hand-made evaluation).
pub fn eval_file_default() -> &'static str {
    match EvalSource::default_for(EMBEDDED_NETWORK) {
        EvalSource::BuiltIn => BUILTIN_NETWORK,
        _ => EMPTY,
    }
}

pub fn uci_option_lines() -> Vec<String> {
    let d = Options::default();
    vec![
        format!(
            "option name Threads type spin default {} min 1 max {MAX_THREADS}",
            d.threads
        ),
        format!(
            "option name Hash type spin default {} min 1 max {MAX_HASH_MB}",
            d.hash_mb
        ),
        "option name Clear Hash type button".into(),
        format!("option name Ponder type check default {}", d.ponder),
        format!(
            "option name MultiPV type spin default {} min 1 max {MAX_MULTIPV}",
            d.multipv
        ),
        format!(
            "option name Move Overhead type spin default {} min 0 max {MAX_OVERHEAD}",
            d.move_overhead
        ),
        format!("option name UCI_ShowWDL type check default {}", d.show_wdl),
        "option name UCI_Variant type combo default xiangqi var xiangqi".into(),
        format!("option name OwnBook type check default {}", d.own_book),
        format!("option name BookFile type string default {BUILTIN_BOOK}"),
        format!(
            "option name Skill Level type spin default {} min 0 max {MAX_SKILL}",
            d.skill_level
        ),
        format!(
            "option name UCI_LimitStrength type check default {}",
            d.limit_strength
        ),
        format!(
            "option name UCI_Elo type spin default {} min {ELO_MIN} max {ELO_MAX}",
            d.elo
        ),
        format!(
            "option name UCI_AnalyseMode type check default {}",
            d.analyse_mode
        ),
        format!("option name Debug Log File type string default {EMPTY}"),
        format!(
            "option name nodestime type spin default {} min 0 max {MAX_NODESTIME}",
            d.nodestime
        ),
        format!(
            "option name Random Seed type spin default {} min 0 max {MAX_SEED}",
            d.random_seed
        ),
        format!(
            "option name EvalFile type string default {}",
            eval_file_default()
        ),
    ]
}

/// A UCCI combo line (`var` values, then the default, as ElephantEye).
/// The default is the first `var`: some GUIs take a combo's first entry as
/// its value (XBoard through uci2wb does), and the engine they start must
/// play at its defaults, at full strength.
fn ucci_combo(name: &str, vars: &[&str], default: &str) -> String {
    let vars: Vec<String> = std::iter::once(default)
        .chain(vars.iter().copied().filter(|v| *v != default))
        .map(|v| format!("var {v}"))
        .collect();
    format!(
        "option {name} type combo {} default {default}",
        vars.join(" ")
    )
}

pub fn ucci_option_lines() -> Vec<String> {
    let d = Options::default();
    let grades_descending: Vec<&str> = Grade::NAMES.iter().rev().copied().collect();
    vec![
        format!("option usemillisec type check default {}", d.usemillisec),
        format!("option batch type check default {}", d.batch),
        format!("option debug type check default {}", d.debug),
        format!("option ponder type check default {}", d.ponder),
        format!(
            // UCCI lets 0 mean "the engine's choice" (16 MB here), and
            // threads 0 "one per core": both are accepted, so announced.
            "option hashsize type spin min 0 max {MAX_HASH_MB} default {}",
            d.hash_mb
        ),
        format!(
            "option threads type spin min 0 max {MAX_THREADS} default {}",
            d.threads
        ),
        format!(
            "option multipv type spin min 1 max {MAX_MULTIPV} default {}",
            d.multipv
        ),
        format!(
            "option moveoverhead type spin min 0 max {MAX_OVERHEAD} default {}",
            d.move_overhead
        ),
        format!("option usebook type check default {}", d.own_book),
        format!("option bookfiles type string default {BUILTIN_BOOK}"),
        // Strongest first: the default, `large`, leads either way.
        ucci_combo("pruning", &grades_descending, d.pruning.name()),
        ucci_combo("knowledge", &grades_descending, d.knowledge.name()),
        ucci_combo("randomness", &Randomness::NAMES, d.randomness.name()),
        format!("option debuglogfile type string default {EMPTY}"),
        format!(
            "option randomseed type spin min 0 max {MAX_SEED} default {}",
            d.random_seed
        ),
        format!(
            "option evalfile type string default {}",
            eval_file_default()
        ),
        "option clearhash type button".into(),
        "option newgame type button".into(),
    ]
}

fn normalize(name: &str) -> String {
    name.chars()
        .filter(|c| !c.is_whitespace() && *c != '_')
        .flat_map(|c| c.to_lowercase())
        .collect()
}

fn check_value(name: &str, value: Option<&str>) -> Result<bool, String> {
    match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
        Some("true" | "on" | "1" | "yes") => Ok(true),
        Some("false" | "off" | "0" | "no") => Ok(false),
        Some(v) => Err(format!(
            "option {name}: '{}' is not true/false/on/off/1/0",
            excerpt(v)
        )),
        None => Err(format!("option {name} needs a value")),
    }
}

fn spin_value(name: &str, value: Option<&str>, min: i64, max: i64) -> Result<i64, String> {
    let v = value.ok_or_else(|| format!("option {name} needs a value"))?;
    let n: i64 = v
        .trim()
        .parse()
        .map_err(|_| format!("option {name}: '{}' is not a number", excerpt(v)))?;
    if n < min || n > max {
        return Err(format!(
            "option {name}: {n} is outside {min}..{max}; unchanged"
        ));
    }
    Ok(n)
}

/// A combo value: one of `parse`'s names.
fn combo_value<T>(
    name: &str,
    value: Option<&str>,
    names: &[&str],
    parse: fn(&str) -> Option<T>,
) -> Result<T, String> {
    let v = value.ok_or_else(|| format!("option {name} needs a value"))?;
    parse(v).ok_or_else(|| {
        format!(
            "option {name}: '{}' is not one of {}",
            excerpt(v.trim()),
            names.join("/")
        )
    })
}

impl Options {
    /// The playing strength the options set, for a search with this seed.
    pub fn strength(&self, seed: u64) -> Strength {
        let skill = if self.limit_strength {
            strength::level_from_elo(self.elo)
        } else {
            self.skill_level as f64
        };
        Strength {
            skill,
            randomness: self.randomness,
            pruning: self.pruning,
            knowledge: self.knowledge,
            seed,
        }
    }

    /// Apply `setoption`. Unknown UCCI options are ignored with a note (the
    /// spec says they must not cause an error); unknown UCI options are an
    /// error.
    pub fn set(
        &mut self,
        name: &str,
        value: Option<&str>,
        dialect: Dialect,
    ) -> Result<Effect, String> {
        let key = normalize(name);
        match key.as_str() {
            "hash" | "hashsize" => {
                // UCCI: 0 means "engine chooses" (and is announced as the minimum).
                let min = if dialect == Dialect::Ucci { 0 } else { 1 };
                let mut mb = spin_value(name, value, min, MAX_HASH_MB as i64)?;
                if mb == 0 {
                    mb = 16;
                }
                if mb as usize != self.hash_mb {
                    self.hash_mb = mb as usize;
                    return Ok(Effect::ResizeHash);
                }
                Ok(Effect::None)
            }
            "threads" => {
                // UCCI: 0 means one thread per core (announced as the minimum).
                let min = if dialect == Dialect::Ucci { 0 } else { 1 };
                let n = spin_value(name, value, min, MAX_THREADS as i64)?;
                if n == 0 {
                    let cores = std::thread::available_parallelism().map_or(1, |p| p.get());
                    self.threads = cores.min(MAX_THREADS);
                    return Ok(Effect::Note(format!(
                        "threads 0: {} search threads, one per core",
                        self.threads
                    )));
                }
                self.threads = n as usize;
                Ok(Effect::None)
            }
            "clearhash" => Ok(Effect::ClearHash),
            "newgame" => Ok(Effect::NewGame),
            "ponder" => {
                self.ponder = check_value(name, value)?;
                Ok(Effect::None)
            }
            "multipv" => {
                self.multipv = spin_value(name, value, 1, MAX_MULTIPV as i64)? as usize;
                Ok(Effect::None)
            }
            "moveoverhead" => {
                self.move_overhead = spin_value(name, value, 0, MAX_OVERHEAD as i64)? as u64;
                Ok(Effect::None)
            }
            "ucishowwdl" => {
                self.show_wdl = check_value(name, value)?;
                Ok(Effect::None)
            }
            "ucivariant" => match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
                Some("xiangqi") => Ok(Effect::None),
                Some(v) => Err(format!(
                    "option UCI_Variant: only xiangqi is supported, not '{}'",
                    excerpt(v)
                )),
                None => Err("option UCI_Variant needs a value".into()),
            },
            "usemillisec" => {
                self.usemillisec = check_value(name, value)?;
                Ok(Effect::None)
            }
            "batch" => {
                self.batch = check_value(name, value)?;
                Ok(Effect::None)
            }
            "debug" => {
                self.debug = check_value(name, value)?;
                Ok(Effect::None)
            }
            "ownbook" | "usebook" => {
                self.own_book = check_value(name, value)?;
                Ok(Effect::None)
            }
            "bookfile" | "bookfiles" => {
                // UCCI lists files separated by ';': the first one is used.
                let v = value.unwrap_or("").split(';').next().unwrap_or("").trim();
                self.book_file = if v == BUILTIN_BOOK || v.eq_ignore_ascii_case("<empty>") {
                    String::new()
                } else {
                    v.to_string()
                };
                Ok(Effect::LoadBook)
            }
            "skilllevel" => {
                self.skill_level = spin_value(name, value, 0, MAX_SKILL)?;
                Ok(Effect::None)
            }
            "ucilimitstrength" => {
                self.limit_strength = check_value(name, value)?;
                Ok(Effect::None)
            }
            "ucielo" => {
                self.elo = spin_value(name, value, ELO_MIN, ELO_MAX)?;
                Ok(Effect::None)
            }
            "randomness" => {
                self.randomness = combo_value(name, value, &Randomness::NAMES, Randomness::parse)?;
                Ok(Effect::None)
            }
            "pruning" => {
                self.pruning = combo_value(name, value, &Grade::NAMES, Grade::parse)?;
                Ok(Effect::None)
            }
            "knowledge" => {
                self.knowledge = combo_value(name, value, &Grade::NAMES, Grade::parse)?;
                Ok(Effect::None)
            }
            "ucianalysemode" | "ucianalyzemode" => {
                self.analyse_mode = check_value(name, value)?;
                Ok(Effect::None)
            }
            "debuglogfile" => {
                let v = value.unwrap_or("").trim();
                self.debug_log_file = if v.eq_ignore_ascii_case(EMPTY) {
                    String::new()
                } else {
                    v.to_string()
                };
                Ok(Effect::DebugLog)
            }
            "nodestime" => {
                self.nodestime = spin_value(name, value, 0, MAX_NODESTIME as i64)? as u64;
                Ok(Effect::ResetNodeClock)
            }
            "randomseed" => {
                self.random_seed = spin_value(name, value, 0, MAX_SEED as i64)? as u64;
                Ok(Effect::Reseed)
            }
            "evalfile" => match EvalSource::parse(value.unwrap_or(""), EMBEDDED_NETWORK) {
                Ok(source) => {
                    self.eval = source;
                    Ok(Effect::LoadNetwork)
                }
                Err(e) => Err(format!("option {name}: {e}; keeping {}", self.eval)),
            },
            _ if dialect == Dialect::Ucci => {
                // The UCCI spec: unknown options (idle, style, promotion, ...)
                // must not cause an error; the GUI is still told.
                Ok(Effect::Note(format!(
                    "unknown option '{}' ignored",
                    excerpt(name)
                )))
            }
            _ => Err(format!("no such option: '{}'", excerpt(name))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_loosely() {
        let mut o = Options::default();
        assert_eq!(
            o.set("Move Overhead", Some("50"), Dialect::Uci),
            Ok(Effect::None)
        );
        assert_eq!(o.move_overhead, 50);
        assert_eq!(
            o.set("moveoverhead", Some("70"), Dialect::Ucci),
            Ok(Effect::None)
        );
        assert_eq!(o.move_overhead, 70);
        assert_eq!(
            o.set("hashsize", Some("64"), Dialect::Ucci),
            Ok(Effect::ResizeHash)
        );
        assert_eq!(o.set("Hash", Some("64"), Dialect::Uci), Ok(Effect::None));
        assert_eq!(o.hash_mb, 64);
        assert_eq!(
            o.set("clear hash", Some("true"), Dialect::Uci),
            Ok(Effect::ClearHash)
        );
        assert_eq!(
            o.set("UCI_Variant", Some("xiangqi"), Dialect::Uci),
            Ok(Effect::None)
        );
    }

    #[test]
    fn check_values() {
        let mut o = Options::default();
        for (v, want) in [
            ("true", true),
            ("off", false),
            ("1", true),
            ("0", false),
            ("ON", true),
        ] {
            o.set("ponder", Some(v), Dialect::Ucci).unwrap();
            assert_eq!(o.ponder, want, "{v}");
        }
        assert!(o.set("ponder", Some("maybe"), Dialect::Ucci).is_err());
        assert!(o.set("ponder", None, Dialect::Ucci).is_err());
    }

    #[test]
    fn bad_values_keep_the_old_value() {
        let mut o = Options::default();
        assert!(o.set("Hash", Some("-1"), Dialect::Uci).is_err());
        assert!(o.set("Hash", Some("99999999"), Dialect::Uci).is_err());
        assert!(o.set("Threads", Some("x"), Dialect::Uci).is_err());
        assert!(o.set("MultiPV", Some("0"), Dialect::Uci).is_err());
        assert_eq!((o.hash_mb, o.threads, o.multipv), (16, 1, 1));
        assert!(o.set("UCI_Variant", Some("chess"), Dialect::Uci).is_err());
    }

    #[test]
    fn strength_options() {
        let mut o = Options::default();
        assert!(!o.strength(1).skill_enabled(), "full strength by default");
        assert_eq!(
            o.strength(1),
            Strength {
                seed: 1,
                ..Strength::default()
            }
        );
        o.set("Skill Level", Some("3"), Dialect::Uci).unwrap();
        assert_eq!(o.strength(0).skill, 3.0);
        // UCI_LimitStrength: the Elo decides, not the skill level.
        o.set("UCI_LimitStrength", Some("true"), Dialect::Uci)
            .unwrap();
        o.set("UCI_Elo", Some(&ELO_MAX.to_string()), Dialect::Uci)
            .unwrap();
        assert!(!o.strength(0).skill_enabled());
        o.set("UCI_Elo", Some(&ELO_MIN.to_string()), Dialect::Uci)
            .unwrap();
        assert_eq!(o.strength(0).skill, 0.0);
        o.set("UCI_LimitStrength", Some("false"), Dialect::Uci)
            .unwrap();
        assert_eq!(o.strength(0).skill, 3.0);
        // Bad values keep the old ones.
        for (name, v) in [
            ("Skill Level", "21"),
            ("Skill Level", "-1"),
            ("Skill Level", "x"),
            ("UCI_Elo", &(ELO_MIN - 1).to_string()),
            ("UCI_Elo", &(ELO_MAX + 1).to_string()),
            ("UCI_LimitStrength", "perhaps"),
            ("nodestime", "-5"),
            ("nodestime", "10001"),
            ("Random Seed", "-1"),
        ] {
            assert!(o.set(name, Some(v), Dialect::Uci).is_err(), "{name} {v}");
        }
        assert_eq!(o.skill_level, 3);
        assert_eq!(o.elo, ELO_MIN);
        assert!(!o.limit_strength);
        assert_eq!((o.nodestime, o.random_seed), (0, 0));
        assert_eq!(
            o.set("nodestime", Some("250"), Dialect::Uci),
            Ok(Effect::ResetNodeClock)
        );
        assert_eq!(o.nodestime, 250);
        assert_eq!(
            o.set("Random Seed", Some("12345"), Dialect::Uci),
            Ok(Effect::Reseed)
        );
        assert_eq!(o.random_seed, 12345);
    }

    #[test]
    fn ucci_grades() {
        let mut o = Options::default();
        o.set("randomness", Some("huge"), Dialect::Ucci).unwrap();
        o.set("pruning", Some("none"), Dialect::Ucci).unwrap();
        o.set("knowledge", Some("Small"), Dialect::Ucci).unwrap();
        let s = o.strength(0);
        assert_eq!(s.randomness, Randomness::Huge);
        assert_eq!(s.pruning, Grade::None);
        assert_eq!(s.knowledge, Grade::Small);
        assert!(!s.skill_enabled());
        // Known options with bad values are errors even in UCCI.
        assert!(o.set("randomness", Some("extreme"), Dialect::Ucci).is_err());
        assert!(o.set("pruning", Some("tiny"), Dialect::Ucci).is_err());
        assert!(o.set("knowledge", None, Dialect::Ucci).is_err());
        assert_eq!(o.randomness, Randomness::Huge);
        assert_eq!(o.pruning, Grade::None);
        assert_eq!(o.knowledge, Grade::Small);
        // Both spellings of UCI_ShowWDL work in UCCI.
        o.set("UCI_ShowWDL", Some("true"), Dialect::Ucci).unwrap();
        assert!(o.show_wdl);
    }

    #[test]
    fn analyse_mode_and_debug_log() {
        let mut o = Options::default();
        o.set("UCI_AnalyseMode", Some("true"), Dialect::Uci)
            .unwrap();
        assert!(o.analyse_mode);
        assert!(o.set("UCI_AnalyseMode", Some("2"), Dialect::Uci).is_err());
        assert!(o.analyse_mode);
        assert_eq!(
            o.set("Debug Log File", Some("/tmp/a b.log"), Dialect::Uci),
            Ok(Effect::DebugLog)
        );
        assert_eq!(o.debug_log_file, "/tmp/a b.log");
        o.set("debuglogfile", Some(EMPTY), Dialect::Ucci).unwrap();
        assert_eq!(o.debug_log_file, "");
        o.set("debuglogfile", Some("x.log"), Dialect::Ucci).unwrap();
        o.set("Debug Log File", None, Dialect::Uci).unwrap();
        assert_eq!(o.debug_log_file, "");
    }

    #[test]
    fn announced_lines() {
        let uci = uci_option_lines();
        for want in [
            "option name Skill Level type spin default 20 min 0 max 20",
            "option name UCI_LimitStrength type check default false",
            "option name UCI_AnalyseMode type check default false",
            "option name Debug Log File type string default <empty>",
            "option name nodestime type spin default 0 min 0 max 10000",
        ] {
            assert!(uci.iter().any(|l| l == want), "{want}");
        }
        let ucci = ucci_option_lines();
        for want in [
            "option randomness type combo var none var tiny var small var medium var large var huge default none",
            "option pruning type combo var large var medium var small var none default large",
            "option knowledge type combo var large var medium var small var none default large",
            "option debuglogfile type string default <empty>",
        ] {
            assert!(ucci.iter().any(|l| l == want), "{want}");
        }
    }

    #[test]
    fn eval_file_values() {
        let mut o = Options::default();
        let default = EvalSource::default_for(EMBEDDED_NETWORK);
        assert_eq!(o.eval, default);
        assert_eq!(
            o.set("EvalFile", Some(" /nets/a b.nnue "), Dialect::Uci),
            Ok(Effect::LoadNetwork)
        );
        assert_eq!(o.eval, EvalSource::File("/nets/a b.nnue".into()));
        for (value, want) in [
            (Some(EMPTY), &default),
            (Some(""), &default),
            (None, &default),
            (Some("None"), &EvalSource::HandMade),
            (Some("hce"), &EvalSource::HandMade),
        ] {
            o.eval = EvalSource::File("x.nnue".into());
            assert_eq!(
                o.set("evalfile", value, Dialect::Ucci),
                Ok(Effect::LoadNetwork)
            );
            assert_eq!(&o.eval, want, "{value:?}");
        }
        // `<built-in>`: the built-in network, or an error that keeps the
        // evaluation when there is none.
        o.eval = EvalSource::File("x.nnue".into());
        let r = o.set("EvalFile", Some("<built-in>"), Dialect::Uci);
        if EMBEDDED_NETWORK.is_some() {
            assert_eq!(r, Ok(Effect::LoadNetwork));
            assert_eq!(o.eval, EvalSource::BuiltIn);
        } else {
            let e = r.unwrap_err();
            assert!(
                e.contains("no network is built in") && e.ends_with("keeping the network x.nnue"),
                "{e}"
            );
            assert_eq!(o.eval, EvalSource::File("x.nnue".into()));
        }
        let shown = if EMBEDDED_NETWORK.is_some() {
            "<built-in>"
        } else {
            "<empty>"
        };
        assert!(
            uci_option_lines()
                .iter()
                .any(|l| *l == format!("option name EvalFile type string default {shown}"))
        );
        assert!(
            ucci_option_lines()
                .iter()
                .any(|l| *l == format!("option evalfile type string default {shown}"))
        );
    }

    #[test]
    fn unknown_options() {
        let mut o = Options::default();
        assert_eq!(
            o.set("usebook", Some("false"), Dialect::Ucci),
            Ok(Effect::None)
        );
        assert_eq!(
            o.set("frobnicate", Some("1"), Dialect::Ucci),
            Ok(Effect::Note("unknown option 'frobnicate' ignored".into()))
        );
        assert!(o.set("frobnicate", Some("1"), Dialect::Uci).is_err());
    }
}
