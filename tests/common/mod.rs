//! Helpers shared by the integration tests: the rules helpers of the
//! `xiangqi` tests, a running engine process, scratch folders and the
//! match runner's PGNs (`pgn`).
// Test code: a failed unwrap is a failed test, reported with its line.
#![allow(clippy::unwrap_used)]
#![allow(dead_code)]

#[path = "../../xiangqi/tests/common/mod.rs"]
mod rules;
#[allow(unused_imports)]
pub use rules::*;

pub mod pgn;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};
use xiangqi::{Board, Move};

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

/// How long a read waits before the test fails it as a hang: `WAIT`, or
/// `JIANGJUN_TEST_WAIT_SECS` seconds (for long runs on a loaded machine,
/// where a short search can take many seconds).
pub fn wait() -> Duration {
    static W: std::sync::OnceLock<Duration> = std::sync::OnceLock::new();
    *W.get_or_init(|| {
        std::env::var("JIANGJUN_TEST_WAIT_SECS")
            .ok()
            .and_then(|s| s.trim().parse().ok())
            .map_or(WAIT, Duration::from_secs)
    })
}

impl EngineProcess {
    pub fn start() -> EngineProcess {
        Self::start_with_args(&[])
    }

    pub fn start_with_args(args: &[&str]) -> EngineProcess {
        Self::start_program(env!("CARGO_BIN_EXE_jiangjun"), args)
    }

    /// The engine the GUI-facing tests drive ([`test_engine`]).
    pub fn start_test_engine() -> EngineProcess {
        Self::start_program(&test_engine(), &[])
    }

    /// The executable `program` (any engine speaking the protocols).
    pub fn start_program(program: &str, args: &[&str]) -> EngineProcess {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("start {program}: {e}"));
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            // Bytes, read as UTF-8 with replacements: a line may name a
            // path in the GUI's encoding (GBK), as the GUI sent it.
            for line in BufReader::new(stdout).split(b'\n') {
                match line {
                    Ok(bytes) => {
                        let l = String::from_utf8_lossy(&bytes).into_owned();
                        // A Windows build may end its lines with "\r\n".
                        let l = l.strip_suffix('\r').map(String::from).unwrap_or(l);
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
        self.read_until_within(wait(), done)
    }

    /// As [`Self::read_until`], failing after `limit` instead of [`wait`].
    pub fn read_until_within(
        &mut self,
        limit: Duration,
        done: impl Fn(&str) -> bool,
    ) -> Vec<String> {
        let deadline = Instant::now() + limit;
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
        self.wait_exit_within(wait())
    }

    /// Wait up to `limit` for the process to exit; its success.
    pub fn wait_exit_within(&mut self, limit: Duration) -> bool {
        let deadline = Instant::now() + limit;
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

/// The engine the GUI-facing tests drive: the executable named by
/// `JIANGJUN_TEST_ENGINE` when set (CI points it at a Wine wrapper running
/// the Windows build), else this build's `jiangjun`.
pub fn test_engine() -> String {
    std::env::var("JIANGJUN_TEST_ENGINE")
        .ok()
        .filter(|s| !s.trim().is_empty())
        .unwrap_or_else(|| env!("CARGO_BIN_EXE_jiangjun").to_string())
}

/// Whether the tests drive another executable than this build's (slower
/// start-up and timing under Wine: bounds are widened).
pub fn foreign_engine() -> bool {
    test_engine() != env!("CARGO_BIN_EXE_jiangjun")
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

/// The count of bench's `Nodes searched  : N` line.
pub fn bench_nodes(out: &str) -> u64 {
    out.lines()
        .find(|l| l.starts_with("Nodes searched"))
        .and_then(|l| l.split(':').nth(1))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no node count: {out}"))
}

/// Run the `jiangjun` binary with `args` to the end: (success, stdout, stderr).
pub fn run_jiangjun(args: &[&str]) -> (bool, String, String) {
    let (code, out, err) = run_jiangjun_code(args);
    (code == 0, out, err)
}

/// Run the `jiangjun` binary with `args` to the end: (exit code, stdout,
/// stderr), the code -1 when a signal ended it. For tools whose exit codes
/// differ by cause (`tb probe`: 2 for bad input, 3 outside the tables).
pub fn run_jiangjun_code(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_jiangjun"))
        .args(args)
        .output()
        .expect("run jiangjun");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// An empty scratch folder `jj-<tag>-<pid>` under the system's temporary
/// folder (emptied first if a killed run left one), for a test's files.
pub fn scratch_dir(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("jj-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A file named `name` in the test folder (`CARGO_TARGET_TMPDIR`) holding
/// `bytes`, written anew by each call: for files a test hands the engine,
/// such as a network or a book.
pub fn scratch_file(name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let path = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// Whether `python3` runs (the fake and proxy engines of tests/clients
/// need it).
pub fn python3_available() -> bool {
    runs("python3", &["--version"])
}

/// Runs `python3 scripts/NAME ARGS` from the repository to its end, or
/// [`skip`]s and gives None when python3 cannot be started: the one way
/// the tests of the repository's Python scripts call them.
pub fn python_script(
    name: &str,
    args: &[impl AsRef<std::ffi::OsStr>],
) -> Option<std::process::Output> {
    let out = Command::new("python3")
        .arg(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("scripts")
                .join(name),
        )
        .args(args)
        .output();
    if out.is_err() {
        skip(&format!("python3 is needed for scripts/{name}"));
    }
    out.ok()
}

/// The built-in net as a file, for the commands that read a net from a
/// path: the engine's embedded bytes written once per test process into the
/// test folder, so no test names the net's file or its number. Written
/// under a name of this process and renamed into place (atomic), so test
/// processes running at once never read a half-written file and the folder
/// keeps one copy, not one per run.
pub fn builtin_net_file() -> std::path::PathBuf {
    static FILE: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    FILE.get_or_init(|| {
        let bytes = jiangjun_engine::nnue::EMBEDDED_NETWORK.expect("a network is built in");
        let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
        let partial = dir.join(format!("builtin-net.{}.partial", std::process::id()));
        let path = dir.join("builtin-net.nnue");
        std::fs::write(&partial, bytes).expect("the test folder is writable");
        std::fs::rename(&partial, &path).expect("the test folder is writable");
        path
    })
    .clone()
}
