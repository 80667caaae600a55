//! Replacement policies of [`super::BoundTable`]: which slot a new entry takes.
//!
//! A policy is a zero-sized type; the table is generic over it, so each policy is
//! compiled into its own copy of the search and costs no dispatch.
//!
//! | policy             | ways | rule                                                         |
//! |--------------------|------|--------------------------------------------------------------|
//! | [`Always`]         | 1    | the new entry replaces the old (the tutorial's)              |
//! | [`DepthPreferred`] | 1    | replace unless the old entry is of another position, of this generation and deeper |
//! | [`TwoTier`]        | 2    | Thompson's two tiers: a depth-preferred slot and an always-replace slot |
//! | [`Bucket`]         | 8    | one 64-byte line; the victim minimises `depth - 8 * age`     |
//!
//! In every policy an entry of the same position is overwritten in place (the new
//! search saw at least as much as the old one, under a window the caller chose), so
//! a set never holds two entries of one position.

use super::entry::Entry;

/// A replacement policy: how many slots a set has and which one a store takes.
pub(crate) trait Replace: 'static {
    /// Slots per set (1, 2 or 8, so that a set never straddles a cache line).
    const WAYS: usize;
    /// The name used on the command line and in reports.
    const NAME: &'static str;

    /// Writes `new` (an entry of position `key`) into `set`, a slice of
    /// [`Replace::WAYS`] raw entries, when the table is at `generation`. Returns
    /// whether an entry of another position was lost.
    fn place(set: &mut [u64], key: u64, new: Entry, generation: u8) -> bool;
}

/// Whether replacing `old` by an entry of `key` loses another position.
#[inline]
fn loses(old: Entry, key: u64) -> bool {
    !old.is_empty() && !old.holds(key)
}

/// Whether `new` may displace `old` in a depth-preferred slot.
#[inline]
fn deeper_or_stale(old: Entry, new: Entry, generation: u8) -> bool {
    old.is_empty() || old.age() != generation || new.depth() >= old.depth()
}

/// The tutorial's policy: always replace.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Always;

impl Replace for Always {
    const WAYS: usize = 1;
    const NAME: &'static str = "always";

    #[inline]
    fn place(set: &mut [u64], key: u64, new: Entry, _generation: u8) -> bool {
        let lost = loses(Entry(set[0]), key);
        set[0] = new.0;
        lost
    }
}

/// Depth-preferred: an entry of another position is replaced only if it is empty,
/// from an older generation, or not deeper than the new one; otherwise the new
/// entry is dropped.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct DepthPreferred;

impl Replace for DepthPreferred {
    const WAYS: usize = 1;
    const NAME: &'static str = "depth";

    #[inline]
    fn place(set: &mut [u64], key: u64, new: Entry, generation: u8) -> bool {
        let old = Entry(set[0]);
        if old.holds(key) || deeper_or_stale(old, new, generation) {
            set[0] = new.0;
            return loses(old, key);
        }
        false
    }
}

/// Thompson's two-tier table (Breuker's "TwoDeep"): slot 0 keeps the deepest
/// entry, slot 1 always takes what slot 0 does not. A new entry at least as deep
/// as slot 0's (or of slot 0's position, or over an empty or older slot 0) goes
/// to slot 0 and pushes the old slot-0 entry down to slot 1; any other goes to
/// slot 1. Probes look at both.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct TwoTier;

impl Replace for TwoTier {
    const WAYS: usize = 2;
    const NAME: &'static str = "two-tier";

    #[inline]
    fn place(set: &mut [u64], key: u64, new: Entry, generation: u8) -> bool {
        let deep = Entry(set[0]);
        let always = Entry(set[1]);
        if deep.holds(key) {
            set[0] = new.0;
            false
        } else if deeper_or_stale(deep, new, generation) {
            // The old deep entry moves down; slot 1's entry is lost unless it is
            // the new entry's own position (then the new one replaces it anyway).
            set[0] = new.0;
            if deep.is_empty() {
                // slot 1 keeps its entry; drop a stale copy of this position
                if always.holds(key) {
                    set[1] = 0;
                }
                false
            } else {
                set[1] = deep.0;
                loses(always, key)
            }
        } else {
            set[1] = new.0;
            loses(always, key)
        }
    }
}

/// Stockfish-style buckets: 8 entries in one 64-byte cache line. An entry of the
/// same position is overwritten; otherwise the victim is the entry with the least
///
/// ```text
/// worth = depth - 8 * relative_age        (empty entries: worth = -infinity)
/// ```
///
/// (first one on ties), where `relative_age` counts generations since the entry was
/// written (always 0 unless the table is kept between positions). The new entry is
/// always written.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Bucket;

impl Bucket {
    /// The worth of keeping `e` when the table is at `generation`.
    #[inline]
    pub(crate) fn worth(e: Entry, generation: u8) -> i32 {
        if e.is_empty() {
            i32::MIN
        } else {
            i32::from(e.depth()) - 8 * i32::from(e.relative_age(generation))
        }
    }
}

impl Replace for Bucket {
    const WAYS: usize = 8;
    const NAME: &'static str = "bucket";

    #[inline]
    fn place(set: &mut [u64], key: u64, new: Entry, generation: u8) -> bool {
        let mut victim = 0;
        let mut least = i32::MAX;
        for (i, &raw) in set.iter().enumerate() {
            let e = Entry(raw);
            if e.holds(key) {
                set[i] = new.0;
                return false;
            }
            let w = Bucket::worth(e, generation);
            if w < least {
                least = w;
                victim = i;
            }
        }
        let lost = loses(Entry(set[victim]), key);
        set[victim] = new.0;
        lost
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::Bound;

    fn e(key: u64, depth: u8, age: u8) -> Entry {
        Entry::new(key, 1, Bound::Exact, None, depth, age)
    }

    #[test]
    fn always_replaces() {
        let mut s = [e(1, 40, 0).0];
        assert!(Always::place(&mut s, 2, e(2, 1, 0), 0));
        assert!(Entry(s[0]).holds(2));
        assert!(!Always::place(&mut s, 2, e(2, 3, 0), 0));
    }

    #[test]
    fn depth_preferred_keeps_the_deeper() {
        let mut s = [e(1, 40, 0).0];
        assert!(!DepthPreferred::place(&mut s, 2, e(2, 10, 0), 0));
        assert!(Entry(s[0]).holds(1), "shallower entry dropped");
        assert!(DepthPreferred::place(&mut s, 2, e(2, 10, 1), 1));
        assert!(Entry(s[0]).holds(2), "older generation replaced");
        assert!(!DepthPreferred::place(&mut s, 2, e(2, 1, 1), 1));
        assert_eq!(Entry(s[0]).depth(), 1, "same position replaced");
    }

    #[test]
    fn two_tier_moves_the_deep_entry_down() {
        let mut s = [0, 0];
        assert!(!TwoTier::place(&mut s, 1, e(1, 20, 0), 0));
        assert!(!TwoTier::place(&mut s, 2, e(2, 10, 0), 0));
        assert!(Entry(s[0]).holds(1) && Entry(s[1]).holds(2));
        // deeper: 1 moves down, 2 is lost
        assert!(TwoTier::place(&mut s, 3, e(3, 30, 0), 0));
        assert!(Entry(s[0]).holds(3) && Entry(s[1]).holds(1));
        // a deeper entry of the position in slot 1: no duplicate remains
        assert!(!TwoTier::place(&mut s, 1, e(1, 35, 0), 0));
        assert!(Entry(s[0]).holds(1) && Entry(s[1]).holds(3));
    }

    #[test]
    fn bucket_evicts_the_least_worth() {
        let mut s = [0u64; 8];
        for k in 0..8 {
            assert!(!Bucket::place(&mut s, k, e(k, 10 + k as u8, 0), 0));
        }
        assert!(Bucket::place(&mut s, 100, e(100, 1, 0), 0));
        assert!(Entry(s[0]).holds(100), "shallowest (key 0) evicted");
        // one generation later, old entries are worth 8 less than fresh ones
        let mut s = [0u64; 8];
        for k in 0..8 {
            Bucket::place(&mut s, k, e(k, 10 + k as u8, 0), 0);
        }
        assert!(Bucket::place(&mut s, 100, e(100, 5, 1), 1));
        assert!(Entry(s[0]).holds(100), "key 0 (worth 10 - 8) evicted");
        assert!(Bucket::place(&mut s, 101, e(101, 5, 1), 1));
        assert!(Entry(s[1]).holds(101), "key 1 (worth 11 - 8) evicted");
        assert!(Entry(s[0]).holds(100), "fresh entry of worth 5 kept");
        assert_eq!(Bucket::worth(Entry::EMPTY, 0), i32::MIN);
    }
}
