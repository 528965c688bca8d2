//! The strength knobs (`jiangjun_engine::play::strength`) through the engine's
//! search: what each does to the move played, and that the default is the
//! full-strength search.

// Test code: a failed unwrap is a failed test, reported with its line.
#![allow(clippy::unwrap_used)]

use jiangjun_engine::Engine;
use jiangjun_engine::Position;
use jiangjun_engine::eval::{evaluate, evaluate_partial};
use jiangjun_engine::play::ladder;
use jiangjun_engine::play::strength::{Grade, Randomness, Strength};
use jiangjun_engine::{GoRequest, Limits, SearchResult};
use jiangjun_engine::{SCORE_MATE_IN_MAX, Score};
use xiangqi::board::Board;

/// Red mates in three, starting with the rook sacrifice d8d9 (a composed
/// problem; Black threatens mate too, so Red must check all the way).
const MATE_IN_3: &str = "1rbak3r/1N1Ra4/cR2b1N2/9/9/9/9/9/5p3/4K4 w - - 0 1";
const MATE_MOVE: &str = "d8d9";
/// A quiet middlegame.
const MIDDLEGAME: &str =
    "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 4 3";

fn search(fen: &str, depth: i32, strength: Strength) -> SearchResult {
    let mut engine = Engine::new(4, 1);
    let board = Board::from_fen(fen).unwrap();
    let r = engine.search_at(
        &board,
        Limits::of(GoRequest {
            depth: Some(depth),
            ..GoRequest::default()
        }),
        &strength,
    );
    let best = r.best.expect("a move");
    assert!(board.is_legal_move(best), "illegal {best}");
    r
}

fn level(rung: usize, seed: u64) -> Strength {
    Strength {
        rung,
        seed,
        ..Strength::default()
    }
}

#[test]
fn default_strength_is_the_full_search() {
    let full = search(MIDDLEGAME, 7, Strength::default());
    // Any seed: nothing random at full strength.
    let again = search(
        MIDDLEGAME,
        7,
        Strength {
            seed: 99,
            ..Strength::default()
        },
    );
    assert_eq!(
        (full.best, full.score, full.nodes),
        (again.best, again.score, again.nodes)
    );
    assert_eq!(full.depth, 7);
}

#[test]
fn the_lowest_rung_misses_what_full_strength_finds() {
    let mate = Board::from_fen(MATE_IN_3)
        .unwrap()
        .parse_move(MATE_MOVE)
        .unwrap();
    let full = search(MATE_IN_3, 8, Strength::default());
    assert_eq!(full.best, Some(mate));
    assert!(full.score >= SCORE_MATE_IN_MAX);
    let budget = ladder::RUNGS[0].nodes;
    for seed in 1..=12 {
        let weak = search(MATE_IN_3, 8, level(0, seed));
        // The budget, not the depth asked for, ends the search.
        assert!(weak.nodes <= budget, "{} > {budget}", weak.nodes);
        assert!(weak.depth < 8);
        assert_ne!(weak.best, Some(mate), "seed {seed}");
        // The same seed plays the same move.
        let again = search(MATE_IN_3, 8, level(0, seed));
        assert_eq!((again.best, again.nodes), (weak.best, weak.nodes));
    }
    // With the budget of the highest rung below the top the mate is found.
    let strong = search(MATE_IN_3, 8, level(ladder::TOP - 1, 3));
    assert_eq!(strong.best, Some(mate));
}

#[test]
fn a_low_rung_picks_among_good_moves() {
    // Over seeds, rung 0 plays several moves, full strength one.
    let moves: std::collections::HashSet<_> = (1..=12)
        .map(|s| search(MIDDLEGAME, 6, level(0, s)).best)
        .collect();
    assert!(moves.len() >= 2, "{moves:?}");
    // None of them loses material at once: each scores within a pawn
    // and a half of the best at one ply.
    let best = search(MIDDLEGAME, 1, Strength::default()).score;
    for s in 1..=12 {
        let r = search(MIDDLEGAME, 6, level(0, s));
        assert!(r.score > best - 150, "{} {}", r.score, best);
    }
}

#[test]
fn pruning_none_searches_more_and_still_finds_mates() {
    let mate = Board::from_fen(MATE_IN_3)
        .unwrap()
        .parse_move(MATE_MOVE)
        .unwrap();
    let full = search(MIDDLEGAME, 7, Strength::default());
    let mut last = full.nodes;
    for grade in [Grade::Medium, Grade::Small, Grade::None] {
        let s = Strength {
            pruning: grade,
            ..Strength::default()
        };
        let r = search(MIDDLEGAME, 7, s.clone());
        assert!(
            r.nodes > full.nodes,
            "{grade:?}: {} vs {}",
            r.nodes,
            full.nodes
        );
        last = last.max(r.nodes);
        let m = search(MATE_IN_3, 7, s);
        assert_eq!(m.best, Some(mate), "{grade:?}");
        assert!(m.score >= SCORE_MATE_IN_MAX, "{grade:?}");
    }
    assert!(last > full.nodes);
}

#[test]
fn randomness_varies_the_play_only_when_asked() {
    let none: Vec<_> = (1..=4)
        .map(|seed| {
            let r = search(
                MIDDLEGAME,
                6,
                Strength {
                    seed,
                    ..Strength::default()
                },
            );
            (r.best, r.score)
        })
        .collect();
    assert!(none.windows(2).all(|w| w[0] == w[1]), "{none:?}");
    let huge: std::collections::HashSet<_> = (1..=4)
        .map(|seed| {
            let r = search(
                MIDDLEGAME,
                6,
                Strength {
                    randomness: Randomness::Huge,
                    seed,
                    ..Strength::default()
                },
            );
            (r.best, r.score)
        })
        .collect();
    assert!(huge.len() >= 2, "{huge:?}");
    // Tiny noise moves the score little, and less than huge noise does. A
    // search through a noisy evaluation searches another tree (pruning and
    // reductions read the evaluation), so its score is not bounded by the
    // noise's ±7: with net 5, tiny noise moved this depth-6 score by -3 to
    // +41 over seeds 1 to 16 (mean size 10.4), huge noise by -10 to +87
    // (mean size 24.8), measured with these searches at 49f77f2 (the vectors below,
    // printed on failure). (The bar before, within 30 at one seed, held for
    // net 4 by that seed's draw.) So: every tiny shift under a pawn (100),
    // and tiny's mean shift under huge's.
    let shifts = |randomness: Randomness| -> Vec<Score> {
        (1..=16)
            .map(|seed| {
                let r = search(
                    MIDDLEGAME,
                    6,
                    Strength {
                        randomness,
                        seed,
                        ..Strength::default()
                    },
                );
                (r.score - none[0].1).abs()
            })
            .collect()
    };
    let tiny = shifts(Randomness::Tiny);
    let loud = shifts(Randomness::Huge);
    assert!(tiny.iter().all(|&d| d < 100), "{tiny:?}");
    assert!(
        tiny.iter().sum::<Score>() < loud.iter().sum::<Score>(),
        "tiny {tiny:?}, huge {loud:?}"
    );
}

#[test]
fn knowledge_grades_shrink_the_evaluation() {
    let pos = Position::new(Board::from_fen(MIDDLEGAME).unwrap());
    // Everything kept: the full evaluation.
    assert_eq!(evaluate_partial(&pos, |_| true, true), evaluate(&pos));
    // Material and tables only: a different number, and a different search.
    let r_full = search(MIDDLEGAME, 6, Strength::default());
    let r_none = search(
        MIDDLEGAME,
        6,
        Strength {
            knowledge: Grade::None,
            ..Strength::default()
        },
    );
    assert_ne!(r_full.nodes, r_none.nodes);
    for fen in [
        MIDDLEGAME,
        MATE_IN_3,
        "4k4/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1",
    ] {
        let pos = Position::new(Board::from_fen(fen).unwrap());
        // Nothing kept but the always-kept material and tables.
        let bare = evaluate_partial(&pos, |_| false, false);
        assert!(bare.abs() < 30_000);
    }
}
