//! Game records as the tools read them: one game a line (`FEN(6 fields)
//! moves... result`, the format of `../shared/data/games/games.txt`) or PGN
//! with a FEN tag and ICCS moves (what `jiangjun match` writes).

/// A game record: start FEN, moves, and Red's result (1, 0.5, 0).
pub struct Game {
    pub fen: String,
    pub moves: Vec<String>,
    pub result: f64,
}

/// Games from files: `lines` in the one-game-a-line format, `pgn` in PGN.
/// The error names the file that could not be read.
pub fn read_files(
    lines: &[std::path::PathBuf],
    pgn: &[std::path::PathBuf],
) -> Result<Vec<Game>, String> {
    let mut games = Vec::new();
    for (paths, is_pgn) in [(lines, false), (pgn, true)] {
        for p in paths {
            let text = std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()))?;
            games.extend(if is_pgn {
                games_from_pgn(&text)
            } else {
                games_from_lines(&text)
            });
        }
    }
    Ok(games)
}

/// Games from one-game-a-line text (`FEN(6 fields) moves... result`).
pub fn games_from_lines(text: &str) -> Vec<Game> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            if f.len() < 7 {
                return None;
            }
            let result = result_value(f[f.len() - 1])?;
            Some(Game {
                fen: f[..6].join(" "),
                moves: f[6..f.len() - 1].iter().map(|s| s.to_string()).collect(),
                result,
            })
        })
        .collect()
}

/// Games from PGN with ICCS moves (a FEN tag, or the start position).
pub fn games_from_pgn(text: &str) -> Vec<Game> {
    let mut out = Vec::new();
    for block in text.split("\n[Event ").filter(|b| !b.trim().is_empty()) {
        let mut fen = xiangqi::board::START_FEN.to_string();
        let mut result = None;
        let mut body = String::new();
        for line in block.lines() {
            let l = line.trim();
            if let Some(v) = l.strip_prefix("[FEN \"") {
                fen = v.trim_end_matches("\"]").to_string();
            } else if let Some(v) = l.strip_prefix("[Result \"") {
                result = result_value(v.trim_end_matches("\"]"));
            } else if !l.starts_with('[') && !l.starts_with('"') {
                body.push_str(l);
                body.push(' ');
            }
        }
        let Some(result) = result else { continue };
        let mut depth = 0;
        let mut clean = String::new();
        for ch in body.chars() {
            match ch {
                '{' => depth += 1,
                '}' => depth -= 1,
                c if depth == 0 => clean.push(c),
                _ => {}
            }
        }
        let moves = clean
            .split_whitespace()
            .filter(|w| !w.ends_with('.') && result_value(w).is_none() && *w != "*")
            .map(String::from)
            .collect();
        out.push(Game { fen, moves, result });
    }
    out
}

fn result_value(text: &str) -> Option<f64> {
    match text {
        "1-0" => Some(1.0),
        "0-1" => Some(0.0),
        "1/2-1/2" => Some(0.5),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pgn_games() {
        let pgn = "[Event \"x\"]\n[Result \"1-0\"]\n\n1. h2e2 {+0.1/3 0.1s} h9g7 2. h0g2 1-0\n\n[Event \"y\"]\n[Result \"*\"]\n\n1. c3c4 *\n";
        let g = games_from_pgn(pgn);
        assert_eq!(g.len(), 1);
        assert_eq!(g[0].moves, vec!["h2e2", "h9g7", "h0g2"]);
        assert_eq!(g[0].result, 1.0);
    }
}
