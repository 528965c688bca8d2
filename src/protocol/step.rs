//! The session for a host without threads (the wasm build): the host hands
//! over one line at a time and `Stepper::line` handles it before returning,
//! with the same command handling as `Session::run` but no reader thread
//! and no blocking wait for events.
//!
//! On such a host the engine searches inside the call (`Engine::go`
//! returns with the answer given), so a search is always over when `line`
//! returns. `stop` and `ponderhit` reach a running search only through the
//! engine's interrupt hook, which the search polls.

use super::output::Output;
use super::{Event, Flow, Queued, Session};
use jiangjun_engine::search::InterruptHook;
use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, channel};

pub struct Stepper {
    session: Session,
    events: Receiver<Event>,
    queue: VecDeque<Queued>,
    quit: bool,
}

impl Stepper {
    /// A session writing to `out`, whose searches poll `interrupt`.
    pub fn new(out: Arc<Output>, interrupt: Option<InterruptHook>) -> std::io::Result<Stepper> {
        let (tx, events) = channel();
        let mut session = Session::new(out, tx)?;
        session.engine.set_interrupt(interrupt);
        Ok(Stepper {
            session,
            events,
            queue: VecDeque::new(),
            quit: false,
        })
    }

    /// Handle `line` (and whatever it leads to) as `Session::run` would.
    /// False once the session has quit; later lines are ignored.
    pub fn line(&mut self, line: &str) -> bool {
        if self.quit {
            return false;
        }
        self.session.out.log.input(line);
        if !line.is_empty() {
            self.queue.push_back(Queued::Line(line.to_string()));
        }
        loop {
            if self.session.drain(&mut self.queue) == Flow::Quit {
                self.quit = true;
                return false;
            }
            // Word from searches that answered during the lines just handled.
            let Ok(event) = self.events.try_recv() else {
                return true;
            };
            if let Event::SearchDone(id) = event
                && self.session.active.as_ref().is_some_and(|a| a.id == id)
            {
                self.session.finish_search();
            }
        }
    }
}
