//! The active inputs of a position, as the trainer reads them from a
//! packed record or a board: the feature set's, block by block through the
//! engine's declarations (`nnue::features`), for both perspectives, and for a network with a
//! side accumulator its threat squares (`nnue::side`).

use crate::data::Chunk;
use jiangjun_engine::nnue::features::{InputBlock, MAX_ACTIVE, Placement};
use jiangjun_engine::nnue::side::{AttackList, side_index};
use jiangjun_engine::nnue::threats::MAX_THREATS;
use jiangjun_engine::nnue::{FeatureSet, output_bucket};
use xiangqi::{Board, Color, FILES, Piece, PieceKind, SQUARES, Square};

/// Most active inputs per perspective: a piece-square input per piece,
/// then a threat input per attack (the blocks of any declared set).
pub const MAX_INPUTS: usize = MAX_ACTIVE + MAX_THREATS;

/// The active inputs of one position from both perspectives.
#[derive(Clone, Debug)]
pub struct Inputs {
    /// Features from the side to move's perspective, then the other's.
    pub us: [u16; MAX_INPUTS],
    pub them: [u16; MAX_INPUTS],
    /// Active features per perspective (the same for both).
    pub len: usize,
    /// Number of pieces (for the output bucket).
    pub pieces: usize,
    pub side_to_move: Color,
    /// What each square holds (`Piece::index() + 1`, 0 empty), as the
    /// threat lists read a board.
    pub squares: [u8; SQUARES],
    /// The side accumulator's inputs (threat squares, `nnue::side`) from
    /// the side to move's perspective, then the other's, for a network
    /// that has one ([`Inputs::add_side`]; `side_len` 0 until then).
    pub side_us: [u32; MAX_THREATS],
    pub side_them: [u32; MAX_THREATS],
    pub side_len: usize,
}

impl Inputs {
    /// The inputs of a list of pieces in feature set `set`.
    pub(crate) fn of_pieces(
        set: FeatureSet,
        side_to_move: Color,
        pieces: &[(Piece, Square)],
    ) -> Inputs {
        let (us, them) = (side_to_move, side_to_move.flip());
        let n = pieces.len().min(MAX_ACTIVE);
        let mut inp = Inputs {
            us: [0; MAX_INPUTS],
            them: [0; MAX_INPUTS],
            len: n,
            pieces: n,
            side_to_move,
            squares: [0; SQUARES],
            side_us: [0; MAX_THREATS],
            side_them: [0; MAX_THREATS],
            side_len: 0,
        };
        for &(piece, sq) in &pieces[..n] {
            inp.squares[sq.index()] = piece.index() as u8 + 1;
        }
        // Block by block, as the engine's `active_features` lists them.
        let squares = inp.squares;
        let position = Placement {
            pieces: &pieces[..n],
            squares: &squares,
        };
        let mut len = 0;
        for (offset, block) in set.placed_blocks() {
            block.for_each_active_pair([us, them], &position, |u, t| {
                if len < MAX_INPUTS {
                    inp.us[len] = (offset + u) as u16;
                    inp.them[len] = (offset + t) as u16;
                    len += 1;
                }
            });
        }
        inp.len = len;
        inp
    }

    /// The inputs of a packed record (already checked by the reader).
    #[inline(always)]
    pub fn from_chunk(set: FeatureSet, chunk: &Chunk) -> Inputs {
        Inputs::from_chunk_mirrored(set, chunk, false)
    }

    /// The inputs of a packed record, or of its mirror image left to right
    /// (file `f` to `8 − f`) when `mirror`. Xiangqi's rules are symmetric
    /// under that mirror, so the mirrored position has the same score and
    /// result: training on both doubles the data for free.
    #[inline(always)]
    pub fn from_chunk_mirrored(set: FeatureSet, chunk: &Chunk, mirror: bool) -> Inputs {
        let mut pieces = [(
            Piece::new(Color::Red, PieceKind::King),
            Square::from_index_unchecked(0),
        ); MAX_ACTIVE];
        let mut n = 0;
        // Sixteen squares (a u64 of nibbles) at a time, visiting only the
        // occupied ones through a mask of non-zero nibbles: the square by
        // square loop, a branch per square, was an eighth of the training
        // time. The pieces still come in square order.
        for word in 0..SQUARES.div_ceil(16) {
            let mut bytes = [0u8; 8];
            bytes.copy_from_slice(&chunk[8 * word..8 * word + 8]);
            let mut w = u64::from_le_bytes(bytes);
            let squares = (SQUARES - 16 * word).min(16);
            if squares < 16 {
                // The last word runs into the flags and the score.
                w &= (1u64 << (4 * squares)) - 1;
            }
            let mut occupied = (w | w >> 1 | w >> 2 | w >> 3) & 0x1111_1111_1111_1111;
            while occupied != 0 && n < MAX_ACTIVE {
                let bit = occupied.trailing_zeros();
                occupied &= occupied - 1;
                let s = 16 * word + bit as usize / 4;
                let i = ((w >> bit) & 0x0f) as usize - 1;
                let piece = Piece::new(Color::from_index(i / 7), PieceKind::from_index(i % 7));
                let sq = if mirror {
                    s - s % FILES + (FILES - 1 - s % FILES)
                } else {
                    s
                };
                pieces[n] = (piece, Square::from_index_unchecked(sq));
                n += 1;
            }
        }
        let side = Color::from_index((chunk[45] & 1) as usize);
        Inputs::of_pieces(set, side, &pieces[..n])
    }

    /// The inputs of a board.
    pub fn from_board(set: FeatureSet, board: &Board) -> Inputs {
        let mut pieces = Vec::with_capacity(MAX_ACTIVE);
        jiangjun_engine::nnue::features::for_each_piece(board, |p, sq| pieces.push((p, sq)));
        Inputs::of_pieces(set, board.side_to_move(), &pieces)
    }

    /// Add the side accumulator's inputs: each attack's threat-square
    /// input from both perspectives, in the order of the engine's sorted
    /// list (an attack that is no pair is no input in either).
    pub fn add_side(&mut self) {
        let (us, them) = (self.side_to_move, self.side_to_move.flip());
        let mut n = 0;
        for &a in AttackList::of(&self.squares).as_slice() {
            if let (Some(u), Some(t)) = (side_index(us, a), side_index(them, a)) {
                self.side_us[n] = u as u32;
                self.side_them[n] = t as u32;
                n += 1;
            }
        }
        self.side_len = n;
    }

    /// The output bucket among `buckets`.
    #[inline]
    pub fn bucket(&self, buckets: usize) -> usize {
        output_bucket(self.pieces, buckets)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_of_a_record_and_of_its_board_agree() {
        for set in FeatureSet::ALL {
            record_and_board_agree_in(set);
        }
    }

    fn record_and_board_agree_in(set: FeatureSet) {
        let board = Board::from_fen(
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 b - - 0 1",
        )
        .unwrap();
        let rec = crate::data::Record::from_board(&board, crate::data::GameResult::Draw, 0);
        let (a, b) = (
            Inputs::from_chunk(set, &rec.pack()),
            Inputs::from_board(set, &board),
        );
        assert_eq!(a.len, b.len);
        assert_eq!(a.us, b.us);
        assert_eq!(a.them, b.them);
        assert_eq!(a.side_to_move, Color::Black);
        let mut us: Vec<usize> = a.us[..a.len].iter().map(|&f| f as usize).collect();
        us.sort_unstable();
        let mut expected =
            jiangjun_engine::nnue::features::active_features(set, &board, Color::Black);
        expected.sort_unstable();
        assert_eq!(us, expected);
        assert_eq!(a.pieces, 28);
        // Past the pieces come the other blocks' inputs (this position has attacks).
        assert_eq!(a.len > a.pieces, set.blocks().len() > 1);
    }

    /// The decoder, which visits only occupied squares a word at a time,
    /// gives exactly what the record's pieces in square order give (order
    /// included: it fixes the order of the float sums), mirrored or not,
    /// on thousands of random positions of either side to move (the last
    /// word of squares shares its bytes with the side and the score).
    #[test]
    fn the_fast_decoder_reads_every_piece_in_square_order() {
        let mut checked = 0;
        crate::synth::generate(3000, 7, |rec| {
            let chunk = rec.pack();
            for mirror in [false, true] {
                // The record's pieces in its square order, where the
                // decoder meets them (mirroring moves each within its rank).
                let mut pieces = Vec::new();
                rec.for_each_piece(|p, sq| {
                    let s = sq.index();
                    let s = if mirror { s - s % 9 + (8 - s % 9) } else { s };
                    pieces.push((p, Square::from_index_unchecked(s)));
                });
                for set in FeatureSet::ALL {
                    let fast = Inputs::from_chunk_mirrored(set, &chunk, mirror);
                    let slow = Inputs::of_pieces(set, rec.side_to_move, &pieces);
                    assert_eq!(fast.len, slow.len, "{}", rec.to_fen());
                    assert_eq!(fast.us, slow.us, "{}", rec.to_fen());
                    assert_eq!(fast.them, slow.them, "{}", rec.to_fen());
                    assert_eq!(fast.pieces, slow.pieces);
                }
            }
            checked += 1;
        });
        assert_eq!(checked, 3000);
    }

    /// A record's mirrored inputs are those of the mirrored board.
    #[test]
    fn mirrored_inputs_are_the_mirrored_board() {
        for set in FeatureSet::ALL {
            mirrored_inputs_in(set);
        }
    }

    fn mirrored_inputs_in(set: FeatureSet) {
        let fen = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 b - - 0 1";
        let mirrored = "3a1ab1r/3nk4/4b1n2/p1p1p1pNp/4c4/2P6/P2R2P1P/5CcC1/9/2BAKAB2 b - - 0 1";
        let rec = crate::data::Record::from_board(
            &Board::from_fen(fen).unwrap(),
            crate::data::GameResult::Draw,
            0,
        );
        let a = Inputs::from_chunk_mirrored(set, &rec.pack(), true);
        let b = Inputs::from_board(set, &Board::from_fen(mirrored).unwrap());
        let sorted = |v: &[u16]| {
            let mut v = v.to_vec();
            v.sort_unstable();
            v
        };
        assert_eq!(a.len, b.len);
        assert_eq!(sorted(&a.us[..a.len]), sorted(&b.us[..b.len]));
        assert_eq!(sorted(&a.them[..a.len]), sorted(&b.them[..b.len]));
        assert_ne!(
            sorted(&a.us[..a.len]),
            sorted(&Inputs::from_chunk(set, &rec.pack()).us[..a.len])
        );
    }

    /// The side inputs of a board are the engine's: each attack's
    /// `side_index` from the side to move's view and the other's, and a
    /// colour-flipped twin (Black to move) has the same ones.
    #[test]
    fn side_inputs_are_the_engines() {
        let fen = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1";
        // Ranks mirrored, colours swapped, Black to move.
        let twin = "2bakab2/9/1cCc5/p1p2r2p/6p2/4C4/PnP1P1P1P/2N1B4/4KN3/R1BA1A3 b - - 0 1";
        let board = Board::from_fen(fen).unwrap();
        let mut a = Inputs::from_board(FeatureSet::PieceSquare, &board);
        a.add_side();
        let mut b = Inputs::from_board(FeatureSet::PieceSquare, &Board::from_fen(twin).unwrap());
        b.add_side();
        let squares = jiangjun_engine::nnue::features::squares_of(&board);
        let list = AttackList::of(&squares);
        assert!(a.side_len > 20 && a.side_len == list.as_slice().len());
        for (i, &at) in list.as_slice().iter().enumerate() {
            assert_eq!(a.side_us[i] as usize, side_index(Color::Red, at).unwrap());
            assert_eq!(
                a.side_them[i] as usize,
                side_index(Color::Black, at).unwrap()
            );
        }
        let sorted = |v: &[u32]| {
            let mut v = v.to_vec();
            v.sort_unstable();
            v
        };
        assert_eq!(
            sorted(&a.side_us[..a.side_len]),
            sorted(&b.side_us[..b.side_len])
        );
        assert_eq!(
            sorted(&a.side_them[..a.side_len]),
            sorted(&b.side_them[..b.side_len])
        );
    }
}
