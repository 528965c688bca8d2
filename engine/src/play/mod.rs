//! What shapes a game's play, beyond the search itself, in one module: what
//! a `go` means (the GUI's request and the [`PlaySettings`] into a book move
//! or the search's limits, decided in `go` and nowhere else), the opening book
//! (`book`), the strength levels (`ladder`, measured in `ladder_ratings`)
//! and the other handicaps (`strength`), and `nodestime`'s node clock
//! (`nodestime`).
//!
//! The arrows run one way, from here to `crate::search`, never back: the
//! search defines what it is told (`Limits`: the `GoRequest` as the GUI
//! sent it and the `SearchSettings` added beside it, with the clock of
//! `search::time` and the time policy it applies), and `go` adds the
//! settings. Playing weaker happens here, around the search: `strength`
//! sets a level's cap and the evaluation's hook, and `skill` picks the
//! level's move from the lines the search reports. The clock is the
//! crate's `time` (`jiangjun_engine::time`), where it is defined.

pub mod book;
mod go;
pub mod ladder;
pub mod ladder_ratings;
pub(crate) mod nodestime;
mod skill;
pub mod strength;

pub use go::PlaySettings;
pub(crate) use go::{Play, Prepared};
