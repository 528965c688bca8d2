//! Property tests over random playouts: make/unmake restores the board, the
//! incremental key equals the key from scratch, FEN round trips, generated
//! moves agree with the pseudo-legality and check tests, the exchange test
//! `see_ge` agrees with `see`, and the rules are left-right symmetric.

// Test code: a failed unwrap is a failed test, reported with its line.
#![allow(clippy::unwrap_used)]

mod common;

use common::{Rng, random_move, random_position};
use xiangqi::board::{Board, START_FEN};
use xiangqi::types::{Move, SQUARES, Square};

fn playout_positions(seed: u64, games: usize, plies: usize) -> Vec<Board> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for g in 0..games {
        let mut b = if g % 2 == 0 {
            Board::from_fen(START_FEN).unwrap()
        } else {
            random_position(&mut rng)
        };
        for _ in 0..plies {
            out.push(b.clone());
            let Some(m) = random_move(&b, &mut rng) else {
                break;
            };
            b.make_move(m);
        }
    }
    out
}

#[test]
fn make_unmake_restores_everything() {
    for b in playout_positions(1, 60, 120) {
        let mut work = b.clone();
        let fen = b.to_fen();
        for m in b.legal_moves().iter() {
            work.make_move(m);
            assert!(work.is_consistent(), "inconsistent after {m} in {fen}");
            assert_eq!(work.key(), work.compute_key());
            work.unmake_move();
            assert_eq!(work.to_fen(), fen, "unmake {m}");
            assert_eq!(work.key(), b.key());
            assert_eq!(work.history().len(), b.history().len());
        }
        if !b.in_check() {
            work.make_null();
            assert_eq!(work.key(), work.compute_key());
            work.unmake_null();
            assert_eq!(work.key(), b.key());
            assert_eq!(work.to_fen(), fen);
        }
    }
}

#[test]
fn incremental_key_matches_scratch_along_games() {
    let mut rng = Rng::new(2);
    for _ in 0..100 {
        let mut b = Board::from_fen(START_FEN).unwrap();
        for _ in 0..200 {
            let Some(m) = random_move(&b, &mut rng) else {
                break;
            };
            b.make_move(m);
            assert_eq!(b.key(), b.compute_key());
            assert!(b.is_consistent());
        }
        // Unwind the whole game.
        while !b.history().is_empty() {
            b.unmake_move();
            assert_eq!(b.key(), b.compute_key());
        }
        assert_eq!(b.to_fen(), START_FEN);
    }
}

#[test]
fn fen_round_trips() {
    for b in playout_positions(3, 60, 100) {
        let fen = b.to_fen();
        let again = Board::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(again.to_fen(), fen);
        assert_eq!(again.key(), b.key());
        assert!(again.is_consistent());
    }
}

#[test]
fn pseudo_legality_test_agrees_with_generation() {
    for b in playout_positions(4, 20, 60) {
        let mut all = xiangqi::board::MoveList::new();
        b.gen_pseudo_legal(&mut all);
        let mut caps = xiangqi::board::MoveList::new();
        let mut quiets = xiangqi::board::MoveList::new();
        b.gen_captures(&mut caps);
        b.gen_quiets(&mut quiets);
        assert_eq!(caps.len() + quiets.len(), all.len());
        for m in caps.iter() {
            assert!(b.piece_at(m.to()).is_some());
        }
        for m in quiets.iter() {
            assert!(b.piece_at(m.to()).is_none());
        }
        for from in 0..SQUARES {
            for to in 0..SQUARES {
                if from == to {
                    continue;
                }
                let m = Move::new(
                    Square::from_index(from).unwrap(),
                    Square::from_index(to).unwrap(),
                );
                assert_eq!(
                    b.is_pseudo_legal(m),
                    all.contains(m),
                    "{m} in {}",
                    b.to_fen()
                );
            }
        }
        let legal = b.legal_moves();
        for m in all.iter() {
            assert_eq!(b.is_legal(m), legal.contains(m));
        }
        let legal_caps = b.legal_captures();
        assert!(
            legal_caps
                .iter()
                .all(|m| legal.contains(m) && b.piece_at(m.to()).is_some())
        );
        assert_eq!(
            legal_caps.len(),
            legal
                .iter()
                .filter(|m| b.piece_at(m.to()).is_some())
                .count()
        );
        assert_eq!(b.has_legal_move(), !legal.is_empty());
    }
}

#[test]
fn legality_and_check_agree_with_making_the_move() {
    for b in playout_positions(5, 40, 100) {
        let mut work = b.clone();
        let mut all = xiangqi::board::MoveList::new();
        b.gen_pseudo_legal(&mut all);
        let us = b.side_to_move();
        for m in all.iter() {
            work.make_move(m);
            let exposed = work.is_in_check(us);
            let check = work.in_check();
            work.unmake_move();
            assert_eq!(b.is_legal(m), !exposed, "{m} in {}", b.to_fen());
            if !exposed {
                assert_eq!(b.gives_check(m), check, "gives_check {m} in {}", b.to_fen());
            }
        }
        assert_eq!(b.in_check(), !b.checkers().is_empty());
    }
}

/// `see_ge`'s shortcuts (the exchange's bounds) give `see`'s answer: every
/// pseudo-legal move of the playouts, at thresholds around the values in play.
#[test]
fn see_ge_agrees_with_see() {
    // King, advisor, elephant, horse, rook, cannon, pawn.
    const VALUES: xiangqi::board::PieceValues = [10000, 200, 200, 400, 900, 450, 100];
    let (p, n, c, r) = (VALUES[6], VALUES[3], VALUES[5], VALUES[4]);
    let mut checked = 0;
    for b in playout_positions(7, 20, 100) {
        let mut all = xiangqi::board::MoveList::new();
        b.gen_pseudo_legal(&mut all);
        for m in all.iter() {
            let exact = b.see(m, &VALUES);
            for t in [-r - 1, -r, -n, -p, -1, 0, 1, p, n, c, r, r + 1] {
                assert_eq!(
                    b.see_ge(m, t, &VALUES),
                    exact >= t,
                    "{m} at {t} in {}",
                    b.to_fen()
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 200_000, "{checked}");
}

#[test]
fn rules_are_left_right_symmetric() {
    for b in playout_positions(6, 40, 100) {
        let m = b.mirrored();
        assert!(m.is_consistent());
        let mut a: Vec<String> = b
            .legal_moves()
            .iter()
            .map(|x| x.mirror().to_string())
            .collect();
        let mut c: Vec<String> = m.legal_moves().iter().map(|x| x.to_string()).collect();
        a.sort();
        c.sort();
        assert_eq!(a, c, "{}", b.to_fen());
        assert_eq!(b.in_check(), m.in_check());
    }
}
