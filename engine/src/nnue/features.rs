//! The network's input features.
//!
//! # Piece-square inputs (`psq`, feature set 0, net 2)
//!
//! Each perspective (Red's and Black's) has [`FEATURES`] = 2 × 7 × 90 = 1260
//! binary inputs, one per (relative colour, kind, square):
//!
//! ```text
//! feature_index = (relative_colour · 7 + kind) · 90 + square'
//! relative_colour = 0 for the perspective's own pieces, 1 for the opponent's
//! kind            = King 0, Advisor 1, Elephant 2, Horse 3, Rook 4, Cannon 5, Pawn 6
//! square'         = file + 9 · rank        for Red's perspective (the board as it is)
//!                 = file + 9 · (9 − rank)  for Black's (flipped top to bottom)
//! ```
//!
//! Flipping the ranks (not rotating: files stay) and swapping the colours
//! makes the two perspectives symmetric: a position and its colour-flipped
//! twin (ranks mirrored, colours swapped, the other side to move) have the
//! same inputs for the side to move and for the other side.
//!
//! # King-bucketed inputs (`kingbucket6`, feature set 1)
//!
//! The same 1260 inputs, once per bucket of the perspective's own king: 6 ×
//! 1260 = 7560 inputs, of which the 32 of the king's bucket can be active.
//! The king's palace square, seen from the perspective (ranks 0..=2 from its
//! own back rank), gives the bucket; the d and f files share buckets, and a
//! king on the f file sees the whole board mirrored left to right (file
//! `f → 8 − f`), so a king on f4 and one on d4 see the same picture:
//!
//! ```text
//! rank' 2:  d 5  e 4  f 5        index = bucket · 1260 + feature_index(piece, square'')
//! rank' 1:  d 3  e 2  f 3        square'' = square mirrored when the king is on the f file
//! rank' 0:  d 1  e 0  f 1
//! ```
//!
//! A [`View`] is a perspective's (bucket, mirror) pair: it changes only when
//! that side's own king moves, and then (buckets are a king step apart) the
//! perspective's accumulator is recomputed rather than updated.
//!
//! # Threat inputs (`psq+threats`, set 2; `kingbucket6+threats`, set 3)
//!
//! The inputs of `psq` or `kingbucket6`, then 17,640 inputs for "piece X
//! attacks piece Y on square s" (see `threats`), the same in every view:
//! 18,900 and 25,200 inputs.
//!
//! # Declared as blocks
//!
//! Each set is a row of [`FeatureSet::DECLARED`]: its header id, its name,
//! and its list of input blocks ([`Block`], each a type with the contract
//! of `block::InputBlock`: size, active inputs, a move's changes, whether
//! a move forces a refresh, its weight bound, its name), their inputs laid
//! end to end. The engine and the trainer read a set's shape from there
//! alone: the reference inputs of a position ([`active_features`]), the
//! trainer's inputs, the network file's limits and growth all loop over
//! the blocks.

pub use super::block::{BlockMove, EntryList, InputBlock, Placement, Squares};
pub use super::psq::{
    FEATURES, KING_BUCKETS, KingLayout, MAX_KING_BUCKETS, PieceSquare, View, feature_index,
    mirror_square,
};
pub use super::threats::Threats;
use xiangqi::{Board, Color, Piece, PieceKind, SQUARES, Square};

/// Most pieces on a Xiangqi board (and so most active features per perspective).
pub const MAX_ACTIVE: usize = 32;

/// One feature set, declared once: the engine (indexing, the network file's
/// header, messages) and the trainer (`--features`, its model) read
/// everything about a set from its row of [`FeatureSet::DECLARED`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Declaration {
    pub set: FeatureSet,
    /// The id in network files' headers (never reused).
    pub id: u16,
    /// The name on the command line and in messages.
    pub name: &'static str,
    /// Its input blocks, laid end to end in this order: the piece-square
    /// block first, in its king layout (every set has one).
    pub blocks: &'static [Block],
}

/// One input block of a feature set: each kind is a type of its own with
/// the contract of [`InputBlock`], matched here (statically, no pointer
/// call). A new kind is its type and a variant with its two match arms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Block {
    /// The pieces on their squares, in a king layout (`psq`).
    PieceSquare(PieceSquare),
    /// The attacks between pieces (`threats`).
    Threats(Threats),
}

/// `$body` with `$b` bound to the concrete block inside `$block`.
macro_rules! each_block {
    ($block:expr, $b:ident => $body:expr) => {
        match $block {
            Block::PieceSquare($b) => $body,
            Block::Threats($b) => $body,
        }
    };
}

impl InputBlock for Block {
    fn tag(&self) -> &'static str {
        each_block!(self, b => b.tag())
    }

    fn size(&self) -> usize {
        each_block!(self, b => b.size())
    }

    fn weight_bound(&self) -> i16 {
        each_block!(self, b => b.weight_bound())
    }

    fn rows_name(&self) -> &'static str {
        each_block!(self, b => b.rows_name())
    }

    #[inline]
    fn for_each_active(&self, perspective: Color, position: &Placement, f: impl FnMut(usize)) {
        each_block!(self, b => b.for_each_active(perspective, position, f))
    }

    #[inline]
    fn for_each_active_pair(
        &self,
        perspectives: [Color; 2],
        position: &Placement,
        f: impl FnMut(usize, usize),
    ) {
        each_block!(self, b => b.for_each_active_pair(perspectives, position, f))
    }

    fn forces_refresh(&self, perspective: Color, before: &Placement, mv: &BlockMove) -> bool {
        each_block!(self, b => b.forces_refresh(perspective, before, mv))
    }

    fn kept_apart(&self) -> bool {
        each_block!(self, b => b.kept_apart())
    }

    #[inline]
    fn entries(&self, squares: &Squares) -> EntryList {
        each_block!(self, b => b.entries(squares))
    }

    #[inline(always)]
    fn entry_index(&self, perspective: Color, entry: u16) -> usize {
        each_block!(self, b => b.entry_index(perspective, entry))
    }

    #[inline(always)]
    fn entries_are_attacks(&self) -> bool {
        each_block!(self, b => b.entries_are_attacks())
    }

    #[inline(always)]
    fn attack_entry(&self, squares: &Squares, from: usize, to: usize) -> u16 {
        each_block!(self, b => b.attack_entry(squares, from, to))
    }

    fn for_each_change(
        &self,
        perspective: Color,
        before: &Placement,
        mv: &BlockMove,
        f: impl FnMut(usize, bool),
    ) {
        each_block!(self, b => b.for_each_change(perspective, before, mv, f))
    }
}

/// The piece-square block in layout `kings`.
const fn psq(kings: KingLayout) -> Block {
    Block::PieceSquare(PieceSquare(kings))
}

/// The threat block.
pub const THREATS: Block = Block::Threats(Threats);

/// A feature set: how a perspective's pieces become input indices. Network
/// files name it by [`FeatureSet::id`]; the trainer's `--features` by
/// [`FeatureSet::name`]. Each variant is declared in
/// [`FeatureSet::DECLARED`], in the variants' order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FeatureSet {
    /// 1260 piece-square inputs (net 2).
    PieceSquare,
    /// 6 king buckets × 1260 piece-square inputs, mirrored for an f-file king.
    KingBucket6,
    /// `psq` then the 17,640 threat inputs (`threats`): 18,900.
    PieceSquareThreats,
    /// `kingbucket6` then the 17,640 threat inputs: 25,200.
    KingBucket6Threats,
    /// 9 king buckets × 1260, the f-file ones mirrored: 11,340.
    KingBucket9,
    /// 3 king buckets (the king's file) × 1260, the f-file one mirrored: 3,780.
    KingBucket3,
}

impl FeatureSet {
    /// Every feature set's declaration, in the variants' order. Adding a
    /// set is a variant and its row here (CONTRIBUTING.md, "Adding an
    /// evaluation input").
    pub const DECLARED: [Declaration; 6] = [
        Declaration {
            set: FeatureSet::PieceSquare,
            id: 0,
            name: "psq",
            blocks: &[psq(KingLayout::None)],
        },
        Declaration {
            set: FeatureSet::KingBucket6,
            id: 1,
            name: "kingbucket6",
            blocks: &[psq(KingLayout::Six)],
        },
        Declaration {
            set: FeatureSet::PieceSquareThreats,
            id: 2,
            name: "psq+threats",
            blocks: &[psq(KingLayout::None), THREATS],
        },
        Declaration {
            set: FeatureSet::KingBucket6Threats,
            id: 3,
            name: "kingbucket6+threats",
            blocks: &[psq(KingLayout::Six), THREATS],
        },
        Declaration {
            set: FeatureSet::KingBucket9,
            id: 4,
            name: "kingbucket9",
            blocks: &[psq(KingLayout::Nine)],
        },
        Declaration {
            set: FeatureSet::KingBucket3,
            id: 5,
            name: "kingbucket3",
            blocks: &[psq(KingLayout::Three)],
        },
    ];

    /// Every feature set, by id.
    pub const ALL: [FeatureSet; FeatureSet::DECLARED.len()] = {
        let mut all = [FeatureSet::PieceSquare; FeatureSet::DECLARED.len()];
        let mut i = 0;
        while i < all.len() {
            all[i] = FeatureSet::DECLARED[i].set;
            i += 1;
        }
        all
    };

    /// This set's declaration.
    #[inline(always)]
    pub const fn declaration(self) -> &'static Declaration {
        &FeatureSet::DECLARED[self as usize]
    }

    /// The id in network files' headers.
    pub const fn id(self) -> u16 {
        self.declaration().id
    }

    /// The feature set with header id `id`.
    pub fn from_id(id: u16) -> Option<FeatureSet> {
        FeatureSet::ALL.into_iter().find(|f| f.id() == id)
    }

    /// The name on the command line and in messages.
    pub const fn name(self) -> &'static str {
        self.declaration().name
    }

    /// The feature set called `name` (in any case).
    pub fn from_name(name: &str) -> Option<FeatureSet> {
        FeatureSet::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(name.trim()))
    }

    /// `0 = psq, 1 = kingbucket6, ...`: the sets this engine reads, for messages.
    pub fn known() -> String {
        let sets: Vec<String> = FeatureSet::ALL
            .iter()
            .map(|f| format!("{} = {}", f.id(), f.name()))
            .collect();
        sets.join(", ")
    }

    /// The sets whose d-file and f-file king buckets are mirror twins
    /// ([`FeatureSet::mirror_twin`]), named for messages: the ones a `psq`
    /// net grows into exactly and the trainer can tie.
    pub fn with_mirror_twins() -> String {
        let sets: Vec<&str> = FeatureSet::ALL
            .iter()
            .filter(|f| f.mirror_twin(0).is_some())
            .map(|f| f.name())
            .collect();
        sets.join(", ")
    }

    /// The set's input blocks, in their order.
    #[inline(always)]
    pub const fn blocks(self) -> &'static [Block] {
        self.declaration().blocks
    }

    /// Each block with the index of its first input, in order.
    pub fn placed_blocks(self) -> impl Iterator<Item = (usize, Block)> {
        self.blocks().iter().scan(0, |offset, &block| {
            let at = *offset;
            *offset += block.size();
            Some((at, block))
        })
    }

    /// The block the accumulator keeps apart (see
    /// [`InputBlock::kept_apart`]) with its first input, if the set has one.
    pub fn apart_block(self) -> Option<(usize, Block)> {
        self.placed_blocks().find(|(_, b)| b.kept_apart())
    }

    /// The index of `block`'s first input, if the set has it.
    pub fn offset_of(self, block: Block) -> Option<usize> {
        self.placed_blocks()
            .find(|&(_, b)| b == block)
            .map(|(at, _)| at)
    }

    /// The block that input `input` belongs to.
    pub fn block_of(self, input: usize) -> Option<Block> {
        self.placed_blocks()
            .find(|&(at, b)| (at..at + b.size()).contains(&input))
            .map(|(_, b)| b)
    }

    /// Inputs per perspective.
    pub fn inputs(self) -> usize {
        self.blocks().iter().map(|b| b.size()).sum()
    }

    /// The most inputs of any set.
    pub fn max_inputs() -> usize {
        FeatureSet::ALL
            .iter()
            .map(|f| f.inputs())
            .max()
            .unwrap_or(0)
    }

    /// The piece-square block's inputs (all buckets): the first inputs.
    pub const fn piece_inputs(self) -> usize {
        PieceSquare(self.kings()).inputs()
    }

    /// Number of king buckets (1: the king's square picks nothing).
    pub const fn king_buckets(self) -> usize {
        self.kings().buckets()
    }

    /// The king layout of the piece-square block (which comes first).
    #[inline(always)]
    pub const fn kings(self) -> KingLayout {
        match self.declaration().blocks.first() {
            Some(Block::PieceSquare(PieceSquare(kings))) => *kings,
            _ => KingLayout::None,
        }
    }

    /// The input that reads the mirror image of what `input` reads, in the
    /// other bucket of the same rank (`kingbucket9`, `kingbucket3`: a d-file
    /// bucket's piece-square input and the f-file bucket's with the same
    /// offset, which sees the board mirrored; the trainer can tie the two).
    /// `None` for an e-file bucket, an input of another block, or another layout.
    pub const fn mirror_twin(self, input: usize) -> Option<usize> {
        if !matches!(self.kings(), KingLayout::Nine | KingLayout::Three)
            || input >= self.piece_inputs()
        {
            return None;
        }
        match input / FEATURES % 3 {
            0 => Some(input + 2 * FEATURES),
            2 => Some(input - 2 * FEATURES),
            _ => None,
        }
    }

    /// The view of `perspective` when its own king stands on `king`. A king
    /// outside the palace (not a legal position) counts as on its nearest
    /// palace square, so that no input is ever out of range.
    #[inline(always)]
    pub fn view(self, perspective: Color, king: Square) -> View {
        self.kings().view(perspective, king)
    }

    /// The view of `perspective` on `board` (from its king's square).
    #[inline(always)]
    pub fn board_view(self, board: &Board, perspective: Color) -> View {
        self.view(perspective, board.king_square(perspective))
    }

    /// The views of both perspectives (by `Color::index`) of a list of
    /// pieces; a side without a king gets the default view.
    pub fn views_of(self, pieces: &[(Piece, Square)]) -> [View; 2] {
        let mut views = [View::default(); 2];
        for &(p, sq) in pieces {
            if p.kind() == PieceKind::King {
                views[p.color().index()] = self.view(p.color(), sq);
            }
        }
        views
    }

    /// The input of `piece` on `square` for `perspective` in `view`.
    #[inline(always)]
    pub fn index(self, perspective: Color, view: View, piece: Piece, square: Square) -> usize {
        view.index(perspective, piece, square)
    }
}

impl std::fmt::Display for FeatureSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The output bucket for a board with `piece_count` pieces (2..=32, kings
/// included) among `buckets`: the range is cut into `buckets` equal parts,
/// fewest pieces first (material, counted in pieces).
#[inline(always)]
pub const fn output_bucket(piece_count: usize, buckets: usize) -> usize {
    if buckets <= 1 {
        return 0;
    }
    let b = piece_count.saturating_sub(2) * buckets / (MAX_ACTIVE - 1);
    if b < buckets { b } else { buckets - 1 }
}

/// Calls `f(piece, square)` for every piece on the board, in square order.
#[inline]
pub fn for_each_piece(board: &Board, mut f: impl FnMut(Piece, Square)) {
    for s in 0..SQUARES {
        let sq = Square::from_index_unchecked(s);
        if let Some(p) = board.piece_at(sq) {
            f(p, sq);
        }
    }
}

/// What each square of `board` holds, as the refresh cache and the threat
/// inputs read it (`Piece::index() + 1`, 0 empty).
pub fn squares_of(board: &Board) -> Squares {
    let mut squares = [0; SQUARES];
    for_each_piece(board, |p, sq| squares[sq.index()] = p.index() as u8 + 1);
    squares
}

/// The active inputs of `board` from `perspective` in `set`: block by
/// block, each in its own order (the pieces in square order, then the
/// attacks in entry order; an input active twice is listed twice).
pub fn active_features(set: FeatureSet, board: &Board, perspective: Color) -> Vec<usize> {
    let mut pieces = Vec::with_capacity(MAX_ACTIVE);
    for_each_piece(board, |p, sq| pieces.push((p, sq)));
    let squares = squares_of(board);
    let position = Placement {
        pieces: &pieces,
        squares: &squares,
    };
    let mut v = Vec::with_capacity(MAX_ACTIVE);
    for (offset, block) in set.placed_blocks() {
        block.for_each_active(perspective, &position, |i| v.push(offset + i));
    }
    v
}

/// The FEN of the colour-flipped twin: ranks in reverse order, letter
/// cases swapped, the other side to move (other fields dropped).
#[cfg(test)]
pub(crate) fn colour_flipped_fen(fen: &str) -> String {
    let mut fields = fen.split_whitespace();
    let board = fields.next().unwrap();
    let side = fields.next().unwrap_or("w");
    let ranks: Vec<String> = board
        .split('/')
        .rev()
        .map(|r| {
            r.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        })
        .collect();
    let side = if side == "b" { "w" } else { "b" };
    format!("{} {side}", ranks.join("/"))
}

#[cfg(test)]
#[path = "block_tests.rs"]
mod block_tests;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_are_distinct_and_in_range() {
        for persp in Color::BOTH {
            let mut seen = vec![false; FEATURES];
            for c in Color::BOTH {
                for k in PieceKind::ALL {
                    for s in 0..SQUARES {
                        let f =
                            feature_index(persp, Piece::new(c, k), Square::from_index_unchecked(s));
                        assert!(f < FEATURES);
                        assert!(!seen[f], "feature {f} twice");
                        seen[f] = true;
                    }
                }
            }
        }
        assert_eq!(FEATURES, 1260);
    }

    #[test]
    fn documented_examples() {
        let red_king = Piece::new(Color::Red, PieceKind::King);
        let e0 = Square::parse("e0").unwrap();
        // Red's own king on e0: kind 0, square 4.
        assert_eq!(feature_index(Color::Red, red_king, e0), 4);
        // Black sees it as the opponent's king on e9 (4 + 81).
        assert_eq!(feature_index(Color::Black, red_king, e0), 7 * 90 + 85);
        let black_pawn = Piece::new(Color::Black, PieceKind::Pawn);
        let c6 = Square::parse("c6").unwrap();
        // Black's own pawn on c6 appears on c3 from Black's side.
        assert_eq!(feature_index(Color::Black, black_pawn, c6), 6 * 90 + 2 + 27);
        assert_eq!(feature_index(Color::Red, black_pawn, c6), 13 * 90 + 2 + 54);
    }

    #[test]
    fn colour_flipped_twins_have_the_same_inputs() {
        for fen in [
            xiangqi::START_FEN,
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
            "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
        ] {
            let a = Board::from_fen(fen).unwrap();
            let b = Board::from_fen(&colour_flipped_fen(fen)).unwrap();
            for set in FeatureSet::ALL {
                let sorted = |board: &Board, p: Color| {
                    let mut v = active_features(set, board, p);
                    v.sort_unstable();
                    v
                };
                let (sa, sb) = (a.side_to_move(), b.side_to_move());
                assert_ne!(sa, sb);
                assert_eq!(sorted(&a, sa), sorted(&b, sb), "{set} {fen}");
                assert_eq!(sorted(&a, sa.flip()), sorted(&b, sb.flip()), "{set} {fen}");
            }
        }
    }

    /// The 9 palace squares make 6 buckets, d and f files mirrored onto
    /// each other, the same for Red from below and Black from above; every
    /// index of every view is distinct and in range.
    #[test]
    fn king_buckets_and_their_indices() {
        let set = FeatureSet::KingBucket6;
        assert_eq!(set.inputs(), 7560);
        let mut buckets = std::collections::BTreeSet::new();
        for (name, bucket, mirror) in [
            ("d0", 1, false),
            ("e0", 0, false),
            ("f0", 1, true),
            ("d1", 3, false),
            ("e1", 2, false),
            ("f1", 3, true),
            ("d2", 5, false),
            ("e2", 4, false),
            ("f2", 5, true),
        ] {
            let sq = Square::parse(name).unwrap();
            let v = set.view(Color::Red, sq);
            assert_eq!((v.bucket(), v.mirrored()), (bucket, mirror), "{name}");
            // Black's palace, the same square seen from its own side.
            let black_sq = Square::from_index_unchecked(sq.index() % 9 + 9 * (9 - sq.index() / 9));
            assert_eq!(set.view(Color::Black, black_sq), v, "{name}");
            buckets.insert(bucket);
        }
        assert_eq!(buckets.len(), KING_BUCKETS);
        assert_eq!(
            set.view(Color::Red, Square::parse("a9").unwrap()).bucket(),
            5
        );
        let mut seen = vec![false; set.inputs()];
        for b in 0..KING_BUCKETS {
            let view = View::new(b, false);
            for c in Color::BOTH {
                for k in PieceKind::ALL {
                    for s in 0..SQUARES {
                        let f = set.index(
                            Color::Red,
                            view,
                            Piece::new(c, k),
                            Square::from_index_unchecked(s),
                        );
                        assert!(!seen[f], "feature {f} twice");
                        seen[f] = true;
                    }
                }
            }
        }
        assert!(seen.iter().all(|&x| x));
    }

    /// With Red's king on `d`, `piece`'s input on each square twins (in
    /// both directions) its input on the mirror square with the king on `f`.
    fn assert_d_and_f_are_twins(set: FeatureSet, d: &str, f: &str, piece: Piece) {
        let (d, f) = (Square::parse(d).unwrap(), Square::parse(f).unwrap());
        for s in 0..SQUARES {
            let sq = Square::from_index_unchecked(s);
            let mirrored = Square::from_index_unchecked(mirror_square(s));
            let on_d = set.index(Color::Red, set.view(Color::Red, d), piece, sq);
            let on_f = set.index(Color::Red, set.view(Color::Red, f), piece, mirrored);
            assert_eq!(set.mirror_twin(on_d), Some(on_f));
            assert_eq!(set.mirror_twin(on_f), Some(on_d));
        }
    }

    /// `kingbucket9`: a bucket per palace square, each always mirrored
    /// (the f file) or never, the same for Red and Black; every input in
    /// range and reached.
    #[test]
    fn nine_king_buckets_are_each_mirrored_or_not() {
        let set = FeatureSet::KingBucket9;
        assert_eq!(set.inputs(), 11340);
        let mut seen = vec![false; set.inputs()];
        for (i, name) in ["d0", "e0", "f0", "d1", "e1", "f1", "d2", "e2", "f2"]
            .into_iter()
            .enumerate()
        {
            let sq = Square::parse(name).unwrap();
            let v = set.view(Color::Red, sq);
            assert_eq!((v.bucket(), v.mirrored()), (i, i % 3 == 2), "{name}");
            let black_sq = Square::from_index_unchecked(sq.index() % 9 + 9 * (9 - sq.index() / 9));
            assert_eq!(set.view(Color::Black, black_sq), v, "{name}");
            for c in Color::BOTH {
                for k in PieceKind::ALL {
                    for s in 0..SQUARES {
                        let piece = Piece::new(c, k);
                        let f = set.index(Color::Red, v, piece, Square::from_index_unchecked(s));
                        assert!(!seen[f], "feature {f} twice");
                        seen[f] = true;
                    }
                }
            }
        }
        assert!(seen.iter().all(|&x| x));
        assert_d_and_f_are_twins(set, "d1", "f1", Piece::new(Color::Black, PieceKind::Horse));
        assert_eq!(set.mirror_twin(FEATURES + 5), None);
        assert_eq!(FeatureSet::KingBucket6.mirror_twin(5), None);
        assert_eq!(FeatureSet::with_mirror_twins(), "kingbucket9, kingbucket3");
        // Kings off the palace (not legal) stay in range.
        assert_eq!(
            set.view(Color::Red, Square::parse("a9").unwrap()).bucket(),
            6
        );
        assert_eq!(
            set.view(Color::Red, Square::parse("i0").unwrap()).bucket(),
            2
        );
    }

    /// `kingbucket3`: a bucket per file of the king, the f file mirrored,
    /// whatever its rank, for Red and Black alike; d's inputs twin f's.
    #[test]
    fn three_king_buckets_follow_the_file() {
        let set = FeatureSet::KingBucket3;
        assert_eq!(set.inputs(), 3780);
        for name in ["d0", "e0", "f0", "d1", "e1", "f1", "d2", "e2", "f2"] {
            let sq = Square::parse(name).unwrap();
            let file = sq.index() % 9 - 3;
            let v = set.view(Color::Red, sq);
            assert_eq!((v.bucket(), v.mirrored()), (file, file == 2), "{name}");
            let black_sq = Square::from_index_unchecked(sq.index() % 9 + 9 * (9 - sq.index() / 9));
            assert_eq!(set.view(Color::Black, black_sq), v, "{name}");
        }
        assert_d_and_f_are_twins(set, "d2", "f0", Piece::new(Color::Red, PieceKind::Rook));
        assert_eq!(set.mirror_twin(FEATURES + 5), None);
    }

    /// Each set's declaration is its own row, and ids and names are unique.
    #[test]
    fn declarations_are_in_the_variants_order() {
        for (i, d) in FeatureSet::DECLARED.iter().enumerate() {
            assert_eq!(d.set as usize, i);
            assert_eq!(FeatureSet::from_id(d.id), Some(d.set));
            assert_eq!(FeatureSet::from_name(d.name), Some(d.set));
        }
        assert_eq!(FeatureSet::max_inputs(), 25200);
    }

    /// A king on the f file sees the mirror image of the position with
    /// the king on the d file.
    #[test]
    fn mirrored_positions_share_inputs_across_d_and_f() {
        let fen = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/4A4/2BK1AB2 w - - 0 1";
        let a = Board::from_fen(fen).unwrap();
        let b = a.mirrored();
        let set = FeatureSet::KingBucket6;
        let sorted = |board: &Board| {
            let mut v = active_features(set, board, Color::Red);
            v.sort_unstable();
            v
        };
        assert!(set.board_view(&b, Color::Red).mirrored());
        assert_eq!(sorted(&a), sorted(&b));
        // Not so for Black, whose king is on the e file.
        let black = |board: &Board| {
            let mut v = active_features(set, board, Color::Black);
            v.sort_unstable();
            v
        };
        assert_ne!(black(&a), black(&b));
    }

    #[test]
    fn buckets_cover_the_piece_counts() {
        for buckets in [1, 2, 8, 16] {
            for n in 0..=40 {
                assert!(output_bucket(n, buckets) < buckets);
            }
            assert_eq!(output_bucket(2, buckets), 0);
            assert_eq!(output_bucket(32, buckets), buckets - 1);
        }
        let used: std::collections::BTreeSet<usize> =
            (2..=32).map(|n| output_bucket(n, 8)).collect();
        assert_eq!(used.len(), 8);
    }
}
