//! Deterministic protocol fuzzing against the real binary: random and
//! mutated command lines in both dialects. After every line the engine must
//! hold the position the protocol gives: the one it had, unless the line is
//! a position command (then exactly that position; a refused one keeps the
//! old), and every `bestmove` must be legal. After every batch it must still
//! answer `isready`, set up a position and answer with a legal move.
//!
//! The default tests send 100,000 lines per dialect. The nightly run sends
//! `JIANGJUN_FUZZ_LINES` (default a million), half per dialect on two
//! engines at once, from seed `JIANGJUN_FUZZ_SEED` (default 1), with a
//! progress line on stderr every 50,000 lines per dialect:
//!
//! `JIANGJUN_FUZZ_LINES=1000000 cargo test --test fuzz_protocol -- --ignored fuzz_nightly --nocapture`

// Test code: a failed unwrap is a failed test, reported with its line.
#![allow(clippy::unwrap_used)]

mod common;

use common::{EngineProcess, Rng, assert_legal_bestmove, bestmove_of, random_move};
use std::time::Instant;
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
fn tame(rng: &mut Rng, bytes: Vec<u8>) -> Vec<u8> {
    bytes
        .split(|&b| b == b'\r')
        .map(|piece| tame_line(rng, piece.to_vec()))
        .collect::<Vec<_>>()
        .join(&b'\r')
}

fn tame_line(rng: &mut Rng, bytes: Vec<u8>) -> Vec<u8> {
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
        // Even `bench 1` takes most of a second on a loaded machine (a new
        // hash table, a search per position): most are refused instead.
        out = if rng.chance(5) { "bench 1" } else { "bench 0" }.into();
    } else if first == "setoption"
        && (text.to_ascii_lowercase().contains("hash")
            || text.to_ascii_lowercase().contains("thread"))
    {
        // Tables of gigabytes, or dozens of threads, are legal but not for
        // a fuzz loop.
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

/// Does the engine read this piece (one line for it) as `quit`? The same
/// words as the engine's parser: UTF-8 with replacements, split at any
/// whitespace, the first word in any case.
fn is_quit(piece: &[u8]) -> bool {
    String::from_utf8_lossy(piece)
        .split_whitespace()
        .next()
        .is_some_and(|w| w.eq_ignore_ascii_case("quit"))
}

/// A random line as sent: tamed, and never `quit` (that would end the
/// process; it is tested elsewhere).
fn fuzz_line(rng: &mut Rng) -> Vec<u8> {
    let line = random_line(rng);
    let line = tame(rng, line);
    // A bare `\r` ends a line too, so each piece between them is a line.
    if line.split(|&b| b == b'\r').any(is_quit) {
        b"isready".to_vec()
    } else {
        line
    }
}

/// The position a position-setting command gives, written from the
/// protocol's rules (`docs/protocols.md`, "Bad input") and not from the engine's
/// parser: `None` if `piece` is not such a command (only `position`, and
/// the bare `fen ...` / `startpos ...` form, set the position, in both
/// dialects), `Some(None)` if it is one that must be refused (no
/// `startpos`/`fen`, words between `startpos` and `moves`, a FEN that
/// `Board::from_fen` rejects), else the position with the move list applied
/// up to its first illegal move. Keywords are matched in any case.
fn position_set_by(piece: &str) -> Option<Option<Board>> {
    let words: Vec<&str> = piece.split_whitespace().collect();
    let spec = match words.first()?.to_ascii_lowercase().as_str() {
        "position" => &words[1..],
        "fen" | "startpos" => &words[..],
        _ => return None,
    };
    let moves_at = spec
        .iter()
        .position(|w| w.eq_ignore_ascii_case("moves"))
        .unwrap_or(spec.len());
    let head = spec.get(1..moves_at).unwrap_or(&[]);
    let mut board = match spec.first().map(|w| w.to_ascii_lowercase()).as_deref() {
        Some("startpos") if head.is_empty() => Board::startpos(),
        Some("fen") if !head.is_empty() => match Board::from_fen(&head.join(" ")) {
            Ok(b) => b,
            Err(_) => return Some(None),
        },
        _ => return Some(None),
    };
    for m in spec.get(moves_at + 1..).unwrap_or(&[]) {
        match board.parse_move(m) {
            Ok(mv) => board.make_move(mv),
            Err(_) => break,
        }
    }
    Some(Some(board))
}

/// What a run saw.
#[derive(Default, Debug)]
struct Stats {
    /// Fuzz lines sent (a line with `\r` in it counts once).
    lines: usize,
    /// Lines answered with at least one `info string error`.
    bad: usize,
    /// Position commands the model accepted (the engine then had to hold
    /// exactly that position) and refused (it had to keep the old one).
    positions_set: usize,
    positions_refused: usize,
    /// `bestmove` answers checked for legality.
    bestmoves: usize,
}

/// One fuzz line as sent, with what it must leave.
struct Round {
    line: Vec<u8>,
    /// The line, then `d`, the marker's `position` and `d`.
    bytes: Vec<u8>,
    /// The position before the line, then each one it sets (the model).
    boards: Vec<Board>,
    /// The position set after the line.
    marker: Board,
}

/// One engine under fuzz, and the position it holds as far as the test
/// knows (checked after every line).
struct Fuzzer {
    e: EngineProcess,
    rng: Rng,
    dialect: &'static str,
    /// The engine's position: the last marker set.
    current: Board,
    /// The next marker's move number; see `new_marker`.
    next_number: u64,
    stats: Stats,
}

impl Fuzzer {
    fn new(seed: u64, dialect: &'static str) -> Fuzzer {
        let mut e = EngineProcess::start();
        e.send(dialect);
        let mut f = Fuzzer {
            e,
            rng: Rng::new(seed),
            dialect,
            current: Board::startpos(),
            next_number: 100_000_000,
            stats: Stats::default(),
        };
        f.set_marker();
        f
    }

    /// A random position reached by random moves, with a move number that
    /// nothing in `line` can produce: a FEN in the line has its move number
    /// as a run of digits there, and the moves after it (fewer than the
    /// line's bytes) cannot bring that to this one. So a `Fen:` line with
    /// it can only come from this marker.
    fn new_marker(&mut self, line: &[u8]) -> Board {
        let near = |n: u64| {
            line.split(|b| !b.is_ascii_digit())
                .filter_map(|run| std::str::from_utf8(run).ok()?.parse::<u64>().ok())
                .any(|v| v <= n && n - v <= line.len() as u64)
        };
        while near(self.next_number) {
            self.next_number += 1;
        }
        let n = self.next_number;
        self.next_number += 1;
        let mut b = Board::startpos();
        for _ in 0..1 + self.rng.below(40) {
            let Some(m) = random_move(&b, &mut self.rng) else {
                break;
            };
            b.make_move(m);
        }
        let fen = b.to_fen();
        let (head, _) = fen.rsplit_once(' ').unwrap();
        Board::from_fen(&format!("{head} {n}")).expect("marker FEN")
    }

    /// Put the engine in a fresh marker position and wait until it holds it
    /// (everything sent before has then been handled).
    fn set_marker(&mut self) {
        let marker = self.new_marker(b"");
        let fen = marker.to_fen();
        self.e.send(&format!("position fen {fen}\nd"));
        let want = format!("Fen: {fen}");
        self.e.read_until(|l| l == want);
        self.current = marker;
        self.e.log.clear();
    }

    /// Plan the check of one fuzz line: what the engine must hold after it
    /// (the model), and the marker that follows. The round is sent as the
    /// line, `d` (the position the line left), the marker's `position` and
    /// its `d`; the next line starts from the marker.
    fn plan(&mut self, line: Vec<u8>) -> Round {
        // The positions the line's pieces start from, in order; the last is
        // where it leaves the engine.
        let mut boards = vec![self.current.clone()];
        for piece in line.split(|&b| b == b'\r') {
            match position_set_by(&String::from_utf8_lossy(piece)) {
                Some(Some(b)) => {
                    self.stats.positions_set += 1;
                    boards.push(b);
                }
                Some(None) => self.stats.positions_refused += 1,
                None => {}
            }
        }
        let marker = self.new_marker(&line);
        let mut bytes = line.clone();
        bytes.extend_from_slice(format!("\nd\nposition fen {}\nd\n", marker.to_fen()).as_bytes());
        self.current = marker.clone();
        Round {
            line,
            bytes,
            boards,
            marker,
        }
    }

    /// Read one round's answer and check it: the position the line left is
    /// the model's (so the one it had, unless it was a position command the
    /// model accepts), and every `bestmove` is legal in a position the line
    /// searched from.
    ///
    /// Reading up to the marker's unique `Fen:` line takes in everything the
    /// line caused: a search it started has answered before the marker's
    /// `position` is handled (an infinite or pondering one is stopped for
    /// it), so no search output comes later, and the `d` right after the
    /// line printed the last `Fen:` before the marker's (a `d` in the line
    /// itself prints earlier).
    fn check(&mut self, round: &Round) {
        let marker_line = format!("Fen: {}", round.marker.to_fen());
        let out = self.e.read_until(|l| l == marker_line);
        self.stats.lines += 1;
        let fens: Vec<usize> = (0..out.len())
            .filter(|&i| out[i].starts_with("Fen: "))
            .collect();
        let at = fens[fens.len() - 2];
        let got = &out[at]["Fen: ".len()..];
        let key = out[at..].iter().find_map(|l| l.strip_prefix("Key: "));
        let want = round.boards.last().unwrap();
        let fail = |what: &str| -> ! {
            panic!(
                "{what}\n dialect {}\n line {:?}\n before {}\n want {} (key {:016X})\n got {got} (key {key:?})\n output {out:#?}",
                self.dialect,
                String::from_utf8_lossy(&round.line),
                round.boards[0].to_fen(),
                want.to_fen(),
                want.key()
            )
        };
        if got != want.to_fen() || key != Some(&format!("{:016X}", want.key())) {
            fail("the position after the line is not the one the protocol gives");
        }
        if Board::from_fen(got).is_err() {
            fail("the engine holds a position its own FEN reader rejects");
        }
        for l in &out {
            if let Some(mv) = bestmove_of(l).filter(|m| m != "(none)") {
                self.stats.bestmoves += 1;
                let ponder = l.split_whitespace().skip_while(|&w| w != "ponder").nth(1);
                let legal = round.boards.iter().any(|b| {
                    let Ok(m) = b.parse_move(&mv) else {
                        return false;
                    };
                    let mut after = b.clone();
                    after.make_move(m);
                    ponder.is_none_or(|p| p == "(none)" || after.parse_move(p).is_ok())
                });
                if !legal {
                    fail(&format!("illegal answer '{l}'"));
                }
            }
        }
        if out.iter().any(|l| l.starts_with("info string error")) {
            self.stats.bad += 1;
        }
        // Drop what was read so the log does not grow without bound.
        self.e.log.clear();
    }

    /// After garbage, the engine still answers `isready`, and a clean
    /// position and search give a legal move.
    fn check_still_sane(&mut self) {
        let dialect = self.dialect;
        self.e.sync();
        self.e.send(dialect);
        self.e.send("setoption name MultiPV value 1");
        self.e.send("setoption name Threads value 1");
        self.e.send("setoption name Hash value 8");
        self.e.send("setoption name batch value false");
        self.set_marker();
        let mut b = Board::startpos();
        let mut moves = Vec::new();
        for _ in 0..self.rng.below(30) {
            let Some(m) = random_move(&b, &mut self.rng) else {
                break;
            };
            b.make_move(m);
            moves.push(m.to_string());
        }
        self.e
            .send(&format!("position startpos moves {}", moves.join(" ")));
        self.e.send("go depth 2");
        let lines = self
            .e
            .read_until(|l| l.starts_with("bestmove") || l == "nobestmove");
        let last = lines.last().unwrap();
        if b.has_legal_move() {
            assert_legal_bestmove(last, &b);
        } else {
            assert!(last == "nobestmove" || last == "bestmove (none)", "{last}");
        }
        self.set_marker();
    }
}

/// Lines between sanity checks.
const BATCH: usize = 1000;

/// Fuzz one engine with `lines` lines, checking after every line, and
/// after every batch that it is still sane. `progress` prints a line to
/// stderr every 50,000 lines.
fn fuzz(seed: u64, dialect: &'static str, total: usize, progress: bool) -> Stats {
    let started = Instant::now();
    let mut f = Fuzzer::new(seed, dialect);
    let mut done = 0;
    while done < total {
        let lines: Vec<Vec<u8>> = (0..BATCH.min(total - done))
            .map(|_| fuzz_line(&mut f.rng))
            .collect();
        let rounds: Vec<Round> = lines.into_iter().map(|l| f.plan(l)).collect();
        let bytes: Vec<u8> = rounds.iter().flat_map(|r| r.bytes.clone()).collect();
        // Kept on disk so that a crash or hang can be replayed by hand.
        let _ = std::fs::write(
            concat!(env!("CARGO_TARGET_TMPDIR"), "/fuzz-last-batch-").to_string() + dialect,
            &bytes,
        );
        // The whole batch goes at once (waiting for each line's answer
        // would make the run several times slower); each round's answer is
        // then read and checked in turn.
        f.e.send_raw(&bytes);
        for round in &rounds {
            f.check(round);
            done += 1;
            if progress && done % 50_000 == 0 {
                eprintln!(
                    "fuzz {dialect}: {done}/{total} lines, {} bad, {:.0?}",
                    f.stats.bad,
                    started.elapsed()
                );
            }
        }
        f.check_still_sane();
    }
    f.stats
}

#[test]
fn fuzz_uci_lines() {
    let s = fuzz(11, "uci", 100_000, false);
    assert_eq!(s.lines, 100_000);
}

#[test]
fn fuzz_ucci_lines() {
    let s = fuzz(12, "ucci", 100_000, false);
    assert_eq!(s.lines, 100_000);
}

fn env_number(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(v) => v
            .trim()
            .replace('_', "")
            .parse()
            .unwrap_or_else(|_| panic!("{name}={v} is not a number")),
        Err(_) => default,
    }
}

/// The nightly run: `JIANGJUN_FUZZ_LINES` lines (default 1,000,000), half
/// in each dialect on two engines at once, from `JIANGJUN_FUZZ_SEED`
/// (default 1), every line checked as in the tests above:
///
/// `JIANGJUN_FUZZ_LINES=1000000 cargo test --test fuzz_protocol -- --ignored fuzz_nightly --nocapture`
#[test]
#[ignore = "nightly: about 1,000,000 lines; see the doc comment for the command"]
fn fuzz_nightly() {
    let lines = env_number("JIANGJUN_FUZZ_LINES", 1_000_000) as usize;
    let seed = env_number("JIANGJUN_FUZZ_SEED", 1);
    let started = Instant::now();
    let (uci, ucci) = std::thread::scope(|s| {
        let uci = s.spawn(|| fuzz(seed.wrapping_mul(2), "uci", lines / 2, true));
        let ucci = s.spawn(|| fuzz(seed.wrapping_mul(2) + 1, "ucci", lines - lines / 2, true));
        (uci.join().unwrap(), ucci.join().unwrap())
    });
    eprintln!(
        "fuzz nightly, seed {seed}: {} lines in {:.0?}\n uci  {uci:?}\n ucci {ucci:?}",
        uci.lines + ucci.lines,
        started.elapsed()
    );
    assert_eq!(uci.lines + ucci.lines, lines);
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
