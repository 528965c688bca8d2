//! The score graph of an analysed game as SVG, drawn by the engine's
//! `analysis::graph` (the same drawing the browser page shows): Red's
//! expected score (from the WDL model) after every ply, the even line
//! across the middle, and a dot on every marked move in its mark's colour.

use crate::tools::annotate::Analysis;
use jiangjun_engine::analysis::{Verdict, graph, judge_moves};
use xiangqi::board::Board;

/// The SVG document of the game's graph, titled with its players.
pub fn svg(a: &Analysis) -> String {
    let verdicts: Vec<Verdict> = a
        .evals
        .iter()
        .map(|e| Verdict {
            score: e.score,
            best: e.pv.first().copied(),
            pv: e.pv.clone(),
            depth: e.depth,
        })
        .collect();
    let judged = match Board::from_fen(&a.game.fen) {
        Ok(start) => {
            let n = a.game.moves.len().min(verdicts.len().saturating_sub(1));
            judge_moves(&start, &a.game.moves[..n], &verdicts)
        }
        Err(_) => Vec::new(),
    };
    let title = format!("{} - {} ({})", a.game.red, a.game.black, a.limit);
    graph::graph(&judged, &title)
}
