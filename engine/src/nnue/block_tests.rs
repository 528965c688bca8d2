//! Tests of the input-block contract over every declared feature set: the
//! declarations name their blocks, a move's changes lead from the inputs
//! before it to those after it (or the move forces a refresh), and the
//! accumulator's fast paths compute what the contract's indices say.

use super::*;
use crate::nnue::{Accumulator, Arch, Network};
use xiangqi::Move;

fn rng(mut seed: u64) -> impl FnMut(usize) -> usize {
    move |n| {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) as usize % n
    }
}

/// The pieces of `board` in square order and its squares.
fn parts(board: &Board) -> (Vec<(Piece, Square)>, Squares) {
    let mut pieces = Vec::new();
    for_each_piece(board, |p, sq| pieces.push((p, sq)));
    (pieces, squares_of(board))
}

fn sorted_active(block: Block, perspective: Color, board: &Board) -> Vec<usize> {
    let (pieces, squares) = parts(board);
    let position = Placement {
        pieces: &pieces,
        squares: &squares,
    };
    let mut v = Vec::new();
    block.for_each_active(perspective, &position, |i| v.push(i));
    v.sort_unstable();
    v
}

/// Positions of random games from the start, each with the move made from it.
fn random_moves(games: usize, plies: usize, seed: u64) -> Vec<(Board, Move)> {
    let mut next = rng(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut board = Board::from_fen(xiangqi::START_FEN).unwrap();
        for _ in 0..plies {
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves.as_slice()[next(moves.len())];
            out.push((board.clone(), mv));
            board.make_move(mv);
        }
    }
    out
}

/// Every set's blocks: the piece-square block first, no block twice, the
/// set's name its blocks' names joined by `+`, its size their sum.
#[test]
fn declarations_name_their_blocks() {
    for d in FeatureSet::DECLARED {
        assert!(
            matches!(d.blocks.first(), Some(Block::PieceSquare(_))),
            "{}",
            d.name
        );
        let tags: Vec<&str> = d.blocks.iter().map(|b| b.tag()).collect();
        assert_eq!(tags.join("+"), d.name);
        for (i, b) in d.blocks.iter().enumerate() {
            assert!(!d.blocks[i + 1..].contains(b), "{}: {b:?} twice", d.name);
        }
        // The accumulator keeps one part apart (`apart`).
        let apart = d.blocks.iter().filter(|b| b.kept_apart()).count();
        assert!(apart <= 1, "{}: {apart} blocks kept apart", d.name);
        assert!(!d.blocks[0].kept_apart(), "{}", d.name);
        let sizes: usize = d.blocks.iter().map(|b| b.size()).sum();
        assert_eq!(d.set.inputs(), sizes);
        let placed: Vec<(usize, Block)> = d.set.placed_blocks().collect();
        assert_eq!(placed.len(), d.blocks.len());
        for &(at, b) in &placed {
            assert_eq!(d.set.offset_of(b), Some(at));
            assert_eq!(d.set.block_of(at), Some(b));
            assert_eq!(d.set.block_of(at + b.size() - 1), Some(b));
        }
        assert_eq!(d.set.block_of(d.set.inputs()), None);
    }
}

/// For every block and perspective over random games: a move that does
/// not force a refresh turns the active inputs before it into those after
/// it by its changes (each removed input was active); one that does is a
/// king changing its view; active inputs are in range, and both
/// perspectives have as many, paired in order; a block kept apart lists
/// them as its sorted entries.
#[test]
fn a_moves_changes_lead_to_the_inputs_after_it() {
    let moves = random_moves(12, 100, 0xb10c);
    let mut blocks: Vec<Block> = Vec::new();
    for set in FeatureSet::ALL {
        for &b in set.blocks() {
            if !blocks.contains(&b) {
                blocks.push(b);
            }
        }
    }
    for block in blocks {
        let (mut refreshes, mut changes) = (0, 0);
        for (board, mv) in &moves {
            let (pieces, squares) = parts(board);
            let before = Placement {
                pieces: &pieces,
                squares: &squares,
            };
            let block_move = BlockMove {
                piece: board.piece_at(mv.from()).unwrap(),
                from: mv.from(),
                to: mv.to(),
                captured: board.piece_at(mv.to()),
            };
            let mut after_board = board.clone();
            after_board.make_move(*mv);
            let mut pairs = Vec::new();
            block.for_each_active_pair(Color::BOTH, &before, |r, b| pairs.push((r, b)));
            for p in Color::BOTH {
                let mut active = sorted_active(block, p, board);
                assert!(active.iter().all(|&i| i < block.size()), "{block:?}");
                let mut paired: Vec<usize> =
                    pairs.iter().map(|&(r, b)| [r, b][p.index()]).collect();
                paired.sort_unstable();
                assert_eq!(paired, active, "{block:?}: pairs in order");
                if block.kept_apart() {
                    // Its entries are its active inputs, seen from either side.
                    let entries = block.entries(&squares);
                    let mut from_entries: Vec<usize> = entries
                        .as_slice()
                        .iter()
                        .map(|&e| block.entry_index(p, e))
                        .collect();
                    from_entries.sort_unstable();
                    assert_eq!(from_entries, active, "{block:?}: entries");
                    assert!(entries.as_slice().windows(2).all(|w| w[0] <= w[1]));
                }
                let after = sorted_active(block, p, &after_board);
                if block.forces_refresh(p, &before, &block_move) {
                    refreshes += 1;
                    assert_eq!(block_move.piece.kind(), PieceKind::King);
                    assert_eq!(block_move.piece.color(), p);
                    continue;
                }
                block.for_each_change(p, &before, &block_move, |i, added| {
                    changes += 1;
                    if added {
                        active.push(i);
                    } else {
                        let at = active.iter().position(|&a| a == i);
                        assert!(at.is_some(), "{block:?}: {i} removed but not active");
                        active.swap_remove(at.unwrap_or(0));
                    }
                });
                active.sort_unstable();
                assert_eq!(active, after, "{block:?} {} {mv}", board.to_fen());
            }
        }
        // Every kind changes with some moves (captures at least).
        assert!(changes > 100, "{block:?}: {changes} changes");
        let bucketed = matches!(block, Block::PieceSquare(PieceSquare(k)) if k != KingLayout::None);
        assert_eq!(refreshes > 0, bucketed, "{block:?}: {refreshes} refreshes");
    }
}

/// The accumulator of every set, computed its own way (the piece-square
/// rows per view, the attack list apart, summed with saturation), is the
/// bias plus the rows of the set's declared active inputs.
#[test]
fn accumulators_sum_the_rows_of_the_declared_inputs() {
    let positions = random_moves(3, 60, 0xacc);
    for (k, set) in FeatureSet::ALL.into_iter().enumerate() {
        let net = Network::random_arch(Arch::new(set, 64, 2).unwrap(), 40 + k as u64);
        for (board, _) in positions.iter().step_by(7) {
            let acc = Accumulator::from_board(&net, board);
            for p in Color::BOTH {
                let mut sum: Vec<i32> = net.l1_bias().iter().map(|&b| b as i32).collect();
                for i in active_features(set, board, p) {
                    for (s, &w) in sum.iter_mut().zip(net.l1_row(i)) {
                        *s += w as i32;
                    }
                }
                let expected: Vec<i16> = sum
                    .iter()
                    .map(|&s| s.clamp(i16::MIN as i32, i16::MAX as i32) as i16)
                    .collect();
                assert_eq!(acc.values(p), &expected[..], "{set} {}", board.to_fen());
            }
        }
    }
}
