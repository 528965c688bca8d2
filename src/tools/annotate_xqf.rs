//! An analysed game as an XQF file, for the tools Chinese players go over
//! games with (XQStudio, CCBridge, and every program that reads XQF): the
//! game's moves as its main line, each marked move's comment as the PGN has
//! it (Chinese notation), and the engine's better line as a variation
//! beside the marked move, where those programs show alternatives.

use crate::tools::annotate::{Analysis, Notation, mark_comment, verdicts};
use xiangqi::board::Board;
use xiangqi_gamefile::{Game, GameResult, write_xqf};

/// Moves of the better line kept as the variation.
const VARIATION_MOVES: usize = 8;

/// The analysed game as a game tree (see the module docs).
pub fn game(a: &Analysis) -> Result<Game, String> {
    let start =
        Board::from_fen(&a.game.fen).map_err(|e| format!("bad start {}: {e}", a.game.fen))?;
    let mut g = Game::new(start.clone());
    let h = &mut g.headers;
    h.event = a.game.event.clone();
    h.date = a.game.date.clone();
    h.red = a.game.red.clone();
    h.black = a.game.black.clone();
    // XQF keeps 15 bytes of annotator: how the game was searched goes in
    // the comment on the whole game.
    h.annotator = "Jiangjun".into();
    h.result = match a.game.result.as_str() {
        "1-0" => GameResult::RedWins,
        "0-1" => GameResult::BlackWins,
        "1/2-1/2" => GameResult::Draw,
        _ => GameResult::Unknown,
    };
    let marks = verdicts(a);
    let count = |symbol: &str| {
        marks
            .iter()
            .filter(|(_, m)| m.is_some_and(|m| m.symbol() == symbol))
            .count()
    };
    if let Some(root) = g.nodes.first_mut() {
        root.comment = Some(format!(
            "jiangjun analyse, {}: {} ??, {} ?, {} ?!",
            a.limit,
            count("??"),
            count("?"),
            count("?!")
        ));
    }
    let mut board = start;
    let mut parent = 0;
    for (i, &mv) in a.game.moves.iter().enumerate() {
        if !board.is_legal_move(mv) {
            return Err(format!("move {} ({mv}) is not legal", i + 1));
        }
        let (loss, mark) = marks.get(i).copied().unwrap_or((0.0, None));
        let comment = mark.and_then(|m| {
            mark_comment(a, i, loss, &board, Notation::Chinese)
                .map(|c| format!("{} {c}", m.symbol()))
        });
        let node = g.add(parent, mv, comment);
        // The better line, after the move played so that the game stays
        // the main line (the first reply).
        if mark.is_some()
            && let Some(before) = a.evals.get(i)
            && before.pv.first().is_some_and(|&b| b != mv)
        {
            let (mut b, mut at) = (board.clone(), parent);
            for &m in before.pv.iter().take(VARIATION_MOVES) {
                if !b.is_legal_move(m) {
                    break;
                }
                at = g.add(at, m, None);
                b.make_move(m);
            }
        }
        board.make_move(mv);
        parent = node;
    }
    Ok(g)
}

/// The analysed game as the bytes of an XQF file.
pub fn bytes(a: &Analysis) -> Result<Vec<u8>, String> {
    game(a).map(|g| write_xqf(&g))
}
