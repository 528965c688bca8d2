//! Engine options, each declared once in [`OPTIONS`]: its UCI name, its UCCI
//! name, its type and range, its default and what setting it does. Both
//! dialects' option listings (`uci.rs`, `ucci.rs`), the parsing and
//! checking of `setoption`, the defaults of [`Options`] and the tests are
//! driven by that table. Names match case-insensitively, ignoring spaces
//! and underscores, so `Move Overhead`, `moveoverhead` and `move_overhead`
//! are one option; UCCI names (`hashsize`) and UCI names (`Hash`) both work
//! in either dialect.

use super::command::excerpt;
use jiangjun_engine::nnue::{BUILTIN_NETWORK, EMBEDDED_NETWORK, EvalSource};
use jiangjun_engine::strength::{self, ELO_MAX, ELO_MIN, Grade, Randomness, Strength};

pub const MAX_HASH_MB: i64 = 65536;
pub const MAX_THREADS: i64 = 256;
pub const MAX_MULTIPV: i64 = 128;
pub const MAX_OVERHEAD: i64 = 5000;
pub const MAX_SKILL: i64 = 20;
/// Largest `nodestime` (nodes per millisecond), as Stockfish.
pub const MAX_NODESTIME: i64 = 10000;
/// Largest `Random Seed` (within what every GUI's spin control holds).
pub const MAX_SEED: i64 = i32::MAX as i64;
/// How UCCI spells an empty string value.
pub const EMPTY: &str = "<empty>";
/// The `BookFile` value that names the built-in book.
pub const BUILTIN_BOOK: &str = "<built-in>";
/// Hash size when a UCCI GUI leaves it to the engine (`hashsize 0`).
const ENGINE_CHOICE_HASH_MB: usize = 16;

/// The values of the options, as the session and the search read them.
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

/// An option's type and range, as both dialects announce it.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    Check,
    /// A whole number from `min` to `max`. With `zero_is_engine_choice`,
    /// UCCI also takes (and announces) 0: "the engine chooses".
    Spin {
        min: i64,
        max: i64,
        zero_is_engine_choice: bool,
    },
    /// One of `vars` (any case); announced with the default first, since
    /// some GUIs take a combo's first entry as its value (XBoard through
    /// uci2wb does) and the engine they start must play at its defaults.
    Combo {
        vars: &'static [&'static str],
    },
    Text,
    Button,
}

/// A value checked against its option's [`Kind`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Check(bool),
    Spin(i64),
    /// The combo's own spelling of the value chosen.
    Combo(&'static str),
    /// A string, trimmed; `None` for a `setoption` without a value.
    Text(Option<String>),
    Button,
}

/// One option, declared once.
pub struct OptionDef {
    /// Its name in UCI, if announced there.
    pub uci: Option<&'static str>,
    /// Its name in UCCI, if announced there.
    pub ucci: Option<&'static str>,
    /// Other spellings accepted (in both dialects), never announced.
    pub aliases: &'static [&'static str],
    pub kind: Kind,
    /// The default, as announced (and applied to make `Options::default`).
    pub default: fn() -> String,
    /// Set the value (already checked against `kind`).
    pub set: fn(&mut Options, Value) -> Result<Effect, String>,
}

fn no_default() -> String {
    String::new()
}

fn check(v: &Value) -> bool {
    matches!(v, Value::Check(true))
}

fn spin(v: &Value) -> i64 {
    match v {
        Value::Spin(n) => *n,
        _ => 0,
    }
}

fn text(v: Value) -> String {
    match v {
        Value::Text(t) => t.unwrap_or_default(),
        _ => String::new(),
    }
}

fn combo(v: &Value) -> &'static str {
    match v {
        Value::Combo(s) => s,
        _ => "",
    }
}

/// `knowledge` and `pruning`, strongest first.
const GRADES_DESCENDING: [&str; 4] = ["large", "medium", "small", "none"];

/// Every option, in the order both dialects announce them.
pub static OPTIONS: &[OptionDef] = &[
    OptionDef {
        uci: None,
        ucci: Some("usemillisec"),
        aliases: &[],
        kind: Kind::Check,
        default: || "true".into(),
        set: |o, v| {
            o.usemillisec = check(&v);
            Ok(Effect::None)
        },
    },
    OptionDef {
        uci: None,
        ucci: Some("batch"),
        aliases: &[],
        kind: Kind::Check,
        default: || "false".into(),
        set: |o, v| {
            o.batch = check(&v);
            Ok(Effect::None)
        },
    },
    OptionDef {
        uci: None,
        ucci: Some("debug"),
        aliases: &[],
        kind: Kind::Check,
        default: || "false".into(),
        set: |o, v| {
            o.debug = check(&v);
            Ok(Effect::None)
        },
    },
    OptionDef {
        uci: Some("Threads"),
        ucci: Some("threads"),
        aliases: &[],
        kind: Kind::Spin {
            min: 1,
            max: MAX_THREADS,
            zero_is_engine_choice: true,
        },
        default: || "1".into(),
        set: |o, v| {
            let n = spin(&v);
            if n == 0 {
                // UCCI's "engine's choice": one thread per core.
                let cores = std::thread::available_parallelism().map_or(1, |p| p.get());
                o.threads = cores.min(MAX_THREADS as usize);
                return Ok(Effect::Note(format!(
                    "threads 0: {} search threads, one per core",
                    o.threads
                )));
            }
            o.threads = n as usize;
            Ok(Effect::None)
        },
    },
    OptionDef {
        uci: Some("Hash"),
        ucci: Some("hashsize"),
        aliases: &[],
        kind: Kind::Spin {
            min: 1,
            max: MAX_HASH_MB,
            zero_is_engine_choice: true,
        },
        default: || "16".into(),
        set: |o, v| {
            let mb = match spin(&v) {
                0 => ENGINE_CHOICE_HASH_MB,
                n => n as usize,
            };
            if mb == o.hash_mb {
                return Ok(Effect::None);
            }
            o.hash_mb = mb;
            Ok(Effect::ResizeHash)
        },
    },
    OptionDef {
        uci: Some("Clear Hash"),
        ucci: Some("clearhash"),
        aliases: &[],
        kind: Kind::Button,
        default: no_default,
        set: |_, _| Ok(Effect::ClearHash),
    },
    OptionDef {
        uci: Some("Ponder"),
        ucci: Some("ponder"),
        aliases: &[],
        kind: Kind::Check,
        default: || "false".into(),
        set: |o, v| {
            o.ponder = check(&v);
            Ok(Effect::None)
        },
    },
    OptionDef {
        uci: Some("MultiPV"),
        ucci: Some("multipv"),
        aliases: &[],
        kind: Kind::Spin {
            min: 1,
            max: MAX_MULTIPV,
            zero_is_engine_choice: false,
        },
        default: || "1".into(),
        set: |o, v| {
            o.multipv = spin(&v) as usize;
            Ok(Effect::None)
        },
    },
    OptionDef {
        uci: Some("Move Overhead"),
        ucci: Some("moveoverhead"),
        aliases: &[],
        kind: Kind::Spin {
            min: 0,
            max: MAX_OVERHEAD,
            zero_is_engine_choice: false,
        },
        default: || "10".into(),
        set: |o, v| {
            o.move_overhead = spin(&v) as u64;
            Ok(Effect::None)
        },
    },
    OptionDef {
        // Announced in UCI only; a UCCI client may set it too.
        uci: Some("UCI_ShowWDL"),
        ucci: None,
        aliases: &[],
        kind: Kind::Check,
        default: || "false".into(),
        set: |o, v| {
            o.show_wdl = check(&v);
            Ok(Effect::None)
        },
    },
    OptionDef {
        uci: Some("UCI_Variant"),
        ucci: None,
        aliases: &[],
        kind: Kind::Combo { vars: &["xiangqi"] },
        default: || "xiangqi".into(),
        set: |_, _| Ok(Effect::None),
    },
    OptionDef {
        uci: Some("OwnBook"),
        ucci: Some("usebook"),
        aliases: &[],
        kind: Kind::Check,
        default: || "true".into(),
        set: |o, v| {
            o.own_book = check(&v);
            Ok(Effect::None)
        },
    },
    OptionDef {
        uci: Some("BookFile"),
        ucci: Some("bookfiles"),
        aliases: &[],
        kind: Kind::Text,
        default: || BUILTIN_BOOK.into(),
        set: |o, v| {
            // UCCI lists files separated by ';': the first one is used.
            let v = text(v);
            let first = v.split(';').next().unwrap_or("").trim();
            o.book_file = if first == BUILTIN_BOOK || first.eq_ignore_ascii_case(EMPTY) {
                String::new()
            } else {
                first.to_string()
            };
            Ok(Effect::LoadBook)
        },
    },
    OptionDef {
        uci: Some("Skill Level"),
        ucci: None,
        aliases: &[],
        kind: Kind::Spin {
            min: 0,
            max: MAX_SKILL,
            zero_is_engine_choice: false,
        },
        default: || MAX_SKILL.to_string(),
        set: |o, v| {
            o.skill_level = spin(&v);
            Ok(Effect::None)
        },
    },
    OptionDef {
        uci: Some("UCI_LimitStrength"),
        ucci: None,
        aliases: &[],
        kind: Kind::Check,
        default: || "false".into(),
        set: |o, v| {
            o.limit_strength = check(&v);
            Ok(Effect::None)
        },
    },
    OptionDef {
        uci: Some("UCI_Elo"),
        ucci: None,
        aliases: &[],
        kind: Kind::Spin {
            min: ELO_MIN,
            max: ELO_MAX,
            zero_is_engine_choice: false,
        },
        default: || ELO_MIN.to_string(),
        set: |o, v| {
            o.elo = spin(&v);
            Ok(Effect::None)
        },
    },
    OptionDef {
        uci: None,
        ucci: Some("pruning"),
        aliases: &[],
        kind: Kind::Combo {
            vars: &GRADES_DESCENDING,
        },
        default: || Grade::Large.name().into(),
        set: |o, v| {
            o.pruning = Grade::parse(combo(&v)).unwrap_or(Grade::Large);
            Ok(Effect::None)
        },
    },
    OptionDef {
        uci: None,
        ucci: Some("knowledge"),
        aliases: &[],
        kind: Kind::Combo {
            vars: &GRADES_DESCENDING,
        },
        default: || Grade::Large.name().into(),
        set: |o, v| {
            o.knowledge = Grade::parse(combo(&v)).unwrap_or(Grade::Large);
            Ok(Effect::None)
        },
    },
    OptionDef {
        uci: None,
        ucci: Some("randomness"),
        aliases: &[],
        kind: Kind::Combo {
            vars: &Randomness::NAMES,
        },
        default: || Randomness::None.name().into(),
        set: |o, v| {
            o.randomness = Randomness::parse(combo(&v)).unwrap_or(Randomness::None);
            Ok(Effect::None)
        },
    },
    OptionDef {
        uci: Some("UCI_AnalyseMode"),
        ucci: None,
        aliases: &["UCI_AnalyzeMode"],
        kind: Kind::Check,
        default: || "false".into(),
        set: |o, v| {
            o.analyse_mode = check(&v);
            Ok(Effect::None)
        },
    },
    OptionDef {
        uci: Some("Debug Log File"),
        ucci: Some("debuglogfile"),
        aliases: &[],
        kind: Kind::Text,
        default: || EMPTY.into(),
        set: |o, v| {
            let v = text(v);
            o.debug_log_file = if v.eq_ignore_ascii_case(EMPTY) {
                String::new()
            } else {
                v
            };
            Ok(Effect::DebugLog)
        },
    },
    OptionDef {
        uci: Some("nodestime"),
        ucci: None,
        aliases: &[],
        kind: Kind::Spin {
            min: 0,
            max: MAX_NODESTIME,
            zero_is_engine_choice: false,
        },
        default: || "0".into(),
        set: |o, v| {
            o.nodestime = spin(&v) as u64;
            Ok(Effect::ResetNodeClock)
        },
    },
    OptionDef {
        uci: Some("Random Seed"),
        ucci: Some("randomseed"),
        aliases: &[],
        kind: Kind::Spin {
            min: 0,
            max: MAX_SEED,
            zero_is_engine_choice: false,
        },
        default: || "0".into(),
        set: |o, v| {
            o.random_seed = spin(&v) as u64;
            Ok(Effect::Reseed)
        },
    },
    OptionDef {
        uci: Some("EvalFile"),
        ucci: Some("evalfile"),
        aliases: &[],
        kind: Kind::Text,
        default: || eval_file_default().into(),
        set: |o, v| {
            let v = text(v);
            match EvalSource::parse(&v, EMBEDDED_NETWORK) {
                Ok(source) => {
                    o.eval = source;
                    Ok(Effect::LoadNetwork)
                }
                Err(e) => Err(format!("{e}; keeping {}", o.eval)),
            }
        },
    },
    OptionDef {
        uci: None,
        ucci: Some("newgame"),
        aliases: &[],
        kind: Kind::Button,
        default: no_default,
        set: |_, _| Ok(Effect::NewGame),
    },
];

/// `EvalFile`'s announced default: `<built-in>` when a network is built in
/// (and then evaluates by default), else empty (the hand-made evaluation).
pub fn eval_file_default() -> &'static str {
    match EvalSource::default_for(EMBEDDED_NETWORK) {
        EvalSource::BuiltIn => BUILTIN_NETWORK,
        _ => EMPTY,
    }
}

fn normalize(name: &str) -> String {
    name.chars()
        .filter(|c| !c.is_whitespace() && *c != '_')
        .flat_map(|c| c.to_lowercase())
        .collect()
}

impl OptionDef {
    /// Does `name` (loosely matched) name this option?
    fn is_named(&self, key: &str) -> bool {
        self.uci
            .into_iter()
            .chain(self.ucci)
            .chain(self.aliases.iter().copied())
            .any(|n| normalize(n) == key)
    }

    /// The name to quote in messages: the UCI name, else the UCCI one.
    pub fn name(&self) -> &'static str {
        self.uci.or(self.ucci).unwrap_or("?")
    }

    /// The combo's values with the default first.
    pub fn vars_default_first(&self) -> Vec<&'static str> {
        let Kind::Combo { vars } = self.kind else {
            return Vec::new();
        };
        let default = (self.default)();
        let mut out: Vec<&'static str> = vars.iter().copied().filter(|v| *v == default).collect();
        out.extend(vars.iter().copied().filter(|v| *v != default));
        out
    }

    /// Check a `setoption` value against the option's kind. `zero_allowed`:
    /// the dialect lets 0 mean the engine's choice.
    pub fn check(&self, value: Option<&str>, zero_allowed: bool) -> Result<Value, String> {
        let name = self.name();
        let needs = || format!("option {name} needs a value");
        match self.kind {
            Kind::Button => Ok(Value::Button),
            Kind::Text => Ok(Value::Text(value.map(|v| v.trim().to_string()))),
            Kind::Check => match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
                Some("true" | "on" | "1" | "yes") => Ok(Value::Check(true)),
                Some("false" | "off" | "0" | "no") => Ok(Value::Check(false)),
                Some(v) => Err(format!(
                    "option {name}: '{}' is not true/false/on/off/1/0",
                    excerpt(v)
                )),
                None => Err(needs()),
            },
            Kind::Spin {
                min,
                max,
                zero_is_engine_choice,
            } => {
                let v = value.ok_or_else(needs)?;
                let n: i64 = v
                    .trim()
                    .parse()
                    .map_err(|_| format!("option {name}: '{}' is not a number", excerpt(v)))?;
                let min = if zero_is_engine_choice && zero_allowed {
                    0
                } else {
                    min
                };
                if n < min || n > max {
                    return Err(format!(
                        "option {name}: {n} is outside {min}..{max}; unchanged"
                    ));
                }
                Ok(Value::Spin(n))
            }
            Kind::Combo { vars } => {
                let v = value.ok_or_else(needs)?.trim();
                vars.iter()
                    .find(|c| c.eq_ignore_ascii_case(v))
                    .map(|c| Value::Combo(c))
                    .ok_or_else(|| {
                        format!(
                            "option {name}: '{}' is not one of {}",
                            excerpt(v),
                            vars.join("/")
                        )
                    })
            }
        }
    }
}

/// The option a `setoption` names (loosely matched), if any.
pub fn find(name: &str) -> Option<&'static OptionDef> {
    let key = normalize(name);
    OPTIONS.iter().find(|d| d.is_named(&key))
}

/// Why a `setoption` did nothing.
#[derive(Debug, PartialEq, Eq)]
pub enum SetError {
    /// No option of that name: what to do is the dialect's call.
    Unknown(String),
    /// A bad value (or a value the option refused): the option is unchanged.
    Bad(String),
}

impl Default for Options {
    /// Every option at the default its declaration announces.
    fn default() -> Self {
        let mut o = Options {
            hash_mb: 0,
            threads: 0,
            multipv: 0,
            move_overhead: 0,
            ponder: false,
            show_wdl: false,
            usemillisec: false,
            batch: false,
            debug: false,
            own_book: false,
            book_file: String::new(),
            skill_level: 0,
            limit_strength: false,
            elo: 0,
            randomness: Randomness::None,
            pruning: Grade::None,
            knowledge: Grade::None,
            analyse_mode: false,
            debug_log_file: String::new(),
            nodestime: 0,
            random_seed: 0,
            eval: EvalSource::HandMade,
        };
        for def in OPTIONS {
            if matches!(def.kind, Kind::Button) {
                continue;
            }
            let default = (def.default)();
            // A default is a value of its own kind: a failure here is a
            // mistake in the table, which the tests catch.
            if let Ok(v) = def.check(Some(&default), false) {
                let _ = (def.set)(&mut o, v);
            }
        }
        o
    }
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

    /// Apply `setoption`. `zero_allowed`: the dialect lets 0 mean "the
    /// engine's choice" for the options that take it (UCCI). A bad value
    /// leaves the option as it was.
    pub fn set(
        &mut self,
        name: &str,
        value: Option<&str>,
        zero_allowed: bool,
    ) -> Result<Effect, SetError> {
        let def = find(name).ok_or_else(|| SetError::Unknown(excerpt(name)))?;
        let v = def.check(value, zero_allowed).map_err(SetError::Bad)?;
        (def.set)(self, v).map_err(|e| SetError::Bad(format!("option {name}: {e}")))
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_loosely() {
        let mut o = Options::default();
        assert_eq!(o.set("Move Overhead", Some("50"), false), Ok(Effect::None));
        assert_eq!(o.move_overhead, 50);
        assert_eq!(o.set("moveoverhead", Some("70"), true), Ok(Effect::None));
        assert_eq!(o.move_overhead, 70);
        assert_eq!(o.set("hashsize", Some("64"), true), Ok(Effect::ResizeHash));
        assert_eq!(o.set("Hash", Some("64"), false), Ok(Effect::None));
        assert_eq!(o.hash_mb, 64);
        assert_eq!(
            o.set("clear hash", Some("true"), false),
            Ok(Effect::ClearHash)
        );
        assert_eq!(
            o.set("UCI_Variant", Some("xiangqi"), false),
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
            o.set("ponder", Some(v), true).unwrap();
            assert_eq!(o.ponder, want, "{v}");
        }
        assert!(o.set("ponder", Some("maybe"), true).is_err());
        assert!(o.set("ponder", None, true).is_err());
    }

    #[test]
    fn bad_values_keep_the_old_value() {
        let mut o = Options::default();
        assert!(o.set("Hash", Some("-1"), false).is_err());
        assert!(o.set("Hash", Some("99999999"), false).is_err());
        assert!(o.set("Threads", Some("x"), false).is_err());
        assert!(o.set("MultiPV", Some("0"), false).is_err());
        assert_eq!((o.hash_mb, o.threads, o.multipv), (16, 1, 1));
        assert!(o.set("UCI_Variant", Some("chess"), false).is_err());
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
        o.set("Skill Level", Some("3"), false).unwrap();
        assert_eq!(o.strength(0).skill, 3.0);
        // UCI_LimitStrength: the Elo decides, not the skill level.
        o.set("UCI_LimitStrength", Some("true"), false).unwrap();
        o.set("UCI_Elo", Some(&ELO_MAX.to_string()), false).unwrap();
        assert!(!o.strength(0).skill_enabled());
        o.set("UCI_Elo", Some(&ELO_MIN.to_string()), false).unwrap();
        assert_eq!(o.strength(0).skill, 0.0);
        o.set("UCI_LimitStrength", Some("false"), false).unwrap();
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
            assert!(o.set(name, Some(v), false).is_err(), "{name} {v}");
        }
        assert_eq!(o.skill_level, 3);
        assert_eq!(o.elo, ELO_MIN);
        assert!(!o.limit_strength);
        assert_eq!((o.nodestime, o.random_seed), (0, 0));
        assert_eq!(
            o.set("nodestime", Some("250"), false),
            Ok(Effect::ResetNodeClock)
        );
        assert_eq!(o.nodestime, 250);
        assert_eq!(
            o.set("Random Seed", Some("12345"), false),
            Ok(Effect::Reseed)
        );
        assert_eq!(o.random_seed, 12345);
    }

    #[test]
    fn ucci_grades() {
        let mut o = Options::default();
        o.set("randomness", Some("huge"), true).unwrap();
        o.set("pruning", Some("none"), true).unwrap();
        o.set("knowledge", Some("Small"), true).unwrap();
        let s = o.strength(0);
        assert_eq!(s.randomness, Randomness::Huge);
        assert_eq!(s.pruning, Grade::None);
        assert_eq!(s.knowledge, Grade::Small);
        assert!(!s.skill_enabled());
        // Known options with bad values are errors even in UCCI.
        assert!(o.set("randomness", Some("extreme"), true).is_err());
        assert!(o.set("pruning", Some("tiny"), true).is_err());
        assert!(o.set("knowledge", None, true).is_err());
        assert_eq!(o.randomness, Randomness::Huge);
        assert_eq!(o.pruning, Grade::None);
        assert_eq!(o.knowledge, Grade::Small);
        // Both spellings of UCI_ShowWDL work in UCCI.
        o.set("UCI_ShowWDL", Some("true"), true).unwrap();
        assert!(o.show_wdl);
    }

    #[test]
    fn analyse_mode_and_debug_log() {
        let mut o = Options::default();
        o.set("UCI_AnalyseMode", Some("true"), false).unwrap();
        assert!(o.analyse_mode);
        assert!(o.set("UCI_AnalyseMode", Some("2"), false).is_err());
        assert!(o.analyse_mode);
        assert_eq!(
            o.set("Debug Log File", Some("/tmp/a b.log"), false),
            Ok(Effect::DebugLog)
        );
        assert_eq!(o.debug_log_file, "/tmp/a b.log");
        o.set("debuglogfile", Some(EMPTY), true).unwrap();
        assert_eq!(o.debug_log_file, "");
        o.set("debuglogfile", Some("x.log"), true).unwrap();
        o.set("Debug Log File", None, false).unwrap();
        assert_eq!(o.debug_log_file, "");
    }

    #[test]
    fn eval_file_values() {
        let mut o = Options::default();
        let default = EvalSource::default_for(EMBEDDED_NETWORK);
        assert_eq!(o.eval, default);
        assert_eq!(
            o.set("EvalFile", Some(" /nets/a b.nnue "), false),
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
            assert_eq!(o.set("evalfile", value, true), Ok(Effect::LoadNetwork));
            assert_eq!(&o.eval, want, "{value:?}");
        }
        // `<built-in>`: the built-in network, or an error that keeps the
        // evaluation when there is none.
        o.eval = EvalSource::File("x.nnue".into());
        let r = o.set("EvalFile", Some("<built-in>"), false);
        if EMBEDDED_NETWORK.is_some() {
            assert_eq!(r, Ok(Effect::LoadNetwork));
            assert_eq!(o.eval, EvalSource::BuiltIn);
        } else {
            let Err(SetError::Bad(e)) = r else {
                panic!("{r:?}")
            };
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
        assert_eq!(find("evalfile").map(|d| (d.default)()), Some(shown.into()));
    }

    #[test]
    fn unknown_options_are_the_dialects_call() {
        let mut o = Options::default();
        assert_eq!(o.set("usebook", Some("false"), true), Ok(Effect::None));
        assert_eq!(
            o.set("frobnicate", Some("1"), true),
            Err(SetError::Unknown("frobnicate".into()))
        );
    }

    /// The table is sound: every option has a name, no two share one, every
    /// default is a value of its own kind, and `Options::default` holds it.
    #[test]
    fn the_table_declares_each_option_once() {
        let mut seen = std::collections::HashSet::new();
        for def in OPTIONS {
            let names: Vec<&str> = def
                .uci
                .into_iter()
                .chain(def.ucci)
                .chain(def.aliases.iter().copied())
                .collect();
            assert!(!names.is_empty());
            for n in names {
                let key = normalize(n);
                // A UCI and a UCCI name may be the same word (`ponder`).
                if def.uci.map(normalize) == def.ucci.map(normalize) && def.ucci == Some(n) {
                    continue;
                }
                assert!(seen.insert(key), "{n} is declared twice");
            }
            if !matches!(def.kind, Kind::Button) {
                let default = (def.default)();
                assert!(
                    def.check(Some(&default), false).is_ok(),
                    "{}: {default}",
                    def.name()
                );
            }
            if matches!(def.kind, Kind::Combo { .. }) {
                assert_eq!(
                    def.vars_default_first()[0],
                    (def.default)(),
                    "{}",
                    def.name()
                );
            }
        }
        let d = Options::default();
        assert_eq!(
            (d.hash_mb, d.threads, d.multipv, d.move_overhead),
            (16, 1, 1, 10)
        );
        assert!(d.usemillisec && d.own_book && !d.ponder && !d.batch);
        assert_eq!((d.skill_level, d.elo), (MAX_SKILL, ELO_MIN));
        assert_eq!((d.pruning, d.knowledge), (Grade::Large, Grade::Large));
        assert_eq!(d.randomness, Randomness::None);
        assert_eq!(d.eval, EvalSource::default_for(EMBEDDED_NETWORK));
        assert_eq!(d.book_file, "");
    }
}
