//! The option table and `setoption`'s checks.

use super::*;
use jiangjun_engine::nnue::EMBEDDED_NETWORK;
use jiangjun_engine::play::ladder::rung_from_skill;
use jiangjun_engine::play::strength::{ELO_MAX, ELO_MIN, Grade, Randomness, Strength};

#[test]
fn names_match_loosely() {
    let mut o = Options::default();
    assert_eq!(o.set("Move Overhead", Some("50"), false), Ok(Effect::None));
    assert_eq!(o.play.move_overhead, 50);
    assert_eq!(o.set("moveoverhead", Some("70"), true), Ok(Effect::None));
    assert_eq!(o.play.move_overhead, 70);
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
    assert_eq!((o.hash_mb, o.threads, o.play.multipv), (16, 1, 1));
    assert!(o.set("UCI_Variant", Some("chess"), false).is_err());
}

#[test]
fn strength_options() {
    let mut o = Options::default();
    assert!(
        !o.play_settings().strength(1).limited(),
        "full strength by default"
    );
    assert_eq!(
        o.play_settings().strength(1),
        Strength {
            seed: 1,
            ..Strength::default()
        }
    );
    o.set("Skill Level", Some("3"), false).unwrap();
    let three = rung_from_skill(3);
    assert_eq!(o.play_settings().strength(0).rung, three);
    // UCI_LimitStrength: the Elo decides, not the skill level.
    o.set("UCI_LimitStrength", Some("true"), false).unwrap();
    o.set("UCI_Elo", Some(&ELO_MAX.to_string()), false).unwrap();
    assert!(!o.play_settings().strength(0).limited());
    o.set("UCI_Elo", Some(&ELO_MIN.to_string()), false).unwrap();
    assert_eq!(o.play_settings().strength(0).rung, 0);
    o.set("UCI_LimitStrength", Some("false"), false).unwrap();
    assert_eq!(o.play_settings().strength(0).rung, three);
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
    assert_eq!(o.play.skill_level, 3);
    assert_eq!(o.play.elo, ELO_MIN);
    assert!(!o.play.limit_strength);
    assert_eq!((o.play.nodestime, o.random_seed), (0, 0));
    assert_eq!(
        o.set("nodestime", Some("250"), false),
        Ok(Effect::ResetNodeClock)
    );
    assert_eq!(o.play.nodestime, 250);
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
    let s = o.play_settings().strength(0);
    assert_eq!(s.randomness, Randomness::Huge);
    assert_eq!(s.pruning, Grade::None);
    assert_eq!(s.knowledge, Grade::Small);
    assert!(!s.limited());
    // Known options with bad values are errors even in UCCI.
    assert!(o.set("randomness", Some("extreme"), true).is_err());
    assert!(o.set("pruning", Some("tiny"), true).is_err());
    assert!(o.set("knowledge", None, true).is_err());
    assert_eq!(o.play.randomness, Randomness::Huge);
    assert_eq!(o.play.pruning, Grade::None);
    assert_eq!(o.play.knowledge, Grade::Small);
    // Both spellings of UCI_ShowWDL work in UCCI.
    o.set("UCI_ShowWDL", Some("true"), true).unwrap();
    assert!(o.show_wdl);
}

#[test]
fn analyse_mode_and_debug_log() {
    let mut o = Options::default();
    o.set("UCI_AnalyseMode", Some("true"), false).unwrap();
    assert!(o.play.analyse_mode);
    assert!(o.set("UCI_AnalyseMode", Some("2"), false).is_err());
    assert!(o.play.analyse_mode);
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
    for def in all() {
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
        (d.hash_mb, d.threads, d.play.multipv, d.play.move_overhead),
        (16, 1, 1, 10)
    );
    assert!(d.usemillisec && d.play.own_book && !d.ponder && !d.batch);
    assert_eq!((d.play.skill_level, d.play.elo), (MAX_SKILL, ELO_MIN));
    assert_eq!(
        (d.play.pruning, d.play.knowledge),
        (Grade::Large, Grade::Large)
    );
    assert_eq!(d.play.randomness, Randomness::None);
    assert_eq!(d.eval, EvalSource::default_for(EMBEDDED_NETWORK));
    assert_eq!(d.book_file, "");
}

/// The search parameters are options in a tuning build only: the normal
/// build announces none of them in either dialect and refuses to set them;
/// a tuning build announces each one with its default and range, and a
/// `setoption` reaches the settings a `go` searches with.
#[test]
fn search_parameters_are_options_only_in_a_tuning_build() {
    use crate::dialect::Dialect;
    use jiangjun_engine::search_params::{PARAMS, SearchParams};
    let uci = crate::uci::Uci.handshake();
    let ucci = crate::ucci::Ucci.handshake();
    for (i, p) in PARAMS.iter().enumerate() {
        let uci_line = format!(
            "option name {} type spin default {} min {} max {}",
            p.name, p.default, p.min, p.max
        );
        let announced = |lines: &[String]| lines.iter().any(|l| l.contains(p.name));
        let mut o = Options::default();
        let value = if p.default == p.max { p.min } else { p.max };
        let set = o.set(p.name, Some(&value.to_string()), false);
        if cfg!(feature = "tune") {
            assert!(uci.contains(&uci_line), "{uci_line}");
            assert!(announced(&ucci), "{}", p.name);
            assert_eq!(set, Ok(Effect::None), "{}", p.name);
            assert_eq!(o.play_settings().search.get(i), Some(value), "{}", p.name);
            // Out of range: refused, unchanged.
            assert!(
                o.set(p.name, Some(&(p.max + 1).to_string()), false)
                    .is_err()
            );
            assert_eq!(o.play_settings().search.get(i), Some(value));
        } else {
            assert!(!announced(&uci) && !announced(&ucci), "{}", p.name);
            assert_eq!(set, Err(SetError::Unknown(p.name.into())));
            assert_eq!(o.play_settings().search, SearchParams::DEFAULT);
        }
    }
    assert_eq!(Options::default().play.search, SearchParams::DEFAULT);
}
