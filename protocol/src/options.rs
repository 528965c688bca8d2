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
use jiangjun_engine::play::PlaySettings;

pub const MAX_HASH_MB: i64 = 65536;
pub const MAX_THREADS: i64 = 256;
pub const MAX_MULTIPV: i64 = 128;
pub const MAX_OVERHEAD: i64 = 5000;
/// The highest `Skill Level` (full strength), as the ladder has it.
pub const MAX_SKILL: i64 = jiangjun_engine::ladder::MAX_SKILL_LEVEL;
/// Largest `nodestime` (nodes per millisecond), as Stockfish.
pub const MAX_NODESTIME: i64 = 10000;
/// Largest `Random Seed` (within what every GUI's spin control holds).
pub const MAX_SEED: i64 = i32::MAX as i64;
/// How UCCI spells an empty string value.
pub const EMPTY: &str = "<empty>";
/// The `BookFile` value that names the built-in book.
pub const BUILTIN_BOOK: &str = "<built-in>";
/// Hash size when a UCCI GUI leaves it to the engine (`hashsize 0`).
pub(crate) const ENGINE_CHOICE_HASH_MB: usize = 16;

/// The values of the options, as the session and the search read them.
#[derive(Clone, Debug)]
pub struct Options {
    pub hash_mb: usize,
    pub threads: usize,
    pub ponder: bool,
    pub show_wdl: bool,
    pub usemillisec: bool,
    pub batch: bool,
    pub debug: bool,
    /// Book file; empty for the built-in book.
    pub book_file: String,
    /// `Debug Log File` (UCCI `debuglogfile`); empty: no log.
    pub debug_log_file: String,
    /// `Random Seed`: 0 seeds from the clock; others make the book choice,
    /// skill picks and randomness repeatable.
    pub random_seed: u64,
    /// `EvalFile` (UCCI `evalfile`): the evaluation in force (the values
    /// mean what `EvalSource::parse` says).
    pub eval: EvalSource,
    /// `TablebasePath` (UCCI `tablebasepath`): the directory of endgame
    /// tables the search probes; empty: none.
    pub tablebase_path: String,
    /// The options that shape a `go`, kept as the engine takes them
    /// (`Engine::set_play_settings`): MultiPV, overhead, `nodestime`, the
    /// book, the strength options.
    pub play: PlaySettings,
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
    /// Probe the tables of `tablebase_path` (or none, if empty).
    LoadTablebases,
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

mod table;
pub use table::OPTIONS;
#[cfg(feature = "tune")]
mod tune;

/// Every option this build has, in the order both dialects announce them:
/// the table's, then (in a tuning build) one per search parameter.
pub fn all() -> impl Iterator<Item = &'static OptionDef> {
    let tuning: &'static [OptionDef] = {
        #[cfg(feature = "tune")]
        {
            &tune::PARAM_OPTIONS
        }
        #[cfg(not(feature = "tune"))]
        {
            &[]
        }
    };
    OPTIONS.iter().chain(tuning)
}

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

    /// The combo's values as both dialects announce them: `var a var b ...`,
    /// the default first.
    pub fn vars_text(&self) -> String {
        let vars: Vec<String> = self
            .vars_default_first()
            .iter()
            .map(|v| format!("var {v}"))
            .collect();
        vars.join(" ")
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
    all().find(|d| d.is_named(&key))
}

/// The option whose UCI name `name` is (loosely matched), if any.
pub fn find_uci(name: &str) -> Option<&'static OptionDef> {
    let key = normalize(name);
    all().find(|d| d.uci.is_some_and(|n| normalize(n) == key))
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
            ponder: false,
            show_wdl: false,
            usemillisec: false,
            batch: false,
            debug: false,
            book_file: String::new(),
            debug_log_file: String::new(),
            random_seed: 0,
            eval: EvalSource::HandMade,
            tablebase_path: String::new(),
            play: PlaySettings::default(),
        };
        for def in all() {
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
    /// The options that shape a `go`, as the engine takes them.
    pub fn play_settings(&self) -> PlaySettings {
        self.play.clone()
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
mod tests;
