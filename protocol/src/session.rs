//! The dialect-neutral core of the front end: the position, the options,
//! the command loop and the search's answers. What a line means and how an
//! answer reads is the dialect's (`dialect.rs`); the session never asks
//! which one it speaks.
//!
//! The loop handles each line in order; while a search runs, `stop`,
//! `ponderhit`, `isready`, `quit` and the read-only debug commands act at
//! once, and other commands wait until the search ends (an infinite or
//! ponder search is stopped first, since it would never end), followed by
//! everything that arrives after them except the search controls, which
//! act at once. A perft is waited for by `quit` too (only `stop` ends it),
//! and the end of input quits once everything before it is done, as a
//! waiting command.

mod book;
mod go;
mod queries;
mod state;
pub mod step;

use super::command::{Command, PositionBase, excerpt};
use super::dialects;
use super::input::{Event, MAX_LINE};
use super::options::{self, Options, SetError};
use super::output::Output;
use jiangjun_engine::Engine;
use jiangjun_engine::nnue::{EMBEDDED_NETWORK, EvalSource};
pub use state::Session;
use state::{Flow, Queued};
use std::collections::VecDeque;
use std::sync::mpsc::{Receiver, Sender};
use std::sync::{Arc, Mutex};
use xiangqi::board::Board;

impl Session {
    /// A session, or the error that kept the engine's threads from starting.
    pub fn new(out: Arc<Output>, events: Sender<Event>) -> std::io::Result<Session> {
        let options = Options::default();
        let mut session = Session {
            engine: Engine::try_new(options.hash_mb, options.threads)?,
            out,
            events,
            dialect: dialects::assumed(),
            board: Board::startpos(),
            banmoves: Vec::new(),
            options,
            active: None,
            search_id: 0,
            draw_offered: Arc::new(Mutex::new(false)),
            last_hello: None,
            line: None,
            book_note: None,
        };
        session.book_note = session.load_default_book();
        Ok(session)
    }

    /// A line as a command: a dialect's hello word switches to it, anything
    /// else is read by the dialect spoken.
    fn parse_line(&self, line: &str) -> Command {
        let first = line.split_whitespace().next().unwrap_or("");
        match dialects::by_hello(first) {
            Some(d) => Command::Hello(d.hello_word()),
            None => self.dialect.parse(line),
        }
    }

    fn busy(&self) -> bool {
        self.active.is_some()
    }

    /// Commands that act at once while a search runs: the search controls,
    /// and the commands that only read the engine's state.
    fn acts_during_search(cmd: &Command) -> bool {
        matches!(
            cmd,
            Command::Stop
                | Command::PonderHit { .. }
                | Command::IsReady
                | Command::Quit
                | Command::Display
                | Command::Eval
                | Command::Probe { .. }
                | Command::Error(_)
        )
    }

    /// Run the command loop over events until `quit` or end of input.
    pub fn run(mut self, events: Receiver<Event>) {
        // Lines in arrival order, waiting to be handled.
        let mut queue: VecDeque<Queued> = VecDeque::new();
        loop {
            if self.drain(&mut queue) == Flow::Quit {
                break;
            }
            let Ok(event) = events.recv() else { break };
            match event {
                Event::Line(line) => {
                    self.out.log.input(&line.text);
                    if !line.text.is_empty() {
                        queue.push_back(Queued::Line(line));
                    }
                }
                Event::Overlong(n) => queue.push_back(Queued::Overlong(n)),
                Event::SearchDone(id) => {
                    if self.active.as_ref().is_some_and(|a| a.id == id) {
                        self.finish_search();
                    }
                }
                // End of input is `quit`, in its turn, once the search ends.
                Event::Eof => queue.push_back(Queued::End),
            }
        }
    }

    /// Handle queued lines in order for as long as possible. While a search
    /// runs, lines that act on it are handled; the first other line waits
    /// (an open-ended search is stopped for it), and so does everything
    /// behind it. Batch mode reads nothing while thinking. The end of input
    /// waits like such a line, then quits; `quit` acts at once, except on a
    /// perft, which it waits for.
    fn drain(&mut self, queue: &mut VecDeque<Queued>) -> Flow {
        while let Some(item) = queue.front() {
            // A search that has answered is over for the GUI, even if its
            // `SearchDone` has not been seen yet.
            if self.active.is_some() && !self.engine.is_searching() {
                self.finish_search();
            }
            let open_ended = self.active.as_ref().is_some_and(|a| a.open_ended);
            let line = match item {
                Queued::Overlong(n) => {
                    self.out.error(&format!(
                        "line of {n} bytes is longer than {MAX_LINE} bytes; ignored"
                    ));
                    queue.pop_front();
                    continue;
                }
                Queued::End => {
                    // A search that ends by itself runs to its end.
                    if self.busy() {
                        if !open_ended {
                            return Flow::Continue;
                        }
                        self.stop_search();
                    }
                    queue.pop_front();
                    self.quit();
                    return Flow::Quit;
                }
                Queued::Line(l) => &l.text,
            };
            let cmd = self.parse_line(line);
            if self.busy() {
                let perft = self.active.as_ref().is_some_and(|a| a.perft);
                // Batch mode reads nothing while a search that ends by itself runs.
                if !Self::acts_during_search(&cmd)
                    || self.options.batch
                    || (perft && cmd == Command::Quit)
                {
                    if open_ended {
                        self.stop_search();
                    } else {
                        // This line waits for the search; the controls
                        // queued behind it do not.
                        if self.controls_behind_waiting_line(queue) == Flow::Quit {
                            return Flow::Quit;
                        }
                        if self.busy() {
                            return Flow::Continue;
                        }
                        // Stopped: the waiting line goes on.
                        continue;
                    }
                }
            }
            // A path in the line is read from it as sent (`set_option`).
            self.line = match queue.pop_front() {
                Some(Queued::Line(l)) => Some(l),
                _ => None,
            };
            let flow = self.handle(cmd);
            self.line = None;
            if flow == Flow::Quit {
                return Flow::Quit;
            }
        }
        Flow::Continue
    }

    /// While the line at the front of the queue waits for a search that
    /// ends by itself, act on the search controls behind it (`stop`,
    /// `ponderhit`, `isready`, `quit`) at once, as if they had come first:
    /// a GUI that sent `position` before `stop` must not see `stop` ignored.
    /// Only the controls up to the next `go` (or dialect change) belong to
    /// this search; later ones stay in their place. Batch mode reads nothing
    /// while thinking, and `quit` waits for a perft (only `stop` ends it).
    fn controls_behind_waiting_line(&mut self, queue: &mut VecDeque<Queued>) -> Flow {
        if self.options.batch {
            return Flow::Continue;
        }
        let mut i = 1;
        while i < queue.len() && self.busy() {
            let Queued::Line(line) = &queue[i] else {
                break;
            };
            let cmd = self.parse_line(&line.text);
            match cmd {
                Command::Go(_) | Command::Hello(_) => break,
                Command::Quit if self.active.as_ref().is_some_and(|a| a.perft) => break,
                Command::Stop | Command::PonderHit { .. } | Command::IsReady | Command::Quit => {
                    queue.remove(i);
                    if self.handle(cmd) == Flow::Quit {
                        return Flow::Quit;
                    }
                }
                _ => i += 1,
            }
        }
        Flow::Continue
    }

    fn handle(&mut self, cmd: Command) -> Flow {
        let hello = match cmd {
            Command::Hello(word) => Some(word),
            _ => None,
        };
        let last_hello = std::mem::replace(&mut self.last_hello, hello);
        match cmd {
            // `uci` then `ucci` at once (VinXiangQi sends both and takes the
            // dialect whose `...ok` it sees): the GUI speaks either, and gets
            // one handshake, the first word's.
            Command::Hello(word) if last_hello.is_some_and(|w| w != word) => {
                let spoken = self.dialect.hello_word();
                self.out.info_string(&format!(
                    "'{word}' right after '{spoken}' ignored: the engine speaks {spoken}"
                ));
                for line in self.dialect.second_hello_options() {
                    self.out.line(&line);
                }
            }
            Command::Hello(word) => self.hello(word),
            Command::IsReady => self.out.line("readyok"),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::NewGame => self.new_game(),
            Command::Position { base, moves } => self.set_position(&base, &moves),
            Command::BanMoves(moves) => self.ban_moves(&moves),
            // A bad word is dropped and the rest searched: every `go` is
            // answered (but a `go perft` without a depth).
            Command::Go(words) => self.go(&words),
            Command::Stop => {
                // False if the search had already answered.
                let stopped = self.active.is_some() && self.engine.stop();
                self.finish_search();
                if !stopped && let Some(answer) = self.dialect.stop_while_idle() {
                    // Nothing to stop: UCCI answers `nobestmove`.
                    self.out.line(answer);
                }
            }
            Command::PonderHit { draw } => {
                if self.active.is_some() {
                    if draw && let Ok(mut d) = self.draw_offered.lock() {
                        *d = true;
                    }
                    self.engine.ponderhit();
                }
            }
            Command::Quit => {
                self.quit();
                return Flow::Quit;
            }
            Command::Probe { base, moves } => self.probe(&base, &moves),
            Command::Display => self.display(),
            Command::Eval => self.eval(),
            Command::Bench(args) => self.bench(&args),
            Command::Error(e) => self.out.error(&e),
        }
        Flow::Continue
    }

    fn hello(&mut self, word: &str) {
        if let Some(d) = dialects::by_hello(word) {
            self.dialect = d;
        }
        for line in self.dialect.handshake() {
            self.out.line(&line);
        }
        if let Some(note) = self.book_note.take() {
            self.say_book_note(&note);
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let old_hash = self.options.hash_mb;
        let old_log = self.options.debug_log_file.clone();
        let old_eval = self.options.eval.clone();
        let old_book = self.options.book_file.clone();
        let old_tables = self.options.tablebase_path.clone();
        let zero_allowed = self.dialect.zero_is_engine_choice();
        let result = match self.options.set(name, value, zero_allowed) {
            Ok(effect) => Ok(effect),
            Err(SetError::Unknown(name)) => self.dialect.unknown_option(&name),
            Err(SetError::Bad(e)) => Err(e),
        };
        match result {
            Ok(options::Effect::None) => {}
            Ok(options::Effect::ResizeHash) => {
                if let Err(e) = self.engine.resize_hash(self.options.hash_mb) {
                    self.out
                        .error(&format!("option {name}: {e}; keeping {old_hash} MB"));
                    self.options.hash_mb = old_hash;
                }
            }
            Ok(options::Effect::ClearHash) => self.engine.clear_hash(),
            Ok(options::Effect::NewGame) => self.new_game(),
            Ok(options::Effect::LoadBook) => {
                if self.options.book_file.is_empty() {
                    // The book beside the engine, or the built-in one.
                    match self.load_default_book() {
                        Some(note) => self.say_book_note(&note),
                        None => self.out.info_string("book: the built-in book"),
                    }
                } else {
                    let path = self.path_in(value, &self.options.book_file);
                    match jiangjun_engine::play::book::Book::load(&path) {
                        Ok(b) => {
                            // Confirmed, as the tables are.
                            self.out.info_string_naming(
                                &format!(
                                    "book: {} from {}, {} records",
                                    b.format().name(),
                                    path.display(),
                                    b.len()
                                ),
                                &path,
                            );
                            self.engine.set_book(b);
                        }
                        Err(e) => {
                            self.out.error_naming(
                                &format!("option {name}: {e}; keeping the previous book"),
                                &path,
                            );
                            self.options.book_file = old_book;
                        }
                    }
                }
            }
            Ok(options::Effect::DebugLog) => {
                let path = self.path_in(value, &self.options.debug_log_file);
                if let Err(e) = self.out.log.set(&path) {
                    self.out
                        .error_naming(&format!("option {name}: {e}; log unchanged"), &path);
                    self.options.debug_log_file = old_log;
                }
            }
            Ok(options::Effect::Reseed) => self.engine.reseed(self.options.random_seed),
            // The engine starts its node clock again when `nodestime` changes.
            Ok(options::Effect::ResetNodeClock) => {}
            Ok(options::Effect::LoadNetwork) => {
                // A network file is the path as sent.
                if let EvalSource::File(file) = &self.options.eval
                    && let Some(text) = file.to_str()
                {
                    self.options.eval = EvalSource::File(self.path_in(value, text));
                }
                self.load_network(name, old_eval)
            }
            Ok(options::Effect::LoadTablebases) => {
                let path = self.path_in(value, &self.options.tablebase_path);
                self.load_tablebases(name, &path, old_tables)
            }
            Ok(options::Effect::Note(text)) => self.out.info_string(&text),
            Err(e) => self.out.error(&e),
        }
        // What shapes a `go` is the engine's to apply.
        self.engine.set_play_settings(self.options.play_settings());
        if self.options.threads != self.engine.threads()
            && let Err(e) = self.engine.set_threads(self.options.threads)
        {
            self.options.threads = self.engine.threads();
            self.out.error(&format!(
                "option {name}: cannot start the search threads: {e}; using {}",
                self.options.threads
            ));
        }
    }

    /// The path `part` of an option's `value` names: what the GUI sent for
    /// it (`Line::path`), its bytes if they are not UTF-8.
    fn path_in(&self, value: Option<&str>, part: &str) -> std::path::PathBuf {
        match (&self.line, value) {
            (Some(line), Some(value)) => line.path(value, part),
            _ => std::path::PathBuf::from(part),
        }
    }

    fn new_game(&mut self) {
        self.engine.new_game();
    }

    /// `EvalFile`: evaluate as it now says (`options.eval`): with the
    /// hand-made evaluation, the built-in network or a network file. A file
    /// that cannot be read or is not a network this engine reads is an
    /// error, and the evaluation in force (`old`) stays. Like `Hash`, it
    /// waits for a running search.
    fn load_network(&mut self, name: &str, old: EvalSource) {
        let source = self.options.eval.clone();
        // The file's path as the GUI sent it, for the messages.
        let sent = match &source {
            EvalSource::File(path) => path.clone(),
            _ => std::path::PathBuf::new(),
        };
        match source.network() {
            Ok(net) => {
                self.engine.set_network(net.clone());
                let msg = match &source {
                    EvalSource::HandMade => "hand-made evaluation, no network".to_string(),
                    EvalSource::BuiltIn => format!(
                        "NNUE evaluation using the built-in network ({} bytes)",
                        EMBEDDED_NETWORK.map_or(0, <[u8]>::len)
                    ),
                    EvalSource::File(path) => format!(
                        "NNUE evaluation using {} ({} bytes)",
                        path.display(),
                        net.as_ref().map_or(0, |n| n.file_len())
                    ),
                };
                self.out.info_string_naming(&msg, &sent);
            }
            Err(e) => {
                self.out
                    .error_naming(&format!("option {name}: {e}; keeping {old}"), &sent);
                self.options.eval = old;
            }
        }
    }

    /// `TablebasePath`: probe the tables of the directory it names, or none
    /// if it is empty. A path that cannot be read, holds a bad table or no
    /// table at all is an error, and the tables in force (of `old`, the
    /// path before) stay, as a bad book or network keeps the one before.
    fn load_tablebases(&mut self, name: &str, dir: &std::path::Path, old: String) {
        let path = self.options.tablebase_path.clone();
        if path.is_empty() {
            if self.engine.has_tablebases() {
                self.engine.set_tablebases(None);
            }
            return;
        }
        let problem = match jiangjun_engine::tb::Tablebases::open(dir) {
            Ok(tb) if !tb.is_empty() => {
                let msg = format!(
                    "endgame tables: {} tables from {path}, up to {} pieces",
                    tb.len(),
                    tb.max_pieces()
                );
                self.engine.set_tablebases(Some(std::sync::Arc::new(tb)));
                self.out.info_string_naming(&msg, dir);
                return;
            }
            Ok(_) => format!("no tables in {path}"),
            Err(e) => e.to_string(),
        };
        let kept = if self.engine.has_tablebases() {
            "keeping the previous tables"
        } else {
            "no tables probed"
        };
        self.out
            .error_naming(&format!("option {name}: {problem}; {kept}"), dir);
        self.options.tablebase_path = old;
    }

    /// Build a board from a position command; errors are reported and give `None`.
    /// A bad move ends the move list: the position up to the move before it is kept.
    fn build_position(&self, base: &PositionBase, moves: &[String]) -> Option<Board> {
        let mut board = match base {
            PositionBase::Start => Board::startpos(),
            PositionBase::Fen(f) => match Board::from_fen(f) {
                Ok(b) => b,
                Err(e) => {
                    self.out.error(&format!(
                        "invalid FEN '{}': {e}; position unchanged",
                        excerpt(f)
                    ));
                    return None;
                }
            },
        };
        for (i, text) in moves.iter().enumerate() {
            match board.parse_move(text) {
                Ok(m) => board.make_move(m),
                Err(e) => {
                    self.out.error(&format!(
                        "move {} of the list: {}; position set up to the move before it",
                        i + 1,
                        excerpt(&e.to_string())
                    ));
                    break;
                }
            }
        }
        Some(board)
    }

    fn set_position(&mut self, base: &PositionBase, moves: &[String]) {
        if let Some(b) = self.build_position(base, moves) {
            self.board = b;
            self.banmoves.clear();
        }
    }

    fn ban_moves(&mut self, moves: &[String]) {
        self.banmoves.clear();
        for text in moves {
            match self.board.parse_move(text) {
                Ok(m) => self.banmoves.push(m),
                Err(e) => self
                    .out
                    .error(&format!("banmoves: {}", excerpt(&e.to_string()))),
            }
        }
    }

    fn stop_search(&mut self) {
        if self.active.is_some() {
            self.engine.stop();
        }
        self.finish_search();
    }

    /// The GUI's search is over: wait until the engine has answered.
    fn finish_search(&mut self) {
        if self.active.take().is_some() {
            self.engine.wait();
        }
    }

    fn quit(&mut self) {
        self.stop_search();
        if let Some(line) = self.dialect.farewell() {
            self.out.line(line);
        }
    }
}
