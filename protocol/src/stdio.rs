//! The process's stdin and stdout, as the engine reads and writes them.
//!
//! On Windows a GUI or a match runner hands the engine pipes (or files),
//! and those are used as plain file handles. The standard library's
//! `Stdin` and `Stdout` ask, on every read and every write, whether the
//! handle is a console (`GetConsoleMode`), to convert text for it. Under
//! Wine that question is a round trip to the wine server, one process
//! shared by every Windows program of the prefix: when the server waits for
//! a CPU, so does each line the search thread prints (and each read of a
//! command), and a search blocked in a write neither checks its clock nor
//! answers. With the machine's cores busy, that cost the engine games on
//! time. Asked once here, the question costs nothing later. A console keeps
//! the standard library's handling, and other systems keep their `Stdin`
//! and `Stdout`, which read and write directly.

use std::io::{Read, Write};

/// Where the command lines come from (read on the reader thread).
pub fn input() -> Box<dyn Read> {
    #[cfg(windows)]
    {
        if let Some(file) = windows::pipe_or_file(&std::io::stdin()) {
            return Box::new(file);
        }
    }
    Box::new(std::io::stdin().lock())
}

/// Where the answers go. [`crate::output::Output`] writes whole lines and
/// flushes after each, so a buffered file writes each line with one call.
pub fn output() -> Box<dyn Write + Send> {
    #[cfg(windows)]
    {
        if let Some(file) = windows::pipe_or_file(&std::io::stdout()) {
            return Box::new(std::io::BufWriter::new(file));
        }
    }
    Box::new(std::io::stdout())
}

#[cfg(windows)]
mod windows {
    use std::fs::File;
    use std::io::IsTerminal;
    use std::os::windows::io::AsHandle;

    /// The standard handle `stream` as a file of its own (a duplicate of
    /// the handle), unless it is a console or there is none.
    pub fn pipe_or_file(stream: &(impl AsHandle + IsTerminal)) -> Option<File> {
        if stream.is_terminal() {
            return None;
        }
        stream.as_handle().try_clone_to_owned().ok().map(File::from)
    }
}
