//! Generating a book: solve the deepest layer (or one shard of it) on every
//! core, keeping every answer in an append-only checkpoint, then fill the
//! shallower layers from it ([`layers::fill`]) and write the book.
//!
//! # Resuming
//!
//! Every solved position is appended at once to the checkpoint `OUT.ckpt` beside
//! the output, as one 32-byte record with its own CRC-32. Stopped at any moment
//! (a stop flag, Ctrl-C, a kill, a crash) and started again with the same
//! arguments, [`Generation::open`] reads the records back, drops a torn last
//! record (a length that is not a whole number of records, or a record whose CRC
//! fails), and only the positions with no record are solved. Records are flushed
//! to the system at once and synced to the disk at least once a second.
//!
//! | checkpoint bytes | field |
//! |---|---|
//! | 0..32 | a book's header (`header.rs`): magic `c4ckpt\n\0`, version 1, board, depth, |
//! | | key tag at 13 (bytes of a key when more than 8, else 0), shard, 18..24 zero, |
//! | | positions of the shard's deepest layer at 24..32 |
//! | 32..36 | CRC-32 of bytes 0..32, then 28 bytes of 0 (the header is 64 bytes) |
//! | then, per record: 0..8 | canonical key |
//! | 8..16 | nodes searched |
//! | 16..24 | CPU microseconds of the solve (the worker thread's) |
//! | 24 | score (signed) |
//! | 25..28 | 0 |
//! | 28..32 | CRC-32 of bytes 0..28 |
//!
//! On a board over 64 bits the key takes 16 bytes and the rest of a record moves
//! 8 bytes on: 40-byte records.
//!
//! The output is written to `OUT.tmp` and renamed to `OUT` when complete, so it is
//! never half written. The checkpoint stays: running the same command again writes
//! the same bytes without solving anything.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
// `std::time::Instant` panics on wasm32-unknown-unknown; web-time is std's elsewhere.
use web_time::Instant;

use super::header::FileHeader;
use super::layers::{self, Shard, block_len};
use super::{Book, BookError, get_key, key_tag, put_key, v2};
use crate::bits::Bits;
use crate::pool::{self, PoolError};
use crate::position::{Board, Playable};
use crate::solver::{Config, Mode, Solver, StopFlag};
use crate::table::TableError;

const MAGIC: [u8; 8] = *b"c4ckpt\n\0";
const VERSION: u16 = 1;
const HEADER: usize = 64;
/// Bytes of a record on the 64-bit word: 8 of key, 24 of the rest.
const RECORD: usize = 32;

/// Why a generation or a merge failed.
#[derive(Debug, thiserror::Error)]
pub enum GenerateError {
    /// A file could not be read or written.
    #[error("{}: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said (in the message, not as its source: said once).
        error: std::io::Error,
    },
    /// A checkpoint that does not belong to this run or is damaged beyond a torn
    /// last record.
    #[error("checkpoint {}: {reason}", path.display())]
    Checkpoint {
        /// The checkpoint file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// A shard or book that cannot be merged.
    #[error("{0}")]
    Merge(String),
    /// The output exists with no checkpoint beside it and is not the book (or
    /// shard) these options make: not to be overwritten by a run that would
    /// start from nothing.
    #[error(
        "{} already exists, has no checkpoint and is not the book these arguments make: \
         remove it, or name another --out",
        path.display()
    )]
    Exists {
        /// The output file.
        path: PathBuf,
    },
    /// A book file was refused.
    #[error(transparent)]
    Book(#[from] BookError),
    /// The solver's table could not be built.
    #[error(transparent)]
    Table(#[from] TableError),
    /// The worker threads could not be started.
    #[error("cannot start the worker threads: {0}")]
    Threads(String),
    /// A board size this build does not hold.
    #[error(transparent)]
    Size(#[from] crate::size::SizeError),
    /// A depth the board cannot hold.
    #[error("depth {depth} is out of range for a {width}x{height} board (0..{max})")]
    Depth {
        /// The depth asked for.
        depth: usize,
        /// Board width.
        width: usize,
        /// Board height.
        height: usize,
        /// One more than the largest depth.
        max: usize,
    },
}

impl From<PoolError<GenerateError>> for GenerateError {
    /// A worker's error as it is; a thread that could not start as
    /// [`GenerateError::Threads`].
    fn from(e: PoolError<GenerateError>) -> Self {
        match e {
            PoolError::Worker(e) => e,
            PoolError::Spawn {
                index,
                count,
                error,
            } => GenerateError::Threads(format!("thread {index} of {count}: {error}")),
        }
    }
}

/// What to generate.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// The most stones of a stored position.
    pub depth: usize,
    /// The share of the deepest layer to solve ([`Shard::WHOLE`] for a book).
    pub shard: Shard,
    /// Worker threads (each with its own solver and table).
    pub threads: usize,
    /// The solver of every worker; its table is always kept from one position
    /// to the next and no book is used.
    pub config: Config,
}

/// The checkpoint path of an output file: `OUT.ckpt`.
pub(crate) fn checkpoint_path(out: &Path) -> PathBuf {
    let mut s = out.as_os_str().to_owned();
    s.push(".ckpt");
    PathBuf::from(s)
}

/// One solved position, as kept in the checkpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Record<B = u64> {
    /// Canonical key.
    pub key: B,
    /// Exact strong score.
    pub score: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// CPU microseconds of the search.
    pub cpu_us: u64,
}

impl<B: Bits> Record<B> {
    /// Bytes of a record: the key's and 24 more.
    const LEN: usize = RECORD - 8 + B::BITS / 8;

    fn to_bytes(self) -> Vec<u8> {
        let mut b = Vec::with_capacity(Self::LEN);
        put_key(&mut b, self.key);
        b.extend_from_slice(&self.nodes.to_le_bytes());
        b.extend_from_slice(&self.cpu_us.to_le_bytes());
        b.extend_from_slice(&[self.score as i8 as u8, 0, 0, 0]);
        let crc = crc32fast::hash(&b);
        b.extend_from_slice(&crc.to_le_bytes());
        b
    }

    fn from_bytes(b: &[u8]) -> Option<Self> {
        let k = B::BITS / 8;
        let u64_at = |at: usize| b[at..at + 8].try_into().ok().map(u64::from_le_bytes);
        let crc = u32::from_le_bytes(b[k + 20..k + 24].try_into().ok()?);
        if crc != crc32fast::hash(&b[..k + 20]) || b[k + 17..k + 20] != [0, 0, 0] {
            return None;
        }
        Some(Record {
            key: get_key(b),
            nodes: u64_at(k)?,
            cpu_us: u64_at(k + 8)?,
            score: b[k + 16] as i8 as i32,
        })
    }
}

/// A generation ready to run: the layers enumerated, the checkpoint read.
pub(crate) struct Generation<const W: usize, const H: usize, B: Bits = u64> {
    options: Options,
    out: PathBuf,
    checkpoint: PathBuf,
    layers: Vec<Vec<B>>,
    /// The shard's positions of the deepest layer, in layer order.
    plan: Vec<B>,
    solved: HashMap<B, Record<B>>,
    dropped: usize,
    /// The entries and bytes of `out` if it already holds the book (no
    /// checkpoint): nothing to do.
    written: Option<(usize, usize)>,
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Outcome {
    /// The book (or shard) is written.
    Finished(Summary),
    /// The output already held this book: an earlier run wrote it (and removed
    /// its checkpoint). Nothing was solved or written.
    Written {
        /// Entries of the file.
        entries: usize,
        /// Bytes of the file.
        bytes: usize,
    },
    /// The stop flag was set: the checkpoint holds `done` of `total` positions.
    Stopped {
        /// Positions solved so far, earlier runs included.
        done: usize,
        /// Positions to solve.
        total: usize,
    },
}

/// What a finished generation wrote and what it cost.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// Entries of the file written.
    pub entries: usize,
    /// Bytes of the file written.
    pub bytes: usize,
    /// Positions of the deepest layer solved (this shard's).
    pub solved: usize,
    /// Nodes of their searches, earlier runs included.
    pub nodes: u64,
    /// CPU seconds of their searches, earlier runs included.
    pub cpu_seconds: f64,
}

impl<const W: usize, const H: usize, B: Bits> Generation<W, H, B> {
    /// Enumerates the layers and opens (or creates) the checkpoint of `out`.
    ///
    /// # Errors
    /// A depth the board cannot hold, an `out` that exists with no checkpoint and
    /// is not the book these options make ([`GenerateError::Exists`]; the same
    /// book is no error: [`Generation::is_written`]), a checkpoint made with other
    /// arguments or damaged beyond its last record, or an I/O error.
    pub(crate) fn open(options: Options, out: &Path) -> Result<Self, GenerateError> {
        if options.depth >= W * H || options.depth > u8::MAX as usize {
            return Err(GenerateError::Depth {
                depth: options.depth,
                width: W,
                height: H,
                max: W * H,
            });
        }
        let checkpoint = checkpoint_path(out);
        let written = if checkpoint.exists() {
            None
        } else {
            Self::written(out, &options)?
        };
        let (layers, plan) = if written.is_some() {
            (Vec::new(), Vec::new())
        } else {
            let layers = layers::layers::<W, H, B>(options.depth);
            let plan = options.shard.select(&layers[options.depth]);
            (layers, plan)
        };
        let mut g = Generation {
            options,
            out: out.to_path_buf(),
            checkpoint,
            layers,
            plan,
            solved: HashMap::new(),
            dropped: 0,
            written,
        };
        if g.written.is_none() {
            g.read_checkpoint()?;
        }
        Ok(g)
    }

    /// The entries and bytes of `out` if it is the book (or shard) `options`
    /// make, `None` if there is no `out`.
    fn written(out: &Path, options: &Options) -> Result<Option<(usize, usize)>, GenerateError> {
        if !out.exists() {
            return Ok(None);
        }
        let exists = || GenerateError::Exists {
            path: out.to_path_buf(),
        };
        let book = Book::<W, H, B>::read_any(out).map_err(|_| exists())?;
        let h = book.header();
        let lowest = if options.shard.is_whole() {
            0
        } else {
            options.depth
        };
        if (
            usize::from(h.depth),
            usize::from(h.lowest),
            h.shard_index,
            h.shard_count,
        ) != (
            options.depth,
            lowest,
            options.shard.index,
            options.shard.count,
        ) {
            return Err(exists());
        }
        Ok(Some((book.len(), book.bytes().len())))
    }

    /// Whether `out` already holds the book (or shard), written by an earlier run:
    /// [`Generation::run`] then does nothing.
    pub(crate) fn is_written(&self) -> bool {
        self.written.is_some()
    }

    /// Positions of the shard's deepest layer.
    pub(crate) fn total(&self) -> usize {
        self.plan.len()
    }

    /// Positions already solved (in the checkpoint).
    pub(crate) fn done(&self) -> usize {
        self.solved.len()
    }

    /// Torn or damaged records dropped from the checkpoint when it was read.
    pub(crate) fn dropped(&self) -> usize {
        self.dropped
    }

    /// The checkpoint file.
    pub(crate) fn checkpoint(&self) -> &Path {
        &self.checkpoint
    }

    /// The checkpoint's header: the book's 32 bytes, their CRC-32, zeros.
    fn header(&self) -> [u8; HEADER] {
        let shard = (self.options.shard.index, self.options.shard.count);
        let file = FileHeader {
            lowest: key_tag::<B>(),
            ..FileHeader::new::<W, H>(
                MAGIC,
                VERSION,
                self.options.depth,
                shard,
                self.plan.len() as u64,
            )
        };
        let mut h = [0u8; HEADER];
        h[..FileHeader::LEN].copy_from_slice(file.as_bytes());
        let crc = crc32fast::hash(file.as_bytes());
        h[FileHeader::LEN..FileHeader::LEN + 4].copy_from_slice(&crc.to_le_bytes());
        h
    }

    fn io(&self, error: std::io::Error) -> GenerateError {
        GenerateError::Io {
            path: self.checkpoint.clone(),
            error,
        }
    }

    fn bad(&self, reason: String) -> GenerateError {
        GenerateError::Checkpoint {
            path: self.checkpoint.clone(),
            reason,
        }
    }

    /// Reads the records back; drops a torn tail; creates the file if missing.
    fn read_checkpoint(&mut self) -> Result<(), GenerateError> {
        let header = self.header();
        let mut file = match File::open(&self.checkpoint) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let mut f = File::create(&self.checkpoint).map_err(|e| self.io(e))?;
                f.write_all(&header).map_err(|e| self.io(e))?;
                f.sync_all().map_err(|e| self.io(e))?;
                return Ok(());
            }
            Err(e) => return Err(self.io(e)),
        };
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(|e| self.io(e))?;
        let file = match FileHeader::read(&bytes) {
            Some(file) if bytes.len() >= HEADER && file.magic == MAGIC => file,
            _ => return Err(self.bad("not a c4solver checkpoint".to_string())),
        };
        // A checkpoint keeps its key tag where a book keeps its lowest layer.
        if file.lowest != key_tag::<B>() {
            let bits = |tag: u8| if tag == 0 { 64 } else { 8 * usize::from(tag) };
            return Err(self.bad(format!(
                "its positions are keyed on {} bits, this board's on {}",
                bits(file.lowest),
                B::BITS
            )));
        }
        if bytes[..HEADER] != header {
            let (index, count) = file.shard();
            return Err(self.bad(format!(
                "made for a {}x{} board, depth {}, shard {index}/{count}, not for these \
                 arguments (depth {}, shard {}); give its arguments or remove it",
                file.width, file.height, file.depth, self.options.depth, self.options.shard
            )));
        }
        let body = &bytes[HEADER..];
        let record = Record::<B>::LEN;
        let whole = body.len() / record;
        let mut keep = HEADER + whole * record;
        if body.len() % record != 0 {
            self.dropped += 1;
        }
        let members: std::collections::HashSet<B> = self.plan.iter().copied().collect();
        for (i, chunk) in body.chunks_exact(record).enumerate() {
            let Some(r) = Record::<B>::from_bytes(chunk) else {
                if i + 1 == whole {
                    // A torn last record: written in part before a crash.
                    keep -= record;
                }
                self.dropped += 1;
                continue;
            };
            if !members.contains(&r.key) {
                return Err(self.bad(format!(
                    "record {i} holds a position that is not in this shard"
                )));
            }
            let pos = Board::<W, H, B>::from_key(r.key).expect("a member key");
            let (lo, hi) = pos.score_range();
            if r.score < lo || r.score > hi {
                return Err(self.bad(format!("record {i} holds an impossible score")));
            }
            if let Some(old) = self.solved.insert(r.key, r)
                && old.score != r.score
            {
                return Err(self.bad(format!(
                    "record {i} gives another score to a position already solved"
                )));
            }
        }
        if keep < bytes.len() {
            let f = OpenOptions::new()
                .write(true)
                .open(&self.checkpoint)
                .map_err(|e| self.io(e))?;
            f.set_len(keep as u64).map_err(|e| self.io(e))?;
            f.sync_all().map_err(|e| self.io(e))?;
        }
        Ok(())
    }

    /// Solves every position of the shard that the checkpoint does not hold yet,
    /// on `options.threads` workers, calling `progress(done, total)` after each;
    /// then writes the book (or shard), and removes the checkpoint of a whole
    /// book.
    ///
    /// # Errors
    /// A table that cannot be built, threads that cannot start, or an I/O error.
    pub(crate) fn run(
        &mut self,
        stop: &StopFlag,
        progress: &(dyn Fn(usize, usize) + Sync),
    ) -> Result<Outcome, GenerateError> {
        if let Some((entries, bytes)) = self.written {
            return Ok(Outcome::Written { entries, bytes });
        }
        let todo: Vec<B> = self
            .plan
            .iter()
            .copied()
            .filter(|k| !self.solved.contains_key(k))
            .collect();
        if !todo.is_empty() {
            self.solve(&todo, stop, progress)?;
        }
        if self.solved.len() < self.plan.len() {
            return Ok(Outcome::Stopped {
                done: self.solved.len(),
                total: self.plan.len(),
            });
        }
        self.write()
    }

    fn solve(
        &mut self,
        todo: &[B],
        stop: &StopFlag,
        progress: &(dyn Fn(usize, usize) + Sync),
    ) -> Result<(), GenerateError> {
        let config = Config {
            keep_table: true,
            ..self.options.config
        };
        config.check::<W, H, B>()?;
        let mut file = OpenOptions::new()
            .append(true)
            .open(&self.checkpoint)
            .map_err(|e| self.io(e))?;
        file.seek(SeekFrom::End(0)).map_err(|e| self.io(e))?;
        let writer = Mutex::new(Appender {
            file,
            synced: Instant::now(),
            records: Vec::new(),
            error: None,
        });
        let threads = self.options.threads.max(1);
        let done = AtomicUsize::new(self.solved.len());
        let total = self.plan.len();
        let make = |_| -> Result<_, GenerateError> {
            let mut solver = Solver::<W, H, B>::new(config)?;
            solver.set_stop_flag(stop.clone());
            Ok(solver)
        };
        let blocks = todo.chunks(block_len(todo.len(), threads));
        let ran = pool::drain(threads, make, blocks, stop, |solver, _, block| {
            for &key in block {
                // Small positions solve in fewer nodes than the search's poll
                // interval: look at the flag between them too.
                if stop.is_stopped() {
                    return false;
                }
                // A layer holds the keys of positions nobody has won.
                let pos = Playable::<W, H, B>::from_key(key).expect("a layer holds playable keys");
                let cpu = thread_cpu();
                let Ok(s) = solver.solve_playable(&pos, Mode::Strong) else {
                    return false;
                };
                let record = Record {
                    key,
                    score: s.score,
                    nodes: s.nodes,
                    cpu_us: (thread_cpu() - cpu).as_micros() as u64,
                };
                let mut w = writer.lock().expect("no writer panics");
                if !w.append(record) {
                    stop.stop();
                    return false;
                }
                drop(w);
                progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
            }
            true
        });
        let w = writer.into_inner().expect("no writer panics");
        for r in &w.records {
            self.solved.insert(r.key, *r);
        }
        if let Some(e) = w.error {
            return Err(self.io(e));
        }
        let _ = w.file.sync_all();
        Ok(ran?)
    }

    /// Fills the shallower layers (a whole book) and writes the output.
    fn write(&self) -> Result<Outcome, GenerateError> {
        let depth = self.options.depth;
        let shard = self.options.shard;
        let entries = if shard.is_whole() {
            let deepest: HashMap<B, i32> = self.solved.values().map(|r| (r.key, r.score)).collect();
            layers::fill::<W, H, B>(&self.layers, &deepest)
        } else {
            let mut e: Vec<(B, i32)> = self.solved.values().map(|r| (r.key, r.score)).collect();
            e.sort_unstable();
            e
        };
        let bytes = if shard.is_whole() {
            v2::encode_entries::<W, H, B>(depth, &entries)
        } else {
            super::shard::encode::<W, H, B>(depth, shard, &entries)
        };
        write_atomically(&self.out, &bytes)?;
        // A whole book holds every score the checkpoint did, and its costs were
        // just summed up: nothing needs the checkpoint now. A shard's stays: it
        // keeps each position's nodes and CPU time, which the shard file does not
        // (scripts/book-shards-pack reads them). Left behind, it does no harm.
        if shard.is_whole() {
            let _ = std::fs::remove_file(&self.checkpoint);
        }
        Ok(Outcome::Finished(Summary {
            entries: entries.len(),
            bytes: bytes.len(),
            solved: self.solved.len(),
            nodes: self.solved.values().map(|r| r.nodes).sum(),
            cpu_seconds: self.solved.values().map(|r| r.cpu_us).sum::<u64>() as f64 / 1e6,
        }))
    }
}

/// The checkpoint's writing end, shared by the workers.
struct Appender<B> {
    file: File,
    synced: Instant,
    records: Vec<Record<B>>,
    error: Option<std::io::Error>,
}

impl<B: Bits> Appender<B> {
    /// Appends one record; false after a write error (kept for the caller).
    fn append(&mut self, r: Record<B>) -> bool {
        if self.error.is_some() {
            return false;
        }
        let result = self.file.write_all(&r.to_bytes()).and_then(|()| {
            if self.synced.elapsed() >= Duration::from_secs(1) {
                self.synced = Instant::now();
                self.file.sync_data()
            } else {
                Ok(())
            }
        });
        match result {
            Ok(()) => {
                self.records.push(r);
                true
            }
            Err(e) => {
                self.error = Some(e);
                false
            }
        }
    }
}

/// CPU time of the calling thread (wall time where the system has no such clock).
fn thread_cpu() -> Duration {
    #[cfg(target_os = "linux")]
    {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid timespec to write into.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0 {
            return Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32);
        }
    }
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}

/// Writes `bytes` to `OUT.tmp`, syncs it and renames it to `out`.
///
/// # Errors
/// Any I/O error, naming the file.
pub(crate) fn write_atomically(out: &Path, bytes: &[u8]) -> Result<(), GenerateError> {
    let mut tmp = out.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |error| GenerateError::Io { path, error }
    };
    let mut f = File::create(&tmp).map_err(io(&tmp))?;
    let written = f
        .write_all(bytes)
        .and_then(|()| f.sync_all())
        .map_err(io(&tmp))
        .and_then(|()| std::fs::rename(&tmp, out).map_err(io(out)));
    if written.is_err() {
        // Nothing half-written is left behind.
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// Merges the `K` shards of one generation into a book: every shard of `1..=K`
/// once, each holding exactly its share of the deepest layer; then fills the
/// shallower layers. The result is byte for byte the book a single run writes
/// (version 2). A single whole book (of either version) is written again as
/// version 2.
///
/// # Errors
/// [`GenerateError::Merge`] naming what is missing, repeated or foreign.
pub(crate) fn merge<const W: usize, const H: usize, B: Bits>(
    shards: &[Book<W, H, B>],
) -> Result<Vec<u8>, GenerateError> {
    let bad = |m: String| Err(GenerateError::Merge(m));
    let Some(first) = shards.first() else {
        return bad("no shard to merge".to_string());
    };
    let h = *first.header();
    if h.shard_count == 1 && h.lowest == 0 && shards.len() == 1 {
        let entries: Vec<(B, i32)> = first.entries().collect();
        return Ok(v2::encode_entries::<W, H, B>(h.depth as usize, &entries));
    }
    let depth = h.depth as usize;
    let count = h.shard_count;
    let mut seen = vec![false; count as usize + 1];
    for s in shards {
        let sh = s.header();
        if sh.depth != h.depth || sh.shard_count != count || sh.lowest != sh.depth {
            return bad(format!(
                "shard {}/{} of depth {} does not belong with shard {}/{} of depth {}",
                sh.shard_index, sh.shard_count, sh.depth, h.shard_index, count, h.depth
            ));
        }
        if std::mem::replace(&mut seen[sh.shard_index as usize], true) {
            return bad(format!("shard {}/{count} is given twice", sh.shard_index));
        }
    }
    if let Some(missing) = (1..=count as usize).find(|&i| !seen[i]) {
        return bad(format!("shard {missing}/{count} is missing"));
    }
    let layers = layers::cached::<W, H, B>(depth);
    let mut deepest = HashMap::with_capacity(layers[depth].len());
    for s in shards {
        let sh = s.header();
        let shard = Shard {
            index: sh.shard_index,
            count,
        };
        let mut want = shard.select(&layers[depth]);
        want.sort_unstable();
        let keys: Vec<B> = s.entries().map(|(k, _)| k).collect();
        if keys != want {
            return bad(format!(
                "shard {shard} holds {} positions, not its {} positions of layer {depth}",
                keys.len(),
                want.len()
            ));
        }
        deepest.extend(s.entries());
    }
    let entries = layers::fill::<W, H, B>(&layers, &deepest);
    Ok(v2::encode_entries::<W, H, B>(depth, &entries))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lowers the soft limit on the process's address space to what it holds now
    /// plus `extra` bytes (`None`: back to the hard limit).
    #[cfg(target_os = "linux")]
    fn limit_address_space(extra: Option<usize>) {
        let statm = std::fs::read_to_string("/proc/self/statm").unwrap();
        let pages: u64 = statm.split_whitespace().next().unwrap().parse().unwrap();
        // SAFETY: sysconf and getrlimit/setrlimit on a valid rlimit struct.
        unsafe {
            let page = libc::sysconf(libc::_SC_PAGESIZE) as u64;
            let mut lim = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            assert_eq!(libc::getrlimit(libc::RLIMIT_AS, &mut lim), 0);
            lim.rlim_cur = extra.map_or(lim.rlim_max, |e| pages * page + e as u64);
            assert_eq!(libc::setrlimit(libc::RLIMIT_AS, &lim), 0);
        }
    }

    /// Whether a child process ended as the standard library ends one whose own
    /// allocation failed: SIGABRT after "memory allocation of N bytes failed", or
    /// after a new thread's signal stack could not be mapped.
    #[cfg(target_os = "linux")]
    fn std_allocation_abort(status: &std::process::ExitStatus, stderr: &str) -> bool {
        use std::os::unix::process::ExitStatusExt;
        status.signal() == Some(libc::SIGABRT)
            && ((stderr.contains("memory allocation of ") && stderr.contains(" bytes failed"))
                || stderr.contains("failed to allocate an alternative stack"))
    }

    /// Under a limit on the address space (set in a child process: it holds for
    /// the whole process), 1,024 workers cannot all start: generation and
    /// verification end with an error that says so, and nothing panics.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_worker_thread_that_cannot_start_is_an_error() {
        let no_room_dir = |pid: u32| std::env::temp_dir().join(format!("c4solver-no-room-{pid}"));
        const CHILD: &str = "C4SOLVER_TEST_NO_ROOM";
        let name = "books::generate::tests::a_worker_thread_that_cannot_start_is_an_error";
        if std::env::var_os(CHILD).is_none() {
            // The standard library's own small allocations (a thread's start, a
            // message) abort the process when the workers took the last of the
            // room, up to 1 run in 100 on a loaded machine (docs/robustness.md):
            // such a child, and only such a child, is run again, at most twice.
            for attempt in 1..=3 {
                let child = std::process::Command::new(std::env::current_exe().unwrap())
                    .args([name, "--exact", "--nocapture", "--test-threads=1"])
                    .env(CHILD, "1")
                    .stdout(std::process::Stdio::piped())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .unwrap();
                let dir = no_room_dir(child.id());
                let out = child.wait_with_output().unwrap();
                // A child that aborted left its directory behind.
                let _ = std::fs::remove_dir_all(dir);
                let (stdout, stderr) = (
                    String::from_utf8_lossy(&out.stdout),
                    String::from_utf8_lossy(&out.stderr),
                );
                if std_allocation_abort(&out.status, &stderr) && attempt < 3 {
                    eprintln!("attempt {attempt} aborted in the standard library: {stderr}");
                    continue;
                }
                assert!(out.status.success(), "{stdout}{stderr}");
                assert!(stdout.contains("both refused\n"), "{stdout}{stderr}");
                return;
            }
            unreachable!("the third attempt returns or fails");
        }
        let dir = no_room_dir(std::process::id());
        std::fs::create_dir_all(&dir).unwrap();
        let config = Config {
            table_mb: 1,
            ..Config::default()
        };
        let options = Options {
            depth: 8,
            shard: Shard::WHOLE,
            threads: 1024,
            config,
        };
        let mut g = Generation::<5, 4>::open(options, &dir.join("book")).unwrap();
        let cannot = "cannot start the worker threads: thread ";
        let stop = StopFlag::new();
        limit_address_space(Some(24 << 20));
        let first = g.run(&stop, &|_, _| {});
        limit_address_space(None);
        let total = g.total();
        // A thread that cannot start stops the run with its reason; a worker whose
        // table cannot be had leaves the work to the others (crate::pool), which
        // then finish it.
        match &first {
            Err(e) => {
                assert!(e.to_string().starts_with(cannot), "{e}");
                assert!(
                    e.to_string()
                        .ends_with(" of 1024: not enough memory for another thread"),
                    "{e}"
                );
                assert!(stop.is_stopped());
            }
            Ok(Outcome::Finished(s)) => assert_eq!(s.entries > 0, total > 0),
            Ok(other) => panic!("{other:?}"),
        }
        // The run goes on from its checkpoint (or finds it done) with two threads.
        let two = Options {
            threads: 2,
            ..options
        };
        let mut again = Generation::<5, 4>::open(two, &dir.join("book")).unwrap();
        match (&first, again.run(&StopFlag::new(), &|_, _| {}).unwrap()) {
            (_, Outcome::Finished(_)) => assert_eq!(again.done(), total),
            (Ok(Outcome::Finished(s)), Outcome::Written { entries, .. }) => {
                assert_eq!(entries, s.entries)
            }
            (_, other) => panic!("{other:?}"),
        }
        let layer = &layers::layers::<5, 4, u64>(8)[8];
        let entries: Vec<(u64, i32)> = layer.iter().map(|&k| (k, 0)).collect();
        let stop = StopFlag::new();
        limit_address_space(Some(24 << 20));
        let checked = std::sync::atomic::AtomicUsize::new(0);
        let count = |_| {
            checked.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        };
        let resolved =
            super::super::verify::resolve::<5, 4, u64>(&entries, config, 1024, &stop, &count);
        limit_address_space(None);
        match resolved {
            Err(e) => {
                assert!(e.to_string().starts_with(cannot), "{e}");
                assert!(stop.is_stopped());
            }
            Ok(()) => assert_eq!(checked.into_inner(), entries.len()),
        }
        let _ = std::fs::remove_dir_all(&dir);
        println!("both refused");
    }

    /// A checkpoint's 64-byte header, pinned byte for byte.
    #[test]
    fn checkpoint_headers_keep_their_bytes() {
        let dir = std::env::temp_dir().join(format!("c4solver-ckpt-pin-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let options = Options {
            depth: 4,
            shard: Shard { index: 1, count: 2 },
            threads: 1,
            config: Config::default(),
        };
        let narrow = Generation::<4, 4>::open(options, &dir.join("narrow")).unwrap();
        let wide = Generation::<4, 4, u128>::open(options, &dir.join("wide")).unwrap();
        // Magic, version 1, 4x4, depth 4, key tag (0, or 16 bytes), shard 1 of 2,
        // 64 positions, then the CRC-32 of the first 32 bytes and zeros.
        let header = |tag: u8, crc: [u8; 4]| {
            let mut h = [0u8; 64];
            h[..8].copy_from_slice(b"c4ckpt\n\0");
            h[8..18].copy_from_slice(&[1, 0, 4, 4, 4, tag, 1, 0, 2, 0]);
            h[24] = 64;
            h[32..36].copy_from_slice(&crc);
            h
        };
        assert_eq!(
            std::fs::read(narrow.checkpoint()).unwrap(),
            header(0, [176, 8, 238, 186])
        );
        assert_eq!(
            std::fs::read(wide.checkpoint()).unwrap(),
            header(16, [186, 51, 172, 169])
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    fn round_trip<B: Bits>(key: B) {
        let r = Record {
            key,
            score: -7,
            nodes: 42,
            cpu_us: 99,
        };
        let b = r.to_bytes();
        assert_eq!(b.len(), Record::<B>::LEN);
        assert_eq!(Record::from_bytes(&b), Some(r));
        for i in 0..b.len() {
            let mut bad = b.clone();
            bad[i] ^= 0x10;
            assert_eq!(Record::<B>::from_bytes(&bad), None, "byte {i}");
        }
    }

    #[test]
    fn records_round_trip_and_damage_shows() {
        round_trip(0x1234_5678_9abc_u64);
        assert_eq!(Record::<u64>::LEN, RECORD);
        // A key above bit 64 (a board over 64 bits): 40-byte records.
        round_trip((1u128 << 70) | 0x1234_5678_9abc);
        assert_eq!(Record::<u128>::LEN, 40);
    }
}
