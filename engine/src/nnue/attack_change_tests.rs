//! The changes a move's two squares give against the two whole attack
//! lists: after every move of random games, and after random moves (any
//! piece to any other square, on a line or not, onto a friend or not) on
//! random boards from nearly empty to crowded past any game's material
//! (`random::board_and_move`).

use super::random::{board_and_move, rng};
use super::*;
use crate::nnue::features::squares_of;
use crate::nnue::threats::MAX_THREATS;
use crate::nnue::threats::for_each_attack;
use xiangqi::Board;

/// An attack with both pieces, as `(from, to, attacker, victim)`.
type Key = (usize, usize, u8, u8);

fn whole(squares: &Squares) -> Vec<Key> {
    let mut v = Vec::new();
    for_each_attack(squares, |f, t| v.push((f, t, squares[f], squares[t])));
    v.sort();
    v
}

/// Checks the changes of moving the piece on `from` to `to` on `before`;
/// returns how many attacks changed.
fn check(before: &Squares, from: usize, to: usize) -> usize {
    let mut after = *before;
    after[to] = after[from];
    after[from] = 0;
    let board = AttackBoard::new(before);
    assert_eq!(
        board.moved(from, to),
        AttackBoard::new(&after),
        "{from} -> {to}"
    );
    let (old, new) = (whole(before), whole(&after));
    let mut want_added: Vec<Key> = new.iter().filter(|k| !old.contains(k)).copied().collect();
    let mut want_removed: Vec<Key> = old.iter().filter(|k| !new.contains(k)).copied().collect();
    let (mut added, mut removed) = (Vec::new(), Vec::new());
    let counts = for_each_changed_attack(
        &board,
        &AttackBoard::new(&after),
        [from, to],
        |b, f, t, is_added| {
            let key = (f, t, b[f], b[t]);
            if is_added {
                added.push(key);
            } else {
                removed.push(key);
            }
        },
    );
    for v in [&mut want_added, &mut want_removed, &mut added, &mut removed] {
        v.sort();
    }
    assert_eq!(added, want_added, "added, {from} -> {to} on {before:?}");
    assert_eq!(
        removed, want_removed,
        "removed, {from} -> {to} on {before:?}"
    );
    assert_eq!(
        counts.after as i64 - counts.before as i64,
        new.len() as i64 - old.len() as i64,
        "counts, {from} -> {to} on {before:?}"
    );
    added.len() + removed.len()
}

#[test]
fn every_move_of_random_games_changes_what_the_whole_lists_say() {
    let mut next = rng(5);
    let (mut moves_seen, mut changes) = (0, 0);
    for _ in 0..40 {
        let mut board = Board::from_fen(xiangqi::START_FEN).unwrap();
        for _ in 0..200 {
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves.as_slice()[next(moves.len())];
            changes += check(&squares_of(&board), mv.from().index(), mv.to().index());
            moves_seen += 1;
            board.make_move(mv);
        }
    }
    assert!(moves_seen > 5_000, "{moves_seen} moves");
    assert!(
        changes > moves_seen,
        "{changes} changes in {moves_seen} moves"
    );
}

#[test]
fn random_moves_on_random_boards_change_what_the_whole_lists_say() {
    let mut next = rng(17);
    let mut moves = 0;
    for round in 0..24_000 {
        if let Some((squares, from, to)) = board_and_move(round, MAX_THREATS, &mut next) {
            check(&squares, from, to);
            moves += 1;
        }
    }
    assert!(moves > 23_000, "{moves} moves");
}
