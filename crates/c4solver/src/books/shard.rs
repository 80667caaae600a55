//! The compact shard file: one share of a book's deepest layer as one byte a
//! score, the positions implied by the layer's enumeration ([`super::layers`]).
//!
//! | offset | bytes | field |
//! |---:|---:|---|
//! | 0 | 8 | magic `c4shard\0` |
//! | 8 | 2 | version: 1 |
//! | 10, 11 | 1, 1 | board width `W`, height `H` |
//! | 12 | 1 | depth: the stones of every position of the shard |
//! | 13 | 1 | 0 |
//! | 14 | 2 | shard index `I` (1-based) |
//! | 16 | 2 | shard count `K` |
//! | 18 | 1 | bytes of a key when more than 8 (16 on a board over 64 bits), else 0 |
//! | 19 | 1 | 0 |
//! | 20 | 4 | CRC-32 of the whole file with these 4 bytes read as zero |
//! | 24 | 8 | entry count `N` |
//! | 32 | 8 | FNV-1a (64 bits) of the shard's canonical keys, ascending, 8 bytes each (16 on a board over 64 bits) |
//! | 40 | `N` | the scores (signed bytes), in ascending key order |
//!
//! The keys are those of shard `I` of `K` of layer `depth` ([`Shard::select`]),
//! so a reader enumerates the layer; the fingerprint proves that it found the
//! same positions as the writer.

use super::header::{FileHeader, checksum as crc, seal};
use super::layers::{self, Shard};
use super::{BookError, key_tag, put_key};
use crate::bits::Bits;
use crate::position::Board;

/// The first 8 bytes of a compact shard.
pub(crate) const MAGIC: [u8; 8] = *b"c4shard\0";
/// The version this code reads and writes.
pub(crate) const VERSION: u16 = 1;
/// Bytes of the header: the 32 that open every book file, and the fingerprint.
pub(crate) const HEADER_BYTES: usize = FileHeader::LEN + 8;

/// FNV-1a, 64 bits, of the keys' little-endian bytes (`B::BITS / 8` each).
pub(crate) fn fingerprint<B: Bits>(keys: &[B]) -> u64 {
    let mut bytes = Vec::with_capacity(keys.len() * B::BITS / 8);
    for &k in keys {
        put_key(&mut bytes, k);
    }
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Writes a compact shard: `entries` are shard `shard`'s (canonical key, score)
/// pairs of layer `depth`, in ascending key order.
pub(crate) fn encode<const W: usize, const H: usize, B: Bits>(
    depth: usize,
    shard: Shard,
    entries: &[(B, i32)],
) -> Vec<u8> {
    debug_assert!(entries.windows(2).all(|w| w[0].0 < w[1].0));
    let keys: Vec<B> = entries.iter().map(|&(k, _)| k).collect();
    let header = FileHeader {
        key_bytes: key_tag::<B>(),
        ..FileHeader::new::<W, H>(
            MAGIC,
            VERSION,
            depth,
            (shard.index, shard.count),
            entries.len() as u64,
        )
    };
    let mut out = Vec::with_capacity(HEADER_BYTES + entries.len());
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(&fingerprint(&keys).to_le_bytes());
    out.extend(entries.iter().map(|&(_, s)| s as i8 as u8));
    seal(&mut out);
    out
}

/// What a compact shard holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Contents<B = u64> {
    /// The stones of its positions.
    pub depth: usize,
    /// Which share of the layer.
    pub shard: Shard,
    /// (canonical key, score) pairs in ascending key order.
    pub entries: Vec<(B, i32)>,
}

/// Reads a compact shard: its depth, its shard, and its (canonical key, score)
/// pairs in ascending key order. Checks the header, the length, the checksum,
/// the positions (against the layer's enumeration) and every score's range.
///
/// # Errors
/// [`BookError`] naming what is wrong.
pub(crate) fn parse<const W: usize, const H: usize, B: Bits>(
    bytes: &[u8],
) -> Result<Contents<B>, BookError> {
    let (Some(file), Some(print)) = (
        FileHeader::read(bytes),
        bytes.get(FileHeader::LEN..HEADER_BYTES),
    ) else {
        return Err(BookError::TooShort { len: bytes.len() });
    };
    if file.magic != MAGIC {
        return Err(BookError::BadMagic);
    }
    if file.version.get() != VERSION {
        return Err(BookError::Version {
            found: file.version.get(),
        });
    }
    file.check_board::<W, H>()?;
    let depth = file.depth as usize;
    let (index, count) = file.shard();
    if file.key_bytes != key_tag::<B>() && matches!(file.key_bytes, 0 | 16) {
        return Err(BookError::KeyWidth {
            found: if file.key_bytes == 0 { 64 } else { 128 },
            want: B::BITS,
        });
    }
    if depth >= W * H
        || file.lowest != 0
        || (file.key_bytes, file.score_bits) != (key_tag::<B>(), 0)
    {
        return Err(BookError::BadHeader(format!(
            "a shard of depth {depth} on a {W}x{H} board"
        )));
    }
    if index == 0 || index > count {
        return Err(BookError::BadHeader(format!("shard {index} of {count}")));
    }
    let entries = file.entries.get();
    if entries.checked_add(HEADER_BYTES as u64) != Some(bytes.len() as u64) {
        return Err(BookError::Length {
            entries,
            expected: entries.saturating_add(HEADER_BYTES as u64),
            found: bytes.len(),
        });
    }
    let (stored, computed) = (file.checksum.get(), crc(bytes));
    if stored != computed {
        return Err(BookError::Checksum { stored, computed });
    }
    let shard = Shard { index, count };
    let mut keys = shard.select(&layers::cached::<W, H, B>(depth)[depth]);
    keys.sort_unstable();
    if keys.len() as u64 != entries || fingerprint(&keys).to_le_bytes() != print {
        return Err(BookError::BadHeader(format!(
            "shard {shard} of layer {depth} holds {} positions, not these {entries}",
            keys.len()
        )));
    }
    let mut out = Vec::with_capacity(keys.len());
    for (i, (&key, &b)) in keys.iter().zip(&bytes[HEADER_BYTES..]).enumerate() {
        let score = b as i8 as i32;
        let pos = Board::<W, H, B>::from_key(key).expect("a layer holds keys");
        let (lo, hi) = pos.score_range();
        if score < lo || score > hi {
            return Err(BookError::BadEntry {
                index: i as u64,
                reason: "a score this position cannot have",
            });
        }
        out.push((key, score));
    }
    Ok(Contents {
        depth,
        shard,
        entries: out,
    })
}
