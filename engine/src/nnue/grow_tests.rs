//! Growth is exact: the grown network's integer evaluation equals the old
//! one's on every position, from scratch and through the incremental
//! updates (make and unmake) the search uses.

use super::*;
use crate::nnue::{Accumulator, AccumulatorStack, default_network, evaluate};
use xiangqi::Board;
use xiangqi::rng::SplitMix64;

/// Plays `games` seeded random games of up to `plies` plies with both
/// networks' accumulator stacks alongside, stepping back one ply now and
/// then, and asserts after every step that both evaluate the position
/// alike: incrementally (the stacks, lazily updated, as the search does)
/// and from scratch. Returns the positions compared and how many of them
/// had a king on the f file (a mirrored view).
fn assert_same_evaluations(
    old: &Network,
    new: &Network,
    games: u64,
    plies: usize,
) -> (usize, usize) {
    let (mut positions, mut mirrored) = (0, 0);
    for game in 0..games {
        let mut rng = SplitMix64::new(game ^ 0x6a09_e667);
        let mut next = |n: usize| rng.below(n as u64) as usize;
        let mut board = Board::startpos();
        let mut stacks = [
            AccumulatorStack::new(old, &board),
            AccumulatorStack::new(new, &board),
        ];
        let nets = [old, new];
        let mut check = |board: &Board, stacks: &mut [AccumulatorStack; 2]| {
            let stm = board.side_to_move();
            let [a, b] = [0, 1].map(|i| stacks[i].evaluate(nets[i], stm));
            assert_eq!(a, b, "incremental, game {game}: {}", board.to_fen());
            let [c, d] =
                [0, 1].map(|i| evaluate(nets[i], &Accumulator::from_board(nets[i], board), stm));
            assert_eq!(c, d, "from scratch, game {game}: {}", board.to_fen());
            assert_eq!(a, c, "incremental against from scratch, game {game}");
            positions += 1;
            if Color::BOTH
                .iter()
                .any(|&c| new.features().board_view(board, c).mirrored())
            {
                mirrored += 1;
            }
        };
        check(&board, &mut stacks);
        for _ in 0..plies {
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves.as_slice()[next(moves.len())];
            for (stack, net) in stacks.iter_mut().zip(nets) {
                stack.push_move(net, &board, mv);
            }
            board.make_move(mv);
            check(&board, &mut stacks);
            if next(4) == 0 {
                // A step back, as the search unmakes a move.
                board.unmake_move();
                for stack in &mut stacks {
                    stack.pop();
                }
                check(&board, &mut stacks);
                board.make_move(mv);
                for (stack, net) in stacks.iter_mut().zip(nets) {
                    stack.push_move(net, &board_before(&board), mv);
                }
                check(&board, &mut stacks);
            }
        }
    }
    (positions, mirrored)
}

/// The position before the last move of `board`.
fn board_before(board: &Board) -> Board {
    let mut b = board.clone();
    b.unmake_move();
    b
}

/// The built-in net (`psq`) grown into `features` evaluates thousands of
/// positions of random games exactly as the built-in net, mirrored kings
/// among them, and reads back from its file unchanged.
fn assert_builtin_grows_exactly_into(features: FeatureSet) {
    let builtin = default_network().expect("a network is built in");
    let to = Arch {
        features,
        ..builtin.arch()
    };
    let grown = grow(&builtin, to).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(grown.arch(), to);
    assert_ne!(grown, *builtin);
    let (positions, mirrored) = assert_same_evaluations(&builtin, &grown, 40, 150);
    assert!(positions > 5000, "{positions} positions");
    assert!(
        mirrored > 1000,
        "{mirrored} of {positions} with a king on the f file"
    );
    let read = Network::from_bytes(&grown.to_bytes()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(read, grown);
}

#[test]
fn builtin_grown_into_kingbucket9_evaluates_exactly_as_before() {
    assert_builtin_grows_exactly_into(FeatureSet::KingBucket9);
}

#[test]
fn builtin_grown_into_kingbucket3_evaluates_exactly_as_before() {
    assert_builtin_grows_exactly_into(FeatureSet::KingBucket3);
}

/// `kingbucket6` shares a bucket between a d-file king and a mirrored
/// f-file one: growing a net without buckets into it is refused, naming
/// the set that works, as hidden layers are.
#[test]
fn inexact_growth_is_refused_with_the_reason() {
    let psq = Network::random_arch(Arch::new(FeatureSet::PieceSquare, 64, 2).unwrap(), 3);
    let to = Arch::new(FeatureSet::KingBucket6, 64, 2).unwrap();
    let e = grow(&psq, to).unwrap_err().to_string();
    assert!(
        e.contains("cannot grow psq") && e.contains("kingbucket9"),
        "{e}"
    );
    let deep = psq.arch().with_hidden(16, 32).unwrap();
    let e = grow(&psq, deep).unwrap_err().to_string();
    assert!(e.contains("hidden layers cannot be added exactly"), "{e}");
    let wider = Arch::new(FeatureSet::KingBucket9, 128, 2).unwrap();
    assert!(grow(&psq, wider).is_err());
    let threats =
        Network::random_arch(Arch::new(FeatureSet::PieceSquareThreats, 64, 2).unwrap(), 3);
    assert!(grow(&threats, to).is_err());
}

/// Other exact growths: `psq` into `psq+threats` (the threat inputs at
/// zero), `kingbucket6` into `kingbucket9` (its mirrored buckets were
/// already in the mirrored frame), `kingbucket3` into `kingbucket9` (a
/// file's bucket copied to each rank), `psq+threats` into
/// `kingbucket6+threats`' sibling... and a net into its own shape, a copy.
#[test]
fn other_growths_are_exact_too() {
    for (from, to, seed) in [
        (FeatureSet::PieceSquare, FeatureSet::PieceSquareThreats, 1),
        (FeatureSet::KingBucket6, FeatureSet::KingBucket9, 2),
        (FeatureSet::PieceSquare, FeatureSet::PieceSquare, 3),
        (FeatureSet::KingBucket6, FeatureSet::KingBucket6Threats, 4),
        (FeatureSet::KingBucket3, FeatureSet::KingBucket9, 5),
    ] {
        let old = Network::random_arch(Arch::new(from, 128, 4).unwrap(), seed);
        let grown = grow(&old, Arch::new(to, 128, 4).unwrap()).unwrap_or_else(|e| panic!("{e}"));
        if from == to {
            assert_eq!(grown, old);
        }
        let (positions, _) = assert_same_evaluations(&old, &grown, 6, 100);
        assert!(positions > 500, "{from} -> {to}: {positions}");
    }
}
