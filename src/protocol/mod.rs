//! The protocol front end: reads commands on stdin, keeps the position and
//! the options, has the engine (`jiangjun_engine::Engine`, which searches on
//! its own threads) search, and answers on stdout in the dialect chosen by
//! the first command (`ucci` or `uci`).
//!
//! A reader thread turns stdin into line events. The loop handles each line
//! in order; while a search runs, `stop`, `ponderhit`, `isready`, `quit` and
//! the read-only debug commands act at once, and other commands wait until
//! the search ends (an infinite or ponder search is stopped first, since it
//! would never end), followed by everything that arrives after them. A
//! perft is waited for by `quit` too (only `stop` ends it), and the end of
//! input quits once everything before it is done, as a waiting command.

pub mod command;
pub mod debug_log;
pub mod input;
pub mod nodestime;
pub mod options;
pub mod output;
pub mod step;

use crate::tools::perft;
use command::{Command, Dialect, GoParams, PositionBase, excerpt};
use jiangjun_engine::nnue::{EMBEDDED_NETWORK, EvalSource};
use jiangjun_engine::position::Position;
use jiangjun_engine::score::MAX_PLY;
use jiangjun_engine::search::{self, IterationInfo, Limits, Reporter, SearchResult};
use jiangjun_engine::time::Clock;
use jiangjun_engine::tt::Bound;
use jiangjun_engine::{Engine, bench};
use options::Options;
use output::{Output, Printer};
use std::collections::VecDeque;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use xiangqi::board::Board;
use xiangqi::types::{Color, Move};

pub use input::{Event, MAX_LINE, read_lines};

/// Deepest `go perft` (deeper ones run for days).
pub const MAX_PERFT_DEPTH: i64 = 20;

pub const ENGINE_NAME: &str = "Jiangjun";
pub const ENGINE_AUTHOR: &str = "the Jiangjun developers";

/// A line waiting to be handled.
enum Queued {
    Line(String),
    Overlong(usize),
    /// The end of input: quit once the running search has ended by itself
    /// (an infinite or pondering one is stopped).
    End,
}

/// The search (or perft) the engine runs for the GUI, until it is finished
/// here. From its answer on, the GUI sees the engine idle (see
/// `Engine::stop` for how a `stop` and the answer are ordered).
struct Active {
    id: u64,
    /// Infinite or ponder: it only ends when told.
    open_ended: bool,
    /// A perft: it runs to completion before `quit` (only `stop` ends it).
    perft: bool,
}

/// Search output: the lines in the GUI's dialect, then the answer (with the
/// draw offer, if any, accepted or not), then word to the command loop.
struct SearchOutput {
    printer: Printer,
    draw_offered: Arc<Mutex<bool>>,
    events: Sender<Event>,
    id: u64,
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

    fn best_move(&self, result: &SearchResult) {
        let draw = self.draw_offered.lock().map(|d| *d).unwrap_or(false);
        self.printer.bestmove(result, draw);
        let _ = self.events.send(Event::SearchDone(self.id));
    }
}

pub struct Session {
    out: Arc<Output>,
    events: Sender<Event>,
    dialect: Option<Dialect>,
    board: Board,
    banmoves: Vec<Move>,
    options: Options,
    engine: Engine,
    active: Option<Active>,
    /// Id of the last search started; a late `SearchDone` of an older one is ignored.
    search_id: u64,
    book: jiangjun_engine::book::Book,
    random: jiangjun_engine::book::Random,
    draw_offered: Arc<Mutex<bool>>,
    node_clock: nodestime::NodeClock,
}

/// What the loop should do after a command.
#[derive(PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

impl Session {
    /// A session, or the error that kept the engine's threads from starting.
    pub fn new(out: Arc<Output>, events: Sender<Event>) -> std::io::Result<Session> {
        let options = Options::default();
        Ok(Session {
            engine: Engine::try_new(options.hash_mb, options.threads)?,
            out,
            events,
            dialect: None,
            board: Board::startpos(),
            banmoves: Vec::new(),
            options,
            active: None,
            search_id: 0,
            book: jiangjun_engine::book::Book::default_book(),
            random: jiangjun_engine::book::Random::from_time(),
            draw_offered: Arc::new(Mutex::new(false)),
            node_clock: nodestime::NodeClock::default(),
        })
    }

    fn dialect(&self) -> Dialect {
        self.dialect.unwrap_or(Dialect::Uci)
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
                    self.out.log.input(&line);
                    if !line.is_empty() {
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
                Queued::Line(l) => l,
            };
            let cmd = command::parse(line, self.dialect());
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
                        return Flow::Continue;
                    }
                }
            }
            queue.pop_front();
            if self.handle(cmd) == Flow::Quit {
                return Flow::Quit;
            }
        }
        Flow::Continue
    }

    fn handle(&mut self, cmd: Command) -> Flow {
        match cmd {
            Command::Hello(d) => self.hello(d),
            Command::IsReady => self.out.line("readyok"),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::NewGame => self.new_game(),
            Command::Position { base, moves } => self.set_position(&base, &moves),
            Command::BanMoves(moves) => self.ban_moves(&moves),
            Command::Go { params, warnings } => {
                for w in &warnings {
                    self.out.error(w);
                }
                if params.invalid {
                    // No search, so no answer: nothing is guessed.
                    self.out.error("go ignored: nothing searched");
                } else {
                    self.go(*params, !warnings.is_empty());
                }
            }
            Command::Stop => {
                // False if the search had already answered.
                let stopped = self.active.is_some() && self.engine.stop();
                self.finish_search();
                if !stopped && self.dialect() == Dialect::Ucci {
                    // Nothing to stop: UCCI answers `nobestmove`.
                    self.out.line("nobestmove");
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

    fn hello(&mut self, d: Dialect) {
        self.dialect = Some(d);
        match d {
            Dialect::Ucci => {
                self.out
                    .line(&format!("id name {ENGINE_NAME} {}", crate::VERSION));
                self.out.line(&format!("id version {}", crate::VERSION));
                self.out.line(&format!("id author {ENGINE_AUTHOR}"));
                for o in options::ucci_option_lines() {
                    self.out.line(&o);
                }
                self.out.line("ucciok");
            }
            Dialect::Uci => {
                self.out
                    .line(&format!("id name {ENGINE_NAME} {}", crate::VERSION));
                self.out.line(&format!("id author {ENGINE_AUTHOR}"));
                for o in options::uci_option_lines() {
                    self.out.line(&o);
                }
                self.out.line("uciok");
            }
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let old_hash = self.options.hash_mb;
        let old_log = self.options.debug_log_file.clone();
        let old_eval = self.options.eval.clone();
        match self.options.set(name, value, self.dialect()) {
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
                    self.book = jiangjun_engine::book::Book::default_book();
                } else {
                    match jiangjun_engine::book::Book::load(std::path::Path::new(
                        &self.options.book_file,
                    )) {
                        Ok(b) => self.book = b,
                        Err(e) => self
                            .out
                            .error(&format!("option {name}: {e}; keeping the previous book")),
                    }
                }
            }
            Ok(options::Effect::DebugLog) => {
                if let Err(e) = self.out.log.set(&self.options.debug_log_file) {
                    self.out
                        .error(&format!("option {name}: {e}; log unchanged"));
                    self.options.debug_log_file = old_log;
                }
            }
            Ok(options::Effect::Reseed) => {
                self.random = match self.options.random_seed {
                    0 => jiangjun_engine::book::Random::from_time(),
                    // Spread the seed: close seeds give unrelated sequences.
                    s => jiangjun_engine::book::Random::seeded(
                        jiangjun_engine::strength::Rng::new(s).next_u64(),
                    ),
                };
            }
            Ok(options::Effect::ResetNodeClock) => self.node_clock.reset(),
            Ok(options::Effect::LoadNetwork) => self.load_network(name, old_eval),
            Err(e) => self.out.error(&e),
        }
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

    fn new_game(&mut self) {
        self.engine.new_game();
        self.node_clock.reset();
    }

    /// `EvalFile`: evaluate as it now says (`options.eval`): with the
    /// hand-made evaluation, the built-in network or a network file. A file
    /// that cannot be read or is not a network this engine reads is an
    /// error, and the evaluation in force (`old`) stays. Like `Hash`, it
    /// waits for a running search.
    fn load_network(&mut self, name: &str, old: EvalSource) {
        let source = self.options.eval.clone();
        match source.network() {
            Ok(net) => {
                self.engine.set_network(net);
                let msg = match &source {
                    EvalSource::HandMade => "hand-made evaluation, no network".to_string(),
                    EvalSource::BuiltIn => format!(
                        "NNUE evaluation using the built-in network ({} bytes)",
                        EMBEDDED_NETWORK.map_or(0, <[u8]>::len)
                    ),
                    EvalSource::File(path) => format!(
                        "NNUE evaluation using {} ({} bytes)",
                        path.display(),
                        jiangjun_engine::nnue::network::FILE_LEN
                    ),
                };
                self.out.info_string(&msg);
            }
            Err(e) => {
                self.out
                    .error(&format!("option {name}: {e}; keeping {old}"));
                self.options.eval = old;
            }
        }
    }

    /// `eval`: the hand-made evaluation's breakdown and, when a network
    /// evaluates, the network's score, which is then the final one.
    fn eval(&self) {
        let pos = Position::new(self.board.clone());
        if self.engine.network().is_none() {
            self.out.lines(&jiangjun_engine::eval::trace(&pos));
            return;
        }
        self.out.lines(&jiangjun_engine::eval::trace_as(
            &pos,
            "hand-made evaluation",
        ));
        let for_red = |stm: i32| {
            if self.board.side_to_move() == Color::Red {
                stm
            } else {
                -stm
            }
        };
        if let Some(net) = self.engine.network() {
            let acc = jiangjun_engine::nnue::Accumulator::from_board(net, &self.board);
            let raw = jiangjun_engine::nnue::evaluate(net, &acc, self.board.side_to_move());
            self.out.line(&format!(
                "network evaluation {} (red side), {raw} (side to move)",
                for_red(raw)
            ));
        }
        // The search's evaluation: the network's after the endgame scale
        // (or the hand-made one in a known win).
        let stm = self.engine.evaluate(&self.board);
        self.out.line(&format!(
            "final evaluation {} (red side), {stm} (side to move)",
            for_red(stm)
        ));
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

    /// Turn `go` parameters into search limits.
    fn limits(&self, p: &GoParams, malformed: bool) -> Limits {
        let dialect = self.dialect();
        // UCCI times are seconds unless `usemillisec` is on.
        let unit = if dialect == Dialect::Ucci && !self.options.usemillisec {
            1000.0
        } else {
            1.0
        };
        let ms = |x: f64| (x * unit).clamp(0.0, 1e15) as u64;
        let red = self.board.side_to_move() == Color::Red;
        let (mut time, inc) = match (p.time, red) {
            (Some(t), _) => (Some(t), p.increment),
            (None, true) => (p.wtime, p.winc),
            (None, false) => (p.btime, p.binc),
        };
        let other_time = if red { p.btime } else { p.wtime }.or(p.opptime);
        if time.is_none() && other_time.is_some() && p.movetime.is_none() {
            // A clock for the other side only: ours is taken as empty (the
            // increment is still ours), as Stockfish does, rather than as
            // no clock at all, which would search until stopped.
            let side = if red { "red" } else { "black" };
            self.out.info_string(&format!(
                "go: no time given for {side}, the side to move; searching with 0 ms plus increment"
            ));
            time = Some(0.0);
        }
        let mut clock = Clock {
            time: time.map(ms),
            inc: inc.map_or(0, ms),
            movestogo: p.movestogo.filter(|&m| m > 0).map(|m| m.min(1000) as u32),
            movetime: p.movetime.map(ms),
        };
        let mut searchmoves = Vec::new();
        for text in &p.searchmoves {
            match self.board.parse_move(text) {
                Ok(m) => searchmoves.push(m),
                Err(e) => self
                    .out
                    .error(&format!("searchmoves: {}", excerpt(&e.to_string()))),
            }
        }
        let mut depth = p.depth.map(|d| d.clamp(0, MAX_PLY as i64 - 8) as i32);
        let nothing = depth.is_none()
            && p.nodes.is_none()
            && p.mate.is_none()
            && clock.time.is_none()
            && clock.movetime.is_none()
            && !p.infinite;
        let mut infinite = p.infinite || (nothing && !malformed);
        if nothing && malformed {
            // Never search forever because of a garbled `go`.
            self.out
                .error("go: no usable limit left; searching for 1 second");
            clock.movetime = Some(1000);
            infinite = false;
        }
        if dialect == Dialect::Uci && depth == Some(0) {
            depth = Some(1);
        }
        Limits {
            depth,
            nodes: p.nodes,
            clock,
            infinite,
            ponder: p.ponder,
            mate: p
                .mate
                .filter(|&m| m > 0)
                .map(|m| m.min(MAX_PLY as i64 / 2) as u32),
            searchmoves,
            banmoves: self.banmoves.clone(),
            multipv: self.options.multipv,
            move_overhead: self.options.move_overhead,
            // Infinite searches answer only when told, in both dialects.
            wait_for_stop: infinite,
            ..Limits::default()
        }
    }

    fn go(&mut self, params: GoParams, malformed: bool) {
        if let Some(d) = params.perft {
            self.perft(d);
            return;
        }
        let mut limits = self.limits(&params, malformed);
        // Strength options, with a new seed for each search; `nodestime`.
        limits.strength = self.options.strength(self.random.next_u64());
        self.node_clock.apply(&mut limits, self.options.nodestime);
        let printer = Printer {
            out: self.out.clone(),
            dialect: self.dialect(),
            show_wdl: self.options.show_wdl,
            multipv: self.options.multipv,
        };
        if let Ok(mut d) = self.draw_offered.lock() {
            *d = params.draw;
        }
        if self.book_move(&params, &limits, &printer) {
            return;
        }
        // UCCI `go depth 0`: a static score only, no move.
        if self.dialect() == Dialect::Ucci && limits.depth == Some(0) {
            let score = self.engine.evaluate(&self.board);
            self.out
                .line(&format!("info depth 0 score {}", output::ucci_score(score)));
            self.out.line("nobestmove");
            return;
        }
        let open_ended = limits.infinite || limits.ponder;
        self.search_id += 1;
        let reporter = Arc::new(SearchOutput {
            printer,
            draw_offered: self.draw_offered.clone(),
            events: self.events.clone(),
            id: self.search_id,
        });
        self.engine.go(&self.board, limits, reporter);
        self.active = Some(Active {
            id: self.search_id,
            open_ended,
            perft: false,
        });
    }

    /// Answer from the opening book if it applies: the book is on, the
    /// search is for a game move (no depth, node, mate, infinite or ponder
    /// limit) and the position has book moves. Returns true if it answered.
    fn book_move(&mut self, params: &GoParams, limits: &Limits, printer: &Printer) -> bool {
        if !self.options.own_book
            || self.options.analyse_mode
            || self.book.is_empty()
            || params.depth.is_some()
            || params.nodes.is_some()
            || params.mate.is_some()
            || limits.infinite
            || limits.ponder
        {
            return false;
        }
        let allowed = |m: Move| {
            !limits.banmoves.contains(&m)
                && (limits.searchmoves.is_empty() || limits.searchmoves.contains(&m))
        };
        let entries: Vec<jiangjun_engine::book::Entry> = self
            .book
            .probe(&self.board)
            .into_iter()
            .filter(|e| allowed(e.mv) && e.weight > 0)
            .collect();
        if entries.is_empty() {
            return false;
        }
        let total: u32 = entries.iter().map(|e| e.weight).sum();
        let mut pick = (self.random.next_f64() * total as f64) as u32;
        let mut chosen = entries[entries.len() - 1];
        for e in &entries {
            if pick < e.weight {
                chosen = *e;
                break;
            }
            pick -= e.weight;
        }
        for e in &entries {
            match self.dialect() {
                // ElephantEye announces every book move as a depth-0 line.
                Dialect::Ucci => self
                    .out
                    .line(&format!("info depth 0 score {} pv {}", e.score, e.mv)),
                Dialect::Uci => self.out.info_string(&format!(
                    "book move {} weight {}% games {} score {}",
                    e.mv,
                    e.weight * 100 / total.max(1),
                    e.games,
                    e.score
                )),
            }
        }
        // The ponder move: the heaviest book reply, if any.
        let mut after = self.board.clone();
        after.make_move(chosen.mv);
        let ponder = self.book.probe(&after).first().map(|e| e.mv);
        printer.bestmove(
            &search::SearchResult {
                best: Some(chosen.mv),
                ponder,
                score: chosen.score as i32,
                ..Default::default()
            },
            false,
        );
        true
    }

    /// `go perft N` runs on the engine's main thread, so that `stop` can
    /// end it; later commands, `quit` included, wait for it (as in
    /// Pikafish, where the perft runs before the next line is read).
    fn perft(&mut self, depth: i64) {
        if !(1..=MAX_PERFT_DEPTH).contains(&depth) {
            self.out.error(&format!(
                "go perft: depth must be from 1 to {MAX_PERFT_DEPTH}, got {depth}; nothing counted"
            ));
            return;
        }
        let depth = depth as u32;
        let out = self.out.clone();
        let events = self.events.clone();
        self.search_id += 1;
        let id = self.search_id;
        self.engine.perft(&self.board, depth, move |counts| {
            match counts {
                Some(counts) => {
                    out.lines(&perft::report_of(&counts).0);
                    out.line("");
                }
                None => out.info_string("perft stopped"),
            }
            let _ = events.send(Event::SearchDone(id));
        });
        // A perft ends by itself: later commands wait for it.
        self.active = Some(Active {
            id,
            open_ended: false,
            perft: true,
        });
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
            self.node_clock.search_done(self.engine.nodes());
        }
    }

    fn quit(&mut self) {
        self.stop_search();
        if self.dialect() == Dialect::Ucci {
            self.out.line("bye");
        }
    }

    fn probe(&mut self, base: &PositionBase, moves: &[String]) {
        let Some(b) = self.build_position(base, moves) else {
            return;
        };
        let mut s = String::from("pophash");
        if let Some(e) = self.engine.tt().probe(b.key(), 0) {
            if e.mv.is_some() && b.is_legal_move(e.mv) {
                s.push_str(&format!(" bestmove {}", e.mv));
            }
            let score = output::ucci_score(e.score);
            if matches!(e.bound, Bound::Lower | Bound::Exact) {
                s.push_str(&format!(" lowerbound {score} depth {}", e.depth.max(0)));
            }
            if matches!(e.bound, Bound::Upper | Bound::Exact) {
                s.push_str(&format!(" upperbound {score} depth {}", e.depth.max(0)));
            }
        }
        self.out.line(&s);
    }

    fn display(&self) {
        self.out.lines(&self.board.to_string());
        self.out.line(&format!("Fen: {}", self.board.to_fen()));
        self.out.line(&format!("Key: {:016X}", self.board.key()));
        let checkers: Vec<String> = self
            .board
            .checkers()
            .iter()
            .map(|s| s.to_string())
            .collect();
        self.out.line(&format!("Checkers: {}", checkers.join(" ")));
    }

    /// `bench [depth]`: the depths the command line accepts.
    fn bench(&mut self, args: &[String]) {
        let depth = match args.first().map(|a| (a, a.parse::<i32>())) {
            None => bench::DEFAULT_DEPTH,
            Some((_, Ok(d))) if (1..=bench::MAX_DEPTH).contains(&d) => d,
            Some((text, _)) => {
                self.out.error(&format!(
                    "bench: depth must be a whole number from 1 to {}, got '{}'; nothing searched",
                    bench::MAX_DEPTH,
                    excerpt(text)
                ));
                return;
            }
        };
        // With the evaluation in force: `EvalFile` makes it a network bench.
        let r = bench::run_bench_with_network(depth, self.engine.network().cloned());
        self.out.line(&format!("Total time (ms) : {}", r.millis));
        self.out.line(&format!("Nodes searched  : {}", r.nodes));
        self.out.line(&format!("Nodes/second    : {}", r.nps()));
    }
}

/// Run the engine on stdin/stdout until `quit` or end of input.
pub fn run_stdio() {
    let (tx, rx) = channel();
    let reader_tx = tx.clone();
    let _ = std::thread::Builder::new()
        .name("stdin".into())
        .spawn(move || read_lines(std::io::stdin().lock(), reader_tx));
    match Session::new(Arc::new(Output::stdout()), tx) {
        Ok(session) => session.run(rx),
        Err(e) => eprintln!("jiangjun: cannot start the search threads: {e}"),
    }
}
