//! `jiangjun match` end to end: a short self-play match (PGN and summary
//! checked); engines that play illegal moves, crash, hang or overstep their
//! time lose those games while the match goes on; a stopped match resumes
//! from its PGN; pondering; options that change between games.

// Test code: a failed unwrap is a failed test, reported with its line.
#![allow(clippy::unwrap_used)]

mod common;

use common::pgn::{PgnGame, parse_pgn};
use common::scratch_dir;
use std::process::Command;
use xiangqi::board::Board;

const BIN: &str = env!("CARGO_BIN_EXE_jiangjun");

fn fake(mode: &str) -> String {
    format!(
        "name=Fake-{mode},cmd=python3,arg={}/tests/clients/fake_engine.py,arg={mode},proto=uci",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn run_match(args: &[&str]) -> (String, String) {
    let out = Command::new(BIN)
        .arg("match")
        .args(args)
        .arg("--quiet")
        .output()
        .expect("run");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "match failed:\n{stdout}\n{stderr}");
    (stdout, stderr)
}

/// (wins, draws, losses) from the summary.
fn wdl(summary: &str) -> (u64, u64, u64) {
    let line = summary
        .lines()
        .find(|l| l.starts_with("W "))
        .expect("W/D/L line");
    let t: Vec<&str> = line.split_whitespace().collect();
    (
        t[1].parse().unwrap(),
        t[3].parse().unwrap(),
        t[5].parse().unwrap(),
    )
}

#[test]
fn self_play_match_writes_pgn_and_summary() {
    let dir = scratch_dir("match-self-play");
    let pgn = dir.join("games.pgn");
    let openings = common::shared_dir().join("data/openings/openings.epd");
    let mut args = vec![
        "--engine".to_string(),
        format!("name=UCI,cmd={BIN},proto=uci"),
        "--engine".to_string(),
        format!("name=UCCI,cmd={BIN},proto=ucci,option.hashsize=8"),
        "--games".into(),
        "8".into(),
        "--tc".into(),
        "nodes=3000".into(),
        "--concurrency".into(),
        "2".into(),
        "--pgn".into(),
        pgn.to_string_lossy().to_string(),
        "--sprt".into(),
        "elo0=0,elo1=10".into(),
    ];
    if openings.exists() {
        args.push("--openings".into());
        args.push(openings.to_string_lossy().to_string());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (summary, _) = run_match(&args);
    let (w, d, l) = wdl(&summary);
    assert_eq!(w + d + l, 8, "{summary}");
    assert!(summary.contains("Elo "), "{summary}");
    assert!(summary.contains("LOS "), "{summary}");
    assert!(
        summary.contains("Pentanomial [LL LD WL+DD WD WW]"),
        "{summary}"
    );
    assert!(
        summary.contains("SPRT (Normalized, elo0 0, elo1 10"),
        "{summary}"
    );
    let text = std::fs::read_to_string(&pgn).unwrap();
    let games = parse_pgn(&text);
    assert_eq!(games.len(), 8, "{text}");
    let mut red_points = 0.0;
    for g in &games {
        for tag in [
            "Event",
            "Date",
            "Round",
            "White",
            "Black",
            "Result",
            "FEN",
            "SetUp",
            "TimeControl",
            "Termination",
            "Variant",
        ] {
            assert!(g.tags.contains_key(tag), "missing {tag}: {:?}", g.tags);
        }
        assert_eq!(g.tags["TimeControl"], "nodes=3000");
        assert_eq!(g.tags["SetUp"], "1");
        // Every recorded move is legal, replayed from the FEN.
        let mut b = Board::from_fen(&g.tags["FEN"]).unwrap();
        for m in &g.moves {
            let mv = b.parse_move(m).unwrap_or_else(|e| panic!("{e}"));
            b.make_move(mv);
        }
        assert_eq!(g.moves.len().to_string(), g.tags["PlyCount"]);
        // The result agrees with the rules where the game ended normally.
        let result = g.tags["Result"].as_str();
        assert!(["1-0", "0-1", "1/2-1/2"].contains(&result), "{result}");
        if g.tags["Termination"] == "normal" && !g.reason.contains("resigns") {
            let verdict = xiangqi::rules::judge(&b, 3);
            assert_ne!(verdict, xiangqi::rules::Outcome::Ongoing);
        }
        red_points += match result {
            "1-0" => 1.0,
            "1/2-1/2" => 0.5,
            _ => 0.0,
        };
    }
    // Each engine played Red in half of the games.
    let uci_red = games.iter().filter(|g| g.tags["White"] == "UCI").count();
    assert_eq!(uci_red, 4);
    assert!(red_points <= 8.0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn misbehaving_engines_lose_and_the_match_goes_on() {
    if !common::python3_available() {
        return common::skip("python3 is needed for the fake engines");
    }
    let me = format!("name=Jiangjun,cmd={BIN},proto=uci");
    for (mode, tc, hang_timeout, ending) in [
        ("illegal", "nodes=1000", "1", "illegal move"),
        ("crash", "nodes=1000", "1", "crashed"),
        ("hang", "depth=2", "1", "hung"),
        ("hang", "0.5+0", "1", "hung"),
        // It answers `stop` late, within the grace: a loss on time.
        ("slow", "st=0.2", "60", "lost on time"),
        ("nomove", "nodes=1000", "1", "gave no move"),
    ] {
        let (summary, _) = run_match(&[
            "--engine",
            &me,
            "--engine",
            &fake(mode),
            "--games",
            "4",
            "--tc",
            tc,
            "--hang-timeout",
            hang_timeout,
        ]);
        let (w, d, l) = wdl(&summary);
        assert_eq!((w, d, l), (4, 0, 0), "{mode}: {summary}");
        assert!(
            summary.contains(&format!("{ending}: 4")),
            "{mode}: {summary}"
        );
        // Every game won: no Elo and no interval can be computed, and the
        // summary says so rather than `+3600.0 +/- 0.0`.
        assert!(
            summary.contains("Elo +inf (every game won, 4 games: no estimate or interval)")
                && !summary.contains("+/- 0.0"),
            "{mode}: {summary}"
        );
    }
}

#[test]
fn sprt_stops_the_match_early() {
    if !common::python3_available() {
        return common::skip("python3 is needed for the fake engines");
    }
    let me = format!("name=Jiangjun,cmd={BIN},proto=uci");
    let (summary, _) = run_match(&[
        "--engine",
        &me,
        "--engine",
        &fake("illegal"),
        "--games",
        "400",
        "--tc",
        "nodes=500",
        "--sprt",
        "elo0=0,elo1=50",
    ]);
    let (w, d, l) = wdl(&summary);
    assert!(w + d + l < 400, "{summary}");
    assert!(summary.contains("H1 accepted"), "{summary}");
}

fn proxy_script() -> String {
    format!(
        "{}/tests/clients/proxy_engine.py",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// An engine spec for Jiangjun behind the proxy script, which logs its
/// input to `log` and takes `proxy_args`; `extra` is added to the spec.
fn proxied(
    name: &str,
    proto: &str,
    log: &std::path::Path,
    proxy_args: &[&str],
    extra: &str,
) -> String {
    let mut spec = format!(
        "name={name},cmd=python3,arg={},arg=--log,arg={}",
        proxy_script(),
        log.display()
    );
    for a in proxy_args {
        spec.push_str(&format!(",arg={a}"));
    }
    spec.push_str(&format!(",arg=--,arg={BIN},proto={proto}"));
    if !extra.is_empty() {
        spec.push(',');
        spec.push_str(extra);
    }
    spec
}

/// Every move of the game is legal, replayed from its FEN.
fn assert_legal(g: &PgnGame) {
    let mut b = Board::from_fen(&g.tags["FEN"]).unwrap();
    for m in &g.moves {
        let mv = b
            .parse_move(m)
            .unwrap_or_else(|e| panic!("round {}: {m}: {e}", g.tags["Round"]));
        b.make_move(mv);
    }
}

fn rounds(games: &[PgnGame]) -> Vec<usize> {
    let mut r: Vec<usize> = games
        .iter()
        .map(|g| g.tags["Round"].parse().unwrap())
        .collect();
    r.sort();
    r
}

/// The PGN text of each game, in file order.
fn pgn_blocks(text: &str) -> Vec<String> {
    let mut blocks: Vec<String> = Vec::new();
    for line in text.split_inclusive('\n') {
        if line.starts_with("[Event ") {
            blocks.push(String::new());
        }
        if let Some(b) = blocks.last_mut() {
            b.push_str(line);
        }
    }
    blocks
}

#[test]
fn resume_counts_the_pgn_and_plays_only_the_missing_games() {
    if !common::python3_available() {
        return common::skip("python3 is needed for the fake engines");
    }
    let dir = scratch_dir("match-resume");
    let pgn = dir.join("games.pgn");
    let pgn_arg = pgn.to_string_lossy().to_string();
    let log = dir.join("a.log");
    // Jiangjun against an engine that plays an illegal move: A wins all.
    let a = proxied("A", "uci", &log, &[], "");
    let b_illegal = format!(
        "name=B,cmd=python3,arg={}/tests/clients/fake_engine.py,arg=illegal,proto=uci",
        env!("CARGO_MANIFEST_DIR")
    );
    let args = ["--games", "6", "--tc", "nodes=500", "--pgn", &pgn_arg];
    let (summary, _) = run_match(&[&["--engine", &a, "--engine", &b_illegal][..], &args].concat());
    assert!(summary.contains("illegal move: 6"), "{summary}");
    // Stopped after games 1, 2, 4 and 5 (out of order) and while writing
    // game 6; game 3 was not finished.
    let text = std::fs::read_to_string(&pgn).unwrap();
    let blocks = pgn_blocks(&text);
    assert_eq!(blocks.len(), 6);
    let by_round = |r: usize| {
        blocks
            .iter()
            .find(|b| b.contains(&format!("[Round \"{r}\"]")))
            .unwrap()
            .clone()
    };
    let six = by_round(6);
    let cut = format!(
        "{}{}{}{}{}",
        by_round(2),
        by_round(1),
        by_round(5),
        by_round(4),
        &six[..six.len() - 12]
    );
    std::fs::write(&pgn, cut).unwrap();
    std::fs::write(&log, "").unwrap();
    // The same match resumed; B now gives no move, to tell the games apart.
    let b_nomove = b_illegal.replace("arg=illegal", "arg=nomove");
    let (summary, stderr) = run_match(
        &[
            &["--engine", &a, "--engine", &b_nomove, "--resume"][..],
            &args,
        ]
        .concat(),
    );
    assert!(stderr.contains("cut short"), "{stderr}");
    assert_eq!(wdl(&summary), (6, 0, 0), "{summary}");
    assert!(
        summary.contains("4 of them from the PGN resumed"),
        "{summary}"
    );
    assert!(summary.contains("illegal move: 4;"), "{summary}");
    assert!(summary.contains("gave no move: 2;"), "{summary}");
    // Pairs (1, 2) and (4, 5) from the PGN, (3, 4) and (5, 6) completed.
    assert!(summary.contains("= [0 0 0 0 3] over 3 pairs"), "{summary}");
    let sent = std::fs::read_to_string(&log).unwrap();
    assert_eq!(
        sent.lines().filter(|l| *l == "ucinewgame").count(),
        2,
        "{sent}"
    );
    let games = parse_pgn(&std::fs::read_to_string(&pgn).unwrap());
    assert_eq!(rounds(&games), [1, 2, 3, 4, 5, 6]);
    for g in &games {
        let r: usize = g.tags["Round"].parse().unwrap();
        let a_red = r % 2 == 1;
        assert_eq!(g.tags["White"], if a_red { "A" } else { "B" });
        assert_eq!(g.tags["Result"], if a_red { "1-0" } else { "0-1" });
        let want = if [3, 6].contains(&r) {
            "gave no move"
        } else {
            "illegal move"
        };
        assert!(g.reason.contains(want), "{r}: {}", g.reason);
        assert_legal(g);
    }
    // Resuming a finished match plays nothing and counts the same.
    let (again, _) = run_match(
        &[
            &["--engine", &a, "--engine", &b_nomove, "--resume"][..],
            &args,
        ]
        .concat(),
    );
    assert_eq!(wdl(&again), (6, 0, 0), "{again}");
    assert!(again.contains("6 of them from the PGN resumed"), "{again}");
    assert_eq!(parse_pgn(&std::fs::read_to_string(&pgn).unwrap()).len(), 6);
    // Another match's PGN is refused.
    let other = format!("name=C,cmd={BIN},proto=uci");
    let out = Command::new(BIN)
        .arg("match")
        .args(["--engine", &a, "--engine", &other, "--resume", "--quiet"])
        .args(args)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot resume: game "), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_killed_match_loses_no_game() {
    let dir = scratch_dir("match-killed");
    let pgn = dir.join("games.pgn");
    let pgn_arg = pgn.to_string_lossy().to_string();
    let openings = common::shared_dir().join("data/openings/openings.epd");
    let mut args: Vec<String> = [
        "--engine",
        &format!("name=UCI,cmd={BIN},proto=uci"),
        "--engine",
        &format!("name=UCCI,cmd={BIN},proto=ucci"),
        "--games",
        "6",
        "--tc",
        "nodes=2000",
        "--concurrency",
        "2",
        "--pgn",
        &pgn_arg,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    if openings.exists() {
        args.push("--openings".into());
        args.push(openings.to_string_lossy().to_string());
    }
    let mut child = Command::new(BIN)
        .arg("match")
        .args(&args)
        .arg("--quiet")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    let finished = loop {
        let n = std::fs::read_to_string(&pgn).map_or(0, |t| parse_pgn(&t).len());
        if n >= 2 || std::time::Instant::now() > deadline {
            break n;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(finished >= 2);
    let before = parse_pgn(&std::fs::read_to_string(&pgn).unwrap());
    let kept = rounds(&before);
    args.push("--resume".into());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (summary, _) = run_match(&args);
    let (w, d, l) = wdl(&summary);
    assert_eq!(w + d + l, 6, "{summary}");
    assert!(
        summary.contains(&format!("{} of them from the PGN resumed", kept.len())),
        "{summary}"
    );
    let games = parse_pgn(&std::fs::read_to_string(&pgn).unwrap());
    assert_eq!(rounds(&games), [1, 2, 3, 4, 5, 6]);
    // The games played before the kill are the same games.
    for g in &before {
        let same = games
            .iter()
            .find(|h| h.tags["Round"] == g.tags["Round"])
            .unwrap();
        assert_eq!(same.moves, g.moves);
    }
    for g in &games {
        assert_legal(g);
        let r: usize = g.tags["Round"].parse().unwrap();
        assert_eq!(g.tags["White"], if r % 2 == 1 { "UCI" } else { "UCCI" });
        if openings.exists() {
            // A pair of games per opening, in order.
            assert_eq!(g.tags["OpeningIndex"], ((r - 1) / 2 + 1).to_string());
        } else {
            // Without the openings file the start position is the one
            // opening, of every game.
            assert_eq!(g.tags["OpeningIndex"], "1", "{:?}", g.tags);
            assert_eq!(g.tags["FEN"], xiangqi::START_FEN);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_engine_that_crashes_or_hangs_mid_game_forfeits_and_is_restarted() {
    if !common::python3_available() {
        return common::skip("python3 is needed for the proxy");
    }
    for (mode, tc, ending) in [
        (
            "--crash-at",
            "nodes=1000",
            "A crashed while thinking: exited",
        ),
        // Node limits: no other game is lost on time on a loaded machine.
        (
            "--hang-at",
            "nodes=1000",
            "A hung while thinking (no answer to stop)",
        ),
    ] {
        let dir = scratch_dir(&format!("match-{}", &mode[2..]));
        let pgn = dir.join("games.pgn");
        let log = dir.join("a.log");
        let counter = dir.join("count");
        // The 8th search of A, counted over its processes: in game 1 or 2.
        let a = proxied(
            "A",
            "uci",
            &log,
            &["--counter", &counter.to_string_lossy(), mode, "8"],
            "",
        );
        let b = format!("name=B,cmd={BIN},proto=ucci");
        let (summary, _) = run_match(&[
            "--engine",
            &a,
            "--engine",
            &b,
            "--games",
            "4",
            "--tc",
            tc,
            "--hang-timeout",
            "1",
            "--pgn",
            &pgn.to_string_lossy(),
        ]);
        let (w, d, l) = wdl(&summary);
        assert_eq!(w + d + l, 4, "{mode}: {summary}");
        let games = parse_pgn(&std::fs::read_to_string(&pgn).unwrap());
        assert_eq!(rounds(&games), [1, 2, 3, 4]);
        let failed: Vec<&PgnGame> = games.iter().filter(|g| g.reason.contains(ending)).collect();
        assert_eq!(failed.len(), 1, "{mode}: {summary}");
        let g = failed[0];
        assert_eq!(g.tags["Termination"], "abandoned");
        let a_red = g.tags["White"] == "A";
        assert_eq!(g.tags["Result"], if a_red { "0-1" } else { "1-0" });
        // The other games were played out by the restarted engine.
        for g in &games {
            assert_legal(g);
            if !g.reason.contains(ending) {
                assert!(
                    ["normal", "adjudication"].contains(&g.tags["Termination"].as_str()),
                    "{mode}: {}",
                    g.reason
                );
                assert!(g.moves.len() >= 10, "{mode}: {}", g.reason);
            }
        }
        // A was started three times: the check before the match, the first
        // game, and again after the failure.
        let sent = std::fs::read_to_string(&log).unwrap();
        assert_eq!(sent.lines().filter(|l| *l == "uci").count(), 3, "{mode}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn pondering_games_end_cleanly_in_uci_and_ucci() {
    if !common::python3_available() {
        return common::skip("python3 is needed for the proxy");
    }
    let dir = scratch_dir("match-ponder");
    let pgn = dir.join("games.pgn");
    let (log_a, log_b) = (dir.join("a.log"), dir.join("b.log"));
    let a = proxied("A", "uci", &log_a, &[], "ponder=on");
    let b = proxied("B", "ucci", &log_b, &[], "ponder=on");
    let (summary, _) = run_match(&[
        "--engine",
        &a,
        "--engine",
        &b,
        "--games",
        "2",
        "--tc",
        "1+0.1",
        // Leeway for a loaded machine: the two engines search at once, with
        // the other tests' engines, and the proxies add latency. An engine
        // that does not answer after `ponderhit` still loses.
        "--tolerance-ms",
        "1000",
        "--pgn",
        &pgn.to_string_lossy(),
    ]);
    for bad in ["illegal", "lost on time", "crashed", "hung", "gave no move"] {
        assert!(!summary.contains(bad), "{summary}");
    }
    let games = parse_pgn(&std::fs::read_to_string(&pgn).unwrap());
    assert_eq!(games.len(), 2);
    for g in &games {
        assert_legal(g);
        assert!(g.moves.len() >= 10, "{}", g.reason);
    }
    let a_sent = std::fs::read_to_string(&log_a).unwrap();
    let b_sent = std::fs::read_to_string(&log_b).unwrap();
    assert!(a_sent.contains("setoption name Ponder value true"));
    assert!(b_sent.contains("setoption ponder true"));
    for (sent, go) in [(&a_sent, "go ponder wtime "), (&b_sent, "go ponder time ")] {
        let lines: Vec<&str> = sent.lines().collect();
        assert!(lines.iter().any(|l| l.starts_with(go)), "{sent}");
        assert!(lines.contains(&"ponderhit"), "{sent}");
        // A miss is stopped, and a new search follows.
        for (i, l) in lines.iter().enumerate() {
            if *l == "stop" && lines[i - 1].starts_with("go ponder") {
                assert_eq!(lines[i + 1], "isready");
            }
        }
        // After each ponder search comes ponderhit or stop, or nothing if
        // it answered early (then `isready` on a miss or at the end, or the
        // next ponder search on a hit).
        for (i, l) in lines.iter().enumerate() {
            if l.starts_with("go ponder") {
                let next = lines[i + 1];
                assert!(
                    ["ponderhit", "stop", "isready", "quit"].contains(&next)
                        || next.starts_with("position"),
                    "{next} after {l}"
                );
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn options_change_between_games() {
    if !common::python3_available() {
        return common::skip("python3 is needed for the proxy");
    }
    let dir = scratch_dir("match-vary");
    let pgn = dir.join("games.pgn");
    let (log_a, log_b) = (dir.join("a.log"), dir.join("b.log"));
    let a = proxied(
        "A",
        "uci",
        &log_a,
        &[],
        "option.Hash=16|32|64,option.Threads=1|2,option.MultiPV=1",
    );
    let b = proxied(
        "B",
        "ucci",
        &log_b,
        &[],
        "option.hashsize=8|16,option.threads=1|2",
    );
    run_match(&[
        "--engine",
        &a,
        "--engine",
        &b,
        "--games",
        "4",
        "--tc",
        "nodes=300",
        "--pgn",
        &pgn.to_string_lossy(),
    ]);
    // What the engine playing the games was sent (after the check at start).
    let setup = |log: &std::path::Path, hello: &str| -> Vec<String> {
        let text = std::fs::read_to_string(log).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let last_start = lines.iter().rposition(|l| *l == hello).unwrap();
        lines[last_start..]
            .iter()
            .filter(|l| l.starts_with("setoption") || **l == "ucinewgame")
            .map(|l| l.to_string())
            .collect()
    };
    assert_eq!(
        setup(&log_a, "uci"),
        [
            "setoption name UCI_Variant value xiangqi",
            "setoption name MultiPV value 1",
            "setoption name Hash value 16",
            "setoption name Threads value 1",
            "ucinewgame",
            "setoption name Hash value 32",
            "ucinewgame",
            "setoption name Hash value 64",
            "ucinewgame",
            "setoption name Hash value 16",
            "setoption name Threads value 2",
            "ucinewgame",
        ]
    );
    assert_eq!(
        setup(&log_b, "ucci"),
        [
            "setoption usemillisec true",
            "setoption hashsize 8",
            "setoption threads 1",
            "setoption newgame",
            "setoption hashsize 16",
            "setoption newgame",
            "setoption hashsize 8",
            "setoption threads 2",
            "setoption newgame",
            "setoption hashsize 16",
            "setoption newgame",
        ]
    );
    // The PGN says which options each game had.
    let games = parse_pgn(&std::fs::read_to_string(&pgn).unwrap());
    for g in &games {
        let r: usize = g.tags["Round"].parse().unwrap();
        let a_opts = [
            "Hash=16 Threads=1",
            "Hash=32 Threads=1",
            "Hash=64 Threads=1",
            "Hash=16 Threads=2",
        ];
        let b_opts = [
            "hashsize=8 threads=1",
            "hashsize=16 threads=1",
            "hashsize=8 threads=2",
            "hashsize=16 threads=2",
        ];
        let (red, black) = if r % 2 == 1 {
            (a_opts[r - 1], b_opts[r - 1])
        } else {
            (b_opts[r - 1], a_opts[r - 1])
        };
        assert_eq!(g.tags["WhiteOptions"], red, "{r}");
        assert_eq!(g.tags["BlackOptions"], black, "{r}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
