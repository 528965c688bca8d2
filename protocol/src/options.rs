//! Engine options, each declared once in [`OPTIONS`]: its UCI name, its UCCI
//! name, its type and range, its default and what setting it does. Both
//! dialects' option listings (`uci.rs`, `ucci.rs`), the parsing and
//! checking of `setoption`, the defaults of [`Options`] and the tests are
//! driven by that table. Names match case-insensitively, ignoring spaces
//! and underscores, so `Move Overhead`, `moveoverhead` and `move_overhead`
//! are one option; UCCI names (`hashsize`) and UCI names (`Hash`) both work
//! in either dialect.
//!
//! The types and bounds the table is written in live in the leaf
//! `options/model.rs`, so that the table (`options/table.rs`) and a tuning
//! build's options (`options/tune.rs`) import them sideways, not from here.

use super::command::excerpt;
use jiangjun_engine::nnue::EvalSource;
use jiangjun_engine::play::PlaySettings;

mod model;
pub use model::{
    BUILTIN_BOOK, EMPTY, Effect, Kind, MAX_HASH_MB, MAX_MULTIPV, MAX_NODESTIME, MAX_OVERHEAD,
    MAX_SEED, MAX_SKILL, MAX_THREADS, OptionDef, Options, Value, eval_file_default,
};

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
        self.check_as(self.name(), value, zero_allowed)
    }

    /// [`Self::check`], quoting the option as `name` in its messages: the
    /// name the GUI sent, so that a UCCI GUI reads its own `hashsize`.
    fn check_as(
        &self,
        name: &str,
        value: Option<&str>,
        zero_allowed: bool,
    ) -> Result<Value, String> {
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
        let v = def
            .check_as(name, value, zero_allowed)
            .map_err(SetError::Bad)?;
        (def.set)(self, v).map_err(|e| SetError::Bad(format!("option {name}: {e}")))
    }
}
#[cfg(test)]
mod tests;
