//! SIGINT and SIGTERM: the first one asks every search to stop (through the
//! library's [`StopFlag`]) so that finished output is written before the run ends
//! with 130 (SIGINT) or 143 (SIGTERM); a second one ends the process at once.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use c4solver::StopFlag;
use signal_hook::consts::{SIGINT, SIGTERM};

/// Which signal stopped the run, if any, and the stop flag they set.
#[derive(Clone, Debug)]
pub struct Signals {
    interrupt: Arc<AtomicBool>,
    terminate: Arc<AtomicBool>,
    stop: StopFlag,
}

impl Signals {
    /// Installs the handlers. If they cannot be installed, the signals keep their
    /// default effect (the process ends at once) and the run goes on.
    pub fn install() -> Self {
        let signals = Signals {
            interrupt: Arc::default(),
            terminate: Arc::default(),
            stop: StopFlag::new(),
        };
        let stop = signals.stop.shared();
        for (signal, seen, code) in [
            (SIGINT, &signals.interrupt, 130),
            (SIGTERM, &signals.terminate, 143),
        ] {
            // The shutdown goes first: it only fires if a signal was already seen.
            let _ = signal_hook::flag::register_conditional_shutdown(signal, code, stop.clone());
            let _ = signal_hook::flag::register(signal, seen.clone());
            let _ = signal_hook::flag::register(signal, stop.clone());
        }
        signals
    }

    /// The flag the searches poll; set by either signal (or by the run itself, to
    /// stop early, for example when stdout is closed).
    pub fn stop_flag(&self) -> &StopFlag {
        &self.stop
    }

    /// The exit code of a run stopped by a signal: 143 for SIGTERM, 130 for SIGINT,
    /// `None` if no signal came.
    pub fn exit_code(&self) -> Option<u8> {
        if self.terminate.load(Ordering::SeqCst) {
            Some(143)
        } else if self.interrupt.load(Ordering::SeqCst) {
            Some(130)
        } else {
            None
        }
    }
}
