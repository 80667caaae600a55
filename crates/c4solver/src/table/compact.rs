//! The tuned solver's table: sets of two 4-byte entries, a 26-bit partial key made
//! exact by a prime number of sets, upper **and** lower bounds. The first entry of
//! a set keeps the result of the bigger search, the second the newest other one.
//!
//! # Set layout (one `u64` per set: entry 0 in the low half, entry 1 in the high)
//!
//! | entry | bits  | width | field | meaning |
//! |-------|-------|-------|-------|---------|
//! | 0     | 0..6  | 6     | value | 0 = empty; `1..=31`: upper bound `u = MAX - 31 + v`; `32..=62`: lower bound `l = MIN + v - 32` (7x6: `u` in -12..=18, `l` in -18..=12) |
//! | 0     | 6..32 | 26    | key   | `key mod 2^26` |
//! | 1     | 0..5  | 5     | value | 0 = empty; `1..=15`: upper bound `u = v - 8`; `16..=30`: lower bound `l = v - 23` (both in -7..=7) |
//! | 1     | 5     | 1     | big   | entry 0's search took at least `2^(BIG_WORK - 1)` = 128 nodes |
//! | 1     | 6..32 | 26    | key   | `key mod 2^26` |
//!
//! * Index: `key mod p`, `p` the largest prime number of 8-byte sets that fits in
//!   the requested size (8,388,593 for 64 MB: 16,777,186 entries). The remainder is
//!   computed with one 128-bit multiply by `floor(2^64 / p)` and one correction,
//!   not a division. Both entries of a set share one cache line.
//! * Values: a bound outside an entry's range is made weaker to fit (an upper bound
//!   may only rise, a lower bound only fall: every true score stays within it). An
//!   upper bound above 7 or a lower bound below -7 cannot be weakened into entry
//!   1's range, and is then not kept there.
//! * Empty: value 0. An entry answers only if its value is non-zero **and** its
//!   partial key matches, so an all-zero set never passes for the empty board
//!   (key 0) or any key whose low 26 bits are zero.
//! * Replacement (the table asks for the work of each search, [`work_depth`]): a
//!   position in entry 0 is updated there (entry 0 stays big); the result of a big
//!   search (`work_depth` at least [`BIG_WORK`]), or any result when entry 0 is
//!   empty or not big, takes entry 0 and moves entry 0's old content to entry 1
//!   (over whatever was there, this position's old entry included); any other
//!   result goes to entry 1. So the expensive results of the search stay, and the
//!   cheap ones share the second entry, as in the two-tier tables of
//!   `table::replace` (the `research` feature). On the empty board this keeps
//!   about as many useful entries as an always-replace table of 16 times the size.
//!
//! # Why 26 bits of key are exact (Chinese remainder theorem)
//!
//! A set is reached by `key mod p` and its entries hold `key mod 2^26`. Since `p`
//! is an odd prime, `p` and `2^26` are coprime, so by the Chinese remainder theorem
//! the pair `(key mod p, key mod 2^26)` determines `key mod (p * 2^26)`: two
//! different keys below `p * 2^26` can never share both set and partial key. Every
//! key the solver stores is below [`key_bound`]: the searched positions never
//! contain four in a row, so the last column's 7-bit field of `current + mask` is
//! at most `2^H + 0b111011` (a full column whose stones of the player to move have
//! no run of four), and on 7x6 every key is below `124 * 2^42 < 2^26 * 8,257,531`
//! (the sets of 63 MB). A table too small for this argument is refused
//! ([`TableError::TooSmallForKey`]).
//!
//! [`work_depth`]: super::work_depth

use super::{Bound, DirtyBlocks, Hit, Modulus, Slots, Table, TableError, prev_prime};
use crate::bits::Bits;

/// Bits of the partial key kept in an entry.
pub(crate) const KEY_BITS: u32 = 26;
/// Bits of entry 0's value.
const VALUE0_BITS: u32 = 6;
/// Bits of entry 1's value (the bit above them is entry 0's `big` flag).
const VALUE1_BITS: u32 = 5;
/// A search of at least `2^(BIG_WORK - 1)` nodes ([`super::work_depth`] at least
/// `BIG_WORK`) is big: its result keeps entry 0.
pub(crate) const BIG_WORK: u8 = 8;
const KEY_MASK: u64 = (1 << KEY_BITS) - 1;
const VALUE0_MASK: u32 = (1 << VALUE0_BITS) - 1;
const VALUE1_MASK: u32 = (1 << VALUE1_BITS) - 1;
const BIG: u32 = 1 << VALUE1_BITS;
/// Codes per bound kind in entry 0 (`1..=R0` upper, `R0+1..=2*R0` lower).
const R0: i32 = (VALUE0_MASK as i32) / 2;
/// Codes per bound kind in entry 1, centred on 0: scores in `-E1..=E1`.
const E1: i32 = (VALUE1_MASK as i32 / 2 - 1) / 2;
const _: () = assert!(
    KEY_BITS + VALUE0_BITS == u32::BITS && KEY_BITS + VALUE1_BITS + 1 == u32::BITS,
    "key and value fill each u32 entry"
);
const _: () = assert!(R0 == 31 && E1 == 7);

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
pub(crate) const fn key_bound(w: usize, h: usize) -> u128 {
    ((1u128 << h) + no_four_max(h) as u128 + 1) << ((w - 1) * (h + 1))
}

/// The compact table: sets of two 4-byte entries holding one upper or lower bound
/// each; see the module documentation for the layout and the replacement.
#[derive(Clone, Debug)]
pub struct CompactTable {
    sets: Slots<u64>,
    /// Every key stored must be below this for the partial key to be exact.
    key_bound: u128,
    dirty: DirtyBlocks,
    /// The number of sets, for the division-free remainder.
    modulus: Modulus,
    /// How bounds are coded into a set.
    codes: SetCodes,
}

/// How the bounds of a board's scores are coded into a set of two entries, and
/// what reading and writing a set does (see the module documentation): shared by
/// [`CompactTable`] and the [shared table](super::shared)'s
/// [`Narrow`](super::shared::Narrow) layout, so that one thread over either
/// explores the same nodes.
#[derive(Clone, Debug)]
pub struct SetCodes {
    /// Lowest score of the board.
    min_score: i32,
    /// Highest score of the board.
    max_score: i32,
    /// Entry 1's code of the bound of each entry-0 code (0: out of its range).
    demoted: [u8; 64],
}

impl CompactTable {
    /// A table of at most `mb` megabytes (2^20 bytes) for a board whose scores lie in
    /// `[min_score, max_score]` and whose keys are below `key_bound`: the largest
    /// prime number of 8-byte sets that fits.
    ///
    /// Fails if the memory cannot be allocated, or if the table has too few sets for
    /// the 26-bit partial key to be exact (below 63 MB on 7x6).
    ///
    /// # Panics
    /// If `min_score > max_score`.
    pub fn new(
        mb: usize,
        min_score: i32,
        max_score: i32,
        key_bound: u128,
    ) -> Result<Self, TableError> {
        let codes = SetCodes::new(min_score, max_score);
        let len = Self::sets_for(mb, key_bound)? as usize;
        Ok(CompactTable {
            key_bound,
            sets: Slots::zeroed(len, mb)?,
            dirty: DirtyBlocks::new(len, mb)?,
            modulus: Modulus::new(len as u64),
            codes,
        })
    }

    /// The number of sets of a table of at most `mb` megabytes for keys below
    /// `key_bound`, without allocating it: the largest prime that fits.
    ///
    /// # Errors
    /// [`TableError::TooSmall`] for 0 MB, [`TableError::Alloc`] if the size
    /// overflows, [`TableError::TooSmallForKey`] if the partial key would not be
    /// exact.
    pub fn sets_for(mb: usize, key_bound: u128) -> Result<u64, TableError> {
        let len = Self::sets_of(mb)?;
        if u128::from(len) << KEY_BITS < key_bound {
            // The smallest size that works, for the message.
            // (Counted from the sets needed, not by trying every size from `mb` up:
            // a board of 64 bits needs terabytes.)
            let need = key_bound.div_ceil(1 << KEY_BITS);
            let per_mb = (1u128 << 20) / std::mem::size_of::<u64>() as u128;
            let mut min_mb = usize::try_from(need.div_ceil(per_mb)).unwrap_or(usize::MAX);
            while min_mb < usize::MAX >> 20 && u128::from(prev_prime((min_mb as u64) << 17)) < need
            {
                min_mb += 1;
            }
            return Err(TableError::TooSmallForKey { mb, min_mb });
        }
        Ok(len)
    }

    /// Whether a table of `mb` megabytes keeps keys below `key_bound` exact: as
    /// [`CompactTable::sets_for`] without working out the least size that would
    /// (slow for keys of 78 bits, and only wanted for a message).
    pub(crate) fn fits(mb: usize, key_bound: u128) -> bool {
        Self::sets_of(mb).is_ok_and(|len| u128::from(len) << KEY_BITS >= key_bound)
    }

    /// The sets of a table of at most `mb` megabytes: the largest prime that fits.
    fn sets_of(mb: usize) -> Result<u64, TableError> {
        if mb == 0 {
            return Err(TableError::TooSmall { mb });
        }
        let bytes = mb.checked_mul(1 << 20).ok_or(TableError::Alloc { mb })?;
        Ok(prev_prime((bytes / std::mem::size_of::<u64>()) as u64))
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

    /// Number of entries (two per set).
    #[cfg(any(test, feature = "research"))]
    pub fn len(&self) -> usize {
        2 * self.sets.len()
    }

    /// Always false: a table has at least one set.
    #[cfg(feature = "research")]
    pub fn is_empty(&self) -> bool {
        self.sets.is_empty()
    }

    /// `key mod sets`, without a division.
    #[inline]
    fn index<K: Bits>(&self, key: K) -> usize {
        self.modulus.reduce(key) as usize
    }

    /// Hints the processor to fetch the set of `key` into the cache.
    #[inline]
    pub fn prefetch<K: Bits>(&self, key: K) {
        super::prefetch_ptr(self.sets.as_ptr().wrapping_add(self.index(key)));
    }

    /// What the table holds for `key`: a score and its bound.
    ///
    /// Precondition: `key` below the key bound the table was built for
    /// (`debug_assert!`ed).
    #[inline]
    pub fn get<K: Bits>(&self, key: K) -> Option<(i32, Bound)> {
        debug_assert!(key.to_u128() < self.key_bound, "key above the exact bound");
        self.codes.read(self.sets[self.index(key)], key.low_u64())
    }

    /// Records `score` as a `bound` for `key`, from a search whose
    /// `super::work_depth` was `work` (see the module documentation for where it
    /// goes).
    ///
    /// Precondition: `key` below the key bound the table was built for (the
    /// partial key is exact only there; `debug_assert!`ed).
    #[inline]
    pub fn put<K: Bits>(&mut self, key: K, score: i32, bound: Bound, work: u8) {
        debug_assert!(key.to_u128() < self.key_bound, "key above the exact bound");
        let i = self.index(key);
        let set = self.sets[i];
        if let Some(new) = self.codes.write(set, key.low_u64(), score, bound, work) {
            if set == 0 {
                self.dirty.mark(i);
            }
            self.sets[i] = new;
        }
    }

    /// Empties the table (only the sets written since the last clear are touched).
    pub fn clear(&mut self) {
        self.dirty.clear(&mut self.sets);
    }
}

impl SetCodes {
    /// The codes of a board whose scores lie in `[min_score, max_score]`.
    ///
    /// # Panics
    /// If `min_score > max_score`.
    pub fn new(min_score: i32, max_score: i32) -> Self {
        assert!(min_score <= max_score, "empty score range");
        let mut codes = SetCodes {
            min_score,
            max_score,
            demoted: [0; 64],
        };
        for code in 1..=2 * R0 as u32 {
            let (score, bound) = codes.decode0(code);
            codes.demoted[code as usize] = Self::code1(score, bound) as u8;
        }
        codes
    }

    /// Entry 0's code of an upper bound `u` (weakened into range if needed).
    #[inline]
    fn upper0(&self, u: i32) -> u32 {
        let lo = self.max_score - R0 + 1;
        (u.clamp(lo, self.max_score) - lo + 1) as u32
    }

    /// Entry 0's code of a lower bound `l` (weakened into range if needed).
    #[inline]
    fn lower0(&self, l: i32) -> u32 {
        (l.clamp(self.min_score, self.min_score + R0 - 1) - self.min_score + 1 + R0) as u32
    }

    /// Entry 0's code of a bound.
    #[inline]
    fn code0(&self, score: i32, bound: Bound) -> u32 {
        match bound {
            Bound::Upper => self.upper0(score),
            Bound::Lower | Bound::Exact => self.lower0(score),
        }
    }

    /// Decodes entry 0's non-zero code.
    #[inline]
    fn decode0(&self, code: u32) -> (i32, Bound) {
        debug_assert!(code != 0 && code <= VALUE0_MASK);
        let v = code as i32;
        if v > R0 {
            (self.min_score + v - R0 - 1, Bound::Lower)
        } else {
            (self.max_score - R0 + v, Bound::Upper)
        }
    }

    /// Entry 1's code of a bound, or 0 if it cannot be weakened into `-E1..=E1`.
    #[inline]
    const fn code1(score: i32, bound: Bound) -> u32 {
        match bound {
            Bound::Upper if score > E1 => 0,
            Bound::Upper => (if score < -E1 { -E1 } else { score } + E1 + 1) as u32,
            Bound::Lower | Bound::Exact if score < -E1 => 0,
            Bound::Lower | Bound::Exact => {
                (if score > E1 { E1 } else { score } + 3 * E1 + 2) as u32
            }
        }
    }

    /// Decodes entry 1's non-zero code.
    #[inline]
    const fn decode1(code: u32) -> (i32, Bound) {
        debug_assert!(code != 0 && code <= VALUE1_MASK);
        let v = code as i32;
        if v > 2 * E1 + 1 {
            (v - 3 * E1 - 2, Bound::Lower)
        } else {
            (v - E1 - 1, Bound::Upper)
        }
    }

    /// Entry 0's content moved to entry 1 (its key and its bound made to fit, or
    /// an empty entry 1 if it cannot), without the `big` flag.
    #[inline]
    fn demote(&self, entry0: u32) -> u32 {
        match self.demoted[(entry0 & VALUE0_MASK) as usize] {
            0 => 0,
            c => (entry0 & !VALUE0_MASK) | u32::from(c),
        }
    }

    /// What `set` holds for `key`: a score and its bound (`None` if neither entry
    /// is non-empty with `key`'s partial key).
    #[inline]
    pub fn read(&self, set: u64, key: u64) -> Option<(i32, Bound)> {
        let k = (key & KEY_MASK) as u32;
        let (e0, e1) = (set as u32, (set >> 32) as u32);
        if e0 >> VALUE0_BITS == k && e0 & VALUE0_MASK != 0 {
            Some(self.decode0(e0 & VALUE0_MASK))
        } else if e1 >> VALUE0_BITS == k && e1 & VALUE1_MASK != 0 {
            Some(Self::decode1(e1 & VALUE1_MASK))
        } else {
            None
        }
    }

    /// `set` after recording `score` as a `bound` for `key`, from a search whose
    /// [`super::work_depth`] was `work` (see the module documentation for where it
    /// goes); `None` if the set stays as it is (a small result whose bound does not
    /// fit entry 1 beside a big one). The result is never 0.
    #[inline]
    pub fn write(&self, set: u64, key: u64, score: i32, bound: Bound, work: u8) -> Option<u64> {
        let k = (key & KEY_MASK) as u32;
        let (e0, e1) = (set as u32, (set >> 32) as u32);
        let big = u32::from(work >= BIG_WORK) * BIG;
        let code0 = self.code0(score, bound);
        let new0 = (k << VALUE0_BITS) | code0;
        let (new_e0, new_e1) = if e0 >> VALUE0_BITS == k && e0 != 0 {
            // Updated in place; entry 0 stays big.
            (new0, e1 | big)
        } else if big != 0 || e1 & BIG == 0 {
            // Entry 0 is taken (by a big result, or over a small one); its old
            // content moves to entry 1 (over this position's entry 1, if any).
            (new0, self.demote(e0) | big)
        } else {
            // A small result beside a big one: entry 1, if its bound fits there.
            match self.demoted[code0 as usize] {
                0 => return None,
                c => (e0, (k << VALUE0_BITS) | u32::from(c) | BIG),
            }
        };
        Some(u64::from(new_e0) | (u64::from(new_e1) << 32))
    }

    /// Entries in use in `set` (0, 1 or 2).
    #[inline]
    #[cfg(any(test, feature = "research"))]
    pub fn entries(set: u64) -> u32 {
        u32::from(set as u32 != 0) + u32::from((set >> 32) as u32 & VALUE1_MASK != 0)
    }
}

/// One bound per entry: an exact score is stored as a lower bound (the tuned search
/// never produces one); no best move is kept. The table wants the work of each
/// search as its depth.
impl Table for CompactTable {
    const DEPTH_IS_WORK: bool = true;

    #[inline]
    fn probe<K: Bits>(&mut self, key: K) -> Option<Hit> {
        self.get(key).map(Hit::without_move)
    }

    #[inline]
    fn store<K: Bits>(&mut self, key: K, score: i32, bound: Bound, _best: Option<u8>, depth: u8) {
        self.put(key, score, bound, depth);
    }

    #[inline]
    fn prefetch<K: Bits>(&self, key: K) {
        CompactTable::prefetch(self, key);
    }

    fn clear(&mut self) {
        CompactTable::clear(self);
    }

    fn prefault(&mut self) {
        self.sets.prefault();
    }

    #[cfg(any(test, feature = "research"))]
    fn hashfull(&self) -> u32 {
        let n = self.sets.len().min(500);
        let full: u32 = self.sets[..n].iter().map(|&s| SetCodes::entries(s)).sum();
        full * 1000 / (2 * n.max(1)) as u32
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
        assert_eq!(t.sets.len(), 8_388_593);
        assert_eq!(t.len(), 16_777_186);
        assert_eq!(key_bound(7, 6), 124 << 42);
        assert!((t.sets.len() as u128) << KEY_BITS >= key_bound(7, 6));
        assert_eq!(no_four_max(6), 0b111011);
        assert_eq!(no_four_max(3), 0b111);
        assert_eq!(
            CompactTable::for_board::<7, 6>(32).unwrap_err(),
            TableError::TooSmallForKey { mb: 32, min_mb: 63 }
        );
        assert_eq!(
            CompactTable::sets_for(62, key_bound(7, 6)).unwrap_err(),
            TableError::TooSmallForKey { mb: 62, min_mb: 63 }
        );
        assert_eq!(CompactTable::sets_for(63, key_bound(7, 6)), Ok(8_257_531));
        // 8x7: 64-bit keys need 2^38 sets, 2 TB: said at once, not searched for.
        let Err(TableError::TooSmallForKey { min_mb, .. }) =
            CompactTable::sets_for(64, key_bound(8, 7))
        else {
            panic!("8x7 keys do not fit 64 MB");
        };
        assert_eq!(
            min_mb as u128,
            (key_bound(8, 7) >> 26).div_ceil(1 << 17) + 1
        );
        assert!(CompactTable::for_board::<7, 6>(0).is_err());
        // small boards need small tables
        assert!(CompactTable::for_board::<4, 4>(1).is_ok());
    }

    #[test]
    fn index_is_key_mod_sets() {
        let t = table();
        let n = t.sets.len() as u64;
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
    fn codes_round_trip_and_weaken_only() {
        let t = table();
        for s in -18..=18 {
            let (u, b) = t.codes.decode0(t.codes.code0(s, Bound::Upper));
            assert_eq!(b, Bound::Upper);
            assert_eq!(u, s.max(-12), "an upper bound may only rise");
            let (l, b) = t.codes.decode0(t.codes.code0(s, Bound::Lower));
            assert_eq!(b, Bound::Lower);
            assert_eq!(l, s.min(12), "a lower bound may only fall");
            assert_eq!(
                t.codes.decode0(t.codes.code0(s, Bound::Exact)).1,
                Bound::Lower
            );
            match SetCodes::code1(s, Bound::Upper) {
                0 => assert!(s > 7),
                c => assert_eq!(SetCodes::decode1(c), (s.max(-7), Bound::Upper)),
            }
            match SetCodes::code1(s, Bound::Lower) {
                0 => assert!(s < -7),
                c => assert_eq!(SetCodes::decode1(c), (s.min(7), Bound::Lower)),
            }
        }
        // codes fill their fields and never collide with "empty"
        assert_eq!(t.codes.code0(18, Bound::Upper), 31);
        assert_eq!(t.codes.code0(12, Bound::Lower), 62);
        assert_eq!(SetCodes::code1(-7, Bound::Upper), 1);
        assert_eq!(SetCodes::code1(7, Bound::Lower), 30);
    }

    /// Keys of one set: `base + j * sets`.
    fn same_set(t: &CompactTable, j: u64) -> u64 {
        0x1234 + j * t.sets.len() as u64
    }

    #[test]
    fn big_results_keep_entry_0_and_small_ones_share_entry_1() {
        let mut t = table();
        let [a, b, c, d] = [0, 1, 2, 3].map(|j| same_set(&t, j));
        let small = BIG_WORK - 1;
        // Small results: the newest in entry 0, the previous one in entry 1.
        t.put(a, 1, Bound::Lower, small);
        t.put(b, -2, Bound::Upper, small);
        assert_eq!(t.get(a), Some((1, Bound::Lower)));
        assert_eq!(t.get(b), Some((-2, Bound::Upper)));
        t.put(c, 3, Bound::Lower, small);
        assert_eq!(t.get(a), None, "the oldest small result is gone");
        assert_eq!(t.get(b), Some((-2, Bound::Upper)));
        assert_eq!(t.get(c), Some((3, Bound::Lower)));
        // A big result takes entry 0; small ones then only replace entry 1.
        t.put(d, 0, Bound::Upper, BIG_WORK);
        assert_eq!(t.get(c), Some((3, Bound::Lower)), "moved to entry 1");
        assert_eq!(t.get(b), None);
        t.put(a, 5, Bound::Lower, small);
        t.put(b, 6, Bound::Lower, small);
        assert_eq!(t.get(d), Some((0, Bound::Upper)), "the big result stays");
        assert_eq!(t.get(b), Some((6, Bound::Lower)));
        assert_eq!(t.get(a), None);
        // Updated in place, the big result stays big even after a small search.
        t.put(d, 2, Bound::Lower, 1);
        t.put(c, 4, Bound::Upper, small);
        assert_eq!(t.get(d), Some((2, Bound::Lower)));
        assert_eq!(t.get(c), Some((4, Bound::Upper)));
        // Another big result replaces it.
        t.put(a, -1, Bound::Upper, BIG_WORK + 3);
        assert_eq!(t.get(a), Some((-1, Bound::Upper)));
        assert_eq!(t.get(d), Some((2, Bound::Lower)), "moved to entry 1");
    }

    #[test]
    fn a_big_result_in_entry_1_swaps_with_a_small_entry_0() {
        let mut t = table();
        let [a, b] = [0, 1].map(|j| same_set(&t, j));
        t.put(a, 1, Bound::Lower, 1);
        t.put(b, 2, Bound::Lower, 1);
        // `a` is in entry 1; its new search is big.
        t.put(a, 3, Bound::Lower, BIG_WORK);
        assert_eq!(t.get(a), Some((3, Bound::Lower)));
        assert_eq!(t.get(b), Some((2, Bound::Lower)));
        // `a` now holds entry 0: a small result leaves it there.
        let c = same_set(&t, 2);
        t.put(c, 0, Bound::Upper, 1);
        assert_eq!(t.get(a), Some((3, Bound::Lower)));
        assert_eq!(t.get(c), Some((0, Bound::Upper)));
        assert_eq!(t.get(b), None);
    }

    #[test]
    fn entry_1_keeps_only_bounds_of_its_range() {
        let mut t = table();
        let [a, b, c] = [0, 1, 2].map(|j| same_set(&t, j));
        t.put(a, 0, Bound::Lower, BIG_WORK);
        // An upper bound of 9 cannot go to entry 1: not kept.
        t.put(b, 9, Bound::Upper, 1);
        assert_eq!(t.get(b), None);
        // A lower bound of 9 is kept as 7.
        t.put(c, 9, Bound::Lower, 1);
        assert_eq!(t.get(c), Some((7, Bound::Lower)));
        // Entry 0's upper bound of 10, pushed out by a big result, is dropped.
        t.put(b, 10, Bound::Upper, BIG_WORK);
        t.put(c, 1, Bound::Lower, BIG_WORK);
        assert_eq!(t.get(b), None);
        assert_eq!(t.get(c), Some((1, Bound::Lower)));
        assert_eq!(t.get(a), None);
    }

    #[test]
    fn zero_keys_are_not_empty_entries() {
        let mut t = table();
        // The empty board (key 0) and keys with zero low 26 bits (below the key
        // bound, only key 0 has both a zero set index and a zero partial key): an
        // empty table knows none of them.
        let zero_low = [0u64, 1 << KEY_BITS, 5 << (KEY_BITS + 3), 3 << 40];
        for &k in &zero_low {
            assert_eq!(t.get(k), None, "key {k:#x}");
            assert_eq!(t.probe(k), None);
        }
        // Storing the empty board makes only it known.
        t.put(0u64, -18, Bound::Upper, 1);
        assert_eq!(t.get(0u64), Some((-12, Bound::Upper)));
        t.put(1u64 << KEY_BITS, 3, Bound::Lower, 1);
        assert_eq!(t.get(1u64 << KEY_BITS), Some((3, Bound::Lower)));
        assert_eq!(t.get(0u64), Some((-12, Bound::Upper)), "different set");
        let n = t.sets.len() as u64;
        // Same set (key n), other partial key: both kept, then the oldest goes.
        t.put(n, 2, Bound::Lower, 1);
        t.put(2 * n, 1, Bound::Lower, 1);
        assert_eq!(t.get(n), Some((2, Bound::Lower)));
        assert_eq!(t.get(2 * n), Some((1, Bound::Lower)));
        assert_eq!(t.get(0u64), None, "replaced");
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "key above the exact bound")]
    fn keys_above_the_bound_are_caught() {
        let mut t = CompactTable::for_board::<4, 4>(1).unwrap();
        t.put(key_bound(4, 4) as u64, 1, Bound::Lower, 1);
    }

    #[test]
    fn prefault_keeps_every_entry() {
        let mut t = CompactTable::for_board::<4, 4>(1).unwrap();
        let keys = (0..20_000u64).map(|k| k * 23);
        for k in keys.clone() {
            t.put(k, (k % 11) as i32 - 5, Bound::Lower, (k % 16) as u8);
        }
        let before: Vec<_> = keys.clone().map(|k| t.get(k)).collect();
        let sets = t.sets.to_vec();
        Table::prefault(&mut t);
        assert_eq!(&t.sets[..], &sets[..]);
        assert_eq!(keys.map(|k| t.get(k)).collect::<Vec<_>>(), before);
    }

    #[test]
    fn clear_resets_everything_written() {
        let mut t = CompactTable::for_board::<4, 4>(1).unwrap();
        for k in (0..50_000u64).map(|k| k * 19) {
            t.put(k, (k % 11) as i32 - 5, Bound::Lower, (k % 16) as u8);
        }
        assert!(t.hashfull() > 100);
        t.clear();
        assert!(t.sets.iter().all(|&s| s == 0));
        assert_eq!(t.hashfull(), 0);
    }
}
