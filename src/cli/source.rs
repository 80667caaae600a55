//! The input of `solve` (and of the commands that read positions like it): the
//! files named on the command line in order, `-` or nothing meaning stdin, read
//! line by line on a thread of their own, so that a run waiting for input still
//! ends at once on Ctrl-C.
//!
//! Lines travel in batches (up to [`BATCH`] lines, or fewer when reading further
//! might block, so that an interactive line is handed over at once): a million
//! lines cost thousands of thread hand-offs, not millions.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, BufReader, IsTerminal, Read};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::time::Duration;

use anyhow::Context;

use c4solver::StopFlag;
use c4solver::lines::LineReader;

use super::stdio;

/// The most lines handed over at once.
pub const BATCH: usize = 256;

/// How often a command waiting for input ([`Input::jobs`], `play`) looks at its
/// stop flag: the library's pool polls at the same rate (its private `POLL`).
pub const POLL: Duration = Duration::from_millis(50);

/// What the reader produces, each with the next sequence number.
#[derive(Debug)]
pub enum Message {
    /// One line of input.
    Line(Line),
    /// A file that could not be opened or read: its message, already prefixed with
    /// `c4solver: ` and the file name.
    Failed {
        /// The item's place in the output.
        seq: u64,
        /// What went wrong.
        message: String,
    },
}

/// One line of input.
#[derive(Debug)]
pub struct Line {
    /// The item's place in the output.
    pub seq: u64,
    /// The file it comes from (`None` for stdin).
    pub file: Option<PathBuf>,
    /// 1-based line number in its file.
    pub number: usize,
    /// The bytes, without the newline, at most [`c4solver::lines::MAX_LINE`].
    pub bytes: Vec<u8>,
    /// Whether the line was longer and cut.
    pub truncated: bool,
}

impl Line {
    /// `FILE: line N` or `line N`, for messages.
    pub fn place(&self) -> String {
        match &self.file {
            Some(f) => format!("{}: line {}", f.display(), self.number),
            None => format!("line {}", self.number),
        }
    }

    /// The file's name, for `--json` lines (`None` for stdin).
    pub fn file_name(&self) -> Option<String> {
        self.file.as_ref().map(|f| f.display().to_string())
    }
}

/// The receiving end: messages in input order.
pub struct Input {
    rx: Receiver<Vec<Message>>,
    batch: VecDeque<Message>,
}

impl Input {
    /// The messages in order, as the pool's jobs: each waited for, until the
    /// input is over or `stop` is set (then no more, within [`POLL`], so that a
    /// stopped run does not wait for input).
    pub fn jobs(mut self, stop: &StopFlag) -> impl Iterator<Item = Message> + Send + use<> {
        let stop = stop.clone();
        std::iter::from_fn(move || {
            while !stop.is_stopped() {
                match self.recv_timeout(POLL) {
                    Ok(m) => return Some(m),
                    Err(RecvTimeoutError::Timeout) => {}
                    Err(RecvTimeoutError::Disconnected) => return None,
                }
            }
            None
        })
    }

    /// The next message, waiting at most `timeout` for it (as
    /// [`Receiver::recv_timeout`]: `Disconnected` once the input is over).
    ///
    /// # Errors
    /// `Timeout` if nothing came in time, `Disconnected` at the end of the input.
    pub fn recv_timeout(&mut self, timeout: Duration) -> Result<Message, RecvTimeoutError> {
        if let Some(m) = self.batch.pop_front() {
            return Ok(m);
        }
        self.batch = self.rx.recv_timeout(timeout)?.into();
        self.batch.pop_front().ok_or(RecvTimeoutError::Timeout)
    }
}

/// The files to read: `files`, or stdin (`-`) if none.
fn or_stdin(files: &[PathBuf]) -> Vec<PathBuf> {
    if files.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        files.to_vec()
    }
}

/// Says on stderr how the input ends when stdin is read from a terminal: a
/// command waiting for lines there looks stuck otherwise.
pub fn hint(files: &[PathBuf]) {
    let reads_stdin = or_stdin(files).iter().any(|f| f.as_os_str() == "-");
    if reads_stdin && io::stdin().is_terminal() {
        eprintln!("c4solver: reading positions from stdin, one per line; Ctrl-D to end");
    }
}

/// Starts reading `files` (stdin if empty; `-` is stdin) on a thread; at most
/// `batches` batches wait in the channel.
///
/// # Errors
/// The thread cannot start.
pub fn spawn(files: &[PathBuf], batches: usize) -> anyhow::Result<Input> {
    let files = or_stdin(files);
    let (tx, rx) = mpsc::sync_channel(batches);
    let reader = std::thread::Builder::new().name("c4solver-reader".into());
    reader
        .spawn(move || {
            let mut out = Batcher {
                tx,
                batch: Vec::with_capacity(BATCH),
                seq: 0,
            };
            for path in &files {
                let stdin = path.as_os_str() == "-";
                let result = if stdin && stdio::stdin_closed() {
                    Err(io::Error::other(
                        "it is closed (give the positions on stdin, or name a file)",
                    ))
                } else if stdin {
                    read(io::stdin().lock(), None, &mut out)
                } else {
                    match open(path) {
                        Ok(f) => read(f, Some(path), &mut out),
                        Err(e) => Err(e),
                    }
                };
                match result {
                    Ok(true) => {}
                    // The receiver is gone: the run is over.
                    Ok(false) => return,
                    Err(e) => {
                        let name = if stdin {
                            "stdin".to_string()
                        } else {
                            path.display().to_string()
                        };
                        let message = format!("c4solver: cannot read {name}: {e}\n");
                        let seq = out.seq;
                        if !out.push(Message::Failed { seq, message }, true) {
                            return;
                        }
                    }
                }
            }
            out.send();
        })
        .context("cannot start the thread that reads the input")?;
    Ok(Input {
        rx,
        batch: VecDeque::new(),
    })
}

/// Collects messages into batches and numbers them.
struct Batcher {
    tx: SyncSender<Vec<Message>>,
    batch: Vec<Message>,
    seq: u64,
}

impl Batcher {
    /// Adds a message (it took the next sequence number); sends the batch if it is
    /// full or `now`. False if the receiver went away.
    fn push(&mut self, m: Message, now: bool) -> bool {
        self.batch.push(m);
        self.seq += 1;
        if now || self.batch.len() >= BATCH {
            return self.send();
        }
        true
    }

    /// Sends what is collected, if anything. False if the receiver went away.
    fn send(&mut self) -> bool {
        if self.batch.is_empty() {
            return true;
        }
        let batch = std::mem::replace(&mut self.batch, Vec::with_capacity(BATCH));
        self.tx.send(batch).is_ok()
    }
}

/// Opens a file for reading, refusing directories.
fn open(path: &Path) -> io::Result<File> {
    let f = File::open(path)?;
    if f.metadata()?.is_dir() {
        return Err(io::Error::other("is a directory"));
    }
    Ok(f)
}

/// Sends every line of `reader`; `Ok(false)` if the receiver went away.
fn read(reader: impl Read, file: Option<&Path>, out: &mut Batcher) -> io::Result<bool> {
    let mut lines = LineReader::new(BufReader::with_capacity(1 << 16, reader));
    let mut number = 0;
    loop {
        let Some((bytes, truncated)) = lines.next_line()? else {
            return Ok(out.send());
        };
        number += 1;
        let line = Line {
            seq: out.seq,
            file: file.map(Path::to_path_buf),
            number,
            bytes: bytes.to_vec(),
            truncated,
        };
        // Reading on may block (a terminal, a slow pipe): hand the line over now.
        let now = lines.is_drained();
        if !out.push(Message::Line(line), now) {
            return Ok(false);
        }
    }
}
