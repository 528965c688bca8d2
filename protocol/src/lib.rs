//! Jiangjun's protocol front end (crate `jiangjun-protocol`): reads commands
//! on stdin, keeps the position and the options, has the engine
//! (`jiangjun_engine::Engine`, which searches on its own threads) search,
//! and answers on stdout in the dialect chosen by the first command (`ucci`
//! or `uci`). It depends on `jiangjun-engine` and `xiangqi` only; the
//! `jiangjun` binary (its tools) and the WebAssembly build (`web/`) sit on
//! top of it.
//!
//! A reader thread (`input.rs`) turns stdin into line events (read as
//! `encoding.rs` says: a path keeps the bytes the GUI sent; `stdio.rs` has
//! the streams themselves); the session
//! (`session.rs`, dialect-neutral) handles them in order; each dialect
//! (`uci.rs`, `ucci.rs`, behind the `Dialect` trait of `dialect.rs`) turns
//! its lines into commands and the session's answers into its lines; every
//! option is declared once, in `options.rs`. The files import downward or
//! sideways only, never from this root: what several need lives in a leaf
//! (`identity.rs` the `id` lines, `command.rs` the bounds of a `go`).

pub mod command;
pub mod debug_log;
pub mod dialect;
pub mod dialects;
pub mod encoding;
pub mod format;
pub mod go_line;
pub mod identity;
pub mod input;
pub mod options;
pub mod output;
pub mod session;
pub mod stdio;
pub mod ucci;
pub mod uci;
// build.rs resolves the version with it; here only its tests run.
#[cfg(test)]
mod version;

pub use identity::{ENGINE_AUTHOR, ENGINE_NAME, RELEASE, VERSION};
pub use input::{Event, MAX_LINE, read_lines};
use output::Output;
use session::Session;
pub use session::step;
use std::sync::Arc;
use std::sync::mpsc::channel;

/// Run the engine on stdin/stdout until `quit` or end of input.
pub fn run_stdio() {
    let (tx, rx) = channel();
    let reader_tx = tx.clone();
    let _ = std::thread::Builder::new()
        .name("stdin".into())
        .spawn(move || read_lines(stdio::input(), reader_tx));
    match Session::new(Arc::new(Output::stdout()), tx) {
        Ok(session) => session.run(rx),
        Err(e) => eprintln!("jiangjun: cannot start the search threads: {e}"),
    }
}
