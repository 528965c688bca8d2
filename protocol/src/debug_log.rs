//! The debug log (UCI `Debug Log File`, UCCI `debuglogfile`): a copy of
//! every line the engine reads, marked `>> `, and writes, marked `<< `, as
//! Stockfish writes its log, appended to a file. Lines in are logged as the
//! command loop receives them, lines out as `Output` writes them (every
//! line out goes through `Output`), so the log has them in order.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// The log file, if one is open.
#[derive(Default)]
pub struct DebugLog {
    file: Mutex<Option<File>>,
    /// A file is open (checked without the lock when there is none).
    open: AtomicBool,
}

impl DebugLog {
    /// Log to `path` from now on, appending; an empty path closes the log.
    /// If the file cannot be opened, the log stays as it was.
    pub fn set(&self, path: impl AsRef<Path>) -> Result<(), String> {
        let path = path.as_ref();
        let new = if path.as_os_str().is_empty() {
            None
        } else {
            let f = OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("cannot open debug log file '{}': {e}", path.display()))?;
            Some(f)
        };
        let mut file = self.file.lock().unwrap_or_else(|p| p.into_inner());
        self.open.store(new.is_some(), Ordering::Relaxed);
        *file = new;
        Ok(())
    }

    /// A line the engine read.
    pub fn input(&self, line: &str) {
        self.write(">> ", line);
    }

    /// A line the engine wrote.
    pub fn output(&self, line: &str) {
        self.write("<< ", line);
    }

    fn write(&self, mark: &str, line: &str) {
        if !self.open.load(Ordering::Relaxed) {
            return;
        }
        let mut file = self.file.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(f) = file.as_mut() {
            // One write per line, so that a crash loses no more than it.
            let _ = f.write_all(format!("{mark}{line}\n").as_bytes());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logs_both_directions_and_closes() {
        let dir = std::env::temp_dir().join(format!("jj-debuglog-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("log.txt");
        let _ = std::fs::remove_file(&path);
        let log = DebugLog::default();
        log.input("not logged");
        log.set(path.to_str().unwrap()).unwrap();
        log.input("isready");
        log.output("readyok");
        log.set("").unwrap();
        log.output("not logged either");
        // Appends.
        log.set(path.to_str().unwrap()).unwrap();
        log.input("quit");
        log.set("").unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text, ">> isready\n<< readyok\n>> quit\n");
        // A file that cannot be opened leaves the log as it was.
        log.set(path.to_str().unwrap()).unwrap();
        assert!(
            log.set(dir.join("no/such/dir/x.log").to_str().unwrap())
                .is_err()
        );
        log.output("still here");
        log.set("").unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.ends_with("<< still here\n"), "{text}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
