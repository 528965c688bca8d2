//! `jiangjun book build`: an opening book from game records. Every move of
//! the first plies is counted with its results (2 per win, 1 per draw for
//! the side that played it); moves played in too few games are dropped,
//! and so are moves that the engine's own search at the given depth finds
//! much worse than the best move of the position.

use crate::tools::records::Game;
use jiangjun_engine::Engine;
use jiangjun_engine::SCORE_MATE_IN_MAX;
use jiangjun_engine::play::book::{JjBook, Record};
use jiangjun_engine::{GoRequest, Limits};
use std::collections::HashMap;
use xiangqi::board::Board;
use xiangqi::types::{Color, Move};

pub struct BuildOptions {
    /// Only moves within this many plies of the game start go in.
    pub max_ply: usize,
    /// Moves played in fewer games are left out.
    pub min_games: u32,
    /// Search depth of the verification (0: no verification).
    pub verify_depth: i32,
    /// A move scoring this many centipawns below the best move is dropped.
    pub verify_margin: i32,
}

/// Count of one (position, move).
#[derive(Default, Clone, Copy)]
struct Tally {
    games: u32,
    points: u32,
}

pub struct BuildReport {
    pub games: usize,
    pub positions: usize,
    pub dropped_rare: usize,
    pub dropped_by_search: Vec<(String, String, i32)>,
    pub book: JjBook,
    /// A board of every position with a record (for writing formats keyed
    /// differently), in key order.
    pub boards: Vec<Board>,
}

/// Score of `mv` in `board` by a fixed-depth search (mover's view).
fn move_score(board: &Board, mv: Move, depth: i32, engine: &mut Engine) -> i32 {
    let limits = Limits::of(GoRequest {
        depth: Some(depth),
        searchmoves: vec![mv],
        ..GoRequest::default()
    });
    engine.search(board, limits).score
}

pub fn build(
    games: &[Game],
    opts: &BuildOptions,
    mut progress: impl FnMut(usize, usize),
) -> BuildReport {
    // (key, move) -> tally; key -> a board of that position (for verification).
    let mut tallies: HashMap<(u64, u16), Tally> = HashMap::new();
    let mut boards: HashMap<u64, Board> = HashMap::new();
    let mut used = 0;
    for g in games {
        let Ok(mut b) = Board::from_fen(&g.fen) else {
            continue;
        };
        used += 1;
        for &m in g.moves.iter().take(opts.max_ply) {
            // Points of the side that played the move: 2 for a win, 1 for a draw.
            let red_points = (g.result * 2.0).round() as u32;
            let mover_points = match b.side_to_move() {
                Color::Red => red_points,
                Color::Black => 2 - red_points,
            };
            let t = tallies.entry((b.key(), m.raw())).or_default();
            t.games += 1;
            t.points += mover_points;
            boards.entry(b.key()).or_insert_with(|| {
                let mut c = b.clone();
                c.clear_history();
                c
            });
            b.make_move(m);
        }
    }
    let mut dropped_rare = 0;
    let mut by_key: HashMap<u64, Vec<(u16, Tally)>> = HashMap::new();
    for ((key, mv), t) in tallies {
        if t.games < opts.min_games {
            dropped_rare += 1;
            continue;
        }
        by_key.entry(key).or_default().push((mv, t));
    }
    let mut engine = Engine::new(32, 1);
    let mut records = Vec::new();
    let mut dropped_by_search = Vec::new();
    let total = by_key.len();
    let mut keys: Vec<u64> = by_key.keys().copied().collect();
    keys.sort_unstable();
    // Sorted throughout so that the same games always give the same book.
    for list in by_key.values_mut() {
        list.sort_by_key(|(mv, _)| *mv);
    }
    for (done, key) in keys.iter().enumerate() {
        let moves = &by_key[key];
        let board = &boards[key];
        let mut scores = vec![0i32; moves.len()];
        if opts.verify_depth > 0 {
            let limits = Limits::of(GoRequest {
                depth: Some(opts.verify_depth),
                ..GoRequest::default()
            });
            let best = engine.search(board, limits).score;
            for (i, (mv, _)) in moves.iter().enumerate() {
                let m = Move::from_raw(*mv);
                scores[i] = move_score(board, m, opts.verify_depth, &mut engine);
                let hopeless = scores[i] <= -SCORE_MATE_IN_MAX;
                if hopeless || scores[i] < best - opts.verify_margin {
                    dropped_by_search.push((board.to_fen(), m.to_string(), best - scores[i]));
                    scores[i] = i32::MIN;
                }
            }
        }
        for (i, (mv, t)) in moves.iter().enumerate() {
            if scores[i] == i32::MIN {
                continue;
            }
            records.push(Record {
                key: *key,
                mv: *mv,
                // Every kept move gets some weight, even one that never won.
                weight: t.points.clamp(1, 65535) as u16,
                score: scores[i].clamp(-30000, 30000) as i16,
                games: t.games.min(65535) as u16,
            });
        }
        progress(done + 1, total);
    }
    let kept: std::collections::HashSet<u64> = records.iter().map(|r| r.key).collect();
    let positions = kept.len();
    BuildReport {
        games: used,
        positions,
        dropped_rare,
        dropped_by_search,
        book: JjBook::from_records(records),
        boards: keys
            .iter()
            .filter(|k| kept.contains(k))
            .map(|k| boards[k].clone())
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiangjun_engine::play::book::Book;

    const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

    fn game(moves: &str, result: f64) -> Game {
        let mut b = Board::from_fen(START).unwrap();
        let moves = moves
            .split_whitespace()
            .map(|text| {
                let m = b.parse_move(text).unwrap();
                b.make_move(m);
                m
            })
            .collect();
        Game {
            fen: START.into(),
            moves,
            result,
        }
    }

    #[test]
    fn weights_count_results() {
        let games = vec![
            game("h2e2 h9g7", 1.0),
            game("h2e2 h9g7", 0.5),
            game("h2e2 b9c7", 0.0),
            game("c3c4", 1.0),
        ];
        let opts = BuildOptions {
            max_ply: 10,
            min_games: 1,
            verify_depth: 0,
            verify_margin: 100,
        };
        let r = build(&games, &opts, |_, _| {});
        let b = Board::startpos();
        let book = Book::from(r.book);
        let e = book.probe(&b);
        let h2e2 = e.iter().find(|x| x.mv.to_string() == "h2e2").unwrap();
        // Red won one and drew one of three: 2 + 1 + 0 points.
        assert_eq!((h2e2.weight, h2e2.games), (3, 3));
        let mut b2 = b.clone();
        b2.make_move(b.parse_move("h2e2").unwrap());
        let replies = book.probe(&b2);
        let g7 = replies.iter().find(|x| x.mv.to_string() == "h9g7").unwrap();
        // Black lost one and drew one: 0 + 1.
        assert_eq!((g7.weight, g7.games), (1, 2));
        // Black won the one game with b9c7: 2 points.
        let c7 = replies.iter().find(|x| x.mv.to_string() == "b9c7").unwrap();
        assert_eq!(c7.weight, 2);
    }

    #[test]
    fn rare_moves_and_late_plies_are_left_out() {
        let games = vec![
            game("h2e2 h9g7", 1.0),
            game("h2e2 h9g7", 1.0),
            game("c3c4", 1.0),
        ];
        let opts = BuildOptions {
            max_ply: 1,
            min_games: 2,
            verify_depth: 0,
            verify_margin: 100,
        };
        let r = build(&games, &opts, |_, _| {});
        assert_eq!(r.book.len(), 1);
        assert_eq!(r.dropped_rare, 1);
    }

    #[test]
    fn verification_drops_a_blunder() {
        // 1. h2h9?? gives the cannon for a horse (the rook recaptures); the
        // games "liked" it, the search does not.
        let games = vec![
            game("h2h9", 1.0),
            game("h2h9", 1.0),
            game("h2e2", 0.5),
            game("h2e2", 0.5),
        ];
        let opts = BuildOptions {
            max_ply: 1,
            min_games: 1,
            verify_depth: 4,
            verify_margin: 60,
        };
        let r = build(&games, &opts, |_, _| {});
        let moves: Vec<String> = Book::from(r.book)
            .probe(&Board::startpos())
            .iter()
            .map(|e| e.mv.to_string())
            .collect();
        assert_eq!(moves, vec!["h2e2"]);
        assert_eq!(r.dropped_by_search.len(), 1);
        assert_eq!(r.dropped_by_search[0].1, "h2h9");
    }
}
