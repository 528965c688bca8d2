//! The score graph of an analysed game as SVG, drawn by the engine's
//! `analysis::graph` (the same drawing the browser page shows): Red's
//! expected score (from the WDL model) after every ply, the even line
//! across the middle, and a dot on every marked move in its mark's colour.

use crate::tools::annotate::{self, Analysis};
use jiangjun_engine::analysis::graph;

/// The SVG document of the game's graph, titled with its players.
pub fn svg(a: &Analysis) -> String {
    let title = format!("{} - {} ({})", a.game.red, a.game.black, a.limit);
    graph::graph(&annotate::judged(a), &title)
}
