//! Ordered, streaming output: results are handed over with their input's sequence
//! number, possibly out of order, and a writer thread prints them in order,
//! flushing whenever it has nothing more to print, so that every finished answer
//! reaches the terminal, pipe or file at once, while a fast stream of answers is
//! still written in large blocks.
//!
//! Each result carries its stdout text (if any) and its stderr message (if any):
//! both are written when the result's turn comes, so error messages keep the input
//! order too.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::thread::JoinHandle;

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

/// The sending side: cheap to clone, one per producer thread.
#[derive(Clone)]
pub struct Sender {
    tx: SyncSender<Item>,
    closed: Arc<AtomicBool>,
}

impl Sender {
    /// Hands over a finished item. Returns false once stdout is closed (the reader
    /// went away): there is no point in producing more.
    pub fn send(&self, item: Item) -> bool {
        !self.is_closed() && self.tx.send(item).is_ok()
    }

    /// Whether stdout was closed by its reader.
    pub fn is_closed(&self) -> bool {
        self.closed.load(Ordering::Relaxed)
    }
}

/// The writer thread.
pub struct Writer {
    handle: JoinHandle<io::Result<Summary>>,
}

/// What the writer saw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Items written, in order.
    pub written: u64,
    /// Items that arrived after a gap that was never filled (not written: their
    /// turn never came); see [`Writer::finish`].
    pub stranded: u64,
}

/// Starts a writer on stdout. `capacity` bounds the items in flight, so that a
/// slow reader of stdout slows the producers down instead of growing memory.
pub fn stdout(capacity: usize) -> (Sender, Writer) {
    start(capacity, || io::stdout().lock(), || io::stderr().lock())
}

/// Starts a writer on any pair of streams (for tests).
pub fn start<O, E>(
    capacity: usize,
    out: impl FnOnce() -> O + Send + 'static,
    err: impl FnOnce() -> E + Send + 'static,
) -> (Sender, Writer)
where
    O: Write,
    E: Write,
{
    let (tx, rx) = mpsc::sync_channel(capacity);
    let closed = Arc::new(AtomicBool::new(false));
    let flag = closed.clone();
    let handle = std::thread::spawn(move || {
        let mut out = io::BufWriter::with_capacity(1 << 16, out());
        let mut err = err();
        let r = write_in_order(&rx, &mut out, &mut err);
        if r.is_err() {
            flag.store(true, Ordering::Relaxed);
            // Keep receiving so that producers never block on a full channel.
            while rx.recv().is_ok() {}
        }
        r
    });
    (Sender { tx, closed }, Writer { handle })
}

fn write_in_order(
    rx: &Receiver<Item>,
    out: &mut impl Write,
    err: &mut impl Write,
) -> io::Result<Summary> {
    let mut pending: BTreeMap<u64, Item> = BTreeMap::new();
    let mut next = 0u64;
    let mut summary = Summary::default();
    // Blocks for the next item; after each, takes what is already there, then
    // flushes before blocking again.
    while let Ok(first) = rx.recv() {
        let mut item = Some(first);
        while let Some(it) = item.take() {
            pending.insert(it.seq, it);
            while let Some(it) = pending.remove(&next) {
                if let Some(e) = &it.err {
                    // stdout first, so that a terminal shows both in order.
                    out.flush()?;
                    let _ = err.write_all(e.as_bytes());
                }
                if let Some(o) = &it.out {
                    out.write_all(o.as_bytes())?;
                }
                next += 1;
                summary.written += 1;
            }
            // Empty or disconnected: flush what we have.
            item = rx.try_recv().ok();
        }
        out.flush()?;
    }
    // Items past a gap that never closed (a line interrupted while later ones
    // finished): written in order after it, so that no finished answer is lost.
    for (_, it) in std::mem::take(&mut pending) {
        if let Some(e) = &it.err {
            out.flush()?;
            let _ = err.write_all(e.as_bytes());
        }
        if let Some(o) = &it.out {
            out.write_all(o.as_bytes())?;
        }
        summary.stranded += 1;
    }
    out.flush()?;
    Ok(summary)
}

impl Writer {
    /// Waits until everything handed over is written (every sender must be dropped
    /// first). A closed stdout is not an error: the run just ends early.
    ///
    /// # Errors
    /// Any other error writing stdout.
    pub fn finish(self) -> io::Result<Summary> {
        match self.handle.join() {
            Ok(Ok(s)) => Ok(s),
            Ok(Err(e)) if e.kind() == io::ErrorKind::BrokenPipe => Ok(Summary::default()),
            Ok(Err(e)) => Err(e),
            Err(_) => Err(io::Error::other("the output thread panicked")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

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
        let (o2, e2) = (o.clone(), e.clone());
        let (tx, w) = start(4, move || o2, move || e2);
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
        let o2 = o.clone();
        let (tx, w) = start(4, move || o2, io::sink);
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
        let (tx, w) = start(1, || Closed, io::sink);
        let mut sent = 0;
        while tx.send(item(sent, "x\n", None)) {
            sent += 1;
            assert!(sent < 1000, "the sender never saw the closed stream");
        }
        drop(tx);
        assert!(w.finish().is_ok());
    }
}
