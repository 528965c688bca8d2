//! The endgame-play suite (`tests/data/endgame_suite.epd`, written by
//! `scripts/endgame_suite.py`): every line a legal position with the
//! tables' verdict, enough of each kind, and the verdicts of its smaller
//! materials checked against tables built here with `jiangjun tb probe`.

// Test code: a failed unwrap is a failed test, reported with its line.
#![allow(clippy::unwrap_used)]

mod common;

use common::run_jiangjun_code as jiangjun;
use xiangqi::board::Board;

const SUITE: &str = include_str!("data/endgame_suite.epd");

/// (FEN, verdict op `c0`, material `c1`) of each position line.
fn lines() -> Vec<(String, String, String)> {
    let op = |line: &str, key: &str| {
        let at = line
            .find(&format!("{key} \""))
            .unwrap_or_else(|| panic!("{key}: {line}"));
        let rest = &line[at + key.len() + 2..];
        rest[..rest.find('"').unwrap()].to_string()
    };
    SUITE
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let fen = l.split(';').next().unwrap().trim().to_string();
            (fen, op(l, "c0"), op(l, "c1"))
        })
        .collect()
}

#[test]
fn suite_lines_are_positions_with_verdicts() {
    let lines = lines();
    assert!(lines.len() >= 100, "{}", lines.len());
    let mut seen = std::collections::HashSet::new();
    let (mut wins, mut draws) = (0, 0);
    for (fen, verdict, material) in &lines {
        let board = Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert!(board.has_legal_move(), "{fen}");
        assert!(seen.insert(fen.clone()), "twice: {fen}");
        // The pieces on the board are the material named (either colour).
        let mut on_board: Vec<char> = fen
            .split(' ')
            .next()
            .unwrap()
            .chars()
            .filter(|c| c.is_ascii_alphabetic())
            .map(|c| c.to_ascii_uppercase())
            .collect();
        let mut named: Vec<char> = material.chars().filter(|&c| c != 'v').collect();
        on_board.sort_unstable();
        named.sort_unstable();
        assert_eq!(on_board, named, "{fen} {material}");
        if verdict == "draw" {
            draws += 1;
        } else {
            let dtm: u32 = verdict
                .strip_prefix("win dtm ")
                .and_then(|d| d.parse().ok())
                .unwrap_or_else(|| panic!("{verdict}"));
            assert!(dtm >= 5, "{fen}");
            wins += 1;
        }
    }
    assert!(wins >= 50 && draws >= 40, "{wins} {draws}");
}

#[test]
fn suite_verdicts_agree_with_the_tables() {
    // The small materials (a few seconds to build); the large ones were
    // probed in /work/data/tb/set by the script that wrote the file.
    let small = ["KNvKA", "KNvKB", "KNvKAB", "KNvKBB", "KPvKA", "KCvKAA"];
    let dir = std::env::temp_dir().join(format!("jjtb-suite-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let mut args = vec!["tb", "gen", "--out", d];
    args.extend(small);
    let (code, _, err) = jiangjun(&args);
    assert_eq!(code, 0, "{err}");
    let mut checked = 0;
    for (fen, verdict, material) in lines() {
        if !small.contains(&material.as_str()) {
            continue;
        }
        let (code, out, err) = jiangjun(&["tb", "probe", "--path", d, "--fen", &fen]);
        assert_eq!(code, 0, "{fen}: {err}");
        let w: Vec<&str> = out.split_whitespace().collect();
        let expected = if verdict == "draw" {
            "draw".to_string()
        } else {
            format!("win dtm {}", w.get(3).unwrap_or(&""))
        };
        assert_eq!(verdict, expected, "{fen}: {out}");
        assert_eq!(
            w[1],
            if verdict == "draw" { "draw" } else { "win" },
            "{fen}"
        );
        checked += 1;
    }
    assert!(checked >= 30, "{checked}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `scripts/endgame_suite.sh` end to end at fixed nodes on a few lines of
/// the suite, with small tables built here: both runs played, every game
/// tied to its line and scored. (Needs bash and python3.)
#[test]
fn suite_script_plays_and_scores_both_runs() {
    if std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_err()
    {
        return common::skip("python3 is needed for scripts/endgame_suite.sh's scoring");
    }
    let dir = std::env::temp_dir().join(format!("jjtb-suite-run-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let tables = dir.join("tables");
    let t = tables.to_str().unwrap();
    let (code, _, err) = jiangjun(&["tb", "gen", "--out", t, "KNvKA", "KPvKA", "KNvKBB"]);
    assert_eq!(code, 0, "{err}");
    // Two wins and two draws of those materials, as the suite has them.
    let pick = |material: &str, draw: bool| {
        SUITE
            .lines()
            .find(|l| {
                l.contains(&format!("c1 \"{material}\"")) && l.contains("c0 \"draw\"") == draw
            })
            .unwrap()
            .to_string()
    };
    let mini = [
        pick("KNvKA", false),
        pick("KPvKA", false),
        pick("KNvKBB", true),
        pick("KPvKA", true),
    ];
    let suite = dir.join("mini.epd");
    std::fs::write(&suite, format!("# four lines\n{}\n", mini.join("\n"))).unwrap();
    let out_dir = dir.join("out");
    let root = env!("CARGO_MANIFEST_DIR");
    let run = std::process::Command::new("bash")
        .arg(format!("{root}/scripts/endgame_suite.sh"))
        .args([
            t,
            out_dir.to_str().unwrap(),
            "nodes=2000",
            suite.to_str().unwrap(),
        ])
        .env("JIANGJUN", env!("CARGO_BIN_EXE_jiangjun"))
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&run.stdout);
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{out}\n{err}");
    assert!(
        err.contains("suite: 4 positions, 8 games each way"),
        "{err}"
    );
    // With the tables every position is in them: each win is converted in
    // its distance and each draw held.
    assert!(
        out.contains("with tables: wins converted 4 of 4, draws held 4 of 4 (games; 4 of 4"),
        "{out}"
    );
    assert!(out.contains("in the tables' distance: 4 of 4"), "{out}");
    // Without them the figures depend on the search; the games are there.
    assert!(out.contains("without tables: wins converted "), "{out}");
    assert!(
        out.contains(" of 4, draws held ") && out.matches("(games; 4 of 4").count() == 2,
        "{out}"
    );
    for pgn in ["with-tables.pgn", "without-tables.pgn"] {
        let text = std::fs::read_to_string(out_dir.join(pgn)).unwrap();
        assert_eq!(text.matches("[OpeningIndex ").count(), 8, "{pgn}");
        assert_eq!(text.matches("TablebasePath").count(), 0, "{pgn}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
