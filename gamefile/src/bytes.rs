//! A cursor over a file's bytes whose every read is checked: a read past the
//! end is a [`FormatError::Truncated`], never a panic or an out-of-range slice.

use crate::error::FormatError;

/// Reads little-endian fields one after the other.
pub(crate) struct Cursor<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(data: &'a [u8]) -> Cursor<'a> {
        Cursor { data, pos: 0 }
    }

    /// The next `n` bytes.
    pub(crate) fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], FormatError> {
        let end = self.pos.checked_add(n);
        match end.and_then(|end| self.data.get(self.pos..end)) {
            Some(s) => {
                self.pos += n;
                Ok(s)
            }
            None => Err(FormatError::Truncated {
                what,
                at: self.pos,
                need: n,
                len: self.data.len(),
            }),
        }
    }

    /// The next four bytes as a fixed array.
    pub(crate) fn take4(&mut self, what: &'static str) -> Result<[u8; 4], FormatError> {
        let s = self.take(4, what)?;
        let mut out = [0u8; 4];
        out.copy_from_slice(s);
        Ok(out)
    }

    /// A little-endian signed 32-bit number.
    pub(crate) fn i32(&mut self, what: &'static str) -> Result<i32, FormatError> {
        Ok(i32::from_le_bytes(self.take4(what)?))
    }
}

/// `data[at..at + n]`, or the truncation error naming `what`.
pub(crate) fn field<'a>(
    data: &'a [u8],
    at: usize,
    n: usize,
    what: &'static str,
) -> Result<&'a [u8], FormatError> {
    let mut c = Cursor::new(data);
    c.pos = at;
    c.take(n, what)
}
