//! A chess-style transposition table: bounds of every kind, best move, depth, age.
//!
//! # Entry layout
//!
//! One `u64` per entry, packed as the table in [`super::entry`] shows: key (40
//! bits), score, bound kind (0 = empty), best move, depth and age.
//!
//! * **Index**: the entry lives in set `key mod sets` (`sets` a prime), in one of
//!   the policy's [`Replace::WAYS`] slots. The key is truncated to 40 bits but stays
//!   exact: from `key mod sets` and `key mod 2^40` the Chinese remainder theorem
//!   gives back `key mod (sets * 2^40)`, which is the key itself as long as
//!   `sets * 2^40` exceeds every key. A 7x6 key has 49 bits, so any table with at
//!   least 512 sets is exact; the constructor checks this for the board at hand.
//! * **Best move**: 3 bits hold columns 0..=6; on wider boards the move of columns
//!   7 and above is not kept (the entry says "none").
//! * **No mate-distance adjustment**: chess engines rewrite mate scores when they
//!   store and probe them, because "mate in n" counts plies from the node where it
//!   was found. A Connect Four score counts the winner's stones from the start of
//!   the game (`22 - stones` on 7x6), so it already means the same thing wherever in
//!   the tree the position turns up, and it is stored as it is.
//! * **Replacement**: the policy type parameter `P` (see [`super::replace`]).
//!   `UPPER_ONLY` turns the table into the tutorial's kind with another policy:
//!   lower bounds are dropped, exact scores are kept as upper bounds, no best move.
//!   `WORK` makes the depth field the work of the search instead of empty cells.

use std::fmt;
use std::marker::PhantomData;

use super::entry::{AGE_MASK, Entry, KEY_BITS};
use super::replace::Replace;
use super::{Bound, DirtyBlocks, Hit, Slots, Table, TableError, prev_prime};
use crate::bits::Bits;

/// One 64-byte cache line of 8 entries; sets of 1, 2 or 8 ways never straddle two.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(64))]
struct Line([u64; 8]);

// SAFETY: a line is eight `u64`s, for which all zero bits are a value (empty
// entries), with no padding.
unsafe impl bytemuck::Zeroable for Line {}

const _: () = assert!(std::mem::size_of::<Line>() == 64 && std::mem::align_of::<Line>() == 64);

/// The generation mask: ages wrap after 128 generations.
const GENERATIONS: u8 = AGE_MASK as u8;

/// A table of packed [`Entry`]s in sets of `P::WAYS` slots, replaced by policy `P`.
///
/// `UPPER_ONLY` keeps upper bounds only (the tutorial's use), `WORK` measures depth
/// as work (see the module documentation).
pub(crate) struct BoundTable<P, const UPPER_ONLY: bool, const WORK: bool> {
    lines: Slots<Line>,
    sets: usize,
    dirty: DirtyBlocks,
    generation: u8,
    overwrites: u64,
    policy: PhantomData<P>,
}

impl<P, const U: bool, const WK: bool> Clone for BoundTable<P, U, WK> {
    fn clone(&self) -> Self {
        BoundTable {
            lines: self.lines.clone(),
            sets: self.sets,
            dirty: self.dirty.clone(),
            generation: self.generation,
            overwrites: self.overwrites,
            policy: PhantomData,
        }
    }
}

impl<P: Replace, const U: bool, const WK: bool> fmt::Debug for BoundTable<P, U, WK> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BoundTable")
            .field("policy", &P::NAME)
            .field("upper_only", &U)
            .field("work", &WK)
            .field("sets", &self.sets)
            .field("generation", &self.generation)
            .finish_non_exhaustive()
    }
}

/// The number of sets of `ways` entries of a table of at most `mb` megabytes for
/// keys of `key_bits` bits, without allocating it: the largest prime that fits.
///
/// # Errors
/// [`TableError::TooSmall`] for 0 MB, [`TableError::Alloc`] if the size overflows,
/// [`TableError::KeyTooWide`] if the truncated key would not be exact.
pub(crate) fn sets_for(mb: usize, key_bits: u32, ways: usize) -> Result<usize, TableError> {
    if mb == 0 {
        return Err(TableError::TooSmall { mb });
    }
    let bytes = mb.checked_mul(1 << 20).ok_or(TableError::Alloc { mb })?;
    let sets = prev_prime((bytes / 8 / ways) as u64) as usize;
    // Exact keys need sets * 2^40 > every key (Chinese remainder theorem).
    if key_bits > KEY_BITS && (sets as u128) < (1u128 << (key_bits - KEY_BITS)) {
        return Err(TableError::KeyTooWide { mb, key_bits });
    }
    Ok(sets)
}

impl<P: Replace, const UPPER_ONLY: bool, const WORK: bool> BoundTable<P, UPPER_ONLY, WORK> {
    const WAYS_FIT: () = assert!(P::WAYS == 1 || P::WAYS == 2 || P::WAYS == 8);

    /// A table of at most `mb` megabytes (2^20 bytes) for keys of `key_bits` bits:
    /// the largest prime number of sets of `P::WAYS` entries that fits.
    pub(crate) fn new(mb: usize, key_bits: u32) -> Result<Self, TableError> {
        let () = Self::WAYS_FIT;
        if mb == 0 {
            return Err(TableError::TooSmall { mb });
        }
        let sets = sets_for(mb, key_bits, P::WAYS)?;
        let lines = (sets * P::WAYS).div_ceil(8);
        Ok(BoundTable {
            lines: Slots::zeroed(lines, mb)?,
            sets,
            dirty: DirtyBlocks::new(lines * 8, mb)?,
            generation: 0,
            overwrites: 0,
            policy: PhantomData,
        })
    }

    /// Number of entries (sets times ways).
    pub(crate) fn len(&self) -> usize {
        self.sets * P::WAYS
    }

    /// The entry in flat slot `i` (sets are consecutive runs of `P::WAYS` slots).
    pub(crate) fn entry(&self, i: usize) -> Entry {
        Entry(self.lines[i / 8].0[i % 8])
    }

    /// The first slot of `key`'s set.
    ///
    /// Precondition: `key < sets * 2^40`, where the truncated key is exact
    /// (`debug_assert!`ed).
    #[inline]
    fn first_slot(&self, key: u64) -> usize {
        debug_assert!(
            u128::from(key) < (self.sets as u128) << KEY_BITS,
            "key above the exact bound"
        );
        (key % self.sets as u64) as usize * P::WAYS
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub(crate) fn find(&self, key: u64) -> Option<Entry> {
        let first = self.first_slot(narrow(key));
        let line = &self.lines[first / 8].0;
        let off = first % 8;
        line[off..off + P::WAYS]
            .iter()
            .map(|&e| Entry(e))
            .find(|e| e.holds(key))
    }

    /// Writes `entry` into its set under the policy.
    #[inline]
    pub(crate) fn put(&mut self, key: u64, entry: Entry) {
        let first = self.first_slot(narrow(key));
        self.dirty.mark(first);
        let off = first % 8;
        let set = &mut self.lines[first / 8].0[off..off + P::WAYS];
        let lost = P::place(set, key, entry, self.generation);
        self.overwrites += u64::from(lost);
    }
}

/// The key as the entry's 64-bit word holds it: these research tables serve
/// boards of up to 64 bits (the research solver refuses wider ones).
#[inline(always)]
fn narrow<K: Bits>(key: K) -> u64 {
    debug_assert_eq!(
        key.high_u64(),
        0,
        "a research table on a board over 64 bits"
    );
    key.low_u64()
}

impl<P: Replace, const UPPER_ONLY: bool, const WORK: bool> Table
    for BoundTable<P, UPPER_ONLY, WORK>
{
    const DEPTH_IS_WORK: bool = WORK;

    #[inline]
    fn probe<K: Bits>(&mut self, key: K) -> Option<Hit> {
        let e = self.find(narrow(key))?;
        Some(Hit {
            score: e.score(),
            bound: e.bound()?,
            best: e.best(),
        })
    }

    #[inline]
    fn store<K: Bits>(&mut self, key: K, score: i32, bound: Bound, best: Option<u8>, depth: u8) {
        let (bound, best) = if UPPER_ONLY {
            match bound {
                Bound::Lower => return,
                Bound::Upper | Bound::Exact => (Bound::Upper, None),
            }
        } else {
            (bound, best)
        };
        let key = narrow(key);
        let entry = Entry::new(key, score, bound, best, depth, self.generation);
        self.put(key, entry);
    }

    #[inline]
    fn prefetch<K: Bits>(&self, key: K) {
        let first = self.first_slot(narrow(key));
        super::prefetch_ptr(self.lines.as_ptr().wrapping_add(first / 8));
    }

    fn clear(&mut self) {
        let lines = &mut self.lines;
        self.dirty.drain(|first| lines[first / 8] = Line::default());
    }

    fn prefault(&mut self) {
        self.lines.prefault();
    }

    fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1) & GENERATIONS;
    }

    fn hashfull(&self) -> u32 {
        let n = self.len().min(1000);
        let full = (0..n)
            .map(|i| self.entry(i))
            .filter(|e| !e.is_empty() && e.age() == self.generation)
            .count();
        (full * 1000 / n.max(1)) as u32
    }

    fn overwrites(&self) -> u64 {
        self.overwrites
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::entry::{KEY_MASK, SCORE_OFFSET};
    use crate::table::replace::{Always, Bucket, DepthPreferred, TwoTier};

    #[test]
    fn entry_round_trips_every_field_range() {
        let keys = [0, 1, KEY_MASK, (1 << 49) - 1, 0x1234_5678_9abc];
        let bounds = [Bound::Upper, Bound::Lower, Bound::Exact];
        for key in keys {
            for score in -SCORE_OFFSET..SCORE_OFFSET {
                for bound in bounds {
                    for best in (0..7).map(Some).chain([None]) {
                        for depth in [0, 1, 21, 42, 63] {
                            for age in [0, 1, 64, 127] {
                                let e = Entry::new(key, score, bound, best, depth, age);
                                assert!(!e.is_empty());
                                assert!(e.holds(key));
                                assert_eq!(e.key_bits(), key & KEY_MASK);
                                assert_eq!(e.score(), score);
                                assert_eq!(e.bound(), Some(bound));
                                assert_eq!(e.best(), best);
                                assert_eq!(e.depth(), depth);
                                assert_eq!(e.age(), age);
                            }
                        }
                    }
                }
            }
        }
        // columns beyond the field are dropped, not wrapped
        assert_eq!(Entry::new(5, 0, Bound::Exact, Some(7), 0, 0).best(), None);
        assert_eq!(Entry::new(5, 0, Bound::Exact, Some(9), 0, 0).best(), None);
    }

    #[test]
    fn empty_slot_is_not_the_empty_board() {
        assert!(Entry::EMPTY.is_empty());
        assert!(!Entry::EMPTY.holds(0), "an empty slot must not match key 0");
        assert_eq!(Entry::EMPTY.bound(), None);
        // the empty board (key 0) with score 0 and no move is still non-zero
        let e = Entry::new(0, -SCORE_OFFSET, Bound::Upper, None, 0, 0);
        assert_ne!(e.0, 0);
        assert!(e.holds(0));
        fn check<P: Replace>() {
            let mut t = BoundTable::<P, false, false>::new(1, 49).unwrap();
            assert_eq!(t.probe(0u64), None);
            t.store(0u64, 3, Bound::Exact, Some(3), 42);
            assert_eq!(
                t.probe(0u64),
                Some(Hit {
                    score: 3,
                    bound: Bound::Exact,
                    best: Some(3)
                })
            );
            // another position of the same set is told apart by its key bits
            let other = t.sets as u64;
            assert_eq!(t.probe(other), None);
        }
        check::<Always>();
        check::<DepthPreferred>();
        check::<TwoTier>();
        check::<Bucket>();
    }

    #[test]
    fn upper_only_keeps_upper_bounds() {
        let mut t = BoundTable::<Always, true, false>::new(1, 49).unwrap();
        t.store(10u64, 4, Bound::Lower, Some(2), 5);
        assert_eq!(t.probe(10u64), None);
        t.store(10u64, 4, Bound::Exact, Some(2), 5);
        assert_eq!(
            t.probe(10u64),
            Some(Hit {
                score: 4,
                bound: Bound::Upper,
                best: None
            })
        );
    }

    #[test]
    fn clear_and_hashfull() {
        let mut t = BoundTable::<Bucket, false, false>::new(1, 49).unwrap();
        assert_eq!(t.hashfull(), 0);
        for k in 0..200_000u64 {
            t.store(
                k * 7919,
                (k % 40) as i32 - 20,
                Bound::Exact,
                None,
                (k % 43) as u8,
            );
        }
        let h = t.hashfull();
        assert!(h > 0 && h <= 1000, "{h}");
        t.new_search();
        assert_eq!(t.hashfull(), 0, "older generations do not count");
        t.clear();
        assert!(t.lines.iter().all(|l| l.0 == [0; 8]));
        assert_eq!(t.probe(7919u64), None);
    }

    #[test]
    fn too_small_for_the_key_is_an_error() {
        assert!(BoundTable::<Bucket, false, false>::new(1, 49).is_ok());
        assert_eq!(
            BoundTable::<Bucket, false, false>::new(1, 56).unwrap_err(),
            TableError::KeyTooWide {
                mb: 1,
                key_bits: 56
            }
        );
        assert!(BoundTable::<Always, false, false>::new(0, 49).is_err());
    }
}
