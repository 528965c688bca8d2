//! The protocol front end: reads commands on stdin, keeps the position and
//! the options, has the engine (`jiangjun_engine::Engine`, which searches on
//! its own threads) search, and answers on stdout in the dialect chosen by
//! the first command (`ucci` or `uci`).
//!
//! A reader thread (`input.rs`) turns stdin into line events; the session
//! (`session.rs`, dialect-neutral) handles them in order; each dialect
//! (`uci.rs`, `ucci.rs`, behind the `Dialect` trait of `dialect.rs`) turns
//! its lines into commands and the session's answers into its lines; every
//! option is declared once, in `options.rs`.

pub mod command;
pub mod debug_log;
pub mod dialect;
pub mod dialects;
pub mod format;
pub mod input;
pub mod options;
pub mod output;
pub mod session;
pub mod ucci;
pub mod uci;

pub use input::{Event, MAX_LINE, read_lines};
use output::Output;
use session::Session;
pub use session::step;
use std::sync::Arc;
use std::sync::mpsc::channel;

/// Deepest `go perft` (deeper ones run for days).
pub const MAX_PERFT_DEPTH: i64 = 20;

/// Largest clock value a `go` may give, in milliseconds (about 24.8 days,
/// the most a 32-bit GUI clock holds): a `go` with a larger one is refused,
/// since its search would not end by itself in any useful time.
pub const MAX_CLOCK_MS: u64 = i32::MAX as u64;

pub const ENGINE_NAME: &str = "Jiangjun";
pub const ENGINE_AUTHOR: &str = "the Jiangjun developers";

/// Run the engine on stdin/stdout until `quit` or end of input.
pub fn run_stdio() {
    let (tx, rx) = channel();
    let reader_tx = tx.clone();
    let _ = std::thread::Builder::new()
        .name("stdin".into())
        .spawn(move || read_lines(std::io::stdin().lock(), reader_tx));
    match Session::new(Arc::new(Output::stdout()), tx) {
        Ok(session) => session.run(rx),
        Err(e) => eprintln!("jiangjun: cannot start the search threads: {e}"),
    }
}
