//! `.obk` files read and written: through SQLite (`obk_sqlite`) in a build
//! with the cargo feature `obk`, refused without it. Apart from `obk` (the
//! format's keys and rows, which both read) so that the format never
//! imports its own file access back.

#[cfg(feature = "obk")]
pub use super::obk_sqlite::{read, write};

#[cfg(not(feature = "obk"))]
use super::obk::{ObkBook, Row};

/// Without SQLite, an `.obk` cannot be read.
#[cfg(not(feature = "obk"))]
pub fn read(_path: &std::path::Path) -> Result<ObkBook, String> {
    Err(NO_SQLITE.into())
}

/// Without SQLite, an `.obk` cannot be written.
#[cfg(not(feature = "obk"))]
pub fn write(_path: &std::path::Path, _rows: &[Row]) -> Result<usize, String> {
    Err(NO_SQLITE.into())
}

#[cfg(not(feature = "obk"))]
const NO_SQLITE: &str =
    "a BHGUI .obk book (SQLite), which this build cannot read: it was built without SQLite";
