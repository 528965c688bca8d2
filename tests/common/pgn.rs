//! The PGN files `jiangjun match` writes, read back by the tests: each
//! game's tags, its moves in file order and how it ended.

use std::collections::HashMap;

/// One game of a PGN.
pub struct PgnGame {
    pub tags: HashMap<String, String>,
    /// The moves (ICCS), without move numbers, comments or the result.
    pub moves: Vec<String>,
    /// The last comment: how the game ended.
    pub reason: String,
}

impl PgnGame {
    /// The tag's value, or "" when the game has no such tag.
    pub fn tag(&self, name: &str) -> &str {
        self.tags.get(name).map_or("", String::as_str)
    }
}

/// The games of a PGN's text, in file order.
pub fn parse_pgn(text: &str) -> Vec<PgnGame> {
    let mut games = Vec::new();
    for block in text.split("\n\n[").filter(|b| !b.trim().is_empty()) {
        let mut tags = HashMap::new();
        let mut body = String::new();
        for line in block.lines() {
            let l = line.trim_start_matches('[');
            if line.starts_with('[') || (tags.is_empty() && l.contains(" \"")) {
                if let Some((k, v)) = l.trim_end_matches(']').split_once(' ') {
                    tags.insert(k.to_string(), v.trim_matches('"').to_string());
                }
            } else {
                body.push_str(line);
                body.push(' ');
            }
        }
        // Drop comments, move numbers and the result.
        let mut moves = Vec::new();
        let mut depth = 0;
        let mut word = String::new();
        let mut comment = String::new();
        let mut reason = String::new();
        for ch in body.chars().chain(std::iter::once(' ')) {
            match ch {
                '{' => {
                    depth += 1;
                    comment.clear();
                }
                '}' => {
                    depth -= 1;
                    reason = comment.clone();
                }
                c if depth > 0 => comment.push(c),
                c if depth == 0 && !c.is_whitespace() => word.push(c),
                _ if depth == 0 && !word.is_empty() => {
                    if !word.ends_with('.')
                        && !["1-0", "0-1", "1/2-1/2", "*"].contains(&word.as_str())
                    {
                        moves.push(word.clone());
                    }
                    word.clear();
                }
                _ => {}
            }
        }
        games.push(PgnGame {
            tags,
            moves,
            reason,
        });
    }
    games
}

/// The games of the PGN file at `path` (none if it cannot be read).
pub fn read_pgn(path: &std::path::Path) -> Vec<PgnGame> {
    std::fs::read_to_string(path).map_or_else(|_| Vec::new(), |t| parse_pgn(&t))
}
