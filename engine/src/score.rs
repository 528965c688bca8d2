//! Search and evaluation scores.

/// Search and evaluation scores, in centipawn-like units (a pawn before the river is about 100).
pub type Score = i32;

pub(crate) const SCORE_INFINITE: Score = 32000;
pub const SCORE_MATE: Score = 30000;
pub(crate) const SCORE_DRAW: Score = 0;
/// Maximum search ply; mate scores are `SCORE_MATE - ply`.
pub(crate) const MAX_PLY: usize = 128;
pub const SCORE_MATE_IN_MAX: Score = SCORE_MATE - MAX_PLY as Score;
/// An endgame table's win with 0 plies to mate at the root; a table win
/// `d` plies from mate found `ply` plies below the root scores
/// `SCORE_TB_WIN - (ply + d)` (losses the negation), as mates score
/// `SCORE_MATE - ply`: below the mate range, above every evaluation, the
/// shorter total win higher. See `crate::tb`.
pub(crate) const SCORE_TB_WIN: Score = SCORE_MATE_IN_MAX - 1;
/// Total table distances (ply plus plies to mate) beyond this score as
/// this (none of ours come near: 64 plies at most, plus `MAX_PLY`).
pub(crate) const TB_DTM_CAP: Score = 500;
/// The lowest score of a table win; evaluations stay below it. Every score
/// at or beyond it (either sign) is decisive: a table result or a mate.
pub(crate) const SCORE_TB_WIN_MIN: Score = SCORE_TB_WIN - TB_DTM_CAP;

/// The score of mating `ply` plies from the root.
pub(crate) const fn mate_in(ply: usize) -> Score {
    SCORE_MATE - ply as Score
}

/// The score of being mated `ply` plies from the root.
pub(crate) const fn mated_in(ply: usize) -> Score {
    -SCORE_MATE + ply as Score
}

/// Whether `s` is a won score: a table win or a mate.
pub(crate) const fn is_win(s: Score) -> bool {
    s >= SCORE_TB_WIN_MIN
}

/// Whether `s` is a lost score: a table loss or being mated.
pub(crate) const fn is_loss(s: Score) -> bool {
    s <= -SCORE_TB_WIN_MIN
}

/// Whether `s` is a table result or a mate, either way.
pub(crate) const fn is_decisive(s: Score) -> bool {
    is_win(s) || is_loss(s)
}
