//! The engine's threads: created once (again only when their number
//! changes) and parked on a channel between tasks. Each owns its per-thread
//! tables (`ThreadData`), which stay with it from one search to the next.
//! Thread 0 is the main search thread; it also runs perft jobs.

use crate::search::ThreadData;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc::{Sender, channel};
use std::thread::{JoinHandle, ThreadId};

/// Stack of every engine thread: the search recurses up to `MAX_PLY` deep.
const STACK_SIZE: usize = 16 << 20;

/// Work for one thread, given its tables.
pub(crate) type Task = Box<dyn FnOnce(&mut ThreadData) + Send>;

struct EngineThread {
    tasks: Sender<Task>,
    /// Gives back the thread's tables when it ends.
    handle: JoinHandle<ThreadData>,
}

pub(crate) struct ThreadPool {
    threads: Vec<EngineThread>,
    /// Tables of threads removed by a resize, for when they come back:
    /// thread `i` always gets the tables thread `i` had.
    spare: Vec<ThreadData>,
}

impl ThreadPool {
    /// `n` threads (at least one).
    pub(crate) fn new(n: usize) -> std::io::Result<ThreadPool> {
        let mut pool = ThreadPool {
            threads: Vec::new(),
            spare: Vec::new(),
        };
        pool.resize(n)?;
        Ok(pool)
    }

    pub(crate) fn len(&self) -> usize {
        self.threads.len()
    }

    /// Make it `n` threads (at least one). Threads end only here (and when
    /// the pool is dropped); any change re-creates them all. Call it only
    /// while no task runs: the threads finish their tasks first.
    pub(crate) fn resize(&mut self, n: usize) -> std::io::Result<()> {
        let n = n.max(1);
        if n == self.threads.len() {
            return Ok(());
        }
        let mut tables = self.join_all();
        tables.append(&mut self.spare);
        while tables.len() < n {
            tables.push(ThreadData::default());
        }
        self.spare = tables.split_off(n);
        for (i, data) in tables.into_iter().enumerate() {
            match spawn(i, data) {
                Ok(t) => self.threads.push(t),
                Err(e) => {
                    // Keep the threads started so far (at least one if we can).
                    if self.threads.is_empty() {
                        self.threads.push(spawn(0, ThreadData::default())?);
                    }
                    return Err(e);
                }
            }
        }
        Ok(())
    }

    /// Give `task` to thread `i`; it runs after the tasks given before.
    pub(crate) fn run(&self, i: usize, task: Task) {
        // A thread only ends when its sender is dropped, so this succeeds.
        let _ = self.threads[i].tasks.send(task);
    }

    /// Clear every thread's tables (before the next task of each).
    pub(crate) fn clear(&mut self) {
        for i in 0..self.threads.len() {
            self.run(i, Box::new(|data: &mut ThreadData| data.clear()));
        }
        for data in &mut self.spare {
            data.clear();
        }
    }

    pub(crate) fn thread_ids(&self) -> Vec<ThreadId> {
        self.threads
            .iter()
            .map(|t| t.handle.thread().id())
            .collect()
    }

    /// End every thread (after its tasks) and take back the tables.
    fn join_all(&mut self) -> Vec<ThreadData> {
        self.threads
            .drain(..)
            .map(|t| {
                drop(t.tasks);
                t.handle.join().unwrap_or_default()
            })
            .collect()
    }
}

impl Drop for ThreadPool {
    fn drop(&mut self) {
        self.join_all();
    }
}

fn spawn(i: usize, mut data: ThreadData) -> std::io::Result<EngineThread> {
    let (tasks, rx) = channel::<Task>();
    let handle = std::thread::Builder::new()
        .name(format!("search-{i}"))
        .stack_size(STACK_SIZE)
        .spawn(move || {
            // Parked in `recv` until a task comes; ends when the pool drops the sender.
            while let Ok(task) = rx.recv() {
                // A task that panics (only in builds that unwind) must not
                // take the thread with it: the tasks' guards have already
                // told whoever waits for it.
                let _ = catch_unwind(AssertUnwindSafe(|| task(&mut data)));
            }
            data
        })?;
    Ok(EngineThread { tasks, handle })
}
