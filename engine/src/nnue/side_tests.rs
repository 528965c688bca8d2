//! Tests of the threat squares: the pairs against the attacks the threat
//! list finds, the perspectives, and the side accumulator kept up to date.

use super::*;
use crate::nnue::attack_change::random::{board_and_move, rng};
use crate::nnue::features::squares_of;
use xiangqi::{Board, Piece, PieceKind, Square};

/// A board of `pieces` alone, as the threat list reads boards.
fn board_of(pieces: &[(usize, usize)]) -> Squares {
    let mut s = [0u8; SQUARES];
    for &(piece, sq) in pieces {
        s[sq] = piece as u8 + 1;
    }
    s
}

/// Every pair is an attack on some board: the attacker alone with a
/// piece on the target (a cannon with a screen on the square next to it
/// on the way), and `for_each_attack` finds it. Counted from there, not
/// from the table, the pairs are [`SIDE_PAIRS`] (3,420 a colour: rooks
/// 1,530, cannons 1,208, horses 508, pawns 126, kings 24, elephants 16,
/// advisors 8).
#[test]
fn every_pair_is_an_attack_and_the_count_is_right() {
    let mut per_kind = [0usize; 7];
    for piece in 0..14 {
        for from in 0..SQUARES {
            for to in 0..SQUARES {
                if PAIRS.index[piece][from][to] == NONE {
                    continue;
                }
                per_kind[piece % 7] += 1;
                // The victim: an enemy rook (any piece would do).
                let rook = PieceKind::Rook.index();
                let victim = if piece < 7 { 7 + rook } else { rook };
                let mut pieces = vec![(piece, from), (victim, to)];
                if piece % 7 == PieceKind::Cannon.index() {
                    let (ff, fr) = ((from % FILES) as i32, (from / FILES) as i32);
                    let (tf, tr) = ((to % FILES) as i32, (to / FILES) as i32);
                    let (sf, sr) = (ff + (tf - ff).signum(), fr + (tr - fr).signum());
                    pieces.push((victim, (sf + sr * FILES as i32) as usize));
                }
                let squares = board_of(&pieces);
                let mut found = false;
                for_each_attack(&squares, |f, t| found |= f == from && t == to);
                assert!(found, "piece {piece} {from} -> {to}");
            }
        }
    }
    assert_eq!(per_kind, [48, 16, 32, 1016, 3060, 2416, 252]);
    assert_eq!(per_kind.iter().sum::<usize>(), SIDE_PAIRS);
    assert_eq!(pair_count(), SIDE_PAIRS);
    assert_eq!(SIDE_INPUTS, 95_760);
    // Each input names back its pair and attacked piece.
    for piece in 0..14 {
        for from in 0..SQUARES {
            for to in 0..SQUARES {
                let pair = PAIRS.index[piece][from][to];
                if pair != NONE {
                    let i = pair as usize * 14 + 5;
                    assert_eq!(input_parts(i), (piece, from, 5, to));
                }
            }
        }
    }
}

/// The colour-flipped twin of a board (ranks mirrored, colours swapped).
fn twin(squares: &Squares) -> Squares {
    let mut t = [0u8; SQUARES];
    for (s, &code) in squares.iter().enumerate() {
        if code != 0 {
            t[flip_rank(s)] = swap_colour(code as usize - 1) as u8 + 1;
        }
    }
    t
}

/// Positions of random games from the opening.
fn game_positions(games: usize, plies: usize, seed: u64) -> Vec<Board> {
    let mut next = rng(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut board = Board::from_fen(xiangqi::START_FEN).unwrap();
        for _ in 0..plies {
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            board.make_move(moves.as_slice()[next(moves.len())]);
            out.push(board.clone());
        }
    }
    out
}

/// In games every attack is a pair; Black's inputs of a board are Red's of
/// its colour-flipped twin; and no two attacks of a board share an input
/// of one perspective.
#[test]
fn game_attacks_are_pairs_and_perspectives_mirror() {
    let mut attacks = 0;
    for board in game_positions(24, 150, 7) {
        let squares = squares_of(&board);
        let (list, flipped) = (AttackList::of(&squares), AttackList::of(&twin(&squares)));
        let inputs = |list: &AttackList, p: Color| -> Vec<usize> {
            let mut v: Vec<usize> = list
                .as_slice()
                .iter()
                .map(|&a| side_index(p, a).expect("a game's attack is a pair"))
                .collect();
            v.sort_unstable();
            v
        };
        assert!(list.as_slice().is_sorted(), "{}", board.to_fen());
        let red = inputs(&list, Color::Red);
        assert_eq!(inputs(&list, Color::Black), inputs(&flipped, Color::Red));
        assert_eq!(red, inputs(&flipped, Color::Black));
        assert!(red.windows(2).all(|w| w[0] < w[1]), "{}", board.to_fen());
        assert!(red.iter().all(|&i| i < SIDE_INPUTS));
        attacks += red.len();
    }
    assert!(attacks > 50_000, "{attacks} attacks looked at");
}

/// A piece where no game puts it (a pawn behind its start) attacks, but
/// its attack is no input.
#[test]
fn an_attack_from_no_pair_is_no_input() {
    let pawn = Piece::new(Color::Red, PieceKind::Pawn).index();
    let rook = Piece::new(Color::Black, PieceKind::Rook).index();
    let (from, to) = (
        Square::from_index_unchecked(FILES + 1),
        Square::from_index_unchecked(2 * FILES + 1),
    );
    let squares = board_of(&[(pawn, from.index()), (rook, to.index())]);
    let list = AttackList::of(&squares);
    assert!(!list.as_slice().is_empty());
    for p in Color::BOTH {
        let pawn_attack = list
            .as_slice()
            .iter()
            .find(|&&a| a as usize / 196 == from.index() * SQUARES + to.index());
        assert_eq!(side_index(p, *pawn_attack.unwrap()), None);
    }
}

/// Side weights for the tests: row `i` holds `i` spread over the units.
struct Rows {
    width: usize,
    rows: Vec<i16>,
    bias: Vec<i16>,
}

impl SideWeights for Rows {
    fn side_width(&self) -> usize {
        self.width
    }
    fn side_row(&self, index: usize) -> &[i16] {
        &self.rows[index * self.width..(index + 1) * self.width]
    }
    fn side_bias(&self) -> &[i16] {
        &self.bias
    }
}

/// Along random games, the side accumulator updated move by move equals
/// one computed from scratch, and its values are the biases plus the rows
/// of the inputs its perspective sees.
#[test]
fn the_side_accumulator_updates_as_it_refreshes() {
    let width = 16;
    let mut next = rng(11);
    let weights = Rows {
        width,
        rows: (0..SIDE_INPUTS * width)
            .map(|_| next(201) as i16 - 100)
            .collect(),
        bias: (0..width).map(|j| j as i16 * 3 - 20).collect(),
    };
    let mut next = rng(3);
    for game in 0..16 {
        let mut board = Board::from_fen(xiangqi::START_FEN).unwrap();
        let mut part = SidePart::new(&weights, &squares_of(&board));
        for _ in 0..160 {
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves.as_slice()[next(moves.len())];
            let mut child = part.clone();
            child.update_from(&part, &weights, mv.from().index(), mv.to().index());
            board.make_move(mv);
            let squares = squares_of(&board);
            let fresh = SidePart::new(&weights, &squares);
            assert_eq!(child, fresh, "game {game}: {}", board.to_fen());
            for p in Color::BOTH {
                let mut want: Vec<i32> = weights.bias.iter().map(|&b| b as i32).collect();
                for &a in AttackList::of(&squares).as_slice() {
                    let row = weights.side_row(side_index(p, a).unwrap());
                    want.iter_mut().zip(row).for_each(|(w, &r)| *w += r as i32);
                }
                assert_eq!(fresh.values(p), &want[..]);
            }
            part = child;
        }
    }
}

/// On random boards up to crowded past any game's material (more attacks
/// than the inputs keep, before or after the move, or a move crossing that
/// number), a random move (any
/// piece to any other square) updates the side accumulator to what a
/// fresh one computes.
#[test]
fn crowded_boards_update_as_they_refresh() {
    let width = 16;
    let mut next = rng(29);
    let weights = Rows {
        width,
        rows: (0..SIDE_INPUTS * width)
            .map(|_| next(201) as i16 - 100)
            .collect(),
        bias: vec![7; width],
    };
    let (mut crowded, mut crossing) = (0, 0);
    for round in 0..3_000 {
        let Some((squares, from, to)) = board_and_move(round, MAX_THREATS, &mut next) else {
            continue;
        };
        let part = SidePart::new(&weights, &squares);
        let mut child = part.clone();
        child.update_from(&part, &weights, from, to);
        let mut after = squares;
        after[to] = after[from];
        after[from] = 0;
        crowded += (part.attacks > MAX_THREATS) as usize;
        crossing += ((part.attacks > MAX_THREATS) != (attack_count(&after) > MAX_THREATS)) as usize;
        assert_eq!(
            child,
            SidePart::new(&weights, &after),
            "{from} -> {to} on {squares:?}"
        );
    }
    assert!(crossing > 40, "{crossing} moves across the cap");
    assert!(crowded > 300, "{crowded} crowded boards");
}
