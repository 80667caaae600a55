//! Ordered, streaming output: results are handed over with their input's sequence
//! number, possibly out of order (from several workers), and written in order.
//!
//! Every answer reaches the terminal, pipe or file at once: a write is flushed
//! right away unless the last flush was less than [`FLUSH_EVERY`] ago, and a
//! flusher thread flushes whatever is left within [`FLUSH_EVERY`]. So a slow
//! stream is flushed line by line, and a fast one (a million easy lines) in large
//! blocks, with no thread hand-off per line.
//!
//! Each result carries its stdout text (if any) and its stderr message (if any):
//! both are written when the result's turn comes, so error messages keep the input
//! order too.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use anyhow::Context;

/// The longest a written answer waits for its flush.
pub const FLUSH_EVERY: Duration = Duration::from_millis(2);

/// One finished item.
#[derive(Debug, Default)]
pub struct Item {
    /// Its place in the output (0, 1, 2, ... with no gaps).
    pub seq: u64,
    /// The text for stdout, with its newline.
    pub out: Option<String>,
    /// A message for stderr, with its newline.
    pub err: Option<String>,
}

/// What the writer saw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Items written, in order.
    pub written: u64,
    /// Items that arrived after a gap that was never filled (written last, in
    /// order, so that no finished answer is lost); see [`Writer::finish`].
    pub stranded: u64,
}

type Stream = Box<dyn Write + Send>;

/// The state behind the lock.
struct State {
    out: io::BufWriter<Stream>,
    err: Stream,
    next: u64,
    pending: BTreeMap<u64, Item>,
    last_flush: Instant,
    unflushed: bool,
    summary: Summary,
    error: Option<io::Error>,
}

struct Shared {
    state: Mutex<State>,
    /// Stdout failed (closed by its reader, or another error): stop producing.
    closed: AtomicBool,
    /// The run is over: the flusher stops.
    done: AtomicBool,
}

/// The sending side: cheap to clone, one per producer thread.
#[derive(Clone)]
pub struct Sender {
    shared: Arc<Shared>,
}

/// The flusher thread and the final accounting.
pub struct Writer {
    shared: Arc<Shared>,
    flusher: JoinHandle<()>,
}

/// Starts writing to stdout and stderr.
///
/// # Errors
/// The flusher thread cannot start.
pub fn stdout() -> anyhow::Result<(Sender, Writer)> {
    start(Box::new(io::stdout()), Box::new(io::stderr()))
}

/// Starts writing to any pair of streams.
///
/// # Errors
/// The flusher thread cannot start.
pub fn start(out: Stream, err: Stream) -> anyhow::Result<(Sender, Writer)> {
    let shared = Arc::new(Shared {
        state: Mutex::new(State {
            out: io::BufWriter::with_capacity(1 << 16, out),
            err,
            next: 0,
            pending: BTreeMap::new(),
            last_flush: Instant::now(),
            unflushed: false,
            summary: Summary::default(),
            error: None,
        }),
        closed: AtomicBool::new(false),
        done: AtomicBool::new(false),
    });
    let flusher = {
        let shared = shared.clone();
        std::thread::Builder::new()
            .name("c4solver-flusher".into())
            .spawn(move || {
                while !shared.done.load(Ordering::Acquire) {
                    std::thread::park_timeout(FLUSH_EVERY);
                    let mut state = shared.lock();
                    if state.unflushed {
                        let r = state.flush();
                        shared.note(&mut state, r);
                    }
                }
            })
            .context("cannot start the thread that flushes stdout")?
    };
    Ok((
        Sender {
            shared: shared.clone(),
        },
        Writer { shared, flusher },
    ))
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock leaves consistent data: keep going.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Records a write error: stdout is closed for good.
    fn note(&self, state: &mut State, r: io::Result<()>) {
        if let Err(e) = r {
            self.closed.store(true, Ordering::Relaxed);
            state.error.get_or_insert(e);
        }
    }
}

impl State {
    fn flush(&mut self) -> io::Result<()> {
        self.unflushed = false;
        self.last_flush = Instant::now();
        self.out.flush()
    }

    fn write_item(&mut self, it: &Item) -> io::Result<()> {
        if let Some(e) = &it.err {
            // stdout first, so that a terminal shows both in order.
            self.out.flush()?;
            let _ = self.err.write_all(e.as_bytes());
        }
        if let Some(o) = &it.out {
            self.out.write_all(o.as_bytes())?;
            self.unflushed = true;
        }
        Ok(())
    }

    /// Writes `item` and every pending item whose turn has come.
    fn accept(&mut self, item: Item) -> io::Result<()> {
        if item.seq != self.next {
            self.pending.insert(item.seq, item);
            return Ok(());
        }
        self.write_item(&item)?;
        self.next += 1;
        self.summary.written += 1;
        while let Some(it) = self.pending.remove(&self.next) {
            self.write_item(&it)?;
            self.next += 1;
            self.summary.written += 1;
        }
        if self.unflushed && self.last_flush.elapsed() >= FLUSH_EVERY {
            self.flush()?;
        }
        Ok(())
    }
}

impl Sender {
    /// Hands over a finished item. Returns false once stdout is closed (the reader
    /// went away): there is no point in producing more.
    pub fn send(&self, item: Item) -> bool {
        if self.is_closed() {
            return false;
        }
        let mut state = self.shared.lock();
        let r = state.accept(item);
        self.shared.note(&mut state, r);
        !self.is_closed()
    }

    /// Whether stdout was closed by its reader (or failed).
    pub fn is_closed(&self) -> bool {
        self.shared.closed.load(Ordering::Relaxed)
    }
}

/// An error writing stdout, saying so.
pub fn write_error(e: io::Error) -> anyhow::Error {
    anyhow::Error::new(e).context("cannot write to stdout")
}

impl Writer {
    /// Writes what is left (items after a gap that never closed, in order) and
    /// flushes. A closed stdout is not an error: the run just ends early.
    ///
    /// # Errors
    /// Any other error writing stdout, saying so.
    pub fn finish(self) -> anyhow::Result<Summary> {
        self.shared.done.store(true, Ordering::Release);
        self.flusher.thread().unpark();
        let _ = self.flusher.join();
        let mut state = self.shared.lock();
        if state.error.is_none() {
            let stranded = std::mem::take(&mut state.pending);
            let r = stranded.into_values().try_for_each(|it| {
                state.summary.stranded += 1;
                state.write_item(&it)
            });
            let r = r.and_then(|()| state.flush());
            self.shared.note(&mut state, r);
        }
        match state.error.take() {
            None => Ok(state.summary),
            Some(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(state.summary),
            Some(e) => Err(write_error(e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A shared in-memory stream.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, b: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn item(seq: u64, out: &str, err: Option<&str>) -> Item {
        Item {
            seq,
            out: Some(out.to_string()),
            err: err.map(str::to_string),
        }
    }

    #[test]
    fn out_of_order_items_come_out_in_order() {
        let (o, e) = (Shared::default(), Shared::default());
        let (tx, w) = start(Box::new(o.clone()), Box::new(e.clone())).unwrap();
        assert!(tx.send(item(2, "c\n", None)));
        assert!(tx.send(item(0, "a\n", Some("bad a\n"))));
        assert!(tx.send(item(1, "b\n", None)));
        drop(tx);
        let s = w.finish().unwrap();
        assert_eq!(
            s,
            Summary {
                written: 3,
                stranded: 0
            }
        );
        assert_eq!(&o.0.lock().unwrap()[..], b"a\nb\nc\n");
        assert_eq!(&e.0.lock().unwrap()[..], b"bad a\n");
    }

    #[test]
    fn items_after_a_gap_are_still_written() {
        let o = Shared::default();
        let (tx, w) = start(Box::new(o.clone()), Box::new(io::sink())).unwrap();
        tx.send(item(0, "a\n", None));
        tx.send(item(2, "c\n", None));
        drop(tx);
        assert_eq!(
            w.finish().unwrap(),
            Summary {
                written: 1,
                stranded: 1
            }
        );
        assert_eq!(&o.0.lock().unwrap()[..], b"a\nc\n");
    }

    /// A stream that records when it was flushed.
    #[derive(Clone, Default)]
    struct Flushes(Arc<Mutex<(Vec<u8>, Vec<usize>)>>);

    impl Write for Flushes {
        fn write(&mut self, b: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().0.extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            let mut g = self.0.lock().unwrap();
            let n = g.0.len();
            g.1.push(n);
            Ok(())
        }
    }

    #[test]
    fn a_written_item_is_flushed_without_more_items() {
        let f = Flushes::default();
        let (tx, w) = start(Box::new(f.clone()), Box::new(io::sink())).unwrap();
        // Written and not followed by anything: the flusher gets it out.
        tx.send(item(0, "a\n", None));
        tx.send(item(1, "b\n", None));
        let start = Instant::now();
        while f.0.lock().unwrap().1.last() != Some(&4) {
            assert!(start.elapsed() < Duration::from_secs(10), "never flushed");
            std::thread::sleep(Duration::from_millis(1));
        }
        drop(tx);
        w.finish().unwrap();
    }

    /// A stream whose reader went away.
    struct Closed;

    impl Write for Closed {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> io::Result<()> {
            Err(io::ErrorKind::BrokenPipe.into())
        }
    }

    #[test]
    fn a_closed_stdout_stops_the_producers_quietly() {
        let (tx, w) = start(Box::new(Closed), Box::new(io::sink())).unwrap();
        let mut sent = 0;
        // The BufWriter holds 64 KB before it writes: send until it fails.
        while tx.send(item(sent, &"x".repeat(1000), None)) {
            sent += 1;
            assert!(sent < 1000, "the sender never saw the closed stream");
        }
        drop(tx);
        assert!(w.finish().is_ok());
    }
}
