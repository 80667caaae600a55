//! The packed entry of [`super::BoundTable`]: bounds of every kind, best move,
//! depth and age in one `u64`.
//!
//! # Entry layout (one `u64`)
//!
//! | bits   | width | field | meaning                                                        |
//! |--------|-------|-------|----------------------------------------------------------------|
//! | 0..40  | 40    | key   | the low 40 bits of the position key (`current + mask`)          |
//! | 40..46 | 6     | score | `score + 32` (scores lie in `-28..=28` on every legal board)    |
//! | 46..48 | 2     | bound | 0 = empty, 1 = upper, 2 = lower, 3 = exact                      |
//! | 48..51 | 3     | best  | best or refuting move, 0-based column; 7 = none                 |
//! | 51..57 | 6     | depth | empty cells, or [`super::work_depth`] of the search's nodes      |
//! | 57..64 | 7     | age   | the table's generation when the entry was written              |
//!
//! * **Empty**: an all-zero word. Every stored entry has a non-zero bound field, so
//!   an empty slot can never pass for the empty board, whose key is 0.
//! * **Best move**: 3 bits hold columns 0..=6; on wider boards the move of columns
//!   7 and above is not kept (the entry says "none").
//!
//! The table ([`super::bounds`]) and its replacement policies ([`super::replace`])
//! both read entries; this file depends on neither.

use std::fmt;

use super::Bound;

/// Bits of the key kept in an entry.
pub(crate) const KEY_BITS: u32 = 40;
const SCORE_BITS: u32 = 6;
const BOUND_BITS: u32 = 2;
const BEST_BITS: u32 = 3;
const DEPTH_BITS: u32 = 6;
const AGE_BITS: u32 = 7;

const SCORE_SHIFT: u32 = KEY_BITS;
const BOUND_SHIFT: u32 = SCORE_SHIFT + SCORE_BITS;
const BEST_SHIFT: u32 = BOUND_SHIFT + BOUND_BITS;
const DEPTH_SHIFT: u32 = BEST_SHIFT + BEST_BITS;
const AGE_SHIFT: u32 = DEPTH_SHIFT + DEPTH_BITS;

/// The kept key bits.
pub(crate) const KEY_MASK: u64 = (1 << KEY_BITS) - 1;
const SCORE_MASK: u64 = (1 << SCORE_BITS) - 1;
const BOUND_MASK: u64 = (1 << BOUND_BITS) - 1;
const BEST_MASK: u64 = (1 << BEST_BITS) - 1;
const DEPTH_MASK: u64 = (1 << DEPTH_BITS) - 1;
/// The age field, unshifted.
pub(crate) const AGE_MASK: u64 = (1 << AGE_BITS) - 1;

/// Added to a score to store it: scores `-32..=31` fit the 6-bit field.
pub(crate) const SCORE_OFFSET: i32 = 1 << (SCORE_BITS - 1);
/// The `best` field value that means "no move".
const NO_MOVE: u64 = BEST_MASK;

const _: () = assert!(
    KEY_BITS + SCORE_BITS + BOUND_BITS + BEST_BITS + DEPTH_BITS + AGE_BITS == u64::BITS,
    "the fields fill one u64 exactly"
);
// Legal boards have W * (H + 1) <= 64 and H >= 1, so W * H <= 60 (4x15) and
// |score| <= 27 < 32.
const _: () = assert!(SCORE_OFFSET > 28, "every score fits the score field");
const _: () = assert!(DEPTH_MASK >= 63, "work depths up to 63 fit the depth field");
const _: () = assert!(BEST_MASK >= 7, "the 7x6 board's columns and 'none' fit");

/// One packed table entry (see the module documentation for the layout).
#[derive(Clone, Copy, PartialEq, Eq, Default, Hash)]
pub(crate) struct Entry(pub u64);

impl Entry {
    /// The empty entry (all zero).
    #[cfg(test)]
    pub(crate) const EMPTY: Entry = Entry(0);

    /// Packs the fields.
    ///
    /// Preconditions (`debug_assert!`ed): `-32 <= score < 32`, `depth < 64`; only
    /// the low 40 bits of `key` and 7 bits of `age` are kept; a `best` column above
    /// 6 is stored as "none".
    #[inline]
    pub(crate) const fn new(
        key: u64,
        score: i32,
        bound: Bound,
        best: Option<u8>,
        depth: u8,
        age: u8,
    ) -> Self {
        debug_assert!(score >= -SCORE_OFFSET && score < SCORE_OFFSET);
        debug_assert!((depth as u64) <= DEPTH_MASK);
        let bound = match bound {
            Bound::Upper => 1,
            Bound::Lower => 2,
            Bound::Exact => 3,
        };
        let best = match best {
            Some(c) if (c as u64) < NO_MOVE => c as u64,
            _ => NO_MOVE,
        };
        Entry(
            (key & KEY_MASK)
                | (((score + SCORE_OFFSET) as u64 & SCORE_MASK) << SCORE_SHIFT)
                | (bound << BOUND_SHIFT)
                | (best << BEST_SHIFT)
                | ((depth as u64 & DEPTH_MASK) << DEPTH_SHIFT)
                | ((age as u64 & AGE_MASK) << AGE_SHIFT),
        )
    }

    /// Whether the entry is empty.
    #[inline]
    pub(crate) const fn is_empty(self) -> bool {
        (self.0 >> BOUND_SHIFT) & BOUND_MASK == 0
    }

    /// Whether the entry holds position `key` (never true for an empty entry).
    #[inline]
    pub(crate) const fn holds(self, key: u64) -> bool {
        self.0 & KEY_MASK == key & KEY_MASK && !self.is_empty()
    }

    /// The stored key bits (the low 40 bits of the key).
    #[inline]
    pub(crate) const fn key_bits(self) -> u64 {
        self.0 & KEY_MASK
    }

    /// The score.
    #[inline]
    pub(crate) const fn score(self) -> i32 {
        ((self.0 >> SCORE_SHIFT) & SCORE_MASK) as i32 - SCORE_OFFSET
    }

    /// The bound kind, `None` for an empty entry.
    #[inline]
    pub(crate) const fn bound(self) -> Option<Bound> {
        match (self.0 >> BOUND_SHIFT) & BOUND_MASK {
            1 => Some(Bound::Upper),
            2 => Some(Bound::Lower),
            3 => Some(Bound::Exact),
            _ => None,
        }
    }

    /// The best move, if any.
    #[inline]
    pub(crate) const fn best(self) -> Option<u8> {
        let b = (self.0 >> BEST_SHIFT) & BEST_MASK;
        if b == NO_MOVE { None } else { Some(b as u8) }
    }

    /// The depth.
    #[inline]
    pub(crate) const fn depth(self) -> u8 {
        ((self.0 >> DEPTH_SHIFT) & DEPTH_MASK) as u8
    }

    /// The generation the entry was written in.
    #[inline]
    pub(crate) const fn age(self) -> u8 {
        ((self.0 >> AGE_SHIFT) & AGE_MASK) as u8
    }

    /// Generations since the entry was written, when the table is at `generation`.
    #[inline]
    pub(crate) const fn relative_age(self, generation: u8) -> u8 {
        (generation.wrapping_sub(self.age()) as u64 & AGE_MASK) as u8
    }
}

impl fmt::Debug for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("Entry(empty)");
        }
        f.debug_struct("Entry")
            .field("key_bits", &self.key_bits())
            .field("score", &self.score())
            .field("bound", &self.bound())
            .field("best", &self.best())
            .field("depth", &self.depth())
            .field("age", &self.age())
            .finish()
    }
}
