//! What `jiangjun analyse` makes of its searches: how much each move lost,
//! measured in the mover's expected score (win + draw / 2) from the WDL
//! model `UCI_ShowWDL` prints, its mark (`?!`, `?`, `??`), and the game
//! written back as PGN with the marks, and with the better move and its
//! line after each marked move. The judging itself is the engine's
//! (`jiangjun_engine::analysis`), which the browser page's "Analyse game"
//! uses too, so both mark the same moves.

use jiangjun_engine::analysis::{self, Judged, Verdict, judge_moves, mate_moves};
use jiangjun_engine::{SCORE_MATE, Score};
use xiangqi::board::{Board, START_FEN};
use xiangqi::notation::chinese;
use xiangqi::types::{Color, Move};

/// A game to go over: its start, main line and header fields.
pub struct GameInfo {
    pub fen: String,
    pub moves: Vec<Move>,
    pub event: String,
    pub date: String,
    pub red: String,
    pub black: String,
    /// The PGN result (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub result: String,
}

/// One position's search: the score for the side to move, the best move
/// and its line (none in a position without a legal move).
#[derive(Clone, Debug)]
pub struct Eval {
    pub score: Score,
    pub pv: Vec<Move>,
    pub depth: i32,
}

/// A game and the search of each of its positions (one more than its moves).
pub struct Analysis {
    pub game: GameInfo,
    pub evals: Vec<Eval>,
    /// How each position was searched, in words (`1000 ms a position`).
    pub limit: String,
}

/// How bad a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Mark {
    pub fn symbol(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }

    /// The mark of a move that lost `loss` of the mover's expected score:
    /// 0.10, 0.20 and 0.30 (`analysis::MARKS`), the bands Lichess uses on
    /// the same scale.
    pub fn of_loss(loss: f64) -> Option<Mark> {
        match analysis::mark_for(loss)? {
            "??" => Some(Mark::Blunder),
            "?" => Some(Mark::Mistake),
            _ => Some(Mark::Inaccuracy),
        }
    }
}

/// The expected score (win + draw / 2, from 0 to 1) of the side to move.
pub fn expectation(score: Score) -> f64 {
    analysis::expected(score)
}

/// Each move's loss and mark, as `analysis::judge_moves` judges them: the
/// mover's expectation before the move less its expectation after (the
/// other side's, turned over), never below 0; the search's own best move
/// loses nothing.
pub fn verdicts(a: &Analysis) -> Vec<(f64, Option<Mark>)> {
    let mut out: Vec<(f64, Option<Mark>)> = judged(a)
        .iter()
        .map(|j| {
            let loss = if j.better.is_none() { 0.0 } else { j.loss() };
            (loss, j.mark.and_then(|_| Mark::of_loss(loss)))
        })
        .collect();
    out.resize(a.game.moves.len(), (0.0, None));
    out
}

/// The game's moves as the engine's `analysis::judge_moves` judges them
/// from the searches (what the marks and the graph are made of). Moves
/// past the last search (an analysis cut short) are left out.
pub fn judged(a: &Analysis) -> Vec<Judged> {
    let evals: Vec<Verdict> = a
        .evals
        .iter()
        .map(|e| Verdict {
            score: e.score,
            best: e.pv.first().copied(),
            pv: e.pv.clone(),
            depth: e.depth,
        })
        .collect();
    let Ok(start) = Board::from_fen(&a.game.fen) else {
        return Vec::new();
    };
    let n = a.game.moves.len().min(evals.len().saturating_sub(1));
    judge_moves(&start, &a.game.moves[..n], &evals)
}

/// A score as Red sees it, in pawns (`+0.35`) or as a mate (`#5`, `#-3`).
pub fn red_score_text(score: Score, side: Color) -> String {
    let s = if side == Color::Red { score } else { -score };
    match mate_moves(s) {
        Some(m) => format!("#{m}"),
        None => format!("{:+.2}", f64::from(s) / 100.0),
    }
}

/// How moves are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Notation {
    /// 炮二平五
    Chinese,
    /// h2e2
    Iccs,
}

fn write_move(board: &Board, mv: Move, notation: Notation) -> String {
    match notation {
        Notation::Chinese => chinese(board, mv),
        Notation::Iccs => mv.to_string(),
    }
}

/// A line of moves from `board` (not changed), written in `notation`.
fn line_text(board: &Board, line: &[Move], notation: Notation) -> String {
    let mut b = board.clone();
    let mut words = Vec::new();
    for &mv in line.iter().take(8) {
        if !b.is_legal_move(mv) {
            break;
        }
        words.push(write_move(&b, mv, notation));
        b.make_move(mv);
    }
    words.join(" ")
}

/// What a marked move `i` (played in `board`, losing `loss`) gets said
/// after it: the scores before and after (Red's), the share lost, and the
/// better move with its line. None without the searches of both sides of it.
pub fn mark_comment(
    a: &Analysis,
    i: usize,
    loss: f64,
    board: &Board,
    notation: Notation,
) -> Option<String> {
    let (before, after) = (a.evals.get(i)?, a.evals.get(i + 1)?);
    let side = board.side_to_move();
    let mut comment = format!(
        "{} to {}, {:.0}% of the expected score lost",
        red_score_text(before.score, side),
        red_score_text(after.score, side.flip()),
        loss * 100.0
    );
    if let Some(b) = before
        .pv
        .first()
        .copied()
        .filter(|b| board.is_legal_move(*b))
    {
        comment.push_str(&format!(
            "; better {}: {}",
            write_move(board, b, notation),
            line_text(board, &before.pv, notation)
        ));
    }
    Some(comment)
}

/// The analysed game as PGN: tags, then the moves, each marked move with a
/// comment saying what it lost and the better move with its line.
pub fn pgn(a: &Analysis, notation: Notation) -> String {
    let g = &a.game;
    let marks = verdicts(a);
    let mut out = String::new();
    let tag = |out: &mut String, name: &str, value: &str| {
        out.push_str(&format!("[{name} \"{}\"]\n", value.replace('"', "'")));
    };
    tag(&mut out, "Event", &g.event);
    tag(&mut out, "Date", &g.date);
    tag(&mut out, "White", &g.red);
    tag(&mut out, "Black", &g.black);
    tag(&mut out, "Result", &g.result);
    if g.fen
        != Board::from_fen(START_FEN)
            .map(|b| b.to_fen())
            .unwrap_or_default()
    {
        tag(&mut out, "FEN", &g.fen);
    }
    tag(
        &mut out,
        "Annotator",
        &format!("jiangjun analyse, {}", a.limit),
    );
    let count = |m: Mark| marks.iter().filter(|(_, x)| *x == Some(m)).count();
    out.push_str(&format!(
        "\n{{{} blunders (??), {} mistakes (?), {} inaccuracies (?!): the loss of the mover's expected score 0.30, 0.20, 0.10 or more; scores are Red's, in pawns}}\n",
        count(Mark::Blunder),
        count(Mark::Mistake),
        count(Mark::Inaccuracy)
    ));
    let Ok(mut board) = Board::from_fen(&g.fen) else {
        return out;
    };
    let mut words: Vec<String> = Vec::new();
    let mut after_comment = false;
    for (i, &mv) in g.moves.iter().enumerate() {
        let side = board.side_to_move();
        // Black's move takes its number again at the start and after a comment.
        if side == Color::Red || i == 0 || after_comment {
            let number = board.fullmove();
            words.push(if side == Color::Red {
                format!("{number}.")
            } else {
                format!("{number}...")
            });
        }
        let (loss, mark) = marks.get(i).copied().unwrap_or((0.0, None));
        let mut text = write_move(&board, mv, notation);
        if let Some(m) = mark {
            text.push_str(m.symbol());
        }
        words.push(text);
        after_comment = false;
        if let Some(comment) = mark.and_then(|_| mark_comment(a, i, loss, &board, notation)) {
            words.push(format!("{{{comment}}}"));
            after_comment = true;
        }
        board.make_move(mv);
    }
    words.push(g.result.clone());
    // Lines of about 80 characters, a word never split.
    let mut line = String::new();
    for w in words {
        if !line.is_empty() && line.chars().count() + w.chars().count() > 80 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&w);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// The score of a position with no legal move: the side to move has lost
/// (checkmate and stalemate alike).
pub const LOST: Score = -SCORE_MATE;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_follow_the_loss() {
        assert_eq!(Mark::of_loss(0.05), None);
        assert_eq!(Mark::of_loss(0.12), Some(Mark::Inaccuracy));
        assert_eq!(Mark::of_loss(0.25), Some(Mark::Mistake));
        assert_eq!(Mark::of_loss(0.9), Some(Mark::Blunder));
    }

    #[test]
    fn a_move_that_throws_a_win_away_is_a_blunder() {
        let start = Board::startpos();
        let mv = start.parse_move("h2e2").unwrap();
        let other = start.parse_move("b2e2").unwrap();
        let game = GameInfo {
            fen: start.to_fen(),
            moves: vec![mv],
            event: String::new(),
            date: String::new(),
            red: String::new(),
            black: String::new(),
            result: "*".into(),
        };
        // Red stood at +3.00; after the move Black stands at +3.00.
        let evals = vec![
            Eval {
                score: 300,
                pv: vec![other],
                depth: 1,
            },
            Eval {
                score: 300,
                pv: vec![],
                depth: 1,
            },
        ];
        let a = Analysis {
            game,
            evals,
            limit: "test".into(),
        };
        let v = verdicts(&a);
        // +3.00 is 0.92 of the expected score, so the move lost 0.92 - 0.08.
        assert!((v[0].0 - 0.841).abs() < 0.001, "{v:?}");
        assert_eq!(v[0].1, Some(Mark::Blunder));
        let text = pgn(&a, Notation::Iccs);
        assert!(text.contains("1. h2e2?? {+3.00 to -3.00"), "{text}");
        assert!(text.contains("better b2e2: b2e2}"), "{text}");
        // The same move as the search's loses nothing, whatever the scores.
        let mut a = a;
        a.evals[0].pv = vec![mv];
        assert_eq!(verdicts(&a)[0], (0.0, None));
        assert_eq!(judged(&a).len(), 1);
        assert_eq!(red_score_text(LOST, Color::Black), "#0");
    }
}
