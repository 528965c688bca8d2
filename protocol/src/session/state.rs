//! The session's state and the types its parts share: the [`Session`]
//! itself, a waiting line, the search in progress, and what the loop does
//! next. A leaf, so that the command loop (`session.rs`) and its parts
//! (`go.rs`, `queries.rs`, `step.rs`) all import these sideways or down,
//! never from their parent.

use super::super::dialect::Dialect;
use super::super::encoding::Line;
use super::super::input::Event;
use super::super::options::Options;
use super::super::output::Output;
use jiangjun_engine::Engine;
use std::path::PathBuf;
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};
use xiangqi::board::Board;
use xiangqi::types::Move;

/// A line waiting to be handled.
pub(super) enum Queued {
    Line(Line),
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
    /// It only ends when told: infinite, pondering or without a limit
    /// (`GoRequest::ends_only_when_told`).
    pub(super) open_ended: bool,
    /// A perft: it runs to completion before `quit` (only `stop` ends it).
    pub(super) perft: bool,
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
    /// The line being handled, while it is: a path in it is read from the
    /// line as sent (`Line::path`), not from the parser's words.
    pub(super) line: Option<Line>,
    /// What to say of the book beside the engine after the first handshake.
    pub(super) book_note: Option<BookNote>,
}

/// What the session says of its default book (`book.rs`), once the GUI
/// has said hello.
pub(super) struct BookNote {
    pub(super) text: String,
    /// The path the text names, written as the file system gave it.
    pub(super) path: PathBuf,
    pub(super) error: bool,
}

/// What the loop should do after a command.
#[derive(PartialEq, Eq)]
pub(super) enum Flow {
    Continue,
    Quit,
}
