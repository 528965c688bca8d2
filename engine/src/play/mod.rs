//! What shapes a game's play, beyond the search itself, in one module: what
//! a `go` means (the GUI's request and the [`PlaySettings`] into a book move
//! or the search's limits, decided in `go` and nowhere else), the opening book
//! (`book`), the strength levels (`ladder`, measured in `ladder_ratings`)
//! and the other handicaps (`strength`), and `nodestime`'s node clock
//! (`nodestime`).
//!
//! The arrows run one way, from here to `crate::search`, never back: the
//! search defines what it is told (`Limits`, with the clock of
//! `search::time`, the time policy it applies, and the plain `Handicap`
//! that `strength` works out from the options and the ladder), and `go`
//! fills it in. The clock is the crate's `time` (`jiangjun_engine::time`),
//! where it is defined, beside `Limits`.

pub mod book;
mod go;
pub mod ladder;
pub mod ladder_ratings;
pub(crate) mod nodestime;
pub mod strength;

pub use go::PlaySettings;
pub(crate) use go::{Play, Prepared};
