//! The helper search threads of the threaded build (shared memory,
//! atomics): std cannot start a thread on `wasm32-unknown-unknown`, so the
//! engine's spawner asks the host (`jj_spawn`), which starts a Web Worker,
//! instantiates this module in it on the same memory, points its stack and
//! thread-local block at the region given here and calls `jj_thread_start`.
//!
//! Each thread gets a slot: its stack region and a state word the spawner
//! and the new thread hand the closure over with. A slot is used again
//! only once its thread has returned to the host (the host sets `ENDED`
//! after `jj_thread_start` returns, when nothing runs on that stack).

use crate::host;
use std::arch::wasm32::{memory_atomic_notify, memory_atomic_wait32};
use std::sync::Mutex;
use std::sync::atomic::{AtomicI32, Ordering};

/// Stack (and thread-local block, at its low end) of a helper: the search
/// recurses up to `MAX_PLY` deep, as on native threads' 16 MB stacks.
const REGION: usize = 16 << 20;
/// Threads running at once, at most (each holds a 16 MB region).
const MAX_LIVE: usize = 31;
/// How long the spawner waits for the host to start a thread.
const START_TIMEOUT_NS: i64 = 30_000_000_000;

/// Slot states. The host sets `ENDED` (or `ABANDONED`, if it could not
/// start the thread) with `Atomics.store` and wakes the spawner.
const SPAWNED: i32 = 0;
const RUNNING: i32 = 1;
const ENDED: i32 = 2;
const ABANDONED: i32 = 3;

type Job = Box<dyn FnOnce() + Send>;

struct Slot {
    state: AtomicI32,
    job: Mutex<Option<Job>>,
    /// Start of the region (16-byte aligned, `REGION` bytes).
    region: usize,
}

/// Every slot made (they are never freed: an abandoned one may still be
/// entered by a late worker).
static SLOTS: Mutex<Vec<&'static Slot>> = Mutex::new(Vec::new());

fn error(text: &str) -> std::io::Error {
    std::io::Error::other(text.to_string())
}

/// A free slot, or a new one, holding `job`; an error if too many threads
/// live or memory is short.
fn slot(job: Job) -> Result<&'static Slot, std::io::Error> {
    let mut slots = crate::lock(&SLOTS);
    let live = (slots.iter())
        .filter(|s| matches!(s.state.load(Ordering::Acquire), SPAWNED | RUNNING))
        .count();
    if live >= MAX_LIVE {
        return Err(error(&format!("at most {} threads here", MAX_LIVE + 1)));
    }
    if let Some(s) = slots
        .iter()
        .find(|s| s.state.load(Ordering::Acquire) == ENDED)
    {
        *crate::lock(&s.job) = Some(job);
        s.state.store(SPAWNED, Ordering::Release);
        return Ok(s);
    }
    let layout = std::alloc::Layout::from_size_align(REGION, 16).map_err(|_| error("layout"))?;
    // SAFETY: the layout has a non-zero size; a null result is handled.
    let region = unsafe { std::alloc::alloc(layout) };
    if region.is_null() {
        return Err(error("out of memory for a thread's stack"));
    }
    let s: &'static Slot = Box::leak(Box::new(Slot {
        state: AtomicI32::new(SPAWNED),
        job: Mutex::new(Some(job)),
        region: region as usize,
    }));
    slots.push(s);
    Ok(s)
}

/// The engine's `ThreadSpawner`: run `job` on a new host thread, once the
/// host says it runs (an error if it cannot start one in time).
pub fn spawn(job: Job) -> std::io::Result<()> {
    let s = slot(job)?;
    let state = s.state.as_ptr();
    if host::spawn(s as *const Slot as usize, state as usize, s.region, REGION) != 0 {
        s.state.store(ABANDONED, Ordering::Release);
        crate::lock(&s.job).take();
        return Err(error("the host cannot start threads"));
    }
    loop {
        match s.state.load(Ordering::Acquire) {
            RUNNING | ENDED => return Ok(()),
            SPAWNED => {}
            _ => {
                crate::lock(&s.job).take();
                return Err(error("the host could not start a thread"));
            }
        }
        // SAFETY: `state` points at a live atomic i32 (slots are never
        // freed); the wait only reads it.
        let woke = unsafe { memory_atomic_wait32(state, SPAWNED, START_TIMEOUT_NS) };
        if woke == 2
            && (s.state)
                .compare_exchange(SPAWNED, ABANDONED, Ordering::AcqRel, Ordering::Acquire)
                .is_ok()
        {
            crate::lock(&s.job).take();
            return Err(error("the host did not start a thread in time"));
        }
    }
}

/// Entry of a host thread, on the stack and thread-local block the host
/// set up in the slot's region: run the slot's job, if the spawner has not
/// given up on it.
#[unsafe(no_mangle)]
pub extern "C" fn jj_thread_start(slot: usize) {
    // SAFETY: `slot` is the address `spawn` gave the host, of a leaked
    // (never freed) `Slot`.
    let s = unsafe { &*(slot as *const Slot) };
    if (s.state)
        .compare_exchange(SPAWNED, RUNNING, Ordering::AcqRel, Ordering::Acquire)
        .is_err()
    {
        return;
    }
    // SAFETY: the state word is a live atomic i32; waking has no effect
    // beyond the waiting spawner.
    unsafe { memory_atomic_notify(s.state.as_ptr(), 1) };
    let job = crate::lock(&s.job).take();
    if let Some(job) = job {
        job();
    }
}
