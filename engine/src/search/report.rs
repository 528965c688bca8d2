//! What the search answers: its lines on the way (`IterationInfo`, through
//! a `Reporter`) and its result (`SearchResult`); and, through the same
//! reporter, a `go` answered from the book (`BookEntry`, the book's moves
//! as `crate::play::book` finds them).

use crate::score::Score;
use crate::tt::Bound;
use xiangqi::types::Move;

/// A book move found for a position (`crate::play::book::Entry`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookEntry {
    pub mv: Move,
    /// What the choice is proportional to.
    pub weight: u32,
    /// A score in centipawns, mover's view (0 where the format has none).
    pub score: i16,
    /// Games that played the move (0 where the format has none).
    pub games: u32,
}

/// One line of search output.
pub struct IterationInfo<'a> {
    pub depth: i32,
    pub seldepth: usize,
    /// 1-based index of the line (MultiPV).
    pub multipv: usize,
    pub score: Score,
    pub bound: Bound,
    pub nodes: u64,
    pub time_ms: u64,
    pub hashfull: usize,
    /// Endgame table hits, when tables are loaded.
    pub tbhits: Option<u64>,
    pub pv: &'a [Move],
}

/// Where search output goes (the protocol's printer). Called from the
/// engine's main search thread.
pub trait Reporter: Send + Sync {
    fn iteration(&self, info: &IterationInfo);
    fn currmove(&self, depth: i32, mv: Move, number: usize);
    /// The line the answer comes from, when the last line reported is not
    /// already that (the search was stopped inside an iteration, or a
    /// helper thread's move is played). Printed like an iteration's line
    /// unless the protocol wants it otherwise.
    fn final_line(&self, info: &IterationInfo) {
        self.iteration(info);
    }
    /// The answer, once per search, as the search ends. The engine holds its
    /// answer lock meanwhile: a `stop` either comes before the answer (and
    /// causes it) or after it (and finds the engine idle).
    fn best_move(&self, _result: &SearchResult) {}
    /// Does it use the lines (`iteration`, `final_line`)? A reporter that
    /// drops them says no, and the search skips making them: a line samples
    /// the table for `hashfull` and reads the clock, which was 0.6% of
    /// datagen's short searches.
    fn wants_lines(&self) -> bool {
        true
    }
    /// The book moves a `go` chose among (`total`: their summed weight),
    /// before the book move's `best_move`.
    fn book_moves(&self, _entries: &[BookEntry], _total: u32) {}
}

/// A reporter that prints nothing (bench, tests, tools).
pub struct Silent;

impl Reporter for Silent {
    fn iteration(&self, _: &IterationInfo) {}
    fn currmove(&self, _: i32, _: Move, _: usize) {}
    fn wants_lines(&self) -> bool {
        false
    }
}

#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: Score,
    /// The iteration that the score and line come from: the last completed
    /// one, or a stopped one that had already scored the move played.
    pub depth: i32,
    /// Selective depth of the line played.
    pub seldepth: usize,
    pub nodes: u64,
    pub pv: Vec<Move>,
}
