//! UCI sessions against the real binary, as Pikafish speaks UCI for Xiangqi.

mod common;

use common::{EngineProcess, assert_legal_bestmove, bestmove_of, board_after};
use jiangjun_engine::Position;
use jiangjun_engine::eval::{evaluate, evaluate_red};
use jiangjun_engine::nnue::{EMBEDDED_NETWORK, default_network};
use std::time::{Duration, Instant};

fn uci() -> EngineProcess {
    let mut e = EngineProcess::start();
    e.send("uci");
    let lines = e.until_prefix("uciok");
    assert!(lines.iter().any(|l| l.starts_with("id name Jiangjun")));
    assert!(lines.iter().any(|l| l.starts_with("id author ")));
    e
}

fn info_lines(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect()
}

#[test]
fn handshake_lists_every_option() {
    let mut e = EngineProcess::start();
    e.send("uci");
    let lines = e.until_prefix("uciok");
    for opt in [
        "option name Threads type spin default 1 min 1 max",
        "option name Hash type spin default 16 min 1 max",
        "option name Clear Hash type button",
        "option name Ponder type check default false",
        "option name MultiPV type spin default 1 min 1 max 128",
        "option name Move Overhead type spin default 10 min 0 max 5000",
        "option name UCI_ShowWDL type check default false",
        "option name UCI_Variant type combo default xiangqi var xiangqi",
    ] {
        assert!(
            lines.iter().any(|l| l.starts_with(opt)),
            "missing '{opt}' in {lines:#?}"
        );
    }
    assert!(e.sync().is_empty());
    e.send("quit");
    assert!(e.wait_exit());
    assert!(!e.log.iter().any(|l| l == "bye"), "UCI quit prints nothing");
}

#[test]
fn go_depth_reports_and_answers_a_legal_move() {
    let mut e = uci();
    e.send("ucinewgame");
    e.send("position startpos moves h2e2 h9g7");
    e.send("go depth 4");
    let lines = e.until_prefix("bestmove");
    let infos = info_lines(&lines);
    assert_eq!(infos.len(), 4, "{lines:#?}");
    for (i, l) in infos.iter().enumerate() {
        assert!(
            l.starts_with(&format!("info depth {} seldepth ", i + 1)),
            "{l}"
        );
        for key in [
            " multipv 1 ",
            " score cp ",
            " nodes ",
            " nps ",
            " hashfull ",
            " time ",
            " pv ",
        ] {
            assert!(l.contains(key), "'{key}' missing in {l}");
        }
    }
    let b = board_after(None, &["h2e2", "h9g7"]);
    assert_legal_bestmove(lines.last().unwrap(), &b);
    // The ponder move is legal after the best move.
    let last = lines.last().unwrap();
    let toks: Vec<&str> = last.split_whitespace().collect();
    if toks.len() == 4 {
        assert_eq!(toks[2], "ponder");
        let mut b2 = b.clone();
        b2.make_move(b.parse_move(toks[1]).unwrap());
        assert!(b2.parse_move(toks[3]).is_ok(), "{last}");
    }
}

#[test]
fn clock_forms_answer_in_time() {
    let mut e = uci();
    for go in [
        "go wtime 3000 btime 3000 winc 50 binc 50",
        "go wtime 10000 btime 10000 movestogo 40",
        "go btime 30000 wtime 30000 movestogo 40",
        "go movetime 200",
        "go nodes 5000",
        "go depth 3 movetime 10000",
        "go wtime 50 btime 50",
    ] {
        e.send("position startpos moves b2e2");
        let start = Instant::now();
        e.send(go);
        let lines = e.until_prefix("bestmove");
        assert_legal_bestmove(lines.last().unwrap(), &board_after(None, &["b2e2"]));
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "{go} took {:?}",
            start.elapsed()
        );
    }
}

#[test]
fn infinite_search_waits_for_stop() {
    let mut e = uci();
    e.send("position startpos");
    e.send("go infinite");
    let quiet = e.drain(Duration::from_millis(300));
    assert!(quiet.iter().all(|l| bestmove_of(l).is_none()), "{quiet:#?}");
    let t = Instant::now();
    e.send("stop");
    let lines = e.until_prefix("bestmove");
    assert!(t.elapsed() < Duration::from_millis(1000));
    assert_legal_bestmove(lines.last().unwrap(), &board_after(None, &[]));
}

#[test]
fn isready_is_answered_while_thinking() {
    let mut e = uci();
    e.send("go infinite");
    let lines = e.sync();
    assert!(lines.iter().all(|l| bestmove_of(l).is_none()));
    e.send("stop");
    e.until_prefix("bestmove");
}

#[test]
fn ponder_then_ponderhit() {
    let mut e = uci();
    e.send("setoption name Ponder value true");
    e.send("position startpos moves h2e2 h9g7");
    e.send("go ponder wtime 2000 btime 2000");
    let quiet = e.drain(Duration::from_millis(300));
    assert!(
        quiet.iter().all(|l| bestmove_of(l).is_none()),
        "no bestmove while pondering"
    );
    e.send("ponderhit");
    let lines = e.until_prefix("bestmove");
    assert_legal_bestmove(lines.last().unwrap(), &board_after(None, &["h2e2", "h9g7"]));
    // A ponder miss: stop, then a new position.
    e.send("go ponder wtime 2000 btime 2000");
    e.send("stop");
    e.until_prefix("bestmove");
}

#[test]
fn mate_search_and_scores() {
    let mut e = uci();
    // Red mates in one: the rook to the back rank (the pawn covers d8, the
    // king covers e9 along the open file).
    e.send("position fen 3k5/9/3P5/9/9/9/9/9/9/R3K4 w - - 0 1");
    e.send("go mate 1");
    let lines = e.until_prefix("bestmove");
    assert!(
        lines.iter().any(|l| l.contains("score mate 1")),
        "{lines:#?}"
    );
    assert_eq!(bestmove_of(lines.last().unwrap()).unwrap(), "a0a9");
}

#[test]
fn no_legal_move_gives_none() {
    let mut e = uci();
    e.send("position fen 3k5/9/3P5/9/9/9/9/9/9/4RK3 b - - 0 1");
    e.send("go depth 5");
    let lines = e.until_prefix("bestmove");
    assert_eq!(lines, vec!["info depth 0 score mate 0", "bestmove (none)"]);
    // Checkmate too.
    e.send("position fen R2k5/1R7/9/9/9/9/9/9/9/5K3 b - - 0 1");
    e.send("go movetime 100");
    let lines = e.until_prefix("bestmove");
    assert_eq!(lines.last().unwrap(), "bestmove (none)");
}

#[test]
fn searchmoves_restricts_the_root() {
    let mut e = uci();
    e.send("position startpos");
    e.send("go depth 3 searchmoves a3a4 i3i4");
    let lines = e.until_prefix("bestmove");
    let m = bestmove_of(lines.last().unwrap()).unwrap();
    assert!(m == "a3a4" || m == "i3i4", "{m}");
}

#[test]
fn multipv_and_wdl() {
    let mut e = uci();
    e.send("setoption name MultiPV value 3");
    e.send("setoption name UCI_ShowWDL value true");
    e.send("position startpos");
    e.send("go depth 3");
    let lines = e.until_prefix("bestmove");
    for k in 1..=3 {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info depth 3 ") && l.contains(&format!(" multipv {k} "))),
            "multipv {k}: {lines:#?}"
        );
    }
    let l = lines
        .iter()
        .find(|l| l.starts_with("info depth 3 "))
        .unwrap();
    let w: Vec<u32> = l
        .split(" wdl ")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .take(3)
        .map(|x| x.parse().unwrap())
        .collect();
    assert_eq!(w.iter().sum::<u32>(), 1000);
    // The three lines start with three different moves.
    let firsts: std::collections::HashSet<&str> = lines
        .iter()
        .filter(|l| l.starts_with("info depth 3 "))
        .map(|l| {
            l.split(" pv ")
                .nth(1)
                .unwrap()
                .split_whitespace()
                .next()
                .unwrap()
        })
        .collect();
    assert_eq!(firsts.len(), 3);
}

#[test]
fn go_perft_in_pikafish_format() {
    let mut e = uci();
    e.send("position startpos");
    e.send("go perft 2");
    let lines = e.until_prefix("Nodes searched");
    assert_eq!(lines.len(), 44 + 2);
    let mut sum = 0;
    for l in &lines[..44] {
        let (m, n) = l.split_once(": ").unwrap_or_else(|| panic!("{l}"));
        assert!(board_after(None, &[]).parse_move(m).is_ok(), "{l}");
        sum += n.parse::<u64>().unwrap();
    }
    assert_eq!(sum, 1920);
    assert!(lines.contains(&"h2e2: 45".to_string()), "{lines:#?}");
    assert_eq!(lines[44], "");
    assert_eq!(lines[45], "Nodes searched: 1920");
    assert_eq!(e.next_line(common::WAIT).unwrap(), "");
}

#[test]
fn long_perft_can_be_stopped() {
    let mut e = uci();
    e.send("go perft 9");
    std::thread::sleep(Duration::from_millis(200));
    e.send("stop");
    let l = e.until_prefix("info string perft stopped");
    assert!(!l.is_empty());
    assert!(e.sync().is_empty());
}

#[test]
fn cyclone_lines_and_red_side_letter() {
    let mut e = uci();
    e.send("fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r moves h2e2");
    e.send("d");
    let lines = e.until_prefix("Checkers");
    assert!(
        lines
            .iter()
            .any(|l| l
                == "Fen: rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1")
    );
    e.send("startpos moves h2e2 h7e7");
    e.send("d");
    let lines = e.until_prefix("Checkers");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Fen: rnbakabnr/9/1c2c4/")),
        "{lines:#?}"
    );
}

#[test]
fn d_and_eval() {
    let mut e = uci();
    e.send("position fen 4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1");
    e.send("d");
    let lines = e.until_prefix("Checkers");
    assert!(
        lines
            .iter()
            .any(|l| l == "Fen: 4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1")
    );
    assert!(lines.iter().any(|l| l.starts_with("Key: ")));
    assert_eq!(lines.last().unwrap(), "Checkers: e1");
    e.send("eval");
    let lines = e.until_prefix("final evaluation");
    let last = lines.last().unwrap();
    // `final evaluation R (red side), S (side to move)`: both numbers are
    // the engine's own evaluation of this position, Black to move a rook
    // down: the built-in network's when there is one, else the hand-made
    // evaluation's. (How large a rook-up score must be, a known win, is the
    // evaluation's business: `eval::tests::extra_rook_is_winning`.)
    let number = |part: &str| -> i32 {
        part.split_whitespace()
            .find_map(|w| w.parse().ok())
            .unwrap_or_else(|| panic!("no number in {last}"))
    };
    let (red, stm) = last.split_once(", ").unwrap();
    let board = xiangqi::Board::from_fen("4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1").unwrap();
    let mut position = Position::with_network(board.clone(), default_network());
    if EMBEDDED_NETWORK.is_some() {
        // The network's score, side to move's view, and its negation for Red.
        assert_eq!(number(stm), position.evaluate(), "{last}");
        assert_eq!(number(red), -position.evaluate(), "{last}");
        // And the hand-made breakdown above it ends with its own total.
        let hand_made = Position::new(board);
        assert!(
            lines.iter().any(|l| l
                == &format!(
                    "hand-made evaluation {} (red side), {} (side to move)",
                    evaluate_red(&hand_made),
                    evaluate(&hand_made)
                )),
            "{lines:#?}"
        );
    } else {
        assert_eq!(number(red), evaluate_red(&position), "{last}");
        assert_eq!(number(stm), evaluate(&position), "{last}");
    }
    assert!(number(stm) < 0 && number(red) > 0, "{last}");
}

#[test]
fn options_are_set_and_bad_values_reported() {
    let mut e = uci();
    for good in [
        "setoption name Hash value 32",
        "setoption name Threads value 2",
        "setoption name Clear Hash",
        "setoption name clear hash value true",
        "setoption name Move Overhead value 50",
        "setoption name UCI_Variant value xiangqi",
        "setoption name MultiPV value 1",
    ] {
        e.send(good);
        assert!(e.sync().is_empty(), "{good} printed something");
    }
    for bad in [
        "setoption name Hash value lots",
        "setoption name Threads value 0",
        "setoption name Ponder value maybe",
        "setoption name UCI_Variant value chess",
        "setoption name NoSuchOption value 1",
        "setoption hashsize 64",
    ] {
        e.send(bad);
        let l = e.sync();
        assert!(
            l.len() == 1 && l[0].starts_with("info string error: "),
            "{bad}: {l:#?}"
        );
    }
    // Two threads still answer with a legal move.
    e.send("setoption name Threads value 2");
    e.send("position startpos");
    e.send("go depth 5");
    let lines = e.until_prefix("bestmove");
    assert_legal_bestmove(lines.last().unwrap(), &board_after(None, &[]));
}

#[test]
fn bad_input_keeps_the_last_good_position() {
    let mut e = uci();
    e.send("position startpos moves h2e2");
    for bad in [
        "position fen rnbakabnr/9/1c5c1 w - - 0 1",
        "position fen 4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
        "position fen",
        "position",
        "position sideways",
        "frobnicate",
    ] {
        e.send(bad);
        let l = e.sync();
        assert!(
            l.len() == 1 && l[0].starts_with("info string error: "),
            "{bad}: {l:#?}"
        );
    }
    e.send("d");
    let lines = e.until_prefix("Checkers");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Fen: rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/"))
    );
    // An illegal move ends the list; the moves before it stand.
    e.send("position startpos moves h2e2 h9g7 h2h9 b0c2");
    let l = e.sync();
    assert!(l[0].contains("move 3 of the list"), "{l:#?}");
    e.send("go depth 2");
    let lines = e.until_prefix("bestmove");
    assert_legal_bestmove(lines.last().unwrap(), &board_after(None, &["h2e2", "h9g7"]));
}

#[test]
fn crlf_and_blank_lines() {
    let mut e = EngineProcess::start();
    e.send_raw(b"uci\r\n\r\n   \r\nisready\r\n");
    e.until_prefix("readyok");
    e.send_raw(b"position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w\r\ngo depth 2\r\n");
    let lines = e.until_prefix("bestmove");
    assert_legal_bestmove(lines.last().unwrap(), &board_after(None, &[]));
}

#[test]
fn stop_latency_is_small() {
    let mut e = uci();
    e.send("position startpos");
    let mut worst = Duration::ZERO;
    for _ in 0..5 {
        e.send("go infinite");
        std::thread::sleep(Duration::from_millis(100));
        let t = Instant::now();
        e.send("stop");
        e.until_prefix("bestmove");
        worst = worst.max(t.elapsed());
    }
    eprintln!("worst stop latency {worst:?}");
    // The issue asks for 50 ms; a loaded CI machine gets a margin here.
    assert!(worst < Duration::from_millis(500), "{worst:?}");
}

#[test]
fn bench_command() {
    let mut e = uci();
    e.send("bench 3");
    let lines = e.until_prefix("Nodes/second");
    let nodes: u64 = lines
        .iter()
        .find(|l| l.starts_with("Nodes searched"))
        .unwrap()
        .split(':')
        .nth(1)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!(nodes > 1000);
}

#[test]
fn end_of_input_quits() {
    let mut e = uci();
    e.send("position startpos");
    e.send("go depth 2");
    e.close_stdin();
    let lines = e.until_prefix("bestmove");
    assert!(bestmove_of(lines.last().unwrap()).is_some());
    assert!(e.wait_exit());
}

#[test]
fn opening_book_moves() {
    let mut e = uci();
    e.send("position startpos");
    e.send("go wtime 60000 btime 60000");
    let lines = e.until_prefix("bestmove");
    let book: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string book move "))
        .collect();
    assert!(book.len() >= 2, "{lines:#?}");
    let played = bestmove_of(lines.last().unwrap()).unwrap();
    assert!(
        book.iter()
            .any(|l| l.split_whitespace().nth(4) == Some(played.as_str())),
        "{lines:#?}"
    );
    assert!(
        !lines.iter().any(|l| l.starts_with("info depth")),
        "a book move needs no search"
    );
    // Analysis (a depth limit) searches instead.
    e.send("go depth 3");
    let lines = e.until_prefix("bestmove");
    assert!(!lines.iter().any(|l| l.contains("book move")));
    // With the book off, a game move is searched too.
    e.send("setoption name OwnBook value false");
    e.send("go wtime 2000 btime 2000");
    let lines = e.until_prefix("bestmove");
    assert!(!lines.iter().any(|l| l.contains("book move")));
    assert!(lines.iter().any(|l| l.starts_with("info depth")));
    // A bad book file is reported and the old book kept.
    e.send("setoption name OwnBook value true");
    e.send("setoption name BookFile value /no/such/book");
    let l = e.sync();
    assert!(
        l.len() == 1 && l[0].starts_with("info string error: "),
        "{l:#?}"
    );
    e.send("go movetime 1000");
    let lines = e.until_prefix("bestmove");
    assert!(lines.iter().any(|l| l.contains("book move")));
}
