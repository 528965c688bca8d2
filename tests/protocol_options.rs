//! The options users expect, in sessions against the real binary: playing
//! strength (UCI `Skill Level`, `UCI_LimitStrength`/`UCI_Elo`; UCCI
//! `randomness`, `pruning`, `knowledge`), `UCI_AnalyseMode`, the debug log,
//! `nodestime`, `UCI_ShowWDL` in UCCI, `EvalFile` (UCCI `evalfile`), paths
//! in a GUI's own encoding, and the version in `id name`.

// Test code: a failed unwrap is a failed test, reported with its line.
#![allow(clippy::unwrap_used)]

mod common;

use common::{EngineProcess, assert_legal_bestmove, bestmove_of, scratch_file};
use jiangjun_engine::Position;
use jiangjun_engine::eval::evaluate;
use jiangjun_engine::nnue::{EMBEDDED_NETWORK, Network, default_network};
use jiangjun_engine::play::ladder::{RUNGS, rung_from_skill};
use jiangjun_engine::play::strength::{ELO_MAX, ELO_MIN};
use jiangjun_engine::time::{Clock, allocate};
use std::path::PathBuf;
use std::sync::Arc;
use xiangqi::Board;

/// Red mates in three, starting with the rook sacrifice d8d9.
const MATE_IN_3: &str = "1rbak3r/1N1Ra4/cR2b1N2/9/9/9/9/9/5p3/4K4 w - - 0 1";
const MATE_MOVE: &str = "d8d9";
/// A quiet middlegame, out of the book.
const MIDDLEGAME: &str =
    "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 4 3";

fn uci() -> EngineProcess {
    let mut e = EngineProcess::start();
    e.send("uci");
    e.until_prefix("uciok");
    e
}

fn ucci() -> EngineProcess {
    let mut e = EngineProcess::start();
    e.send("ucci");
    e.until_prefix("ucciok");
    e
}

/// `go` and the lines up to its `bestmove`.
fn go(e: &mut EngineProcess, go: &str) -> Vec<String> {
    e.send(go);
    e.read_until(|l| l.starts_with("bestmove") || l.starts_with("nobestmove"))
}

/// The value after `key` in an info line.
fn field(line: &str, key: &str) -> Option<i64> {
    let mut t = line.split_whitespace();
    while let Some(w) = t.next() {
        if w == key {
            return t.next().and_then(|v| v.parse().ok());
        }
    }
    None
}

fn errors(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info string error"))
        .collect()
}

/// `EvalFile`'s announced default: the built-in network, when there is one.
fn eval_file_default() -> &'static str {
    if EMBEDDED_NETWORK.is_some() {
        "<built-in>"
    } else {
        "<empty>"
    }
}

/// The option tables of the README and of `docs/protocols.md` state
/// `UCI_Elo`'s range in words: it must be the range the engine announces,
/// which every calibration of the ladder moves (the row once kept an older
/// calibration's range).
#[test]
fn readme_states_the_uci_elo_range_the_engine_announces() {
    for file in ["README.md", "docs/protocols.md"] {
        let path = format!("{}/{file}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).expect("the document is readable");
        let row = text
            .lines()
            .find(|l| l.starts_with("| `UCI_Elo` |"))
            .unwrap_or_else(|| panic!("{file}'s option table has a UCI_Elo row"));
        let range = format!("({ELO_MIN}-{ELO_MAX}: rung 0 to full strength");
        assert!(
            row.contains(&range),
            "{file}: the row should say {range}: {row}"
        );
    }
}

#[test]
fn uci_announces_the_options_and_the_version() {
    let mut e = EngineProcess::start();
    e.send("uci");
    let lines = e.until_prefix("uciok");
    let name = format!("id name Jiangjun {} (", jiangjun::RELEASE);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with(&name) && l.ends_with(')')),
        "{lines:#?}"
    );
    let elo =
        format!("option name UCI_Elo type spin default {ELO_MIN} min {ELO_MIN} max {ELO_MAX}");
    for want in [
        "option name Skill Level type spin default 20 min 0 max 20",
        "option name UCI_LimitStrength type check default false",
        &elo,
        "option name UCI_AnalyseMode type check default false",
        "option name Debug Log File type string default <empty>",
        "option name nodestime type spin default 0 min 0 max 10000",
        "option name Random Seed type spin default 0 min 0 max 2147483647",
        "option name UCI_ShowWDL type check default false",
        &format!(
            "option name EvalFile type string default {}",
            eval_file_default()
        ),
    ] {
        assert!(lines.iter().any(|l| l == want), "missing {want}");
    }
    // UCCI's own options are not announced in UCI.
    assert!(!lines.iter().any(|l| l.contains("randomness")));
}

#[test]
fn ucci_announces_its_options_and_the_version() {
    let mut e = EngineProcess::start();
    e.send("ucci");
    let lines = e.until_prefix("ucciok");
    let name = format!("id name Jiangjun {} (", jiangjun::RELEASE);
    assert!(lines.iter().any(|l| l.starts_with(&name)), "{lines:#?}");
    let version = format!("id version {} (", jiangjun::RELEASE);
    assert!(lines.iter().any(|l| l.starts_with(&version)), "{lines:#?}");
    for want in [
        "option randomness type combo var none var tiny var small var medium var large var huge default none",
        "option pruning type combo var large var medium var small var none default large",
        "option knowledge type combo var large var medium var small var none default large",
        "option debuglogfile type string default <empty>",
        "option randomseed type spin min 0 max 2147483647 default 0",
        &format!(
            "option evalfile type string default {}",
            eval_file_default()
        ),
    ] {
        assert!(lines.iter().any(|l| l == want), "missing {want}");
    }
    assert!(!lines.iter().any(|l| l.contains("Skill Level")));
}

#[test]
fn bad_values_are_errors_and_keep_the_old_value() {
    let mut e = uci();
    e.send("setoption name Skill Level value 2");
    for bad in [
        "setoption name Skill Level value 21",
        "setoption name Skill Level value -1",
        "setoption name Skill Level value many",
        &format!("setoption name UCI_Elo value {}", ELO_MIN - 1),
        &format!("setoption name UCI_Elo value {}", ELO_MAX + 1),
        "setoption name UCI_LimitStrength value maybe",
        "setoption name UCI_AnalyseMode value 7",
        "setoption name nodestime value -1",
        "setoption name Random Seed value x",
    ] {
        e.send(bad);
        let lines = e.sync();
        assert_eq!(errors(&lines).len(), 1, "{bad}: {lines:#?}");
    }
    e.send(&format!("position fen {MATE_IN_3}"));
    // Still level 2: its rung's budget.
    let budget = RUNGS[rung_from_skill(2)].nodes;
    let lines = go(&mut e, "go depth 10");
    let nodes = lines.iter().filter_map(|l| field(l, "nodes")).max();
    assert!(nodes.is_some_and(|n| n <= budget as i64), "{lines:#?}");

    let mut e = ucci();
    for bad in [
        "setoption randomness wild",
        "setoption pruning tiny",
        "setoption knowledge",
    ] {
        e.send(bad);
        let lines = e.sync();
        assert_eq!(errors(&lines).len(), 1, "{bad}: {lines:#?}");
    }
}

#[test]
fn analyse_mode_plays_no_book_moves() {
    let mut e = uci();
    e.send("position startpos");
    let lines = go(&mut e, "go movetime 200");
    assert!(lines.iter().any(|l| l.starts_with("info string book move")));
    e.send("setoption name UCI_AnalyseMode value true");
    let lines = go(&mut e, "go movetime 200");
    assert!(!lines.iter().any(|l| l.contains("book move")), "{lines:#?}");
    assert!(lines.iter().any(|l| l.starts_with("info depth")));
    assert_legal_bestmove(lines.last().unwrap(), &Board::startpos());
    e.send("setoption name UCI_AnalyseMode value false");
    let lines = go(&mut e, "go movetime 200");
    assert!(lines.iter().any(|l| l.starts_with("info string book move")));
}

#[test]
fn debug_log_file_copies_both_directions() {
    let dir = std::env::temp_dir().join(format!("jj-log-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("debug.log");
    let _ = std::fs::remove_file(&path);
    let mut e = uci();
    e.send(&format!(
        "setoption name Debug Log File value {}",
        path.display()
    ));
    e.sync();
    e.send("position startpos moves h2e2 h9g7");
    let lines = go(&mut e, "go depth 3");
    e.send("setoption name Debug Log File value");
    e.sync();
    e.send("isready");
    e.until_prefix("readyok");
    let log = std::fs::read_to_string(&path).unwrap();
    let logged: Vec<&str> = log.lines().collect();
    assert_eq!(logged[0], ">> isready");
    assert_eq!(logged[1], "<< readyok");
    assert!(logged.contains(&">> position startpos moves h2e2 h9g7"));
    assert!(logged.contains(&">> go depth 3"));
    // Every line written while the log was open is in it, in order.
    let out: Vec<&str> = logged
        .iter()
        .filter_map(|l| l.strip_prefix("<< "))
        .collect();
    assert_eq!(
        &out[1..1 + lines.len()],
        &lines.iter().map(|s| s.as_str()).collect::<Vec<_>>()[..]
    );
    assert_eq!(
        logged.last(),
        Some(&">> setoption name Debug Log File value")
    );

    // A file that cannot be opened: an error, and the engine goes on.
    e.send(&format!(
        "setoption name Debug Log File value {}",
        dir.join("no/such/dir/x.log").display()
    ));
    let lines = e.sync();
    assert_eq!(errors(&lines).len(), 1, "{lines:#?}");
    assert!(lines[0].contains("debug log"), "{lines:#?}");
    e.send("position startpos moves h2e2");
    let lines = go(&mut e, "go depth 2");
    assert!(bestmove_of(lines.last().unwrap()).is_some());

    // UCCI's name for it.
    let path2 = dir.join("ucci.log");
    let mut e = ucci();
    e.send(&format!("setoption debuglogfile {}", path2.display()));
    e.sync();
    e.send("setoption debuglogfile <empty>");
    e.sync();
    let log = std::fs::read_to_string(&path2).unwrap();
    assert_eq!(
        log,
        ">> isready\n<< readyok\n>> setoption debuglogfile <empty>\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn nodestime_turns_the_clock_into_nodes() {
    let run = || {
        let mut e = uci();
        e.send("setoption name OwnBook value false");
        e.send("setoption name nodestime value 500");
        e.send(&format!("position fen {MIDDLEGAME}"));
        let lines = go(&mut e, "go wtime 10000 btime 10000");
        let nodes: Vec<i64> = lines
            .iter()
            .filter(|l| l.starts_with("info depth"))
            .filter_map(|l| field(l, "nodes"))
            .collect();
        (nodes, bestmove_of(lines.last().unwrap()))
    };
    let budget = allocate(
        &Clock {
            time: Some(10_000),
            ..Clock::default()
        },
        10,
    )
    .unwrap()
    .optimum
    .as_millis() as i64
        * 500;
    let (nodes, best) = run();
    let last = *nodes.last().expect("info lines");
    // The search stops on the node budget (checked every 1024 nodes); the
    // last complete iteration reported used part of it.
    assert!(last <= budget + 1024, "{last} > {budget}");
    assert!(last >= budget / 5, "{last} much below {budget}");
    // Counting nodes, not time: the same search again is the same search.
    assert_eq!(run(), (nodes, best));
}

#[test]
fn ucci_randomness_varies_the_search_only_when_asked() {
    let scores = |randomness: &str| {
        let mut e = ucci();
        e.send(&format!("setoption randomness {randomness}"));
        let mut out = Vec::new();
        for seed in 1..=4 {
            e.send(&format!("setoption randomseed {seed}"));
            e.send("setoption newgame");
            e.send(&format!("position fen {MIDDLEGAME}"));
            let lines = go(&mut e, "go depth 5");
            let score = lines
                .iter()
                .rev()
                .find(|l| l.starts_with("info depth"))
                .and_then(|l| field(l, "score"))
                .unwrap();
            out.push((score, bestmove_of(lines.last().unwrap())));
        }
        assert!(errors(&e.log).is_empty(), "{:#?}", e.log);
        out
    };
    let none = scores("none");
    assert!(none.windows(2).all(|w| w[0] == w[1]), "{none:?}");
    let huge = scores("huge");
    assert!(huge.windows(2).any(|w| w[0] != w[1]), "{huge:?}");
}

#[test]
fn ucci_pruning_none_and_knowledge_none_still_find_mates() {
    let mut e = ucci();
    e.send("setoption pruning none");
    e.send("setoption knowledge none");
    e.send(&format!("position fen {MATE_IN_3}"));
    let lines = go(&mut e, "go depth 7");
    assert_eq!(
        bestmove_of(lines.last().unwrap()).as_deref(),
        Some(MATE_MOVE)
    );
    assert!(errors(&e.log).is_empty(), "{:#?}", e.log);
}

#[test]
fn ucci_shows_wdl_when_asked() {
    for set in [
        "setoption UCI_ShowWDL true",
        "setoption name UCI_ShowWDL value true",
    ] {
        let mut e = ucci();
        e.send(&format!("position fen {MIDDLEGAME}"));
        let plain = go(&mut e, "go depth 3");
        assert!(!plain.iter().any(|l| l.contains(" wdl ")));
        e.send(set);
        let lines = go(&mut e, "go depth 3");
        let infos: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("info depth"))
            .collect();
        assert!(!infos.is_empty());
        for l in infos {
            let t: Vec<&str> = l.split_whitespace().collect();
            let i = t.iter().position(|&w| w == "wdl").expect("wdl");
            let sum: u32 = t[i + 1..i + 4]
                .iter()
                .map(|v| v.parse::<u32>().unwrap())
                .sum();
            assert_eq!(sum, 1000, "{l}");
            assert!(l.contains(" pv "), "{l}");
        }
        assert!(errors(&e.log).is_empty(), "{:#?}", e.log);
    }
}

/// `eval`'s numbers: the side-to-move value of the `final evaluation`
/// line, and whether a `network evaluation` line came before it.
fn eval_of(e: &mut EngineProcess) -> (i32, bool) {
    e.send("eval");
    let lines = e.until_prefix("final evaluation");
    let last = lines.last().unwrap();
    let stm = last
        .split_once(", ")
        .and_then(|(_, s)| s.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no side-to-move score in {last}"));
    let network = lines.iter().any(|l| l.starts_with("network evaluation"));
    (stm, network)
}

/// `setoption` and the lines it prints (up to `readyok`).
fn set(e: &mut EngineProcess, line: &str) -> Vec<String> {
    e.send(line);
    e.sync()
}

/// The position the sessions below evaluate and search, Black to move.
const EVAL_FEN: &str = "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R b - - 4 3";

/// `setoption name EvalFile`: a missing, garbage, truncated or other-version
/// file (or a directory) is an `info string error` with the reason, and the evaluation in
/// force stays (the engine keeps answering); a valid network file is
/// confirmed with its path and size and then evaluates (`eval` shows it
/// beside the hand-made evaluation, and searches use it); `none` and `hce`
/// go back to the hand-made evaluation, an empty value to the default one.
#[test]
fn uci_eval_file_loads_networks_and_reports_bad_files() {
    let board = Board::from_fen(EVAL_FEN).unwrap();
    let hand_made = evaluate(&Position::new(board.clone()));
    let net = Network::random(1);
    let bytes = net.to_bytes();
    let with_net = Position::with_network(board.clone(), Some(Arc::new(net))).evaluate();
    assert_ne!(with_net, hand_made);
    let mut other_version = bytes.clone();
    other_version[8..10].copy_from_slice(&7u16.to_le_bytes());
    let garbage = scratch_file(
        "uci-garbage.nnue",
        b"this is not a network file at all, but long enough to have a header",
    );
    let truncated = scratch_file("uci-truncated.nnue", &bytes[..bytes.len() / 2]);
    let version = scratch_file("uci-version.nnue", &other_version);
    let valid = scratch_file("uci-valid.nnue", &bytes);

    let mut e = uci();
    e.send(&format!("position fen {EVAL_FEN}"));
    // From the hand-made evaluation (the default unless a net is built in).
    let lines = set(&mut e, "setoption name EvalFile value hce");
    assert_eq!(lines, vec!["info string hand-made evaluation, no network"]);
    let bad = [
        (PathBuf::from("/nonexistent/net.nnue"), "cannot access"),
        (
            PathBuf::from(env!("CARGO_TARGET_TMPDIR")),
            "not a regular file",
        ),
        (garbage, "not a Jiangjun network file"),
        (truncated, "truncated"),
        (version, "version 7"),
    ];
    for (path, reason) in &bad {
        let lines = set(
            &mut e,
            &format!("setoption name EvalFile value {}", path.display()),
        );
        let errs = errors(&lines);
        assert_eq!(errs.len(), 1, "{lines:#?}");
        assert!(
            errs[0].contains(reason) && errs[0].contains("keeping the hand-made evaluation"),
            "{lines:#?}"
        );
        assert_eq!(eval_of(&mut e), (hand_made, false));
        let answer = go(&mut e, "go depth 3");
        assert_legal_bestmove(answer.last().unwrap(), &board);
    }

    let lines = set(
        &mut e,
        &format!("setoption name EvalFile value {}", valid.display()),
    );
    let want = format!(
        "info string NNUE evaluation using {} ({} bytes)",
        valid.display(),
        bytes.len()
    );
    assert_eq!(lines, vec![want]);
    assert_eq!(eval_of(&mut e), (with_net, true));
    e.send("eval");
    let lines = e.until_prefix("final evaluation");
    assert!(
        lines.iter().any(|l| l.starts_with("hand-made evaluation")
            && l.ends_with(&format!(", {hand_made} (side to move)"))),
        "{lines:#?}"
    );
    let answer = go(&mut e, "go depth 3");
    assert_legal_bestmove(answer.last().unwrap(), &board);

    // A bad file now keeps the network.
    let lines = set(
        &mut e,
        "setoption name EvalFile value /nonexistent/net.nnue",
    );
    let errs = errors(&lines);
    assert!(
        errs.len() == 1 && errs[0].contains(&format!("keeping the network {}", valid.display())),
        "{lines:#?}"
    );
    assert_eq!(eval_of(&mut e), (with_net, true));

    let (default_answer, default_eval) = default_evaluation(&board);
    for empty in [
        "setoption name EvalFile value <empty>",
        "setoption name EvalFile value",
    ] {
        let lines = set(&mut e, empty);
        assert_eq!(lines, vec![default_answer.clone()]);
        assert_eq!(eval_of(&mut e), default_eval);
        set(
            &mut e,
            &format!("setoption name EvalFile value {}", valid.display()),
        );
    }
    for hand in ["none", "HCE"] {
        let lines = set(&mut e, &format!("setoption name EvalFile value {hand}"));
        assert_eq!(lines, vec!["info string hand-made evaluation, no network"]);
        assert_eq!(eval_of(&mut e), (hand_made, false));
        set(
            &mut e,
            &format!("setoption name EvalFile value {}", valid.display()),
        );
    }
}

/// What the default evaluation answers to `setoption` (empty `EvalFile`),
/// and its `eval` numbers (see `eval_of`) for `board`: the built-in
/// network, or the hand-made evaluation when none is built in.
fn default_evaluation(board: &Board) -> (String, (i32, bool)) {
    match EMBEDDED_NETWORK {
        Some(bytes) => (
            format!(
                "info string NNUE evaluation using the built-in network ({} bytes)",
                bytes.len()
            ),
            (
                Position::with_network(board.clone(), default_network()).evaluate(),
                true,
            ),
        ),
        None => (
            "info string hand-made evaluation, no network".to_string(),
            (evaluate(&Position::new(board.clone())), false),
        ),
    }
}

/// The same in UCCI: `setoption evalfile <path>`, and `go depth 0` (the
/// static score) follows the evaluation in force.
#[test]
fn ucci_evalfile_loads_networks_and_reports_bad_files() {
    let board = Board::from_fen(EVAL_FEN).unwrap();
    let hand_made = evaluate(&Position::new(board.clone()));
    let net = Network::random(1);
    let bytes = net.to_bytes();
    let with_net = Position::with_network(board.clone(), Some(Arc::new(net))).evaluate();
    let garbage = scratch_file("ucci-garbage.nnue", &[0xA5; 100]);
    let valid = scratch_file("ucci-valid.nnue", &bytes);

    let mut e = ucci();
    e.send(&format!("position fen {EVAL_FEN}"));
    let lines = set(&mut e, "setoption evalfile none");
    assert_eq!(lines, vec!["info string hand-made evaluation, no network"]);
    for path in [PathBuf::from("/nonexistent/net.nnue"), garbage] {
        let lines = set(&mut e, &format!("setoption evalfile {}", path.display()));
        let errs = errors(&lines);
        assert!(
            errs.len() == 1 && errs[0].contains("keeping the hand-made evaluation"),
            "{lines:#?}"
        );
        assert_eq!(eval_of(&mut e), (hand_made, false));
    }
    let answer = go(&mut e, "go depth 3");
    assert_legal_bestmove(answer.last().unwrap(), &board);

    let lines = set(&mut e, &format!("setoption evalfile {}", valid.display()));
    assert_eq!(
        lines,
        vec![format!(
            "info string NNUE evaluation using {} ({} bytes)",
            valid.display(),
            bytes.len()
        )]
    );
    assert_eq!(eval_of(&mut e), (with_net, true));
    let static_score = |e: &mut EngineProcess| {
        let lines = go(e, "go depth 0");
        let line = lines
            .iter()
            .find(|l| l.starts_with("info depth 0"))
            .unwrap();
        field(line, "score").unwrap()
    };
    // UCCI keeps plain scores within ±9799.
    assert_eq!(static_score(&mut e), with_net.clamp(-9799, 9799) as i64);
    let answer = go(&mut e, "go depth 3");
    assert_legal_bestmove(answer.last().unwrap(), &board);

    let lines = set(&mut e, "setoption evalfile hce");
    assert_eq!(lines, vec!["info string hand-made evaluation, no network"]);
    assert_eq!(eval_of(&mut e), (hand_made, false));
    assert_eq!(static_score(&mut e), hand_made as i64);
    let (default_answer, default_eval) = default_evaluation(&board);
    let lines = set(&mut e, "setoption evalfile <empty>");
    assert_eq!(lines, vec![default_answer]);
    assert_eq!(eval_of(&mut e), default_eval);
    assert_eq!(
        static_score(&mut e),
        default_eval.0.clamp(-9799, 9799) as i64
    );
}

/// `<built-in>` in both dialects. With a network built in, it is the
/// default: a fresh engine evaluates with it, `<built-in>` selects it
/// again, and a bad file is an error that keeps it. Without one (today),
/// `<built-in>` is an error naming the cause that keeps the evaluation in
/// force, be it the hand-made one or a network file's.
#[test]
fn eval_file_built_in_network() {
    let board = Board::from_fen(EVAL_FEN).unwrap();
    let hand_made = (evaluate(&Position::new(board.clone())), false);
    let (default_answer, default_eval) = default_evaluation(&board);
    let net = Network::random(2);
    let with_net = (
        Position::with_network(board.clone(), Some(Arc::new(net.clone()))).evaluate(),
        true,
    );
    let valid = scratch_file("builtin-valid.nnue", &net.to_bytes());
    let garbage = scratch_file("builtin-garbage.nnue", b"not a network");
    for (mut e, setoption) in [
        (uci(), "setoption name EvalFile value"),
        (ucci(), "setoption evalfile"),
    ] {
        e.send(&format!("position fen {EVAL_FEN}"));
        assert_eq!(eval_of(&mut e), default_eval);
        // A bad file keeps the default evaluation.
        let lines = set(&mut e, &format!("{setoption} {}", garbage.display()));
        let errs = errors(&lines);
        let kept = if EMBEDDED_NETWORK.is_some() {
            "keeping the built-in network"
        } else {
            "keeping the hand-made evaluation"
        };
        assert!(
            // Named for what it is (a text file), not measured as a short network.
            errs.len() == 1 && errs[0].contains("this is a text file starting \"not a network\""),
            "{lines:#?}"
        );
        assert!(errs[0].ends_with(kept), "{lines:#?}");
        assert_eq!(eval_of(&mut e), default_eval);

        let lines = set(&mut e, &format!("{setoption} {}", valid.display()));
        assert!(errors(&lines).is_empty(), "{lines:#?}");
        assert_eq!(eval_of(&mut e), with_net);
        let lines = set(&mut e, &format!("{setoption} <built-in>"));
        if EMBEDDED_NETWORK.is_some() {
            assert_eq!(lines, vec![default_answer.clone()]);
            assert_eq!(eval_of(&mut e), default_eval);
            // The hand-made evaluation, then the built-in network again.
            let lines = set(&mut e, &format!("{setoption} hce"));
            assert_eq!(lines, vec!["info string hand-made evaluation, no network"]);
            assert_eq!(eval_of(&mut e), hand_made);
            let lines = set(&mut e, &format!("{setoption} <Built-In>"));
            assert_eq!(lines, vec![default_answer.clone()]);
            assert_eq!(eval_of(&mut e), default_eval);
        } else {
            let errs = errors(&lines);
            assert_eq!(errs.len(), 1, "{lines:#?}");
            assert!(
                errs[0].contains("no network is built into this binary")
                    && errs[0].ends_with(&format!("keeping the network {}", valid.display())),
                "{lines:#?}"
            );
            assert_eq!(eval_of(&mut e), with_net);
            let lines = set(&mut e, &format!("{setoption} hce"));
            assert_eq!(lines, vec!["info string hand-made evaluation, no network"]);
            let lines = set(&mut e, &format!("{setoption} <built-in>"));
            let errs = errors(&lines);
            assert!(
                errs.len() == 1 && errs[0].ends_with("keeping the hand-made evaluation"),
                "{lines:#?}"
            );
            assert_eq!(eval_of(&mut e), hand_made);
        }
        let answer = go(&mut e, "go depth 3");
        assert_legal_bestmove(answer.last().unwrap(), &board);
    }
}

/// A path in a GUI's own encoding (here GBK, as a Chinese GUI on Windows
/// writes it: not UTF-8) names the file of exactly those bytes, for the
/// debug log and a network file as for a book (`tests/protocol_books.rs`).
#[cfg(unix)]
#[test]
fn file_options_take_the_path_bytes_sent() {
    use std::os::unix::ffi::OsStrExt;
    let gbk = std::ffi::OsStr::from_bytes(b"\xcf\xf3\xc6\xe5 \xca\xe9\xbf\xe2");
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("gbk-{}", std::process::id()))
        .join(gbk);
    std::fs::create_dir_all(&dir).unwrap();
    let net = dir.join("net.nnue");
    std::fs::copy(common::builtin_net_file(), &net).unwrap();
    let log = dir.join("log.txt");
    let line =
        |set: &str, path: &PathBuf| [set.as_bytes(), path.as_os_str().as_bytes(), b"\n"].concat();
    let mut e = ucci();
    e.send_raw(&line("setoption debuglogfile ", &log));
    e.send_raw(&line("setoption evalfile ", &net));
    let answers = e.sync();
    assert_eq!(answers.len(), 1, "{answers:#?}");
    let size = std::fs::metadata(&net).unwrap().len();
    assert!(
        answers[0].starts_with("info string NNUE evaluation using ")
            && answers[0].ends_with(&format!(" ({size} bytes)")),
        "{answers:#?}"
    );
    let logged = std::fs::read_to_string(&log).unwrap();
    assert!(
        logged.contains("<< info string NNUE evaluation using "),
        "{logged}"
    );
    let _ = std::fs::remove_dir_all(dir.parent().unwrap());
}
