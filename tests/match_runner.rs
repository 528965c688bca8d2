//! `jiangjun match` end to end: a short self-play match (PGN and summary
//! checked), and engines that play illegal moves, crash, hang or overstep
//! their time lose those games while the match goes on.

mod common;

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

struct PgnGame {
    tags: std::collections::HashMap<String, String>,
    moves: Vec<String>,
    /// The last comment: how the game ended.
    reason: String,
}

fn parse_pgn(text: &str) -> Vec<PgnGame> {
    let mut games = Vec::new();
    for block in text.split("\n\n[").filter(|b| !b.trim().is_empty()) {
        let mut tags = std::collections::HashMap::new();
        let mut body = String::new();
        for line in block.lines() {
            let l = line.trim_start_matches('[');
            if line.starts_with('[') || (tags.is_empty() && l.contains(" \"")) {
                if let Some((k, v)) = l.trim_end_matches(']').split_once(' ') {
                    tags.insert(k.to_string(), v.trim_matches('"').to_string());
                }
            } else {
                body.push_str(line);
                body.push(' ');
            }
        }
        // Drop comments, move numbers and the result.
        let mut moves = Vec::new();
        let mut depth = 0;
        let mut word = String::new();
        let mut comment = String::new();
        let mut reason = String::new();
        for ch in body.chars().chain(std::iter::once(' ')) {
            match ch {
                '{' => {
                    depth += 1;
                    comment.clear();
                }
                '}' => {
                    depth -= 1;
                    reason = comment.clone();
                }
                c if depth > 0 => comment.push(c),
                c if depth == 0 && !c.is_whitespace() => word.push(c),
                _ if depth == 0 && !word.is_empty() => {
                    if !word.ends_with('.')
                        && !["1-0", "0-1", "1/2-1/2", "*"].contains(&word.as_str())
                    {
                        moves.push(word.clone());
                    }
                    word.clear();
                }
                _ => {}
            }
        }
        games.push(PgnGame {
            tags,
            moves,
            reason,
        });
    }
    games
}

#[test]
fn self_play_match_writes_pgn_and_summary() {
    let dir = std::env::temp_dir().join(format!("jj-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
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

fn python3_available() -> bool {
    Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn misbehaving_engines_lose_and_the_match_goes_on() {
    if !python3_available() {
        eprintln!("SKIPPED: python3 is needed for the fake engines");
        return;
    }
    let me = format!("name=Jiangjun,cmd={BIN},proto=uci");
    for (mode, tc, ending) in [
        ("illegal", "nodes=1000", "illegal move"),
        ("crash", "nodes=1000", "crashed"),
        ("hang", "depth=2", "hung"),
        ("slow", "st=0.2", "lost on time"),
        ("nomove", "nodes=1000", "gave no move"),
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
            "1",
        ]);
        let (w, d, l) = wdl(&summary);
        assert_eq!((w, d, l), (4, 0, 0), "{mode}: {summary}");
        assert!(
            summary.contains(&format!("{ending}: 4")),
            "{mode}: {summary}"
        );
    }
}

#[test]
fn sprt_stops_the_match_early() {
    if !python3_available() {
        eprintln!("SKIPPED: python3 is needed for the fake engines");
        return;
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
