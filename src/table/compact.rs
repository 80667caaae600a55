//! The tuned solver's table: 4-byte entries, a 25-bit partial key made exact by a
//! prime size, upper **and** lower bounds, always replace.
//!
//! # Entry layout (one `u32` per slot)
//!
//! | bits  | width | field | meaning                                                        |
//! |-------|-------|-------|----------------------------------------------------------------|
//! | 0..7  | 7     | value | 0 = empty; `1..=R`: upper bound `u`, stored as `u - MIN + 1`; `R+1..=2R`: lower bound `l`, stored as `l - MIN + 1 + R` (`R = MAX - MIN + 1`, 37 on 7x6) |
//! | 7..32 | 25    | key   | `key mod 2^25` (the low 25 bits of the position key)           |
//!
//! * Index: `key mod p`, `p` the largest prime number of slots that fits in the
//!   requested size (16,777,213 for 64 MB). The remainder is computed with one
//!   128-bit multiply by `floor(2^64 / p)` and one correction, not a division.
//! * Empty: value 0. A slot answers only if its value is non-zero **and** its
//!   partial key matches, so an all-zero slot never passes for the empty board
//!   (key 0) or any key whose low 25 bits are zero.
//! * Replacement: always; a store overwrites whatever was in the slot.
//!
//! # Why 25 bits of key are exact (Chinese remainder theorem)
//!
//! A slot is reached by `key mod p` and holds `key mod 2^25`. Since `p` is an odd
//! prime, `p` and `2^25` are coprime, so by the Chinese remainder theorem the pair
//! `(key mod p, key mod 2^25)` determines `key mod (p * 2^25)`: two different keys
//! below `p * 2^25` can never share both slot and partial key. Every key the solver
//! stores is below [`key_bound`]: the searched positions never contain four in a
//! row, so the last column's 7-bit field of `current + mask` is at most
//! `2^H + 0b111011` (a full column whose stones of the player to move have no run of
//! four), and on 7x6 every key is below `124 * 2^42 < 2^25 * 16,777,213`. A table too
//! small for this argument is refused ([`TableError::TooSmallForKey`]).

use super::{Bound, DirtyBlocks, Hit, Table, TableError, alloc_zeroed, prev_prime};

/// Bits of the partial key kept in an entry.
pub const KEY_BITS: u32 = 25;
/// Bits of the value field.
pub const VALUE_BITS: u32 = 7;
const KEY_MASK: u64 = (1 << KEY_BITS) - 1;
const VALUE_MASK: u32 = (1 << VALUE_BITS) - 1;
const _: () = assert!(
    KEY_BITS + VALUE_BITS == u32::BITS,
    "key and value fill one u32"
);

/// The largest `h`-bit number with no run of four ones (the stones of the player to
/// move in a full column without a vertical four).
const fn no_four_max(h: usize) -> u64 {
    let mut v = (1u64 << h) - 1;
    while v & (v >> 1) & (v >> 2) & (v >> 3) != 0 {
        v -= 1;
    }
    v
}

/// An upper bound (exclusive) of the key `current + mask` of every `w`x`h` position
/// without four in a row: the last column's field is at most `2^h + no_four_max(h)`
/// and every lower column's field is below `2^(h+1)`.
pub const fn key_bound(w: usize, h: usize) -> u128 {
    ((1u128 << h) + no_four_max(h) as u128 + 1) << ((w - 1) * (h + 1))
}

/// The compact table: 25-bit partial keys, 7-bit values holding one upper or lower
/// bound; see the module documentation for the layout.
#[derive(Clone, Debug)]
pub struct CompactTable {
    slots: Vec<u32>,
    /// Every key stored must be below this for the partial key to be exact.
    key_bound: u128,
    dirty: DirtyBlocks,
    /// `floor(2^64 / len)`, for the division-free remainder.
    magic: u64,
    /// Lowest score of the board.
    min_score: i32,
    /// Number of distinct scores, `MAX - MIN + 1`.
    range: i32,
}

impl CompactTable {
    /// A table of at most `mb` megabytes (2^20 bytes) for a board whose scores lie in
    /// `[min_score, max_score]` and whose keys are below `key_bound`: the largest
    /// prime number of 4-byte slots that fits.
    ///
    /// Fails if the memory cannot be allocated, or if the table has too few slots for
    /// the 25-bit partial key to be exact (below 63 MB on 7x6).
    ///
    /// # Panics
    /// If the scores do not fit the 7-bit value (`2 * (max - min + 1) > 127`).
    pub fn new(
        mb: usize,
        min_score: i32,
        max_score: i32,
        key_bound: u128,
    ) -> Result<Self, TableError> {
        let range = max_score - min_score + 1;
        assert!(
            range > 0 && 2 * range <= VALUE_MASK as i32,
            "scores do not fit the 7-bit value"
        );
        let len = Self::slots_for(mb, key_bound)?;
        let len = len as usize;
        Ok(CompactTable {
            key_bound,
            slots: alloc_zeroed(len, mb)?,
            dirty: DirtyBlocks::new(len),
            magic: u64::MAX / len as u64,
            min_score,
            range,
        })
    }

    /// The number of slots of a table of at most `mb` megabytes for keys below
    /// `key_bound`, without allocating it: the largest prime that fits.
    ///
    /// # Errors
    /// [`TableError::TooSmall`] for 0 MB, [`TableError::Alloc`] if the size
    /// overflows, [`TableError::TooSmallForKey`] if the partial key would not be
    /// exact.
    pub fn slots_for(mb: usize, key_bound: u128) -> Result<u64, TableError> {
        if mb == 0 {
            return Err(TableError::TooSmall { mb });
        }
        let bytes = mb.checked_mul(1 << 20).ok_or(TableError::Alloc { mb })?;
        let len = prev_prime((bytes / std::mem::size_of::<u32>()) as u64);
        if u128::from(len) << KEY_BITS < key_bound {
            // The smallest size that works, for the message.
            let need = key_bound.div_ceil(1 << KEY_BITS);
            let mut min_mb = mb;
            while (u128::from(prev_prime((min_mb as u64) << 18))) < need {
                min_mb += 1;
            }
            return Err(TableError::TooSmallForKey { mb, min_mb });
        }
        Ok(len)
    }

    /// A table of at most `mb` megabytes for the `W`x`H` board.
    pub fn for_board<const W: usize, const H: usize>(mb: usize) -> Result<Self, TableError> {
        use crate::position::Board;
        Self::new(
            mb,
            Board::<W, H>::MIN_SCORE,
            Board::<W, H>::MAX_SCORE,
            key_bound(W, H),
        )
    }

    /// Number of slots.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Always false: a table has at least one slot.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// `key mod len`, without a division: `magic = floor(2^64 / len)` makes the
    /// estimated quotient `q` or `q - 1`, which one subtraction corrects.
    #[inline]
    fn index(&self, key: u64) -> usize {
        let len = self.slots.len() as u64;
        let q = ((u128::from(key) * u128::from(self.magic)) >> 64) as u64;
        let mut r = key - q * len;
        if r >= len {
            r -= len;
        }
        debug_assert_eq!(r, key % len);
        r as usize
    }

    /// Hints the processor to fetch the slot of `key` into the cache.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        super::prefetch_ptr(self.slots.as_ptr().wrapping_add(self.index(key)));
    }

    /// The raw 7-bit value stored for `key` (0 if none).
    #[inline]
    pub fn get(&self, key: u64) -> u8 {
        debug_assert!(
            u128::from(key) < self.key_bound,
            "key above the exact bound"
        );
        let slot = self.slots[self.index(key)];
        if u64::from(slot >> VALUE_BITS) == key & KEY_MASK {
            (slot & VALUE_MASK) as u8
        } else {
            0
        }
    }

    /// Stores the raw value `value` (1..=127) for `key`, replacing the slot.
    ///
    /// Preconditions: `value != 0` and `value < 128`, and `key` below the key bound
    /// the table was built for (the partial key is exact only there); both
    /// `debug_assert!`ed.
    #[inline]
    pub fn put(&mut self, key: u64, value: u8) {
        debug_assert!(value != 0 && u32::from(value) <= VALUE_MASK);
        debug_assert!(
            u128::from(key) < self.key_bound,
            "key above the exact bound"
        );
        let i = self.index(key);
        let slot = &mut self.slots[i];
        if *slot == 0 {
            self.dirty.mark(i);
        }
        *slot = (((key & KEY_MASK) as u32) << VALUE_BITS) | u32::from(value);
    }

    /// The value of an upper bound `u`; clamped into the board's score range (every
    /// true score is in it, so the clamped bound stays true).
    #[inline]
    pub fn upper_value(&self, u: i32) -> u8 {
        (u.clamp(self.min_score, self.min_score + self.range - 1) - self.min_score + 1) as u8
    }

    /// The value of a lower bound `l`, clamped like [`CompactTable::upper_value`].
    #[inline]
    pub fn lower_value(&self, l: i32) -> u8 {
        (l.clamp(self.min_score, self.min_score + self.range - 1) - self.min_score + 1 + self.range)
            as u8
    }

    /// Decodes a non-zero value into a score and its bound (`Upper` or `Lower`).
    #[inline]
    pub fn decode(&self, value: u8) -> (i32, Bound) {
        debug_assert!(value != 0);
        let v = i32::from(value);
        if v > self.range {
            (v - self.range + self.min_score - 1, Bound::Lower)
        } else {
            (v + self.min_score - 1, Bound::Upper)
        }
    }

    /// Empties the table (only the slots written since the last clear are touched).
    pub fn clear(&mut self) {
        self.dirty.clear(&mut self.slots);
    }
}

/// One bound per slot: an exact score is stored as a lower bound (the tuned search
/// never produces one); no best move is kept.
impl Table for CompactTable {
    #[inline]
    fn probe(&mut self, key: u64) -> Option<Hit> {
        let v = self.get(key);
        (v != 0).then(|| {
            let (score, bound) = self.decode(v);
            Hit {
                score,
                bound,
                best: None,
            }
        })
    }

    #[inline]
    fn store(&mut self, key: u64, score: i32, bound: Bound, _best: Option<u8>, _depth: u8) {
        let v = match bound {
            Bound::Upper => self.upper_value(score),
            Bound::Lower | Bound::Exact => self.lower_value(score),
        };
        self.put(key, v);
    }

    #[inline]
    fn prefetch(&self, key: u64) {
        CompactTable::prefetch(self, key);
    }

    fn clear(&mut self) {
        CompactTable::clear(self);
    }

    fn hashfull(&self) -> u32 {
        super::hashfull_nonzero(&self.slots)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> CompactTable {
        CompactTable::for_board::<7, 6>(64).unwrap()
    }

    #[test]
    fn size_and_bound() {
        let t = table();
        assert_eq!(t.len(), 16_777_213);
        assert_eq!(key_bound(7, 6), 124 << 42);
        assert!((t.len() as u128) << KEY_BITS >= key_bound(7, 6));
        assert_eq!(no_four_max(6), 0b111011);
        assert_eq!(no_four_max(3), 0b111);
        assert_eq!(
            CompactTable::for_board::<7, 6>(32).unwrap_err(),
            TableError::TooSmallForKey { mb: 32, min_mb: 63 }
        );
        assert!(CompactTable::for_board::<7, 6>(0).is_err());
        // small boards need small tables
        assert!(CompactTable::for_board::<4, 4>(1).is_ok());
    }

    #[test]
    fn index_is_key_mod_len() {
        let t = table();
        let n = t.len() as u64;
        for k in [
            0,
            1,
            n - 1,
            n,
            n + 1,
            2 * n - 1,
            (124 << 42) - 1,
            u64::MAX / 3,
        ] {
            assert_eq!(t.index(k), (k % n) as usize, "key {k}");
        }
    }

    #[test]
    fn entry_packing_round_trips() {
        let mut t = table();
        for s in -18..=18 {
            let (u, b) = t.decode(t.upper_value(s));
            assert_eq!((u, b), (s, Bound::Upper));
            let (l, b) = t.decode(t.lower_value(s));
            assert_eq!((l, b), (s, Bound::Lower));
        }
        // clamping keeps bounds true
        assert_eq!(t.decode(t.upper_value(25)), (18, Bound::Upper));
        assert_eq!(t.decode(t.lower_value(-30)), (-18, Bound::Lower));
        assert_eq!(t.lower_value(18), 74);
        let key = 0x1_2345_6789_abcd;
        t.store(key, -3, Bound::Lower, None, 0);
        assert_eq!(
            t.probe(key),
            Some(Hit {
                score: -3,
                bound: Bound::Lower,
                best: None
            })
        );
        t.store(key, 7, Bound::Upper, None, 0);
        assert_eq!(
            t.probe(key).map(|h| (h.score, h.bound)),
            Some((7, Bound::Upper))
        );
    }

    #[test]
    fn zero_keys_are_not_empty_slots() {
        let mut t = table();
        let n = t.len() as u64;
        // The empty board (key 0) and keys with zero low 25 bits (below the key
        // bound, only key 0 has both a zero slot index and a zero partial key): an
        // empty table knows none of them.
        let zero_low = [0, 1 << KEY_BITS, 5 << (KEY_BITS + 3), 3 << 40];
        for &k in &zero_low {
            assert_eq!(t.get(k), 0, "key {k:#x}");
            assert_eq!(t.probe(k), None);
        }
        // Storing the empty board makes only it known.
        t.put(0, 1);
        assert_eq!(t.get(0), 1);
        t.put(1 << KEY_BITS, 3);
        assert_eq!(t.get(1 << KEY_BITS), 3);
        assert_eq!(t.get(0), 1, "different slot");
        // Same slot (key n), other partial key: replaced, and the old key misses.
        t.put(n, 9);
        assert_eq!(t.get(n), 9);
        assert_eq!(t.get(0), 0, "replaced");
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "key above the exact bound")]
    fn keys_above_the_bound_are_caught() {
        let mut t = CompactTable::for_board::<4, 4>(1).unwrap();
        t.put(key_bound(4, 4) as u64, 1);
    }

    #[test]
    fn clear_resets_everything_written() {
        let mut t = CompactTable::for_board::<4, 4>(1).unwrap();
        for k in (0..50_000u64).map(|k| k * 19) {
            t.put(k, (k % 127 + 1) as u8);
        }
        t.clear();
        assert!(t.slots.iter().all(|&s| s == 0));
    }
}
