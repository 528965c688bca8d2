//! A short run of each measurement script in `scripts/` that no other test
//! or CI step runs, so that none rots unseen: each is run on this build at
//! its smallest size and its output read for the figures it promises, not
//! for their values (a loaded machine changes those). The list of scripts
//! and what runs each: docs/testing.md#the-scripts-and-what-runs-them.
//! Unix only (the scripts split command lines as a Unix shell does, and
//! the bash ones use GNU tools: Linux only).
#![cfg(unix)]
// Test code: a failed unwrap is a failed test, reported with its line.
#![allow(clippy::unwrap_used)]

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_jiangjun");

/// Runs `python3 scripts/NAME ARGS`, asserts that it succeeded and gives
/// its stdout; None without python3.
fn script(name: &str, args: &[&str]) -> Option<String> {
    let out = common::python_script(name, args)?;
    assert!(out.status.success(), "{name}: {out:?}");
    Some(String::from_utf8(out.stdout).unwrap())
}

/// Runs a bash script of `scripts/` with `env`, asserting success.
#[cfg(target_os = "linux")]
fn bash_script(name: &str, args: &[&str], env: &[(&str, &str)]) -> std::process::Output {
    let out = Command::new("bash")
        .arg(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("scripts")
                .join(name),
        )
        .args(args)
        .envs(env.iter().copied())
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{name}: {out:?}");
    out
}

/// A two-game match of the engine against itself from `fen`, its PGN.
fn match_pgn(dir: &Path, fen: &str) -> PathBuf {
    let openings = dir.join("openings.epd");
    std::fs::write(&openings, format!("{fen}\n")).unwrap();
    let pgn = dir.join("games.pgn");
    let _ = std::fs::remove_file(&pgn);
    let engine = |name: &str| format!("name={name},cmd={BIN},proto=uci");
    let out = Command::new(BIN)
        .args(["match", "--engine", &engine("A"), "--engine", &engine("B")])
        .args(["--games", "2", "--tc", "nodes=2000", "--quiet"])
        .arg("--openings")
        .arg(&openings)
        .arg("--pgn")
        .arg(&pgn)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    pgn
}

#[test]
fn perft_speed_times_a_perft() {
    let Some(out) = script("perft_speed.py", &["--depth", "2", "--runs", "1", BIN]) else {
        return;
    };
    assert!(out.contains(": perft(2) = 1920 in "), "{out}");
}

#[test]
fn protocol_timing_reports_stop_latency_and_movetime() {
    let Some(out) = script(
        "protocol_timing.py",
        &[BIN, "--runs", "2", "--movetime", "50"],
    ) else {
        return;
    };
    assert!(out.contains("stop latency over 2 runs: median "), "{out}");
    assert!(out.contains("go movetime 50 over 2 runs: median "), "{out}");
}

/// Linux only: it reads the engine's page faults from /proc.
#[cfg(target_os = "linux")]
#[test]
fn idle_search_probe_times_moves_after_a_gap() {
    let Some(out) = script(
        "idle_search_probe.py",
        &["--engine", BIN, "--gap", "0", "--moves", "2"],
    ) else {
        return;
    };
    assert!(out.contains(" gap 0 s: 2 moves, median depth "), "{out}");
    assert!(out.contains(" major faults "), "{out}");
}

/// The proxy passes every line both ways and logs each with its time.
#[test]
fn line_log_proxy_passes_and_logs_every_line() {
    let dir = common::scratch_dir("line-log-proxy");
    if !common::python3_available() {
        return common::skip("python3 is needed for scripts/line_log_proxy.py");
    }
    let mut child = Command::new("python3")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/line_log_proxy.py"))
        .arg(&dir)
        .arg(BIN)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"uci\nisready\nquit\n").unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("uciok\n") && text.contains("readyok\n"),
        "{text}"
    );
    let logs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(logs.len(), 1, "{logs:?}");
    let log = std::fs::read_to_string(&logs[0]).unwrap();
    for want in [">> uci", ">> isready", "<< uciok", "<< readyok"] {
        assert!(log.lines().any(|l| l.ends_with(want)), "{want}: {log}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Which games reached the tables, and the tables' verdict at entry: two
/// games from a position of KRvKA, in the tables from the first ply.
#[test]
fn table_entries_finds_where_games_enter_the_tables() {
    let dir = common::scratch_dir("table-entries");
    let tables = dir.join("tables");
    let (ok, _, err) =
        common::run_jiangjun(&["tb", "gen", "--out", tables.to_str().unwrap(), "KRvKA"]);
    assert!(ok, "{err}");
    let pgn = match_pgn(&dir, "4k4/4a4/9/9/9/9/9/9/9/R2K5 w - - 0 1");
    let Some(out) = script(
        "table_entries.py",
        &[
            pgn.to_str().unwrap(),
            "--jiangjun",
            BIN,
            "--tables",
            tables.to_str().unwrap(),
            "--engine",
            "A",
        ],
    ) else {
        return;
    };
    // Round, Red, result, plies, the entry ply (0: from the start), ruling.
    let rows: Vec<Vec<&str>> = out.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows.len(), 2, "{out}");
    assert!(rows.iter().all(|r| r.len() == 6 && r[4] == "0"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Needs pyffish to replay the moves.
#[test]
fn opening_variety_counts_the_positions_of_a_match() {
    if !common::python_has("pyffish") {
        return common::skip("pyffish is needed for scripts/opening_variety.py");
    }
    let dir = common::scratch_dir("opening-variety");
    let pgn = match_pgn(&dir, xiangqi::START_FEN);
    let Some(out) = script(
        "opening_variety.py",
        &[pgn.to_str().unwrap(), "--plies", "4"],
    ) else {
        return;
    };
    // Both games from one opening at fixed nodes: the summary line.
    assert!(
        out.trim_end()
            .ends_with(" distinct positions after 4 plies in 2 games"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Needs the rules oracle of ../shared (and pyffish).
#[test]
fn rejudge_agrees_with_the_oracle_on_a_match() {
    let Some(oracle) = common::shared_path("tools/oracle.py") else {
        return;
    };
    if !common::python_has("pyffish") {
        return common::skip("pyffish is needed for scripts/rejudge.py's oracle");
    }
    let dir = common::scratch_dir("rejudge");
    let pgn = match_pgn(&dir, xiangqi::START_FEN);
    let Some(out) = script(
        "rejudge.py",
        &[pgn.to_str().unwrap(), "--oracle", oracle.to_str().unwrap()],
    ) else {
        return;
    };
    // The script exits 0 (checked) only when no move is illegal and no
    // ruling disagrees; its summary counts the two games.
    assert!(
        out.contains("2 games re-judged (") && out.contains(" 0 disagree, 0 with an illegal move"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Two nets (the built-in one and the hand-made evaluation), one run each,
/// to depth 4: a line a run and a median per net.
#[cfg(target_os = "linux")]
#[test]
fn net_speed_compares_two_nets() {
    let out = bash_script(
        "net_speed.sh",
        &["<built-in>", "none", "1", "4"],
        &[("JJ", BIN)],
    );
    let text = String::from_utf8(out.stdout).unwrap();
    for want in [
        "run 1  net 0 (<built-in>)  bench nps ",
        "run 1  net 1 (none)  bench nps ",
        "median net 0 (<built-in>): bench nps ",
        "median net 1 (none): bench nps ",
    ] {
        assert!(text.contains(want), "{want}: {text}");
    }
    assert!(!text.contains("depth 4:  ms"), "no depth line read: {text}");
}

/// Two parts of the soak, two games each, from the start position.
#[cfg(target_os = "linux")]
#[test]
fn soak_plays_its_parts_and_sums_them_up() {
    let dir = common::scratch_dir("soak-smoke");
    let openings = dir.join("openings.epd");
    std::fs::write(&openings, format!("{}\n", xiangqi::START_FEN)).unwrap();
    let out_dir = dir.join("out");
    let out = bash_script(
        "soak.sh",
        &[BIN, out_dir.to_str().unwrap()],
        &[
            ("SOAK_GAMES", "2"),
            ("SOAK_PARTS", "uci ucci-s"),
            ("SOAK_OPENINGS", openings.to_str().unwrap()),
        ],
    );
    let text = String::from_utf8(out.stdout).unwrap();
    for part in ["uci", "ucci-s"] {
        let pgn = std::fs::read_to_string(out_dir.join(format!("{part}.pgn"))).unwrap();
        assert_eq!(pgn.matches("[Round ").count(), 2, "{part}: {pgn}");
        assert!(text.contains(part), "{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
