//! A UCI or UCCI engine as a child process: start-up handshake, options,
//! positions and `go` lines in its dialect, and replies read with deadlines.
//! Engines that number ranks 1-10 on the wire (Fairy-Stockfish in plain UCI)
//! get their moves converted both ways.

use crate::kv::{self, KeyValueError};
use crate::time_control::{TimeControl, TimeControlError};
use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};
use thiserror::Error;
use xiangqi::types::Move;

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proto {
    Uci,
    Ucci,
}

/// How an engine is started and spoken to (`--engine name=..,cmd=..,...`).
#[derive(Clone, Debug)]
pub struct EngineSpec {
    /// The name in the PGN and the summary.
    pub name: String,
    /// The program to run.
    pub cmd: String,
    /// Its command-line arguments.
    pub args: Vec<String>,
    /// Its working directory (default: the runner's).
    pub dir: Option<String>,
    pub proto: Proto,
    /// Options set after the handshake, as (name, value).
    pub options: Vec<(String, String)>,
    /// The engine numbers ranks 1-10 (Fairy-Stockfish's plain UCI).
    pub ranks_from_one: bool,
    /// UCCI time unit: milliseconds unless the engine is set to seconds.
    pub ucci_seconds: bool,
    /// A time control for this engine only (overrides the match's).
    pub tc: Option<TimeControl>,
}

/// An engine spec that does not parse.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SpecError {
    #[error("engine spec: {0}")]
    Syntax(#[from] KeyValueError),
    #[error("engine spec: unknown key '{0}'")]
    UnknownKey(String),
    #[error("engine spec: proto '{0}' is not uci or ucci")]
    Proto(String),
    #[error("engine spec: ranks '{0}' is not 0-9 or 1-10")]
    Ranks(String),
    #[error("engine spec: timeunit '{0}' is not ms or s")]
    TimeUnit(String),
    #[error("engine spec: {0}")]
    TimeControl(#[from] TimeControlError),
    #[error("engine spec: cmd= is required")]
    MissingCmd,
}

impl EngineSpec {
    /// An engine run as `cmd` (no arguments), named after the file, speaking `proto`.
    pub fn new(cmd: &str, proto: Proto) -> EngineSpec {
        EngineSpec {
            name: std::path::Path::new(cmd)
                .file_name()
                .map_or(cmd.to_string(), |f| f.to_string_lossy().to_string()),
            cmd: cmd.to_string(),
            args: Vec::new(),
            dir: None,
            proto,
            options: Vec::new(),
            ranks_from_one: false,
            ucci_seconds: false,
            tc: None,
        }
    }

    /// Parse `name=A,cmd=PATH,proto=uci|ucci,option.NAME=VALUE,arg=ARG,dir=DIR,
    /// ranks=0-9|1-10,timeunit=ms|s,tc=TC` (only `cmd` is required; `arg`
    /// and `option.*` may repeat; the name defaults to the program's file name).
    pub fn parse(text: &str) -> Result<EngineSpec, SpecError> {
        let pairs = kv::parse(text)?;
        let cmd = pairs
            .iter()
            .rev()
            .find(|(k, _)| *k == "cmd")
            .map(|(_, v)| *v)
            .filter(|v| !v.is_empty());
        let mut spec = EngineSpec::new(cmd.unwrap_or(""), Proto::Uci);
        let mut name = None;
        for (k, v) in pairs {
            match k {
                "name" => name = Some(v.to_string()),
                "cmd" => {}
                "arg" => spec.args.push(v.to_string()),
                "dir" => spec.dir = Some(v.to_string()),
                "proto" => {
                    spec.proto = match v.to_ascii_lowercase().as_str() {
                        "uci" => Proto::Uci,
                        "ucci" => Proto::Ucci,
                        _ => return Err(SpecError::Proto(v.to_string())),
                    }
                }
                "ranks" => {
                    spec.ranks_from_one = match v {
                        "0" | "0-9" => false,
                        "1" | "1-10" => true,
                        _ => return Err(SpecError::Ranks(v.to_string())),
                    }
                }
                "timeunit" => {
                    spec.ucci_seconds = match v {
                        "ms" => false,
                        "s" => true,
                        _ => return Err(SpecError::TimeUnit(v.to_string())),
                    }
                }
                "tc" => spec.tc = Some(TimeControl::parse(v)?),
                _ => match k.strip_prefix("option.") {
                    Some(option) if !option.is_empty() => {
                        spec.options.push((option.to_string(), v.to_string()))
                    }
                    _ => return Err(SpecError::UnknownKey(k.to_string())),
                },
            }
        }
        if cmd.is_none() {
            return Err(SpecError::MissingCmd);
        }
        if let Some(name) = name.filter(|n| !n.is_empty()) {
            spec.name = name;
        }
        Ok(spec)
    }
}

/// What an engine answered to `go`.
#[derive(Clone, Debug, Default)]
pub struct Reply {
    /// The move as the engine wrote it, converted to 0-9 ranks; `None` for
    /// `nobestmove`, `bestmove (none)` and the like.
    pub mv: Option<String>,
    pub resign: bool,
    /// Score of the last `info` line, from the engine's side, in centipawns
    /// (mates as +-(30000 - plies)).
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
    /// No answer before the deadline.
    #[error("no answer in time")]
    Timeout,
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

enum Line {
    Text(String),
    Eof,
}

/// A thread reading lines from `input`, `Eof` last.
fn spawn_reader(input: impl Read + Send + 'static) -> Receiver<Line> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let mut reader = BufReader::new(input);
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match reader.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => {
                    let _ = tx.send(Line::Eof);
                    return;
                }
                Ok(_) => {
                    let line = String::from_utf8_lossy(&buf).trim().to_string();
                    if tx.send(Line::Text(line)).is_err() {
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
}

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

impl Engine {
    /// Start the process and complete the handshake (within 10 s).
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
        }
        if e.has_variant && spec.proto == Proto::Uci {
            e.send("setoption name UCI_Variant value xiangqi")
                .map_err(setup)?;
        }
        if spec.proto == Proto::Ucci && announced_millisec && !spec.ucci_seconds {
            e.send("setoption usemillisec true").map_err(setup)?;
        }
        for (name, value) in &spec.options {
            let line = match spec.proto {
                Proto::Uci => format!("setoption name {name} value {value}"),
                Proto::Ucci => format!("setoption {name} {value}"),
            };
            e.send(&line).map_err(setup)?;
        }
        e.ready(Duration::from_secs(10)).map_err(setup)?;
        Ok(e)
    }

    /// Send one line.
    pub fn send(&mut self, line: &str) -> Result<(), Failure> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| Failure::Crash(format!("write failed: {e}")))
    }

    fn next_line(&mut self, deadline: Instant) -> Result<String, Failure> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.rx.recv_timeout(wait) {
            Ok(Line::Text(l)) => Ok(l),
            Ok(Line::Eof) | Err(RecvTimeoutError::Disconnected) => {
                let status = self.child.try_wait().ok().flatten();
                Err(Failure::Crash(match status {
                    Some(s) => format!("exited ({s})"),
                    None => "closed its output".into(),
                }))
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

    /// Tell the engine a new game starts, and wait until it is ready.
    pub fn new_game(&mut self) -> Result<(), Failure> {
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

    /// Send a `go` line and wait for the answer until `deadline`; on a
    /// timeout `stop` is sent and the answer waited for a little longer (it
    /// is still returned as a timeout).
    pub fn go(&mut self, go_line: &str, deadline: Instant) -> Result<Reply, Failure> {
        let start = Instant::now();
        self.send(go_line)?;
        let mut reply = Reply::default();
        let mut stopped = false;
        let mut deadline = deadline;
        loop {
            let line = match self.next_line(deadline) {
                Ok(l) => l,
                Err(Failure::Timeout) if !stopped => {
                    stopped = true;
                    self.send("stop")?;
                    deadline = Instant::now() + Duration::from_millis(1000);
                    continue;
                }
                Err(f) => return Err(f),
            };
            let mut t = line.split_whitespace();
            match t.next() {
                Some("info") => parse_info(&line, &mut reply),
                Some("nobestmove") => {
                    reply.elapsed = start.elapsed();
                    return if stopped {
                        Err(Failure::Timeout)
                    } else {
                        Ok(reply)
                    };
                }
                Some("bestmove") => {
                    reply.elapsed = start.elapsed();
                    let mv = t.next().unwrap_or("");
                    if !matches!(mv, "(none)" | "0000" | "null" | "resign" | "") {
                        reply.mv = Some(if self.spec.ranks_from_one {
                            shift_ranks(mv, -1).unwrap_or_else(|| mv.to_string())
                        } else {
                            mv.to_string()
                        });
                    }
                    reply.resign = mv == "resign" || t.any(|w| w == "resign");
                    return if stopped {
                        Err(Failure::Timeout)
                    } else {
                        Ok(reply)
                    };
                }
                _ => {}
            }
        }
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
                    score = t.get(i + 2).and_then(|v| v.parse().ok());
                    i += 3;
                }
                Some("mate") => {
                    score = t.get(i + 2).and_then(|v| v.parse::<i32>().ok()).map(|m| {
                        if m > 0 {
                            30000 - (2 * m - 1)
                        } else {
                            -30000 - 2 * m
                        }
                    });
                    i += 3;
                }
                // UCCI writes the number alone.
                Some(v) => {
                    score = v.parse().ok();
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
mod tests {
    use super::*;

    #[test]
    fn rank_shifts() {
        assert_eq!(shift_ranks("h2e2", 1).unwrap(), "h3e3");
        assert_eq!(shift_ranks("h9g7", 1).unwrap(), "h10g8");
        assert_eq!(shift_ranks("h10g8", -1).unwrap(), "h9g7");
        assert_eq!(shift_ranks("b10c8", -1).unwrap(), "b9c7");
        assert!(shift_ranks("x1y2", 1).is_none());
        assert!(shift_ranks("h2e", 1).is_none());
    }

    #[test]
    fn engine_specs() {
        let s = EngineSpec::parse(
            "name=FSF,cmd=/usr/games/fairy-stockfish,proto=ucci,option.Hash=64,ranks=0-9,tc=st=1",
        )
        .unwrap();
        assert_eq!(s.name, "FSF");
        assert_eq!(s.proto, Proto::Ucci);
        assert_eq!(s.options, vec![("Hash".to_string(), "64".to_string())]);
        assert_eq!(s.tc, Some(TimeControl::MoveTime(1000)));
        let s = EngineSpec::parse("cmd=./jiangjun,arg=-a,arg=b").unwrap();
        assert_eq!(s.name, "jiangjun");
        assert_eq!(s.args, vec!["-a", "b"]);
        assert_eq!(
            EngineSpec::parse("name=x").unwrap_err().to_string(),
            "engine spec: cmd= is required"
        );
        assert_eq!(
            EngineSpec::parse("cmd=x,proto=xboard")
                .unwrap_err()
                .to_string(),
            "engine spec: proto 'xboard' is not uci or ucci"
        );
        assert_eq!(
            EngineSpec::parse("cmd=x,bogus").unwrap_err().to_string(),
            "engine spec: 'bogus' is not key=value"
        );
        assert_eq!(
            EngineSpec::parse("cmd=x,hash=1").unwrap_err().to_string(),
            "engine spec: unknown key 'hash'"
        );
        assert!(EngineSpec::parse("cmd=x,tc=fast").is_err());
    }
}
