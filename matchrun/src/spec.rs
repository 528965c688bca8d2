//! How an engine is described on the command line: `name=..,cmd=..,proto=uci|ucci,
//! option.X=Y,..` ([`EngineSpec::parse`]), with options that may change
//! from game to game.

use crate::kv::{self, KeyValueError};
use crate::time_control::{TimeControl, TimeControlError};
use thiserror::Error;

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proto {
    Uci,
    Ucci,
}

/// How an engine is started and spoken to (`--engine name=..,cmd=..,...`).
#[derive(Clone, Debug)]
pub struct EngineSpec {
    /// The name in the PGN and the summary.
    pub name: String,
    /// The program to run.
    pub cmd: String,
    /// Its command-line arguments.
    pub args: Vec<String>,
    /// Its working directory (default: the runner's).
    pub dir: Option<String>,
    pub proto: Proto,
    /// Options the runner sets, in the order given.
    pub options: Vec<OptionSetting>,
    /// The engine numbers ranks 1-10 (Fairy-Stockfish's plain UCI).
    pub ranks_from_one: bool,
    /// UCCI time unit: milliseconds unless the engine is set to seconds.
    pub ucci_seconds: bool,
    /// A time control for this engine only (overrides the match's).
    pub tc: Option<TimeControl>,
    /// Ponder: think on the expected reply while the opponent thinks.
    pub ponder: bool,
}

/// An option the runner sets: one value, set once after the handshake, or
/// several (`option.Hash=16|64`), taken in turn game by game and set before
/// each game (see [`EngineSpec::options_for_game`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionSetting {
    pub name: String,
    pub values: Vec<String>,
}

impl OptionSetting {
    /// The value is the same in every game.
    pub fn is_fixed(&self) -> bool {
        self.values.len() <= 1
    }
}

/// An engine spec that does not parse.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SpecError {
    #[error("engine spec: {0}")]
    Syntax(#[from] KeyValueError),
    #[error("engine spec: unknown key '{0}'")]
    UnknownKey(String),
    #[error("engine spec: proto '{0}' is not uci or ucci")]
    Proto(String),
    #[error("engine spec: ranks '{0}' is not 0-9 or 1-10")]
    Ranks(String),
    #[error("engine spec: timeunit '{0}' is not ms or s")]
    TimeUnit(String),
    #[error("engine spec: ponder '{0}' is not on or off")]
    Ponder(String),
    #[error("engine spec: option.{0} has an empty value in its list")]
    EmptyValue(String),
    #[error("engine spec: {0}")]
    TimeControl(#[from] TimeControlError),
    #[error("engine spec: cmd= is required")]
    MissingCmd,
}

impl EngineSpec {
    /// An engine run as `cmd` (no arguments), named after the file, speaking `proto`.
    pub fn new(cmd: &str, proto: Proto) -> EngineSpec {
        EngineSpec {
            name: std::path::Path::new(cmd)
                .file_name()
                .map_or(cmd.to_string(), |f| f.to_string_lossy().to_string()),
            cmd: cmd.to_string(),
            args: Vec::new(),
            dir: None,
            proto,
            options: Vec::new(),
            ranks_from_one: false,
            ucci_seconds: false,
            tc: None,
            ponder: false,
        }
    }

    /// Parse `name=A,cmd=PATH,proto=uci|ucci,option.NAME=VALUE,arg=ARG,dir=DIR,
    /// ranks=0-9|1-10,timeunit=ms|s,tc=TC,ponder=on|off` (only `cmd` is
    /// required; `arg` and `option.*` may repeat; the name defaults to the
    /// program's file name). `option.NAME=V1|V2|...` varies the option
    /// between games (see [`EngineSpec::options_for_game`]).
    pub fn parse(text: &str) -> Result<EngineSpec, SpecError> {
        let pairs = kv::parse(text)?;
        let cmd = pairs
            .iter()
            .rev()
            .find(|(k, _)| *k == "cmd")
            .map(|(_, v)| *v)
            .filter(|v| !v.is_empty());
        let mut spec = EngineSpec::new(cmd.unwrap_or(""), Proto::Uci);
        let mut name = None;
        for (k, v) in pairs {
            match k {
                "name" => name = Some(v.to_string()),
                "cmd" => {}
                "arg" => spec.args.push(v.to_string()),
                "dir" => spec.dir = Some(v.to_string()),
                "proto" => {
                    spec.proto = match v.to_ascii_lowercase().as_str() {
                        "uci" => Proto::Uci,
                        "ucci" => Proto::Ucci,
                        _ => return Err(SpecError::Proto(v.to_string())),
                    }
                }
                "ranks" => {
                    spec.ranks_from_one = match v {
                        "0" | "0-9" => false,
                        "1" | "1-10" => true,
                        _ => return Err(SpecError::Ranks(v.to_string())),
                    }
                }
                "timeunit" => {
                    spec.ucci_seconds = match v {
                        "ms" => false,
                        "s" => true,
                        _ => return Err(SpecError::TimeUnit(v.to_string())),
                    }
                }
                "tc" => spec.tc = Some(TimeControl::parse(v)?),
                "ponder" => {
                    spec.ponder = match v.to_ascii_lowercase().as_str() {
                        "on" | "true" | "1" => true,
                        "off" | "false" | "0" => false,
                        _ => return Err(SpecError::Ponder(v.to_string())),
                    }
                }
                _ => match k.strip_prefix("option.") {
                    Some(option) if !option.is_empty() => {
                        let values: Vec<String> = v.split('|').map(str::to_string).collect();
                        if values.len() > 1 && values.iter().any(String::is_empty) {
                            return Err(SpecError::EmptyValue(option.to_string()));
                        }
                        spec.options.push(OptionSetting {
                            name: option.to_string(),
                            values,
                        })
                    }
                    _ => return Err(SpecError::UnknownKey(k.to_string())),
                },
            }
        }
        if cmd.is_none() {
            return Err(SpecError::MissingCmd);
        }
        if let Some(name) = name.filter(|n| !n.is_empty()) {
            spec.name = name;
        }
        Ok(spec)
    }

    /// The varying options' values in game `game` (from 0), in the order
    /// given: every combination once in each run of as many games as there
    /// are combinations, the first option changing fastest. With
    /// `option.Hash=16|64,option.Threads=1|2`, games 0-3 get (16, 1),
    /// (64, 1), (16, 2), (64, 2), and game 4 starts over.
    pub fn options_for_game(&self, game: usize) -> Vec<(String, String)> {
        let mut rest = game;
        let mut out = Vec::new();
        for o in self.options.iter().filter(|o| !o.is_fixed()) {
            let n = o.values.len();
            out.push((o.name.clone(), o.values[rest % n].clone()));
            rest /= n;
        }
        out
    }

    /// The spec as text that [`EngineSpec::parse`] reads back as the
    /// same spec: every setting in a fixed order (the settings a match
    /// shard records).
    pub fn to_text(&self) -> String {
        let mut parts = vec![format!("name={}", self.name), format!("cmd={}", self.cmd)];
        parts.extend(self.args.iter().map(|a| format!("arg={a}")));
        if let Some(d) = &self.dir {
            parts.push(format!("dir={d}"));
        }
        let proto = match self.proto {
            Proto::Uci => "uci",
            Proto::Ucci => "ucci",
        };
        parts.push(format!("proto={proto}"));
        parts.push(format!(
            "ranks={}",
            if self.ranks_from_one { "1-10" } else { "0-9" }
        ));
        parts.push(format!(
            "timeunit={}",
            if self.ucci_seconds { "s" } else { "ms" }
        ));
        if let Some(tc) = &self.tc {
            parts.push(format!("tc={tc}"));
        }
        parts.push(format!("ponder={}", if self.ponder { "on" } else { "off" }));
        parts.extend(
            self.options
                .iter()
                .map(|o| format!("option.{}={}", o.name, o.values.join("|"))),
        );
        parts.join(",")
    }

    /// Some option varies between games.
    pub fn varies(&self) -> bool {
        self.options.iter().any(|o| !o.is_fixed())
    }
}
