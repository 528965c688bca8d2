//! UCCI sessions against the real binary (UCCI 3.0, as ElephantEye speaks it,
//! and the lines real clients send).

mod common;

use common::{EngineProcess, assert_legal_bestmove, bestmove_of, board_after};
use std::time::{Duration, Instant};

fn ucci() -> EngineProcess {
    let mut e = EngineProcess::start();
    e.send("ucci");
    let lines = e.until_prefix("ucciok");
    assert!(lines.iter().any(|l| l.starts_with("id name Jiangjun")));
    e
}

#[test]
fn handshake() {
    let mut e = EngineProcess::start();
    e.send("ucci");
    let lines = e.until_prefix("ucciok");
    for want in [
        "id name ",
        "id version ",
        "id author ",
        "option usemillisec type check default true",
        "option batch type check default false",
        "option debug type check default false",
        "option ponder type check default false",
        // 0 is accepted (the engine's choice; one thread per core), so it
        // is the announced minimum.
        "option hashsize type spin min 0 max",
        "option threads type spin min 0 max",
        "option newgame type button",
    ] {
        assert!(
            lines.iter().any(|l| l.starts_with(want)),
            "missing {want}: {lines:#?}"
        );
    }
    // UCCI names have no `name` keyword.
    assert!(
        lines
            .iter()
            .filter(|l| l.starts_with("option "))
            .all(|l| !l.starts_with("option name "))
    );
    e.send("isready");
    e.until_prefix("readyok");
    e.send("quit");
    e.until_prefix("bye");
    assert!(e.wait_exit());
}

#[test]
fn info_and_bestmove_format() {
    let mut e = ucci();
    e.send("position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2 h9g7");
    e.send("go depth 4");
    let lines = e.until_prefix("bestmove");
    let depth_lines: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(depth_lines.len(), 4);
    for l in &depth_lines {
        // Score without `cp`, then the PV.
        let t: Vec<&str> = l.split_whitespace().collect();
        assert_eq!(
            (t[0], t[1], t[3], t[5]),
            ("info", "depth", "score", "pv"),
            "{l}"
        );
        assert!(t[4].parse::<i32>().is_ok(), "{l}");
    }
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info time ") && l.contains(" nodes "))
    );
    assert_legal_bestmove(lines.last().unwrap(), &board_after(None, &["h2e2", "h9g7"]));
}

#[test]
fn real_client_lines() {
    let mut e = EngineProcess::start();
    // XBoard + uci2wb.
    for l in [
        "ucci",
        "setoption threads 1",
        "setoption hashsize 68",
        "isready",
    ] {
        e.send(l);
    }
    e.until_prefix("readyok");
    for l in [
        "setoption newgame",
        "setoption ponder 1",
        "setoption batch false",
        "setoption debug false",
        "position fen rnbakabr1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C7/9/RNBAKABNR w - - 0 1 moves",
    ] {
        e.send(l);
    }
    assert!(e.sync().is_empty(), "no errors for real client lines");
    e.send("go time 19980 opptime 19500 oppincrement 0 increment 0");
    let lines = e.until_prefix("bestmove");
    assert_legal_bestmove(
        lines.last().unwrap(),
        &board_after(
            Some("rnbakabr1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C7/9/RNBAKABNR w - - 0 1"),
            &[],
        ),
    );
    // cchess: UCI-style setoption, a two-field FEN, CRLF.
    e.send_raw(b"setoption name Hash value 32\r\n");
    e.send_raw(b"position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w\r\n");
    e.send_raw(b"go depth 3\r\n");
    let lines = e.until_prefix("bestmove");
    assert_legal_bestmove(lines.last().unwrap(), &board_after(None, &[]));
    // nonebot-plugin-cchess: time and depth together.
    e.send("position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2");
    e.send("go time 500 depth 10");
    let lines = e.until_prefix("bestmove");
    assert_legal_bestmove(lines.last().unwrap(), &board_after(None, &["h2e2"]));
}

#[test]
fn time_units_follow_usemillisec() {
    let mut e = ucci();
    // The book would answer the start position at once.
    e.send("setoption usebook false");
    e.send("position startpos");
    // Milliseconds (the default): 300 ms with no moves to go answers fast.
    let t = Instant::now();
    e.send("go time 300 increment 0");
    e.until_prefix("bestmove");
    assert!(t.elapsed() < Duration::from_millis(1500));
    // Seconds: `time 2` is two seconds, not two milliseconds: the search gets past depth 1.
    e.send("setoption usemillisec false");
    e.send("go time 2 movestogo 1");
    let lines = e.until_prefix("bestmove");
    let depths: Vec<i32> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .map(|l| l.split_whitespace().nth(2).unwrap().parse().unwrap())
        .collect();
    assert!(depths.iter().max().copied().unwrap_or(0) >= 4, "{lines:#?}");
}

#[test]
fn every_clock_form() {
    let mut e = ucci();
    for go in [
        "go time 2000 movestogo 20",
        "go time 2000 increment 20",
        "go time 2000 increment 20 opptime 1000 oppincrement 20",
        "go time 2000 movestogo 20 opptime 2000 oppmovestogo 20",
        "go nodes 3000",
        "go depth 3",
    ] {
        e.send("position startpos moves h2e2");
        let t = Instant::now();
        e.send(go);
        let lines = e.until_prefix("bestmove");
        assert_legal_bestmove(lines.last().unwrap(), &board_after(None, &["h2e2"]));
        assert!(t.elapsed() < Duration::from_secs(3), "{go}");
    }
}

#[test]
fn banmoves_are_avoided_and_reset_by_position() {
    let mut e = ucci();
    e.send("position startpos");
    e.send("go depth 3");
    let first = bestmove_of(e.until_prefix("bestmove").last().unwrap()).unwrap();
    e.send(&format!("banmoves {first}"));
    e.send("go depth 3");
    let second = bestmove_of(e.until_prefix("bestmove").last().unwrap()).unwrap();
    assert_ne!(first, second);
    // The spec's example (1999 rules, diagram 3).
    e.send("position fen 1r2kab1r/2c1a4/n1c1b1n2/4p2N1/p1p6/1C4P2/P1P1P4/2N1B3C/4A4/1RBAK2R1 w - - 0 1 moves h6i4 i9h9 i4h6 h9i9");
    e.send("banmoves h6i4");
    e.send("go depth 4");
    let m = bestmove_of(e.until_prefix("bestmove").last().unwrap()).unwrap();
    assert_ne!(m, "h6i4");
    // Everything banned: no move (d0d1 is Red's only legal move here).
    let only_move = "position fen 4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1";
    e.send(only_move);
    e.send("banmoves d0d1");
    e.send("go depth 3");
    assert_eq!(e.until_prefix("nobestmove").last().unwrap(), "nobestmove");
    // A new position clears the ban list: the only move is played again.
    // (Comparing searches of the start position instead depends on what
    // the hash table holds from the searches before.)
    e.send("banmoves d0d1");
    e.send(only_move);
    e.send("go depth 3");
    let answer = e.read_until(|l| l.starts_with("bestmove") || l == "nobestmove");
    assert_eq!(bestmove_of(answer.last().unwrap()).as_deref(), Some("d0d1"));
}

#[test]
fn nobestmove_cases() {
    let mut e = ucci();
    // Stalemated: no legal move.
    e.send("position fen 3k5/9/3P5/9/9/9/9/9/9/4RK3 b - - 0 1");
    e.send("go depth 3");
    assert_eq!(e.until_prefix("nobestmove"), vec!["nobestmove"]);
    // Stop while idle.
    e.send("stop");
    assert_eq!(e.until_prefix("nobestmove"), vec!["nobestmove"]);
    // Depth 0: a static score only.
    e.send("position startpos");
    e.send("go depth 0");
    let lines = e.until_prefix("nobestmove");
    assert!(lines[0].starts_with("info depth 0 score "), "{lines:#?}");
}

#[test]
fn ponder_hit_and_miss() {
    let mut e = ucci();
    e.send("position startpos moves b0c2 b9c7");
    e.send("go ponder time 5000 increment 0");
    let quiet = e.drain(Duration::from_millis(300));
    assert!(quiet.iter().all(|l| bestmove_of(l).is_none()));
    e.send("ponderhit");
    let lines = e.until_prefix("bestmove");
    assert_legal_bestmove(lines.last().unwrap(), &board_after(None, &["b0c2", "b9c7"]));
    // Miss: stop, then the real position.
    e.send("go ponder time 5000 increment 0");
    std::thread::sleep(Duration::from_millis(100));
    e.send("stop");
    e.until_prefix("bestmove");
    e.send("position startpos moves b0c2 b9c7 c3c4 h9i7");
    e.send("go time 300 increment 0");
    let lines = e.until_prefix("bestmove");
    assert_legal_bestmove(
        lines.last().unwrap(),
        &board_after(None, &["b0c2", "b9c7", "c3c4", "h9i7"]),
    );
}

#[test]
fn draw_offer_and_resign() {
    let mut e = ucci();
    // Red is a rook down: a draw offer is accepted.
    e.send("position fen 5k3/9/9/9/8r/9/9/9/9/3K5 w - - 0 1");
    e.send("go draw depth 3");
    let l = e.until_prefix("bestmove");
    assert!(l.last().unwrap().ends_with(" draw"), "{l:#?}");
    // Red is winning: no draw.
    e.send("position fen 3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1");
    e.send("go draw depth 3");
    let l = e.until_prefix("bestmove");
    assert!(!l.last().unwrap().ends_with(" draw"), "{l:#?}");
    // Black's only move is a pawn push, then the rook mates: it resigns.
    e.send("position fen 3k5/9/3P5/8p/9/9/9/9/9/R3K4 b - - 0 1");
    e.send("go depth 4");
    let l = e.until_prefix("bestmove");
    assert!(l.last().unwrap().ends_with(" resign"), "{l:#?}");
}

#[test]
fn probe_answers_pophash() {
    let mut e = ucci();
    e.send("probe startpos");
    assert_eq!(e.until_prefix("pophash"), vec!["pophash"]);
    e.send("position startpos");
    e.send("go depth 4");
    let best = bestmove_of(e.until_prefix("bestmove").last().unwrap()).unwrap();
    e.send("probe startpos");
    let l = e.until_prefix("pophash").pop().unwrap();
    assert!(
        l.starts_with(&format!("pophash bestmove {best} lowerbound ")),
        "{l}"
    );
    assert!(l.contains(" upperbound "), "{l}");
}

#[test]
fn batch_mode_reads_nothing_while_thinking() {
    let mut e = ucci();
    e.send("setoption batch true");
    e.send("position startpos");
    e.send("go depth 5");
    e.send("position startpos moves h2e2");
    e.send("go depth 5");
    e.send("quit");
    let lines = e.until_prefix("bye");
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove")).count(),
        2,
        "{lines:#?}"
    );
    // Both searches ran to depth 5.
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.starts_with("info depth 5 "))
            .count(),
        2
    );
}

#[test]
fn errors_are_info_strings() {
    let mut e = ucci();
    for bad in [
        "position fen xyz",
        "position fen 4k4/9/9/9/9/9/9/9/9/4K4 w",
        "banmoves zz99",
        "hello",
        "setoption hashsize lots",
    ] {
        e.send(bad);
        let l = e.sync();
        assert!(
            l.len() == 1 && l[0].starts_with("info string error: "),
            "{bad}: {l:#?}"
        );
    }
    // A bad value names the option as UCCI does, whichever dialect's name
    // the table gives first.
    for (bad, want) in [
        (
            "setoption hashsize 99999999",
            "info string error: option hashsize: 99999999 is outside 0..65536; unchanged",
        ),
        (
            "setoption threads many",
            "info string error: option threads: 'many' is not a number",
        ),
    ] {
        e.send(bad);
        assert_eq!(e.sync(), [want], "{bad}");
    }
    // A known option is set silently; unknown ones are no error (the spec
    // says so) but are reported as ignored.
    e.send("setoption usebook false");
    assert!(e.sync().is_empty());
    for (unknown, name) in [
        ("setoption style risky", "style"),
        ("setoption loadbook", "loadbook"),
    ] {
        e.send(unknown);
        assert_eq!(
            e.sync(),
            vec![format!("info string unknown option '{name}' ignored")],
            "{unknown}"
        );
    }
    e.send("go depth");
    let l = e.until_prefix("bestmove");
    assert!(
        l[0].starts_with("info string error: go: 'depth' needs a value"),
        "{l:#?}"
    );
}

#[test]
fn opening_book_moves_as_elephanteye_announces_them() {
    let mut e = ucci();
    e.send("position startpos");
    e.send("go time 60000 increment 0");
    let lines = e.until_prefix("bestmove");
    // Every book move as a depth-0 line, then the move chosen.
    let book: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth 0 score "))
        .collect();
    assert!(book.len() >= 2, "{lines:#?}");
    let played = bestmove_of(lines.last().unwrap()).unwrap();
    assert!(book.iter().any(|l| l.ends_with(&format!("pv {played}"))));
    e.send("setoption usebook false");
    e.send("go time 1000 increment 0");
    let lines = e.until_prefix("bestmove");
    assert!(!lines.iter().any(|l| l.starts_with("info depth 0 ")));
}

#[test]
fn zero_hash_and_threads_are_the_engines_choice() {
    let mut e = ucci();
    e.send("setoption hashsize 0");
    e.send("setoption threads 0");
    e.send("isready");
    let lines = e.until_prefix("readyok");
    assert!(
        lines.iter().all(|l| !l.contains("error")),
        "0 is announced as the minimum, so it is accepted: {lines:#?}"
    );
    e.send("position startpos");
    e.send("go depth 4");
    let lines = e.until_prefix("bestmove");
    assert_legal_bestmove(lines.last().unwrap(), &board_after(None, &[]));
}
