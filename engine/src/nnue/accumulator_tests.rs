//! Tests of the accumulator: incremental updates against refreshes, for
//! every architecture.

use super::*;
use crate::nnue::arch::Arch;
use crate::nnue::features::FeatureSet;

fn rng(mut seed: u64) -> impl FnMut(usize) -> usize {
    move |n| {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) as usize % n
    }
}

/// One network of each feature set, with a few widths and bucket counts.
fn networks() -> Vec<Network> {
    vec![
        Network::random(1),
        Network::random_arch(Arch::new(FeatureSet::KingBucket6, 512, 8).unwrap(), 2),
        Network::random_arch(Arch::new(FeatureSet::KingBucket6, 64, 3).unwrap(), 3),
        Network::random_arch(Arch::new(FeatureSet::PieceSquare, 128, 16).unwrap(), 4),
        // The 1024-wide kernels (net 4 candidates) have a path of their own.
        Network::random_arch(Arch::new(FeatureSet::PieceSquare, 1024, 8).unwrap(), 5),
    ]
}

/// Start positions: the opening, and endings where the kings walk a lot.
const STARTS: [&str; 4] = [
    xiangqi::START_FEN,
    "3k5/4a4/9/9/9/9/9/9/4A4/4K4 w - - 0 1",
    "4ka3/9/4b4/9/9/2R6/9/9/4p4/3K5 w - - 0 1",
    "3a1k3/9/9/9/2n6/9/4C4/9/9/4KA3 b - - 0 1",
];

/// Random games, made and unmade in random runs: after a push or a pop
/// the stack's accumulator equals one computed from scratch, for every
/// architecture, and king moves that change a view happen (and are
/// counted) among them. Even games look after every step; odd games after
/// one in four, so that the lazy updates catch up over several plies
/// (moves, null moves and view changes mixed).
#[test]
fn incremental_updates_equal_a_refresh() {
    for net in networks() {
        let mut next = rng(0x5eed);
        let mut view_changes = 0;
        let mut long_catch_ups = 0;
        for game in 0..32 {
            let every_step = game % 2 == 0;
            let mut board = Board::from_fen(STARTS[game % STARTS.len()]).unwrap();
            let mut stack = AccumulatorStack::new(&net, &board);
            let mut nulls = Vec::new();
            for _ in 0..120 {
                // Mostly forward, sometimes back a few plies.
                if !board.history().is_empty() && next(5) == 0 {
                    for _ in 0..1 + next(3) {
                        if board.history().is_empty() {
                            break;
                        }
                        if nulls.pop() == Some(true) {
                            board.unmake_null();
                        } else {
                            board.unmake_move();
                        }
                        stack.pop();
                        if every_step || next(4) == 0 {
                            assert_eq!(stack.current(&net), &Accumulator::from_board(&net, &board));
                        }
                    }
                    continue;
                }
                if !board.in_check() && next(8) == 0 {
                    board.make_null();
                    stack.push_null();
                    nulls.push(true);
                } else {
                    let moves = board.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let mv = moves.as_slice()[next(moves.len())];
                    let before = Color::BOTH.map(|c| stack.view(c));
                    stack.push_move(&net, &board, mv);
                    board.make_move(mv);
                    nulls.push(false);
                    let changed = Color::BOTH
                        .iter()
                        .filter(|&&c| before[c.index()] != stack.view(c))
                        .count();
                    view_changes += changed;
                    assert!(changed <= 1, "one king moves at a time");
                }
                assert_eq!(stack.ply(), board.history().len(), "game {game}");
                // Views are kept at once, values lazily.
                let fresh = Accumulator::from_board(&net, &board);
                for c in Color::BOTH {
                    assert_eq!(stack.view(c), fresh.view(c));
                }
                if !(every_step || next(4) == 0) {
                    continue;
                }
                long_catch_ups += (stack.owed_plies() > 1) as usize;
                assert_eq!(
                    stack.current(&net),
                    &fresh,
                    "{:?} game {game}: {}",
                    net.arch(),
                    board.to_fen()
                );
                assert_eq!(
                    stack.evaluate(&net, board.side_to_move()),
                    evaluate(&net, &fresh, board.side_to_move())
                );
            }
        }
        assert!(
            long_catch_ups > 50,
            "{long_catch_ups} catch-ups of several plies"
        );
        if net.features() == FeatureSet::KingBucket6 {
            assert!(view_changes > 100, "{view_changes} view changes");
        } else {
            assert_eq!(view_changes, 0);
        }
    }
}

#[test]
fn a_king_move_across_buckets_refreshes_only_its_side() {
    let net = Network::random_arch(Arch::new(FeatureSet::KingBucket6, 128, 2).unwrap(), 5);
    let mut board = Board::from_fen("3k5/4a4/9/9/9/9/9/9/4A4/4K4 w - - 0 1").unwrap();
    let mut stack = AccumulatorStack::new(&net, &board);
    let before = stack.current(&net).clone();
    assert_eq!(before.view(Color::Red).bucket(), 0);
    // e0 to f0: Red's bucket 0 to 1, mirrored; Black's view stays.
    let mv = board.parse_move("e0f0").unwrap();
    stack.push_move(&net, &board, mv);
    board.make_move(mv);
    let after = stack.current(&net);
    assert_eq!(after.view(Color::Red).bucket(), 1);
    assert!(after.view(Color::Red).mirrored());
    assert_eq!(after.view(Color::Black), before.view(Color::Black));
    assert_eq!(after, &Accumulator::from_board(&net, &board));
    // Without the refresh cache, the same.
    let mut plain = before.clone();
    board.unmake_move();
    plain.update_from(&before, &net, &board, mv);
    board.make_move(mv);
    assert_eq!(&plain, stack.current(&net));
    stack.pop();
    assert_eq!(stack.current(&net), &before);
}

#[test]
fn refresh_resets_the_stack() {
    let net = Network::random(9);
    let mut board = Board::startpos();
    let mut stack = AccumulatorStack::new(&net, &board);
    let mv = board.parse_move("h2e2").unwrap();
    stack.push_move(&net, &board, mv);
    board.make_move(mv);
    stack.refresh(&net, &board);
    assert_eq!(stack.ply(), 0);
    assert_eq!(stack.current(&net), &Accumulator::from_board(&net, &board));
    // The empty board holds the biases.
    assert_eq!(Accumulator::new(&net).values(Color::Black), net.l1_bias());
    assert_eq!(stack.current(&net).piece_count(), 32);
}
