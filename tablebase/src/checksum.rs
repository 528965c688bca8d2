//! FNV-1a 64, the table files' checksum and the key of the table set's
//! material map: a leaf that the file format and the table set both read.

/// The FNV-1a 64 hash of `bytes`, continuing from `h`.
pub(crate) fn fnv(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x100_0000_01b3);
    }
    h
}
/// FNV-1a 64's starting value.
pub(crate) const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;
