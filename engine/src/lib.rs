//! The Jiangjun engine: evaluation, search, transposition table, time
//! management, the opening book and the threads that search, on top of the
//! `xiangqi` rules library.
//!
//! The way in is one small surface, re-exported here: [`Engine`] (which
//! owns the table and the threads), what a `go` asks ([`Limits`], with the
//! engine's [`PlaySettings`]) and what it answers
//! ([`Reporter`], [`IterationInfo`], [`SearchResult`], [`Score`]). Beside
//! it, a few modules for the tools that need more than a game:
//!
//! - [`analysis`]: a finished game's moves judged by the expected score
//!   each lost, and its score graph (`jiangjun analyse`, the web page);
//! - [`play`]: what shapes a game's play (the book, the levels and other
//!   handicaps, the time policy, `nodestime`);
//! - [`nnue`]: the network and its file format (the trainer writes it);
//! - [`eval`]: the hand-made evaluation and its weights (`jiangjun tune`,
//!   the `eval` command; the position it evaluates is [`Position`]);
//! - [`search_params`]: the search's margins and reductions (`jiangjun
//!   spsa`, the `tune` build's options);
//! - [`tb`]: endgame tables, and their ruling on a game;
//! - [`bench`](mod@bench): the fixed positions and the bench run.
//!
//! Everything else (the search, the table, the threads) is the crate's own,
//! and `unreachable_pub` keeps its items from looking public.

#![warn(unreachable_pub)]

pub mod analysis;
pub mod bench;
mod controller;
pub mod eval;
mod files;
mod large_pages;
pub mod nnue;
mod now;
pub mod play;
mod position;
mod score;
mod search;
mod sync;
pub mod tb;
#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
mod thread;
// No threads to start in a wasm32-unknown-unknown build: tasks run inline.
#[cfg(all(
    target_family = "wasm",
    target_os = "unknown",
    not(target_feature = "atomics")
))]
#[path = "thread_inline.rs"]
mod thread;
// With shared memory, the host starts the helper threads (Web Workers).
#[cfg(all(
    target_family = "wasm",
    target_os = "unknown",
    target_feature = "atomics"
))]
#[path = "thread_hosted.rs"]
mod thread;
mod tt;

pub use controller::Engine;
/// The host's clock for a build without one (`performance.now()` in the
/// browser).
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
pub use now::set_source as set_time_source;
pub use play::PlaySettings;
pub use position::Position;
pub use score::{SCORE_MATE, SCORE_MATE_IN_MAX, Score};
pub use search::params as search_params;
/// A `go`'s clock and the time policy that turns it into a budget.
pub use search::time;
pub use search::{
    FALLBACK_MOVETIME_MS, GoRequest, GoWord, Interrupt, InterruptHook, IterationInfo, Limits,
    MAX_CLOCK_MS, MAX_DEPTH, MAX_MATE, MAX_MOVESTOGO, Pruning, Reporter, SearchResult,
    SearchSettings, Settled, Silent, excerpt,
};
/// How a threaded wasm build's host starts the helper search threads.
#[cfg(all(
    target_family = "wasm",
    target_os = "unknown",
    target_feature = "atomics"
))]
pub use thread::{ThreadSpawner, set_spawner as set_thread_spawner};
pub use tt::{Bound, TtEntry as HashEntry};
