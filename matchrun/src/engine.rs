//! A UCI or UCCI engine as a child process: start-up handshake, options,
//! positions and `go` lines in its dialect, and replies read with deadlines.
//! Engines that number ranks 1-10 on the wire (Fairy-Stockfish in plain UCI)
//! get their moves converted both ways.
//!
//! Options given with several values (`option.Hash=16|64`) change from
//! game to game ([`EngineSpec::options_for_game`]). A search can run while
//! the other engine thinks (pondering): [`Engine::start_search`] starts it,
//! [`Engine::poll`] takes its output without waiting, and
//! [`Engine::ponderhit`], [`Engine::wait`] and [`Engine::cancel`] end it.
//!
//! Whatever an engine writes is read defensively: lines are cut at
//! [`MAX_LINE`] bytes, at most [`QUEUE_LINES`] lines wait to be read (an
//! engine that floods its output waits too), and scores are clamped to the
//! range of [`MATE`] whatever numbers the engine prints.

pub use crate::spec::{EngineSpec, OptionSetting, Proto, SpecError};
use std::io::{self, BufRead, BufReader, Read, Write};
use std::num::IntErrorKind;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, TryRecvError, sync_channel};
use std::time::{Duration, Instant};
use thiserror::Error;
use xiangqi::types::Move;

/// Scores as the runner keeps them: centipawns from the engine's side, a
/// mate in `n` plies as `MATE - n`, being mated in `n` plies as `n - MATE`.
pub const MATE: i32 = 30000;
/// Mates further away than this are taken as this far.
pub const MAX_MATE_PLIES: i32 = 1000;
/// Centipawn scores are clamped to +-`MAX_CP`, below every mate score.
pub const MAX_CP: i32 = MATE - MAX_MATE_PLIES - 1;

/// What an engine answered to `go`.
#[derive(Clone, Debug, Default)]
pub struct Reply {
    /// The move as the engine wrote it, converted to 0-9 ranks; `None` for
    /// `nobestmove`, `bestmove (none)` and the like.
    pub mv: Option<String>,
    /// The reply it expects (`bestmove X ponder Y`), converted likewise.
    pub ponder: Option<String>,
    pub resign: bool,
    /// Score of the last `info` line, from the engine's side (see [`MATE`]).
    pub score: Option<i32>,
    pub depth: Option<u32>,
    pub elapsed: Duration,
}

/// How talking to an engine went wrong.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum Failure {
    /// The process ended (or its pipes broke).
    #[error("{0}")]
    Crash(String),
    /// No answer before the deadline (a search answered only after `stop`).
    #[error("no answer in time")]
    Timeout,
    /// A search answered neither before its deadline nor to `stop`.
    #[error("no answer to stop")]
    Hung,
    /// The process was ended by a signal that stops programs from outside
    /// (SIGTERM, SIGINT, SIGHUP or SIGKILL: a cluster requeueing the job, a
    /// user's Ctrl-C, the kernel out of memory), not by anything it did:
    /// the game it was in says nothing about its play.
    #[error("{0}")]
    Stopped(String),
}

/// An engine that could not be started and set up.
#[derive(Debug, Error)]
pub enum StartError {
    #[error("cannot start {cmd}: {source}")]
    Spawn {
        cmd: String,
        #[source]
        source: io::Error,
    },
    #[error("{name} handshake: {failure}")]
    Handshake { name: String, failure: Failure },
    /// Setting its options or waiting for `readyok` failed.
    #[error("{name}: {failure}")]
    Setup { name: String, failure: Failure },
}

impl StartError {
    /// Whether it failed because the process was stopped from outside.
    pub fn stopped_from_outside(&self) -> bool {
        match self {
            StartError::Spawn { .. } => false,
            StartError::Handshake { failure, .. } | StartError::Setup { failure, .. } => {
                matches!(failure, Failure::Stopped(_))
            }
        }
    }
}

/// Longest line kept from an engine, in bytes; the rest of a longer line is
/// read and dropped.
pub const MAX_LINE: usize = 64 * 1024;
/// Lines read ahead of the runner. When they are not taken, the reader
/// stops reading, and an engine that goes on writing waits on its pipe.
pub const QUEUE_LINES: usize = 256;

enum Line {
    /// A line and when it was read from the pipe.
    Text(String, Instant),
    Eof,
}

/// Read one line into `buf` (without its end), keeping at most `max` bytes
/// of it. Returns false at the end of the input.
fn read_line_capped(r: &mut impl BufRead, buf: &mut Vec<u8>, max: usize) -> io::Result<bool> {
    buf.clear();
    let mut read_any = false;
    loop {
        let chunk = match r.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(read_any);
        }
        read_any = true;
        let (line, used, end) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], i + 1, true),
            None => (chunk, chunk.len(), false),
        };
        let room = max.saturating_sub(buf.len());
        buf.extend_from_slice(&line[..line.len().min(room)]);
        r.consume(used);
        if end {
            return Ok(true);
        }
    }
}

/// A thread reading lines from `input` into a bounded queue, `Eof` last.
fn spawn_reader(input: impl Read + Send + 'static) -> Receiver<Line> {
    let (tx, rx) = sync_channel(QUEUE_LINES);
    std::thread::spawn(move || {
        let mut reader = BufReader::new(input);
        let mut buf = Vec::new();
        loop {
            match read_line_capped(&mut reader, &mut buf, MAX_LINE) {
                Ok(false) | Err(_) => {
                    let _ = tx.send(Line::Eof);
                    return;
                }
                Ok(true) => {
                    let line = String::from_utf8_lossy(&buf).trim().to_string();
                    if tx.send(Line::Text(line, Instant::now())).is_err() {
                        return;
                    }
                }
            }
        }
    });
    rx
}

/// An engine process with the handshake done.
pub struct Engine {
    pub spec: EngineSpec,
    child: Child,
    stdin: ChildStdin,
    rx: Receiver<Line>,
    /// The engine announced `UCI_Variant` (then it is set to xiangqi).
    has_variant: bool,
    /// Option values sent to this process, in the order first sent.
    set: Vec<(String, String)>,
    /// The search running, if any.
    search: Option<Search>,
    /// How the process failed, once its output ended.
    failed: Option<Failure>,
    /// When the last line taken was read from the pipe (answers are timed
    /// by it, not by when the runner got round to them).
    line_at: Instant,
}

/// A search that was started and is read as its output comes.
struct Search {
    /// The engine's clock started here.
    start: Instant,
    reply: Reply,
    /// When `bestmove` or `nobestmove` was read.
    answered: Option<Instant>,
    /// `stop` was sent because the deadline passed.
    stopped: bool,
}

/// How often [`Engine::wait`] runs its `idle` function at least.
const IDLE_EVERY: Duration = Duration::from_millis(20);

/// Convert a move between 0-9 and 1-10 rank numbering (`delta` = +1 or -1).
pub fn shift_ranks(mv: &str, delta: i32) -> Option<String> {
    let b = mv.as_bytes();
    let split = |s: &[u8]| -> Option<(char, i32, usize)> {
        let f = *s.first()? as char;
        if !('a'..='i').contains(&f) {
            return None;
        }
        let digits = s[1..].iter().take_while(|c| c.is_ascii_digit()).count();
        if digits == 0 {
            return None;
        }
        let r: i32 = std::str::from_utf8(&s[1..1 + digits]).ok()?.parse().ok()?;
        Some((f, r, 1 + digits))
    };
    let (f1, r1, n1) = split(b)?;
    let (f2, r2, n2) = split(&b[n1..])?;
    if n1 + n2 != b.len() {
        return None;
    }
    Some(format!("{f1}{}{f2}{}", r1 + delta, r2 + delta))
}

/// [`Failure::Stopped`] if the process was ended by a signal that stops
/// programs from outside; a crash's (SIGSEGV, SIGABRT, ...) is not one. The
/// runner kills an engine itself only once it has given up on it.
fn stopped_by(status: &std::process::ExitStatus) -> Option<Failure> {
    stop_signal(status).map(|sig| Failure::Stopped(format!("stopped from outside ({sig})")))
}

/// The name of such a signal, if it ended the process.
fn stop_signal(status: &std::process::ExitStatus) -> Option<&'static str> {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        match status.signal()? {
            1 => Some("SIGHUP"),
            2 => Some("SIGINT"),
            9 => Some("SIGKILL"),
            15 => Some("SIGTERM"),
            _ => None,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = status;
        None
    }
}

impl Engine {
    /// Start the process and complete the handshake (within 10 s); set the
    /// options that have one value, and `Ponder` if the spec ponders.
    pub fn start(spec: &EngineSpec) -> Result<Engine, StartError> {
        let spawn_error = |source| StartError::Spawn {
            cmd: spec.cmd.clone(),
            source,
        };
        let mut cmd = Command::new(&spec.cmd);
        cmd.args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(d) = &spec.dir {
            cmd.current_dir(d);
        }
        let mut child = cmd.spawn().map_err(spawn_error)?;
        let (Some(stdout), Some(stdin)) = (child.stdout.take(), child.stdin.take()) else {
            return Err(spawn_error(io::Error::other("no pipes")));
        };
        let mut e = Engine {
            spec: spec.clone(),
            child,
            stdin,
            rx: spawn_reader(stdout),
            has_variant: false,
            set: Vec::new(),
            search: None,
            failed: None,
            line_at: Instant::now(),
        };
        let handshake = |failure| StartError::Handshake {
            name: spec.name.clone(),
            failure,
        };
        let setup = |failure| StartError::Setup {
            name: spec.name.clone(),
            failure,
        };
        let deadline = Instant::now() + Duration::from_secs(10);
        let (hello, ok) = match spec.proto {
            Proto::Uci => ("uci", "uciok"),
            Proto::Ucci => ("ucci", "ucciok"),
        };
        e.send(hello).map_err(handshake)?;
        let mut announced_millisec = false;
        let mut announced_ponder = false;
        loop {
            let l = e.next_line(deadline).map_err(handshake)?;
            if l == ok {
                break;
            }
            if l.contains("UCI_Variant") {
                e.has_variant = true;
            }
            if l.starts_with("option usemillisec") {
                announced_millisec = true;
            }
            let mut words = l.split_whitespace();
            if words.next() == Some("option") {
                let name = match spec.proto {
                    Proto::Uci => words.nth(1),
                    Proto::Ucci => words.next(),
                };
                announced_ponder |= name.is_some_and(|n| n.eq_ignore_ascii_case("ponder"));
            }
        }
        if e.has_variant && spec.proto == Proto::Uci {
            e.send("setoption name UCI_Variant value xiangqi")
                .map_err(setup)?;
        }
        if spec.proto == Proto::Ucci && announced_millisec {
            // The runner's unit, whatever the engine's default.
            let on = !spec.ucci_seconds;
            e.set_option("usemillisec", if on { "true" } else { "false" })
                .map_err(setup)?;
        }
        let chosen = |name: &str| {
            spec.options
                .iter()
                .any(|o| o.name.eq_ignore_ascii_case(name))
        };
        if spec.ponder && announced_ponder && !chosen("ponder") {
            let name = match spec.proto {
                Proto::Uci => "Ponder",
                Proto::Ucci => "ponder",
            };
            e.set_option(name, "true").map_err(setup)?;
        }
        for o in spec.options.iter().filter(|o| o.is_fixed()) {
            let value = o.values.first().map_or("", String::as_str);
            e.set_option(&o.name, value).map_err(setup)?;
        }
        e.ready(Duration::from_secs(10)).map_err(setup)?;
        Ok(e)
    }

    /// Set an option (`setoption name N value V` in UCI, `setoption N V` in UCCI).
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), Failure> {
        let line = match self.spec.proto {
            Proto::Uci => format!("setoption name {name} value {value}"),
            Proto::Ucci => format!("setoption {name} {value}"),
        };
        self.send(&line)?;
        match self.set.iter_mut().find(|(n, _)| n == name) {
            Some(entry) => entry.1 = value.to_string(),
            None => self.set.push((name.to_string(), value.to_string())),
        }
        Ok(())
    }

    /// Send one line.
    pub fn send(&mut self, line: &str) -> Result<(), Failure> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| {
                // A pipe breaks when the process has ended: its status says why.
                std::thread::sleep(Duration::from_millis(20));
                let status = self.child.try_wait().ok().flatten();
                status
                    .and_then(|s| stopped_by(&s))
                    .unwrap_or_else(|| Failure::Crash(format!("write failed: {e}")))
            })
    }

    /// The failure of a process whose output ended.
    fn ended(&mut self) -> Failure {
        let f = self.failed.clone().unwrap_or_else(|| {
            let status = self.child.try_wait().ok().flatten();
            match status {
                Some(s) => {
                    stopped_by(&s).unwrap_or_else(|| Failure::Crash(format!("exited ({s})")))
                }
                None => Failure::Crash("closed its output".into()),
            }
        });
        self.failed = Some(f.clone());
        f
    }

    fn next_line(&mut self, deadline: Instant) -> Result<String, Failure> {
        if let Some(f) = &self.failed {
            return Err(f.clone());
        }
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.rx.recv_timeout(wait) {
            Ok(Line::Text(l, at)) => {
                self.line_at = at;
                Ok(l)
            }
            Ok(Line::Eof) | Err(RecvTimeoutError::Disconnected) => {
                // Let a process that is exiting finish, for its status.
                std::thread::sleep(Duration::from_millis(20));
                Err(self.ended())
            }
            Err(RecvTimeoutError::Timeout) => Err(Failure::Timeout),
        }
    }

    /// `isready` and wait for `readyok`.
    pub fn ready(&mut self, timeout: Duration) -> Result<(), Failure> {
        self.send("isready")?;
        let deadline = Instant::now() + timeout;
        loop {
            if self.next_line(deadline)? == "readyok" {
                return Ok(());
            }
        }
    }

    /// Tell the engine a new game starts, and wait until it is ready. The
    /// options are set first, those whose value changed.
    pub fn new_game(&mut self, options: &[(String, String)]) -> Result<(), Failure> {
        for (name, value) in options {
            if !self.set.iter().any(|(n, v)| n == name && v == value) {
                self.set_option(name, value)?;
            }
        }
        match self.spec.proto {
            Proto::Uci => self.send("ucinewgame")?,
            Proto::Ucci => self.send("setoption newgame")?,
        }
        self.ready(Duration::from_secs(10))
    }

    fn wire_move(&self, m: Move) -> String {
        let s = m.to_string();
        if self.spec.ranks_from_one {
            shift_ranks(&s, 1).unwrap_or(s)
        } else {
            s
        }
    }

    fn wire_to_ours(&self, mv: &str) -> String {
        if self.spec.ranks_from_one {
            shift_ranks(mv, -1).unwrap_or_else(|| mv.to_string())
        } else {
            mv.to_string()
        }
    }

    /// Send the position: a FEN and the moves played from it.
    pub fn position(&mut self, fen: &str, moves: &[Move]) -> Result<(), Failure> {
        let mut line = format!("position fen {fen}");
        if !moves.is_empty() {
            line.push_str(" moves");
            for &m in moves {
                line.push(' ');
                line.push_str(&self.wire_move(m));
            }
        }
        self.send(&line)
    }

    /// Send a `go` line (a `go ponder` line for pondering); the answer is
    /// read by [`Engine::poll`], [`Engine::wait`] or [`Engine::cancel`].
    pub fn start_search(&mut self, go_line: &str) -> Result<(), Failure> {
        let start = Instant::now();
        self.send(go_line)?;
        self.search = Some(Search {
            start,
            reply: Reply::default(),
            answered: None,
            stopped: false,
        });
        Ok(())
    }

    /// A search is running or its answer was not taken yet.
    pub fn searching(&self) -> bool {
        self.search.is_some()
    }

    /// Start the search's clock at `at`: for a ponder search when
    /// `ponderhit` is sent, or when the opponent moved.
    pub fn start_clock(&mut self, at: Instant) {
        if let Some(s) = self.search.as_mut() {
            s.start = at;
        }
    }

    /// Take one line of a search's output.
    fn absorb(&mut self, line: &str) {
        let mut t = line.split_whitespace();
        let first = t.next();
        let (mv, ponder, resign) = match first {
            Some("info") => {
                if let Some(s) = self.search.as_mut() {
                    parse_info(line, &mut s.reply);
                }
                return;
            }
            Some("nobestmove") => (None, None, false),
            Some("bestmove") => {
                let mv = t.next().unwrap_or("");
                let rest: Vec<&str> = t.collect();
                let ponder = rest
                    .iter()
                    .position(|&w| w == "ponder")
                    .and_then(|i| rest.get(i + 1))
                    .filter(|p| !matches!(**p, "(none)" | "0000" | "null"))
                    .map(|p| self.wire_to_ours(p));
                let resign = mv == "resign" || rest.contains(&"resign");
                let mv = (!matches!(mv, "(none)" | "0000" | "null" | "resign" | ""))
                    .then(|| self.wire_to_ours(mv));
                (mv, ponder, resign)
            }
            _ => return,
        };
        if let Some(s) = self.search.as_mut()
            && s.answered.is_none()
        {
            s.reply.mv = mv;
            s.reply.ponder = ponder;
            s.reply.resign = resign;
            s.answered = Some(self.line_at);
        }
    }

    /// Take the output that is waiting, without waiting for more. An ended
    /// process is an error (also for every later call).
    pub fn poll(&mut self) -> Result<(), Failure> {
        if let Some(f) = &self.failed {
            return Err(f.clone());
        }
        loop {
            match self.rx.try_recv() {
                Ok(Line::Text(l, at)) => {
                    self.line_at = at;
                    self.absorb(&l)
                }
                Ok(Line::Eof) | Err(TryRecvError::Disconnected) => return Err(self.ended()),
                Err(TryRecvError::Empty) => return Ok(()),
            }
        }
    }

    /// Send `ponderhit` to a ponder search (unless it has answered already).
    pub fn ponderhit(&mut self) -> Result<(), Failure> {
        self.poll()?;
        match &self.search {
            Some(s) if s.answered.is_none() => self.send("ponderhit"),
            _ => Ok(()),
        }
    }

    /// Wait for the search's answer until `deadline`, running `idle` at
    /// least every few milliseconds. At the deadline `stop` is sent: an
    /// answer within `grace` after it is a [`Failure::Timeout`], none a
    /// [`Failure::Hung`]. The reply's `elapsed` runs from the search's clock
    /// start to the answer.
    pub fn wait(
        &mut self,
        deadline: Instant,
        grace: Duration,
        idle: &mut dyn FnMut(),
    ) -> Result<Reply, Failure> {
        let mut deadline = deadline;
        let mut last_idle = Instant::now();
        loop {
            let Some(s) = self.search.as_mut() else {
                return Err(Failure::Crash("no search was started".into()));
            };
            if let Some(at) = s.answered {
                let stopped = s.stopped;
                let mut reply = std::mem::take(&mut s.reply);
                reply.elapsed = at.saturating_duration_since(s.start);
                self.search = None;
                return if stopped {
                    Err(Failure::Timeout)
                } else {
                    Ok(reply)
                };
            }
            let now = Instant::now();
            if now >= deadline && !s.stopped {
                // An answer may be waiting, read in time.
                self.poll()?;
                if self.search.as_ref().is_some_and(|s| s.answered.is_some()) {
                    continue;
                }
            }
            let Some(s) = self.search.as_mut() else {
                continue;
            };
            if now >= deadline {
                if s.stopped {
                    self.search = None;
                    return Err(Failure::Hung);
                }
                s.stopped = true;
                self.send("stop")?;
                deadline = now + grace;
                continue;
            }
            if now.duration_since(last_idle) >= IDLE_EVERY {
                idle();
                last_idle = now;
            }
            let slice = deadline.saturating_duration_since(now).min(IDLE_EVERY);
            match self.next_line(now + slice) {
                Ok(l) => self.absorb(&l),
                Err(Failure::Timeout) => {}
                Err(f) => {
                    self.search = None;
                    return Err(f);
                }
            }
        }
    }

    /// End the search and drop its answer: `stop` (unless it answered
    /// already), the answer within `grace`, then `isready` and `readyok`
    /// so that nothing of it is left to read.
    pub fn cancel(&mut self, grace: Duration) -> Result<(), Failure> {
        self.poll()?;
        let Some(s) = self.search.as_mut() else {
            return Ok(());
        };
        if s.answered.is_none() {
            s.stopped = true;
            self.send("stop")?;
            let deadline = Instant::now() + grace;
            while self.search.as_ref().is_some_and(|s| s.answered.is_none()) {
                match self.next_line(deadline) {
                    Ok(l) => self.absorb(&l),
                    Err(Failure::Timeout) => {
                        self.search = None;
                        return Err(Failure::Hung);
                    }
                    Err(f) => {
                        self.search = None;
                        return Err(f);
                    }
                }
            }
        }
        self.search = None;
        self.ready(grace.max(Duration::from_secs(1)))
    }

    /// Ask the engine to quit; kill it if it does not.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// An integer as an engine wrote it, saturated to the range of `i64`.
fn parse_int(text: &str) -> Option<i64> {
    match text.parse::<i64>() {
        Ok(v) => Some(v),
        Err(e) => match e.kind() {
            IntErrorKind::PosOverflow => Some(i64::MAX),
            IntErrorKind::NegOverflow => Some(i64::MIN),
            _ => None,
        },
    }
}

/// A centipawn score, clamped to +-[`MAX_CP`].
fn cp_score(text: &str) -> Option<i32> {
    parse_int(text).map(|v| v.clamp(-i64::from(MAX_CP), i64::from(MAX_CP)) as i32)
}

/// A `mate N` score (N moves, negative when the engine is mated).
fn mate_score(text: &str) -> Option<i32> {
    let moves = parse_int(text)?;
    let plies = if moves > 0 {
        moves.saturating_mul(2) - 1
    } else {
        moves.saturating_mul(-2)
    };
    let plies = plies.min(i64::from(MAX_MATE_PLIES)) as i32;
    Some(if moves > 0 {
        MATE - plies
    } else {
        plies - MATE
    })
}

/// ElephantEye's mate value: a UCCI score of `10000 - n` is a mate in `n`
/// plies, `n - 10000` being mated in `n` plies.
const UCCI_MATE: i64 = 10000;
/// UCCI scores beyond this (in absolute value) are wins, as in ElephantEye
/// (`WIN_VALUE`); scores within it are centipawns.
const UCCI_WIN: i64 = 9800;

/// A bare UCCI score: centipawns, or a mate in ElephantEye's convention.
fn ucci_score(text: &str) -> Option<i32> {
    let v = parse_int(text)?;
    let size = v.saturating_abs();
    if size <= UCCI_WIN || size > UCCI_MATE {
        return cp_score(text);
    }
    let plies = (UCCI_MATE - size) as i32;
    Some(if v > 0 { MATE - plies } else { plies - MATE })
}

/// Take the depth and score of an `info` line into `reply`.
fn parse_info(line: &str, reply: &mut Reply) {
    let t: Vec<&str> = line.split_whitespace().collect();
    let mut i = 1;
    let mut depth = None;
    let mut score = None;
    while i < t.len() {
        match t[i] {
            "depth" => {
                depth = t.get(i + 1).and_then(|d| d.parse().ok());
                i += 2;
            }
            "score" => match t.get(i + 1).copied() {
                Some("cp") => {
                    score = t.get(i + 2).and_then(|v| cp_score(v));
                    i += 3;
                }
                Some("mate") => {
                    score = t.get(i + 2).and_then(|v| mate_score(v));
                    i += 3;
                }
                // UCCI writes the number alone, mates as ElephantEye does.
                Some(v) => {
                    score = ucci_score(v);
                    i += 2;
                }
                None => i += 1,
            },
            "pv" | "string" => break,
            _ => i += 1,
        }
    }
    if score.is_some() {
        reply.score = score;
        reply.depth = depth.or(reply.depth);
    }
}
#[cfg(test)]
mod tests;
