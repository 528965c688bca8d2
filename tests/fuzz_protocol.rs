//! Deterministic protocol fuzzing against the real binary: hundreds of
//! thousands of random and mutated command lines in both dialects. After
//! every batch the engine must still answer `isready`, and after garbage it
//! must still set up a position and answer with a legal move.

mod common;

use common::{EngineProcess, Rng, assert_legal_bestmove, random_move};
use xiangqi::board::Board;

const SEEDS: &[&str] = &[
    "uci",
    "ucci",
    "isready",
    "ucinewgame",
    "setoption name Hash value 8",
    "setoption name Threads value 2",
    "setoption name MultiPV value 3",
    "setoption name Move Overhead value 20",
    "setoption name UCI_ShowWDL value true",
    "setoption name Clear Hash",
    "setoption name Ponder value false",
    "setoption hashsize 8",
    "setoption usemillisec false",
    "setoption usemillisec true",
    "setoption batch false",
    "setoption newgame",
    "setoption ponder 1",
    "position startpos",
    "position startpos moves h2e2 h9g7 h0g2 i9h9",
    "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves b0c2",
    "position fen 3k5/9/3P5/9/9/9/9/9/9/4RK3 b - - 0 1",
    "position fen 1rb1kab2/4a4/nc1c2n2/p1p1p3p/6p2/PN1R3R1/2P1P1r1P/2C1C1N2/4A4/2BAK1B2 w - - 0 1",
    "fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r moves h2e2",
    "startpos moves b2e2",
    "banmoves h2e2 b2e2",
    "go depth 2",
    "go nodes 500",
    "go movetime 5",
    "go wtime 100 btime 100 winc 5 binc 5",
    "go time 100 increment 5 opptime 100 oppincrement 5",
    "go time 100 movestogo 5",
    "go infinite",
    "go ponder time 100 increment 0",
    "go mate 2",
    "go depth 2 searchmoves h2e2 b2e2",
    "go draw depth 1",
    "go perft 2",
    "ponderhit",
    "ponderhit draw",
    "stop",
    "probe startpos",
    "d",
    "eval",
    "bench 1",
];

const WORDS: &[&str] = &[
    "go",
    "position",
    "fen",
    "startpos",
    "moves",
    "depth",
    "nodes",
    "time",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "increment",
    "movestogo",
    "opptime",
    "infinite",
    "ponder",
    "draw",
    "mate",
    "searchmoves",
    "setoption",
    "name",
    "value",
    "Hash",
    "Threads",
    "stop",
    "isready",
    "-1",
    "0",
    "1",
    "99999999999999999999",
    "-99999999",
    "1e9",
    "NaN",
    "inf",
    "3.5",
    "h2e2",
    "a0a9",
    "e9e8",
    "z9z9",
    "h2h2",
    "w",
    "b",
    "r",
    "-",
    "9/9/9",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
    "4k4/9/9/9/9/9/9/9/9/4K4",
    "KKK/9/9/9/9/9/9/9/9/9",
    "\u{0}",
    "\t",
    "日本",
    "ponderhit",
    "quitx",
    "",
    "banmoves",
    "probe",
];

fn mutate(rng: &mut Rng, line: &str) -> Vec<u8> {
    let mut toks: Vec<String> = line.split(' ').map(String::from).collect();
    for _ in 0..1 + rng.below(3) {
        let i = rng.below(toks.len() + 1);
        match rng.below(6) {
            0 if i < toks.len() => {
                toks.remove(i);
            }
            1 => toks.insert(i.min(toks.len()), WORDS[rng.below(WORDS.len())].to_string()),
            2 if i < toks.len() => toks[i] = WORDS[rng.below(WORDS.len())].to_string(),
            3 if i < toks.len() => {
                // Flip characters inside a token.
                let mut b: Vec<char> = toks[i].chars().collect();
                if !b.is_empty() {
                    let j = rng.below(b.len());
                    b[j] = char::from(32 + rng.below(95) as u8);
                }
                toks[i] = b.into_iter().collect();
            }
            4 if i < toks.len() => {
                let j = rng.below(toks.len());
                toks.swap(i, j)
            }
            _ => toks.push(rng.below(100000).to_string()),
        }
    }
    let mut bytes = toks
        .join(if rng.chance(10) { "  " } else { " " })
        .into_bytes();
    if rng.chance(3) {
        // Raw bytes, invalid UTF-8 included.
        let n = rng.below(20);
        for _ in 0..n {
            let at = rng.below(bytes.len() + 1);
            bytes.insert(at, rng.below(256) as u8);
        }
        bytes.retain(|&b| b != b'\n');
    }
    if rng.chance(5) {
        bytes.push(b'\r');
    }
    bytes
}

/// Keep searches short and allocations small so that batches finish
/// quickly. A bare `\r` ends a line too, so each piece between them is
/// tamed as the line it is.
fn tame(bytes: Vec<u8>) -> Vec<u8> {
    bytes
        .split(|&b| b == b'\r')
        .map(|piece| tame_line(piece.to_vec()))
        .collect::<Vec<_>>()
        .join(&b'\r')
}

fn tame_line(bytes: Vec<u8>) -> Vec<u8> {
    let text = String::from_utf8_lossy(&bytes).to_string();
    let first = text
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    let mut out = text.clone();
    if first == "go" {
        // Limits appended last win; `searchmoves` would swallow them.
        out = out
            .replace("perft", "depth")
            .replace("searchmoves", "depth");
        out.push_str(" nodes 2000 depth 3");
    } else if first == "bench" {
        out = "bench 1".into();
    } else if first == "setoption"
        && (text.to_ascii_lowercase().contains("hash") || text.contains("thread"))
    {
        // Tables of gigabytes are legal but not for a fuzz loop.
        let lower = text.to_ascii_lowercase();
        if lower
            .split_whitespace()
            .any(|t| t.parse::<i64>().is_ok_and(|n| n > 64))
        {
            out = "setoption name Hash value 8".into();
        }
    }
    if out == text { bytes } else { out.into_bytes() }
}

fn random_line(rng: &mut Rng) -> Vec<u8> {
    match rng.below(10) {
        0 => {
            // Pure noise.
            let n = rng.below(80);
            (0..n)
                .map(|_| rng.below(256) as u8)
                .filter(|&b| b != b'\n')
                .collect()
        }
        1 => {
            let n = 1 + rng.below(8);
            (0..n)
                .map(|_| WORDS[rng.below(WORDS.len())])
                .collect::<Vec<_>>()
                .join(" ")
                .into_bytes()
        }
        2..=3 => SEEDS[rng.below(SEEDS.len())].as_bytes().to_vec(),
        _ => {
            let seed = SEEDS[rng.below(SEEDS.len())];
            mutate(rng, seed)
        }
    }
}

/// Wait until everything sent so far has been handled: batches may contain
/// `isready` themselves, so the marker is a position only this sends.
fn marker_sync(e: &mut EngineProcess, rng: &mut Rng) {
    let n = 10_000 + rng.below(50_000);
    let fen = format!("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 {n}");
    e.send("stop");
    e.send(&format!("position fen {fen}"));
    e.send("d");
    let want = format!("Fen: {fen}");
    e.read_until(|l| l == want);
}

/// After garbage, a clean position and search must give a legal move.
fn check_still_sane(e: &mut EngineProcess, rng: &mut Rng, dialect: &str) {
    e.send(dialect);
    e.send("setoption name MultiPV value 1");
    e.send("setoption name Threads value 1");
    e.send("setoption name Hash value 8");
    e.send("setoption name batch value false");
    marker_sync(e, rng);
    let mut b = Board::startpos();
    let mut moves = Vec::new();
    for _ in 0..rng.below(30) {
        let Some(m) = random_move(&b, rng) else { break };
        b.make_move(m);
        moves.push(m.to_string());
    }
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    e.send("go depth 2");
    let lines = e.read_until(|l| l.starts_with("bestmove") || l == "nobestmove");
    let last = lines.last().unwrap();
    let _ = std::fs::write(
        concat!(env!("CARGO_TARGET_TMPDIR"), "/fuzz-last-log-").to_string() + dialect,
        e.log.join("\n"),
    );
    if b.has_legal_move() {
        assert_legal_bestmove(last, &b);
    } else {
        assert!(last == "nobestmove" || last == "bestmove (none)", "{last}");
    }
}

fn fuzz(seed: u64, dialect: &str, batches: usize, batch_len: usize) -> usize {
    let mut rng = Rng::new(seed);
    let mut e = EngineProcess::start();
    e.send(dialect);
    let mut sent = 0;
    for _ in 0..batches {
        let mut buf = Vec::new();
        for _ in 0..batch_len {
            let mut line = tame(random_line(&mut rng));
            // `quit` would end the process; it is tested elsewhere. (A bare
            // `\r` ends a line, so each piece between them is a line.)
            let is_quit = |piece: &[u8]| {
                let lower = String::from_utf8_lossy(piece).trim().to_ascii_lowercase();
                lower == "quit" || lower.starts_with("quit ")
            };
            if line.split(|&b| b == b'\r').any(is_quit) {
                line = b"isready".to_vec();
            }
            buf.extend_from_slice(&line);
            buf.push(b'\n');
            sent += 1;
        }
        // Kept on disk so that a failing batch can be replayed by hand.
        let _ = std::fs::write(
            concat!(env!("CARGO_TARGET_TMPDIR"), "/fuzz-last-batch-").to_string() + dialect,
            &buf,
        );
        e.send_raw(&buf);
        marker_sync(&mut e, &mut rng);
        // And it still answers `isready`.
        e.sync();
        check_still_sane(&mut e, &mut rng, dialect);
        // Drop what was read so the log does not grow without bound.
        e.log.clear();
    }
    sent
}

#[test]
fn fuzz_uci_lines() {
    let n = fuzz(11, "uci", 100, 1000);
    assert_eq!(n, 100_000);
}

#[test]
fn fuzz_ucci_lines() {
    let n = fuzz(12, "ucci", 100, 1000);
    assert_eq!(n, 100_000);
}

#[test]
fn one_megabyte_lines() {
    let mut e = EngineProcess::start();
    e.send("uci");
    e.until_prefix("uciok");
    // A megabyte of legal moves (a cycle of cannon moves) is accepted.
    let cycle = " h2e2 h7e7 e2h2 e7h7";
    let mut line = String::from("position startpos moves");
    while line.len() < 1 << 20 {
        line.push_str(cycle);
    }
    let line = &line[..line.rfind(" h2e2").unwrap()];
    e.send(line);
    assert!(e.sync().is_empty());
    e.send("go depth 3");
    let l = e.until_prefix("bestmove");
    assert_legal_bestmove(l.last().unwrap(), &Board::startpos());
    // Two megabytes of garbage are cut and reported.
    let junk = "x".repeat(2 << 20);
    e.send(&junk);
    let l = e.sync();
    assert!(l.len() == 1 && l[0].contains("longer than"), "{l:?}");
    e.send("d");
    e.until_prefix("Checkers");
}
