//! What shapes a game's play, beyond the search itself, in one module: what
//! a `go` means ([`GoRequest`] and [`PlaySettings`] into a book move or the
//! search's limits, decided in `go` and nowhere else), the opening book
//! (`book`), the strength levels (`ladder`, measured in `ladder_ratings`)
//! and the other handicaps (`strength`), the time policy (`time`) and
//! `nodestime`'s node clock (`nodestime`).
//!
//! The leaves (`time`, `strength`, `ladder`) are what the search reads of a
//! `go`'s limits; `go` alone drives the search (through `crate::search`'s
//! `Limits`), so the arrows run one way: `go` -> search -> the leaves.

pub mod book;
mod go;
pub mod ladder;
pub mod ladder_ratings;
pub(crate) mod nodestime;
pub mod strength;
pub mod time;

pub use go::{GoRequest, PlaySettings};
pub(crate) use go::{Play, Prepared};
