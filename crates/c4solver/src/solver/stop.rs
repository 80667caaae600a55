//! Stopping a search from outside: a shared flag that the searches poll.
//!
//! A [`StopFlag`] is cheap to clone (one `Arc`); every clone sees the same flag. A
//! search reads it every [`POLL_INTERVAL`] nodes, so it stops within well under a
//! millisecond of [`StopFlag::stop`] on this kind of machine, and unwinds without
//! storing anything it did not prove: the table stays correct, and a later search
//! can reuse it.
//!
//! A flag may have a parent ([`StopFlag::child`]): it then also reads as set when
//! its parent is. The threads of a parallel search poll a child of the caller's
//! flag, so that the caller's stop reaches every thread while the search can end
//! its own helpers without touching the caller's flag.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Nodes between two reads of the flag (a power of two).
pub(crate) const POLL_INTERVAL: u64 = 1 << 12;

/// A flag that asks the searches holding a clone of it to stop.
#[derive(Clone, Debug, Default)]
pub struct StopFlag {
    own: Arc<AtomicBool>,
    /// Set means set too (see [`StopFlag::child`]).
    parent: Option<Arc<StopFlag>>,
}

impl StopFlag {
    /// A flag that is not set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Wraps a flag shared with other code, for example one that a signal handler
    /// sets.
    pub fn from_shared(flag: Arc<AtomicBool>) -> Self {
        StopFlag {
            own: flag,
            parent: None,
        }
    }

    /// A new flag that reads as set when it is set itself or when `self` (or any
    /// of its own parents) is; setting or resetting the child never touches `self`.
    pub fn child(&self) -> Self {
        StopFlag {
            own: Arc::default(),
            parent: Some(Arc::new(self.clone())),
        }
    }

    /// The flag's own atomic (without its parent's).
    pub fn shared(&self) -> Arc<AtomicBool> {
        self.own.clone()
    }

    /// Asks every search holding this flag (or a child of it) to stop.
    pub fn stop(&self) {
        self.own.store(true, Ordering::Relaxed);
    }

    /// Clears the flag itself (not its parent), so that later searches run again.
    pub fn reset(&self) {
        self.own.store(false, Ordering::Relaxed);
    }

    /// Whether [`StopFlag::stop`] was called (and not reset since) on this flag or
    /// on a parent.
    #[inline]
    pub fn is_stopped(&self) -> bool {
        self.own.load(Ordering::Relaxed) || self.parent.as_ref().is_some_and(|p| p.is_stopped())
    }

    /// Whether a search that has explored `nodes` nodes should stop now: it reads
    /// the flag only every `POLL_INTERVAL` nodes.
    #[inline]
    pub fn poll(&self, nodes: u64) -> bool {
        Self::due(nodes) && self.is_stopped()
    }

    /// Whether a search that has explored `nodes` nodes looks at its flags now
    /// (every `POLL_INTERVAL` nodes).
    #[inline(always)]
    pub(crate) fn due(nodes: u64) -> bool {
        nodes & (POLL_INTERVAL - 1) == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_the_flag() {
        let a = StopFlag::new();
        let b = a.clone();
        assert!(!b.is_stopped());
        a.stop();
        assert!(b.is_stopped());
        assert!(b.poll(POLL_INTERVAL));
        assert!(
            !b.poll(POLL_INTERVAL + 1),
            "read only every POLL_INTERVAL nodes"
        );
        b.reset();
        assert!(!a.is_stopped());
    }

    #[test]
    fn a_child_sees_its_parents_but_not_the_other_way() {
        let root = StopFlag::new();
        let child = root.child();
        let grandchild = child.child();
        assert!(!grandchild.is_stopped());
        child.stop();
        assert!(grandchild.is_stopped() && child.is_stopped() && !root.is_stopped());
        child.reset();
        assert!(!grandchild.is_stopped());
        root.stop();
        assert!(grandchild.is_stopped() && child.is_stopped());
        grandchild.reset();
        assert!(grandchild.is_stopped(), "the parent is still set");
    }
}
