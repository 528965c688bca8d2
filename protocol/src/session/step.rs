//! The session for a host without threads (the wasm build): the host hands
//! over one line at a time and `Stepper::line` handles it before returning,
//! with the same command handling as `Session::run` but no reader thread
//! and no blocking wait for events.
//!
//! On such a host the engine searches inside the call (`Engine::go`
//! returns with the answer given), so a search is always over when `line`
//! returns. `stop` and `ponderhit` reach a running search only through the
//! engine's interrupt hook, which the search polls.

use super::super::input::Event;
use super::super::output::Output;
use super::state::{Flow, Queued, Session};
use jiangjun_engine::InterruptHook;
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
            self.queue.push_back(Queued::Line(line.into()));
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::sync::Mutex;
    use std::time::{Duration, Instant};

    /// Output kept for the test to read.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Shared {
        fn text(&self) -> String {
            String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
        }
    }

    /// Natively the search runs on the engine's thread, so `line` returns
    /// before the answer; the session is the protocol's all the same.
    #[test]
    fn a_stepper_answers_lines_as_the_session_does() {
        let out = Shared::default();
        let mut s = Stepper::new(Arc::new(Output::new(Box::new(out.clone()))), None).unwrap();
        assert!(s.line("uci"));
        assert!(out.text().contains("uciok"));
        assert!(s.line("position startpos moves h2e2"));
        assert!(s.line("go depth 4"));
        let t = Instant::now();
        while !out.text().contains("bestmove") && t.elapsed() < Duration::from_secs(30) {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(s.line("isready"));
        let text = out.text();
        assert!(text.contains("info depth 4 "), "{text}");
        assert!(
            text.contains("\nbestmove ") && text.ends_with("readyok\n"),
            "{text}"
        );
        assert!(!s.line("quit"));
        assert!(!s.line("isready"), "nothing after quit");
        assert!(out.text().ends_with("readyok\n"));
    }
}
