//! The memory of a table: zeroed slots, from a 2 MB boundary, in huge pages.
//!
//! A table's slots come zeroed from the allocator (`calloc`: fresh pages from the
//! kernel, zero already), so nothing is written when a table is made and a page
//! costs nothing until the search first touches it: a table that a short search
//! barely uses, or a worker's table that a single line never needs, is not paid for.
//!
//! On Linux the slots are marked for transparent huge pages (2 MB) before anything
//! touches them, so that the search's random probes over tens of megabytes do not
//! each miss the TLB (with 4 KB pages, 64 MB span 16,384 pages, far more than a TLB
//! holds). Only whole, aligned 2 MB pages can be huge, so slots of 1.5 MB or more
//! take whole 2 MB pages from a 2 MB boundary: the allocation asks for the slots
//! rounded up to whole pages and 2 MB more, and the slots start at its first
//! boundary (the part before is never touched, so it costs address space, not
//! memory). Unaligned, the 2 MB near table of the tuned search had no huge page at
//! all, and every table had 4 KB pages at both ends.
//!
//! 4 KB pages also cost a fault each, and a costly one when several threads search:
//! the search's first touch of a page is usually a probe, which maps the kernel's
//! shared zero page; its first store then copies the page, and replacing the mapping
//! of a process whose other threads run on other cores interrupts each of those
//! cores to flush its TLB. A huge page is faulted (and flushed) once per 2 MB.
//!
//! | field | what |
//! |---|---|
//! | `base`, `layout` | the allocation, freed with the layout it was made with |
//! | `first` | the first slot: `base` itself below 1.5 MB, else `base`'s first 2 MB boundary |
//! | `len` | the number of slots |

use std::alloc::{Layout, alloc_zeroed, dealloc, handle_alloc_error};
use std::fmt;
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

use super::TableError;

/// The size of a huge page on x86-64 and AArch64 Linux.
const HUGE: usize = 2 << 20;

/// A zeroed slice of `len` slots, owned, in whole huge pages from a 2 MB boundary
/// when it spans 1.5 MB or more (see the [module](self) documentation). Derefs to `[T]`.
pub(crate) struct Slots<T> {
    base: NonNull<u8>,
    layout: Layout,
    first: NonNull<T>,
    len: usize,
}

// SAFETY: `Slots` owns its slots as a `Box<[T]>` would: sending or sharing it sends
// or shares the `T`s, nothing else.
unsafe impl<T: Send> Send for Slots<T> {}
// SAFETY: as above; `&Slots` only gives `&[T]`.
unsafe impl<T: Sync> Sync for Slots<T> {}

impl<T: bytemuck::Zeroable> Slots<T> {
    /// Slots spanning at least this many bytes (1.5 MB) take whole huge pages from
    /// a 2 MB boundary (the last page partly unused: at most a quarter of the pages
    /// taken); smaller ones take the allocator's memory as it comes.
    const HUGE_FROM: usize = HUGE / 4 * 3;

    /// `len` zeroed slots (all-zero bits are a valid `T`: `Zeroable`), or
    /// [`TableError::Alloc`] naming the table's `mb` if the memory is not there.
    pub(crate) fn zeroed(len: usize, mb: usize) -> Result<Self, TableError> {
        const { assert!(!std::mem::needs_drop::<T>()) };
        let error = TableError::Alloc { mb };
        let bytes = len.checked_mul(size_of::<T>()).ok_or(error.clone())?;
        // Whole huge pages for the slots, and room to start them on a boundary.
        let huge = if bytes >= Self::HUGE_FROM {
            bytes.checked_next_multiple_of(HUGE).ok_or(error.clone())?
        } else {
            0
        };
        let pad = if huge > 0 { HUGE } else { 0 };
        let size = bytes
            .max(huge)
            .checked_add(pad)
            .ok_or(error.clone())?
            .max(1);
        let layout = Layout::from_size_align(size, align_of::<T>()).map_err(|_| error.clone())?;
        // SAFETY: `layout` has a non-zero size.
        let base = NonNull::new(unsafe { alloc_zeroed(layout) }).ok_or(error)?;
        let offset = if pad == 0 {
            0
        } else {
            base.as_ptr().align_offset(HUGE)
        };
        debug_assert!(offset <= pad);
        // SAFETY: `offset <= pad`, so `[base + offset, base + offset + max(bytes,
        // huge))` lies inside the allocation; a 2 MB boundary (or `base`, aligned by
        // `layout`) is aligned for `T`.
        let first = unsafe { base.add(offset) }.cast::<T>();
        advise_huge_pages(first.as_ptr().cast(), huge);
        Ok(Slots {
            base,
            layout,
            first,
            len,
        })
    }
}

impl<T> Slots<T> {
    /// Slots apart in [`Slots::page_slots`]: one per 4 KB (the smallest page; a
    /// huge page holds 512 of them).
    const PAGE_STEP: usize = if size_of::<T>() == 0 || size_of::<T>() >= 4096 {
        1
    } else {
        4096 / size_of::<T>()
    };

    /// One slot in each 4 KB of the slots, for [`Slots::prefault`] and its atomic
    /// counterparts (a store to each maps and zeroes every page of the slots).
    pub(crate) fn page_slots(&self) -> impl Iterator<Item = &T> {
        self.iter().step_by(Self::PAGE_STEP)
    }

    /// Has the kernel map and zero every page of the slots now, instead of at the
    /// search's first touch of each: one slot per 4 KB is written back as it is
    /// (the content does not change). A table made for a benchmark is faulted in
    /// before the clock starts, as its allocation is (see `Table::prefault`).
    pub(crate) fn prefault(&mut self)
    where
        T: Copy,
    {
        for i in (0..self.len).step_by(Self::PAGE_STEP) {
            // Opaque to the compiler, so that the store of the same value stays:
            // a read alone would map the kernel's shared zero page, not the slots'.
            let v = std::hint::black_box(self[i]);
            self[i] = v;
        }
    }
}

impl<T> Deref for Slots<T> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        // SAFETY: `first` points to `len` initialised (zeroed, then only written
        // through this type) slots that live as long as `self`.
        unsafe { std::slice::from_raw_parts(self.first.as_ptr(), self.len) }
    }
}

impl<T> DerefMut for Slots<T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` makes the borrow unique.
        unsafe { std::slice::from_raw_parts_mut(self.first.as_ptr(), self.len) }
    }
}

impl<T> Drop for Slots<T> {
    fn drop(&mut self) {
        // SAFETY: `base` was allocated with `layout`; the slots need no drop
        // (`zeroed` refuses types that do).
        unsafe { dealloc(self.base.as_ptr(), self.layout) }
    }
}

impl<T: bytemuck::Zeroable + Copy> Clone for Slots<T> {
    fn clone(&self) -> Self {
        let mut copy =
            Slots::zeroed(self.len, 0).unwrap_or_else(|_| handle_alloc_error(self.layout));
        copy.copy_from_slice(self);
        copy
    }
}

impl<T> fmt::Debug for Slots<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Slots({} x {} bytes)", self.len, size_of::<T>())
    }
}

/// Asks the kernel to back `[ptr, ptr + bytes)`, whole 2 MB pages from a 2 MB
/// boundary (or nothing: `bytes == 0`), with huge pages (`madvise(MADV_HUGEPAGE)`).
/// Only a hint: failure (an old kernel, huge pages disabled) leaves ordinary pages,
/// which are correct, only slower.
#[cfg(target_os = "linux")]
fn advise_huge_pages(ptr: *mut u8, bytes: usize) {
    debug_assert!(bytes == 0 || (ptr as usize).is_multiple_of(HUGE) && bytes.is_multiple_of(HUGE));
    if bytes > 0 {
        // SAFETY: `[ptr, ptr + bytes)` lies inside an allocation the caller owns;
        // MADV_HUGEPAGE changes no content, only how the kernel backs the pages.
        unsafe {
            libc::madvise(ptr.cast::<libc::c_void>(), bytes, libc::MADV_HUGEPAGE);
        }
    }
}

/// Huge pages are only requested on Linux.
#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_ptr: *mut u8, _bytes: usize) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_start_zeroed_and_from_1_5_mb_on_a_boundary() {
        for len in [
            0,
            1,
            1000,
            HUGE / 32 * 3 - 1,
            HUGE / 32 * 3,
            HUGE / 8 - 1,
            HUGE / 8,
            HUGE / 8 * 3 + 5,
        ] {
            let mut s = Slots::<u64>::zeroed(len, 1).unwrap();
            assert_eq!(s.len(), len);
            assert!(s.iter().all(|&x| x == 0));
            if len * 8 >= HUGE / 4 * 3 {
                assert!((s.as_ptr() as usize).is_multiple_of(HUGE), "{len}");
            }
            if let Some(last) = s.last_mut() {
                *last = 7;
            }
            let c = s.clone();
            assert_eq!(&c[..], &s[..]);
        }
    }

    #[test]
    fn prefault_keeps_the_content_and_reaches_every_page() {
        for len in [0, 1, 511, 512, 513, HUGE / 8 + 3] {
            let mut s = Slots::<u64>::zeroed(len, 1).unwrap();
            for (i, x) in s.iter_mut().enumerate() {
                *x = i as u64 * 3 + 1;
            }
            s.prefault();
            assert!(
                s.iter().enumerate().all(|(i, &x)| x == i as u64 * 3 + 1),
                "{len}"
            );
            // One slot in every 4 KB: 512 slots of 8 bytes apart, the first one first.
            let touched: Vec<u64> = s.page_slots().copied().collect();
            assert_eq!(touched.len(), len.div_ceil(512));
            assert!(
                touched
                    .iter()
                    .enumerate()
                    .all(|(p, &x)| x == (p * 512) as u64 * 3 + 1)
            );
        }
        // Slots larger than a page: every one.
        #[derive(Clone, Copy)]
        struct Big([u8; 5000]);
        // SAFETY: all-zero bytes are a valid `Big`.
        unsafe impl bytemuck::Zeroable for Big {}
        let mut s = Slots::<Big>::zeroed(3, 1).unwrap();
        s[2].0[4999] = 9;
        s.prefault();
        assert_eq!(s.page_slots().count(), 3);
        assert_eq!(s[2].0[4999], 9);
    }

    #[test]
    fn too_many_slots_is_an_error_naming_the_table() {
        assert_eq!(
            Slots::<u64>::zeroed(usize::MAX / 4, 9).err(),
            Some(TableError::Alloc { mb: 9 })
        );
    }
}
