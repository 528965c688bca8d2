//! The `jj_game_file` query: a Chinese game file's bytes (XQF, CBR, CBF, or
//! a CBL library) read by the same readers as the command-line tools
//! (`xiangqi-gamefile`), so that the page opens a player's own games.
//! Answer: `{"ok":true,"games":[{"fen","moves":[ICCS...],"red","black",
//! "event","result"}...]}` (each game's main line), or a refusal naming the
//! file and why.

use crate::query::{Refusal, json_string, refuse};
use std::fmt::Write;
use std::path::Path;

/// The games of the file named `name` whose bytes are `data`.
pub fn read(name: &str, data: &[u8]) -> Result<String, Refusal> {
    let games = xiangqi_gamefile::read_named(Path::new(name), data).map_err(|e| refuse(e, -1))?;
    let mut out = String::from("{\"ok\":true,\"games\":[");
    for (i, g) in games.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let moves: Vec<String> = g.main_line().iter().map(|m| format!("\"{m}\"")).collect();
        let h = &g.headers;
        let event = if h.event.is_empty() {
            &h.title
        } else {
            &h.event
        };
        let _ = write!(
            out,
            "{{\"fen\":{},\"moves\":[{}],\"red\":{},\"black\":{},\"event\":{},\"result\":\"{}\"}}",
            json_string(&g.start_fen()),
            moves.join(","),
            json_string(&h.red),
            json_string(&h.black),
            json_string(event),
            h.result.pgn()
        );
    }
    out.push_str("]}");
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_file_is_refused_with_its_name() {
        let answer = read("game.xqf", b"not a game")
            .err()
            .map(|r| r.json())
            .unwrap_or_default();
        assert!(answer.starts_with("{\"ok\":false"), "{answer}");
        assert!(answer.contains("game.xqf"), "{answer}");
        let answer = read("notes.doc", b"x")
            .err()
            .map(|r| r.json())
            .unwrap_or_default();
        assert!(answer.contains("notes.doc"), "{answer}");
    }

    /// A game written by the crate's own XQF writer comes back whole.
    #[test]
    fn an_xqf_file_is_read() {
        let start = xiangqi::Board::startpos();
        let mut game = xiangqi_gamefile::Game::new(start.clone());
        game.headers.red = "红方".into();
        let h2e2 = start.parse_move("h2e2").unwrap_or(xiangqi::Move::NONE);
        game.add(0, h2e2, Some("炮二平五".into()));
        let answer =
            read("game.xqf", &xiangqi_gamefile::write_xqf(&game)).unwrap_or_else(|r| r.json());
        assert!(
            answer.starts_with("{\"ok\":true,\"games\":[{\"fen\":"),
            "{answer}"
        );
        assert!(
            answer.contains("\"moves\":[\"h2e2\"],\"red\":\"红方\""),
            "{answer}"
        );
    }
}
