//! `go`: its words read into the engine's request (`crate::go_line`), and
//! that request handed to `Engine::go` (which decides the book move, the
//! time, the node clock and the strength around the search), or an answer
//! without a search (UCCI's `go depth 0`, a perft).

use super::super::command::MAX_PERFT_DEPTH;
use super::super::dialect::Style;
use super::super::format::perft_report;
use super::super::go_line::{GoContext, Perft, parse_go};
use super::super::input::Event;
use super::super::output::SearchOutput;
use super::state::{Active, Session};
use std::sync::Arc;

impl Session {
    /// A `go`, answered by exactly one `bestmove` (or `nobestmove`), its
    /// dropped words reported beside it; but a perft, which answers with
    /// its counts.
    pub(super) fn go(&mut self, words: &[String]) {
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        let line = parse_go(
            &words,
            &GoContext {
                // UCCI times are seconds unless `usemillisec` is on.
                ms_per_unit: self.dialect.ms_per_clock_unit(&self.options),
                board: &self.board,
                banmoves: &self.banmoves,
            },
        );
        for e in &line.errors {
            self.out.error(e);
        }
        for n in &line.notes {
            self.out.info_string(n);
        }
        match line.perft {
            Perft::Bad => {
                self.out.error("go perft: nothing counted");
                return;
            }
            Perft::Depth(d) => {
                self.perft(d);
                return;
            }
            Perft::None => {}
        }
        let mut request = line.request;
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
            *d = line.draw;
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
