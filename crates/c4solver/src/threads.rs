//! Starting threads when memory may be short (a limit on the address space,
//! `ulimit -v`), so that a thread that cannot have what it needs is an error
//! rather than an abort.
//!
//! A thread's stack is allocated when it is created, and that failure is an
//! error ([`std::thread::Builder::spawn`]); but a thread of a library loaded at
//! run time (the Python extension) also allocates its thread-local data when it
//! first runs, and the C library aborts the process if that fails. So before a
//! thread is created, [`room`] checks that its stack and more can be had; and
//! [`handshake`] lets the creator wait until the thread runs (its thread-local
//! data allocated) before it creates the next, so that a failure always falls
//! on a creation. [`spawn_scoped`] does both for a scoped thread.

use std::io;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread::{Scope, ScopedJoinHandle};

/// Address space a new thread may need: its stack (2 MB) and as much again
/// (checked on Linux only).
#[cfg(target_os = "linux")]
const ROOM: usize = 4 << 20;

/// Whether the address space a new thread may need (4 MB: its stack and as much
/// again) can be had now: reserved and given back at once, touching no memory.
///
/// # Errors
/// [`io::ErrorKind::OutOfMemory`] if they cannot.
pub(crate) fn room() -> io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: a new private anonymous mapping that nothing else refers to,
        // unmapped at once with the address and length it was made with.
        unsafe {
            let p = libc::mmap(
                std::ptr::null_mut(),
                ROOM,
                libc::PROT_NONE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            );
            if p == libc::MAP_FAILED {
                return Err(io::Error::new(
                    io::ErrorKind::OutOfMemory,
                    "not enough memory for another thread",
                ));
            }
            libc::munmap(p, ROOM);
        }
    }
    Ok(())
}

/// Starts `f` on a new thread of `scope` named `name`, once the address space
/// it may need (its stack and as much again) is known to be there, and returns
/// when the thread runs (its thread-local data allocated): the start of the
/// pool's workers and of the Python package's search thread, so that a lack of
/// memory is this error and never an abort.
///
/// # Errors
/// [`io::ErrorKind::OutOfMemory`] if there is no room, else what the system
/// said when the thread could not be created.
pub fn spawn_scoped<'scope, T: Send + 'scope>(
    scope: &'scope Scope<'scope, '_>,
    name: String,
    f: impl FnOnce() -> T + Send + 'scope,
) -> io::Result<ScopedJoinHandle<'scope, T>> {
    let (started, running) = handshake();
    let handle = room().and_then(|()| {
        std::thread::Builder::new()
            .name(name)
            .spawn_scoped(scope, move || {
                started.now();
                f()
            })
    })?;
    running.wait();
    Ok(handle)
}

/// The new thread's end of a [`handshake`]: [`Started::now`] first thing.
pub(crate) struct Started(SyncSender<()>);

/// The creator's end of a [`handshake`].
pub(crate) struct Running(Receiver<()>);

/// A pair that lets a thread's creator wait until the thread runs.
pub(crate) fn handshake() -> (Started, Running) {
    let (tx, rx) = sync_channel(1);
    (Started(tx), Running(rx))
}

impl Started {
    /// Tells the creator that the thread runs.
    pub(crate) fn now(self) {
        let _ = self.0.send(());
    }
}

impl Running {
    /// Waits until the thread runs (or ended without saying so).
    pub(crate) fn wait(self) {
        let _ = self.0.recv();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thread_is_waited_for() {
        room().unwrap();
        let (started, running) = handshake();
        let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let seen = flag.clone();
        let t = std::thread::spawn(move || {
            seen.store(true, std::sync::atomic::Ordering::SeqCst);
            started.now();
        });
        running.wait();
        assert!(flag.load(std::sync::atomic::Ordering::SeqCst));
        t.join().unwrap();
        // A thread that ends without a word does not leave its creator waiting.
        let (started, running) = handshake();
        std::thread::spawn(move || drop(started)).join().unwrap();
        running.wait();
    }
}
