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
//! The layout of a slot is a [`Layout`]: [`Narrow`] here (the compact table's
//! sets of two 4-byte entries in one 8-byte word), [`Wide`](super::wide::Wide)
//! (one 8-byte entry with the full key) for tables too small for the narrow
//! partial key to stay exact.
//!
//! # Slot layout of [`Narrow`] (one `AtomicU64` per set of two entries)
//!
//! Exactly [`CompactTable`](super::CompactTable)'s set (see
//! [`compact`](super::compact) for the fields): entry 0 keeps the result of the
//! bigger search, entry 1 the newest other, each a 26-bit partial key and an upper
//! or lower bound. The same number of sets as a [`CompactTable`](super::CompactTable)
//! of the same size and the same replacement ([`SetCodes`]), so one thread over
//! either table explores the same nodes.
//!
//! * A store reads the set's word, computes the new set and writes the word
//!   (relaxed load, relaxed store, no lock, no read-modify-write instruction). Two
//!   threads storing into one set at once may lose one store, or write back an
//!   entry the other had just replaced: every entry in either word is still a true
//!   bound of the key it names, so this only loses information. Both entries of a
//!   set live in the one word, so neither is ever torn.
//! * Empty: an entry with value 0. An entry answers only if its value is non-zero
//!   **and** its partial key matches, so an empty set never passes for a key whose
//!   partial key is 0.
//! * Exact when `p * 2^26` is above every key (Chinese remainder theorem; see
//!   [`compact`](super::compact)): at least 63 MB on 7x6.
//!

use std::fmt::Debug;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use super::compact::SetCodes;
use super::{Bound, Hit, Modulus, Table, TableError, prev_prime};
use crate::bits::Bits;

/// One slot: an atomic integer, read and written whole; all zero bits are an
/// empty slot (so that a table comes zeroed from the allocator).
pub trait Word: bytemuck::Zeroable + Send + Sync + Debug + 'static {
    /// Reads the slot.
    fn get(&self) -> u64;
    /// Writes the slot (`v` fits the word).
    fn set(&self, v: u64);
}

impl Word for AtomicU64 {
    #[inline]
    fn get(&self) -> u64 {
        self.load(Relaxed)
    }
    #[inline]
    fn set(&self, v: u64) {
        self.store(v, Relaxed);
    }
}

/// What a slot holds and how a bound is read from it and written into it. A word
/// of 0 is empty.
pub trait Layout: Send + Sync + Debug + 'static {
    /// The slot type.
    type Word: Word;
    /// How scores are coded, built once per table from its score range.
    type Codes: Clone + Debug + Send + Sync + 'static;
    /// The design's name, for messages.
    #[cfg(feature = "research")]
    const NAME: &'static str;
    /// Entries per slot.
    #[cfg(any(test, feature = "research"))]
    const ENTRIES: usize;
    /// Whether the table wants the work of each search as the store's depth
    /// (`Table::DEPTH_IS_WORK`).
    const DEPTH_IS_WORK: bool;
    /// Whether `len` slots keep every key below `key_bound` exact.
    fn exact(len: u64, key_bound: u128) -> bool;
    /// The codes of a board whose scores lie in `[min_score, max_score]`.
    ///
    /// # Panics
    /// If the layout cannot hold them.
    fn codes(min_score: i32, max_score: i32) -> Self::Codes;
    /// What `word` holds for `key`: its score and bound, `None` if nothing.
    fn read(codes: &Self::Codes, key: u64, word: u64) -> Option<(i32, Bound)>;
    /// `word` after storing `score` as a `bound` for `key` from a search of work
    /// `work`, or `None` to leave it. Never 0.
    fn write(
        codes: &Self::Codes,
        key: u64,
        word: u64,
        score: i32,
        bound: Bound,
        work: u8,
    ) -> Option<u64>;
    /// Entries in use in `word`.
    #[cfg(any(test, feature = "research"))]
    fn entries(word: u64) -> u32;
}

/// The compact table's sets of two 4-byte entries (26-bit partial keys, the bigger
/// search's result kept), one set per `AtomicU64`.
#[derive(Clone, Copy, Debug)]
pub struct Narrow;

impl Layout for Narrow {
    type Word = AtomicU64;
    type Codes = SetCodes;
    #[cfg(feature = "research")]
    const NAME: &'static str = "compact";
    #[cfg(any(test, feature = "research"))]
    const ENTRIES: usize = 2;
    const DEPTH_IS_WORK: bool = true;
    fn exact(len: u64, key_bound: u128) -> bool {
        u128::from(len) << super::compact::KEY_BITS >= key_bound
    }
    fn codes(min_score: i32, max_score: i32) -> SetCodes {
        SetCodes::new(min_score, max_score)
    }
    #[inline]
    fn read(codes: &SetCodes, key: u64, word: u64) -> Option<(i32, Bound)> {
        codes.read(word, key)
    }
    #[inline]
    fn write(
        codes: &SetCodes,
        key: u64,
        word: u64,
        score: i32,
        bound: Bound,
        work: u8,
    ) -> Option<u64> {
        codes.write(word, key, score, bound, work)
    }
    #[cfg(any(test, feature = "research"))]
    #[inline]
    fn entries(word: u64) -> u32 {
        SetCodes::entries(word)
    }
}

/// Slots per dirty group (as [`DirtyBlocks::GROUP`](super::DirtyBlocks::GROUP)).
const GROUP: usize = 8;

/// The memory every handle of one table shares.
#[derive(Debug)]
struct Storage<L: Layout> {
    slots: super::Slots<L::Word>,
    /// One bit per group of [`GROUP`] slots written since the last clear, and one
    /// summary bit per 64 group bits (like [`DirtyBlocks`](super::DirtyBlocks), in
    /// atomic words).
    groups: super::Slots<AtomicU64>,
    summary: super::Slots<AtomicU64>,
}

/// The shared table: one handle per thread, all on the same memory (see the
/// module documentation).
///
/// `Share::share` gives another thread a handle on the same slots; `clone`
/// copies the table, like every other table's `clone`, so that a cloned solver
/// never shares its table by accident.
#[derive(Debug)]
pub struct SharedTable<L: Layout> {
    /// The slots, kept alive by `storage`: a probe reads `slots[i]` directly, not
    /// through the `Arc`.
    slots: *const L::Word,
    len: usize,
    storage: Arc<Storage<L>>,
    /// The number of slots, for the division-free remainder.
    modulus: Modulus,
    /// Every key stored must be below this.
    key_bound: u128,
    /// How scores are coded.
    codes: L::Codes,
}

// SAFETY: `slots` points into `storage.slots`, which `storage` keeps alive and
// never moves or frees while a handle exists; the slots are atomics, which any
// thread may read and write through a shared reference.
unsafe impl<L: Layout> Send for SharedTable<L> {}
// SAFETY: as above; every method takes `&self` to the slots only through atomic
// operations.
unsafe impl<L: Layout> Sync for SharedTable<L> {}

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
            return Err(TableError::TooSmallForKey {
                mb,
                min_mb: Self::min_mb(mb, key_bound),
            });
        }
        Ok(len)
    }

    /// The smallest size in megabytes above `mb` whose slots keep keys below
    /// `key_bound` exact (`usize::MAX` if none fits in memory's address space):
    /// found by doubling and bisection on the slot count before rounding down to a
    /// prime (cheap), then confirmed with the prime.
    fn min_mb(mb: usize, key_bound: u128) -> usize {
        let slots = |mb: usize| (mb as u64).saturating_mul(1 << 20) / size_of::<L::Word>() as u64;
        let (mut lo, mut hi) = (mb, mb.max(1));
        while !L::exact(slots(hi), key_bound) {
            lo = hi;
            match hi.checked_mul(2) {
                Some(next) if next <= (u64::MAX >> 20) as usize => hi = next,
                _ => return usize::MAX,
            }
        }
        // exact(slots(hi)) holds and exact(slots(lo)) does not (or lo == hi).
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if L::exact(slots(mid), key_bound) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        // Rounding down to a prime loses a few slots: step up until it holds.
        while !L::exact(prev_prime(slots(hi)), key_bound) {
            hi += 1;
        }
        hi
    }

    /// A table of at most `mb` megabytes for a board whose scores lie in
    /// `[min_score, max_score]` and whose keys are below `key_bound`.
    ///
    /// # Errors
    /// As [`SharedTable::slots_for`], or [`TableError::Alloc`] if the memory cannot
    /// be had.
    ///
    /// # Panics
    /// If the layout cannot code the scores.
    pub fn new(
        mb: usize,
        min_score: i32,
        max_score: i32,
        key_bound: u128,
    ) -> Result<Self, TableError> {
        let codes = L::codes(min_score, max_score);
        let len = Self::slots_for(mb, key_bound)? as usize;
        let words = len.div_ceil(GROUP).div_ceil(64);
        let storage = Storage {
            slots: super::Slots::zeroed(len, mb)?,
            groups: super::Slots::zeroed(words, mb)?,
            summary: super::Slots::zeroed(words.div_ceil(64), mb)?,
        };
        Ok(Self::over(Arc::new(storage), codes, key_bound))
    }

    /// A handle on `storage`.
    fn over(storage: Arc<Storage<L>>, codes: L::Codes, key_bound: u128) -> Self {
        let len = storage.slots.len();
        SharedTable {
            slots: storage.slots.as_ptr(),
            len,
            storage,
            modulus: Modulus::new(len as u64),
            key_bound,
            codes,
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
    #[cfg(any(test, feature = "research"))]
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

    /// Number of slots (of [`Layout::ENTRIES`] entries each).
    #[cfg(any(test, feature = "research"))]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Number of entries.
    #[cfg(any(test, feature = "research"))]
    pub fn entries(&self) -> usize {
        self.len * L::ENTRIES
    }

    /// Always false: a table has at least one slot.
    #[cfg(feature = "research")]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// `key mod len` without a division.
    #[inline]
    fn index<K: Bits>(&self, key: K) -> usize {
        self.modulus.reduce(key) as usize
    }

    /// What the table holds for `key`: a score and its bound.
    ///
    /// Precondition: `key` below the key bound (`debug_assert!`ed).
    #[inline(always)]
    pub fn get<K: Bits>(&self, key: K) -> Option<(i32, Bound)> {
        debug_assert!(key.to_u128() < self.key_bound, "key above the exact bound");
        L::read(&self.codes, key.low_u64(), self.slot(self.index(key)).get())
    }

    /// Records `score` as a `bound` for `key`, from a search whose
    /// `super::work_depth` was `work` (the layout decides where it goes).
    ///
    /// Precondition: `key` below the key bound (`debug_assert!`ed).
    #[inline]
    pub fn put<K: Bits>(&self, key: K, score: i32, bound: Bound, work: u8) {
        debug_assert!(key.to_u128() < self.key_bound, "key above the exact bound");
        let i = self.index(key);
        let slot = self.slot(i);
        let old = slot.get();
        if let Some(new) = L::write(&self.codes, key.low_u64(), old, score, bound, work) {
            if old == 0 {
                self.mark(i);
            }
            slot.set(new);
        }
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
}

/// A copy of the table (every slot read once; other threads may be writing).
///
/// # Panics
/// If the memory cannot be had, like `Vec::clone`.
impl<L: Layout> Clone for SharedTable<L> {
    fn clone(&self) -> Self {
        /// A copy of `words`, each read once.
        fn copy<W: Word>(words: &[W]) -> super::Slots<W> {
            let c = super::Slots::<W>::zeroed(words.len(), 0).expect("memory for a table copy");
            for (c, w) in c.iter().zip(words) {
                c.set(w.get());
            }
            c
        }
        let st = &self.storage;
        let storage = Storage {
            slots: copy(&st.slots),
            groups: copy(&st.groups),
            summary: copy(&st.summary),
        };
        Self::over(Arc::new(storage), self.codes.clone(), self.key_bound)
    }
}

/// A table that several threads search over, each through its own handle.
pub trait Share: Table {
    /// Another handle on the same table (for another thread).
    fn share(&self) -> Self;
}

impl<L: Layout> Share for SharedTable<L> {
    fn share(&self) -> Self {
        Self::over(self.storage.clone(), self.codes.clone(), self.key_bound)
    }
}

/// One bound per entry, like [`CompactTable`](super::CompactTable): an exact score
/// is kept as a lower bound, no best move.
impl<L: Layout> Table for SharedTable<L> {
    const DEPTH_IS_WORK: bool = L::DEPTH_IS_WORK;

    #[inline(always)]
    fn probe<K: Bits>(&mut self, key: K) -> Option<Hit> {
        self.get(key).map(Hit::without_move)
    }

    #[inline]
    fn store<K: Bits>(&mut self, key: K, score: i32, bound: Bound, _best: Option<u8>, depth: u8) {
        self.put(key, score, bound, depth);
    }

    #[inline]
    fn prefetch<K: Bits>(&self, key: K) {
        super::prefetch_ptr(self.slots.wrapping_add(self.index(key)));
    }

    fn clear(&mut self) {
        self.clear_all();
    }

    /// Precondition, as for [`SharedTable::clear_all`]: no thread is searching
    /// over the table (a store racing with the write-back could be lost).
    fn prefault(&mut self) {
        let st = &self.storage;
        for w in st.slots.page_slots() {
            w.set(w.get());
        }
        for w in st.groups.page_slots().chain(st.summary.page_slots()) {
            w.store(w.load(Relaxed), Relaxed);
        }
    }

    #[cfg(any(test, feature = "research"))]
    fn hashfull(&self) -> u32 {
        let slots = self.all_slots();
        let n = slots.len().min(1000);
        let full: u32 = slots[..n].iter().map(|s| L::entries(s.get())).sum();
        full * 1000 / (n * L::ENTRIES).max(1) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::CompactTable;
    use crate::table::compact::{BIG_WORK, KEY_BITS};

    fn narrow(mb: usize) -> SharedTable<Narrow> {
        SharedTable::for_board::<7, 6>(mb).unwrap()
    }

    #[test]
    fn prefault_keeps_every_entry_and_the_dirty_groups() {
        let mut t = narrow(64);
        let keys: Vec<u64> = (0..20_000u64).map(|k| k * 7_919_993).collect();
        for &k in &keys {
            t.store(k, (k % 9) as i32 - 4, Bound::Upper, None, (k % 30) as u8);
        }
        let before: Vec<_> = keys.iter().map(|&k| t.probe(k)).collect();
        Table::prefault(&mut t);
        assert_eq!(keys.iter().map(|&k| t.probe(k)).collect::<Vec<_>>(), before);
        // The dirty groups survive too: a clear still empties what was written.
        Table::clear(&mut t);
        assert!(keys.iter().all(|&k| t.probe(k).is_none()));
    }

    #[test]
    fn same_sets_as_the_compact_table() {
        let t = narrow(64);
        assert_eq!(
            t.entries(),
            CompactTable::for_board::<7, 6>(64).unwrap().len()
        );
        assert_eq!(t.len(), 8_388_593);
        assert_eq!(
            SharedTable::<Narrow>::for_board::<7, 6>(32).unwrap_err(),
            TableError::TooSmallForKey { mb: 32, min_mb: 63 }
        );
        assert!(SharedTable::<Narrow>::for_board::<7, 6>(62).is_err());
        assert!(SharedTable::<Narrow>::for_board::<7, 6>(0).is_err());
    }

    #[test]
    fn stores_go_where_the_compact_tables_go() {
        // The same stores into both tables leave the same answers.
        let shared = narrow(64);
        let mut compact = CompactTable::for_board::<7, 6>(64).unwrap();
        let n = shared.len() as u64;
        let keys: Vec<u64> = (0..6)
            .map(|j| 0x1234 + j * n)
            .chain([0, 1 << KEY_BITS])
            .collect();
        for round in 0..400u64 {
            let key = keys[(round * 7 % 11) as usize % keys.len()];
            let score = (round % 37) as i32 - 18;
            let bound = if round % 3 == 0 {
                Bound::Upper
            } else {
                Bound::Lower
            };
            let work = (round * 5 % 13) as u8;
            shared.put(key, score, bound, work);
            compact.put(key, score, bound, work);
            for &k in &keys {
                assert_eq!(shared.get(k), compact.get(k), "round {round}, key {k}");
            }
        }
    }

    #[test]
    fn zero_keys_are_not_empty_slots() {
        let t = narrow(64);
        let n = t.len() as u64;
        for k in [0u64, 1 << KEY_BITS, 5 << (KEY_BITS + 3), 3 << 40] {
            assert_eq!(t.get(k), None, "key {k:#x}");
        }
        t.put(0u64, 1, Bound::Lower, 1);
        assert_eq!(t.get(0u64), Some((1, Bound::Lower)));
        assert_eq!(t.get(1u64 << KEY_BITS), None);
        t.put(n, 2, Bound::Upper, 1);
        t.put(2 * n, 3, Bound::Upper, 1);
        assert_eq!(
            (t.get(2 * n), t.get(n), t.get(0u64)),
            (Some((3, Bound::Upper)), Some((2, Bound::Upper)), None),
            "same set: the oldest small result replaced"
        );
    }

    #[test]
    fn bounds_round_trip_handles_share_and_clear_resets_everything() {
        let mut a = narrow(64);
        let mut b = a.share();
        for s in -12..=12 {
            for bound in [Bound::Upper, Bound::Lower] {
                a.store(12_345u64, s, bound, None, BIG_WORK);
                let hit = b.probe(12_345u64).unwrap();
                assert_eq!((hit.score, hit.bound), (s, bound));
            }
        }
        for k in (0..50_000u64).map(|k| k * 7919) {
            a.store(k, 1, Bound::Upper, None, 1);
        }
        assert!(a.hashfull() > 0);
        // A copy is a table of its own.
        let mut copy = a.clone();
        copy.clear();
        assert!(a.probe(12_345u64).is_some());
        b.clear();
        assert!(a.all_slots().iter().all(|s| s.get() == 0));
        assert!(a.probe(12_345u64).is_none());
        assert_eq!(a.hashfull(), 0);
    }

    #[test]
    fn threads_never_see_torn_entries() {
        // Four threads store bounds tied to their key into the same set; every
        // answer must be one that was stored for the key asked.
        let t = SharedTable::<Narrow>::new(1, -8, 8, 1 << 20).unwrap();
        let len = t.len() as u64;
        std::thread::scope(|s| {
            for id in 0..4u64 {
                let t = t.share();
                s.spawn(move || {
                    for round in 0..200_000u64 {
                        // keys 0, len, 2 len, 3 len share set 0
                        let j = (round + id) % 4;
                        t.put(j * len, j as i32 + 1, Bound::Lower, (round % 12) as u8);
                        let asked = (round * 7 + id) % 4;
                        let got = t.get(asked * len);
                        assert!(got.is_none() || got == Some((asked as i32 + 1, Bound::Lower)));
                    }
                });
            }
        });
    }
}
