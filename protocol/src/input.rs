//! The stdin reader: lines of input as events for the command loop, with
//! every line ending clients use and bounded memory.

use super::encoding::Line;
use std::io::{BufRead, Read};
use std::sync::mpsc::Sender;

/// Longest accepted line; the rest of a longer line is discarded.
pub const MAX_LINE: usize = 1 << 20;

pub enum Event {
    Line(Line),
    /// A line longer than `MAX_LINE` was cut.
    Overlong(usize),
    /// The search (or perft) with this id has printed its answer.
    SearchDone(u64),
    Eof,
}

/// Read lines from `input` and send them as events. A line ends with `\n`,
/// `\r\n` or a bare `\r` (old Mac-style clients, some Windows pipes); a
/// `\r\n` is one end even when its two bytes come in different reads, and a
/// line ended by `\r` is sent at once, without waiting for the next byte.
/// A line that is not UTF-8 is read as `Line::decode` says (the system's
/// ANSI code page on Windows; on Unix its bytes are kept for a path in it);
/// lines are trimmed. Memory stays
/// bounded: of a line longer than `MAX_LINE` only its length is reported.
pub fn read_lines(input: impl Read, tx: Sender<Event>) {
    let mut reader = std::io::BufReader::new(input);
    // The last line ended with `\r`: a `\n` right after it is part of that end.
    let mut after_cr = false;
    loop {
        let mut buf = Vec::new();
        let mut total = 0usize;
        let mut eof = false;
        loop {
            let chunk = match reader.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => &[],
            };
            if chunk.is_empty() {
                eof = true;
                break;
            }
            let skip = (after_cr && chunk[0] == b'\n') as usize;
            after_cr = false;
            let rest = &chunk[skip..];
            let end = rest.iter().position(|&b| b == b'\n' || b == b'\r');
            let part = &rest[..end.unwrap_or(rest.len())];
            total += part.len();
            let room = MAX_LINE.saturating_sub(buf.len());
            buf.extend_from_slice(&part[..part.len().min(room)]);
            if let Some(i) = end {
                after_cr = rest[i] == b'\r';
            }
            let used = skip + part.len() + end.is_some() as usize;
            reader.consume(used);
            if end.is_some() {
                break;
            }
        }
        if eof && total == 0 {
            let _ = tx.send(Event::Eof);
            return;
        }
        let event = if total > MAX_LINE {
            Event::Overlong(total)
        } else {
            let line = Line::decode(&buf);
            log::debug!(">> {}", line.text);
            Event::Line(line)
        };
        if tx.send(event).is_err() {
            return;
        }
        if eof {
            let _ = tx.send(Event::Eof);
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;
    use std::sync::mpsc::channel;

    /// Input that arrives in the given pieces, one per read.
    struct Pieces(VecDeque<Vec<u8>>);

    impl Read for Pieces {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            let Some(mut piece) = self.0.pop_front() else {
                return Ok(0);
            };
            let n = piece.len().min(out.len());
            out[..n].copy_from_slice(&piece[..n]);
            if n < piece.len() {
                self.0.push_front(piece.split_off(n));
            }
            Ok(n)
        }
    }

    fn lines_of(pieces: &[&[u8]]) -> Vec<String> {
        let (tx, rx) = channel();
        read_lines(Pieces(pieces.iter().map(|p| p.to_vec()).collect()), tx);
        rx.into_iter()
            .map(|e| match e {
                Event::Line(l) => l.text,
                Event::Overlong(n) => format!("<{n} bytes>"),
                Event::Eof => "<eof>".into(),
                Event::SearchDone(_) => "<done>".into(),
            })
            .collect()
    }

    #[test]
    fn every_line_ending_ends_a_line() {
        let want = ["uci", "isready", "go", "<eof>"];
        assert_eq!(lines_of(&[b"uci\nisready\ngo\n"]), want);
        assert_eq!(lines_of(&[b"uci\r\nisready\r\ngo\r\n"]), want);
        assert_eq!(lines_of(&[b"uci\risready\rgo\r"]), want);
        assert_eq!(lines_of(&[b"uci\risready\r\ngo"]), want);
        // A `\r\n` split over two reads is still one end.
        assert_eq!(lines_of(&[b"uci\r", b"\nisready\r", b"\n", b"go\r"]), want);
        // Empty lines stay empty lines (the loop skips them).
        assert_eq!(
            lines_of(&[b"uci\r\rgo\n\n"]),
            ["uci", "", "go", "", "<eof>"]
        );
        assert_eq!(lines_of(&[b"uci\r\n\r\n"]), ["uci", "", "<eof>"]);
    }

    #[test]
    fn a_line_ended_by_cr_is_sent_before_more_input() {
        // The reader must not wait for the byte after the `\r`.
        let (tx, rx) = channel();
        let (r, mut w) = std::io::pipe().expect("a pipe");
        let reader = std::thread::spawn(move || read_lines(r, tx));
        std::io::Write::write_all(&mut w, b"isready\r").unwrap();
        let first = rx.recv_timeout(std::time::Duration::from_secs(5));
        assert!(matches!(first, Ok(Event::Line(l)) if l.text == "isready"));
        drop(w);
        assert!(matches!(rx.recv(), Ok(Event::Eof)));
        reader.join().unwrap();
    }
}
