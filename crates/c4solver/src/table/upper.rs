//! The tutorial's transposition table: always replace, upper bounds only.
//!
//! # Entry layout (one `u64` per slot)
//!
//! | bits   | width | field | meaning                                                  |
//! |--------|-------|-------|----------------------------------------------------------|
//! | 0..56  | 56    | key   | the position key (`current + mask`) mod 2^56: the whole key on boards of up to 56 bits (7x6: 49) |
//! | 56..64 | 8     | value | `upper bound - MIN_SCORE + 1`, stored as a wrapping `u8`; 0 = no value |
//!
//! * Index: `key mod size`, with the size a prime (8,388,593 for 64 MB, the largest
//!   prime below 2^23), so that keys spread evenly.
//! * Empty: an all-zero slot. [`UpperTable::get`] answers "no value" (0) unless the
//!   stored key equals the probed key **and** the value is non-zero, so an empty slot
//!   can never pass for the empty board, whose key is 0.
//! * Replacement: always; a store overwrites whatever was in the slot.
//! * Exact on every board: keys of up to 56 bits are kept whole. A wider key (a
//!   board of up to 64 bits, such as 8x7) keeps its low 56 bits, and since the slot
//!   is `key mod p` with `p` an odd prime, the pair (slot, low 56 bits) determines
//!   `key mod (p * 2^56)` (Chinese remainder theorem): two keys below `p * 2^56`,
//!   which every 64-bit key is once `p >= 256` (every table of at least 1 MB),
//!   never share both.
//!
//! The solver stores `alpha - MIN_SCORE + 1` cast to `u8`, exactly as the tutorial's
//! C++ does with its `uint8_t` field. A fail-low search can store an alpha below
//! `MIN_SCORE`, which wraps to a large value (a useless but harmless upper bound) or
//! to 0 (no value); keeping that quirk is what makes node counts match the
//! tutorial's to the last node.

use super::{Bound, DirtyBlocks, Hit, Slots, Table, TableError, prev_prime};
use crate::bits::Bits;

const KEY_BITS: u32 = 56;
const KEY_MASK: u64 = (1 << KEY_BITS) - 1;
const _: () = assert!(KEY_BITS + 8 == u64::BITS, "key and value fill one u64");

/// The tutorial's always-replace table of 56-bit keys and 8-bit values.
#[derive(Clone, Debug)]
pub(crate) struct UpperTable {
    slots: Slots<u64>,
    dirty: DirtyBlocks,
    /// `MIN_SCORE` of the board: values are `score - min_score + 1`.
    min_score: i32,
    /// Stores that replaced an entry of another position.
    overwrites: u64,
}

impl UpperTable {
    /// Number of slots of the tutorial's 64 MB table.
    #[cfg(test)]
    pub(crate) const DEFAULT_SLOTS: usize = prev_prime(1 << 23) as usize;

    /// A table of at most `mb` megabytes (2^20 bytes): the largest prime number of
    /// 8-byte slots that fits. 64 MB gives the tutorial's 8,388,593 slots.
    #[cfg(test)]
    pub(crate) fn with_megabytes(mb: usize) -> Result<Self, TableError> {
        Self::for_board(mb, -18)
    }

    /// A table of at most `mb` megabytes for a board whose lowest score is
    /// `min_score` (the encoding of [`Table`] scores depends on it).
    pub(crate) fn for_board(mb: usize, min_score: i32) -> Result<Self, TableError> {
        if mb == 0 {
            return Err(TableError::TooSmall { mb });
        }
        let slots =
            mb.checked_mul(1 << 20).ok_or(TableError::Alloc { mb })? / std::mem::size_of::<u64>();
        let slots = prev_prime(slots as u64) as usize;
        Ok(UpperTable {
            slots: Slots::zeroed(slots, mb)?,
            dirty: DirtyBlocks::new(slots, mb)?,
            min_score,
            overwrites: 0,
        })
    }

    /// Number of slots.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.slots.len()
    }

    #[inline]
    fn index<K: Bits>(&self, key: K) -> usize {
        if K::BITS <= 64 {
            (key.low_u64() % self.slots.len() as u64) as usize
        } else {
            (key.to_u128() % self.slots.len() as u128) as usize
        }
    }

    /// Stores `value` for `key`, replacing the slot's content.
    #[inline]
    pub(crate) fn put<K: Bits>(&mut self, key: K, value: u8) {
        debug_assert!(self.slots.len() >= 256, "the partial key needs p >= 256");
        let i = self.index(key);
        let slot = &mut self.slots[i];
        let partial = key.low_u64() & KEY_MASK;
        if *slot == 0 {
            self.dirty.mark(i);
        } else if *slot & KEY_MASK != partial {
            self.overwrites += 1;
        }
        *slot = partial | (u64::from(value) << KEY_BITS);
    }

    /// The value stored for `key`, or 0 if there is none.
    #[inline]
    pub(crate) fn get<K: Bits>(&self, key: K) -> u8 {
        let slot = self.slots[self.index(key)];
        if slot & KEY_MASK == key.low_u64() & KEY_MASK {
            (slot >> KEY_BITS) as u8
        } else {
            0
        }
    }

    /// Empties the table (only the slots written since the last clear are touched).
    pub(crate) fn clear(&mut self) {
        self.dirty.clear(&mut self.slots);
    }
}

/// The tutorial's use: exact and upper bounds are stored as upper bounds (an exact
/// score is also an upper bound), lower bounds are dropped, no best move is kept.
impl Table for UpperTable {
    #[inline]
    fn probe<K: Bits>(&mut self, key: K) -> Option<Hit> {
        let val = self.get(key);
        (val != 0).then(|| Hit {
            score: i32::from(val) + self.min_score - 1,
            bound: Bound::Upper,
            best: None,
        })
    }

    #[inline]
    fn store<K: Bits>(&mut self, key: K, score: i32, bound: Bound, _best: Option<u8>, _depth: u8) {
        if bound != Bound::Lower {
            // Wrapping to u8 exactly as the tutorial's `uint8_t` field does.
            self.put(key, (score - self.min_score + 1) as u8);
        }
    }

    #[inline]
    fn prefetch<K: Bits>(&self, key: K) {
        super::prefetch_ptr(self.slots.as_ptr().wrapping_add(self.index(key)));
    }

    fn clear(&mut self) {
        UpperTable::clear(self);
    }

    fn prefault(&mut self) {
        self.slots.prefault();
    }

    #[cfg(any(test, feature = "research"))]
    fn hashfull(&self) -> u32 {
        super::hashfull_nonzero(&self.slots)
    }

    fn overwrites(&self) -> u64 {
        self.overwrites
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_size_is_the_tutorials() {
        let t = UpperTable::with_megabytes(64).unwrap();
        assert_eq!(t.len(), 8_388_593);
        assert_eq!(UpperTable::DEFAULT_SLOTS, 8_388_593);
    }

    #[test]
    fn empty_slot_is_not_the_empty_board() {
        let mut t = UpperTable::with_megabytes(1).unwrap();
        // key 0 is the empty board; an empty slot must answer "no value"
        assert_eq!(t.get(0u64), 0);
        // a key that maps to slot 0 with zero low bits
        let n = t.len() as u64;
        assert_eq!(t.get(n << 8), 0);
        t.put(0u64, 5);
        assert_eq!(t.get(0u64), 5);
        assert_eq!(t.get(n), 0, "same slot, other key");
        t.put(n, 7);
        assert_eq!(t.get(0u64), 0, "replaced");
        assert_eq!(t.get(n), 7);
    }

    #[test]
    fn wide_keys_keep_their_low_bits_and_stay_apart() {
        let mut t = UpperTable::with_megabytes(1).unwrap();
        let p = t.len() as u64;
        // Same slot and same low 56 bits would need a difference of p * 2^56 > 2^64.
        let a = (1u64 << 63) | 12_345;
        let b = a - (p << 8); // a multiple of p below 2^56 apart: same slot, other low bits
        t.put(a, 9);
        assert_eq!(t.get(a), 9);
        assert_eq!(b % p, a % p, "same slot");
        assert_ne!(b & KEY_MASK, a & KEY_MASK, "other low bits");
        assert_eq!(t.get(b), 0);
        // keys equal in their low 56 bits fall into different slots
        let c = a ^ (1u64 << 60);
        assert_ne!(c % p, a % p);
    }

    #[test]
    fn prefault_keeps_every_entry() {
        let mut t = UpperTable::with_megabytes(1).unwrap();
        for k in (0..50_000u64).map(|k| k * 7919) {
            t.put(k, (k % 255 + 1) as u8);
        }
        let slots = t.slots.to_vec();
        Table::prefault(&mut t);
        assert_eq!(&t.slots[..], &slots[..]);
    }

    #[test]
    fn clear_resets_everything_written() {
        let mut t = UpperTable::with_megabytes(1).unwrap();
        for k in (0..50_000u64).map(|k| k * 7919) {
            t.put(k, (k % 255 + 1) as u8);
        }
        t.clear();
        assert!(t.slots.iter().all(|&s| s == 0));
        for k in (0..50_000u64).map(|k| k * 7919) {
            assert_eq!(t.get(k), 0);
        }
    }

    #[test]
    fn huge_table_is_an_error_not_an_abort() {
        let e = UpperTable::with_megabytes(100_000_000).unwrap_err();
        assert_eq!(e, TableError::Alloc { mb: 100_000_000 });
        assert!(UpperTable::with_megabytes(0).is_err());
    }
}
