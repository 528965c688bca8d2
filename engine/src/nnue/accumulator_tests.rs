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
        Network::random_arch(
            Arch::new(FeatureSet::PieceSquareThreats, 256, 8).unwrap(),
            6,
        ),
        Network::random_arch(Arch::new(FeatureSet::KingBucket6Threats, 64, 3).unwrap(), 7),
        Network::random_arch(Arch::new(FeatureSet::KingBucket9, 256, 8).unwrap(), 8),
        // A width that is not a multiple of 128 sums rows in tiles of 128
        // and a last one of 64 (`rows::apply_rows`).
        Network::random_arch(
            Arch::new(FeatureSet::KingBucket6Threats, 192, 2).unwrap(),
            8,
        ),
        // Threat squares beside the first layer: the side accumulator,
        // updated as the pieces move, with and without king buckets.
        Network::random_arch(
            Arch::new(FeatureSet::PieceSquare, 128, 8)
                .and_then(|a| a.with_side(16))
                .unwrap(),
            9,
        ),
        Network::random_arch(
            Arch::new(FeatureSet::KingBucket3, 64, 3)
                .and_then(|a| a.with_side(32))
                .unwrap(),
            10,
        ),
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
        if net.features().king_buckets() > 1 {
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

/// What a move did to the attacks of the pieces around it.
#[derive(Debug, Default)]
struct ThreatEvents {
    captured_attacker: usize,
    captured_attacked: usize,
    /// A cannon that did not move gained or lost an attack.
    cannon_screens: usize,
    /// A horse that did not move gained or lost an attack as a piece left
    /// or entered one of its legs.
    horse_legs: usize,
    /// A rook that did not move gained or lost an attack (its line opened
    /// or closed).
    rook_lines: usize,
    king_moves: usize,
}

impl ThreatEvents {
    fn note(&mut self, before: &Board, mv: Move) {
        use crate::nnue::features::squares_of;
        use crate::nnue::threats::for_each_attack;
        let pairs = |b: &Board| {
            let mut v = Vec::new();
            for_each_attack(&squares_of(b), |f, t| v.push((f, t)));
            v
        };
        let mut after = before.clone();
        after.make_move(mv);
        let (old, new) = (pairs(before), pairs(&after));
        let (from, to) = (mv.from().index(), mv.to().index());
        if before.piece_at(mv.to()).is_some() {
            self.captured_attacker += old.iter().any(|&(f, _)| f == to) as usize;
            self.captured_attacked += old.iter().any(|&(_, t)| t == to) as usize;
        }
        let kind = |s: usize| {
            before
                .piece_at(Square::from_index_unchecked(s))
                .map(|p| p.kind())
        };
        for s in 0..xiangqi::SQUARES {
            if s == from || s == to {
                continue;
            }
            let changed = old
                .iter()
                .filter(|p| p.0 == s)
                .ne(new.iter().filter(|p| p.0 == s));
            match kind(s) {
                Some(PieceKind::Cannon) if changed => self.cannon_screens += 1,
                Some(PieceKind::Horse) if changed => {
                    // The legs are the horse's orthogonal neighbours.
                    let leg = |x: usize| (x % 9).abs_diff(s % 9) + (x / 9).abs_diff(s / 9) == 1;
                    self.horse_legs += (leg(from) || leg(to)) as usize;
                }
                Some(PieceKind::Rook) if changed => self.rook_lines += 1,
                _ => {}
            }
        }
        let king = before.piece_at(mv.from()).map(|p| p.kind()) == Some(PieceKind::King);
        self.king_moves += king as usize;
    }
}

/// Threat inputs: over random games that take what they can half the
/// time, the stack's accumulator (lazy, several plies at a time) and
/// `update_from` equal a refresh after every move, through captures of
/// attacking and attacked pieces, cannon screens and horse legs and rook
/// lines opening and closing, and king moves (across buckets for
/// `kingbucket6+threats`); and the evaluation equals the refreshed one,
/// also for a net with hidden layers after the accumulator, read back
/// from its file.
#[test]
fn threat_inputs_update_incrementally() {
    for arch in [
        Arch::new(FeatureSet::PieceSquareThreats, 128, 4).unwrap(),
        Arch::new(FeatureSet::KingBucket6Threats, 64, 8).unwrap(),
        Arch::new(FeatureSet::PieceSquareThreats, 128, 4)
            .unwrap()
            .with_hidden(16, 32)
            .unwrap(),
    ] {
        let random = Network::random_arch(arch, 11);
        let net = Network::from_bytes(&random.to_bytes()).unwrap();
        assert_eq!(net, random, "{arch}: the file round trip");
        let mut next = rng(0x7417);
        let mut events = ThreatEvents::default();
        let mut most = 0;
        for game in 0..40 {
            // Mostly full boards, some endings.
            let fen = match game % 4 {
                0 | 1 => xiangqi::START_FEN,
                2 => "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
                _ => STARTS[game / 4 % STARTS.len()],
            };
            let mut board = Board::from_fen(fen).unwrap();
            let mut stack = AccumulatorStack::new(&net, &board);
            let mut plain = Accumulator::from_board(&net, &board);
            for ply in 0..150 {
                let moves = board.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let captures: Vec<Move> = moves
                    .iter()
                    .filter(|m| board.piece_at(m.to()).is_some())
                    .collect();
                let mv = if !captures.is_empty() && next(2) == 0 {
                    captures[next(captures.len())]
                } else {
                    moves.as_slice()[next(moves.len())]
                };
                events.note(&board, mv);
                let parent = plain.clone();
                plain.update_from(&parent, &net, &board, mv);
                stack.push_move(&net, &board, mv);
                board.make_move(mv);
                let fresh = Accumulator::from_board(&net, &board);
                assert_eq!(plain, fresh, "{arch} game {game}: {}", board.to_fen());
                most = most.max(
                    crate::nnue::features::active_features(net.features(), &board, Color::Red)
                        .len()
                        - board_pieces(&board),
                );
                if ply % 3 == 0 || next(2) == 0 {
                    assert_eq!(stack.current(&net), &fresh, "{arch} game {game}");
                    assert_eq!(
                        stack.evaluate(&net, board.side_to_move()),
                        evaluate(&net, &fresh, board.side_to_move())
                    );
                }
            }
            // And back to the start, every position equal to a refresh.
            while !board.history().is_empty() {
                board.unmake_move();
                stack.pop();
                if next(3) == 0 {
                    assert_eq!(stack.current(&net), &Accumulator::from_board(&net, &board));
                }
            }
        }
        eprintln!("{arch}: {events:?}, at most {most} threats");
        assert!(events.captured_attacker > 100, "{events:?}");
        assert!(events.captured_attacked > 100, "{events:?}");
        assert!(events.cannon_screens > 100, "{events:?}");
        assert!(events.horse_legs > 50, "{events:?}");
        assert!(events.rook_lines > 100, "{events:?}");
        assert!(events.king_moves > 50, "{events:?}");
        assert!(most <= crate::nnue::threats::MAX_THREATS);
    }
}

fn board_pieces(board: &Board) -> usize {
    let mut n = 0;
    crate::nnue::features::for_each_piece(board, |_, _| n += 1);
    n
}
