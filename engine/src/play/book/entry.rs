//! What a probe gives, in every format: a book move with its weight
//! ([`Entry`]), and where it came from ([`Found`]). A leaf, so that the
//! formats (`jj`, `eleeye`, `obk`) import it sideways.

/// A book move found for a position. Defined beside the `Reporter` that a
/// `go` answers through (`search::BookEntry`), which tells the GUI the book
/// moves: so the search, which defines the reporter, needs nothing of
/// `play`.
pub use crate::search::BookEntry as Entry;

/// An entry with the records of the book it came from (indices in the
/// book's own order; several when a format merges a mirror's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    pub entry: Entry,
    pub records: Vec<usize>,
}
