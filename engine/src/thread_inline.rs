//! The engine's "threads" where there are none (`wasm32-unknown-unknown`):
//! one search thread, the caller's. A task runs at once, inside `run`, so
//! `Engine::go` returns with the answer given. Nothing can call `stop` while
//! it runs; a search is stopped from outside through the engine's interrupt
//! hook (`Engine::set_interrupt`), which the search polls.

use crate::search::ThreadData;
use std::cell::RefCell;
use std::thread::ThreadId;

/// Work for the thread, given its tables.
pub(crate) type Task = Box<dyn FnOnce(&mut ThreadData) + Send>;

pub(crate) struct ThreadPool {
    /// The tables of the one search thread.
    data: RefCell<ThreadData>,
}

impl ThreadPool {
    /// One thread; asked for more, the error of `resize`.
    pub(crate) fn new(n: usize) -> std::io::Result<ThreadPool> {
        let mut pool = ThreadPool {
            data: RefCell::new(ThreadData::default()),
        };
        pool.resize(n)?;
        Ok(pool)
    }

    pub(crate) fn len(&self) -> usize {
        1
    }

    /// Only one thread exists: any other number is an error (the caller
    /// reports it and goes on with one).
    pub(crate) fn resize(&mut self, n: usize) -> std::io::Result<()> {
        if n <= 1 {
            Ok(())
        } else {
            Err(std::io::Error::new(
                std::io::ErrorKind::Unsupported,
                "this build searches on one thread",
            ))
        }
    }

    /// Run `task` now, on the calling thread.
    pub(crate) fn run(&self, _i: usize, task: Task) {
        // Tasks never start tasks, so the tables are free.
        task(&mut *self.data.borrow_mut());
    }

    pub(crate) fn clear(&mut self) {
        self.data.get_mut().clear();
    }

    pub(crate) fn thread_ids(&self) -> Vec<ThreadId> {
        vec![std::thread::current().id()]
    }
}
