//! What a probe gives, in every format: a book move with its weight
//! ([`Entry`]), and where it came from ([`Found`]). A leaf, so that the
//! formats (`jj`, `eleeye`, `obk`) import it sideways.

use xiangqi::types::Move;

/// A book move found for a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub mv: Move,
    /// What the choice is proportional to.
    pub weight: u32,
    /// A score in centipawns, mover's view (0 where the format has none).
    pub score: i16,
    /// Games that played the move (0 where the format has none).
    pub games: u32,
}

/// An entry with the records of the book it came from (indices in the
/// book's own order; several when a format merges a mirror's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    pub entry: Entry,
    pub records: Vec<usize>,
}
