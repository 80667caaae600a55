//! Whether stdin and stdout were open when the process started.
//!
//! Rust's runtime opens `/dev/null` on a standard descriptor that was closed
//! (`c4solver <&-`, `c4solver >&-`) before `main` runs, so that reads find an end
//! at once and writes vanish: a run would read nothing, or lose every answer, and
//! exit 0. So a function in `.init_array`, which the C runtime calls before
//! Rust's (as Rust's own argument parsing on Linux is), looks first.

use std::sync::atomic::{AtomicU8, Ordering};

/// Bit `fd` set: descriptor `fd` (0 or 1) was closed at start.
static CLOSED: AtomicU8 = AtomicU8::new(0);

/// Run by the C runtime before `main`, before Rust's runtime opens anything.
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static LOOK_AT_START: extern "C" fn() = look;

#[cfg(target_os = "linux")]
extern "C" fn look() {
    for fd in [0, 1] {
        // SAFETY: F_GETFD only reads the flags of descriptor `fd`, open or not.
        if unsafe { libc::fcntl(fd, libc::F_GETFD) } == -1 {
            CLOSED.fetch_or(1 << fd, Ordering::Relaxed);
        }
    }
}

/// Whether stdin was closed when the process started.
pub fn stdin_closed() -> bool {
    CLOSED.load(Ordering::Relaxed) & 1 != 0
}

/// Whether stdout was closed when the process started.
pub fn stdout_closed() -> bool {
    CLOSED.load(Ordering::Relaxed) & 2 != 0
}
