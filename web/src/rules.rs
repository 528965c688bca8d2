//! Rules queries for a GUI: legal moves, move notation and the ruling of a
//! game, answered by the engine's own rules crate (`xiangqi`), so a page
//! shows exactly the moves and results the engine plays by.
//!
//! Separate from the protocol stream: a query is one line in, one JSON
//! object out, answered synchronously and with no session started, so a
//! page can keep an instance of the module on its main thread for them
//! while the engine searches in a worker.
//!
//! Queries (a position is `startpos` or a FEN, optionally followed by
//! `moves` and ICCS moves, as in UCI's `position`):
//! - `game POSITION`: the moves replayed with their Chinese, WXF and ICCS
//!   names, the FEN reached, the side to move, whether it is in check, its
//!   legal moves and the ruling (`Board::outcome`: mate, stalemate,
//!   perpetual check and chase, the move limit, dead draws);
//! - `read POSITION notation TEXT`: TEXT (Chinese such as 炮二平五, WXF
//!   such as C2.5, or ICCS) read as a legal move of the position reached;
//! - `tb POSITION`: the endgame tables' verdict on the position reached,
//!   with the best move and each move's verdict (see `tables.rs`);
//! - `judge POSITION verdicts ...`: a game's moves judged from the searches
//!   of its positions, with the score graph (see `analysis.rs`).
//!
//! Answers: `{"ok":true,...}`, or `{"ok":false,"error":"...","ply":N}`
//! where `ply` is the index of the move refused (-1: the FEN itself).

use crate::query::{Refusal, json_string, refuse, replay, split_position};
use std::fmt::Write;
use xiangqi::notation::{chinese, parse_chinese, parse_wxf, wxf};
use xiangqi::{Color, Outcome};

/// The answer to one query line, as JSON.
pub fn answer(query: &str) -> String {
    let result = match query.trim().split_once(char::is_whitespace) {
        Some(("game", rest)) => game(rest),
        Some(("read", rest)) => read(rest),
        Some(("tb", rest)) => crate::tables::query(rest),
        Some(("judge", rest)) => crate::analysis::query(rest),
        _ => Err(refuse(
            "unknown query: expected 'game POSITION', 'read POSITION notation TEXT', 'tb POSITION' or 'judge POSITION verdicts ...'",
            -1,
        )),
    };
    result.unwrap_or_else(|r| r.json())
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Red => "red",
        Color::Black => "black",
    }
}

fn game(position: &str) -> Result<String, Refusal> {
    let (fen, moves) = split_position(position);
    let (start, board, played) = replay(fen, &moves)?;
    let mut out = String::from("{\"ok\":true");
    // Writing to a String cannot fail; the results are ignored.
    let _ = write!(out, ",\"start\":{}", json_string(&start.to_fen()));
    let _ = write!(out, ",\"fen\":{}", json_string(&board.to_fen()));
    let side = board.side_to_move();
    let _ = write!(out, ",\"side\":\"{}\"", color_name(side));
    let _ = write!(out, ",\"check\":{}", board.in_check());

    // Each move is named in the position before it.
    out.push_str(",\"moves\":[");
    let mut before = start;
    for (i, &mv) in played.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(
            out,
            "{{\"iccs\":\"{mv}\",\"chinese\":{},\"wxf\":{}}}",
            json_string(&chinese(&before, mv)),
            json_string(&wxf(&before, mv))
        );
        before.make_move(mv);
    }
    out.push(']');

    out.push_str(",\"legal\":[");
    for (i, mv) in board.legal_moves().iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "\"{mv}\"");
    }
    out.push(']');

    let outcome = board.outcome();
    let _ = match outcome {
        Outcome::Ongoing => write!(out, ",\"outcome\":null"),
        Outcome::Win(c, reason) => write!(
            out,
            ",\"outcome\":{{\"winner\":\"{}\",\"reason\":\"{reason}\",\"text\":{}}}",
            color_name(c),
            json_string(&outcome.to_string())
        ),
        Outcome::Draw(reason) => write!(
            out,
            ",\"outcome\":{{\"winner\":null,\"reason\":\"{reason}\",\"text\":{}}}",
            json_string(&outcome.to_string())
        ),
    };
    out.push('}');
    Ok(out)
}

fn read(rest: &str) -> Result<String, Refusal> {
    let Some((position, text)) = rest.split_once(" notation ") else {
        return Err(refuse("expected 'read POSITION notation TEXT'", -1));
    };
    let (fen, moves) = split_position(position);
    let (_, board, played) = replay(fen, &moves)?;
    let text = text.trim();
    let ply = played.len() as i64;
    // ICCS first (it cannot be mistaken for the others), then Chinese, WXF.
    let mv = match board.parse_move(text) {
        Ok(mv) => mv,
        Err(_) => parse_chinese(&board, text)
            .or_else(|_| parse_wxf(&board, text))
            .map_err(|e| refuse(format!("'{text}': {e}"), ply))?,
    };
    Ok(format!(
        "{{\"ok\":true,\"move\":\"{mv}\",\"chinese\":{},\"wxf\":{}}}",
        json_string(&chinese(&board, mv)),
        json_string(&wxf(&board, mv))
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_names_moves_and_lists_legal_moves() {
        let a = answer("game startpos moves h2e2 h9g7");
        assert!(a.starts_with("{\"ok\":true"), "{a}");
        assert!(a.contains("{\"iccs\":\"h2e2\",\"chinese\":\"炮二平五\",\"wxf\":\"C2.5\"}"));
        assert!(a.contains("\"chinese\":\"马8进7\""));
        assert!(a.contains("\"side\":\"red\""));
        assert!(a.contains("\"outcome\":null"));
        assert!(a.contains("\"h0g2\""), "{a}");
        // 44 legal moves at the start: count them in a fresh query.
        let s = answer("game startpos");
        let legal = s.split("\"legal\":[").nth(1).unwrap_or("");
        let legal = &legal[..legal.find(']').unwrap_or(0)];
        assert_eq!(legal.split(',').count(), 44);
    }

    #[test]
    fn bad_fen_and_illegal_moves_are_refused() {
        let a = answer("game fen xyz w");
        assert!(
            a.starts_with("{\"ok\":false,\"error\":\"invalid FEN"),
            "{a}"
        );
        assert!(a.ends_with("\"ply\":-1}"));
        let b = answer("game startpos moves h2e2 h2e2");
        assert!(b.contains("\"ply\":1"), "{b}");
        assert!(answer("bogus").contains("unknown query"));
    }

    #[test]
    fn mate_and_perpetual_check_are_ruled() {
        let mate = answer("game R2k5/1R7/9/9/9/9/9/9/9/5K3 b");
        assert!(
            mate.contains("\"winner\":\"red\",\"reason\":\"checkmate\""),
            "{mate}"
        );
        assert!(mate.contains("\"legal\":[]"));
        assert!(mate.contains("\"check\":true"));
        let cycle = "h8h9 e9e8 h9h8 e8e9 h8h9 e9e8 h9h8 e8e9";
        let perpetual = answer(&format!(
            "game fen 4k4/7R1/9/p8/9/9/9/9/9/3K5 w moves {cycle}"
        ));
        assert!(
            perpetual.contains("\"winner\":\"black\",\"reason\":\"perpetual check\""),
            "{perpetual}"
        );
    }

    #[test]
    fn read_takes_chinese_wxf_and_iccs() {
        for text in ["炮二平五", "C2.5", "h2e2"] {
            let a = answer(&format!("read startpos notation {text}"));
            assert!(a.contains("\"move\":\"h2e2\""), "{text}: {a}");
        }
        let black = answer("read startpos moves h2e2 notation 马8进7");
        assert!(black.contains("\"move\":\"h9g7\""), "{black}");
        assert!(answer("read startpos notation 炮二进九").starts_with("{\"ok\":false"));
    }

    #[test]
    fn strings_are_escaped() {
        assert_eq!(json_string("a\"b\\c\n"), "\"a\\\"b\\\\c\\u000a\"");
    }
}
