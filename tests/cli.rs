//! The command-line tools of the binary: perft, bench, judge.

mod common;

use common::{bench_nodes, run_jiangjun as run};

#[test]
fn perft_counts_and_divides() {
    let (ok, out, _) = run(&["perft", "3"]);
    assert!(ok);
    assert!(out.contains("Nodes searched: 79666"), "{out}");
    assert!(out.contains("leaves/s"));
    let (ok, out, _) = run(&[
        "perft",
        "2",
        "--divide",
        "--fen",
        "5k3/9/9/9/9/9/9/9/4A4/3K5 w",
    ]);
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.contains(&"e1d2: 2"), "{out}");
    assert!(out.contains("Nodes searched: "));
    let (ok, _, err) = run(&["perft", "2", "--fen", "not a fen"]);
    assert!(!ok);
    assert!(err.contains("error"), "{err}");
}

/// The default bench's node count is the search's signature: it moves
/// with any change of what the search does (a tuning build, at the table's
/// defaults, searches the same tree).
#[test]
fn bench_signature_is_pinned() {
    let (ok, out, _) = run(&["bench"]);
    assert!(ok);
    assert_eq!(
        bench_nodes(&out),
        jiangjun_engine::bench::PINNED_NODES,
        "{out}"
    );
}

#[test]
fn bench_prints_nodes_and_speed() {
    let (ok, out, _) = run(&["bench", "3"]);
    assert!(ok);
    let nodes = bench_nodes(&out);
    assert!(nodes > 1000);
    // The node count is a signature: the same run gives the same count.
    let (_, again, _) = run(&["bench", "3"]);
    assert!(
        again.contains(&format!("Nodes searched  : {nodes}")),
        "{again}"
    );
    assert!(out.contains("Nodes/second"));
}

#[test]
fn bench_evaluates_with_a_network_file() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let net = dir.join("cli-bench.nnue");
    jiangjun_engine::nnue::Network::random(4)
        .save(&net)
        .unwrap();
    let net = net.to_str().unwrap();
    let (ok, plain, _) = run(&["bench", "3"]);
    assert!(ok);
    let (ok, with_net, err) = run(&["bench", "3", "--evalfile", net]);
    assert!(ok, "{err}");
    // Another evaluation, another search.
    assert_ne!(bench_nodes(&plain), bench_nodes(&with_net));
    let (_, again, _) = run(&["bench", "3", "--evalfile", net]);
    assert_eq!(bench_nodes(&again), bench_nodes(&with_net));
    let (ok, out, err) = run(&["bench", "3", "--evalfile", "/nonexistent/net.nnue"]);
    assert!(!ok && out.is_empty());
    assert!(
        err.contains("error") && err.contains("/nonexistent/net.nnue"),
        "{err}"
    );
}

/// `--evalfile` reads what the `EvalFile` option does: `none` and `hce`
/// are the hand-made evaluation, `<built-in>` the built-in network (an
/// error without one), and without it the default evaluation is used.
#[test]
fn bench_evalfile_names_the_hand_made_and_built_in_evaluations() {
    let nodes = |args: &[&str]| {
        let (ok, out, err) = run(args);
        assert!(ok, "{args:?}: {err}");
        bench_nodes(&out)
    };
    let default = nodes(&["bench", "3"]);
    let hand_made = nodes(&["bench", "3", "--evalfile", "hce"]);
    // stderr says which evaluation ran, and for a network which kernel.
    let (_, _, err) = run(&["bench", "3", "--evalfile", "hce"]);
    assert!(err.contains("Evaluation: hand-made"), "{err}");
    if jiangjun_engine::nnue::EMBEDDED_NETWORK.is_some() {
        let (_, _, err) = run(&["bench", "3"]);
        let kernel = jiangjun_engine::nnue::simd::kernel();
        assert!(err.contains(&format!("NNUE kernel: {kernel}")), "{err}");
    }
    assert_eq!(nodes(&["bench", "3", "--evalfile", "none"]), hand_made);
    assert_eq!(nodes(&["bench", "3", "--evalfile", "NONE"]), hand_made);
    let (ok, out, err) = run(&["bench", "3", "--evalfile", "<built-in>"]);
    if jiangjun_engine::nnue::EMBEDDED_NETWORK.is_some() {
        assert!(ok, "{err}");
        assert_eq!(bench_nodes(&out), default);
        assert_ne!(hand_made, default);
    } else {
        assert_eq!(hand_made, default);
        assert!(!ok && out.is_empty());
        assert!(
            err.contains("error") && err.contains("no network is built in"),
            "{err}"
        );
    }
}

#[test]
fn judge_rules_on_games() {
    let case = |args: &[&str]| {
        let (ok, out, err) = run(args);
        assert!(ok, "{err}");
        out.trim().to_string()
    };
    assert_eq!(case(&["judge", "--moves", "h2e2", "h9g7"]), "ongoing");
    assert_eq!(
        case(&["judge", "--fen", "R2k5/1R7/9/9/9/9/9/9/9/5K3 b"]),
        "red (checkmate)"
    );
    assert_eq!(
        case(&["judge", "--fen", "3k5/9/3P5/9/9/9/9/9/9/4RK3 b"]),
        "red (stalemate)"
    );
    assert_eq!(
        case(&[
            "judge",
            "--fen",
            "4k4/7R1/9/p8/9/9/9/9/9/3K5 w",
            "--moves",
            "h8h9 e9e8 h9h8 e8e9 h8h9 e9e8 h9h8 e8e9"
        ]),
        "black (perpetual check)"
    );
    assert_eq!(
        case(&[
            "judge",
            "--fen",
            "4k4/9/c7R/9/9/9/9/9/9/3K5 b",
            "--fold",
            "2",
            "--moves",
            "a7a6 i7i6 a6a7 i6i7"
        ]),
        "black (perpetual chase)"
    );
    assert_eq!(
        case(&[
            "judge",
            "--fen",
            "4k4/9/9/p8/9/9/9/9/9/3K5 w",
            "--moves",
            "d0d1 e9e8 d1d0 e8e9 d0d1 e9e8 d1d0 e8e9"
        ]),
        "draw (repetition)"
    );
    assert_eq!(
        case(&["judge", "--fen", "4k4/9/9/9/9/9/9/9/9/3K1R3 b - - 120 80"]),
        "draw (natural move limit)"
    );
    assert_eq!(
        case(&["judge", "--fen", "3ak4/4a4/9/9/9/9/9/9/4A4/4KA3 w"]),
        "draw (insufficient material)"
    );
    let (ok, _, err) = run(&["judge", "--moves", "h2e2", "h2e2"]);
    assert!(!ok && err.contains("move 2"), "{err}");
}

#[test]
fn book_build_and_probe() {
    let dir = std::env::temp_dir().join(format!("jj-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let games = dir.join("games.txt");
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    std::fs::write(
        &games,
        format!("{start} h2e2 h9g7 1-0\n{start} h2e2 h9g7 1/2-1/2\n{start} c3c4 b9c7 0-1\n{start} c3c4 g6g5 1-0\n"),
    )
    .unwrap();
    let book = dir.join("t.book");
    let (ok, out, err) = run(&[
        "book",
        "build",
        "--games",
        games.to_str().unwrap(),
        "--min-games",
        "2",
        "--verify-depth",
        "0",
        "-o",
        book.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("4 games"), "{out}");
    let (ok, out, _) = run(&["book", "probe", "--book", book.to_str().unwrap()]);
    assert!(ok);
    // h2e2: a win and a draw (3 points); c3c4: a loss and a win (2 points).
    assert!(
        out.lines()
            .next()
            .unwrap()
            .starts_with("h2e2  weight     3 ( 60.0%)  games     2"),
        "{out}"
    );
    assert!(
        out.contains("c3c4  weight     2 ( 40.0%)  games     2"),
        "{out}"
    );
    let (ok, out, _) = run(&[
        "book",
        "probe",
        "--book",
        book.to_str().unwrap(),
        "--moves",
        "h2e2",
    ]);
    assert!(ok);
    assert!(out.starts_with("h9g7"), "{out}");
    // The built-in book knows the start position.
    let (ok, out, _) = run(&["book", "probe"]);
    assert!(ok && out.contains("h2e2"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn solve_counts_solved_problems() {
    let dir = std::env::temp_dir().join(format!("jj-solve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let epd = dir.join("t.epd");
    std::fs::write(
        &epd,
        "3k5/9/3P5/9/9/9/9/9/9/R3K4 w - - 0 1; bm a0a9; dm 1; id \"mate1\"\n",
    )
    .unwrap();
    let (ok, out, _) = run(&["solve", epd.to_str().unwrap(), "--movetime", "300"]);
    assert!(ok);
    assert!(out.contains("solved 1 of 1"), "{out}");
    // The hand-made evaluation solves it too; a missing network is refused
    // before any search.
    let (ok, out, _) = run(&[
        "solve",
        epd.to_str().unwrap(),
        "--movetime",
        "300",
        "--evalfile",
        "none",
    ]);
    assert!(ok && out.contains("solved 1 of 1"), "{out}");
    let missing = dir.join("missing.nnue");
    let (ok, out, err) = run(&[
        "solve",
        epd.to_str().unwrap(),
        "--evalfile",
        missing.to_str().unwrap(),
    ]);
    assert!(!ok && out.is_empty(), "{out}");
    assert!(err.contains("missing.nnue"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bench_rejects_out_of_range_depths() {
    for depth in ["0", "21", "31", "-3", "x"] {
        let start = std::time::Instant::now();
        let (ok, out, err) = run(&["bench", depth]);
        assert!(!ok, "bench {depth} was accepted: {out}");
        assert!(out.is_empty(), "bench {depth} searched: {out}");
        assert!(err.contains("depth") || err.contains("DEPTH"), "{err}");
        assert!(start.elapsed() < std::time::Duration::from_secs(5));
    }
}

#[test]
fn version_names_the_commit() {
    let (ok, out, _) = run(&["--version"]);
    assert!(ok);
    let line = out.trim();
    let inner = line
        .strip_prefix(&format!("jiangjun {} (", jiangjun::RELEASE))
        .and_then(|r| r.strip_suffix(')'))
        .unwrap_or_else(|| panic!("{line}"));
    let commit = inner.strip_suffix("-dirty").unwrap_or(inner);
    assert!(
        commit == "unknown" || (commit.len() == 8 && commit.chars().all(|c| c.is_ascii_hexdigit())),
        "{line}"
    );
}

/// A reader that has closed the pipe (`jiangjun perft 3 --divide | head
/// -0`) ends the tool quietly with the shell's broken-pipe status, not a
/// panic. The pipe's read end is closed before the tool starts, so the
/// tool's first write always meets a closed pipe (closing it after the
/// start raced the tool, which could write all its lines first).
#[test]
fn a_closed_output_pipe_ends_a_tool_quietly() {
    use std::process::{Command, Stdio};
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let out = Command::new(env!("CARGO_BIN_EXE_jiangjun"))
        .args(["perft", "3", "--divide"])
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .expect("run jiangjun");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(out.status.code(), Some(141), "{stderr}");
}
