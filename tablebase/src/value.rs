//! Table values: win, draw or loss from the side to move's view, with the
//! distance to mate in plies, packed in a `u16` (`0` a draw, `d + 1` a
//! result `d` plies from mate: a win when `d` is odd, a loss when even, as
//! the side to move alternates; `u16::MAX` an index that is no legal
//! position).

/// A draw (also: not yet decided, while generating).
pub const DRAW: u16 = 0;
/// An index that is no legal position.
pub const INVALID: u16 = u16::MAX;

/// The value of a win or loss `d` plies from mate.
pub const fn mate_in(d: u16) -> u16 {
    d + 1
}

/// Whether a packed value is a win for the side to move.
pub const fn is_win(v: u16) -> bool {
    v != DRAW && v != INVALID && (v - 1) % 2 == 1
}

/// Whether a packed value is a loss for the side to move.
pub const fn is_loss(v: u16) -> bool {
    v != DRAW && v != INVALID && (v - 1).is_multiple_of(2)
}

/// The plies to mate of a win or loss.
pub const fn dtm(v: u16) -> u16 {
    v - 1
}

/// The value for the side that moved into a position worth `v` to the
/// side to move there.
pub const fn back(v: u16) -> u16 {
    if v == DRAW || v == INVALID { v } else { v + 1 }
}

/// A result as people read it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Wdl {
    /// The side to move wins.
    Win,
    /// Neither side can force a win.
    Draw,
    /// The side to move loses.
    Loss,
}

impl Wdl {
    /// `win`, `draw` or `loss`.
    pub fn name(self) -> &'static str {
        match self {
            Wdl::Win => "win",
            Wdl::Draw => "draw",
            Wdl::Loss => "loss",
        }
    }
}

/// The result and distance of a (valid) packed value.
pub fn unpack(v: u16) -> (Wdl, Option<u16>) {
    if is_win(v) {
        (Wdl::Win, Some(dtm(v)))
    } else if is_loss(v) {
        (Wdl::Loss, Some(dtm(v)))
    } else {
        (Wdl::Draw, None)
    }
}

/// Whether `a` is better than `b` for the side to move (faster wins and
/// slower losses are better).
pub fn better(a: u16, b: u16) -> bool {
    rank(a) > rank(b)
}

/// An order of values by preference.
fn rank(v: u16) -> i32 {
    if is_win(v) {
        100_000 - i32::from(dtm(v))
    } else if is_loss(v) {
        -100_000 + i32::from(dtm(v))
    } else {
        0
    }
}
