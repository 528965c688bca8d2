//! Pieces of search lines both dialects print: mate distances, win/draw/
//! loss shares, principal variations; and the Pikafish-style perft report
//! of `go perft` (which `jiangjun perft --divide` prints too).

use super::dialect::Style;
use jiangjun_engine::{SCORE_MATE, SCORE_MATE_IN_MAX, Score};
use xiangqi::types::Move;

/// Mate distance in moves (positive: side to move mates), if the score is a mate.
pub fn mate_moves(score: Score) -> Option<i32> {
    if score >= SCORE_MATE_IN_MAX {
        Some((SCORE_MATE - score + 1) / 2)
    } else if score <= -SCORE_MATE_IN_MAX {
        Some(-(SCORE_MATE + score) / 2)
    } else {
        None
    }
}

/// Win/draw/loss per mille for a score, from a logistic model.
pub fn wdl(score: Score) -> (u32, u32, u32) {
    if let Some(m) = mate_moves(score) {
        return if m > 0 { (1000, 0, 0) } else { (0, 0, 1000) };
    }
    let x = score as f64;
    let w = 1000.0 / (1.0 + ((200.0 - x) / 60.0).exp());
    let l = 1000.0 / (1.0 + ((200.0 + x) / 60.0).exp());
    let (w, l) = (w.round() as u32, l.round() as u32);
    (w, 1000 - w - l, l)
}

/// ` wdl W D L` if a client asked for it (`UCI_ShowWDL`), else nothing.
pub fn wdl_text(style: Style, score: Score) -> String {
    if style.show_wdl {
        let (w, d, l) = wdl(score);
        format!(" wdl {w} {d} {l}")
    } else {
        String::new()
    }
}

pub fn pv_text(pv: &[Move]) -> String {
    pv.iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The Pikafish `go perft` report of per-move counts (from
/// `xiangqi::perft::divide_until`): one `move: count` line per root move, a
/// blank line, `Nodes searched: N`. Returns the text and the total.
pub fn perft_report(counts: &[(Move, u64)]) -> (String, u64) {
    let mut out = String::new();
    let mut total = 0;
    for (m, n) in counts {
        out.push_str(&format!("{m}: {n}\n"));
        total += n;
    }
    out.push_str(&format!("\nNodes searched: {total}\n"));
    (out, total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_distance_in_moves() {
        assert_eq!(mate_moves(SCORE_MATE - 1), Some(1));
        assert_eq!(mate_moves(SCORE_MATE - 3), Some(2));
        assert_eq!(mate_moves(-SCORE_MATE), Some(0));
        assert_eq!(mate_moves(-SCORE_MATE + 2), Some(-1));
        assert_eq!(mate_moves(150), None);
    }

    #[test]
    fn wdl_is_a_distribution() {
        for s in [-2000, -300, -50, 0, 50, 300, 2000] {
            let (w, d, l) = wdl(s);
            assert_eq!(w + d + l, 1000);
        }
        assert!(wdl(300).0 > wdl(100).0);
        assert_eq!(wdl(0).0, wdl(0).2);
    }
}
