//! The compact book format (version 2): per layer, a minimal perfect hash of the
//! positions' canonical keys and their scores packed in a few bits each.
//!
//! A minimal perfect hash maps the `n` keys of a layer to `0..n` with no collision
//! in about 2.2 bits a key (FMPHGO of the `ph` crate, hashed with wyhash), so a
//! score is one hash and one bit-field read, and no key is stored. It also maps
//! any other key to some slot: the book tells the positions it holds from others
//! by their stone count alone, since every position up to its depth that can
//! arise in a game (no four on the board) is in it. A position that cannot arise
//! in a game gets an arbitrary score of its layer's range.
//!
//! # File format (version 2)
//!
//! All integers little-endian. The 32-byte header of version 1 (see the module
//! above), with version 2, lowest 0, shard 1 of 1, byte 18 the bytes of a key
//! hashed when they are more than 8 (16: a board over 64 bits, keyed and hashed
//! on 128 bits), else 0 (the 64-bit word of every book before), byte 19 zero, the
//! CRC-32 of the whole file (these 4 bytes read as zero) and the total entry
//! count; then one 32-byte record per layer `s = 0..=depth`:
//!
//! | bytes | field |
//! |---:|---|
//! | 0..8 | `n`: positions of `s` stones (one per mirror pair) |
//! | 8 | `low`: the layer's lowest score (signed) |
//! | 9 | `b`: bits per score (0 to 8) |
//! | 10..16 | 0 |
//! | 16..24 | bytes of the hash |
//! | 24..32 | bytes of the scores: `ceil(n * b / 8) + 1` |
//!
//! then, layer after layer, the hash (`ph::fmph::GOFunction::write`) and the
//! scores: the score of the key the hash sends to slot `i` is `low` plus the `b`
//! bits from bit `i * b` on (bit `j` is bit `j % 8` of byte `j / 8`); the last
//! byte pads, so that a score is always read as two bytes.

use std::io;
use std::sync::OnceLock;

use ph::fmph::{GOBuildConf, GOConf, GOFunction, TwoToPowerBitsStatic};
use ph::seedable_hash::BuildWyHash;

use super::header::{FileHeader, Le, checksum, seal};
use super::{BookError, HEADER_BYTES, MAGIC, key_tag};
use crate::bits::Bits;
use crate::position::Board;

/// The version number of this format.
pub(super) const VERSION: u16 = 2;
/// Bytes of a layer's record.
const LAYER_BYTES: usize = std::mem::size_of::<Record>();

/// A layer's record in the file (the table of the module's documentation).
#[repr(C)]
#[derive(Clone, Copy)]
struct Record {
    /// Positions of the layer.
    len: Le<8>,
    /// The layer's lowest score, a signed byte.
    low: u8,
    /// Bits per score.
    bits: u8,
    /// Zero.
    zero: [u8; 6],
    /// Bytes of the hash.
    hash_len: Le<8>,
    /// Bytes of the scores.
    score_len: Le<8>,
}

const _: () = assert!(LAYER_BYTES == 32 && std::mem::align_of::<Record>() == 1);

// SAFETY: `repr(C)`, every field `Pod` of alignment 1, no padding (checked
// above): any bytes are a value.
unsafe impl bytemuck::Zeroable for Record {}
// SAFETY: as above.
unsafe impl bytemuck::Pod for Record {}

impl Record {
    /// The record of layer `s` of a file whose records are all there.
    fn at(bytes: &[u8], s: usize) -> &Record {
        let r = HEADER_BYTES + s * LAYER_BYTES;
        bytemuck::from_bytes(&bytes[r..r + LAYER_BYTES])
    }
}

/// The hash of one layer: named so that another default of the crate (its
/// group and seed sizes, its hasher) can never change what a file means.
type Mphf = GOFunction<TwoToPowerBitsStatic<4>, TwoToPowerBitsStatic<2>, BuildWyHash>;

/// One layer of a version-2 book, ready for look-ups.
pub(super) struct Layer {
    len: usize,
    low: i32,
    bits: u32,
    /// Read from the file on first use (at once when the file is checked).
    hash: OnceLock<Mphf>,
    /// Where the hash lies in the file.
    hash_at: std::ops::Range<usize>,
    /// Where the packed scores lie in the file.
    scores: std::ops::Range<usize>,
}

/// Bits that hold `high - low`.
fn bits_for(low: i32, high: i32) -> u32 {
    32 - ((high - low) as u32).leading_zeros()
}

/// Writes a whole version-2 book: `layers[s]` holds the (canonical key, score)
/// pairs of the positions of `s` stones, in any order.
///
/// The bytes depend only on the entries: the hash is built on one thread, from
/// the keys in ascending order.
pub(super) fn encode<const W: usize, const H: usize, B: Bits>(layers: &[Vec<(B, i32)>]) -> Vec<u8> {
    let depth = layers.len() - 1;
    debug_assert!(depth < W * H);
    let mut records = Vec::with_capacity(layers.len() * LAYER_BYTES);
    let mut body = Vec::new();
    let mut total = 0u64;
    for layer in layers {
        let mut layer = layer.clone();
        layer.sort_unstable();
        let keys: Vec<B> = layer.iter().map(|&(k, _)| k).collect();
        let low = layer.iter().map(|&(_, s)| s).min().unwrap_or(0);
        let high = layer.iter().map(|&(_, s)| s).max().unwrap_or(0);
        let bits = bits_for(low, high);
        let conf = GOConf::hash_bps_bpg(BuildWyHash, Default::default(), Default::default());
        let hash = Mphf::from_slice_with_conf(&keys, GOBuildConf::with_mt(conf, false));
        let mut hash_bytes = Vec::with_capacity(hash.write_bytes());
        hash.write(&mut hash_bytes).expect("writing to memory");
        let mut scores = vec![0u8; (layer.len() * bits as usize).div_ceil(8) + 1];
        for &(key, score) in layer.iter().filter(|_| bits > 0) {
            let slot = hash.get(&key).expect("a key of the set") as usize;
            let value = (score - low) as u16;
            let at = slot * bits as usize;
            let window =
                u16::from_le_bytes([scores[at / 8], scores[at / 8 + 1]]) | (value << (at % 8));
            scores[at / 8..at / 8 + 2].copy_from_slice(&window.to_le_bytes());
        }
        let record = Record {
            len: (layer.len() as u64).into(),
            low: low as i8 as u8,
            bits: bits as u8,
            zero: [0; 6],
            hash_len: (hash_bytes.len() as u64).into(),
            score_len: (scores.len() as u64).into(),
        };
        records.extend_from_slice(bytemuck::bytes_of(&record));
        body.extend_from_slice(&hash_bytes);
        body.extend_from_slice(&scores);
        total += layer.len() as u64;
    }
    let header = FileHeader {
        key_bytes: key_tag::<B>(),
        ..FileHeader::new::<W, H>(MAGIC, VERSION, depth, (1, 1), total)
    };
    let mut out = Vec::with_capacity(HEADER_BYTES + records.len() + body.len());
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(&records);
    out.extend_from_slice(&body);
    seal(&mut out);
    out
}

/// [`encode`] of a whole book of `depth` given as (canonical key, score) pairs of
/// every layer together, in any order.
///
/// # Panics
/// If a key is not a position's or has more than `depth` stones.
pub(super) fn encode_entries<const W: usize, const H: usize, B: Bits>(
    depth: usize,
    entries: &[(B, i32)],
) -> Vec<u8> {
    let mut layers = vec![Vec::new(); depth + 1];
    for &(key, score) in entries {
        let pos = Board::<W, H, B>::from_key(key).expect("a position's key");
        layers[pos.moves_played()].push((key, score));
    }
    encode::<W, H, B>(&layers)
}

/// Reads the layers of a version-2 book whose header `file` (board, depth, entry
/// count) is already read; checks the rest of the header, the lengths and, if
/// `check_whole` (a file), the checksum and that every hash reads back and maps
/// its layer's count. Otherwise (the built-in book, whose bytes the tests check
/// whole) each hash is read on its first look-up, and the checksum not at all: it
/// would touch every page of the 8 MB book at each process start.
pub(super) fn parse<const W: usize, const H: usize, B: Bits>(
    bytes: &[u8],
    file: &FileHeader,
    check_whole: bool,
) -> Result<Vec<Layer>, BookError> {
    check_header::<B>(file)?;
    let spans = spans::<W, H, B>(bytes, file)?;
    if check_whole {
        let (stored, computed) = (file.checksum.get(), checksum(bytes));
        if computed != stored {
            return Err(BookError::Checksum { stored, computed });
        }
    }
    spans
        .into_iter()
        .enumerate()
        .map(|(s, span)| layer(bytes, s, span, check_whole))
        .collect()
}

/// Fails unless `file` is the header of a whole version-2 book keyed on `B`.
fn check_header<B: Bits>(file: &FileHeader) -> Result<(), BookError> {
    if file.lowest != 0 || file.shard() != (1, 1) || file.score_bits != 0 {
        return Err(BookError::BadHeader(
            "a version-2 book is whole: lowest 0, shard 1 of 1".to_string(),
        ));
    }
    if file.key_bytes != key_tag::<B>() {
        return Err(match file.key_bytes {
            0 => BookError::KeyWidth {
                found: 64,
                want: B::BITS,
            },
            16 => BookError::KeyWidth {
                found: 128,
                want: B::BITS,
            },
            n => BookError::BadHeader(format!("{n} bytes a key")),
        });
    }
    Ok(())
}

/// A layer as its record places it in the file.
struct Span {
    /// Positions of the layer.
    len: u64,
    /// Its lowest score.
    low: i32,
    /// Bits a score.
    bits: u32,
    /// Where its hash starts.
    start: u64,
    /// Bytes of its hash.
    hash_len: u64,
}

/// Reads and checks the layer records of a book of `file`'s depth: each layer's
/// span, with a score range the board allows and the bytes of scores its count
/// takes; the counts sum to the header's entries, and the layers end where the
/// file does.
fn spans<const W: usize, const H: usize, B: Bits>(
    bytes: &[u8],
    file: &FileHeader,
) -> Result<Vec<Span>, BookError> {
    let bad = |m: String| BookError::BadHeader(m);
    let (depth, entries) = (file.depth as usize, file.entries.get());
    let table_end = HEADER_BYTES + (depth + 1) * LAYER_BYTES;
    if bytes.len() < table_end {
        return Err(BookError::Length {
            entries,
            expected: table_end as u64,
            found: bytes.len(),
        });
    }
    let mut at = table_end as u64;
    let mut count = 0u64;
    let mut spans = Vec::with_capacity(depth + 1);
    for s in 0..=depth {
        let r = Record::at(bytes, s);
        let (n, low, bits) = (r.len.get(), r.low as i8 as i32, u32::from(r.bits));
        let (hash_len, score_len) = (r.hash_len.get(), r.score_len.get());
        // The fewest bits that hold the layer's scores: its highest score is at
        // least `low + 2^(b-1)`.
        let least_high = match bits {
            0 => low,
            1..=8 => low + (1 << (bits - 1)),
            _ => i32::MAX,
        };
        if low < Board::<W, H, B>::MIN_SCORE
            || least_high > Board::<W, H, B>::MAX_SCORE
            || r.zero != [0; 6]
        {
            return Err(bad(format!("layer {s}: score range out of bounds")));
        }
        let want_scores = n
            .checked_mul(u64::from(bits))
            .map(|b| b.div_ceil(8) + 1)
            .ok_or_else(|| bad(format!("layer {s}: {n} entries")))?;
        if score_len != want_scores {
            return Err(bad(format!(
                "layer {s}: {score_len} bytes of scores for {n} entries of {bits} bits"
            )));
        }
        count = count.saturating_add(n);
        let start = at;
        at = at.saturating_add(hash_len).saturating_add(score_len);
        spans.push(Span {
            len: n,
            low,
            bits,
            start,
            hash_len,
        });
    }
    if count != entries {
        return Err(bad(format!(
            "the layers hold {count} entries, the header {entries}"
        )));
    }
    if at != bytes.len() as u64 {
        return Err(BookError::Length {
            entries,
            expected: at,
            found: bytes.len(),
        });
    }
    Ok(spans)
}

/// Layer `s`, where `span` (checked to lie in `bytes`) places it; its hash read
/// now and checked to map the layer's count if `check_whole`.
fn layer(bytes: &[u8], s: usize, span: Span, check_whole: bool) -> Result<Layer, BookError> {
    let Span {
        len: n,
        low,
        bits,
        start,
        hash_len,
    } = span;
    let bad = |m: String| BookError::BadHeader(m);
    let (start, hash_end) = (start as usize, (start + hash_len) as usize);
    let hash = OnceLock::new();
    if check_whole {
        let mut input = &bytes[start..hash_end];
        let read = read_hash(&mut input)
            .map_err(|e| bad(format!("layer {s}: the hash does not read back: {e}")))?;
        if !input.is_empty() || read.len() as u64 != n {
            return Err(bad(format!(
                "layer {s}: the hash does not map its {n} positions"
            )));
        }
        let _ = hash.set(read);
    }
    let score_len = (n as usize * bits as usize).div_ceil(8) + 1;
    Ok(Layer {
        len: n as usize,
        low,
        bits,
        hash,
        hash_at: start..hash_end,
        scores: hash_end..hash_end + score_len,
    })
}

fn read_hash(input: &mut &[u8]) -> io::Result<Mphf> {
    Mphf::read_with_hasher(input, BuildWyHash)
}

impl Layer {
    /// The layer's hash, read from `bytes` (the file) on first use.
    #[inline]
    fn hash(&self, bytes: &[u8]) -> &Mphf {
        self.hash.get_or_init(|| {
            read_hash(&mut &bytes[self.hash_at.clone()])
                .expect("a hash of a checksummed built-in book reads back")
        })
    }

    /// The slot of `key` in `0..n`, if the hash finds one.
    pub(super) fn slot<B: Bits>(&self, bytes: &[u8], key: B) -> Option<usize> {
        self.hash(bytes)
            .get(&key)
            .map(|s| s as usize)
            .filter(|&s| s < self.len)
    }

    /// The score the layer holds under `key` (an arbitrary one of its range for a
    /// key it does not hold, or `None`).
    #[inline]
    pub(super) fn score<B: Bits>(&self, bytes: &[u8], key: B) -> Option<i32> {
        let slot = self.hash(bytes).get(&key)? as usize;
        if slot >= self.len {
            return None;
        }
        if self.bits == 0 {
            return Some(self.low);
        }
        let at = slot * self.bits as usize;
        let scores = &bytes[self.scores.clone()];
        let window = u16::from_le_bytes([scores[at / 8], scores[at / 8 + 1]]);
        let value = (window >> (at % 8)) & ((1u16 << self.bits) - 1);
        Some(self.low + i32::from(value))
    }
}

/// Bits a position of the book takes, hash and score: (hash bits, score bits)
/// summed over the layers, from the file's layer records.
pub(super) fn bits(bytes: &[u8], depth: usize) -> (u64, u64) {
    (0..=depth)
        .map(|s| Record::at(bytes, s))
        .fold((0, 0), |(h, sc), r| {
            (h + 8 * r.hash_len.get(), sc + 8 * r.score_len.get())
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::books::tests::small_v2_book as small_book;

    #[test]
    fn scores_of_every_width_round_trip() {
        type Small = Board<4, 4>;
        let keys: Vec<u64> = ["", "1", "2", "12", "22", "11", "13", "23"]
            .iter()
            .map(|m| Small::parse(m).unwrap().canonical_key())
            .collect();
        for (low, high) in [(0, 0), (-1, 0), (-3, 4), (-5, 5)] {
            let entries: Vec<(u64, i32)> = keys
                .iter()
                .enumerate()
                .map(|(i, &k)| (k, low + (i as i32 * 5) % (high - low + 1)))
                .collect();
            let bytes = encode::<4, 4, u64>(std::slice::from_ref(&entries));
            let header = FileHeader::read(&bytes).expect("a header");
            let layers =
                parse::<4, 4, u64>(&bytes, header, true).expect("a written book reads back");
            for &(k, s) in &entries {
                assert_eq!(layers[0].score(&bytes, k), Some(s), "{low}..{high}");
            }
            assert_eq!(
                encode::<4, 4, u64>(&[entries.into_iter().rev().collect()]),
                bytes
            );
        }
    }

    #[test]
    fn a_book_is_read_on_the_word_it_was_written_on() {
        use crate::books::{Book, BookError};
        // The layers of a 4x4 board keyed on 128 bits: the file says so, and a
        // reader on the 64-bit word (whose hash would send the keys elsewhere)
        // refuses it, as the wide reader refuses the 64-bit file.
        let wide: Vec<Vec<(u128, i32)>> = crate::books::layers::layers::<4, 4, u128>(2)
            .iter()
            .map(|l| l.iter().map(|&k| (k, 0)).collect())
            .collect();
        let bytes = encode::<4, 4, u128>(&wide);
        assert_eq!(bytes[18], 16);
        let book = Book::<4, 4, u128>::from_bytes(bytes.clone()).unwrap();
        book.check_positions().unwrap();
        assert_eq!(
            book.score(&Board::<4, 4, u128>::parse("12").unwrap()),
            Some(0)
        );
        let err = Book::<4, 4>::from_bytes(bytes).unwrap_err();
        assert!(matches!(
            err,
            BookError::KeyWidth {
                found: 128,
                want: 64
            }
        ));
        assert_eq!(
            err.to_string(),
            "the book keys its positions on 128-bit words, this board on 64-bit ones"
        );
        let narrow = small_book();
        assert_eq!(narrow[18], 0);
        assert!(matches!(
            Book::<4, 4, u128>::from_bytes(narrow),
            Err(BookError::KeyWidth {
                found: 64,
                want: 128
            })
        ));
    }

    #[test]
    fn a_version_2_book_reads_back_and_damage_is_refused() {
        use crate::books::Book;
        let bytes = small_book();
        let book = Book::<4, 4>::from_bytes(bytes.clone()).unwrap();
        book.require_whole().unwrap();
        book.check_positions().unwrap();
        assert_eq!(book.depth(), 2);
        let p = Board::<4, 4>::parse("12").unwrap();
        assert_eq!(
            book.score(&p),
            book.score(&Board::<4, 4>::parse("43").unwrap())
        );
        assert!(book.score(&Board::<4, 4>::parse("123").unwrap()).is_none());
        crate::books::tests::assert_flips_refused(&bytes, &[1, 0x80]);
        crate::books::tests::assert_truncations_refused(&bytes);
    }
}
