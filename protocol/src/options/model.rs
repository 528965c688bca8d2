//! The option model: the bounds of the options' ranges, the values the
//! session and the search read ([`Options`]), and the declaration an option
//! is written as ([`OptionDef`], its [`Kind`], the [`Value`] it is set to and
//! the [`Effect`] setting it has). A leaf: the table (`table.rs`) and the
//! tuning options (`tune.rs`) are written in these terms, and `options.rs`
//! re-exports them.

use jiangjun_engine::nnue::{BUILTIN_NETWORK, EMBEDDED_NETWORK, EvalSource};
use jiangjun_engine::play::PlaySettings;

pub const MAX_HASH_MB: i64 = 65536;
pub const MAX_THREADS: i64 = 256;
pub const MAX_MULTIPV: i64 = 128;
pub const MAX_OVERHEAD: i64 = 5000;
/// The highest `Skill Level` (full strength), as the ladder has it.
pub const MAX_SKILL: i64 = jiangjun_engine::play::ladder::MAX_SKILL_LEVEL;
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

/// `EvalFile`'s announced default: `<built-in>` when a network is built in
/// (and then evaluates by default), else empty (the hand-made evaluation).
pub fn eval_file_default() -> &'static str {
    match EvalSource::default_for(EMBEDDED_NETWORK) {
        EvalSource::BuiltIn => BUILTIN_NETWORK,
        _ => EMPTY,
    }
}
