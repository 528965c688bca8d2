//! Xiangqi endgame tablebases for Jiangjun: win, draw or loss and the
//! distance to mate for every position of small material sets.
//!
//! - [`material`]: material sets and their names (`KRvKAABB`);
//! - [`index`]: the map between positions and table indices (mirror
//!   symmetry, small square sets for kings, advisors, elephants, pawns);
//! - [`geometry`], [`moves`]: the generator's own board, moves and
//!   un-moves;
//! - [`generate`], [`perpetual`]: the retrograde generator, with the
//!   perpetual-check rule;
//! - [`format`]: the compressed file format;
//! - [`probe`]: tables read from a directory, probed with a `xiangqi`
//!   board, with the best move;
//! - [`verify`]: checks every position against its successors with the
//!   `xiangqi` crate's moves;
//! - `reference` (tests only): the plain generator the fast one must equal.
//!
//! The generator, `tb verify` and the writer (`build`, `generate`,
//! `perpetual`, `verify`, `format::write`) need the default `generate`
//! feature (rayon); without it the crate reads and probes tables only, as
//! the engine and the wasm build do.
//!
//! See docs/tablebases.md for the design, the rules it follows and the
//! figures.

#[cfg(feature = "generate")]
pub mod build;
mod checksum;
pub mod format;
#[cfg(feature = "generate")]
pub mod generate;
pub mod geometry;
pub mod index;
pub mod material;
pub mod moves;
#[cfg(feature = "generate")]
pub mod perpetual;
pub mod probe;
#[cfg(all(test, feature = "generate"))]
mod reference;
#[cfg(feature = "generate")]
pub mod stats;
pub mod table;
pub mod value;
#[cfg(feature = "generate")]
pub mod verify;

pub use material::Material;
pub use probe::{Probe, Tablebases};
pub use value::Wdl;
