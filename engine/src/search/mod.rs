//! The search: iterative deepening over a principal-variation alpha-beta
//! search with a quiescence search at the leaves, one shared transposition
//! table, and helper threads (lazy SMP) that search the same root.
//!
//! This module only names its parts and re-exports what the engine uses:
//! what the search is asked (`limits`: `Limits`), what it answers
//! (`report`: `SearchResult`, and `Reporter` for the lines on the way) and
//! the state its threads share (`shared`). The parts import each other
//! sideways, never from here. The threads themselves live in
//! `crate::thread` and are driven by `crate::controller::Engine`; the jobs
//! they run are in `smp`.
//!
//! - `worker`: one thread's search state and its bookkeeping;
//! - `iterate`: iterative deepening with aspiration windows;
//! - `alphabeta`: the node search (root, PV and non-PV nodes);
//! - `qsearch`: the quiescence search;
//! - `params`: the search's margins and reductions, in one table;
//! - `rules`: repetition and move-limit rulings inside the tree;
//! - `root_moves`: the root move list;
//! - `smp`: the main and helper jobs, and which thread's move is played;
//! - `time`: the time policy (`TimeManager`) and the clock it reads;
//! - `request`: what a `go` asks (`GoRequest`) and every bound on it;
//! - `limits`: the request and what the engine adds to it (`Limits`).
//!
//! Nothing here imports `crate::play`: play fills in the search's
//! `Limits`, the search never reads play's types. Playing weaker is done
//! around the search, not in it (`crate::play::strength`).

mod alphabeta;
pub(crate) mod history;
mod iterate;
pub(crate) mod job;
mod limits;
pub(crate) mod movepick;
pub mod params;
mod qsearch;
mod report;
mod request;
mod root_moves;
mod rules;
mod shared;
pub(crate) mod smp;
pub mod time;
mod worker;

pub(crate) use history::ThreadData;
pub use limits::{Interrupt, InterruptHook, Limits, Pruning, SearchSettings};
pub use report::{BookEntry, IterationInfo, Reporter, SearchResult, Silent};
pub use request::{
    FALLBACK_MOVETIME_MS, GoRequest, GoWord, MAX_CLOCK_MS, MAX_DEPTH, MAX_MATE, MAX_MOVESTOGO,
    Settled, excerpt,
};
pub(crate) use shared::Shared;
