//! Reading the data files the options name (books, networks) safely.

use std::io::Read;
use std::path::Path;

/// The bytes of the regular file at `path`, at most `limit + 1` of them (so
/// the caller can tell a file over its limit). Anything else is refused
/// before a byte is read: a FIFO would block, and a device such as
/// `/dev/zero` would never end.
pub(crate) fn read_regular_file(path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    let mut bytes = Vec::with_capacity(meta.len().min(limit + 1) as usize);
    std::fs::File::open(path)?
        .take(limit + 1)
        .read_to_end(&mut bytes)?;
    Ok(bytes)
}
