//! A line's bytes as text, and a path in it as the exact bytes the GUI
//! sent. Commands are ASCII, but a path-valued option (`BookFile`,
//! `TablebasePath`, `EvalFile`, `Debug Log File`) may come in the GUI's own
//! encoding: a Chinese GUI on Windows writes its ANSI code page (GBK, code
//! page 936), not UTF-8. ElephantEye and Pikafish hand those bytes to the
//! file system unchanged, and so must we:
//!
//! - a line that is UTF-8 is read as UTF-8, everywhere;
//! - on Windows, any other line is read in the system's ANSI code page
//!   (`GetACP`, `MultiByteToWideChar`), as the file system would read the
//!   same bytes given to the ANSI API: its text is then exact;
//! - on Unix, where a path is bytes, the line's text replaces what is not
//!   UTF-8 (for messages), and the line keeps its bytes, so that
//!   [`Line::path`] gives a path in it exactly as sent.

use std::borrow::Cow;
use std::path::PathBuf;

/// A line of input: its text, trimmed, and (on Unix, when they are not
/// UTF-8) its bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub text: String,
    /// The bytes `text` was read from, kept only when the text is not
    /// exactly them (bytes that are not UTF-8, on Unix).
    bytes: Option<Vec<u8>>,
}

impl From<&str> for Line {
    fn from(text: &str) -> Line {
        Line {
            text: text.to_string(),
            bytes: None,
        }
    }
}

impl Line {
    /// The line the bytes of `raw` (without its line end) make.
    pub fn decode(raw: &[u8]) -> Line {
        let raw = raw.trim_ascii();
        if let Ok(text) = std::str::from_utf8(raw) {
            return Line::from(text.trim());
        }
        #[cfg(windows)]
        {
            if let Some(text) = ansi::decode(raw) {
                return Line::from(text.trim());
            }
        }
        Line {
            text: String::from_utf8_lossy(raw).trim().to_string(),
            bytes: cfg!(unix).then(|| raw.to_vec()),
        }
    }

    /// The path that `part`, found in `value`, names. `value` is the value
    /// of a `setoption`: the line's last words, joined by single spaces
    /// (as the parser reads them), and `part` the piece of it an option
    /// keeps as its path (trimmed, or the first of a list). The path is
    /// what the GUI sent for that piece: the line's own text, its spaces
    /// and tabs as they were, and its bytes when the line kept them. A
    /// piece not found so is its text.
    pub fn path(&self, value: &str, part: &str) -> PathBuf {
        let Some((from, to)) = self.span_of(value, part) else {
            return PathBuf::from(part);
        };
        match self.exact_bytes(from, to) {
            Some(bytes) => path_from_bytes(bytes),
            None => PathBuf::from(&self.text[from..to]),
        }
    }

    /// Where in the text `part` of `value` was read from.
    fn span_of(&self, value: &str, part: &str) -> Option<(usize, usize)> {
        if part.is_empty() {
            return None;
        }
        let words: Vec<(usize, &str)> = self
            .text
            .split_whitespace()
            .map(|w| (w.as_ptr() as usize - self.text.as_ptr() as usize, w))
            .collect();
        let tail = &words[words.len().checked_sub(value.split_whitespace().count())?..];
        let joined: Vec<&str> = tail.iter().map(|&(_, w)| w).collect();
        if joined.join(" ") != value {
            return None;
        }
        let begin = value.find(part)?;
        let end = begin + part.len();
        // Offsets in `value` to offsets in the text, word by word.
        let (mut from, mut to, mut at) = (None, None, 0);
        for &(start, word) in tail {
            if (at..at + word.len()).contains(&begin) {
                from = Some(start + begin - at);
            }
            if end > at && end <= at + word.len() {
                to = Some(start + end - at);
            }
            at += word.len() + 1;
        }
        Some((from?, to?))
    }

    /// The bytes of the text's `from..to`, when the line kept its bytes.
    fn exact_bytes(&self, from: usize, to: usize) -> Option<Vec<u8>> {
        let raw = self.bytes.as_deref()?;
        // The text is the lossy reading of `raw`, less any whitespace the
        // trim took off its start.
        let lossy = String::from_utf8_lossy(raw);
        let lead = lossy.len() - lossy.trim_start().len();
        let from = raw_offset(raw, lead + from)?;
        let to = raw_offset(raw, lead + to)?;
        Some(raw[from..to].to_vec())
    }
}

/// Where the byte `text_offset` of `String::from_utf8_lossy(raw)` comes
/// from in `raw`: the valid parts are the same bytes, and each invalid run
/// is one U+FFFD (3 bytes of text). None inside a U+FFFD or past the end.
fn raw_offset(raw: &[u8], text_offset: usize) -> Option<usize> {
    const REPLACEMENT_LEN: usize = '\u{FFFD}'.len_utf8();
    let (mut text, mut bytes) = (0, 0);
    for chunk in raw.utf8_chunks() {
        if text_offset < text {
            return None;
        }
        let valid = chunk.valid().len();
        if text_offset <= text + valid {
            return Some(bytes + text_offset - text);
        }
        text += valid;
        bytes += valid;
        if !chunk.invalid().is_empty() {
            text += REPLACEMENT_LEN;
            bytes += chunk.invalid().len();
        }
    }
    (text_offset == text).then_some(bytes)
}

/// `text`, which names `path` as the path displays (its bytes that are not
/// UTF-8 replaced), with each such mention written as the path's own bytes:
/// a message about a path the GUI sent in its encoding (GBK) gives it back
/// in that encoding, which the GUI then shows as it showed its own.
pub fn with_path_as_sent<'a>(text: &'a str, path: &std::path::Path) -> Cow<'a, [u8]> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        if path.to_str().is_none() {
            let shown = path.to_string_lossy();
            let mut out = Vec::with_capacity(text.len());
            let mut pieces = text.split(shown.as_ref());
            if let Some(first) = pieces.next() {
                out.extend_from_slice(first.as_bytes());
            }
            for piece in pieces {
                out.extend_from_slice(path.as_os_str().as_bytes());
                out.extend_from_slice(piece.as_bytes());
            }
            return Cow::Owned(out);
        }
    }
    let _ = path;
    Cow::Borrowed(text.as_bytes())
}

#[cfg(unix)]
fn path_from_bytes(bytes: Vec<u8>) -> PathBuf {
    use std::os::unix::ffi::OsStringExt;
    PathBuf::from(std::ffi::OsString::from_vec(bytes))
}

/// Never called: only Unix keeps a line's bytes.
#[cfg(not(unix))]
fn path_from_bytes(bytes: Vec<u8>) -> PathBuf {
    PathBuf::from(String::from_utf8_lossy(&bytes).into_owned())
}

/// Windows' ANSI code page, through kernel32 (linked by every Windows
/// program): the encoding a program using the ANSI API (`CreateFileA`, a
/// C runtime's narrow `fopen`) writes its paths in.
#[cfg(windows)]
mod ansi {
    use std::ffi::OsString;
    use std::os::windows::ffi::OsStringExt;

    #[link(name = "kernel32")]
    unsafe extern "system" {
        /// The system's ANSI code page (936 on a Simplified Chinese system).
        fn GetACP() -> u32;
        /// Converts `len` bytes at `src` in code page `page` to UTF-16 at
        /// `dst` (room for `dst_len` units); with `dst_len` 0 it only
        /// counts them. Returns the units written (counted), 0 on failure.
        fn MultiByteToWideChar(
            page: u32,
            flags: u32,
            src: *const u8,
            len: i32,
            dst: *mut u16,
            dst_len: i32,
        ) -> i32;
    }

    /// `bytes` read in the ANSI code page, if the conversion succeeds and
    /// makes Unicode text.
    pub fn decode(bytes: &[u8]) -> Option<String> {
        let len = i32::try_from(bytes.len()).ok()?;
        if len == 0 {
            return Some(String::new());
        }
        // SAFETY: GetACP takes no argument and only reads a system setting.
        let page = unsafe { GetACP() };
        // SAFETY: `bytes` is valid for `len` bytes; a null destination with
        // length 0 asks only for the count, nothing is written.
        let units =
            unsafe { MultiByteToWideChar(page, 0, bytes.as_ptr(), len, std::ptr::null_mut(), 0) };
        let mut wide = vec![0u16; usize::try_from(units).ok().filter(|&n| n > 0)?];
        // SAFETY: `bytes` is valid for `len` bytes and `wide` has room for
        // exactly `units` UTF-16 units, the count the call above gave.
        let written =
            unsafe { MultiByteToWideChar(page, 0, bytes.as_ptr(), len, wide.as_mut_ptr(), units) };
        wide.truncate(usize::try_from(written).ok().filter(|&n| n > 0)?);
        OsString::from_wide(&wide).into_string().ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_lines_are_their_text() {
        let line = Line::decode(" setoption name BookFile value /书/a.dat \t".as_bytes());
        assert_eq!(line, Line::from("setoption name BookFile value /书/a.dat"));
        assert_eq!(
            line.path("/书/a.dat", "/书/a.dat"),
            PathBuf::from("/书/a.dat")
        );
        // A path keeps the spaces the parser's words lose.
        let line = Line::decode("setoption bookfiles /a  b\u{3000}c/x.dat;y.dat".as_bytes());
        let value = "/a b c/x.dat;y.dat";
        assert_eq!(
            line.path(value, "/a b c/x.dat"),
            PathBuf::from("/a  b\u{3000}c/x.dat")
        );
        assert_eq!(
            line.path(value, value),
            PathBuf::from("/a  b\u{3000}c/x.dat;y.dat")
        );
        // A piece not in the line's value is its text.
        assert_eq!(line.path("other", "other"), PathBuf::from("other"));
        assert_eq!(line.path(value, "zz"), PathBuf::from("zz"));
    }

    #[cfg(unix)]
    #[test]
    fn a_path_in_another_encoding_keeps_its_bytes() {
        use std::os::unix::ffi::OsStrExt;
        // "象棋 书库" in GBK (code page 936): not UTF-8.
        let gbk_folder = b"\xcf\xf3\xc6\xe5 \xca\xe9\xbf\xe2";
        let path = [b"/tmp/".as_slice(), gbk_folder, b"/BOOK.DAT"].concat();
        let mut raw = b"  setoption bookfiles ".to_vec();
        raw.extend_from_slice(&path);
        raw.extend_from_slice(b" ; other.dat ");
        let line = Line::decode(&raw);
        // The text reads it lossily (for messages)...
        assert!(line.text.starts_with("setoption bookfiles /tmp/\u{FFFD}"));
        let words: Vec<&str> = line.text.split_whitespace().skip(2).collect();
        let value = words.join(" ");
        let first = value.split(';').next().unwrap().trim();
        // ...the path is the bytes sent, the whole value's or a piece's.
        assert_eq!(line.path(&value, first).as_os_str().as_bytes(), path);
        assert_eq!(
            line.path(&value, &value).as_os_str().as_bytes(),
            &raw[22..raw.len() - 1]
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_message_gives_a_path_back_in_its_bytes() {
        use std::os::unix::ffi::OsStrExt;
        let gbk = b"/tmp/\xcf\xf3\xc6\xe5/BOOK.DAT";
        let path = path_from_bytes(gbk.to_vec());
        let text = format!("{}: missing; {} again", path.display(), path.display());
        let want = [gbk.as_slice(), b": missing; ", gbk, b" again"].concat();
        assert_eq!(with_path_as_sent(&text, &path).as_ref(), want.as_slice());
        assert_eq!(path.as_os_str().as_bytes(), gbk);
        // A UTF-8 path is the text as it is.
        let path = PathBuf::from("/书/a.dat");
        let text = format!("{}: missing", path.display());
        assert_eq!(with_path_as_sent(&text, &path).as_ref(), text.as_bytes());
    }

    #[test]
    fn offsets_map_through_replacements() {
        let raw = b"a\xffb\xe4\xb8c";
        assert_eq!(String::from_utf8_lossy(raw), "a\u{FFFD}b\u{FFFD}c");
        assert_eq!(raw_offset(raw, 0), Some(0));
        assert_eq!(raw_offset(raw, 1), Some(1));
        assert_eq!(raw_offset(raw, 4), Some(2));
        assert_eq!(raw_offset(raw, 5), Some(3));
        assert_eq!(raw_offset(raw, 8), Some(5));
        assert_eq!(raw_offset(raw, 9), Some(6));
        assert_eq!(raw_offset(raw, 2), None);
        assert_eq!(raw_offset(raw, 10), None);
    }
}
