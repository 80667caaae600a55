//! Transposition tables: one file per design.
//!
//! * [`upper`]: the tutorial's table (always replace, 56-bit key, 8-bit upper bound).
//! * `bounds` (with the `research` feature): a chess-style table (key, score,
//!   bound kind, best move, depth and age in one `u64`), generic over a
//!   replacement policy from `replace`; it also serves the "upper" kind with
//!   policies other than always-replace.
//! * [`stats`]: the counters of [`TableStats`].
//! * [`compact`]: the tuned solver's table (sets of two 4-byte entries: 26-bit
//!   partial key made exact by a prime number of sets, 6- or 5-bit upper or lower
//!   bound; the bigger search's result stays).
//! * [`shared`]: the compact table's design in atomic words, shared by the threads
//!   of a parallel search without locks; [`wide`] is its 8-byte layout (the whole
//!   key) for tables below 63 MB.
//!
//! Every table is allocated once, is never resized while searching, and treats an
//! all-zero slot as empty. Clearing is exact but only costs what the last search
//! touched (see [`DirtyBlocks`]).

use crate::bits::Bits;

#[cfg(feature = "research")]
pub(crate) mod bounds;
pub(crate) mod compact;
#[cfg(feature = "research")]
pub(crate) mod entry;
mod memory;
mod modulus;
#[cfg(feature = "research")]
pub(crate) mod replace;
pub(crate) mod shared;
pub(crate) mod stats;
pub(crate) mod upper;
pub(crate) mod wide;

#[cfg(feature = "research")]
pub(crate) use bounds::BoundTable;
pub use compact::CompactTable;
pub(crate) use memory::Slots;
pub(crate) use modulus::Modulus;
#[cfg(feature = "research")]
pub(crate) use replace::{Always, Bucket, DepthPreferred, Replace, TwoTier};
#[cfg(feature = "research")]
pub use shared::Layout;
pub(crate) use shared::Share;
pub use shared::{Narrow, SharedTable};
pub use stats::TableStats;
pub(crate) use upper::UpperTable;
pub use wide::Wide;

/// What a stored score says about the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bound {
    /// The true score is at most the stored one (the search failed low).
    Upper,
    /// The true score is at least the stored one (the search failed high).
    Lower,
    /// The stored score is the true score.
    Exact,
}

/// What a table knows about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// The stored score.
    pub score: i32,
    /// How the stored score bounds the true one.
    pub bound: Bound,
    /// The best (or refuting) move found last time, as a 0-based column.
    pub best: Option<u8>,
}

impl Hit {
    /// The hit of a table that keeps no best move: a score and its bound.
    #[inline(always)]
    pub fn without_move((score, bound): (i32, Bound)) -> Hit {
        Hit {
            score,
            bound,
            best: None,
        }
    }
}

/// The interface every table design offers to the searches.
///
/// Scores are plain `i32` scores of the tutorial's convention; each design encodes
/// them as it likes. A design may drop what it cannot hold (the tutorial's table
/// keeps upper bounds only and ignores lower bounds) but must never answer with
/// something that was not stored for that key.
pub trait Table {
    /// Whether [`Table::store`] wants the work of the search as its `depth` (the bit
    /// length of the number of nodes the search of that position took, see
    /// [`work_depth`]) instead of the number of empty cells.
    const DEPTH_IS_WORK: bool = false;

    /// What the table holds for `key`, if anything.
    fn probe<K: Bits>(&mut self, key: K) -> Option<Hit>;

    /// Records what a search found for `key`. `depth` measures how much work the
    /// result stands for: the number of empty cells, or [`work_depth`] of the
    /// search's node count when [`Table::DEPTH_IS_WORK`] is true.
    fn store<K: Bits>(&mut self, key: K, score: i32, bound: Bound, best: Option<u8>, depth: u8);

    /// Hints the processor to load the slot(s) of `key` into the cache, so that a
    /// later [`Table::probe`] of `key` does not wait for memory. Does nothing by
    /// default.
    #[inline]
    fn prefetch<K: Bits>(&self, _key: K) {}

    /// Forgets everything.
    fn clear(&mut self);

    /// Has the kernel map and zero the table's memory now (the content is kept).
    /// A table's memory comes from the kernel untouched, and each page costs a
    /// fault and its zeroing the first time a search writes to it; on a small test
    /// set those first touches (about 64 MB of zeroing for the default table) can
    /// outweigh the searches themselves, so `bench` calls this before its clock
    /// starts, as the table's allocation is also left out. Does nothing by
    /// default.
    fn prefault(&mut self) {}

    /// Starts the search of a new root position while keeping the content: tables
    /// with an age advance their generation so that older entries are replaced
    /// first. Does nothing by default.
    #[cfg(feature = "research")]
    fn new_search(&mut self) {}

    /// Occupancy in per mille, sampled over the first 1000 entries like UCI's
    /// `hashfull` (entries of older generations do not count).
    #[cfg(any(test, feature = "research"))]
    fn hashfull(&self) -> u32;

    /// How many stores destroyed an entry of another position since the table was
    /// created (0 if the design does not count them).
    fn overwrites(&self) -> u64 {
        0
    }
}

/// The work of a search of `nodes` nodes as a depth: the bit length of `nodes`
/// (1 node: 1, 2-3 nodes: 2, ..., capped at 63 to fit a 6-bit field).
#[inline]
pub(crate) const fn work_depth(nodes: u64) -> u8 {
    let bits = u64::BITS - nodes.leading_zeros();
    if bits > 63 { 63 } else { bits as u8 }
}

/// Why a table (or the solver built around it: its threads and their memory)
/// could not be created.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// The requested size is too small to hold a useful table.
    #[error("table size of {mb} MB is too small (at least 1 MB)")]
    TooSmall {
        /// Requested size in megabytes.
        mb: usize,
    },
    /// The table has too few slots for its partial keys to identify positions.
    #[error(
        "a {mb} MB table is too small for its partial keys to stay exact on this board (at least {min_mb} MB)"
    )]
    TooSmallForKey {
        /// Requested size in megabytes.
        mb: usize,
        /// The smallest size that works.
        min_mb: usize,
    },
    /// The memory could not be allocated.
    #[error("cannot allocate a table of {mb} MB: not enough memory")]
    Alloc {
        /// Requested size in megabytes.
        mb: usize,
    },
    /// Memory beside the table that a solver needs could not be allocated.
    #[error("cannot allocate {what}: not enough memory")]
    OutOfMemory {
        /// What it was for, with its size.
        what: &'static str,
    },
    /// The helper threads of a parallel search could not be started.
    #[error("cannot start {count} search thread(s): {reason}")]
    Threads {
        /// Threads asked for.
        count: usize,
        /// What the system said.
        reason: String,
    },
    /// A configuration the library builds for the standard 7x6 board only: the
    /// table designs other than each search's own, and statistics (see
    /// [`crate::Config::any_size`]).
    #[cfg(feature = "research")]
    #[error(
        "{what} is built for the 7x6 board only, not {width}x{height} (other sizes: the reference or tuned search with its own table, no statistics)"
    )]
    StandardBoardOnly {
        /// What was asked for.
        what: String,
        /// The board's width.
        width: usize,
        /// The board's height.
        height: usize,
    },
    /// The table has too few index slots for its truncated keys to stay exact.
    #[error(
        "a {mb} MB table is too small for {key_bits}-bit keys (index and stored key bits must cover the key)"
    )]
    KeyTooWide {
        /// Requested size in megabytes.
        mb: usize,
        /// Bits of the board's keys.
        key_bits: u32,
    },
}

/// Whether `n` is prime (trial division; only used when sizing a table).
pub(crate) const fn is_prime(n: u64) -> bool {
    if n < 2 {
        return false;
    }
    if n < 4 {
        return true;
    }
    if n.is_multiple_of(2) {
        return false;
    }
    let mut d = 3;
    while d * d <= n {
        if n.is_multiple_of(d) {
            return false;
        }
        d += 2;
    }
    true
}

/// The largest prime `<= n` (`n >= 2`).
pub(crate) const fn prev_prime(n: u64) -> u64 {
    let mut p = n;
    while !is_prime(p) {
        p -= 1;
    }
    p
}

/// The smallest prime `>= n`.
#[cfg(test)]
pub(crate) const fn next_prime(n: u64) -> u64 {
    let mut p = n;
    while !is_prime(p) {
        p += 1;
    }
    p
}

/// Hints the processor to fetch the cache line holding `*p` (never faults, whatever
/// the address).
#[inline]
pub(crate) fn prefetch_ptr<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetching is a hint that never faults, whatever the address.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p.cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// Per mille of the first 1000 slots that are not empty (zero), as UCI's
/// `hashfull` samples a table.
#[cfg(any(test, feature = "research"))]
pub(crate) fn hashfull_nonzero<T: Copy + Default + PartialEq>(slots: &[T]) -> u32 {
    let n = slots.len().min(1000);
    let full = slots[..n].iter().filter(|&&s| s != T::default()).count();
    (full * 1000 / n.max(1)) as u32
}

/// Remembers which slots of a table were written since the last clear, so that
/// clearing zeroes only those.
///
/// Two levels of bits: one bit per group of [`DirtyBlocks::GROUP`] slots, and one
/// summary bit per 64 group bits. Marking costs two `or`s; clearing visits only the
/// marked groups, so a search that touched a hundred slots clears in well under a
/// microsecond instead of zeroing the whole table.
#[derive(Clone, Debug)]
pub(crate) struct DirtyBlocks {
    groups: Vec<u64>,
    summary: Vec<u64>,
}

impl DirtyBlocks {
    /// Slots per group: one 64-byte cache line of 8-byte slots.
    pub(crate) const GROUP: usize = 8;

    /// Tracks a table of `slots` slots; [`TableError::Alloc`] naming the table's
    /// `mb` if the memory for the marks (1/512 of the slots) is not there.
    pub(crate) fn new(slots: usize, mb: usize) -> Result<Self, TableError> {
        let groups = slots.div_ceil(Self::GROUP);
        let words = groups.div_ceil(64);
        let zeroed = |len: usize| {
            let mut v = Vec::new();
            v.try_reserve_exact(len)
                .map_err(|_| TableError::Alloc { mb })?;
            v.resize(len, 0);
            Ok(v)
        };
        Ok(DirtyBlocks {
            groups: zeroed(words)?,
            summary: zeroed(words.div_ceil(64))?,
        })
    }

    /// Marks slot `i` as written.
    #[inline]
    pub(crate) fn mark(&mut self, i: usize) {
        let g = i / Self::GROUP;
        let w = g / 64;
        debug_assert!(w < self.groups.len());
        self.groups[w] |= 1 << (g % 64);
        self.summary[w / 64] |= 1 << (w % 64);
    }

    /// Zeroes every marked group of `slots` and unmarks it.
    pub(crate) fn clear<T: Copy + Default>(&mut self, slots: &mut [T]) {
        self.drain(|first| {
            let end = (first + Self::GROUP).min(slots.len());
            slots[first..end].fill(T::default());
        });
    }

    /// Calls `clear_group(first_slot)` for every marked group and unmarks it.
    pub(crate) fn drain(&mut self, mut clear_group: impl FnMut(usize)) {
        for (sw, s) in self.summary.iter_mut().enumerate() {
            let mut bits = std::mem::take(s);
            while bits != 0 {
                let w = sw * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let mut gbits = std::mem::take(&mut self.groups[w]);
                while gbits != 0 {
                    let g = w * 64 + gbits.trailing_zeros() as usize;
                    gbits &= gbits - 1;
                    clear_group(g * Self::GROUP);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn primes() {
        assert_eq!(prev_prime(1 << 23), 8_388_593);
        assert_eq!(next_prime(1 << 24), 16_777_259);
        assert!(is_prime(2) && is_prime(3) && !is_prime(1) && !is_prime(9));
    }

    #[test]
    fn work_depth_is_the_bit_length() {
        assert_eq!(work_depth(0), 0);
        assert_eq!(work_depth(1), 1);
        assert_eq!(work_depth(3), 2);
        assert_eq!(work_depth(4), 3);
        assert_eq!(work_depth(1 << 40), 41);
        assert_eq!(work_depth(u64::MAX), 63, "capped to the 6-bit field");
    }

    #[test]
    fn dirty_blocks_visit_each_marked_group_once() {
        let mut d = DirtyBlocks::new(100_000, 1).unwrap();
        for i in [0, 7, 8, 99_999, 4096, 4097, 5000] {
            d.mark(i);
        }
        let mut seen = Vec::new();
        d.drain(|s| seen.push(s));
        seen.sort();
        assert_eq!(seen, vec![0, 8, 4096, 5000, 99_992]);
        let mut again = Vec::new();
        d.drain(|s| again.push(s));
        assert!(again.is_empty());
    }
}
