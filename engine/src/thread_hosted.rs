//! The engine's threads in a threaded `wasm32-unknown-unknown` build (shared
//! memory, atomics), where std cannot start a thread but the host can (a
//! Web Worker on the same memory). Thread 0, the main search thread, is the
//! caller's, as in the one-thread build: a task given to it runs at once,
//! inside `run`, after the helpers' tasks were handed out. The Lazy SMP
//! helpers (1 and up) are threads the host starts through the spawner it
//! installs (`set_spawner`); each is parked on a channel between tasks, as
//! natively. Without a spawner the pool has one thread.

use crate::search::ThreadData;
use std::cell::RefCell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::OnceLock;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::ThreadId;

/// Work for one thread, given its tables.
pub(crate) type Task = Box<dyn FnOnce(&mut ThreadData) + Send>;

/// Runs a closure on a new thread of the host's; an error if it cannot
/// (the closure is then dropped, not run).
pub type ThreadSpawner = fn(Box<dyn FnOnce() + Send>) -> std::io::Result<()>;

static SPAWNER: OnceLock<ThreadSpawner> = OnceLock::new();

/// Start helper threads with `spawner` from now on (the first call wins).
pub fn set_spawner(spawner: ThreadSpawner) {
    let _ = SPAWNER.set(spawner);
}

struct Helper {
    tasks: Sender<Task>,
    /// Gives back the helper's tables when it ends.
    ended: Receiver<ThreadData>,
}

pub(crate) struct ThreadPool {
    /// The tables of thread 0, the caller's.
    main: RefCell<ThreadData>,
    /// Threads 1 and up.
    helpers: Vec<Helper>,
    /// Tables of helpers removed by a resize, for when they come back.
    spare: Vec<ThreadData>,
}

impl ThreadPool {
    /// `n` threads (at least one).
    pub(crate) fn new(n: usize) -> std::io::Result<ThreadPool> {
        let mut pool = ThreadPool {
            main: RefCell::new(ThreadData::default()),
            helpers: Vec::new(),
            spare: Vec::new(),
        };
        pool.resize(n)?;
        Ok(pool)
    }

    pub(crate) fn len(&self) -> usize {
        1 + self.helpers.len()
    }

    /// Make it `n` threads (at least one); any change re-creates the
    /// helpers. An error if the host cannot start them (those it started
    /// are kept).
    pub(crate) fn resize(&mut self, n: usize) -> std::io::Result<()> {
        let n = n.max(1);
        if n == self.len() {
            return Ok(());
        }
        let mut tables = self.join_all();
        tables.append(&mut self.spare);
        while tables.len() < n - 1 {
            tables.push(ThreadData::default());
        }
        self.spare = tables.split_off(n - 1);
        let Some(spawner) = SPAWNER.get() else {
            self.spare.append(&mut tables);
            return Err(std::io::Error::new(
                std::io::ErrorKind::Unsupported,
                "this build searches on one thread",
            ));
        };
        for data in tables {
            self.helpers.push(spawn(*spawner, data)?);
        }
        Ok(())
    }

    /// Give `task` to thread `i`. Thread 0's runs now, on the caller's
    /// thread; a helper's runs after the tasks given to it before.
    pub(crate) fn run(&self, i: usize, task: Task) {
        if i == 0 {
            // Tasks never start tasks, so the tables are free.
            task(&mut self.main.borrow_mut());
        } else {
            // A helper only ends when its sender is dropped, so this succeeds.
            let _ = self.helpers[i - 1].tasks.send(task);
        }
    }

    /// Clear every thread's tables (before the next task of each).
    pub(crate) fn clear(&mut self) {
        self.main.get_mut().clear();
        for i in 1..self.len() {
            self.run(i, Box::new(|data: &mut ThreadData| data.clear()));
        }
        for data in &mut self.spare {
            data.clear();
        }
    }

    /// Only thread 0's id: the host's threads are not std's to name.
    pub(crate) fn thread_ids(&self) -> Vec<ThreadId> {
        vec![std::thread::current().id()]
    }

    /// End every helper (after its tasks) and take back the tables.
    fn join_all(&mut self) -> Vec<ThreadData> {
        self.helpers
            .drain(..)
            .map(|h| {
                drop(h.tasks);
                h.ended.recv().unwrap_or_default()
            })
            .collect()
    }
}

impl Drop for ThreadPool {
    fn drop(&mut self) {
        self.join_all();
    }
}

fn spawn(spawner: ThreadSpawner, mut data: ThreadData) -> std::io::Result<Helper> {
    let (tasks, rx) = channel::<Task>();
    let (give_back, ended) = channel::<ThreadData>();
    spawner(Box::new(move || {
        // Parked in `recv` until a task comes; ends when the pool drops the sender.
        while let Ok(task) = rx.recv() {
            // As natively: a task that panics must not take the thread with it.
            let _ = catch_unwind(AssertUnwindSafe(|| task(&mut data)));
        }
        let _ = give_back.send(data);
    }))?;
    Ok(Helper { tasks, ended })
}
