//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

/// `../shared` beside the project root, where reference data lives.
pub fn shared_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared")
}

/// Read a file under `../shared`, or print why the test is skipped and return None.
pub fn shared_file(rel: &str) -> Option<String> {
    let path = shared_dir().join(rel);
    match std::fs::read_to_string(&path) {
        Ok(s) => Some(s),
        Err(e) => {
            eprintln!(
                "SKIPPED: {} is missing ({e}); the test needs ../shared",
                path.display()
            );
            None
        }
    }
}

/// A small deterministic PRNG (xorshift64*), so random tests repeat exactly.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

use jiangjun::board::Board;
use jiangjun::types::{Move, Square};

/// A random legal position built by placing pieces on squares they can
/// reach; about half of the attempts are rejected by the FEN checks.
pub fn random_position(rng: &mut Rng) -> Board {
    loop {
        let mut grid = [['.'; 9]; 10];
        let place = |grid: &mut [[char; 9]; 10],
                     c: char,
                     ok: &dyn Fn(usize, usize) -> bool,
                     rng: &mut Rng| {
            for _ in 0..50 {
                let (f, r) = (rng.below(9), rng.below(10));
                if grid[r][f] == '.' && ok(f, r) {
                    grid[r][f] = c;
                    return;
                }
            }
        };
        for red in [true, false] {
            let rel = move |r: usize| if red { r } else { 9 - r };
            let case = |c: char| if red { c.to_ascii_uppercase() } else { c };
            place(
                &mut grid,
                case('k'),
                &|f, r| (3..=5).contains(&f) && rel(r) <= 2,
                rng,
            );
            for _ in 0..rng.below(3) {
                place(
                    &mut grid,
                    case('a'),
                    &|f, r| (3..=5).contains(&f) && rel(r) <= 2 && (f + rel(r)) % 2 == 1,
                    rng,
                );
            }
            for _ in 0..rng.below(3) {
                place(
                    &mut grid,
                    case('b'),
                    &|f, r| (rel(r) % 4 == 0 && (f == 2 || f == 6)) || (rel(r) == 2 && f % 4 == 0),
                    rng,
                );
            }
            for c in ['n', 'r', 'c'] {
                for _ in 0..rng.below(3) {
                    place(&mut grid, case(c), &|_, _| true, rng);
                }
            }
            for _ in 0..rng.below(6) {
                place(
                    &mut grid,
                    case('p'),
                    &|f, r| rel(r) >= 5 || (rel(r) >= 3 && f % 2 == 0),
                    rng,
                );
            }
        }
        let mut fen = String::new();
        for r in (0..10).rev() {
            let mut empty = 0;
            for &cell in &grid[r] {
                if cell == '.' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        fen.push_str(&empty.to_string());
                        empty = 0;
                    }
                    fen.push(cell);
                }
            }
            if empty > 0 {
                fen.push_str(&empty.to_string());
            }
            if r > 0 {
                fen.push('/');
            }
        }
        fen.push_str(if rng.chance(50) { " w" } else { " b" });
        if let Ok(b) = Board::from_fen(&fen) {
            return b;
        }
    }
}

/// Pick a random legal move, preferring checks and captures some of the time
/// so that playouts visit positions near checks and with few pieces.
pub fn random_move(board: &Board, rng: &mut Rng) -> Option<Move> {
    let moves: Vec<Move> = board.legal_moves().iter().collect();
    if moves.is_empty() {
        return None;
    }
    if rng.chance(30) {
        let checks: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&m| board.gives_check(m))
            .collect();
        if !checks.is_empty() {
            return Some(checks[rng.below(checks.len())]);
        }
    }
    if rng.chance(30) {
        let caps: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&m| board.piece_at(m.to()).is_some())
            .collect();
        if !caps.is_empty() {
            return Some(caps[rng.below(caps.len())]);
        }
    }
    Some(moves[rng.below(moves.len())])
}

pub fn sq(name: &str) -> Square {
    Square::parse(name).unwrap()
}

/// Sorted legal moves as strings.
pub fn legal_strings(board: &Board) -> Vec<String> {
    let mut v: Vec<String> = board.legal_moves().iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// The real `jiangjun` binary driven over pipes, with a reader thread so
/// that every wait has a timeout.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<String>,
    /// Every line read so far.
    pub log: Vec<String>,
}

pub const WAIT: Duration = Duration::from_secs(20);

impl EngineProcess {
    pub fn start() -> EngineProcess {
        Self::start_with_args(&[])
    }

    pub fn start_with_args(args: &[&str]) -> EngineProcess {
        let mut child = Command::new(env!("CARGO_BIN_EXE_jiangjun"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start jiangjun");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(l) => {
                        if tx.send(l).is_err() {
                            break;
                        }
                    }
                    Err(_) => break,
                }
            }
        });
        let stdin = child.stdin.take();
        EngineProcess {
            child,
            stdin,
            rx,
            log: Vec::new(),
        }
    }

    pub fn send(&mut self, line: &str) {
        self.send_raw(format!("{line}\n").as_bytes());
    }

    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("engine accepts input");
        stdin.flush().unwrap();
    }

    /// Close stdin (end of input).
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Next line within `timeout`, or None.
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        match self.rx.recv_timeout(timeout) {
            Ok(l) => {
                self.log.push(l.clone());
                Some(l)
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Lines up to and including the first one for which `done` holds.
    pub fn read_until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + WAIT;
        let mut out = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some(l) => {
                    let stop = done(&l);
                    out.push(l);
                    if stop {
                        return out;
                    }
                }
                None => panic!("timed out; lines so far: {out:#?}"),
            }
        }
    }

    /// Lines up to the first one starting with `prefix`.
    pub fn until_prefix(&mut self, prefix: &str) -> Vec<String> {
        let p = prefix.to_string();
        self.read_until(move |l| l.starts_with(&p))
    }

    /// `isready` and wait for `readyok`; returns the lines before it.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut v = self.until_prefix("readyok");
        v.pop();
        v
    }

    /// Lines that arrive within `d` (for checking that nothing is printed).
    pub fn drain(&mut self, d: Duration) -> Vec<String> {
        let deadline = Instant::now() + d;
        let mut out = Vec::new();
        while let Some(l) = self.next_line(deadline.saturating_duration_since(Instant::now())) {
            out.push(l);
        }
        out
    }

    /// Wait for the process to exit.
    pub fn wait_exit(&mut self) -> bool {
        let deadline = Instant::now() + WAIT;
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.success();
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("engine did not exit");
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The move of a `bestmove` line, if any.
pub fn bestmove_of(line: &str) -> Option<String> {
    let mut t = line.split_whitespace();
    (t.next() == Some("bestmove"))
        .then(|| t.next().map(String::from))
        .flatten()
}

/// Board after a move list from a FEN (or the start position).
pub fn board_after(fen: Option<&str>, moves: &[&str]) -> Board {
    let mut b = match fen {
        Some(f) => Board::from_fen(f).unwrap(),
        None => Board::startpos(),
    };
    for m in moves {
        let mv = b.parse_move(m).unwrap();
        b.make_move(mv);
    }
    b
}

/// Assert that `line` is `bestmove <legal move> ...` for `board`.
pub fn assert_legal_bestmove(line: &str, board: &Board) -> Move {
    let m = bestmove_of(line).unwrap_or_else(|| panic!("not a bestmove line: {line}"));
    match board.parse_move(&m) {
        Ok(mv) => mv,
        Err(e) => panic!("illegal bestmove '{line}': {e}"),
    }
}
