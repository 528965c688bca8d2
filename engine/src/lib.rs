//! The Jiangjun engine: evaluation, search, transposition table, time
//! management, the opening book and the threads that search, on top of the
//! `xiangqi` rules library. `Engine` is the way in.

pub mod bench;
pub mod book;
pub mod controller;
pub mod eval;
mod files;
pub mod ladder;
pub mod ladder_ratings;
pub mod nnue;
pub mod nodestime;
pub mod now;
pub mod play;
pub mod position;
pub mod score;
pub mod search;
pub mod strength;
mod sync;
pub mod tb;
#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
mod thread;
// No threads to start in a wasm32-unknown-unknown build: tasks run inline.
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
#[path = "thread_inline.rs"]
mod thread;
pub mod time;
pub mod tt;

pub use controller::Engine;
