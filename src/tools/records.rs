//! Game records as the tools read them: one game a line (`FEN(6 fields)
//! moves... result`, the format of `../shared/data/games/games.txt`), PGN
//! with a FEN tag and moves in ICCS (what `jiangjun match` writes), WXF
//! (`C2.5 H8+7`) or Chinese notation (`炮二平五 马8进7`), or, told by their
//! extension, the Chinese game files of `xiangqi-gamefile` (XQF, CBL, CBR,
//! CBF), of which each game's main line is taken.
//!
//! Every game is replayed as it is read. A record that cannot be used
//! whole is reported (see [`Malformed`]) instead of being cut short in
//! silence: a game with a bad FEN or without a result is left out, and a
//! game with a move that does not parse or is illegal keeps only the moves
//! before it.

use std::path::{Path, PathBuf};
use xiangqi::board::{Board, START_FEN};
use xiangqi::types::Move;

/// A game record: start FEN, the moves (legal, replayed from the FEN), and
/// Red's result (1, 0.5, 0).
pub struct Game {
    pub fen: String,
    pub moves: Vec<Move>,
    pub result: f64,
}

/// A game record that could not be read whole.
#[derive(Clone, Debug, PartialEq)]
pub struct Malformed {
    /// The file, when the text came from one.
    pub file: Option<PathBuf>,
    /// The line where the record starts (from 1).
    pub line: usize,
    /// The game's number in the text (from 1).
    pub game: usize,
    /// What is wrong, and what was done about it.
    pub problem: String,
}

impl std::fmt::Display for Malformed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(file) = &self.file {
            write!(f, "{}:", file.display())?;
        }
        write!(f, "{}: game {}: {}", self.line, self.game, self.problem)
    }
}

/// The games read from a text, and the records that were not read whole.
#[derive(Default)]
pub struct Parsed {
    pub games: Vec<Game>,
    pub malformed: Vec<Malformed>,
}

impl Parsed {
    /// Replay a record (game `game`, starting on line `line`): keep the
    /// game up to its first bad move, or report why it is left out.
    fn add(&mut self, line: usize, game: usize, fen: String, words: &[&str], result: f64) {
        let mut report = |problem: String| {
            self.malformed.push(Malformed {
                file: None,
                line,
                game,
                problem,
            })
        };
        let mut board = match Board::from_fen(&fen) {
            Ok(b) => b,
            Err(e) => {
                report(format!("bad FEN '{fen}': {e}; game left out"));
                return;
            }
        };
        let mut moves = Vec::with_capacity(words.len());
        for (i, text) in words.iter().enumerate() {
            match parse_any(&board, text) {
                Ok(m) => {
                    board.make_move(m);
                    moves.push(m);
                }
                Err(e) => {
                    report(format!(
                        "move {} '{text}': {e}; the game is cut there ({i} of {} moves kept)",
                        i + 1,
                        words.len()
                    ));
                    break;
                }
            }
        }
        self.games.push(Game { fen, moves, result });
    }
}

/// Games from files: `lines` in the one-game-a-line format, `pgn` in PGN.
/// Malformed records are logged as warnings naming the file, the line, the
/// game and the move. The error names the file that could not be read.
pub fn read_files(lines: &[PathBuf], pgn: &[PathBuf]) -> Result<Vec<Game>, String> {
    Ok(read_files_all(lines, pgn)?.games)
}

/// As [`read_files`], the malformed records returned too (and logged).
pub fn read_files_all(lines: &[PathBuf], pgn: &[PathBuf]) -> Result<Parsed, String> {
    let mut all = Parsed::default();
    for (paths, is_pgn) in [(lines, false), (pgn, true)] {
        for p in paths {
            let parsed = read_file(p, is_pgn)?;
            for m in &parsed.malformed {
                log::warn!("{m}");
            }
            all.games.extend(parsed.games);
            all.malformed.extend(parsed.malformed);
        }
    }
    Ok(all)
}

/// One file, its malformed records naming it.
fn read_file(path: &Path, is_pgn: bool) -> Result<Parsed, String> {
    if xiangqi_gamefile::Format::of_path(path).is_some() {
        return games_from_game_file(path);
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut parsed = if is_pgn {
        games_from_pgn(&text)
    } else {
        games_from_lines(&text)
    };
    for m in &mut parsed.malformed {
        m.file = Some(path.to_path_buf());
    }
    Ok(parsed)
}

/// The games of an XQF, CBL, CBR or CBF file: each game's main line. A game
/// without a result is passed over, as a PGN game marked `*` is; a move the
/// file has that the rules refuse ends its branch there (the reader says
/// so, logged as a warning). A bad file is an error naming it.
fn games_from_game_file(path: &Path) -> Result<Parsed, String> {
    let games = xiangqi_gamefile::read_path(path).map_err(|e| e.to_string())?;
    let mut out = Parsed::default();
    for (i, g) in games.iter().enumerate() {
        for w in &g.warnings {
            log::warn!("{}: game {}: {w}", path.display(), i + 1);
        }
        if let Some(result) = g.headers.result.red_score() {
            out.games.push(Game {
                fen: g.start_fen(),
                moves: g.main_line(),
                result,
            });
        }
    }
    Ok(out)
}

/// Games from one-game-a-line text (`FEN(6 fields) moves... result`);
/// blank lines and `#` lines are skipped.
pub fn games_from_lines(text: &str) -> Parsed {
    let mut out = Parsed::default();
    let records = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty());
    for (game, (i, l)) in records.enumerate() {
        let f: Vec<&str> = l.split_whitespace().collect();
        let result = f.last().and_then(|r| result_value(r));
        match result {
            Some(result) if f.len() >= 7 => out.add(
                i + 1,
                game + 1,
                f[..6].join(" "),
                &f[6..f.len() - 1],
                result,
            ),
            _ => out.malformed.push(Malformed {
                file: None,
                line: i + 1,
                game: game + 1,
                problem: "not FEN (6 fields), moves and a result (1-0, 0-1, 1/2-1/2); left out"
                    .into(),
            }),
        }
    }
    out
}

/// Games from PGN with ICCS moves (a FEN tag, or the start position). A
/// game starts at an `[Event` line; unfinished games (`*`) are skipped.
pub fn games_from_pgn(text: &str) -> Parsed {
    let mut out = Parsed::default();
    let lines: Vec<&str> = text.lines().collect();
    let starts: Vec<usize> = (0..lines.len())
        .filter(|&i| i == 0 || lines[i].starts_with("[Event "))
        .chain(std::iter::once(lines.len()))
        .collect();
    let mut game = 0;
    for w in starts.windows(2) {
        let block = &lines[w[0]..w[1]];
        if block.iter().all(|l| l.trim().is_empty()) {
            continue;
        }
        game += 1;
        let mut fen = START_FEN.to_string();
        let mut result = None;
        let mut body = String::new();
        for line in block {
            let l = line.trim();
            if let Some(v) = l.strip_prefix("[FEN \"") {
                fen = v.trim_end_matches("\"]").to_string();
            } else if let Some(v) = l.strip_prefix("[Result \"") {
                result = Some(v.trim_end_matches("\"]"));
            } else if !l.starts_with('[') {
                body.push_str(l);
                body.push(' ');
            }
        }
        let result = match result.map(|r| (r, result_value(r))) {
            Some((_, Some(r))) => r,
            Some(("*", None)) => continue,
            other => {
                let problem = match other {
                    Some((r, _)) => format!("result '{r}' is not 1-0, 0-1 or 1/2-1/2; left out"),
                    None => "no Result tag; left out".into(),
                };
                out.malformed.push(Malformed {
                    file: None,
                    line: w[0] + 1,
                    game,
                    problem,
                });
                continue;
            }
        };
        let mut depth = 0u32;
        let mut clean = String::new();
        for ch in body.chars() {
            match ch {
                '{' => depth += 1,
                '}' => depth = depth.saturating_sub(1),
                c if depth == 0 => clean.push(c),
                _ => {}
            }
        }
        let words: Vec<&str> = clean
            .split_whitespace()
            .map(strip_number)
            .filter(|w| !w.is_empty() && result_value(w).is_none() && *w != "*")
            .collect();
        out.add(w[0] + 1, game, fen, &words, result);
    }
    out
}

/// A move in ICCS (`h2e2`, `H2-E2`), WXF (`C2.5`) or Chinese notation
/// (`炮二平五`), tried in that order. The error is the one of the notation
/// whose shape the text has, else a list of the three.
fn parse_any(board: &Board, text: &str) -> Result<Move, String> {
    use xiangqi::notation::{ParseNotationError, parse_chinese, parse_iccs, parse_wxf};
    if let Ok(m) = board.parse_move(text) {
        return Ok(m);
    }
    if let Some(m) = parse_iccs(text) {
        return if board.is_legal_move(m) {
            Ok(m)
        } else {
            Err(format!("{m} is not legal here"))
        };
    }
    let mut shaped = None;
    for parsed in [parse_wxf(board, text), parse_chinese(board, text)] {
        match parsed {
            Ok(m) => return Ok(m),
            Err(ParseNotationError::Syntax { .. }) => {}
            Err(e) => shaped = shaped.or(Some(e.to_string())),
        }
    }
    Err(shaped.unwrap_or_else(|| "not a move in ICCS, WXF or Chinese notation".into()))
}

/// A move word without a move number glued to it (`1.炮二平五`, `12...h9g7`)
/// and without the marks PGN allows after a move (`炮七平九??`, `h2e2!?`,
/// as `jiangjun analyse` writes them).
fn strip_number(word: &str) -> &str {
    let rest = word.trim_start_matches(|c: char| c.is_ascii_digit());
    let word = if rest.len() < word.len() && rest.starts_with('.') {
        rest.trim_start_matches('.')
    } else {
        word
    };
    word.trim_end_matches(['?', '!'])
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

    fn iccs(g: &Game) -> Vec<String> {
        g.moves.iter().map(|m| m.to_string()).collect()
    }

    #[test]
    fn pgn_games() {
        let pgn = "[Event \"x\"]\n[Result \"1-0\"]\n\n1. h2e2 {+0.1/3 0.1s} h9g7 2. h0g2 1-0\n\n[Event \"y\"]\n[Result \"*\"]\n\n1. c3c4 *\n";
        let p = games_from_pgn(pgn);
        assert_eq!(p.games.len(), 1);
        assert_eq!(iccs(&p.games[0]), vec!["h2e2", "h9g7", "h0g2"]);
        assert_eq!(p.games[0].result, 1.0);
        assert!(p.malformed.is_empty());
    }

    /// Chinese and WXF moves, move numbers glued on or apart, full-width
    /// spaces between them.
    #[test]
    fn pgn_in_chinese_and_wxf() {
        let pgn = "[Event \"x\"]\n[Result \"0-1\"]\n\n1.炮二平五\u{3000}马8进7 2. 马二进三 车9平8 0-1\n\n\
                   [Event \"y\"]\n[Result \"1-0\"]\n\n1. C2.5 H8+7 2. H2+3 1-0\n";
        let p = games_from_pgn(pgn);
        assert!(p.malformed.is_empty(), "{:?}", p.malformed);
        assert_eq!(iccs(&p.games[0]), vec!["h2e2", "h9g7", "h0g2", "i9h9"]);
        assert_eq!(iccs(&p.games[1]), vec!["h2e2", "h9g7", "h0g2"]);
        // The shape of a move but none here: the notation's own error.
        let p = games_from_pgn("[Result \"1-0\"]\n1. 炮二平二 1-0\n");
        assert!(
            p.malformed[0].problem.contains("炮二平二"),
            "{:?}",
            p.malformed
        );
    }

    #[test]
    fn a_bad_move_is_reported_with_its_place() {
        let start = START_FEN;
        let text = format!(
            "# games\n{start} h2e2 h9g7 1-0\n\n{start} h2e2 h2e2 b9c7 0-1\n{start} h2e2\nbad 1 2 3 4 5 6 1-0\n"
        );
        let p = games_from_lines(&text);
        assert_eq!(p.games.len(), 2);
        // The second game keeps its moves up to the bad one.
        assert_eq!(iccs(&p.games[1]), vec!["h2e2"]);
        let m = &p.malformed;
        assert_eq!(m.len(), 3, "{m:?}");
        assert_eq!((m[0].line, m[0].game), (4, 2));
        assert!(
            m[0].problem.starts_with("move 2 'h2e2': ")
                && m[0]
                    .problem
                    .ends_with("the game is cut there (1 of 3 moves kept)"),
            "{}",
            m[0].problem
        );
        assert_eq!((m[1].line, m[1].game), (5, 3));
        assert!(m[1].problem.starts_with("not FEN"), "{}", m[1].problem);
        assert_eq!((m[2].line, m[2].game), (6, 4));
        assert!(m[2].problem.starts_with("bad FEN"), "{}", m[2].problem);

        let pgn = "[Event \"a\"]\n[Result \"1-0\"]\n\n1. h2e2 h9g7 1-0\n\n[Event \"b\"]\n[FEN \"3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1\"]\n[Result \"0-1\"]\n\n1. e0e1 d9d8 2. e1e3 0-1\n\n[Event \"c\"]\n\n1. h2e2 1-0\n";
        let p = games_from_pgn(pgn);
        assert_eq!(p.games.len(), 2);
        assert_eq!(iccs(&p.games[1]), vec!["e0e1", "d9d8"]);
        assert_eq!(p.malformed.len(), 2);
        let m = Malformed {
            file: Some("g.pgn".into()),
            ..p.malformed[0].clone()
        };
        assert!(
            m.to_string()
                .starts_with("g.pgn:6: game 2: move 3 'e1e3': "),
            "{m}"
        );
        assert_eq!(
            p.malformed[1].to_string(),
            "12: game 3: no Result tag; left out"
        );
    }
}
