//! The shared table: the compact table's design in atomic words, so that several
//! threads can search over one table at once, without locks.
//!
//! Rules of use (as in Stockfish's `tt.h`):
//!
//! * Every entry is one atomic word, read and written whole with relaxed ordering:
//!   a thread sees either an old entry or a new one, never half of each (no torn
//!   entries). On x86-64 a relaxed load or store is a plain `mov`: a thread alone
//!   on the table runs as fast as on [`CompactTable`](super::CompactTable).
//! * Every entry is a true bound of the position it names, whichever thread wrote
//!   it and whatever root that thread was searching, so a thread may use any entry
//!   it finds; a store may overwrite another thread's entry (always replace), which
//!   only loses information.
//! * [`SharedTable::clear`] and the table's creation need no search running.
//! * A [`SharedTable`] is a [`Table`], so the searches run over it unchanged; each
//!   thread holds its own handle on the same memory ([`Share::share`]; a handle
//!   keeps the slots' address, so a probe reaches them with no more indirection
//!   than a table of one thread's).
//!
//! The layout of an entry is a [`Layout`]: [`Narrow`] here (4 bytes, the compact
//! table's), [`Wide`](super::wide::Wide) (8 bytes, the full key) for tables too
//! small for the narrow partial key to stay exact.
//!
//! # Entry layout of [`Narrow`] (one `AtomicU32` per slot)
//!
//! | bits  | width | field | meaning                                                        |
//! |-------|-------|-------|----------------------------------------------------------------|
//! | 0..7  | 7     | value | 0 = empty; `1..=R`: upper bound `u`, stored as `u - MIN + 1`; `R+1..=2R`: lower bound `l`, stored as `l - MIN + 1 + R` (`R = MAX - MIN + 1`, 37 on 7x6) |
//! | 7..32 | 25    | key   | `key mod 2^25` (the low 25 bits of the position key)           |
//!
//! * Index: `key mod p`, `p` the largest prime number of slots that fits (the same
//!   slots as [`CompactTable`](super::CompactTable) of the same size: one thread
//!   over either table explores the same nodes).
//! * Empty: value 0. A slot answers only if its value is non-zero **and** its key
//!   field matches, so an empty slot never passes for a key whose partial key is 0.
//! * Exact when `p * 2^25` is above every key (Chinese remainder theorem; see
//!   [`compact`](super::compact)): at least 63 MB on 7x6.
//!

use std::fmt::Debug;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};

use super::{Bound, Hit, Table, TableError, prev_prime};

/// One slot: an atomic integer, read and written whole.
pub trait Word: Send + Sync + Debug + 'static {
    /// An empty slot.
    fn zero() -> Self;
    /// Reads the slot.
    fn get(&self) -> u64;
    /// Writes the slot (`v` fits the word).
    fn set(&self, v: u64);
}

impl Word for AtomicU32 {
    #[inline]
    fn zero() -> Self {
        AtomicU32::new(0)
    }
    #[inline]
    fn get(&self) -> u64 {
        u64::from(self.load(Relaxed))
    }
    #[inline]
    fn set(&self, v: u64) {
        debug_assert!(v <= u64::from(u32::MAX));
        self.store(v as u32, Relaxed);
    }
}

impl Word for AtomicU64 {
    #[inline]
    fn zero() -> Self {
        AtomicU64::new(0)
    }
    #[inline]
    fn get(&self) -> u64 {
        self.load(Relaxed)
    }
    #[inline]
    fn set(&self, v: u64) {
        self.store(v, Relaxed);
    }
}

/// How a key and a 7-bit value share one word. Value 0 means empty.
pub trait Layout: Send + Sync + Debug + 'static {
    /// The slot type.
    type Word: Word;
    /// The design's name, for messages.
    const NAME: &'static str;
    /// Whether `len` slots keep every key below `key_bound` exact.
    fn exact(len: u64, key_bound: u128) -> bool;
    /// The word holding `value` (1..=127) for `key`.
    fn pack(key: u64, value: u8) -> u64;
    /// The value `word` holds for `key`: 0 if it is empty or of another key.
    fn unpack(key: u64, word: u64) -> u8;
}

/// The compact table's 4-byte entries: 25-bit partial key, 7-bit value.
#[derive(Clone, Copy, Debug)]
pub struct Narrow;

/// Bits of the partial key of a [`Narrow`] entry.
pub const KEY_BITS: u32 = 25;
const VALUE_BITS: u32 = 7;
const VALUE_MASK: u64 = (1 << VALUE_BITS) - 1;
const _: () = assert!(
    KEY_BITS + VALUE_BITS == u32::BITS,
    "key and value fill one u32"
);

impl Layout for Narrow {
    type Word = AtomicU32;
    const NAME: &'static str = "compact";
    fn exact(len: u64, key_bound: u128) -> bool {
        u128::from(len) << KEY_BITS >= key_bound
    }
    #[inline]
    fn pack(key: u64, value: u8) -> u64 {
        ((key & ((1 << KEY_BITS) - 1)) << VALUE_BITS) | u64::from(value)
    }
    #[inline]
    fn unpack(key: u64, word: u64) -> u8 {
        if word >> VALUE_BITS == key & ((1 << KEY_BITS) - 1) {
            (word & VALUE_MASK) as u8
        } else {
            0
        }
    }
}

/// Slots per dirty group (as [`DirtyBlocks::GROUP`](super::DirtyBlocks::GROUP)).
const GROUP: usize = 8;

/// The memory every handle of one table shares.
#[derive(Debug)]
struct Storage<L: Layout> {
    slots: Box<[L::Word]>,
    /// One bit per group of [`GROUP`] slots written since the last clear, and one
    /// summary bit per 64 group bits (like [`DirtyBlocks`](super::DirtyBlocks), in
    /// atomic words).
    groups: Box<[AtomicU64]>,
    summary: Box<[AtomicU64]>,
}

/// The shared table: one handle per thread, all on the same memory (see the
/// module documentation).
///
/// [`Share::share`] gives another thread a handle on the same slots; `clone`
/// copies the table, like every other table's `clone`, so that a cloned solver
/// never shares its table by accident.
#[derive(Debug)]
pub struct SharedTable<L: Layout> {
    /// The slots, kept alive by `storage`: a probe reads `slots[i]` directly, not
    /// through the `Arc`.
    slots: *const L::Word,
    len: usize,
    storage: Arc<Storage<L>>,
    /// `floor(2^64 / len)`, for the division-free remainder.
    magic: u64,
    /// Every key stored must be below this.
    key_bound: u128,
    min_score: i32,
    /// Number of distinct scores, `MAX - MIN + 1`.
    range: i32,
}

// SAFETY: `slots` points into `storage.slots`, which `storage` keeps alive and
// never moves or frees while a handle exists; the slots are atomics, which any
// thread may read and write through a shared reference.
unsafe impl<L: Layout> Send for SharedTable<L> {}
// SAFETY: as above; every method takes `&self` to the slots only through atomic
// operations.
unsafe impl<L: Layout> Sync for SharedTable<L> {}

fn atomic_vec<T>(len: usize, mb: usize, zero: impl Fn() -> T) -> Result<Box<[T]>, TableError> {
    let mut v: Vec<T> = Vec::new();
    v.try_reserve_exact(len)
        .map_err(|_| TableError::Alloc { mb })?;
    super::advise_huge_pages(
        v.as_mut_ptr().cast::<u8>(),
        v.capacity() * std::mem::size_of::<T>(),
    );
    v.extend((0..len).map(|_| zero()));
    Ok(v.into_boxed_slice())
}

impl<L: Layout> SharedTable<L> {
    /// The number of slots of a table of at most `mb` megabytes for keys below
    /// `key_bound`, without allocating it: the largest prime that fits.
    ///
    /// # Errors
    /// [`TableError::TooSmall`] for 0 MB, [`TableError::Alloc`] if the size
    /// overflows, [`TableError::TooSmallForKey`] if the layout's partial key would
    /// not be exact.
    pub fn slots_for(mb: usize, key_bound: u128) -> Result<u64, TableError> {
        if mb == 0 {
            return Err(TableError::TooSmall { mb });
        }
        let bytes = mb.checked_mul(1 << 20).ok_or(TableError::Alloc { mb })?;
        let len = prev_prime((bytes / std::mem::size_of::<L::Word>()) as u64);
        if !L::exact(len, key_bound) {
            let mut min_mb = mb;
            while !L::exact(
                prev_prime(((min_mb << 20) / std::mem::size_of::<L::Word>()) as u64),
                key_bound,
            ) {
                min_mb += 1;
            }
            return Err(TableError::TooSmallForKey { mb, min_mb });
        }
        Ok(len)
    }

    /// A table of at most `mb` megabytes for a board whose scores lie in
    /// `[min_score, max_score]` and whose keys are below `key_bound`.
    ///
    /// # Errors
    /// As [`SharedTable::slots_for`], or [`TableError::Alloc`] if the memory cannot
    /// be had.
    ///
    /// # Panics
    /// If the scores do not fit the 7-bit value.
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
        let len = Self::slots_for(mb, key_bound)? as usize;
        let words = len.div_ceil(GROUP).div_ceil(64);
        let storage = Storage {
            slots: atomic_vec(len, mb, L::Word::zero)?,
            groups: atomic_vec(words, mb, || AtomicU64::new(0))?,
            summary: atomic_vec(words.div_ceil(64), mb, || AtomicU64::new(0))?,
        };
        Ok(Self::over(Arc::new(storage), min_score, range, key_bound))
    }

    /// A handle on `storage`.
    fn over(storage: Arc<Storage<L>>, min_score: i32, range: i32, key_bound: u128) -> Self {
        let len = storage.slots.len();
        SharedTable {
            slots: storage.slots.as_ptr(),
            len,
            storage,
            magic: u64::MAX / len as u64,
            key_bound,
            min_score,
            range,
        }
    }

    /// Slot `i`.
    #[inline]
    fn slot(&self, i: usize) -> &L::Word {
        debug_assert!(i < self.len);
        // SAFETY: `i < len` (an index is a remainder mod `len`), and `slots` points
        // to `len` slots that `storage` keeps alive (see the `Send` impl).
        unsafe { &*self.slots.add(i) }
    }

    /// Every slot.
    fn all_slots(&self) -> &[L::Word] {
        &self.storage.slots
    }

    /// A table of at most `mb` megabytes for the `W`x`H` board.
    ///
    /// # Errors
    /// As [`SharedTable::new`].
    pub fn for_board<const W: usize, const H: usize>(mb: usize) -> Result<Self, TableError> {
        use crate::position::Board;
        Self::new(
            mb,
            Board::<W, H>::MIN_SCORE,
            Board::<W, H>::MAX_SCORE,
            super::compact::key_bound(W, H),
        )
    }

    /// Number of slots.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Always false: a table has at least one slot.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// `key mod len` without a division (see [`CompactTable`](super::CompactTable)).
    #[inline]
    fn index(&self, key: u64) -> usize {
        let len = self.len as u64;
        let q = ((u128::from(key) * u128::from(self.magic)) >> 64) as u64;
        let mut r = key - q * len;
        if r >= len {
            r -= len;
        }
        debug_assert_eq!(r, key % len);
        r as usize
    }

    /// The raw value stored for `key` (0 if none).
    #[inline]
    pub fn get(&self, key: u64) -> u8 {
        debug_assert!(
            u128::from(key) < self.key_bound,
            "key above the exact bound"
        );
        L::unpack(key, self.slot(self.index(key)).get())
    }

    /// Stores the raw value `value` (1..=127) for `key`, replacing the slot.
    ///
    /// Preconditions: `value != 0`, `value < 128`, `key` below the key bound
    /// (`debug_assert!`ed).
    #[inline]
    pub fn put(&self, key: u64, value: u8) {
        debug_assert!(value != 0 && u64::from(value) <= VALUE_MASK);
        debug_assert!(
            u128::from(key) < self.key_bound,
            "key above the exact bound"
        );
        let i = self.index(key);
        let slot = self.slot(i);
        if slot.get() == 0 {
            self.mark(i);
        }
        slot.set(L::pack(key, value));
    }

    /// Marks slot `i` as written (an atomic `or` only the first time).
    #[inline]
    fn mark(&self, i: usize) {
        let g = i / GROUP;
        let (w, bit) = (g / 64, 1u64 << (g % 64));
        let st = &self.storage;
        if st.groups[w].load(Relaxed) & bit == 0 {
            st.groups[w].fetch_or(bit, Relaxed);
            st.summary[w / 64].fetch_or(1 << (w % 64), Relaxed);
        }
    }

    /// Empties the table: only the groups written since the last clear are zeroed.
    ///
    /// Precondition: no thread is searching over the table (a store racing with the
    /// clear would survive it; only node counts would show it).
    pub fn clear_all(&self) {
        let st = &self.storage;
        // No thread writes now: plain loads and stores, no read-modify-write.
        let take = |a: &AtomicU64| {
            let v = a.load(Relaxed);
            if v != 0 {
                a.store(0, Relaxed);
            }
            v
        };
        for (sw, s) in st.summary.iter().enumerate() {
            let mut bits = take(s);
            while bits != 0 {
                let w = sw * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let mut gbits = take(&st.groups[w]);
                while gbits != 0 {
                    let first = (w * 64 + gbits.trailing_zeros() as usize) * GROUP;
                    gbits &= gbits - 1;
                    for slot in &st.slots[first..(first + GROUP).min(self.len)] {
                        slot.set(0);
                    }
                }
            }
        }
    }

    /// The value of an upper bound `u`, clamped into the board's score range.
    #[inline]
    fn upper_value(&self, u: i32) -> u8 {
        (u.clamp(self.min_score, self.min_score + self.range - 1) - self.min_score + 1) as u8
    }

    /// The value of a lower bound `l`, clamped into the board's score range.
    #[inline]
    fn lower_value(&self, l: i32) -> u8 {
        (l.clamp(self.min_score, self.min_score + self.range - 1) - self.min_score + 1 + self.range)
            as u8
    }

    /// Decodes a non-zero value into a score and its bound.
    #[inline]
    fn decode(&self, value: u8) -> (i32, Bound) {
        debug_assert!(value != 0);
        let v = i32::from(value);
        if v > self.range {
            (v - self.range + self.min_score - 1, Bound::Lower)
        } else {
            (v + self.min_score - 1, Bound::Upper)
        }
    }
}

/// A copy of the table (every slot read once; other threads may be writing).
///
/// # Panics
/// If the memory cannot be had, like `Vec::clone`.
impl<L: Layout> Clone for SharedTable<L> {
    fn clone(&self) -> Self {
        let copy = |v: &[AtomicU64]| v.iter().map(|w| AtomicU64::new(w.get())).collect();
        let st = &self.storage;
        let storage = Storage {
            slots: st
                .slots
                .iter()
                .map(|w| {
                    let c = L::Word::zero();
                    c.set(w.get());
                    c
                })
                .collect(),
            groups: copy(&st.groups),
            summary: copy(&st.summary),
        };
        Self::over(
            Arc::new(storage),
            self.min_score,
            self.range,
            self.key_bound,
        )
    }
}

/// A table that several threads search over, each through its own handle.
pub trait Share: Table {
    /// Another handle on the same table (for another thread).
    fn share(&self) -> Self;
}

impl<L: Layout> Share for SharedTable<L> {
    fn share(&self) -> Self {
        Self::over(
            self.storage.clone(),
            self.min_score,
            self.range,
            self.key_bound,
        )
    }
}

/// One bound per slot, like [`CompactTable`](super::CompactTable): an exact score
/// is kept as a lower bound, no best move.
impl<L: Layout> Table for SharedTable<L> {
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
        super::prefetch_ptr(self.slots.wrapping_add(self.index(key)));
    }

    fn clear(&mut self) {
        self.clear_all();
    }

    fn hashfull(&self) -> u32 {
        let slots = self.all_slots();
        let n = slots.len().min(1000);
        let full = slots[..n].iter().filter(|s| s.get() != 0).count();
        (full * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::CompactTable;

    fn narrow(mb: usize) -> SharedTable<Narrow> {
        SharedTable::for_board::<7, 6>(mb).unwrap()
    }

    #[test]
    fn same_slots_as_the_compact_table() {
        let t = narrow(64);
        assert_eq!(t.len(), CompactTable::for_board::<7, 6>(64).unwrap().len());
        assert_eq!(
            SharedTable::<Narrow>::for_board::<7, 6>(32).unwrap_err(),
            TableError::TooSmallForKey { mb: 32, min_mb: 63 }
        );
        assert!(SharedTable::<Narrow>::for_board::<7, 6>(0).is_err());
    }

    #[test]
    fn zero_keys_are_not_empty_slots() {
        let t = narrow(64);
        let n = t.len() as u64;
        for k in [0, 1 << KEY_BITS, 5 << (KEY_BITS + 3), 3 << 40] {
            assert_eq!(t.get(k), 0, "key {k:#x}");
        }
        t.put(0, 1);
        assert_eq!(t.get(0), 1);
        assert_eq!(t.get(1 << KEY_BITS), 0);
        t.put(n, 9);
        assert_eq!((t.get(n), t.get(0)), (9, 0), "same slot: replaced");
    }

    #[test]
    fn bounds_round_trip_handles_share_and_clear_resets_everything() {
        let mut a = narrow(64);
        let mut b = a.share();
        for s in -18..=18 {
            for bound in [Bound::Upper, Bound::Lower] {
                a.store(12_345, s, bound, None, 0);
                let hit = b.probe(12_345).unwrap();
                assert_eq!((hit.score, hit.bound), (s, bound));
            }
        }
        for k in (0..50_000u64).map(|k| k * 7919) {
            a.store(k, 1, Bound::Upper, None, 0);
        }
        // A copy is a table of its own.
        let mut copy = a.clone();
        copy.clear();
        assert!(a.probe(12_345).is_some());
        b.clear();
        assert!(a.all_slots().iter().all(|s| s.get() == 0));
        assert!(a.probe(12_345).is_none());
    }

    #[test]
    fn threads_never_see_torn_entries() {
        // Four threads store values tied to their key into the same few slots;
        // every answer must be one that was stored for the key asked.
        let t = SharedTable::<Narrow>::new(1, -8, 8, 1 << 20).unwrap();
        let len = t.len() as u64;
        std::thread::scope(|s| {
            for id in 0..4u64 {
                let t = t.share();
                s.spawn(move || {
                    for round in 0..200_000u64 {
                        // keys 0, len, 2 len, 3 len share slot 0
                        let key = ((round + id) % 4) * len;
                        t.put(key, (key / len) as u8 + 1);
                        let asked = (round * 7 + id) % 4;
                        let got = t.get(asked * len);
                        assert!(got == 0 || got == asked as u8 + 1);
                    }
                });
            }
        });
    }
}
