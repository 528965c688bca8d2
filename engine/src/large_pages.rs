//! Memory for the tables a search reads all over — the transposition table,
//! the network's first layer and the continuation history — in 2 MB pages
//! where the system gives them (Linux's transparent huge pages, asked for
//! with `madvise`), and in ordinary allocations everywhere else.
//!
//! Why: a search walks these tables at random, one or two reads per 4 KB page,
//! so with 4 KB pages nearly every read also walks the page tables. On a
//! virtual machine whose memory has sat untouched while the opponent thought,
//! that walk is far from free: the first read of each cold 4 KB page after
//! one second idle cost about 16 µs on the machine of
//! `notes/2026-11-29-huge-pages.md`, which turned a 5 ms move into a depth-1
//! search; in 2 MB pages the same table came back at once.

use std::alloc::Layout;
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// Where huge pages are asked for, the size of one.
const HUGE_PAGE: usize = 2 << 20;
/// Tables smaller than this stay in ordinary allocations: rounding them up
/// to a whole huge page would waste more than it saves.
const MIN_HUGE_BYTES: usize = 1 << 20;

/// Types for which all-zero bytes are a valid value.
///
/// # Safety
/// Implement only for types whose every field is an integer, an atomic
/// integer, or an array or struct of those.
pub(crate) unsafe trait Zeroable: Sized {}

// SAFETY: integers: zero bytes are the value 0.
unsafe impl Zeroable for i16 {}
// SAFETY: as above.
unsafe impl Zeroable for i8 {}

/// A fixed-length slice in memory of its own, in huge pages where possible.
pub(crate) struct LargeBuf<T: Zeroable> {
    ptr: NonNull<T>,
    len: usize,
    layout: Layout,
}

// SAFETY: `LargeBuf` owns its elements as `Box<[T]>` does.
unsafe impl<T: Zeroable + Send> Send for LargeBuf<T> {}
// SAFETY: shared access only hands out `&[T]`, as `Box<[T]>` does.
unsafe impl<T: Zeroable + Sync> Sync for LargeBuf<T> {}

impl<T: Zeroable> LargeBuf<T> {
    /// `len` zeroed elements, or `None` if the memory cannot be had.
    pub(crate) fn zeroed(len: usize) -> Option<LargeBuf<T>> {
        let bytes = len.checked_mul(size_of::<T>())?;
        let layout = if cfg!(target_os = "linux") && bytes >= MIN_HUGE_BYTES {
            let rounded = bytes.checked_next_multiple_of(HUGE_PAGE)?;
            Layout::from_size_align(rounded, HUGE_PAGE.max(align_of::<T>())).ok()?
        } else {
            Layout::array::<T>(len).ok()?
        };
        if layout.size() == 0 {
            return Some(LargeBuf {
                ptr: NonNull::dangling(),
                len,
                layout,
            });
        }
        // SAFETY: the layout's size is not zero (checked above).
        let raw = unsafe { std::alloc::alloc(layout) };
        let ptr = NonNull::new(raw)?;
        if layout.align() == HUGE_PAGE {
            advise_huge(raw, layout.size());
        }
        // Zeroed after the advice, so that the first touch of each page
        // already finds the huge-page request.
        // SAFETY: `raw` points to `layout.size()` writable bytes just allocated.
        unsafe { raw.write_bytes(0, layout.size()) };
        Some(LargeBuf {
            ptr: ptr.cast(),
            len,
            layout,
        })
    }

    /// `len` zeroed elements; like `vec!`, aborts if the memory cannot be had.
    pub(crate) fn zeros(len: usize) -> LargeBuf<T> {
        LargeBuf::zeroed(len).unwrap_or_else(|| {
            let layout = Layout::array::<T>(len).unwrap_or(Layout::new::<T>());
            std::alloc::handle_alloc_error(layout)
        })
    }

    /// A copy of `values`; like `Box::from`, aborts if the memory cannot be had.
    pub(crate) fn from_slice(values: &[T]) -> LargeBuf<T>
    where
        T: Copy,
    {
        let mut buf = LargeBuf::zeros(values.len());
        buf.copy_from_slice(values);
        buf
    }
}

#[cfg(target_os = "linux")]
fn advise_huge(ptr: *mut u8, len: usize) {
    // SAFETY: `ptr..ptr + len` is one allocation of ours, aligned to a huge
    // page; MADV_HUGEPAGE only changes how the kernel backs it.
    let rc = unsafe { libc::madvise(ptr.cast(), len, libc::MADV_HUGEPAGE) };
    if rc != 0 {
        log::debug!(
            "madvise(MADV_HUGEPAGE) refused: {}",
            std::io::Error::last_os_error()
        );
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge(_ptr: *mut u8, _len: usize) {}

impl<T: Zeroable> Drop for LargeBuf<T> {
    fn drop(&mut self) {
        if self.layout.size() != 0 {
            // SAFETY: allocated in `zeroed` with this layout; the elements
            // need no drop of their own (`Zeroable` types are plain data).
            unsafe { std::alloc::dealloc(self.ptr.as_ptr().cast(), self.layout) };
        }
    }
}

impl<T: Zeroable> Deref for LargeBuf<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` holds `len` initialised elements (zeroed, a valid
        // value of a `Zeroable` type, or written since) for `self`'s life.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> DerefMut for LargeBuf<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` makes this access unique.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroable + Copy> Clone for LargeBuf<T> {
    fn clone(&self) -> Self {
        LargeBuf::from_slice(self)
    }
}

impl<T: Zeroable + PartialEq> PartialEq for LargeBuf<T> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<T: Zeroable + Eq> Eq for LargeBuf<T> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zeroed_and_copied_buffers_hold_their_values() {
        for len in [0, 1, 1000, (3 << 20) / 2 + 5] {
            let z = LargeBuf::<i16>::zeroed(len).expect("memory");
            assert_eq!(z.len(), len);
            assert!(z.iter().all(|&v| v == 0));
            let values: Vec<i16> = (0..len).map(|i| (i % 30_000) as i16).collect();
            let c = LargeBuf::from_slice(&values);
            assert_eq!(&*c, &values[..]);
            assert!(c.clone() == c);
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn large_tables_are_aligned_to_a_huge_page() {
        // 1.5 MB of i16: rounded up to one whole huge page, aligned to it.
        let b = LargeBuf::<i16>::zeroed(MIN_HUGE_BYTES * 3 / 4).expect("memory");
        assert_eq!(b.as_ptr() as usize % HUGE_PAGE, 0);
        assert_eq!(b.layout.size(), HUGE_PAGE);
        assert_eq!(b.layout.align(), HUGE_PAGE);
        // Under the threshold: exactly its own size, its type's alignment.
        let small = LargeBuf::<i16>::zeroed(100).expect("memory");
        assert_eq!(small.layout.size(), 200);
        assert_eq!(small.layout.align(), align_of::<i16>());
    }
}
