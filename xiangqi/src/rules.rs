//! How games end: [`judge`] rules on a [`Board`] and its history, giving an
//! [`Outcome`].
//!
//! The rules, in the order `judge` applies them:
//!
//! 1. **No legal move**: the side to move loses, whether in check
//!    (checkmate) or not (stalemate: in Xiangqi it loses too).
//! 2. **Repetition** (AXF rules, as Fairy-Stockfish and Pikafish apply them):
//!    when a position recurs, look at the moves of the cycle. A side that
//!    gave check with every one of its moves is checking perpetually; a side
//!    whose every move newly attacked the same enemy piece (a "chase", see
//!    [`chases`]) is chasing perpetually. Perpetual check is ruled before
//!    chase: if exactly one side checks perpetually it loses; if both do it
//!    is a draw; otherwise if exactly one side chases perpetually it loses,
//!    and anything else is a draw.
//! 3. **Natural-move limit**: a draw when [`Board::rule60`] reaches 120
//!    plies (60 moves each) without a capture.
//! 4. **Dead draw**: a draw when neither side can ever mate ([`dead_draw`]).
//!
//! ```
//! use xiangqi::rules::{judge, Outcome, Reason};
//! use xiangqi::{Board, Color};
//!
//! // A rook checks back and forth; the king can only step back and forth.
//! let mut board = Board::from_fen("4k4/7R1/9/p8/9/9/9/9/9/3K5 w")?;
//! for text in ["h8h9", "e9e8", "h9h8", "e8e9"] {
//!     assert_eq!(judge(&board, 2), Outcome::Ongoing);
//!     let mv = board.parse_move(text)?;
//!     board.make_move(mv);
//! }
//! // The position recurs: Red checked with every move, so Red loses.
//! assert_eq!(judge(&board, 2), Outcome::Win(Color::Black, Reason::PerpetualCheck));
//! // Counting three occurrences (as matches do), the game goes on for now.
//! assert_eq!(judge(&board, 3), Outcome::Ongoing);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! For the common case, the game played on one board, [`Board::outcome`]
//! rules without arguments. The other functions are the parts of `judge`,
//! public for a search engine that rules on repetitions inside its tree
//! ([`repetition_distance`], [`judge_cycle`]).

use crate::board::Board;
use crate::types::{Color, Move, PieceKind, SQUARES, Square};
use std::fmt;

/// Why a game ended. `Display` gives it in words (`perpetual check`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The side to move is in check and has no legal move: it loses.
    Checkmate,
    /// The side to move is not in check but has no legal move: it loses.
    Stalemate,
    /// One side checked with every move of a repetition cycle: it loses.
    PerpetualCheck,
    /// One side chased an enemy piece with every move of a repetition
    /// cycle: it loses.
    PerpetualChase,
    /// A repetition with no side to blame (or both): a draw.
    Repetition,
    /// The natural-move limit (60 moves each without a capture): a draw.
    MoveLimit,
    /// Neither side has the material to mate: a draw. Shown as
    /// `insufficient material`.
    DeadDraw,
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::PerpetualCheck => "perpetual check",
            Reason::PerpetualChase => "perpetual chase",
            Reason::Repetition => "repetition",
            Reason::MoveLimit => "natural move limit",
            Reason::DeadDraw => "insufficient material",
        })
    }
}

/// The ruling on a game: going on, won, or drawn. `Display` writes
/// `ongoing`, `red (checkmate)` (the winner and why) or `draw (repetition)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The game goes on.
    Ongoing,
    /// This side has won, for this reason.
    Win(Color, Reason),
    /// Drawn, for this reason.
    Draw(Reason),
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Ongoing => write!(f, "ongoing"),
            Outcome::Win(c, r) => write!(f, "{} ({r})", c.name()),
            Outcome::Draw(r) => write!(f, "draw ({r})"),
        }
    }
}

/// What the moves of one repetition cycle show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CycleVerdict {
    /// Which sides (by colour index) checked with every move of the cycle.
    pub perpetual_check: [bool; 2],
    /// Which sides chased one enemy piece with every move of the cycle.
    pub perpetual_chase: [bool; 2],
}

impl CycleVerdict {
    /// The ruling: the side that broke the rule loses, or a draw.
    pub fn outcome(&self) -> Outcome {
        let [cr, cb] = self.perpetual_check;
        if cr != cb {
            let loser = if cr { Color::Red } else { Color::Black };
            return Outcome::Win(loser.flip(), Reason::PerpetualCheck);
        }
        if cr && cb {
            return Outcome::Draw(Reason::Repetition);
        }
        let [hr, hb] = self.perpetual_chase;
        if hr != hb {
            let loser = if hr { Color::Red } else { Color::Black };
            return Outcome::Win(loser.flip(), Reason::PerpetualChase);
        }
        Outcome::Draw(Reason::Repetition)
    }
}

/// How many plies back the current position occurred before, within the
/// window where it can repeat ([`Board::repetition_window`]), or `None`.
/// `occurrence` 1 finds the previous occurrence, 2 the one before it. The
/// answer is even and at least 4.
pub fn repetition_distance(board: &Board, occurrence: usize) -> Option<usize> {
    let hist = board.history();
    let key = board.key();
    let mut found = 0;
    for i in (4..=board.repetition_window()).step_by(2) {
        if hist[hist.len() - i].key_before() == key {
            found += 1;
            if found == occurrence {
                return Some(i);
            }
        }
    }
    None
}

/// Examine the last `plies` moves (a cycle back to the same position, as
/// [`repetition_distance`] finds) for perpetual checks and chases. The board
/// is left as it was. Panics if the history holds fewer than `plies` moves.
pub fn judge_cycle(board: &mut Board, plies: usize) -> CycleVerdict {
    let n = board.history().len();
    debug_assert!(plies <= n);
    let mut check = [true; 2];
    let mut chase = [u64::MAX; 2];
    // Walk back to the start of the cycle, then replay it.
    let moves: Vec<Move> = board.history()[n - plies..]
        .iter()
        .map(|u| u.mv())
        .collect();
    for _ in 0..plies {
        board.unmake_move();
    }
    for &m in &moves {
        let mover = board.side_to_move();
        let their_king = mover.flip();
        let attacks_before = attack_pairs(board, mover);
        let shields_before = shields(board, their_king);
        board.make_move(m);
        let gave_check = board.history().last().is_some_and(|u| u.gave_check());
        let new_shields = shields(board, their_king) & !shields_before;
        // Their pieces newly pinned: what they protected may now be a chase.
        let new_pins = new_shields & side_ids(their_king);
        // Our pieces that now shield their king: their captures come with
        // a discovered check, so what they attack is threatened anew.
        let new_discoverers = new_shields & side_ids(mover);
        let chased_before = if new_pins != 0 {
            board.unmake_move();
            let c = chased_by(board, mover);
            board.make_move(m);
            c
        } else {
            0
        };
        let new = chase_ids(board, mover)
            .into_iter()
            .filter(|&(a, v)| {
                !attacks_before.contains(&(a, v))
                    || new_discoverers >> a & 1 != 0
                    || (new_pins != 0 && chased_before >> v & 1 == 0)
            })
            .fold(0u64, |set, (_, victim)| set | 1 << victim);
        check[mover.index()] &= gave_check;
        chase[mover.index()] &= new;
    }
    CycleVerdict {
        perpetual_check: check,
        perpetual_chase: [chase[0] != 0, chase[1] != 0],
    }
}

/// Ids of the pieces (of either side) that shield `king_color`'s king: with
/// one of them removed the king would be attacked. Empty when the king is
/// already in check.
fn shields(board: &Board, king_color: Color) -> u64 {
    if board.is_in_check(king_color) {
        return 0;
    }
    let mut set = 0u64;
    for i in 0..SQUARES {
        let id = board.cell(i);
        if id == 0 {
            continue;
        }
        let sq = Square::from_index_unchecked(i);
        if board.king_exposed_without(king_color, sq) {
            set |= 1 << id;
        }
    }
    set
}

/// The id bits of `color`'s pieces.
fn side_ids(color: Color) -> u64 {
    0xffff << (16 + 16 * color.index())
}

/// (attacker id, victim id) for every capture `side` could play here,
/// legal or not: which attacks exist.
fn attack_pairs(board: &mut Board, side: Color) -> Vec<(u8, u8)> {
    with_side_to_move(board, side, |b| {
        let mut caps = crate::board::MoveList::new();
        b.gen_captures(&mut caps);
        caps.iter()
            .map(|m| (b.cell(m.from().index()), b.cell(m.to().index())))
            .collect()
    })
}

/// Run `f` with `side` to move (passing the move if needed).
fn with_side_to_move<T>(board: &mut Board, side: Color, f: impl FnOnce(&mut Board) -> T) -> T {
    let flipped = board.side_to_move() != side;
    if flipped {
        board.make_null();
    }
    let out = f(board);
    if flipped {
        board.unmake_null();
    }
    out
}

/// The enemy pieces that `side` chases in this position, as a bit set of
/// the board's piece ids (bit `id` set; an id stays with its piece as it
/// moves, so sets from different moves of a cycle can be intersected); see
/// [`chases`]. The board is left as it was.
fn chased_by(board: &mut Board, side: Color) -> u64 {
    chase_ids(board, side)
        .into_iter()
        .fold(0, |set, (_, victim)| set | 1 << victim)
}

/// The chases of `side` in this position: (attacker square, victim square)
/// for each attack on an enemy piece that `side` could win. `side` need
/// not be the side to move. The board is left as it was.
///
/// An attack counts if the capture is legal and either the victim is worth
/// more by kind (a horse or cannon attacking a rook; an advisor or elephant
/// attacking a rook, horse or cannon) or the victim cannot be legally
/// recaptured. Kings and pawns never chase; kings and pawns that have not
/// crossed the river are never chased. An attack on a piece of the same
/// kind that can legally capture back is mutual and does not count.
///
/// ```
/// use xiangqi::rules::chases;
/// use xiangqi::{Board, Color, Square};
///
/// let mut board: Board = "4k4/9/c7R/9/9/9/9/9/9/3K5 b".parse()?;
/// let sq = |s: &str| s.parse::<Square>().unwrap();
/// // The red rook on i7 attacks the black cannon on a7, which nothing can
/// // take back: a chase, though Black is to move.
/// assert_eq!(chases(&mut board, Color::Red), [(sq("i7"), sq("a7"))]);
/// // The cannon has no screen: it attacks nothing.
/// assert!(chases(&mut board, Color::Black).is_empty());
/// # Ok::<(), xiangqi::FenError>(())
/// ```
pub fn chases(board: &mut Board, side: Color) -> Vec<(Square, Square)> {
    // Ids stay with their pieces; here, in one position, squares name them.
    let mut square_of_id = [None; 48];
    for s in 0..SQUARES {
        let id = usize::from(board.cell(s));
        if id != 0 {
            square_of_id[id] = Some(Square::from_index_unchecked(s));
        }
    }
    chase_ids(board, side)
        .into_iter()
        .filter_map(|(attacker, victim)| {
            Some((
                square_of_id[usize::from(attacker)]?,
                square_of_id[usize::from(victim)]?,
            ))
        })
        .collect()
}

/// [`chases`] by piece id (as [`Board::cell`] gives them) rather than
/// square, so that `judge_cycle` can follow the pieces through a cycle.
fn chase_ids(board: &mut Board, side: Color) -> Vec<(u8, u8)> {
    with_side_to_move(board, side, |board| {
        let mut captures = crate::board::MoveList::new();
        board.gen_captures(&mut captures);
        let mut out = Vec::new();
        for m in captures.iter() {
            let (Some(attacker), Some(victim)) = (board.piece_at(m.from()), board.piece_at(m.to()))
            else {
                continue;
            };
            let a = attacker.kind();
            let v = victim.kind();
            if matches!(a, PieceKind::King | PieceKind::Pawn) || v == PieceKind::King {
                continue;
            }
            // A pawn is only chased once it has crossed the river.
            if v == PieceKind::Pawn && m.to().relative_rank(victim.color()) < 5 {
                continue;
            }
            if !board.is_legal(m) {
                continue;
            }
            let pair = (board.cell(m.from().index()), board.cell(m.to().index()));
            let stronger = match a {
                PieceKind::Horse | PieceKind::Cannon => v == PieceKind::Rook,
                PieceKind::Advisor | PieceKind::Elephant => {
                    matches!(v, PieceKind::Rook | PieceKind::Horse | PieceKind::Cannon)
                }
                _ => false,
            };
            if stronger {
                out.push(pair);
                continue;
            }
            if can_recapture(board, m) {
                continue;
            }
            if a == v && can_capture_back(board, m) {
                continue;
            }
            out.push(pair);
        }
        out
    })
}

/// After `m` (a capture by the side to move), can the other side legally
/// take back on the same square?
fn can_recapture(board: &mut Board, m: Move) -> bool {
    board.make_move(m);
    let mut caps = crate::board::MoveList::new();
    board.gen_captures(&mut caps);
    let answer = caps.iter().any(|r| r.to() == m.to() && board.is_legal(r));
    board.unmake_move();
    answer
}

/// Could the victim of `m` capture the attacker instead, were it its turn?
fn can_capture_back(board: &mut Board, m: Move) -> bool {
    board.make_null();
    let back = Move::new(m.to(), m.from());
    let answer = board.is_pseudo_legal(back) && board.is_legal(back);
    board.unmake_null();
    answer
}

/// Can neither side ever mate? Only positions without pawns qualify: no
/// rooks, horses or cannons at all; or a lone cannon whose side has no
/// advisors against too little for a screen (as Pikafish rules it). Cases
/// where a mate in one may still exist are decided by [`has_mate_in_one`].
/// The board is left as it was.
pub fn dead_draw(board: &mut Board) -> bool {
    use PieceKind::*;
    let count = |c: Color, k: PieceKind| board.count(c, k);
    if count(Color::Red, Pawn) + count(Color::Black, Pawn) > 0 {
        return false;
    }
    let majors = |c: Color| count(c, Rook) + count(c, Horse) + count(c, Cannon);
    let (mr, mb) = (majors(Color::Red), majors(Color::Black));
    if mr + mb == 0 {
        return true;
    }
    let only_cannon = |c: Color| count(c, Rook) + count(c, Horse) == 0 && count(c, Cannon) == 1;
    enum Level {
        Direct,
        UnlessMateInOne,
        No,
    }
    let level = if mr + mb == 1 {
        let cs = if mr == 1 { Color::Red } else { Color::Black };
        if !only_cannon(cs) || count(cs, Advisor) > 0 {
            Level::No
        } else {
            match count(cs.flip(), Advisor) {
                0 => Level::Direct,
                1 if count(cs, Elephant) == 0 => Level::Direct,
                1 => Level::UnlessMateInOne,
                _ if count(cs, Elephant) == 0 => Level::UnlessMateInOne,
                _ => Level::No,
            }
        }
    } else if mr == 1
        && mb == 1
        && only_cannon(Color::Red)
        && only_cannon(Color::Black)
        && count(Color::Red, Advisor) + count(Color::Black, Advisor) == 0
    {
        if count(Color::Red, Elephant) + count(Color::Black, Elephant) == 0 {
            Level::Direct
        } else {
            Level::UnlessMateInOne
        }
    } else {
        Level::No
    };
    match level {
        Level::Direct => true,
        Level::UnlessMateInOne => !has_mate_in_one(board),
        Level::No => false,
    }
}

/// Does the side to move have a move that mates (or stalemates, which also
/// wins)? The board is left as it was.
pub fn has_mate_in_one(board: &mut Board) -> bool {
    let moves = board.legal_moves();
    for m in moves.iter() {
        board.make_move(m);
        let done = !board.has_legal_move();
        board.unmake_move();
        if done {
            return true;
        }
    }
    false
}

/// The ruling of the game so far: the position and its history (see the
/// [module docs](self) for the rules). `fold` is how many times the position
/// must have occurred for a repetition to end the game (2: the first
/// recurrence, as the rule texts and the reference cases rule; 3 for
/// matches); values below 2 count as 2. Repetitions are only looked for in
/// the moves the board has recorded.
///
/// ```
/// use xiangqi::rules::{judge, Outcome, Reason};
/// use xiangqi::{Board, Color};
///
/// let mated = Board::from_fen("R2k5/1R7/9/9/9/9/9/9/9/5K3 b")?;
/// assert_eq!(judge(&mated, 3), Outcome::Win(Color::Red, Reason::Checkmate));
/// assert_eq!(judge(&mated, 3).to_string(), "red (checkmate)");
/// let kings = Board::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w")?;
/// assert_eq!(judge(&kings, 3), Outcome::Draw(Reason::DeadDraw));
/// assert_eq!(judge(&Board::startpos(), 3), Outcome::Ongoing);
/// # Ok::<(), xiangqi::FenError>(())
/// ```
pub fn judge(board: &Board, fold: usize) -> Outcome {
    let mut b = board.clone();
    let us = b.side_to_move();
    if !b.has_legal_move() {
        let reason = if b.in_check() {
            Reason::Checkmate
        } else {
            Reason::Stalemate
        };
        return Outcome::Win(us.flip(), reason);
    }
    if let Some(plies) = repetition_distance(&b, fold.max(2) - 1) {
        return judge_cycle(&mut b, plies).outcome();
    }
    if b.rule60() >= 120 {
        return Outcome::Draw(Reason::MoveLimit);
    }
    if dead_draw(&mut b) {
        return Outcome::Draw(Reason::DeadDraw);
    }
    Outcome::Ongoing
}

/// How many times a position must occur for [`Board::outcome`] to end the
/// game by repetition: the third time, as matches (and most servers) play.
pub const OUTCOME_FOLD: usize = 3;

/// The rules' ruling as a method of the board (here, so that the board
/// does not depend on the rules).
impl Board {
    /// The ruling on the game played on this board, from the position and
    /// the moves it recorded: checkmate, stalemate, a repetition (ruled for
    /// perpetual check and chase), the natural-move limit or a dead draw.
    ///
    /// A repetition ends the game when the position occurs for the third
    /// time ([`OUTCOME_FOLD`]), as matches play it. For another count, or
    /// to rule at the first recurrence as the rule texts do, call
    /// [`judge`] with the count.
    ///
    /// ```
    /// use xiangqi::{Board, Color, Outcome, Reason};
    ///
    /// let mut board = Board::startpos();
    /// assert_eq!(board.outcome(), Outcome::Ongoing);
    ///
    /// // A rook checks from h8 and h9 in turn; the king steps up and back.
    /// let mut board: Board = "4k4/7R1/9/p8/9/9/9/9/9/3K5 w".parse()?;
    /// for _ in 0..2 {
    ///     for text in ["h8h9", "e9e8", "h9h8", "e8e9"] {
    ///         assert_eq!(board.outcome(), Outcome::Ongoing);
    ///         board.play(text.parse()?)?;
    ///     }
    /// }
    /// // The start position is back for the third time: Red checked with
    /// // every move, so Red loses.
    /// assert_eq!(board.outcome(), Outcome::Win(Color::Black, Reason::PerpetualCheck));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn outcome(&self) -> Outcome {
        judge(self, OUTCOME_FOLD)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(fen: &str, moves: &str) -> Board {
        let mut b = Board::from_fen(fen).unwrap();
        for m in moves.split_whitespace() {
            let mv = b.parse_move(m).unwrap();
            b.make_move(mv);
        }
        b
    }

    #[test]
    fn perpetual_check_loses() {
        let b = play(
            "4k4/7R1/9/p8/9/9/9/9/9/3K5 w",
            "h8h9 e9e8 h9h8 e8e9 h8h9 e9e8 h9h8 e8e9",
        );
        assert_eq!(
            judge(&b, 2),
            Outcome::Win(Color::Black, Reason::PerpetualCheck)
        );
        assert_eq!(
            judge(&b, 3),
            Outcome::Win(Color::Black, Reason::PerpetualCheck)
        );
    }

    #[test]
    fn perpetual_chase_loses() {
        let b = play(
            "4k4/9/c7R/9/9/9/9/9/9/3K5 b",
            "a7a6 i7i6 a6a7 i6i7 a7a6 i7i6 a6a7 i6i7",
        );
        assert_eq!(
            judge(&b, 2),
            Outcome::Win(Color::Black, Reason::PerpetualChase)
        );
    }

    #[test]
    fn idle_repetition_is_a_draw() {
        let b = play(
            "4k4/9/9/p8/9/9/9/9/9/3K5 w",
            "d0d1 e9e8 d1d0 e8e9 d0d1 e9e8 d1d0 e8e9",
        );
        assert_eq!(judge(&b, 2), Outcome::Draw(Reason::Repetition));
        // One cycle only: the position occurred twice, not three times.
        let b = play("4k4/9/9/p8/9/9/9/9/9/3K5 w", "d0d1 e9e8 d1d0 e8e9");
        assert_eq!(judge(&b, 3), Outcome::Ongoing);
        assert_eq!(judge(&b, 2), Outcome::Draw(Reason::Repetition));
    }

    #[test]
    fn mate_and_stalemate() {
        let b = Board::from_fen("R2k5/1R7/9/9/9/9/9/9/9/5K3 b").unwrap();
        assert_eq!(judge(&b, 3), Outcome::Win(Color::Red, Reason::Checkmate));
        let b = Board::from_fen("3k5/9/3P5/9/9/9/9/9/9/4RK3 b").unwrap();
        assert_eq!(judge(&b, 3), Outcome::Win(Color::Red, Reason::Stalemate));
    }

    #[test]
    fn move_limit() {
        let b = Board::from_fen("4k4/9/9/9/9/9/9/9/9/3K1R3 b - - 120 80").unwrap();
        assert_eq!(judge(&b, 3), Outcome::Draw(Reason::MoveLimit));
        let b = Board::from_fen("4k4/9/9/9/9/9/9/9/9/3K1R3 b - - 119 80").unwrap();
        assert_eq!(judge(&b, 3), Outcome::Ongoing);
        // Mate on the 120th ply still wins.
        let b = Board::from_fen("R2k5/1R7/9/9/9/9/9/9/9/5K3 b - - 130 80").unwrap();
        assert_eq!(judge(&b, 3), Outcome::Win(Color::Red, Reason::Checkmate));
    }

    #[test]
    fn checks_beyond_ten_do_not_count_toward_the_limit() {
        // Red checks from e8/f8... a rook shuttling with check against a king
        // that shuttles back: every Red move checks.
        let mut b = Board::from_fen("4k4/7R1/9/p8/9/9/9/9/9/3K5 w - - 100 1").unwrap();
        let cycle = ["h8h9", "e9e8", "h9h8", "e8e9"];
        for i in 0..40 {
            let m = b.parse_move(cycle[i % 4]).unwrap();
            b.make_move(m);
        }
        // 40 plies: 20 Red checks (10 count), 20 Black replies (10 after the
        // tenth check do not count): 100 + 10 + 10 = 120 would be 140 raw.
        assert_eq!(b.since_capture(), 140);
        assert_eq!(b.rule60(), 120);
    }

    #[test]
    fn dead_draws() {
        let mut b = Board::from_fen("3ak4/4a4/9/9/9/9/9/9/4A4/4KA3 w").unwrap();
        assert!(dead_draw(&mut b));
        let mut b = Board::from_fen("3k5/9/9/9/9/9/9/9/9/4K3R w").unwrap();
        assert!(!dead_draw(&mut b));
        // A lone cannon and no advisors anywhere.
        let mut b = Board::from_fen("4k4/9/9/9/9/9/9/9/9/3K1C3 w").unwrap();
        assert!(dead_draw(&mut b));
        // A lone cannon whose side has an advisor for a screen: can mate.
        let mut b = Board::from_fen("4k4/9/9/9/9/9/9/9/4A4/3K1C3 w").unwrap();
        assert!(!dead_draw(&mut b));
        let mut b = Board::from_fen("4k4/9/9/9/9/9/9/9/9/3K1P3 w").unwrap();
        assert!(!dead_draw(&mut b));
    }
}
