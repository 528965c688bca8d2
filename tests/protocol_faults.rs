//! Protocol faults that GUIs, scripts and match runners hit: each test
//! failed before its fix. Sessions against the real binary.

mod common;

use common::{EngineProcess, assert_legal_bestmove, bestmove_of, board_after};
use jiangjun_engine::play::book::{JjBook, Record};
use std::path::PathBuf;
use std::time::{Duration, Instant};
use xiangqi::Board;

const MATED: &str = "3k5/9/9/9/9/9/9/9/3r5/3rK4 w - - 0 1";
const BARE_KINGS: &str = "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1";
/// Red mates in 2 (g5g9 first).
const MATE_IN_2: &str = "3k1p3/4P4/9/9/6CCR/3n4c/2Pn5/8B/5p3/4K4 w - - 0 1";

fn engine(dialect: &str) -> EngineProcess {
    let mut e = EngineProcess::start();
    e.send(dialect);
    e.until_prefix(if dialect == "ucci" { "ucciok" } else { "uciok" });
    e
}

fn is_answer(l: &str) -> bool {
    l.starts_with("bestmove") || l == "nobestmove"
}

fn field<T: std::str::FromStr>(line: &str, key: &str) -> Option<T> {
    let mut t = line.split_whitespace();
    while let Some(w) = t.next() {
        if w == key {
            return t.next()?.parse().ok();
        }
    }
    None
}

// ----- 1. infinite and ponder searches wait for stop / ponderhit -----

#[test]
fn infinite_search_waits_for_stop_in_finished_positions() {
    for dialect in ["uci", "ucci"] {
        for fen in [MATED, BARE_KINGS] {
            let mut e = engine(dialect);
            e.send(&format!("position fen {fen}"));
            e.send("go infinite");
            let early = e.drain(Duration::from_millis(2500));
            assert!(
                !early.iter().any(|l| is_answer(l)),
                "{dialect} {fen}: answered an infinite search by itself: {early:#?}"
            );
            e.send("stop");
            let lines = e.read_until(is_answer);
            let answer = lines.last().unwrap();
            if fen == MATED {
                let want = if dialect == "uci" {
                    "bestmove (none)"
                } else {
                    "nobestmove"
                };
                assert_eq!(answer, want);
            } else {
                assert_legal_bestmove(answer, &board_after(Some(fen), &[]));
            }
            // Exactly one answer per `go`: nothing more after a sync.
            let after = e.sync();
            assert!(!after.iter().any(|l| is_answer(l)), "{dialect}: {after:#?}");
        }
    }
}

#[test]
fn ponder_search_waits_then_ponderhit_turns_it_into_a_timed_search() {
    for dialect in ["uci", "ucci"] {
        let mut e = engine(dialect);
        e.send(&format!("position fen {BARE_KINGS}"));
        let go = if dialect == "uci" {
            "go ponder wtime 2000 btime 2000"
        } else {
            "go ponder time 2000"
        };
        e.send(go);
        let early = e.drain(Duration::from_millis(2500));
        assert!(!early.iter().any(|l| is_answer(l)), "{dialect}: {early:#?}");
        let hit = Instant::now();
        e.send("ponderhit");
        let lines = e.read_until(is_answer);
        assert!(hit.elapsed() < Duration::from_secs(3), "{dialect}");
        assert_legal_bestmove(lines.last().unwrap(), &board_after(Some(BARE_KINGS), &[]));
        let after = e.sync();
        assert!(!after.iter().any(|l| is_answer(l)), "{dialect}: {after:#?}");
    }
}

// ----- 2. time and nps are wall time since `go` in every mode -----

#[test]
fn ponder_time_and_nps_count_from_go() {
    let mut e = engine("uci");
    e.send("position startpos");
    e.send("go ponder wtime 60000 btime 60000");
    std::thread::sleep(Duration::from_millis(1500));
    e.send("ponderhit");
    e.send("stop");
    let lines = e.read_until(is_answer);
    let last_info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth") && l.contains(" time "))
        .expect("an info line");
    let time: u64 = field(last_info, "time").unwrap();
    let nodes: u64 = field(last_info, "nodes").unwrap();
    let nps: u64 = field(last_info, "nps").unwrap();
    assert!(
        time >= 1400,
        "time counts from go, not from ponderhit: {last_info}"
    );
    let want = nodes * 1000 / time.max(1);
    assert!(
        nps.abs_diff(want) <= want / 20 + 1000,
        "nps is nodes over time: {last_info}"
    );
}

// ----- 3. a proven mate ends a timed search -----

#[test]
fn found_mate_stops_deepening() {
    let mut e = engine("uci");
    e.send(&format!("position fen {MATE_IN_2}"));
    let start = Instant::now();
    e.send("go wtime 60000 btime 60000");
    let lines = e.read_until(is_answer);
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    let last = infos.last().unwrap();
    assert!(last.contains("score mate 2"), "{last}");
    let depth: i32 = field(last, "depth").unwrap();
    assert!(depth <= 12, "kept deepening after the mate: {last}");
    assert!(start.elapsed() < Duration::from_secs(5));
    // Two moves mate in 2 here, g5g9 and h5h9 (each answered only by f9f8,
    // then the other cannon mates; Fairy-Stockfish agrees): either is right.
    let best = bestmove_of(lines.last().unwrap());
    assert!(
        matches!(best.as_deref(), Some("g5g9" | "h5h9")),
        "not a mate in 2: {best:?}"
    );
}

// ----- 4. input that is accepted but wrong -----

/// Every `go` is answered by exactly one `bestmove` (`nobestmove` in UCCI
/// when there is no move), with the error beside it: a bad word is dropped
/// and the rest of the `go` stands, and a `go` left with no limit searches
/// for one second. Before the fix, these lines got an error and no answer,
/// and a GUI that waited for one hung.
#[test]
fn every_malformed_go_is_answered_once_with_its_error() {
    for dialect in ["uci", "ucci"] {
        for go in [
            "go depth -5",
            "go movetime abc",
            "go wtime x btime 1000",
            "go nodes -1",
            "go depth x",
            "go movetime -100",
            "go movestogo -4 depth 2",
            "go movetime 1e12",
        ] {
            let mut e = engine(dialect);
            // The book off, so that the answer comes from a search.
            e.send(if dialect == "ucci" {
                "setoption usebook false"
            } else {
                "setoption name OwnBook value false"
            });
            e.send("position startpos");
            let start = Instant::now();
            e.send(go);
            let lines = e.read_until(is_answer);
            assert!(
                start.elapsed() < Duration::from_secs(5),
                "{dialect} '{go}': {:?}",
                start.elapsed()
            );
            assert!(
                lines
                    .iter()
                    .any(|l| l.starts_with("info string error: go: ")),
                "{dialect} '{go}': {lines:#?}"
            );
            assert_legal_bestmove(lines.last().unwrap(), &board_after(None, &[]));
            let after = e.sync();
            assert!(
                !after.iter().any(|l| is_answer(l)),
                "{dialect} '{go}': a second answer: {after:#?}"
            );
        }
        // No legal move: the one answer says so.
        let mut e = engine(dialect);
        e.send(&format!("position fen {MATED}"));
        e.send("go depth -5");
        let lines = e.read_until(is_answer);
        let want = if dialect == "ucci" {
            "nobestmove"
        } else {
            "bestmove (none)"
        };
        assert_eq!(lines.last().map(String::as_str), Some(want), "{lines:#?}");
        assert!(!e.sync().iter().any(|l| is_answer(l)));
    }
}

#[test]
fn bad_banmoves_are_reported_and_good_ones_kept() {
    let mut e = engine("ucci");
    e.send("position startpos");
    // h2h8 is illegal (the cannon at h7 blocks it); h2h9, a capture over
    // that cannon, would be legal.
    e.send("banmoves h2e2 zz99 h2h8 b2e2");
    let lines = e.sync();
    let errors: Vec<&String> = lines.iter().filter(|l| l.contains("error")).collect();
    assert_eq!(errors.len(), 2, "zz99 and the illegal h2h8: {lines:#?}");
    // The two legal bans stay: with every other first move banned but these
    // two, the engine must not play them.
    e.send("go depth 3");
    let lines = e.read_until(is_answer);
    let m = bestmove_of(lines.last().unwrap()).unwrap();
    assert!(m != "h2e2" && m != "b2e2", "{m}");
}

#[test]
fn searchmoves_end_at_the_next_keyword() {
    let mut e = engine("uci");
    e.send("position startpos moves h2e2");
    e.send("go searchmoves h9g7 depth 3");
    let lines = e.read_until(is_answer);
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(
        field::<i32>(infos.last().unwrap(), "depth"),
        Some(3),
        "{lines:#?}"
    );
    assert_eq!(bestmove_of(lines.last().unwrap()).as_deref(), Some("h9g7"));
}

#[test]
fn clock_only_for_the_other_side_answers_promptly() {
    let mut e = engine("uci");
    e.send("position startpos");
    let start = Instant::now();
    e.send("go btime 5000 binc 100");
    let lines = e.read_until(is_answer);
    assert!(start.elapsed() < Duration::from_secs(3), "{lines:#?}");
    assert!(
        lines.iter().any(|l| l.starts_with("info string")),
        "{lines:#?}"
    );
    assert_legal_bestmove(lines.last().unwrap(), &board_after(None, &[]));
}

#[test]
fn bench_and_perft_depths_are_checked() {
    for dialect in ["uci", "ucci"] {
        let mut e = engine(dialect);
        for bad in [
            "bench 0",
            "bench 21",
            "bench -3",
            "bench x",
            "go perft 0",
            "go perft 21",
            "go perft x",
            "go perft",
        ] {
            e.send(bad);
            let lines = e.sync();
            // `go perft x`: the bad value, then that nothing was counted.
            let errors = if bad.starts_with("go perft") && !bad.ends_with(char::is_numeric) {
                2
            } else {
                1
            };
            assert!(
                lines.len() == errors && lines.iter().all(|l| l.starts_with("info string error: ")),
                "{dialect} '{bad}': {lines:#?}"
            );
        }
        // The command line's range: 1 to MAX_DEPTH.
        e.send("bench 1");
        let lines = e.until_prefix("Nodes/second");
        assert!(
            lines.iter().any(|l| l.starts_with("Nodes searched")),
            "{lines:#?}"
        );
    }
}

// ----- 5. a bare carriage return ends a line -----

#[test]
fn bare_carriage_returns_end_lines() {
    let mut e = EngineProcess::start();
    e.send_raw(b"uci\risready\r");
    let lines = e.until_prefix("readyok");
    assert!(lines.iter().any(|l| l == "uciok"), "{lines:#?}");
    e.send_raw(b"position startpos moves h2e2\r\ngo depth 2\r");
    let lines = e.read_until(is_answer);
    assert_legal_bestmove(lines.last().unwrap(), &board_after(None, &["h2e2"]));
}

// ----- 6. a final info line on stop -----

#[test]
fn stop_prints_the_final_info_line() {
    for dialect in ["uci", "ucci"] {
        let mut e = engine(dialect);
        e.send("position startpos moves h2e2");
        e.send("go infinite");
        std::thread::sleep(Duration::from_millis(700));
        e.send("stop");
        let lines = e.read_until(is_answer);
        let answer = bestmove_of(lines.last().unwrap()).unwrap();
        let before = &lines[lines.len() - 2];
        assert!(before.starts_with("info depth"), "{dialect}: {lines:#?}");
        for key in ["score", "nodes", "time", "pv"] {
            assert!(
                before.contains(&format!(" {key} ")),
                "{dialect}: no {key}: {before}"
            );
        }
        let pv_first = before
            .split(" pv ")
            .nth(1)
            .and_then(|p| p.split_whitespace().next());
        assert_eq!(pv_first, Some(answer.as_str()), "{dialect}: {before}");
    }
}

#[test]
fn ucci_multipv_lines_carry_their_index() {
    let mut e = engine("ucci");
    e.send("setoption multipv 3");
    e.send("position startpos");
    e.send("go depth 5");
    let lines = e.read_until(is_answer);
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    for k in 1..=3 {
        assert!(
            infos.iter().any(|l| field::<u32>(l, "multipv") == Some(k)),
            "no multipv {k}: {infos:#?}"
        );
    }
}

// ----- 7. piped scripts run each command to completion -----

#[test]
fn perft_then_quit_prints_the_whole_perft() {
    let mut e = EngineProcess::start();
    e.send("uci");
    e.send("go perft 4");
    e.send("quit");
    e.close_stdin();
    let lines = e.read_until(|l| l.starts_with("Nodes searched"));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 3290240");
    assert!(e.wait_exit());
}

#[test]
fn piped_depth_search_and_isready_run_to_the_end() {
    // `printf 'go depth N\nisready\n' | jiangjun`: the end of input comes
    // right after `isready`; a search that ends by itself is not cut short.
    for dialect in ["uci", "ucci"] {
        let mut e = EngineProcess::start();
        e.send(dialect);
        e.send("position startpos");
        e.send("go depth 11");
        e.send("isready");
        e.close_stdin();
        let lines = e.read_until(is_answer);
        let infos: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("info depth"))
            .collect();
        assert_eq!(
            field::<i32>(infos.last().unwrap(), "depth"),
            Some(11),
            "{dialect}: {lines:#?}"
        );
        assert!(
            lines.iter().any(|l| l == "readyok"),
            "{dialect}: {lines:#?}"
        );
        assert!(e.wait_exit());
    }
}

#[test]
fn quit_stops_a_search_at_once_and_end_of_input_an_infinite_one() {
    for dialect in ["uci", "ucci"] {
        // An explicit `quit` does not wait for a long search.
        let mut e = engine(dialect);
        e.send("position startpos");
        e.send("go depth 60");
        std::thread::sleep(Duration::from_millis(200));
        let start = Instant::now();
        e.send("quit");
        assert!(e.wait_exit());
        assert!(start.elapsed() < Duration::from_secs(3), "{dialect}");

        // The end of input stops an infinite search: it answers, then quits.
        let mut e = engine(dialect);
        e.send("position startpos");
        e.send("go infinite");
        std::thread::sleep(Duration::from_millis(200));
        e.close_stdin();
        let lines = e.read_until(is_answer);
        assert_legal_bestmove(lines.last().unwrap(), &board_after(None, &[]));
        assert!(e.wait_exit());

        // A `go` with no limit at all searches until stopped, as the engine
        // decides (`GoRequest::ends_only_when_told`), and the session holds
        // it open-ended too: the next command stops it (the session used to
        // wait for it), and so does the end of input (it used to hang).
        let mut e = engine(dialect);
        e.send("position startpos");
        e.send("go");
        std::thread::sleep(Duration::from_millis(200));
        e.send("position startpos moves h2e2");
        e.send("go depth 1");
        let first = e.read_until(is_answer);
        assert_legal_bestmove(first.last().unwrap(), &board_after(None, &[]));
        let second = e.read_until(is_answer);
        assert_legal_bestmove(second.last().unwrap(), &board_after(None, &["h2e2"]));
        e.send("go");
        std::thread::sleep(Duration::from_millis(200));
        e.close_stdin();
        let lines = e.read_until(is_answer);
        assert_legal_bestmove(lines.last().unwrap(), &board_after(None, &["h2e2"]));
        assert!(e.wait_exit(), "{dialect}: a bare go at the end of input");
    }
}

/// `BookFile` (UCCI `bookfiles`) naming a device, a FIFO or a directory:
/// the whole file was read, so `/dev/zero` never returned and ate the
/// memory, and a FIFO blocked. Now each is an `info string error` at once,
/// and the book loaded before stays (here a one-move book, not the default).
#[test]
fn book_files_must_be_regular_files() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let start = Board::startpos();
    let book = JjBook::from_records(vec![Record {
        key: start.key(),
        mv: start.parse_move("a3a4").unwrap().raw(),
        weight: 1,
        score: 0,
        games: 1,
    }]);
    let path = dir.join("faults-one-move.book");
    std::fs::write(&path, book.to_bytes()).unwrap();
    let mut bad = vec![dir.display().to_string()];
    // A device that reads for ever; Windows has none at a fixed path (there
    // `/dev/zero` is a missing file, refused as such).
    if cfg!(unix) {
        bad.push("/dev/zero".to_string());
    }
    let fifo = dir.join("faults-book.fifo");
    let _ = std::fs::remove_file(&fifo);
    if std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success())
    {
        bad.push(fifo.display().to_string());
    }
    for (dialect, set, go) in [
        (
            "uci",
            "setoption name BookFile value",
            "go wtime 60000 btime 60000",
        ),
        ("ucci", "setoption bookfiles", "go time 60000 increment 0"),
    ] {
        let mut e = engine(dialect);
        e.send(&format!("{set} {}", path.display()));
        // The book's loading is confirmed.
        assert_eq!(
            e.sync(),
            [format!(
                "info string book: Jiangjun book (JJBOOK1) from {}, 1 records",
                path.display()
            )]
        );
        for file in &bad {
            e.send(&format!("{set} {file}"));
            let lines = e.sync();
            assert!(
                lines.len() == 1
                    && lines[0].starts_with("info string error: ")
                    && lines[0].contains(&format!("{file}: not a regular file"))
                    && lines[0].ends_with("keeping the previous book"),
                "{dialect}: {lines:#?}"
            );
        }
        e.send("position startpos");
        e.send(go);
        let lines = e.until_prefix("bestmove");
        assert_eq!(
            bestmove_of(lines.last().unwrap()).as_deref(),
            Some("a3a4"),
            "{dialect}: {lines:#?}"
        );
    }
}
