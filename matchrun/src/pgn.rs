//! Game records: PGN text with ICCS or Chinese moves.

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

/// A finished game, ready to print.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The game's number in the match, from 1.
    pub round: usize,
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
}

impl GameRecord {
    /// The game as PGN (tags, moves with `{score/depth time}` comments, the
    /// reason as the last comment), dated `date` (`YYYY.MM.DD`); moves in
    /// Chinese notation or ICCS.
    pub fn to_pgn(&self, date: &str, chinese_moves: bool) -> String {
        let mut s = String::new();
        let tags = [
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
        flush(&mut text, &format!("{{{}}}", self.reason));
        flush(&mut text, self.result);
        text.push_str(line.trim_end());
        s.push_str(&text);
        s.push_str("\n\n");
        s
    }
}
