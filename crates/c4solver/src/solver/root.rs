//! The bounds of the root's score that the threads of one search have proved,
//! shared: each thread starts its next null window from all of them, and gives
//! up a window that another thread's answer has settled.
//!
//! Threads that all ask the same null window at the root repeat each other's
//! work. So one helper asks the window after the one at 0 at once (the score is
//! above 1 or not) while the others ask at 0; whichever answer comes first
//! settles or narrows the other's question (docs/threads.md).
//!
//! | word (`AtomicU64`) | meaning |
//! |---|---|
//! | high 32 bits | the least score not yet excluded (`i32`) |
//! | low 32 bits | the greatest score not yet excluded (`i32`) |
//!
//! Every bound is a true bound of the root's score, whoever proved it, so the
//! threads' bounds may be combined in any order: the score stays exact.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

/// The bounds of one root's score, see the [module](self) documentation.
#[derive(Debug)]
pub(crate) struct RootBounds {
    bounds: AtomicU64,
    /// Whether a helper asks ahead on this root already.
    ahead: AtomicBool,
}

/// `(min, max)` in one word.
fn pack(min: i32, max: i32) -> u64 {
    (u64::from(min as u32) << 32) | u64::from(max as u32)
}

/// The `(min, max)` of a word.
fn unpack(word: u64) -> (i32, i32) {
    ((word >> 32) as u32 as i32, word as u32 as i32)
}

impl RootBounds {
    /// Nothing known yet.
    pub(crate) fn new() -> Self {
        RootBounds {
            bounds: AtomicU64::new(pack(i32::MIN, i32::MAX)),
            ahead: AtomicBool::new(false),
        }
    }

    /// A new root: nothing known, nobody ahead. Called with no search running.
    pub(crate) fn reset(&self) {
        self.bounds.store(pack(i32::MIN, i32::MAX), Relaxed);
        self.ahead.store(false, Relaxed);
    }

    /// The bounds proved so far: the score lies in `[min, max]`.
    #[inline]
    pub(crate) fn get(&self) -> (i32, i32) {
        unpack(self.bounds.load(Relaxed))
    }

    /// Adds the bounds `[min, max]` that a thread proved.
    pub(crate) fn narrow(&self, min: i32, max: i32) {
        let _ = self.bounds.fetch_update(Relaxed, Relaxed, |word| {
            let (a, b) = unpack(word);
            Some(pack(a.max(min), b.min(max)))
        });
    }

    /// Whether the null window `[med, med + 1]` is answered by the bounds.
    #[inline]
    pub(crate) fn settles(&self, med: i32) -> bool {
        let (min, max) = self.get();
        min > med || max <= med
    }

    /// Claims the one place of a helper asking ahead: true for the first caller
    /// on this root.
    pub(crate) fn go_ahead(&self) -> bool {
        !self.ahead.swap(true, Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_only_narrow() {
        let r = RootBounds::new();
        assert!(!r.settles(0));
        r.narrow(-3, 5);
        assert_eq!(r.get(), (-3, 5));
        r.narrow(-10, 2);
        assert_eq!(r.get(), (-3, 2));
        assert!(!r.settles(0));
        assert!(r.settles(2), "at most 2: not above 2");
        assert!(r.settles(-4), "at least -3: above -4");
        r.narrow(1, 21);
        assert_eq!(r.get(), (1, 2));
        assert!(r.settles(0));
        assert!(r.go_ahead());
        assert!(!r.go_ahead());
        r.reset();
        assert_eq!(r.get(), (i32::MIN, i32::MAX));
        assert!(r.go_ahead());
    }
}
