//! The input of `solve` (and of the commands that read positions like it): the
//! files named on the command line in order, `-` or nothing meaning stdin, read
//! line by line on a thread of their own, so that a run waiting for input still
//! ends at once on Ctrl-C.

use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, SyncSender};

use c4solver::input::LineReader;

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
    /// The bytes, without the newline, at most [`c4solver::input::MAX_LINE`].
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
}

/// Starts reading `files` (stdin if empty; `-` is stdin) on a thread; at most
/// `capacity` messages wait in the channel.
pub fn spawn(files: &[PathBuf], capacity: usize) -> Receiver<Message> {
    let files: Vec<PathBuf> = if files.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        files.to_vec()
    };
    let (tx, rx) = mpsc::sync_channel(capacity);
    std::thread::spawn(move || {
        let mut seq = 0u64;
        for path in &files {
            let stdin = path.as_os_str() == "-";
            let result = if stdin {
                read(io::stdin().lock(), None, &tx, &mut seq)
            } else {
                match open(path) {
                    Ok(f) => read(f, Some(path), &tx, &mut seq),
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
                    if tx.send(Message::Failed { seq, message }).is_err() {
                        return;
                    }
                    seq += 1;
                }
            }
        }
    });
    rx
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
fn read(
    reader: impl Read,
    file: Option<&Path>,
    tx: &SyncSender<Message>,
    seq: &mut u64,
) -> io::Result<bool> {
    let mut lines = LineReader::new(BufReader::with_capacity(1 << 16, reader));
    let mut number = 0;
    while let Some((bytes, truncated)) = lines.next_line()? {
        number += 1;
        let line = Line {
            seq: *seq,
            file: file.map(Path::to_path_buf),
            number,
            bytes: bytes.to_vec(),
            truncated,
        };
        if tx.send(Message::Line(line)).is_err() {
            return Ok(false);
        }
        *seq += 1;
    }
    Ok(true)
}
