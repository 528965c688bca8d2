//! Game records: PGN text with ICCS or Chinese moves, and the reading of
//! such PGN files back (to resume a match).

use xiangqi::notation::chinese;
use xiangqi::{Board, Color, Move};

/// One move of a game record.
#[derive(Clone, Debug)]
pub struct MoveRecord {
    pub mv: Move,
    /// The mover's last reported score (see [`crate::engine::MATE`]).
    pub score: Option<i32>,
    /// The depth of that score.
    pub depth: Option<u32>,
    /// Time the move took.
    pub millis: u64,
}

/// The `termination` of a game that was cut off by a signal from outside
/// ([`Failure::Stopped`](crate::engine::Failure::Stopped)): the match stops
/// and such a game is never written or counted.
pub const INTERRUPTED: &str = "interrupted";

/// A finished game, ready to print.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The game's number in the match, from 1.
    pub round: usize,
    /// The opening's number in the list, from 1.
    pub opening: Option<usize>,
    /// Engine names.
    pub red: String,
    pub black: String,
    /// The starting position.
    pub fen: String,
    pub moves: Vec<MoveRecord>,
    /// "1-0", "0-1" or "1/2-1/2" ("*" if the game could not be played).
    pub result: &'static str,
    /// PGN Termination tag: normal, time forfeit, rules infraction, adjudication, abandoned.
    pub termination: &'static str,
    /// What happened, in words.
    pub reason: String,
    pub time_control: String,
    /// Options set for this game (`Hash=16 Threads=2`), Red's and Black's;
    /// empty when no option varies between games.
    pub options: [String; 2],
}

impl GameRecord {
    /// The game as PGN (tags, moves with `{score/depth time}` comments, the
    /// reason as the last comment), dated `date` (`YYYY.MM.DD`); moves in
    /// Chinese notation or ICCS.
    pub fn to_pgn(&self, date: &str, chinese_moves: bool) -> String {
        let mut s = String::new();
        let mut tags = vec![
            ("Event", "jiangjun match".to_string()),
            ("Site", "?".to_string()),
            ("Date", date.to_string()),
            ("Round", self.round.to_string()),
            ("White", self.red.clone()),
            ("Black", self.black.clone()),
            ("Result", self.result.to_string()),
            ("Variant", "xiangqi".to_string()),
            ("FEN", self.fen.clone()),
            ("SetUp", "1".to_string()),
            ("TimeControl", self.time_control.clone()),
            ("Termination", self.termination.to_string()),
            ("PlyCount", self.moves.len().to_string()),
        ];
        if let Some(n) = self.opening {
            tags.push(("OpeningIndex", n.to_string()));
        }
        for (k, o) in [
            ("WhiteOptions", &self.options[0]),
            ("BlackOptions", &self.options[1]),
        ] {
            if !o.is_empty() {
                tags.push((k, o.clone()));
            }
        }
        for (k, v) in tags {
            s.push_str(&format!("[{k} \"{}\"]\n", v.replace('"', "'")));
        }
        s.push('\n');
        let mut board = Board::from_fen(&self.fen).ok();
        let black_first = board
            .as_ref()
            .is_some_and(|b| b.side_to_move() == Color::Black);
        let mut line = String::new();
        let mut text = String::new();
        let mut flush = |text: &mut String, word: &str| {
            if line.len() + word.len() + 1 > 79 && !line.is_empty() {
                text.push_str(line.trim_end());
                text.push('\n');
                line.clear();
            }
            line.push_str(word);
            line.push(' ');
        };
        for (i, r) in self.moves.iter().enumerate() {
            let ply = i + black_first as usize;
            if ply.is_multiple_of(2) {
                flush(&mut text, &format!("{}.", ply / 2 + 1));
            } else if i == 0 {
                flush(&mut text, &format!("{}...", ply / 2 + 1));
            }
            let word = match (&mut board, chinese_moves) {
                (Some(b), true) => chinese(b, r.mv),
                _ => r.mv.to_string(),
            };
            flush(&mut text, &word);
            if let Some(b) = board.as_mut() {
                b.make_move(r.mv);
            }
            let mut comment = String::new();
            if let Some(sc) = r.score {
                comment.push_str(&format!("{:+.2}", sc as f64 / 100.0));
                if let Some(d) = r.depth {
                    comment.push_str(&format!("/{d}"));
                }
                comment.push(' ');
            }
            comment.push_str(&format!("{:.3}s", r.millis as f64 / 1000.0));
            flush(&mut text, &format!("{{{comment}}}"));
        }
        // Braces would end the comment early.
        let reason = self.reason.replace('{', "(").replace('}', ")");
        flush(&mut text, &format!("{{{reason}}}"));
        flush(&mut text, self.result);
        text.push_str(line.trim_end());
        s.push_str(&text);
        s.push_str("\n\n");
        s
    }
}

/// A game read back from a PGN file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame {
    /// The tags, in order.
    pub tags: Vec<(String, String)>,
    /// The moves as written (ICCS or Chinese), without numbers and comments.
    pub moves: Vec<String>,
    /// The last comment: how the game ended, for the runner's games.
    pub reason: String,
    /// The result token that ends the movetext (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub result: String,
}

impl PgnGame {
    /// The value of a tag.
    pub fn tag(&self, key: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// The games of a PGN text, and where the last complete one ends.
#[derive(Clone, Debug, Default)]
pub struct PgnFile {
    /// Complete games: tags, then movetext ending with a result.
    pub games: Vec<PgnGame>,
    /// Bytes up to the end of the last complete game (and the blank lines
    /// after it); anything beyond is a game cut short.
    pub complete_len: usize,
    /// Where each game's text is (tags to result, with the blank lines
    /// after it): a game is copied as it was written from `text[span]`.
    pub spans: Vec<std::ops::Range<usize>>,
}

const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// Read the games of a PGN text. A game is complete when its movetext ends
/// with a result; a last game without one (a file cut short while it was
/// written) is left out and `complete_len` ends before it.
pub fn read_pgn(text: &str) -> PgnFile {
    let mut out = PgnFile::default();
    let mut game = PgnGame::default();
    let mut movetext = String::new();
    // Where the game being read starts.
    let mut begin = None;
    // Keep `game` if its movetext ends with a result; it is `span`.
    let finish = |game: &mut PgnGame,
                  movetext: &mut String,
                  span: std::ops::Range<usize>,
                  out: &mut PgnFile| {
        let (moves, reason, last) = split_movetext(movetext);
        if let Some(r) = last.filter(|r| RESULTS.contains(&r.as_str())) {
            game.moves = moves;
            game.reason = reason;
            game.result = r;
            out.games.push(std::mem::take(game));
            out.complete_len = span.end;
            out.spans.push(span);
        }
        *game = PgnGame::default();
        movetext.clear();
    };
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let t = line.trim();
        // A tag (or the start of one cut short) begins a game.
        if t.starts_with('[') {
            if !movetext.is_empty() {
                let from = begin.take().unwrap_or(start);
                finish(&mut game, &mut movetext, from..start, &mut out);
            }
            begin.get_or_insert(start);
            let inner = t.strip_suffix(']').unwrap_or("");
            if let Some((k, v)) = inner[1.min(inner.len())..].split_once(char::is_whitespace) {
                let v = v.trim();
                let v = v.strip_prefix('"').unwrap_or(v);
                let v = v.strip_suffix('"').unwrap_or(v);
                game.tags.push((k.to_string(), v.to_string()));
            }
        } else if t.is_empty() {
            // Blank lines after a complete game belong to it.
            if game.tags.is_empty() && movetext.is_empty() && out.complete_len == start {
                out.complete_len = offset;
            }
        } else {
            begin.get_or_insert(start);
            movetext.push_str(line);
        }
    }
    if !game.tags.is_empty() || !movetext.is_empty() {
        let from = begin.unwrap_or(0);
        finish(&mut game, &mut movetext, from..text.len(), &mut out);
    }
    out
}

/// Moves, the last comment and the last word of a movetext.
fn split_movetext(text: &str) -> (Vec<String>, String, Option<String>) {
    let mut moves = Vec::new();
    let mut comment = String::new();
    let mut reason = String::new();
    let mut word = String::new();
    let mut last = None;
    let mut depth = 0;
    for ch in text.chars().chain(std::iter::once(' ')) {
        match ch {
            '{' => {
                depth += 1;
                comment.clear();
            }
            '}' if depth > 0 => {
                depth -= 1;
                reason = comment.trim().to_string();
            }
            c if depth > 0 => comment.push(c),
            c if !c.is_whitespace() => word.push(c),
            _ if !word.is_empty() => {
                let w = std::mem::take(&mut word);
                let number =
                    w.trim_end_matches('.').chars().all(|c| c.is_ascii_digit()) && w.ends_with('.');
                if RESULTS.contains(&w.as_str()) {
                    last = Some(w);
                } else if !number {
                    moves.push(w.clone());
                    last = Some(w);
                }
            }
            _ => {}
        }
    }
    if depth > 0 {
        // A comment left open: the game was cut short.
        last = None;
    }
    (moves, reason, last)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(round: usize, moves: &[&str], reason: &str) -> GameRecord {
        let mut b = Board::from_fen(xiangqi::board::START_FEN).unwrap();
        let moves = moves
            .iter()
            .map(|m| {
                let mv = b.parse_move(m).unwrap();
                b.make_move(mv);
                MoveRecord {
                    mv,
                    score: Some(12),
                    depth: Some(3),
                    millis: 40,
                }
            })
            .collect();
        GameRecord {
            round,
            opening: Some(7),
            red: "A".into(),
            black: "B".into(),
            fen: xiangqi::board::START_FEN.into(),
            moves,
            result: "0-1",
            termination: "abandoned",
            reason: reason.into(),
            time_control: "1+0.01".into(),
            options: ["Hash=16 Threads=2".into(), String::new()],
        }
    }

    #[test]
    fn games_read_back() {
        let a = record(3, &["h2e2", "h9g7"], "A crashed while thinking: exited {3}");
        let b = record(1, &[], "B wins by checkmate");
        let text = format!(
            "{}{}",
            a.to_pgn("2026.01.02", false),
            b.to_pgn("2026.01.02", true)
        );
        let file = read_pgn(&text);
        assert_eq!(file.complete_len, text.len());
        assert_eq!(file.games.len(), 2);
        let g = &file.games[0];
        assert_eq!(g.tag("Round"), Some("3"));
        assert_eq!(g.tag("OpeningIndex"), Some("7"));
        assert_eq!(g.tag("WhiteOptions"), Some("Hash=16 Threads=2"));
        assert_eq!(g.tag("BlackOptions"), None);
        assert_eq!(g.tag("Termination"), Some("abandoned"));
        assert_eq!(g.moves, ["h2e2", "h9g7"]);
        assert_eq!(g.reason, "A crashed while thinking: exited (3)");
        assert_eq!(g.result, "0-1");
        assert_eq!(file.games[1].moves, Vec::<String>::new());
        assert_eq!(file.games[1].reason, "B wins by checkmate");
        // Each game's text is where its span says.
        let first = a.to_pgn("2026.01.02", false);
        assert_eq!(file.spans, [0..first.len(), first.len()..text.len()]);
        // Cut anywhere inside the second game, only the first is complete.
        let first = first.len();
        for cut in [first + 5, text.len() - 3, text.len() - 25] {
            let file = read_pgn(&text[..cut]);
            assert_eq!(file.games.len(), 1, "{cut}");
            assert_eq!(file.complete_len, first, "{cut}");
        }
        // A missing final newline is no loss.
        let file = read_pgn(text.trim_end());
        assert_eq!(file.games.len(), 2);
        assert_eq!(file.complete_len, text.trim_end().len());
        assert!(read_pgn("").games.is_empty());
    }
}
