//! Jiangjun as a `wasm32-unknown-unknown` module with a plain C interface,
//! for the JavaScript loader in `web/pkg`. The host writes a line into the
//! buffer `jj_buffer` gives and calls `jj_line`; everything the engine says
//! comes back, a line at a time, through the imported `jj_write`.
//!
//! Imports (module `env`), supplied by `pkg/worker.mjs`:
//! - `jj_write(ptr, len)`: one line of output (UTF-8, no newline);
//! - `jj_now() -> f64`: milliseconds on a monotonic clock;
//! - `jj_poll(block_ms) -> u32`: 0, or 1 if `stop` and 2 if `ponderhit` was
//!   sent while a search runs (it may block up to `block_ms` waiting).
//!
//! Exports: `jj_start() -> i32` (0: ready), `jj_buffer(len) -> ptr`,
//! `jj_line(len) -> i32` (0: go on, 1: the session has quit).
//!
//! Rules queries (see `rules.rs`), apart from the session and usable
//! without starting it: write the query into `jj_buffer(len)`, call
//! `jj_rules(len) -> answer length`, read the JSON answer at `jj_answer()`.
//!
//! Endgame tables (see `tables.rs`): write a table file's name and then its
//! bytes into `jj_buffer(name_len + len)` and call `jj_tb_add(name_len,
//! len) -> answer length`; the JSON answer is at `jj_answer()`. The rules
//! query `tb POSITION` then answers from them.
//!
//! The threaded build (`+atomics`, `pkg/jiangjun-threads.wasm`; see
//! `threads.rs`) also imports `memory` (shared) and `jj_spawn(slot, state,
//! region, len) -> i32`, and exports `jj_thread_start(slot)` with what a
//! helper thread's host sets up first (`__stack_pointer`,
//! `__wasm_init_tls`, `__tls_size`, `__tls_align`).
//!
//! Natively the crate builds too (the workspace's checks see the code),
//! with stand-ins for the imports that print to stdout.

// The threaded build is made with RUSTC_BOOTSTRAP=1 already (std is built
// from source for it): its spawner waits on the slot's state word directly.
#![cfg_attr(target_feature = "atomics", feature(stdarch_wasm_atomic_wait))]

mod analysis;
mod gamefile;
mod host;
mod query;
mod rules;
mod tables;
#[cfg(all(
    target_family = "wasm",
    target_os = "unknown",
    target_feature = "atomics"
))]
mod threads;

use jiangjun_engine::Interrupt;
use jiangjun_protocol::output::Output;
use jiangjun_protocol::step::Stepper;
use std::cell::RefCell;
use std::io::Write;
use std::sync::Arc;

thread_local! {
    /// The session, once started; the host calls in from one thread only.
    static SESSION: RefCell<Option<Stepper>> = const { RefCell::new(None) };
    /// Where the host writes the next line.
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// The answer to the last rules query, kept for the host to read.
    static ANSWER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Output lines to the host: bytes are kept until a newline ends a line.
struct HostSink(Vec<u8>);

impl Write for HostSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.extend_from_slice(buf);
        while let Some(end) = self.0.iter().position(|&b| b == b'\n') {
            host::write(&self.0[..end]);
            self.0.drain(..=end);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Lock a mutex, recovering the data if a thread panicked while holding it.
#[cfg(all(
    target_family = "wasm",
    target_os = "unknown",
    target_feature = "atomics"
))]
fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

fn interrupt(block_ms: u32) -> Interrupt {
    match host::poll(block_ms) {
        1 => Interrupt::Stop,
        2 => Interrupt::PonderHit,
        _ => Interrupt::None,
    }
}

/// Start the session (again: a fresh one). 0 if it started, 1 if not (the
/// reason is written as an `info string`).
#[unsafe(no_mangle)]
pub extern "C" fn jj_start() -> i32 {
    // A panic aborts the module; say why first, so the host can show it.
    std::panic::set_hook(Box::new(|info| {
        host::write(format!("info string error: engine panic: {info}").as_bytes());
    }));
    host::install_clock();
    #[cfg(all(
        target_family = "wasm",
        target_os = "unknown",
        target_feature = "atomics"
    ))]
    jiangjun_engine::set_thread_spawner(threads::spawn);
    let out = Arc::new(Output::new(Box::new(HostSink(Vec::new()))));
    match Stepper::new(out, Some(interrupt)) {
        Ok(s) => {
            SESSION.with(|cell| *cell.borrow_mut() = Some(s));
            0
        }
        Err(e) => {
            host::write(format!("info string error: cannot start the engine: {e}").as_bytes());
            1
        }
    }
}

/// A buffer of `len` bytes for the next line; valid until the next call.
#[unsafe(no_mangle)]
pub extern "C" fn jj_buffer(len: usize) -> *mut u8 {
    INPUT.with(|cell| {
        let mut buf = cell.borrow_mut();
        buf.clear();
        buf.resize(len, 0);
        buf.as_mut_ptr()
    })
}

/// The first `len` bytes of the buffer as text (a line or a query).
fn input_text(len: usize) -> String {
    INPUT.with(|cell| {
        let buf = cell.borrow();
        // A `len` beyond the buffer is the host's mistake: take what exists.
        let bytes = &buf[..len.min(buf.len())];
        String::from_utf8_lossy(bytes)
            .trim_end_matches(['\r', '\n'])
            .to_string()
    })
}

/// Keep `answer` for the host; its length in bytes.
fn set_answer(answer: &str) -> usize {
    ANSWER.with(|cell| {
        let mut buf = cell.borrow_mut();
        buf.clear();
        buf.extend_from_slice(answer.as_bytes());
        buf.len()
    })
}

/// Answer the first `len` bytes of the buffer as a rules query; returns
/// the answer's length in bytes (read it at `jj_answer()`).
#[unsafe(no_mangle)]
pub extern "C" fn jj_rules(len: usize) -> usize {
    set_answer(&rules::answer(&input_text(len)))
}

/// Add the endgame table whose file name is the buffer's first `name_len`
/// bytes and whose file is the `len` bytes after them; returns the JSON
/// answer's length (see `tables::add`).
#[unsafe(no_mangle)]
pub extern "C" fn jj_tb_add(name_len: usize, len: usize) -> usize {
    let (name, bytes) = INPUT.with(|cell| {
        let mut buf = cell.borrow_mut();
        // Lengths beyond the buffer are the host's mistake: take what exists.
        let name_len = name_len.min(buf.len());
        let end = name_len.saturating_add(len).min(buf.len());
        let name = String::from_utf8_lossy(&buf[..name_len]).into_owned();
        let bytes = buf[name_len..end].to_vec();
        // The buffer held a whole table: give its memory back.
        *buf = Vec::new();
        (name, bytes)
    });
    set_answer(&tables::add(&name, bytes))
}

/// Read the game file whose name is the buffer's first `name_len` bytes
/// and whose bytes are the `len` after them; returns the JSON answer's
/// length (see `gamefile::read`).
#[unsafe(no_mangle)]
pub extern "C" fn jj_game_file(name_len: usize, len: usize) -> usize {
    let answer = INPUT.with(|cell| {
        let mut buf = cell.borrow_mut();
        // Lengths beyond the buffer are the host's mistake: take what exists.
        let name_len = name_len.min(buf.len());
        let end = name_len.saturating_add(len).min(buf.len());
        let name = String::from_utf8_lossy(&buf[..name_len]).into_owned();
        let answer = gamefile::read(&name, &buf[name_len..end]);
        // The buffer may have held a whole library: give its memory back.
        *buf = Vec::new();
        answer
    });
    set_answer(&answer.unwrap_or_else(|r| r.json()))
}

/// Where the last rules answer is; valid until the next `jj_rules`.
#[unsafe(no_mangle)]
pub extern "C" fn jj_answer() -> *const u8 {
    ANSWER.with(|cell| cell.borrow().as_ptr())
}

/// Handle the first `len` bytes of the buffer as one line. 1 once the
/// session has quit (or was never started), else 0.
#[unsafe(no_mangle)]
pub extern "C" fn jj_line(len: usize) -> i32 {
    let line = input_text(len);
    SESSION.with(|cell| match cell.borrow_mut().as_mut() {
        Some(s) => i32::from(!s.line(&line)),
        None => 1,
    })
}
