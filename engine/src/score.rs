//! Search and evaluation scores.

/// Search and evaluation scores, in centipawn-like units (a pawn before the river is about 100).
pub type Score = i32;

pub const SCORE_INFINITE: Score = 32000;
pub const SCORE_MATE: Score = 30000;
pub const SCORE_DRAW: Score = 0;
/// Maximum search ply; mate scores are `SCORE_MATE - ply`.
pub const MAX_PLY: usize = 128;
pub const SCORE_MATE_IN_MAX: Score = SCORE_MATE - MAX_PLY as Score;
/// An endgame table's win with 0 plies to mate; a win `d` plies from mate
/// scores `SCORE_TB_WIN - d` (losses the negation): below the mate range,
/// above every evaluation, shorter mates higher. See `crate::tb`.
pub const SCORE_TB_WIN: Score = SCORE_MATE_IN_MAX - 1;
/// Table distances beyond this score as this (none of ours come near).
pub const TB_DTM_CAP: Score = 500;
/// The lowest score of a table win; evaluations stay below it.
pub const SCORE_TB_WIN_MIN: Score = SCORE_TB_WIN - TB_DTM_CAP;

/// The score of mating `ply` plies from the root.
pub const fn mate_in(ply: usize) -> Score {
    SCORE_MATE - ply as Score
}

/// The score of being mated `ply` plies from the root.
pub const fn mated_in(ply: usize) -> Score {
    -SCORE_MATE + ply as Score
}
