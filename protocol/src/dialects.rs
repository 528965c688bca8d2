//! The dialects the engine speaks, and which one a GUI's first word names.

use super::dialect::Dialect;
use super::ucci::Ucci;
use super::uci::Uci;

/// Every dialect the engine speaks; the first is the one assumed until the
/// GUI says (a first line that names none of them).
pub static DIALECTS: [&dyn Dialect; 2] = [&Uci, &Ucci];

/// The dialect whose hello word `word` is (any case).
pub fn by_hello(word: &str) -> Option<&'static dyn Dialect> {
    DIALECTS
        .iter()
        .copied()
        .find(|d| d.hello_word().eq_ignore_ascii_case(word))
}

/// The dialect assumed before the GUI's first command names one.
pub fn assumed() -> &'static dyn Dialect {
    DIALECTS[0]
}
