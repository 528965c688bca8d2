//! `jiangjun tb gen`, `tb probe` and `tb verify` through the real binary.

// Test code: a failed unwrap is a failed test, reported with its line.
#![allow(clippy::unwrap_used)]

mod common;

use common::run_jiangjun_code as jiangjun;
use std::process::Command;

#[test]
fn tb_gen_probe_verify() {
    let dir = std::env::temp_dir().join(format!("jjtb-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let (code, out, err) = jiangjun(&["tb", "gen", "--out", d, "KRvKA"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.lines().any(|l| l.starts_with("KRvKA positions 48600 ")),
        "{out}"
    );
    assert!(out.contains("built 4 tables"), "{out}"); // KvK, KAvK, KRvK, KRvKA

    let probe = |fen: &str| jiangjun(&["tb", "probe", "--path", d, "--fen", fen]);
    // A win: exactly one line, with the distance and a legal best move.
    // Here the rook mates at once (the d file is closed by Red's king).
    let (code, out, _) = probe("4k4/9/9/9/9/9/9/9/9/3K1R3 w");
    assert_eq!((code, out.as_str()), (0, "wdl win dtm 1 bestmove f0f8\n"));
    // Stalemated (no legal move, not in check): a loss in 0 and no move,
    // as checkmate is under our rules.
    let (code, out, _) = probe("4k4/5R3/9/9/9/9/9/9/9/3K5 b");
    assert_eq!((code, out.as_str()), (0, "wdl loss dtm 0\n"));
    // Longer: the fastest win and the slowest loss.
    let (_, out, _) = probe("9/4k4/9/9/9/9/9/9/9/R2K5 w");
    assert_eq!(out, "wdl win dtm 3 bestmove a0a8\n");
    let (_, out, _) = probe("9/4k4/9/9/9/9/9/9/9/R2K5 b");
    assert_eq!(out, "wdl loss dtm 4 bestmove e8f8\n");
    // Colours swapped: Black's rook wins the same way.
    let (_, out, _) = probe("3k1r3/9/9/9/9/9/9/9/9/4K4 b");
    assert_eq!(out, "wdl win dtm 1 bestmove f9f1\n");
    // A draw (the king takes the rook): no distance.
    let (_, out, _) = probe("4k4/4R4/9/9/9/9/9/9/9/3K5 b");
    assert_eq!(out, "wdl draw bestmove e9e8\n");
    // Outside the tables: non-zero exit and a message, nothing on stdout.
    let (code, out, err) = probe("4k4/9/9/9/9/9/9/9/9/3KNR3 w");
    assert_eq!((code, out.as_str()), (3, ""));
    assert!(err.contains("not in the tables"), "{err}");
    // A bad FEN and a missing directory are usage errors.
    assert_eq!(probe("nonsense").0, 2);
    let (code, _, err) = jiangjun(&[
        "tb",
        "probe",
        "--path",
        "/nonexistent/tb",
        "--fen",
        "4k4/9/9/9/9/9/9/9/9/3K1R3 w",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("/nonexistent/tb"), "{err}");

    let (code, out, _) = jiangjun(&["tb", "verify", d]);
    assert_eq!(code, 0);
    assert!(out.contains("verify passed: 4 tables"), "{out}");
    let (code, out, _) = jiangjun(&["tb", "verify", d, "KRvKA"]);
    assert_eq!(code, 0);
    assert!(out.contains("verify passed: 1 tables"), "{out}");
    assert_eq!(jiangjun(&["tb", "verify", d, "KNvK"]).0, 2);
    // A damaged table fails verification before any probe.
    let path = dir.join("KRvKA.jtb");
    let mut bytes = std::fs::read(&path).unwrap();
    let n = bytes.len();
    bytes.truncate(n - 10);
    std::fs::write(&path, bytes).unwrap();
    let (code, _, err) = jiangjun(&["tb", "verify", d]);
    assert_ne!(code, 0);
    assert!(err.contains("truncated"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Run the engine on `lines`, then read until a `bestmove` line (or the
/// end), then quit. Returns the output lines.
fn engine_session(lines: &[&str]) -> Vec<String> {
    use std::io::{BufRead, BufReader, Write};
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_jiangjun"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start jiangjun");
    let mut stdin = child.stdin.take().unwrap();
    for l in lines {
        writeln!(stdin, "{l}").unwrap();
    }
    stdin.flush().unwrap();
    let mut out = Vec::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        let done = line.starts_with("bestmove") || line.starts_with("nobestmove");
        out.push(line);
        if done {
            break;
        }
    }
    let _ = writeln!(stdin, "quit");
    drop(stdin);
    let _ = child.wait();
    out
}

#[test]
fn search_probes_tables_when_given_a_path() {
    let dir = std::env::temp_dir().join(format!("jjtb-search-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    assert_eq!(jiangjun(&["tb", "gen", "--out", d, "KRvKA"]).0, 0);
    let fen = "9/4k4/9/9/9/9/9/9/9/R2K5 w";
    let keep = jiangjun(&["tb", "probe", "--path", d, "--fen", fen]).1;
    assert_eq!(keep, "wdl win dtm 3 bestmove a0a8\n");

    // UCI: a bad path and an empty directory are errors, with no tables
    // before them; a good one is used: the fastest win, table hits on the
    // lines. A bad path or an empty directory after it keeps its tables.
    let empty = std::env::temp_dir().join(format!("jjtb-empty-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let out = engine_session(&[
        "uci",
        "setoption name TablebasePath value /nonexistent/tables",
        &format!("setoption name TablebasePath value {}", empty.display()),
        &format!("setoption name TablebasePath value {d}"),
        "setoption name TablebasePath value /nonexistent/tables",
        &format!("setoption name TablebasePath value {}", empty.display()),
        &format!("position fen {fen}"),
        "go depth 5",
    ]);
    let text = out.join("\n");
    assert!(
        text.contains("option name TablebasePath type string default"),
        "{text}"
    );
    let errors: Vec<&String> = out
        .iter()
        .filter(|l| l.contains("TablebasePath:"))
        .collect();
    let missing = "info string error: option TablebasePath: /nonexistent/tables: No such file";
    let no_tables = format!(
        "info string error: option TablebasePath: no tables in {}",
        empty.display()
    );
    assert_eq!(errors.len(), 4, "{text}");
    assert!(errors[0].starts_with(missing), "{text}");
    assert!(errors[0].ends_with("; no tables probed"), "{text}");
    assert_eq!(*errors[1], format!("{no_tables}; no tables probed"));
    assert!(errors[2].starts_with(missing), "{text}");
    assert!(
        errors[2].ends_with("; keeping the previous tables"),
        "{text}"
    );
    assert_eq!(
        *errors[3],
        format!("{no_tables}; keeping the previous tables")
    );
    assert!(
        text.contains(&format!("info string endgame tables: 4 tables from {d}")),
        "{text}"
    );
    assert!(
        out.iter()
            .any(|l| l.starts_with("info depth") && l.contains(" tbhits ")),
        "{text}"
    );
    assert_eq!(
        out.last().unwrap().split_whitespace().nth(1),
        Some("a0a8"),
        "{text}"
    );

    // UCCI spelling; and without a path no line mentions table hits.
    let out = engine_session(&[
        "ucci",
        &format!("setoption tablebasepath {d}"),
        &format!("position fen {fen}"),
        "go depth 5",
    ]);
    let text = out.join("\n");
    assert!(text.contains(" tbhits "), "{text}");
    assert_eq!(
        out.last().unwrap().split_whitespace().nth(1),
        Some("a0a8"),
        "{text}"
    );
    let out = engine_session(&["uci", &format!("position fen {fen}"), "go depth 5"]);
    assert!(!out.join("\n").contains("tbhits"));
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&empty);
}

/// The last `info` line's score words and PV, and the `bestmove` line.
fn last_line(out: &[String]) -> (Vec<String>, Vec<String>, String) {
    let info = out
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    let words: Vec<String> = info.split_whitespace().map(String::from).collect();
    let at = |key: &str| words.iter().position(|w| w == key).unwrap();
    let score = words[at("score") + 1..at("score") + 3].to_vec();
    let pv = words[at("pv") + 1..].to_vec();
    (score, pv, out.last().unwrap().clone())
}

/// Play `pv` from `fen`: every move legal, and the side to move at its end
/// has none (mated).
fn ends_in_mate(fen: &str, pv: &[String]) -> bool {
    let mut board = common::board_after(Some(fen), &[]);
    for mv in pv {
        let m = board.parse_move(mv).unwrap();
        assert!(board.is_legal_move(m), "{mv} in {pv:?}");
        board.make_move(m);
    }
    !board.has_legal_move()
}

/// Once the tables decide the root, a win or a loss is reported as the
/// mate it is, the tables' distance, with the whole line to it read from
/// the tables and a ponder move: UCI `score mate N`, UCCI ElephantEye's
/// `10000 - plies`.
#[test]
fn a_table_result_is_reported_as_a_mate_with_its_line() {
    let dir = std::env::temp_dir().join(format!("jjtb-mate-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    assert_eq!(jiangjun(&["tb", "gen", "--out", d, "KRvKA"]).0, 0);
    // KRvKA: Red wins in 7 plies; Black, to move in the other, loses in 6.
    let win = "4k4/4a4/9/9/9/9/9/9/9/R2K5 w";
    let loss = "4k4/4a4/9/9/9/9/9/9/9/R3K4 b";
    let probe = |fen: &str| jiangjun(&["tb", "probe", "--path", d, "--fen", fen]).1;
    assert!(probe(win).starts_with("wdl win dtm 7 "));
    assert!(probe(loss).starts_with("wdl loss dtm 6 "));
    for (fen, plies, uci_score, ucci_score) in [(win, 7, "4", "9993"), (loss, 6, "-3", "-9994")] {
        for dialect in ["uci", "ucci"] {
            let set = if dialect == "uci" {
                format!("setoption name TablebasePath value {d}")
            } else {
                format!("setoption tablebasepath {d}")
            };
            let out =
                engine_session(&[dialect, &set, &format!("position fen {fen}"), "go depth 8"]);
            let (score, pv, best) = last_line(&out);
            let want = if dialect == "uci" {
                ["mate", uci_score]
            } else {
                [ucci_score, "pv"]
            };
            assert_eq!(score, want, "{dialect} {fen}: {out:#?}");
            assert_eq!(pv.len(), plies, "{dialect} {fen}: {out:#?}");
            assert!(ends_in_mate(fen, &pv), "{dialect} {fen}: {pv:?}");
            // UCCI resigns a proven loss, as it does when the search mates it.
            let resign = if dialect == "ucci" && fen == loss {
                " resign"
            } else {
                ""
            };
            assert_eq!(best, format!("bestmove {} ponder {}{resign}", pv[0], pv[1]));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// In a table position each iteration takes microseconds and repeats the
/// last: `go movetime 1000` printed 120 `info` lines in 6 ms. A line that
/// repeats the last one printed now waits a second after it (one line of
/// search at a time), and the last iteration's line still comes before the
/// answer, in both dialects.
#[test]
fn a_table_position_prints_a_bounded_number_of_lines() {
    let dir = std::env::temp_dir().join(format!("jjtb-quiet-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    assert_eq!(jiangjun(&["tb", "gen", "--out", d, "KRvKA"]).0, 0);
    let fen = "9/4k4/9/9/9/9/9/9/9/R2K5 w";
    for (hello, set, go) in [
        (
            "uci",
            "setoption name TablebasePath value",
            "go movetime 1000",
        ),
        (
            "ucci",
            "setoption tablebasepath",
            // A minute's clock: a 1 s one gives a budget of milliseconds,
            // which a loaded machine can spend between two iterations.
            "go time 60000 increment 0",
        ),
    ] {
        let out = engine_session(&[
            hello,
            &format!("{set} {d}"),
            &format!("position fen {fen}"),
            go,
        ]);
        let text = out.join("\n");
        let depths: Vec<i32> = out
            .iter()
            .filter(|l| l.starts_with("info depth"))
            .map(|l| l.split_whitespace().nth(2).unwrap().parse().unwrap())
            .collect();
        // Depth 1 (before the tables' mate), depth 2 (the mate), the last.
        assert!(
            (2..=4).contains(&depths.len()),
            "{hello}: {} lines: {text}",
            depths.len()
        );
        assert!(depths.windows(2).all(|w| w[0] < w[1]), "{text}");
        assert!(*depths.last().unwrap() > 10, "{text}");
        assert_eq!(out.last().unwrap().split_whitespace().nth(1), Some("a0a8"));
    }
    let _ = std::fs::remove_dir_all(&dir);
}
