//! What differs between the protocols: each dialect (`uci.rs`, `ucci.rs`)
//! turns lines into [`Command`]s and the session's answers into lines. The
//! session (`session.rs`) never asks which dialect it speaks; a third
//! dialect is one more module implementing [`Dialect`] and one more entry in
//! [`super::dialects::DIALECTS`].

use super::command::Command;
use super::options::{Effect, Options};
use jiangjun_engine::Score;
use jiangjun_engine::play::book::Entry;
use jiangjun_engine::{HashEntry, IterationInfo, SearchResult};
use xiangqi::board::Board;

/// How search lines are shown, from the options in force.
#[derive(Clone, Copy, Debug, Default)]
pub struct Style {
    /// `wdl W D L` after the score (`UCI_ShowWDL`).
    pub show_wdl: bool,
    /// Lines searched (MultiPV).
    pub multipv: usize,
}

/// One protocol, as the session sees it.
pub trait Dialect: Sync {
    /// The first word that chooses this dialect (`uci`, `ucci`).
    fn hello_word(&self) -> &'static str;

    /// The handshake's answer: the `id` lines, the options, then the
    /// dialect's `...ok`.
    fn handshake(&self) -> Vec<String>;

    /// One line (trimmed, not empty) as a command.
    fn parse(&self, line: &str) -> Command;

    /// `option` lines for a GUI that sent the other dialect's hello word
    /// right after this one's (VinXiangQi), announced after the note that
    /// the second word was ignored: by default none.
    fn second_hello_options(&self) -> Vec<String> {
        Vec::new()
    }

    /// Milliseconds in one unit of a `go` clock value.
    fn ms_per_clock_unit(&self, options: &Options) -> f64;

    /// Whether 0 means "the engine's choice" for `Hash` and `Threads`.
    fn zero_is_engine_choice(&self) -> bool;

    /// What a `setoption` of an unknown name does.
    fn unknown_option(&self, name: &str) -> Result<Effect, String>;

    /// The answer to a `stop` with nothing to stop, if any.
    fn stop_while_idle(&self) -> Option<&'static str>;

    /// The last line before the engine exits, if any.
    fn farewell(&self) -> Option<&'static str>;

    /// `go depth 0`: the lines that answer it without a search (a static
    /// score from `evaluate`), or `None` to search to depth 1 instead.
    fn depth_zero_answer(&self, evaluate: &dyn Fn() -> Score) -> Option<Vec<String>>;

    /// The answer to UCCI's `probe`: what the hash table holds for `board`
    /// (`entry`), in UCCI's `pophash` words and scores (which UCI borrows).
    fn probe_lines(&self, board: &Board, entry: Option<HashEntry>) -> Vec<String>;

    /// How the book moves considered are announced (`total`: their weight).
    fn book_lines(&self, entries: &[Entry], total: u32) -> Vec<String>;

    /// The lines of a completed iteration.
    fn iteration_lines(&self, info: &IterationInfo, style: Style) -> Vec<String>;

    /// The line(s) printed right before an answer that does not come from
    /// the last iteration printed.
    fn final_lines(&self, info: &IterationInfo, style: Style) -> Vec<String>;

    /// The answer to a `go`: `bestmove ...`, or what the dialect says when
    /// there is no move. `draw_offered`: the GUI offered a draw.
    fn answer_lines(&self, result: &SearchResult, draw_offered: bool) -> Vec<String>;
}
