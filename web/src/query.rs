//! What every query is made of, shared by the rules queries (`rules.rs`)
//! and the endgame tables' (`tables.rs`): the position text read and
//! replayed, a refusal, JSON strings. A leaf: it imports neither of them.

use std::fmt::Write;
use xiangqi::{Board, START_FEN};

/// A refused query: why, and at which move (-1: the position).
pub struct Refusal {
    error: String,
    ply: i64,
}

impl Refusal {
    /// The refusal as the query's JSON answer.
    pub fn json(&self) -> String {
        format!(
            "{{\"ok\":false,\"error\":{},\"ply\":{}}}",
            json_string(&self.error),
            self.ply
        )
    }
}

/// A refusal of `error` at move `ply` (-1: the position).
pub fn refuse(error: impl ToString, ply: i64) -> Refusal {
    Refusal {
        error: error.to_string(),
        ply,
    }
}

/// A position as UCI's `position` gives it: the board and the moves'
/// texts, not yet played.
pub fn split_position(text: &str) -> (&str, Vec<&str>) {
    let text = text.trim();
    let (fen, moves) = match text.find(" moves") {
        Some(at) => (&text[..at], text[at + " moves".len()..].trim()),
        None if text.starts_with("moves") => ("", text["moves".len()..].trim()),
        None => (text, ""),
    };
    let fen = fen.trim();
    let fen = fen.strip_prefix("fen ").unwrap_or(fen).trim();
    (fen, moves.split_whitespace().collect())
}

/// The board the position describes, with its moves played (and recorded,
/// so that repetitions are ruled on), and the moves in order.
pub fn replay(fen: &str, moves: &[&str]) -> Result<(Board, Board, Vec<xiangqi::Move>), Refusal> {
    let fen = if fen.is_empty() || fen == "startpos" {
        START_FEN
    } else {
        fen
    };
    let start = Board::from_fen(fen).map_err(|e| refuse(format!("invalid FEN: {e}"), -1))?;
    let mut board = start.clone();
    let mut played = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        let mv = board
            .parse_move(text)
            .map_err(|e| refuse(format!("move {}: {e}", i + 1), i as i64))?;
        board.make_move(mv);
        played.push(mv);
    }
    Ok((start, board, played))
}

/// `s` as a JSON string literal.
pub fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
