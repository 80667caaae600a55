//! The shallow nodes some thread is searching now, shared by the threads of one
//! root: a simplified ABDADA (Weill's "exclusive" searches).
//!
//! Several threads searching one root over one table repeat each other's work
//! when they walk into the same subtree at the same time. Each thread marks the
//! nodes it is searching near the root ([`Busy::enter`], [`Busy::leave`]); when
//! a node orders its moves, a child another thread is searching now
//! ([`Busy::is_busy`]) goes last, so that the thread first searches the siblings
//! nobody is on, and by the time it reaches the deferred child the other thread
//! has usually stored its result in the table.
//!
//! | slot (`AtomicU64`) | meaning |
//! |---|---|
//! | 0 | free |
//! | `key` | a thread is searching the position whose table key is `key` |
//!
//! Marks cost a thread alone on its root two atomic operations per node near the
//! root, which a batch's lines (one thread each, which a helper may join at the
//! end of the input) would pay for nothing: so a counter of the helpers on the
//! root ([`Busy::join`], [`Busy::part`]) says whether anyone else is there, and a
//! search marks and reads marks only while [`Busy::shared`].
//!
//! One slot per key hash, 2^16 slots (512 KB). A thread that finds the slot of
//! its node taken (by another node of the same hash, or by another thread on the
//! same node) does not mark it. The marks only change the order of the moves,
//! never which moves are searched or what is stored, so scores stay exact
//! whatever the marks say, even stale or lost ones.

use crate::bits::Bits;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};

use crate::table::TableError;

/// Marks of the nodes being searched, see the [module](self) documentation.
#[derive(Debug)]
pub struct Busy {
    slots: Box<[AtomicU64]>,
    /// Helpers on the root now: while 0, the thread alone marks nothing.
    helpers: AtomicUsize,
}

impl Busy {
    /// log2 of the number of slots.
    const BITS: u32 = 16;

    /// No node marked. The slots come zeroed from the allocator: a page of them
    /// costs nothing until a thread first marks a node in it.
    ///
    /// # Errors
    /// [`TableError::OutOfMemory`] if the 512 KB of slots cannot be allocated.
    pub fn new() -> Result<Self, TableError> {
        let slots = bytemuck::allocation::try_zeroed_slice_box(1 << Self::BITS).map_err(|()| {
            TableError::OutOfMemory {
                what: "the 512 KB of marks of a parallel search",
            }
        })?;
        Ok(Busy {
            slots,
            helpers: AtomicUsize::new(0),
        })
    }

    /// Whether other threads search the root now (a helper is in).
    #[inline]
    pub fn shared(&self) -> bool {
        self.helpers.load(Relaxed) != 0
    }

    /// A helper joins the root.
    pub fn join(&self) {
        self.helpers.fetch_add(1, Relaxed);
    }

    /// A helper leaves the root.
    pub fn part(&self) {
        self.helpers.fetch_sub(1, Relaxed);
    }

    fn slot(&self, key: u64) -> &AtomicU64 {
        // Fibonacci hashing: the top bits of the product.
        &self.slots[(key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - Self::BITS)) as usize]
    }

    /// Whether some thread marked `key` as being searched now.
    ///
    /// Precondition: `key != 0` (the empty board, the only position of key 0, is
    /// never anyone's child).
    #[inline]
    pub fn is_busy<K: Bits>(&self, key: K) -> bool {
        debug_assert_ne!(key, K::ZERO);
        let key = fold(key);
        self.slot(key).load(Relaxed) == key
    }

    /// Marks `key` as searched by the calling thread, if its slot is free; returns
    /// whether it did (then [`Busy::leave`] must follow). Key 0 is never marked.
    #[inline]
    pub fn enter<K: Bits>(&self, key: K) -> bool {
        let key = fold(key);
        key != 0
            && self
                .slot(key)
                .compare_exchange(0, key, Relaxed, Relaxed)
                .is_ok()
    }

    /// Frees the mark that [`Busy::enter`] set for `key`.
    #[inline]
    pub fn leave<K: Bits>(&self, key: K) {
        let key = fold(key);
        let _ = self.slot(key).compare_exchange(key, 0, Relaxed, Relaxed);
    }
}

/// The key in one word: itself on a 64-bit board; on a wider one, its two halves
/// mixed (two keys may then share a mark, which only changes the order of moves).
#[inline(always)]
fn fold<K: Bits>(key: K) -> u64 {
    key.low_u64() ^ key.high_u64().rotate_left(32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mark_is_seen_until_left() {
        let busy = Busy::new().unwrap();
        let key = 0x1234_5678u64;
        assert!(!busy.is_busy(key));
        assert!(busy.enter(key));
        assert!(busy.is_busy(key));
        // A second thread on the same node does not mark it again.
        assert!(!busy.enter(key));
        busy.leave(key);
        assert!(!busy.is_busy(key));
    }

    #[test]
    fn shared_while_a_helper_is_in() {
        let busy = Busy::new().unwrap();
        assert!(!busy.shared());
        busy.join();
        busy.join();
        busy.part();
        assert!(busy.shared());
        busy.part();
        assert!(!busy.shared());
    }

    #[test]
    fn the_empty_board_is_never_marked() {
        let busy = Busy::new().unwrap();
        assert!(!busy.enter(0u64));
    }

    #[test]
    fn a_taken_slot_is_not_overwritten() {
        let busy = Busy::new().unwrap();
        // Two keys of one slot: the second is not marked, the first stays.
        let a = 1u64;
        let b = (2..u64::MAX)
            .find(|&k| std::ptr::eq(busy.slot(k), busy.slot(a)))
            .unwrap();
        assert!(busy.enter(a));
        assert!(!busy.enter(b));
        assert!(!busy.is_busy(b));
        busy.leave(b);
        assert!(busy.is_busy(a));
    }
}
