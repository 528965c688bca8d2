//! The table of options: each one's names, kind, default and setter. A
//! tuning build adds one option per search parameter after these
//! (`options/tune.rs`, through `options::all`).

use super::model::{
    BUILTIN_BOOK, EMPTY, ENGINE_CHOICE_HASH_MB, Effect, Kind, MAX_HASH_MB, MAX_MULTIPV,
    MAX_NODESTIME, MAX_OVERHEAD, MAX_SEED, MAX_SKILL, MAX_THREADS, OptionDef, Value,
    eval_file_default,
};
use jiangjun_engine::nnue::{EMBEDDED_NETWORK, EvalSource};
use jiangjun_engine::play::strength::{ELO_MAX, ELO_MIN, Grade, Randomness};

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
            o.play.multipv = spin(&v) as usize;
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
            o.play.move_overhead = spin(&v) as u64;
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
            o.play.own_book = check(&v);
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
            o.play.skill_level = spin(&v);
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
            o.play.limit_strength = check(&v);
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
            o.play.elo = spin(&v);
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
            o.play.pruning = Grade::parse(combo(&v)).unwrap_or(Grade::Large);
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
            o.play.knowledge = Grade::parse(combo(&v)).unwrap_or(Grade::Large);
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
            o.play.randomness = Randomness::parse(combo(&v)).unwrap_or(Randomness::None);
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
            o.play.analyse_mode = check(&v);
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
            o.play.nodestime = spin(&v) as u64;
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
        uci: Some("TablebasePath"),
        ucci: Some("tablebasepath"),
        aliases: &[],
        kind: Kind::Text,
        default: no_default,
        set: |o, v| {
            o.tablebase_path = text(v);
            Ok(Effect::LoadTablebases)
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
