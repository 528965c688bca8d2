//! Pieces of search lines both dialects print: mate distances, win/draw/
//! loss shares, principal variations; and the Pikafish-style perft report
//! of `go perft` (which `jiangjun perft --divide` prints too).

use super::dialect::Style;
use jiangjun_engine::Score;
use xiangqi::types::Move;

/// The engine's mate distance and WDL model (`jiangjun_engine::analysis`),
/// which the lines print and a game's analysis judges moves by.
pub use jiangjun_engine::analysis::{mate_moves, wdl};

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
    use jiangjun_engine::SCORE_MATE;

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
