//! Everything the engine writes to stdout goes through `Output`, one whole
//! line at a time and flushed, so lines from the search thread and the
//! command loop never interleave. `SearchOutput`, the one reporter a `go`
//! hands the engine, writes the search's lines and answer in the GUI's
//! dialect.

use super::debug_log::DebugLog;
use super::dialect::{Dialect, Style};
use super::encoding::with_path_as_sent;
use super::input::Event;
use jiangjun_engine::play::book::Entry;
use jiangjun_engine::{Bound, IterationInfo, Reporter, Score, SearchResult};
use std::io::Write;
use std::path::Path;
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};
use xiangqi::types::Move;

/// A line sink: stdout in the engine, a buffer in tests.
pub struct Output {
    sink: Mutex<Box<dyn Write + Send>>,
    /// Every line written is copied here (`Debug Log File`).
    pub log: DebugLog,
}

impl Output {
    pub fn stdout() -> Output {
        Output::new(super::stdio::output())
    }

    pub fn new(sink: Box<dyn Write + Send>) -> Output {
        Output {
            sink: Mutex::new(sink),
            log: DebugLog::default(),
        }
    }

    /// Write one line and flush. A broken pipe is ignored: the GUI has gone.
    pub fn line(&self, text: &str) {
        self.write_line(text, text.as_bytes());
    }

    /// Write `bytes`, the line `text` reads as, and flush.
    fn write_line(&self, text: &str, bytes: &[u8]) {
        let mut sink = match self.sink.lock() {
            Ok(s) => s,
            Err(poisoned) => poisoned.into_inner(),
        };
        // Logged first: whatever the GUI sends in reply comes after it.
        self.log.output(text);
        log::debug!("<< {text}");
        let _ = sink.write_all(bytes);
        let _ = sink.write_all(b"\n");
        let _ = sink.flush();
    }

    /// An `info string` that names `path` (as it displays), with the path
    /// written in the bytes the GUI sent it in (`with_path_as_sent`).
    pub fn info_string_naming(&self, text: &str, path: &Path) {
        let line = format!("info string {text}");
        self.write_line(&line, &with_path_as_sent(&line, path));
    }

    /// An error that names `path`, written as [`Output::info_string_naming`].
    pub fn error_naming(&self, text: &str, path: &Path) {
        self.info_string_naming(&format!("error: {text}"), path);
    }

    /// Write several lines as one block.
    pub fn lines(&self, text: &str) {
        for l in text.lines() {
            self.line(l);
        }
    }

    pub fn info_string(&self, text: &str) {
        self.line(&format!("info string {text}"));
    }

    pub fn error(&self, text: &str) {
        self.info_string(&format!("error: {text}"));
    }
}

/// An iteration's line that says nothing new (the score, bound and line of
/// the last one printed) waits this long after that one before it is
/// printed; the last one held back is printed before the answer. In a
/// table position the iterations take microseconds each: 120 lines came
/// in 6 ms before this, where now two or three come.
pub const REPEAT_LINE_MS: u64 = 1000;

/// What was last printed of a search's lines, and the line held back.
#[derive(Default)]
pub struct Quiet {
    /// The score, bound and line of the last iteration printed, and when.
    last: Option<(Score, Bound, Vec<Move>, u64)>,
    /// The lines of the last iteration held back, if it was.
    held: Option<Vec<String>>,
}

/// A search's output: its lines in the GUI's dialect, then the answer
/// (with the draw offer, if any, accepted or not), then word to the
/// command loop that search `id` is done.
pub struct SearchOutput {
    pub out: Arc<Output>,
    pub dialect: &'static dyn Dialect,
    pub style: Style,
    /// The GUI offered a draw (`go draw`, `ponderhit draw`).
    pub draw_offered: Arc<Mutex<bool>>,
    pub events: Sender<Event>,
    pub id: u64,
    /// The rate limit of the iterations' lines ([`REPEAT_LINE_MS`]).
    pub quiet: Mutex<Quiet>,
}

impl SearchOutput {
    fn print(&self, lines: Vec<String>) {
        for l in lines {
            self.out.line(&l);
        }
    }

    fn quiet(&self) -> std::sync::MutexGuard<'_, Quiet> {
        match self.quiet.lock() {
            Ok(q) => q,
            Err(poisoned) => poisoned.into_inner(),
        }
    }
}

impl Reporter for SearchOutput {
    /// As Stockfish, a line per completed iteration (and `currmove` lines
    /// only after 3 s of search, from the engine), but with one line
    /// (MultiPV 1), an iteration that repeats the last line printed waits
    /// [`REPEAT_LINE_MS`] after it.
    fn iteration(&self, info: &IterationInfo) {
        let lines = self.dialect.iteration_lines(info, self.style);
        if self.style.multipv > 1 {
            self.print(lines);
            return;
        }
        let mut q = self.quiet();
        let repeats = q.last.as_ref().is_some_and(|(score, bound, pv, at)| {
            *score == info.score
                && *bound == info.bound
                && pv[..] == info.pv[..]
                && info.time_ms < at + REPEAT_LINE_MS
        });
        if repeats {
            q.held = Some(lines);
            return;
        }
        q.last = Some((info.score, info.bound, info.pv.to_vec(), info.time_ms));
        q.held = None;
        self.print(lines);
    }

    fn final_line(&self, info: &IterationInfo) {
        // The answer's own line comes instead of any held back.
        self.quiet().held = None;
        self.print(self.dialect.final_lines(info, self.style));
    }

    fn currmove(&self, depth: i32, mv: Move, number: usize) {
        self.out.line(&format!(
            "info depth {depth} currmove {mv} currmovenumber {number}"
        ));
    }

    fn book_moves(&self, entries: &[Entry], total: u32) {
        self.print(self.dialect.book_lines(entries, total));
    }

    fn best_move(&self, result: &SearchResult) {
        // The last iteration's line, if it was held back.
        if let Some(lines) = self.quiet().held.take() {
            self.print(lines);
        }
        let draw = self.draw_offered.lock().map(|d| *d).unwrap_or(false);
        self.print(self.dialect.answer_lines(result, draw));
        let _ = self.events.send(Event::SearchDone(self.id));
    }
}
