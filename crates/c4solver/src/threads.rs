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
//! on a creation.

use std::io;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

/// Address space a new thread may need: its stack (2 MB) and as much again.
pub const ROOM: usize = 4 << 20;

/// Whether the address space a new thread may need (4 MB: its stack and as much
/// again) can be had now: reserved and given back at once, touching no memory.
///
/// # Errors
/// [`io::ErrorKind::OutOfMemory`] if they cannot.
pub fn room() -> io::Result<()> {
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

/// The new thread's end of a [`handshake`]: [`Started::now`] first thing.
pub struct Started(SyncSender<()>);

/// The creator's end of a [`handshake`].
pub struct Running(Receiver<()>);

/// A pair that lets a thread's creator wait until the thread runs.
pub fn handshake() -> (Started, Running) {
    let (tx, rx) = sync_channel(1);
    (Started(tx), Running(rx))
}

impl Started {
    /// Tells the creator that the thread runs.
    pub fn now(self) {
        let _ = self.0.send(());
    }
}

impl Running {
    /// Waits until the thread runs (or ended without saying so).
    pub fn wait(self) {
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
