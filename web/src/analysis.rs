//! The `judge` query: a whole game's moves judged from the engine's
//! searches of its positions, as `jiangjun analyse` judges them
//! (`jiangjun_engine::analysis`), for the page's "Analyse game".
//!
//! `judge POSITION verdicts V0 | V1 | ... | Vn`: POSITION is the game (as
//! UCI's `position`: a FEN or `startpos` and its moves), and each `Vi` is
//! the search of the position before move `i` (one more, `Vn`, for the
//! position after the last move): the side to move's score in centipawns
//! or `mate N`, then the best move (`-` for none) and its line. The answer
//! gives each move's mark (`??`, `?`, `?!` or null), the expected score it
//! lost, Red's expected score after it, the better move and line in
//! Chinese notation, and the score graph as SVG.

use crate::query::{Refusal, json_string, refuse, replay, split_position};
use jiangjun_engine::analysis::{Verdict, expected, graph, judge_moves};
use jiangjun_engine::{SCORE_MATE, Score};
use std::fmt::Write;
use xiangqi::Color;
use xiangqi::notation::chinese;

/// One verdict's text: `SCORE BEST PV...` or `mate N BEST PV...`.
fn verdict(text: &str, ply: i64) -> Result<Verdict, Refusal> {
    let mut words = text.split_whitespace();
    let bad = |what: &str| refuse(format!("verdict {ply}: {what}"), ply);
    let score: Score = match words.next() {
        Some("mate") => {
            let n: i32 = words
                .next()
                .and_then(|w| w.parse().ok())
                .ok_or_else(|| bad("'mate' needs a number"))?;
            // Mate in n moves: 2n − 1 plies (n > 0), mated in −n: −2n plies.
            let plies = if n > 0 {
                n.saturating_mul(2) - 1
            } else {
                n.saturating_mul(-2)
            };
            let mate = SCORE_MATE - plies.clamp(0, 200);
            if n > 0 { mate } else { -mate }
        }
        Some(w) => w
            .parse::<Score>()
            .map_err(|_| bad("expected a score"))?
            .clamp(-SCORE_MATE, SCORE_MATE),
        None => return Err(bad("empty")),
    };
    let parse = |w: &str| xiangqi::notation::parse_iccs(w).ok_or_else(|| bad("a move is not ICCS"));
    let best = match words.next() {
        None | Some("-") => None,
        Some(w) => Some(parse(w)?),
    };
    let pv = words.map(parse).collect::<Result<Vec<_>, _>>()?;
    Ok(Verdict {
        score,
        best,
        pv,
        depth: 0,
    })
}

/// The answer to `judge ...` (the text after the query's name).
pub fn query(rest: &str) -> Result<String, Refusal> {
    let Some((position, verdicts)) = rest.split_once(" verdicts ") else {
        return Err(refuse(
            "expected 'judge POSITION verdicts V0 | V1 | ...'",
            -1,
        ));
    };
    let (fen, moves) = split_position(position);
    let (start, _, played) = replay(fen, &moves)?;
    let verdicts = verdicts
        .split('|')
        .enumerate()
        .map(|(i, v)| verdict(v, i as i64))
        .collect::<Result<Vec<_>, _>>()?;
    if verdicts.len() != played.len() + 1 {
        return Err(refuse(
            format!(
                "{} moves need {} verdicts, not {}",
                played.len(),
                played.len() + 1,
                verdicts.len()
            ),
            -1,
        ));
    }
    let judged = judge_moves(&start, &played, &verdicts);
    let red_start = match start.side_to_move() {
        Color::Red => expected(verdicts[0].score),
        Color::Black => 1.0 - expected(verdicts[0].score),
    };
    let mut out = String::from("{\"ok\":true");
    let _ = write!(out, ",\"start\":{red_start:.4},\"moves\":[");
    let mut board = start.clone();
    for (i, j) in judged.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let name = |b: &xiangqi::Board, m| json_string(&chinese(b, m));
        let _ = write!(
            out,
            "{{\"ply\":{i},\"iccs\":\"{}\",\"chinese\":{},\"mark\":{},\"loss\":{:.4},\"red\":{:.4}",
            j.mv,
            name(&board, j.mv),
            j.mark.map_or("null".into(), json_string),
            j.loss(),
            expected(j.red_score)
        );
        if let Some(b) = j.better.filter(|_| j.mark.is_some()) {
            let mut line_board = board.clone();
            let mut line = Vec::new();
            for &m in &j.line {
                if !line_board.is_legal_move(m) {
                    break;
                }
                line.push(name(&line_board, m));
                line_board.make_move(m);
            }
            let _ = write!(
                out,
                ",\"better\":\"{b}\",\"betterChinese\":{},\"line\":[{}]",
                name(&board, b),
                line.join(",")
            );
        }
        out.push('}');
        board.make_move(j.mv);
    }
    let svg = graph::graph(&judged, "");
    let _ = write!(out, "],\"svg\":{}}}", json_string(&svg));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_judged_from_its_verdicts() {
        // Black's last move dropped from even to 4 pawns down.
        let a = query("startpos moves h2e2 h9g7 b0c2 i9h9 verdicts 20 h2e2 | -20 h9g7 | 30 h0g2 | -30 b9c7 b9c7 | 400 -").unwrap_or_else(|r| r.json());
        assert!(a.starts_with("{\"ok\":true"), "{a}");
        assert!(
            a.contains("\"iccs\":\"i9h9\",\"chinese\":\"车9平8\",\"mark\":\"??\""),
            "{a}"
        );
        assert!(
            a.contains("\"better\":\"b9c7\",\"betterChinese\":\"马2进3\",\"line\":[\"马2进3\"]"),
            "{a}"
        );
        assert_eq!(a.matches("\"mark\":null").count(), 3, "{a}");
        assert!(a.contains("<svg") && a.contains("<circle"), "{a}");
    }

    #[test]
    fn bad_verdicts_are_refused() {
        let one = |q: &str| query(q).err().map(|r| r.json()).unwrap_or_default();
        assert!(one("startpos moves h2e2 verdicts 20 h2e2").contains("1 moves need 2 verdicts"));
        assert!(one("startpos moves h2e2 verdicts x | 0").contains("expected a score"));
        assert!(one("startpos moves h2e2 verdicts 0 zz | 0").contains("not ICCS"));
        assert!(one("startpos moves h2e2 verdicts mate | 0").contains("needs a number"));
        // Absurd mate distances read as the longest, never overflow.
        let far = query("startpos moves h2e2 verdicts mate 2147483647 h2e2 | mate -2147483648 -");
        assert!(far.is_ok_and(|a| a.contains("\"mark\":null")));
        assert!(one("startpos moves h2e9 verdicts 0 | 0").contains("move 1"));
        assert!(one("startpos").contains("expected 'judge"));
        // A mate score reads as one.
        let a = query("startpos moves h2e2 verdicts mate 3 h2e2 | mate -2 -")
            .unwrap_or_else(|r| r.json());
        assert!(a.contains("\"mark\":null"), "{a}");
    }
}
