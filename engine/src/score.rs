//! Search and evaluation scores.

/// Search and evaluation scores, in centipawn-like units (a pawn before the river is about 100).
pub type Score = i32;

pub const SCORE_INFINITE: Score = 32000;
pub const SCORE_MATE: Score = 30000;
pub const SCORE_DRAW: Score = 0;
/// Maximum search ply; mate scores are `SCORE_MATE - ply`.
pub const MAX_PLY: usize = 128;
pub const SCORE_MATE_IN_MAX: Score = SCORE_MATE - MAX_PLY as Score;
