//! `go`: what the GUI said, converted to engine units for `Engine::go`
//! (which decides the book move, the time, the node clock and the strength
//! handicap), or an answer without a search (UCCI's `go depth 0`, a perft).

use super::super::command::{GoParams, MAX_CLOCK_MS, MAX_PERFT_DEPTH, excerpt};
use super::super::dialect::Style;
use super::super::format::perft_report;
use super::super::input::Event;
use super::super::output::SearchOutput;
use super::state::{Active, Session};
use jiangjun_engine::Limits;
use jiangjun_engine::time::Clock;
use std::sync::Arc;
use xiangqi::types::Color;

impl Session {
    /// Drop each clock value of a `go` beyond [`MAX_CLOCK_MS`] with an
    /// error, as any unusable value is dropped (a search would not end by
    /// itself in any useful time); true if one was.
    pub(super) fn drop_absurd_clocks(&self, p: &mut GoParams) -> bool {
        // UCCI times are seconds unless `usemillisec` is on.
        let unit = self.dialect.ms_per_clock_unit(&self.options);
        let mut dropped = false;
        for (key, v) in [
            ("time", &mut p.time),
            ("increment", &mut p.increment),
            ("opptime", &mut p.opptime),
            ("oppincrement", &mut p.oppincrement),
            ("wtime", &mut p.wtime),
            ("btime", &mut p.btime),
            ("winc", &mut p.winc),
            ("binc", &mut p.binc),
            ("movetime", &mut p.movetime),
        ] {
            if v.is_some_and(|x| x * unit > MAX_CLOCK_MS as f64) {
                self.out.error(&format!(
                    "go: '{key}' is beyond the largest clock, {MAX_CLOCK_MS} ms (24.8 days); ignored"
                ));
                *v = None;
                dropped = true;
            }
        }
        dropped
    }

    /// What the GUI said, in engine units: milliseconds (UCCI seconds
    /// without `usemillisec`), the side to move's clock, the moves of
    /// `searchmoves` and `banmoves`. The engine decides the rest.
    pub(super) fn request(&self, p: &GoParams, malformed: bool) -> Limits {
        let unit = self.dialect.ms_per_clock_unit(&self.options);
        let ms = |x: f64| (x * unit).clamp(0.0, MAX_CLOCK_MS as f64) as u64;
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
        let mut searchmoves = Vec::new();
        for text in &p.searchmoves {
            match self.board.parse_move(text) {
                Ok(m) => searchmoves.push(m),
                Err(e) => self
                    .out
                    .error(&format!("searchmoves: {}", excerpt(&e.to_string()))),
            }
        }
        // What the GUI asked; the engine sets the rest of the limits.
        let mut request = Limits {
            clock: Clock {
                time: time.map(ms),
                inc: inc.map_or(0, ms),
                movestogo: p.movestogo.map(|m| m.clamp(0, u32::MAX as i64) as u32),
                movetime: p.movetime.map(ms),
            },
            depth: p.depth.map(|d| d.clamp(0, i32::MAX as i64) as i32),
            nodes: p.nodes,
            mate: p.mate.map(|m| m.clamp(0, u32::MAX as i64) as u32),
            infinite: p.infinite,
            ponder: p.ponder,
            searchmoves,
            banmoves: self.banmoves.clone(),
            ..Limits::default()
        };
        // The engine decides what no limit means (until stopped); a
        // garbled `go` is the protocol's to bound.
        if malformed && request.has_no_limit() && !request.infinite {
            // Never search forever because of a garbled `go`.
            self.out
                .error("go: no usable limit left; searching for 1 second");
            request.clock.movetime = Some(1000);
        }
        request
    }

    /// A `go`, answered by exactly one `bestmove` (or `nobestmove`), but a
    /// perft, which answers with its counts. `malformed`: a word of it was
    /// dropped (and reported), so a `go` left with no limit is bounded.
    pub(super) fn go(&mut self, mut params: GoParams, malformed: bool) {
        if params.bad_perft {
            self.out.error("go perft: nothing counted");
            return;
        }
        if let Some(d) = params.perft {
            self.perft(d);
            return;
        }
        // An absurd clock would make a search that never ends by itself.
        let malformed = self.drop_absurd_clocks(&mut params) || malformed;
        let mut request = self.request(&params, malformed);
        // `go depth 0`: UCCI answers with a static score and no move; UCI
        // searches one ply, so the GUI gets a move.
        if request.depth == Some(0) {
            let (engine, board) = (&self.engine, &self.board);
            match self.dialect.depth_zero_answer(&|| engine.evaluate(board)) {
                Some(lines) => {
                    for l in lines {
                        self.out.line(&l);
                    }
                    return;
                }
                None => request.depth = Some(1),
            }
        }
        if let Ok(mut d) = self.draw_offered.lock() {
            *d = params.draw;
        }
        let open_ended = request.ends_only_when_told();
        self.search_id += 1;
        let reporter = Arc::new(SearchOutput {
            out: self.out.clone(),
            dialect: self.dialect,
            style: Style {
                show_wdl: self.options.show_wdl,
                multipv: self.options.play.multipv,
            },
            draw_offered: self.draw_offered.clone(),
            events: self.events.clone(),
            id: self.search_id,
            quiet: Default::default(),
        });
        // A book move is answered at once; a search runs on.
        if self.engine.go(&self.board, request, reporter) {
            self.active = Some(Active {
                id: self.search_id,
                open_ended,
                perft: false,
            });
        }
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
                    out.lines(&perft_report(&counts).0);
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
