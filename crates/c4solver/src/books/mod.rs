//! The opening book: the exact strong score of every position with at most
//! `depth` stones that can arise in a game, one entry per mirror pair.
//!
//! Three files hold books: version 1 (below: sorted keys and scores, 7 bytes an
//! entry on 7x6), version 2 (`v2`: a minimal perfect hash per layer and packed
//! scores, about 7 bits an entry; what `generate` and `merge` write), and the
//! compact shard ([`shard`]: a byte a score). [`Book`] reads all three.
//!
//! # File format (version 1)
//!
//! All integers little-endian. A header of 32 bytes, then the entries. Every
//! book file and the generation's checkpoint open with these 32 bytes, read and
//! written through one typed struct (`header.rs`).
//!
//! | offset | bytes | field |
//! |---:|---:|---|
//! | 0 | 8 | magic `c4book\n\0` |
//! | 8 | 2 | version: 1 |
//! | 10 | 1 | board width `W` |
//! | 11 | 1 | board height `H` |
//! | 12 | 1 | depth: the most stones of a stored position |
//! | 13 | 1 | lowest: the fewest stones of a stored position (0 in a book, `depth` in a shard) |
//! | 14 | 2 | shard index `I` (1-based; 1 in a book) |
//! | 16 | 2 | shard count `K` (1 in a book) |
//! | 18 | 1 | bytes per entry: `ceil((W * (H + 1) + score bits) / 8)`, 7 on 7x6, at most 9 (8x7, 4x15) |
//! | 19 | 1 | score bits: enough for `MAX_SCORE - MIN_SCORE`, 6 on 7x6 |
//! | 20 | 4 | CRC-32 of the whole file with these 4 bytes read as zero |
//! | 24 | 8 | entry count `N` |
//! | 32 | `N` x entry bytes | the entries, strictly ascending |
//!
//! An entry is the integer `(key << score_bits) | (score - MIN_SCORE)` in its
//! bytes, where `key` is the position's [`Board::canonical_key`] (the smaller of
//! its key and its mirror image's) and `score` its exact strong score from the side
//! to move. Ascending entries are ascending keys, so a look-up is a binary search:
//! about 17 probes in the 7x6 depth-8 book's 130,000 entries, well under a
//! microsecond.
//!
//! A file is checked whole when it is read ([`Book::from_bytes`]): header fields,
//! length, checksum, then every entry (a key that decodes into a position with no
//! four in a row and a stone count inside `lowest..=depth`, a canonical key, keys
//! strictly ascending, a score this position can have). A truncated, corrupted or
//! wrong-board file is an error, never a wrong score.
//!
//! A shard (`generate` with a shard of `K > 1`) holds one deterministic share of
//! the deepest layer only; [`generate::merge`] turns `K` shards into a book.

mod export;
mod generate;
mod header;
mod known;
mod layers;
pub(crate) mod shard;
mod v2;
pub(crate) mod verify;

pub use export::Unreachable;
pub use generate::{GenerateError, Options, Outcome, Summary};
pub(crate) use generate::{Generation, merge, write_atomically};
pub use layers::Shard;
pub(crate) use layers::layers;

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use serde::Serialize;

use crate::bits::Bits;
use crate::position::Board;
use crate::size::SizeError;
use header::{FileHeader, checksum, seal};

/// The first 8 bytes of every book file.
pub(crate) const MAGIC: [u8; 8] = *b"c4book\n\0";
/// The version of the sorted-entry format (shards); whole books are written as
/// `v2::VERSION`.
pub(crate) const VERSION: u16 = 1;
/// Bytes of the header.
pub(crate) const HEADER_BYTES: usize = FileHeader::LEN;

/// The book built into the binary: every 7x6 position up to its depth (see
/// `books/README.md`).
static BUILTIN_BYTES: &[u8] = include_bytes!("../../books/7x6.c4book");

/// Why a book file was refused, or a book could not be had.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    /// A board size this build does not hold (the size-erased
    /// [`Book`](crate::Book)'s: a generic book has its size built in).
    #[error(transparent)]
    Size(#[from] SizeError),
    /// The file could not be read or written.
    #[error("{}: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said (in the message, not as its source: said once).
        error: std::io::Error,
    },
    /// Shorter than a header.
    #[error("not a c4solver book: {len} bytes, shorter than the {HEADER_BYTES}-byte header")]
    TooShort {
        /// The file's length.
        len: usize,
    },
    /// The magic bytes are not a book's (`c4book\n\0`) or a compact shard's.
    #[error("not a c4solver book (bad magic bytes)")]
    BadMagic,
    /// Another format version.
    #[error(
        "book format version {found} is not supported (this program reads versions 1 and 2 and compact shards version 1)"
    )]
    Version {
        /// The version in the file.
        found: u16,
    },
    /// A book for another board.
    #[error("the book is for a {width}x{height} board, not {want_width}x{want_height}")]
    WrongBoard {
        /// The file's board width.
        width: u8,
        /// The file's board height.
        height: u8,
        /// The board asked for.
        want_width: usize,
        /// The board asked for.
        want_height: usize,
    },
    /// A book whose positions are keyed (and hashed) on another word than the
    /// board's: a book of a board over 64 bits keys on 128 bits.
    #[error("the book keys its positions on {found}-bit words, this board on {want}-bit ones")]
    KeyWidth {
        /// Bits of the file's keys.
        found: usize,
        /// Bits of the board's word.
        want: usize,
    },
    /// A header field out of range.
    #[error("corrupt book header: {0}")]
    BadHeader(String),
    /// The length does not match the entry count.
    #[error(
        "truncated or padded book: the header announces {entries} entries ({expected} bytes) but the file holds {found} bytes"
    )]
    Length {
        /// Entries announced.
        entries: u64,
        /// Bytes expected.
        expected: u64,
        /// Bytes found.
        found: usize,
    },
    /// The checksum does not match.
    #[error("corrupt book: checksum {computed:#010x} differs from the stored {stored:#010x}")]
    Checksum {
        /// In the header.
        stored: u32,
        /// Of the bytes read.
        computed: u32,
    },
    /// An entry that cannot be right.
    #[error("corrupt book: entry {index}: {reason}")]
    BadEntry {
        /// 0-based index of the entry.
        index: u64,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A shard where a whole book is needed.
    #[error("this file is shard {index} of {count}: merge the shards into a book first")]
    Shard {
        /// The shard's index.
        index: u16,
        /// The number of shards.
        count: u16,
    },
}

/// The header fields of a book or shard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Header {
    /// Board width.
    pub width: u8,
    /// Board height.
    pub height: u8,
    /// The most stones of a stored position.
    pub depth: u8,
    /// The fewest stones of a stored position.
    pub lowest: u8,
    /// 1-based shard index.
    pub shard_index: u16,
    /// Number of shards (1: a whole book).
    pub shard_count: u16,
    /// Entries.
    pub entries: u64,
    /// CRC-32 of the file.
    pub checksum: u32,
}

/// Won, drawn and lost positions for the first player among those with `stones`
/// stones; a position and its mirror image count as two (one if symmetric).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct StoneCounts {
    /// Stones on the board.
    pub stones: u32,
    /// Positions the first player wins.
    pub won: u64,
    /// Drawn positions.
    pub drawn: u64,
    /// Positions the first player loses.
    pub lost: u64,
}

impl StoneCounts {
    /// Every position counted.
    pub fn total(&self) -> u64 {
        self.won + self.drawn + self.lost
    }
}

/// Which file a book was read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Format {
    /// Version 1: sorted (key, score) entries.
    V1,
    /// Version 2: a minimal perfect hash per layer and packed scores (`v2`).
    V2,
    /// A compact shard (a byte a score), held in memory as version 1.
    CompactShard,
}

impl Format {
    /// The number in the file's version field.
    pub fn version(self) -> u16 {
        match self {
            Format::V1 | Format::CompactShard => 1,
            Format::V2 => v2::VERSION,
        }
    }
}

/// How the entries are held.
enum Store {
    /// Sorted entries of `entry_bytes` bytes each after the header.
    V1 { entry_bytes: usize, score_bits: u32 },
    /// One hashed layer per number of stones.
    V2(Vec<v2::Layer>),
}

/// The parsed, checked bytes of a book, shared by every [`Book`] handle.
struct Raw {
    bytes: Cow<'static, [u8]>,
    header: Header,
    store: Store,
    format: Format,
    /// Bytes of the file read (a compact shard is held in another form).
    file_len: usize,
}

/// An opening book (or a shard of one) for the `W`x`H` board; cheap to clone (one
/// `Arc`).
///
/// ```
/// use c4solver::sized::{Board, Book};
///
/// type Position = Board<7, 6>;
/// let book = Book::<7, 6>::builtin().expect("7x6 has a built-in book");
/// // The first player wins the empty board with their last stone: 22 - 21 = 1.
/// assert_eq!(book.score(&Position::new()), Some(1));
/// // A position and its mirror image share one entry.
/// let p = Position::parse("1")?;
/// assert_eq!(book.score(&p), book.score(&Position::parse("7")?));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// The keys are the board's word `B` (`u64`, or `u128` for a board over 64 bits:
/// [`Bits`]); a 64-bit book looks its positions up with no 128-bit arithmetic.
pub struct Book<const W: usize, const H: usize, B: Bits = u64> {
    raw: Arc<Raw>,
    _board: PhantomData<Board<W, H, B>>,
}

/// The book of the standard board (the tests').
#[cfg(test)]
pub(crate) type Book7x6 = Book<7, 6>;

impl<const W: usize, const H: usize, B: Bits> Clone for Book<W, H, B> {
    fn clone(&self) -> Self {
        Book {
            raw: self.raw.clone(),
            _board: PhantomData,
        }
    }
}

impl<const W: usize, const H: usize, B: Bits> fmt::Debug for Book<W, H, B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Book")
            .field("header", &self.raw.header)
            .finish()
    }
}

/// Bits that hold `score - MIN_SCORE` on a `W`x`H` board.
pub(crate) const fn score_bits(w: usize, h: usize) -> u32 {
    let span = (w * h) as u64; // MAX_SCORE - MIN_SCORE is less than this
    64 - span.leading_zeros()
}

/// Bytes per entry on a `W`x`H` board.
pub(crate) const fn entry_bytes(w: usize, h: usize) -> usize {
    (w * (h + 1) + score_bits(w, h) as usize).div_ceil(8)
}

impl<const W: usize, const H: usize, B: Bits> Book<W, H, B> {
    const GEOMETRY: () = assert!(entry_bytes(W, H) <= 16, "a book entry must fit in 128 bits");

    /// The book built into the binary, for the 7x6 board on the 64-bit word only
    /// (`None` for any other board). Its header and layer records are parsed once, on first use,
    /// and each layer's hash on the first look-up into that layer; the tests check
    /// its bytes as a file's (checksum and every hash).
    pub fn builtin() -> Option<Self> {
        static BUILTIN: OnceLock<Option<Arc<Raw>>> = OnceLock::new();
        if (W, H, B::BITS) != (7, 6, 64) {
            return None;
        }
        let raw = BUILTIN.get_or_init(|| {
            Book::<W, H, B>::parse(Cow::Borrowed(BUILTIN_BYTES), false)
                .ok()
                .map(|b| b.raw)
        });
        raw.as_ref().map(|raw| Book {
            raw: raw.clone(),
            _board: PhantomData,
        })
    }

    /// Reads and checks a book file; shards are refused.
    ///
    /// # Errors
    /// [`BookError::Io`] if it cannot be read, any other [`BookError`] if it is
    /// not a whole book for this board (see the module documentation).
    pub fn read(path: &Path) -> Result<Self, BookError> {
        let book = Self::read_any(path)?;
        book.require_whole()?;
        Ok(book)
    }

    /// Reads and checks a book or a shard file.
    ///
    /// # Errors
    /// As [`Book::read`], but a shard is accepted.
    pub fn read_any(path: &Path) -> Result<Self, BookError> {
        let bytes = std::fs::read(path).map_err(|error| BookError::Io {
            path: path.to_path_buf(),
            error,
        })?;
        Self::from_bytes(bytes)
    }

    /// Checks `bytes` (a book or a shard) and takes them over.
    ///
    /// # Errors
    /// Any [`BookError`] but `Io` and `Shard`: see the module documentation.
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Self, BookError> {
        Self::parse(Cow::Owned(bytes), true)
    }

    /// Fails with [`BookError::Shard`] unless this is a whole book (every
    /// position from the empty board to the depth).
    ///
    /// # Errors
    /// [`BookError::Shard`] for a shard.
    pub fn require_whole(&self) -> Result<(), BookError> {
        let h = &self.raw.header;
        if h.shard_count != 1 || h.lowest != 0 {
            return Err(BookError::Shard {
                index: h.shard_index,
                count: h.shard_count,
            });
        }
        Ok(())
    }

    fn parse(bytes: Cow<'static, [u8]>, check_entries: bool) -> Result<Self, BookError> {
        let () = Self::GEOMETRY;
        if bytes.starts_with(&shard::MAGIC) {
            let c = shard::parse::<W, H, B>(&bytes)?;
            let file_len = bytes.len();
            let sh = (c.shard.index, c.shard.count);
            let v1 = encode::<W, H, B>(c.depth, c.depth, sh, &c.entries);
            let mut book = Self::parse(Cow::Owned(v1), false)?;
            let raw = Arc::get_mut(&mut book.raw).expect("a new book");
            raw.format = Format::CompactShard;
            raw.file_len = file_len;
            raw.header.checksum = FileHeader::read(&bytes)
                .expect("a parsed shard has a header")
                .checksum
                .get();
            return Ok(book);
        }
        let (header, file) = read_header(&bytes)?;
        file.check_board::<W, H>()?;
        if header.depth as usize >= W * H {
            return Err(BookError::BadHeader(format!(
                "depth {} out of range for a {W}x{H} board",
                header.depth
            )));
        }
        if file.version.get() == v2::VERSION {
            let layers = v2::parse::<W, H, B>(&bytes, &file, check_entries)?;
            let file_len = bytes.len();
            return Ok(Book {
                raw: Arc::new(Raw {
                    bytes,
                    header,
                    store: Store::V2(layers),
                    format: Format::V2,
                    file_len,
                }),
                _board: PhantomData,
            });
        }
        let entry_bytes = entry_bytes(W, H);
        let score_bits = score_bits(W, H);
        if file.key_bytes as usize != entry_bytes || file.score_bits as u32 != score_bits {
            return Err(BookError::BadHeader(format!(
                "{} bytes per entry and {} score bits, not {entry_bytes} and {score_bits}",
                file.key_bytes, file.score_bits
            )));
        }
        if header.depth as usize >= W * H || header.lowest > header.depth {
            return Err(BookError::BadHeader(format!(
                "stones {}..={} out of range for a {W}x{H} board",
                header.lowest, header.depth
            )));
        }
        let expected = header
            .entries
            .checked_mul(entry_bytes as u64)
            .and_then(|n| n.checked_add(HEADER_BYTES as u64));
        if expected != Some(bytes.len() as u64) {
            return Err(BookError::Length {
                entries: header.entries,
                expected: expected.unwrap_or(u64::MAX),
                found: bytes.len(),
            });
        }
        let computed = checksum(&bytes);
        if computed != header.checksum {
            return Err(BookError::Checksum {
                stored: header.checksum,
                computed,
            });
        }
        let file_len = bytes.len();
        let book = Book {
            raw: Arc::new(Raw {
                bytes,
                header,
                store: Store::V1 {
                    entry_bytes,
                    score_bits,
                },
                format: Format::V1,
                file_len,
            }),
            _board: PhantomData,
        };
        if check_entries {
            book.check_entries()?;
        }
        Ok(book)
    }

    fn check_entries(&self) -> Result<(), BookError> {
        let h = &self.raw.header;
        let mut previous: Option<B> = None;
        for (i, (key, score)) in self.entries().enumerate() {
            let bad = |reason| BookError::BadEntry {
                index: i as u64,
                reason,
            };
            if previous.is_some_and(|p| p >= key) {
                return Err(bad("keys are not strictly ascending"));
            }
            previous = Some(key);
            let pos = Board::<W, H, B>::from_key(key).ok_or(bad("not a position's key"))?;
            let stones = pos.moves_played();
            if stones < h.lowest as usize || stones > h.depth as usize {
                return Err(bad("stone count outside the book's range"));
            }
            if pos.has_four() {
                return Err(bad("a position with four in a row"));
            }
            if pos.mirror().key() < key {
                return Err(bad("not the smaller key of a mirror pair"));
            }
            let (lo, hi) = pos.score_range();
            if score < lo || score > hi {
                return Err(bad("a score this position cannot have"));
            }
        }
        Ok(())
    }

    /// The header fields.
    pub fn header(&self) -> &Header {
        &self.raw.header
    }

    /// The most stones of a stored position.
    pub fn depth(&self) -> usize {
        self.raw.header.depth as usize
    }

    /// Number of entries (mirror pairs).
    pub fn len(&self) -> usize {
        self.raw.header.entries as usize
    }

    /// Whether the book has no entry.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The file's bytes (of a compact shard: the same entries as version 1).
    pub fn bytes(&self) -> &[u8] {
        &self.raw.bytes
    }

    /// Which file the book was read from.
    pub fn format(&self) -> Format {
        self.raw.format
    }

    /// Bytes of the file the book was read from.
    pub fn file_len(&self) -> usize {
        self.raw.file_len
    }

    /// Bits per entry of a version-2 book: (the hashes', the scores'), each
    /// summed over the layers and divided by the entries; `None` for another
    /// format.
    pub fn bits_per_entry(&self) -> Option<(f64, f64)> {
        match self.raw.store {
            Store::V2(_) => {
                let (h, s) = v2::bits(&self.raw.bytes, self.depth());
                let n = self.len().max(1) as f64;
                Some((h as f64 / n, s as f64 / n))
            }
            Store::V1 { .. } => None,
        }
    }

    /// Checks that every position of every layer of a version-2 book (the layers
    /// enumerated afresh) has a slot of its own and a score it can have: what
    /// reading a version-1 book checks, and reading a version-2 book cannot (it
    /// holds no keys). Seconds for a book of depth 12; nothing to do for another
    /// format.
    ///
    /// # Errors
    /// [`BookError::BadEntry`] naming the first position that fails.
    pub fn check_positions(&self) -> Result<(), BookError> {
        let Store::V2(layers) = &self.raw.store else {
            return Ok(());
        };
        let all = layers::cached::<W, H, B>(self.depth());
        let mut index = 0u64;
        for (layer, keys) in layers.iter().zip(all.iter()) {
            let bad = |index, reason| BookError::BadEntry { index, reason };
            let mut taken = vec![false; keys.len()];
            for &key in keys.iter() {
                let slot = layer
                    .slot(&self.raw.bytes, key)
                    .ok_or(bad(index, "a position the hash does not place"))?;
                if taken.get(slot).copied() != Some(false) {
                    return Err(bad(index, "two positions share a slot"));
                }
                taken[slot] = true;
                let pos = Board::<W, H, B>::from_key(key).expect("a layer holds keys");
                let score = layer.score(&self.raw.bytes, key).expect("a placed key");
                let (lo, hi) = pos.score_range();
                if score < lo || score > hi {
                    return Err(bad(index, "a score this position cannot have"));
                }
                index += 1;
            }
        }
        Ok(())
    }

    /// The `i`-th entry of a version-1 book: canonical key and score.
    #[inline]
    fn entry(&self, i: usize) -> (B, i32) {
        let raw = &*self.raw;
        let Store::V1 {
            entry_bytes,
            score_bits,
        } = raw.store
        else {
            unreachable!("version 1 only")
        };
        let at = HEADER_BYTES + i * entry_bytes;
        // Up to 16 bytes (a key of up to 128 bits and its score).
        let mut word = [0u8; 16];
        word[..entry_bytes].copy_from_slice(&raw.bytes[at..at + entry_bytes]);
        let v = u128::from_le_bytes(word);
        let score = (v & ((1 << score_bits) - 1)) as i32 + Board::<W, H, B>::MIN_SCORE;
        (B::from_u128(v >> score_bits), score)
    }

    /// Every entry, in ascending key order: canonical key and score. A version-2
    /// book stores no keys: its layers are enumerated (once, then kept) and
    /// each position looked up, seconds for a book of depth 12.
    pub fn entries(&self) -> impl ExactSizeIterator<Item = (B, i32)> + '_ {
        match &self.raw.store {
            Store::V1 { .. } => Entries::Stored(0..self.len(), self),
            Store::V2(layers) => {
                let all = layers::cached::<W, H, B>(self.depth());
                let mut out: Vec<(B, i32)> = Vec::with_capacity(self.len());
                for (layer, keys) in layers.iter().zip(all.iter()) {
                    // A key the hash does not place is left out (`check_positions`
                    // reports it).
                    out.extend(
                        keys.iter()
                            .filter_map(|&k| layer.score(&self.raw.bytes, k).map(|s| (k, s))),
                    );
                }
                out.sort_unstable();
                Entries::Listed(out.into_iter())
            }
        }
    }

    /// The score stored under `canonical_key` (of a version-2 book: see
    /// [`Book::score`]).
    pub fn score_of_key(&self, canonical_key: B) -> Option<i32> {
        if let Store::V2(layers) = &self.raw.store {
            let pos = Board::<W, H, B>::from_key(canonical_key)?;
            let layer = layers.get(pos.moves_played())?;
            return layer.score(&self.raw.bytes, canonical_key);
        }
        let (mut lo, mut hi) = (0, self.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let (k, score) = self.entry(mid);
            match k.cmp(&canonical_key) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Some(score),
            }
        }
        None
    }

    /// The exact strong score of `pos` from the side to move, if the book holds
    /// it (always for a whole book and a position of at most [`Book::depth`]
    /// stones with no four in a row). A version-2 book holds no keys: for a
    /// position with no four that cannot arise in a game (a stone order no game
    /// plays) it answers some score of the layer's range.
    #[inline]
    pub fn score(&self, pos: &Board<W, H, B>) -> Option<i32> {
        let h = &self.raw.header;
        let stones = pos.moves_played();
        if stones > h.depth as usize || stones < h.lowest as usize {
            return None;
        }
        if let Store::V2(layers) = &self.raw.store {
            if pos.has_four() {
                return None;
            }
            return layers[stones].score(&self.raw.bytes, pos.canonical_key());
        }
        self.score_of_key(pos.canonical_key())
    }

    /// For each number of stones from `lowest` to `depth`, the positions won,
    /// drawn and lost for the first player, a position and its mirror image
    /// counted as two (as published position counts are).
    pub fn by_stones(&self) -> Vec<StoneCounts> {
        let h = &self.raw.header;
        let mut out: Vec<StoneCounts> = (h.lowest..=h.depth)
            .map(|s| StoneCounts {
                stones: s as u32,
                ..StoneCounts::default()
            })
            .collect();
        for (key, score) in self.entries() {
            let Some(pos) = Board::<W, H, B>::from_key(key) else {
                continue;
            };
            let stones = pos.moves_played();
            let weight = if pos.mirror().key() == key { 1 } else { 2 };
            // The first player is to move after an even number of stones.
            let first = if stones % 2 == 0 { score } else { -score };
            let c = &mut out[stones - h.lowest as usize];
            match first.signum() {
                1 => c.won += weight,
                0 => c.drawn += weight,
                _ => c.lost += weight,
            }
        }
        out
    }
}

/// The entries of a book, stored or listed.
enum Entries<'a, const W: usize, const H: usize, B: Bits> {
    Stored(std::ops::Range<usize>, &'a Book<W, H, B>),
    Listed(std::vec::IntoIter<(B, i32)>),
}

impl<const W: usize, const H: usize, B: Bits> Iterator for Entries<'_, W, H, B> {
    type Item = (B, i32);
    fn next(&mut self) -> Option<(B, i32)> {
        match self {
            Entries::Stored(range, book) => range.next().map(|i| book.entry(i)),
            Entries::Listed(it) => it.next(),
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            Entries::Stored(range, _) => range.size_hint(),
            Entries::Listed(it) => it.size_hint(),
        }
    }
}

impl<const W: usize, const H: usize, B: Bits> ExactSizeIterator for Entries<'_, W, H, B> {}

/// Reads the header of a version-1 or version-2 book: its fields, and the
/// file's header as it lies (no check of the board or of the entries).
fn read_header(bytes: &[u8]) -> Result<(Header, FileHeader), BookError> {
    let file = *FileHeader::read(bytes).ok_or(BookError::TooShort { len: bytes.len() })?;
    if file.magic != MAGIC {
        return Err(BookError::BadMagic);
    }
    let version = file.version.get();
    if version != VERSION && version != v2::VERSION {
        return Err(BookError::Version { found: version });
    }
    let header = Header {
        width: file.width,
        height: file.height,
        depth: file.depth,
        lowest: file.lowest,
        shard_index: file.shard_index.get(),
        shard_count: file.shard_count.get(),
        entries: file.entries.get(),
        checksum: file.checksum.get(),
    };
    if header.shard_count == 0 || header.shard_index == 0 || header.shard_index > header.shard_count
    {
        return Err(BookError::BadHeader(format!(
            "shard {} of {}",
            header.shard_index, header.shard_count
        )));
    }
    if header.shard_count > 1 && header.lowest != header.depth {
        return Err(BookError::BadHeader(
            "a shard holds more than its deepest layer".to_string(),
        ));
    }
    Ok((header, file))
}

/// What a file records of the word its keys were written (and hashed) on:
/// the key's bytes when they are more than 8 (16 on a board over 64 bits), else 0,
/// as every file written before books had other words holds.
fn key_tag<B: Bits>() -> u8 {
    if B::BITS <= 64 {
        0
    } else {
        (B::BITS / 8) as u8
    }
}

/// Appends `key`'s `B::BITS / 8` little-endian bytes.
fn put_key<B: Bits>(out: &mut Vec<u8>, key: B) {
    out.extend_from_slice(&key.to_u128().to_le_bytes()[..B::BITS / 8]);
}

/// The key of `B::BITS / 8` little-endian bytes at the start of `bytes`.
fn get_key<B: Bits>(bytes: &[u8]) -> B {
    let mut word = [0u8; 16];
    word[..B::BITS / 8].copy_from_slice(&bytes[..B::BITS / 8]);
    B::from_u128(u128::from_le_bytes(word))
}

/// Writes a book or shard file's bytes.
///
/// `entries` are (canonical key, score) pairs in strictly ascending key order;
/// `lowest..=depth` their stone counts; `shard` is `(index, count)`, `(1, 1)` for
/// a whole book.
///
/// # Panics
/// In debug builds, if the entries are not strictly ascending.
pub(crate) fn encode<const W: usize, const H: usize, B: Bits>(
    depth: usize,
    lowest: usize,
    shard: (u16, u16),
    entries: &[(B, i32)],
) -> Vec<u8> {
    debug_assert!(entries.windows(2).all(|w| w[0].0 < w[1].0));
    debug_assert!(lowest <= depth && depth < W * H);
    let eb = entry_bytes(W, H);
    let sb = score_bits(W, H);
    let header = FileHeader {
        lowest: lowest as u8,
        key_bytes: eb as u8,
        score_bits: sb as u8,
        ..FileHeader::new::<W, H>(MAGIC, VERSION, depth, shard, entries.len() as u64)
    };
    let mut out = Vec::with_capacity(HEADER_BYTES + entries.len() * eb);
    out.extend_from_slice(header.as_bytes());
    for &(key, score) in entries {
        let v = (key.to_u128() << sb) | (score - Board::<W, H, B>::MIN_SCORE) as u128;
        out.extend_from_slice(&v.to_le_bytes()[..eb]);
    }
    seal(&mut out);
    out
}

#[cfg(test)]
mod tests {
    // The generation, the 128-bit keys, the committed shards and the layers'
    // oracles, in files of their own under `tests/`.
    mod committed_shards;
    mod generation;
    mod oracles;
    mod wide_keys;

    use super::*;
    use crate::position::Position;

    type Small = Board<4, 4>;

    /// A small 4x4 "book" of a few real positions with made-up scores in range.
    fn sample() -> Vec<u8> {
        let mut entries: Vec<(u64, i32)> = ["", "1", "2", "12", "22", "11"]
            .iter()
            .map(|m| Small::parse(m).unwrap().canonical_key())
            .map(|k| (k, 1))
            .collect();
        entries.sort_unstable();
        entries.dedup();
        encode::<4, 4, u64>(2, 0, (1, 1), &entries)
    }

    /// A whole 4x4 version-2 book of depth 2 with made-up scores in range.
    pub(super) fn small_v2_book() -> Vec<u8> {
        let entries: Vec<Vec<(u64, i32)>> = layers::layers::<4, 4, u64>(2)
            .iter()
            .map(|l| {
                l.iter()
                    .enumerate()
                    .map(|(i, &k)| (k, i as i32 % 3 - 1))
                    .collect()
            })
            .collect();
        v2::encode::<4, 4, u64>(&entries)
    }

    #[test]
    fn entry_sizes() {
        assert_eq!((score_bits(7, 6), entry_bytes(7, 6)), (6, 7));
        assert_eq!(Position::MAX_SCORE - Position::MIN_SCORE, 36);
    }

    #[test]
    fn a_written_book_reads_back() {
        let bytes = sample();
        let book = Book::<4, 4>::from_bytes(bytes.clone()).unwrap();
        assert_eq!(book.len(), 6);
        assert_eq!(book.bytes(), &bytes[..]);
        assert_eq!(book.score(&Small::parse("4").unwrap()), Some(1));
        assert_eq!(book.score(&Small::parse("3").unwrap()), Some(1));
        assert_eq!(book.score(&Small::parse("13").unwrap()), None);
        assert_eq!(book.score(&Small::parse("123").unwrap()), None);
        let counts = book.by_stones();
        assert_eq!(counts.len(), 3);
        assert_eq!(counts[0].won, 1);
        // "1" and "2" with their mirrors "4" and "3": four one-stone positions, each
        // with score 1 for the second player to move: lost for the first player.
        assert_eq!(counts[1].lost, 4);
    }

    #[test]
    fn every_corrupted_byte_is_refused() {
        assert_flips_refused(&sample(), &[1, 0x80, 0xff]);
    }

    /// Every byte of `bytes` (a 4x4 book) xor each of `flips` is refused.
    pub(super) fn assert_flips_refused(bytes: &[u8], flips: &[u8]) {
        for i in 0..bytes.len() {
            for &flip in flips {
                let mut bad = bytes.to_vec();
                bad[i] ^= flip;
                assert!(
                    Book::<4, 4>::from_bytes(bad).is_err(),
                    "byte {i} xor {flip:#x} was accepted"
                );
            }
        }
    }

    /// Every proper prefix of `bytes` (a 4x4 book) is refused as too short.
    pub(super) fn assert_truncations_refused(bytes: &[u8]) {
        for len in 0..bytes.len() {
            let err = Book::<4, 4>::from_bytes(bytes[..len].to_vec()).unwrap_err();
            assert!(
                matches!(
                    err,
                    BookError::TooShort { .. } | BookError::Length { .. } | BookError::BadMagic
                ),
                "{len}: {err}"
            );
        }
    }

    #[test]
    fn every_truncation_and_extension_is_refused() {
        let bytes = sample();
        assert_truncations_refused(&bytes);
        let mut long = bytes.clone();
        long.push(0);
        assert!(matches!(
            Book::<4, 4>::from_bytes(long),
            Err(BookError::Length { .. })
        ));
    }

    #[test]
    fn a_book_for_another_board_is_refused() {
        let err = Book::<5, 4>::from_bytes(sample()).unwrap_err();
        assert_eq!(err.to_string(), "the book is for a 4x4 board, not 5x4");
    }

    #[test]
    fn well_checksummed_nonsense_is_refused() {
        let k = |m: &str| Small::parse(m).unwrap().canonical_key();
        let cases: Vec<(Vec<(u64, i32)>, &str)> = vec![
            (vec![(0b1_1111, 1)], "not a position's key"),
            (vec![(k("123"), 1)], "stone count outside the book's range"),
            (
                vec![(Small::parse("4").unwrap().key(), 1)],
                "not the smaller key of a mirror pair",
            ),
            (vec![(k(""), 9)], "a score this position cannot have"),
        ];
        for (entries, reason) in cases {
            let bytes = encode::<4, 4, u64>(2, 0, (1, 1), &entries);
            match Book::<4, 4>::from_bytes(bytes) {
                Err(BookError::BadEntry { reason: r, .. }) => assert_eq!(r, reason),
                other => panic!("{reason}: {other:?}"),
            }
        }
        // Two entries swapped, the checksum made right again.
        let mut bytes = encode::<4, 4, u64>(2, 0, (1, 1), &[(k(""), 1), (k("1"), 1)]);
        let eb = entry_bytes(4, 4);
        let (a, b) = bytes[HEADER_BYTES..].split_at_mut(eb);
        a.swap_with_slice(&mut b[..eb]);
        seal(&mut bytes);
        assert!(matches!(
            Book::<4, 4>::from_bytes(bytes),
            Err(BookError::BadEntry {
                index: 1,
                reason: "keys are not strictly ascending"
            })
        ));
    }

    #[test]
    fn shards_are_refused_where_a_book_is_needed() {
        let e = Small::parse("12").unwrap().canonical_key();
        let bytes = encode::<4, 4, u64>(2, 2, (2, 3), &[(e, 1)]);
        let shard = Book::<4, 4>::from_bytes(bytes).unwrap();
        assert!(matches!(
            shard.require_whole(),
            Err(BookError::Shard { index: 2, count: 3 })
        ));
        assert_eq!(shard.score(&Small::parse("12").unwrap()), Some(1));
        assert_eq!(shard.score(&Small::parse("1").unwrap()), None);
    }

    /// The bytes every writer makes of a small input, pinned (length and CRC-32 of
    /// the whole file, the 32-byte header in full): a change of any layout shows.
    #[test]
    fn written_files_keep_their_bytes() {
        let pin = |bytes: &[u8]| (bytes.len(), crc32fast::hash(bytes), bytes[..32].to_vec());
        let v1 = sample();
        let v2 = small_v2_book();
        let wide: Vec<Vec<(u128, i32)>> = layers::layers::<4, 4, u128>(2)
            .iter()
            .map(|l| l.iter().map(|&k| (k, 0)).collect())
            .collect();
        let v2_wide = v2::encode::<4, 4, u128>(&wide);
        let share = Shard { index: 1, count: 2 };
        let mut keys = share.select(&layers::layers::<4, 4, u64>(2)[2]);
        keys.sort_unstable();
        let entries: Vec<(u64, i32)> = keys.iter().map(|&k| (k, 1)).collect();
        let compact = shard::encode::<4, 4, u64>(2, share, &entries);
        let head = |magic: &[u8; 8], fields: [u8; 16], entries: u8| {
            let mut h = magic.to_vec();
            h.extend_from_slice(&fields);
            h.extend_from_slice(&[entries, 0, 0, 0, 0, 0, 0, 0]);
            h
        };
        // Version, 4x4, depth 2, lowest, shard, byte 18 and 19, checksum.
        let fields = |version: u8, shard: [u8; 4], tag: [u8; 2], crc: [u8; 4]| {
            let mut f = [
                version, 0, 4, 4, 2, 0, 0, 0, 0, 0, tag[0], tag[1], 0, 0, 0, 0,
            ];
            f[6..10].copy_from_slice(&shard);
            f[12..16].copy_from_slice(&crc);
            f
        };
        let whole = [1, 0, 1, 0];
        let cases = [
            (v1, 56, 3619754194, 1, whole, [4, 5], [147, 193, 119, 89], 6),
            (
                v2,
                194,
                2509818202,
                2,
                whole,
                [0, 0],
                [152, 108, 48, 31],
                11,
            ),
            (
                v2_wide,
                191,
                2158170160,
                2,
                whole,
                [16, 0],
                [77, 7, 37, 219],
                11,
            ),
        ];
        for (bytes, len, crc, version, shard, tag, crc_bytes, entries) in cases {
            let want = head(&MAGIC, fields(version, shard, tag, crc_bytes), entries);
            assert_eq!(pin(&bytes), (len, crc, want), "version {version}");
        }
        let want = head(
            &shard::MAGIC,
            fields(1, [1, 0, 2, 0], [0, 0], [213, 204, 185, 76]),
            8,
        );
        assert_eq!(pin(&compact), (48, 3518918989, want));
    }

    #[test]
    fn the_builtin_book_is_whole_and_checks_out() {
        let book = Book7x6::builtin().expect("the built-in book parses");
        book.require_whole().unwrap();
        // The checks the lazy start-up parse leaves out: the checksum and every hash.
        let again = Book7x6::from_bytes(book.bytes().to_vec()).unwrap();
        assert_eq!(again.len(), book.len());
        assert_eq!(book.score(&Position::new()), Some(1));
        assert!(Book::<5, 4>::builtin().is_none());
    }
}
