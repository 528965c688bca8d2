//! The flags and counters the search threads share with the controller:
//! stop, pondering, node and table-hit counts, and the wait of a finished
//! search for `stop` or `ponderhit`.

use super::limits::{Interrupt, InterruptHook};
use crate::sync::lock;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex};

/// How long a finished search that waits for `stop` lets the host block
/// per poll.
const RELEASE_POLL_MS: u32 = 20;

/// The flags and counters the search threads share with the controller.
/// One set serves every search of an engine; `reset` starts a new one.
pub(crate) struct Shared {
    /// The search threads stop: set by `stop`, by a limit, and by the main
    /// thread as it ends (to stop the helpers).
    pub stop: AtomicBool,
    /// True while pondering; `ponderhit` clears it and the clock applies.
    pub pondering: AtomicBool,
    /// Nodes of all threads, flushed in batches.
    pub nodes: AtomicU64,
    /// Endgame table hits of all threads.
    pub tbhits: AtomicU64,
    /// The controller said `stop` (unlike `stop`, which the search sets
    /// itself as it ends). Guards the wake-ups of `released`.
    told_to_stop: Mutex<bool>,
    /// Signalled on `stop` and `ponderhit`.
    released: Condvar,
    /// Polled by the main search thread, where nothing else can set the
    /// flags while the search runs (a wasm build, whose search runs inside
    /// the call that started it).
    interrupt: Option<InterruptHook>,
}

impl Shared {
    pub(crate) fn new() -> Shared {
        Shared::with_interrupt(None)
    }

    pub(crate) fn with_interrupt(interrupt: Option<InterruptHook>) -> Shared {
        Shared {
            interrupt,
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            tbhits: AtomicU64::new(0),
            told_to_stop: Mutex::new(false),
            released: Condvar::new(),
        }
    }

    /// Ready for a new search (or perft): not stopped, no nodes yet.
    pub(crate) fn reset(&self, ponder: bool) {
        self.stop.store(false, Ordering::Relaxed);
        self.pondering.store(ponder, Ordering::Relaxed);
        self.nodes.store(0, Ordering::Relaxed);
        self.tbhits.store(0, Ordering::Relaxed);
        *lock(&self.told_to_stop) = false;
    }

    /// `stop`: the threads stop, pondering ends, and an answer held back
    /// by `wait_for_release` is given.
    pub(crate) fn request_stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
        self.pondering.store(false, Ordering::Relaxed);
        *lock(&self.told_to_stop) = true;
        self.released.notify_all();
    }

    /// `ponderhit`: pondering ends (the clock applies from now on), and an
    /// answer held back only because of pondering is given.
    pub(crate) fn ponderhit(&self) {
        self.pondering.store(false, Ordering::Relaxed);
        // Taking the lock orders this with a waiter's check of `pondering`.
        let _guard = lock(&self.told_to_stop);
        self.released.notify_all();
    }

    /// Ask the interrupt hook, if any, what the host was sent, and act on
    /// it as `stop` or `ponderhit` would.
    pub(crate) fn poll_interrupt(&self, block_ms: u32) {
        if let Some(poll) = self.interrupt {
            match poll(block_ms) {
                Interrupt::None => {}
                Interrupt::Stop => self.request_stop(),
                Interrupt::PonderHit => self.ponderhit(),
            }
        }
    }

    /// Wait, parked, until the answer of a finished search may be given:
    /// at once, unless `wait_for_stop` (until `stop`) or pondering (until
    /// `ponderhit` or `stop`). With an interrupt hook nobody else can wake
    /// this thread, so it polls the hook instead.
    pub(crate) fn wait_for_release(&self, wait_for_stop: bool) {
        let mut told = lock(&self.told_to_stop);
        while !*told && (wait_for_stop || self.pondering.load(Ordering::Relaxed)) {
            if self.interrupt.is_some() {
                // Unlocked while polling: `stop` and `ponderhit` take the lock.
                drop(told);
                self.poll_interrupt(RELEASE_POLL_MS);
                told = lock(&self.told_to_stop);
            } else {
                told = self.released.wait(told).unwrap_or_else(|p| p.into_inner());
            }
        }
    }
}
