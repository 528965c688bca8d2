//! The session's state and the types its parts share: the [`Session`]
//! itself, a waiting line, the search in progress, the reporter that turns
//! the search's output into the dialect's lines, and what the loop does
//! next. A leaf, so that the command loop (`session.rs`) and its parts
//! (`go.rs`, `queries.rs`, `step.rs`) all import these sideways or down,
//! never from their parent.

use super::super::dialect::Dialect;
use super::super::input::Event;
use super::super::options::Options;
use super::super::output::{Output, Printer};
use jiangjun_engine::Engine;
use jiangjun_engine::search::{IterationInfo, Reporter, SearchResult};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};
use xiangqi::board::Board;
use xiangqi::types::Move;

/// A line waiting to be handled.
pub(super) enum Queued {
    Line(String),
    Overlong(usize),
    /// The end of input: quit once the running search has ended by itself
    /// (an infinite or pondering one is stopped).
    End,
}

/// The search (or perft) the engine runs for the GUI, until it is finished
/// here. From its answer on, the GUI sees the engine idle (see
/// `Engine::stop` for how a `stop` and the answer are ordered).
pub(super) struct Active {
    pub(super) id: u64,
    /// Infinite or ponder: it only ends when told.
    pub(super) open_ended: bool,
    /// A perft: it runs to completion before `quit` (only `stop` ends it).
    pub(super) perft: bool,
}

/// Search output: the lines in the GUI's dialect, then the answer (with the
/// draw offer, if any, accepted or not), then word to the command loop.
pub(super) struct SearchOutput {
    pub(super) printer: Printer,
    pub(super) draw_offered: Arc<Mutex<bool>>,
    pub(super) events: Sender<Event>,
    pub(super) id: u64,
}

impl Reporter for SearchOutput {
    fn iteration(&self, info: &IterationInfo) {
        self.printer.iteration(info);
    }

    fn final_line(&self, info: &IterationInfo) {
        self.printer.final_line(info);
    }

    fn currmove(&self, depth: i32, mv: Move, number: usize) {
        self.printer.currmove(depth, mv, number);
    }

    fn book_moves(&self, entries: &[jiangjun_engine::book::Entry], total: u32) {
        self.printer.book_moves(entries, total);
    }

    fn best_move(&self, result: &SearchResult) {
        let draw = self.draw_offered.lock().map(|d| *d).unwrap_or(false);
        self.printer.bestmove(result, draw);
        let _ = self.events.send(Event::SearchDone(self.id));
    }
}

pub struct Session {
    pub(super) out: Arc<Output>,
    pub(super) events: Sender<Event>,
    pub(super) dialect: &'static dyn Dialect,
    pub(super) board: Board,
    pub(super) banmoves: Vec<Move>,
    pub(super) options: Options,
    pub(super) engine: Engine,
    pub(super) active: Option<Active>,
    /// Id of the last search started; a late `SearchDone` of an older one is ignored.
    pub(super) search_id: u64,
    pub(super) draw_offered: Arc<Mutex<bool>>,
    /// The hello word of the command just handled, if it was one: a hello
    /// of the other dialect right behind it is a GUI asking for either.
    pub(super) last_hello: Option<&'static str>,
}

/// What the loop should do after a command.
#[derive(PartialEq, Eq)]
pub(super) enum Flow {
    Continue,
    Quit,
}
