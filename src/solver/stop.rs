//! Stopping a search from outside: a shared flag that the searches poll.
//!
//! A [`StopFlag`] is cheap to clone (one `Arc`); every clone sees the same flag. A
//! search reads it every [`POLL_INTERVAL`] nodes, so it stops within well under a
//! millisecond of [`StopFlag::stop`] on this kind of machine, and unwinds without
//! storing anything it did not prove: the table stays correct, and a later search
//! can reuse it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Nodes between two reads of the flag (a power of two).
pub const POLL_INTERVAL: u64 = 1 << 12;

/// A flag that asks the searches holding a clone of it to stop.
#[derive(Clone, Debug, Default)]
pub struct StopFlag(Arc<AtomicBool>);

impl StopFlag {
    /// A flag that is not set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Wraps a flag shared with other code, for example one that a signal handler
    /// sets.
    pub fn from_shared(flag: Arc<AtomicBool>) -> Self {
        StopFlag(flag)
    }

    /// The shared flag itself.
    pub fn shared(&self) -> Arc<AtomicBool> {
        self.0.clone()
    }

    /// Asks every search holding this flag to stop.
    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Clears the flag, so that later searches run again.
    pub fn reset(&self) {
        self.0.store(false, Ordering::Relaxed);
    }

    /// Whether [`StopFlag::stop`] was called (and not reset since).
    #[inline]
    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// Whether a search that has explored `nodes` nodes should stop now: it reads
    /// the flag only every [`POLL_INTERVAL`] nodes.
    #[inline]
    pub fn poll(&self, nodes: u64) -> bool {
        nodes & (POLL_INTERVAL - 1) == 0 && self.is_stopped()
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
}
