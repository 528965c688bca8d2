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
use jiangjun_engine::{IterationInfo, Reporter, SearchResult};
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
}

impl SearchOutput {
    fn print(&self, lines: Vec<String>) {
        for l in lines {
            self.out.line(&l);
        }
    }
}

impl Reporter for SearchOutput {
    fn iteration(&self, info: &IterationInfo) {
        self.print(self.dialect.iteration_lines(info, self.style));
    }

    fn final_line(&self, info: &IterationInfo) {
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
        let draw = self.draw_offered.lock().map(|d| *d).unwrap_or(false);
        self.print(self.dialect.answer_lines(result, draw));
        let _ = self.events.send(Event::SearchDone(self.id));
    }
}
