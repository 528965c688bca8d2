//! `go`: from what the GUI said to the search's limits, or to an answer
//! without a search (the opening book, UCCI's `go depth 0`, a perft).

use super::super::command::{GoParams, excerpt};
use super::super::dialect::Style;
use super::super::input::Event;
use super::super::output::Printer;
use super::super::{MAX_CLOCK_MS, MAX_PERFT_DEPTH};
use super::{Active, SearchOutput, Session};
use crate::tools::perft;
use jiangjun_engine::score::MAX_PLY;
use jiangjun_engine::search::{self, Limits};
use jiangjun_engine::time::Clock;
use std::sync::Arc;
use xiangqi::types::{Color, Move};

impl Session {
    /// The first clock value of a `go` beyond [`MAX_CLOCK_MS`], as an error.
    pub(super) fn clock_out_of_range(&self, p: &GoParams) -> Option<String> {
        // UCCI times are seconds unless `usemillisec` is on.
        let unit = self.dialect.ms_per_clock_unit(&self.options);
        [
            ("time", p.time),
            ("increment", p.increment),
            ("opptime", p.opptime),
            ("oppincrement", p.oppincrement),
            ("wtime", p.wtime),
            ("btime", p.btime),
            ("winc", p.winc),
            ("binc", p.binc),
            ("movetime", p.movetime),
        ]
        .into_iter()
        .find(|(_, v)| v.is_some_and(|x| x * unit > MAX_CLOCK_MS as f64))
        .map(|(key, _)| {
            format!(
                "go: '{key}' is beyond the largest clock, {MAX_CLOCK_MS} ms (24.8 days); go ignored: nothing searched"
            )
        })
    }

    /// Turn `go` parameters into search limits.
    pub(super) fn limits(&self, p: &GoParams, malformed: bool) -> Limits {
        // UCCI times are seconds unless `usemillisec` is on.
        let unit = self.dialect.ms_per_clock_unit(&self.options);
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
        let depth = p.depth.map(|d| d.clamp(0, MAX_PLY as i64 - 8) as i32);
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

    pub(super) fn go(&mut self, params: GoParams, malformed: bool) {
        if let Some(d) = params.perft {
            self.perft(d);
            return;
        }
        // An absurd clock would make a search that never ends by itself.
        if let Some(e) = self.clock_out_of_range(&params) {
            self.out.error(&e);
            return;
        }
        let mut limits = self.limits(&params, malformed);
        // Strength options, with a new seed for each search; `nodestime`.
        limits.strength = self.options.strength(self.random.next_u64());
        self.node_clock.apply(&mut limits, self.options.nodestime);
        let printer = Printer {
            out: self.out.clone(),
            dialect: self.dialect,
            style: Style {
                show_wdl: self.options.show_wdl,
                multipv: self.options.multipv,
            },
        };
        if let Ok(mut d) = self.draw_offered.lock() {
            *d = params.draw;
        }
        if self.book_move(&params, &limits, &printer) {
            return;
        }
        // `go depth 0`: UCCI answers with a static score and no move; UCI
        // searches one ply, so the GUI gets a move.
        if limits.depth == Some(0) {
            let (engine, board) = (&self.engine, &self.board);
            match self.dialect.depth_zero_answer(&|| engine.evaluate(board)) {
                Some(lines) => {
                    for l in lines {
                        self.out.line(&l);
                    }
                    return;
                }
                None => limits.depth = Some(1),
            }
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
    pub(super) fn book_move(
        &mut self,
        params: &GoParams,
        limits: &Limits,
        printer: &Printer,
    ) -> bool {
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
        for line in self.dialect.book_lines(&entries, total) {
            self.out.line(&line);
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
    pub(super) fn perft(&mut self, depth: i64) {
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
}
