//! Small synchronisation helpers shared by the thread pool, the controller
//! and the search: a latch that counts finished tasks, and a mutex lock that
//! survives a panicked holder.

use std::sync::{Arc, Condvar, Mutex, MutexGuard};

/// A countdown: `wait` returns once `count_down` was called `n` times.
pub(crate) struct Latch {
    left: Mutex<usize>,
    zero: Condvar,
}

impl Latch {
    pub(crate) fn new(n: usize) -> Latch {
        Latch {
            left: Mutex::new(n),
            zero: Condvar::new(),
        }
    }

    pub(crate) fn count_down(&self) {
        let mut left = lock(&self.left);
        *left = left.saturating_sub(1);
        if *left == 0 {
            self.zero.notify_all();
        }
    }

    pub(crate) fn wait(&self) {
        let mut left = lock(&self.left);
        while *left > 0 {
            left = self.zero.wait(left).unwrap_or_else(|p| p.into_inner());
        }
    }
}

/// Counts a latch down when dropped: when its task ends, however it ends.
pub(crate) struct CountDown(pub Arc<Latch>);

impl Drop for CountDown {
    fn drop(&mut self) {
        self.0.count_down();
    }
}

/// Lock a mutex, recovering the data if a thread panicked while holding it.
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}
