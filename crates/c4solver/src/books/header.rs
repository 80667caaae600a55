//! The 32 bytes every book file opens with (version 1, version 2, the compact
//! shard) and a generation's checkpoint too, as one typed struct.
//!
//! All integers little-endian; what each byte means per file:
//!
//! | offset | bytes | field | version 1 | version 2 | compact shard | checkpoint |
//! |---:|---:|---|---|---|---|---|
//! | 0 | 8 | `magic` | `c4book\n\0` | `c4book\n\0` | `c4shard\0` | `c4ckpt\n\0` |
//! | 8 | 2 | `version` | 1 | 2 | 1 | 1 |
//! | 10, 11 | 1, 1 | `width`, `height` | board | board | board | board |
//! | 12 | 1 | `depth` | most stones | most stones | stones | stones |
//! | 13 | 1 | `lowest` | fewest stones | 0 | 0 | key tag |
//! | 14, 16 | 2, 2 | `shard_index`, `shard_count` | shard | 1, 1 | shard | shard |
//! | 18 | 1 | `key_bytes` | bytes an entry | key tag | key tag | 0 |
//! | 19 | 1 | `score_bits` | bits a score | 0 | 0 | 0 |
//! | 20 | 4 | `checksum` | CRC-32 | CRC-32 | CRC-32 | 0 |
//! | 24 | 8 | `entries` | entries | entries | entries | positions |
//!
//! The key tag is [`key_tag`](super::key_tag): the bytes of a key when more than
//! 8 (16 on a board over 64 bits), else 0. A file's CRC-32 covers the whole file
//! with the checksum field read as zero ([`seal`]); a checkpoint keeps its own
//! CRC-32 of these 32 bytes just after them.

use bytemuck::{Pod, Zeroable};

use super::BookError;

/// A little-endian integer of `N` bytes, stored as its bytes (alignment 1, so
/// that [`FileHeader`] has no padding and reads from any offset).
#[repr(transparent)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Le<const N: usize>([u8; N]);

// SAFETY: a transparent wrapper of a byte array: any bytes are a value, no padding.
unsafe impl<const N: usize> Zeroable for Le<N> {}
// SAFETY: as above; `[u8; N]` is `Pod`.
unsafe impl<const N: usize> Pod for Le<N> {}

impl From<u16> for Le<2> {
    fn from(v: u16) -> Self {
        Le(v.to_le_bytes())
    }
}

impl From<u32> for Le<4> {
    fn from(v: u32) -> Self {
        Le(v.to_le_bytes())
    }
}

impl From<u64> for Le<8> {
    fn from(v: u64) -> Self {
        Le(v.to_le_bytes())
    }
}

impl Le<2> {
    /// The value.
    pub(super) fn get(self) -> u16 {
        u16::from_le_bytes(self.0)
    }
}

impl Le<4> {
    /// The value.
    pub(super) fn get(self) -> u32 {
        u32::from_le_bytes(self.0)
    }
}

impl Le<8> {
    /// The value.
    pub(super) fn get(self) -> u64 {
        u64::from_le_bytes(self.0)
    }
}

/// The first 32 bytes of a book, shard or checkpoint file (see the module's
/// table for what each field holds in each file).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct FileHeader {
    /// Names the file's kind.
    pub magic: [u8; 8],
    /// The format version.
    pub version: Le<2>,
    /// Board width.
    pub width: u8,
    /// Board height.
    pub height: u8,
    /// The most stones of a stored position.
    pub depth: u8,
    /// The fewest stones of a stored position (a checkpoint: its key tag).
    pub lowest: u8,
    /// 1-based shard index.
    pub shard_index: Le<2>,
    /// Number of shards.
    pub shard_count: Le<2>,
    /// Bytes of a version-1 entry; the key tag of version 2 and of a shard.
    pub key_bytes: u8,
    /// Bits of a version-1 score; 0 elsewhere.
    pub score_bits: u8,
    /// CRC-32 of the whole file with this field read as zero.
    pub checksum: Le<4>,
    /// Entries (a checkpoint: positions to solve).
    pub entries: Le<8>,
}

const _: () = assert!(std::mem::size_of::<FileHeader>() == FileHeader::LEN);
const _: () = assert!(std::mem::align_of::<FileHeader>() == 1);

// SAFETY: `repr(C)`, every field `Pod` of alignment 1, sizes summing to the
// struct's (checked above): no padding, and any bytes are a value.
unsafe impl Zeroable for FileHeader {}
// SAFETY: as above.
unsafe impl Pod for FileHeader {}

/// Where the checksum lies in a file.
pub(super) const CRC_AT: usize = std::mem::offset_of!(FileHeader, checksum);

impl FileHeader {
    /// Bytes of the header.
    pub(super) const LEN: usize = 32;

    /// The header of a `W`x`H` file of `depth`: `magic`, `version`, `shard`
    /// (index, count) and `entries`; bytes 13, 18 and 19 and the checksum zero.
    pub(super) fn new<const W: usize, const H: usize>(
        magic: [u8; 8],
        version: u16,
        depth: usize,
        shard: (u16, u16),
        entries: u64,
    ) -> Self {
        FileHeader {
            magic,
            version: version.into(),
            width: W as u8,
            height: H as u8,
            depth: depth as u8,
            lowest: 0,
            shard_index: shard.0.into(),
            shard_count: shard.1.into(),
            key_bytes: 0,
            score_bits: 0,
            checksum: 0.into(),
            entries: entries.into(),
        }
    }

    /// Fails with [`BookError::WrongBoard`] unless the file is for the `W`x`H`
    /// board.
    pub(super) fn check_board<const W: usize, const H: usize>(&self) -> Result<(), BookError> {
        if (self.width as usize, self.height as usize) != (W, H) {
            return Err(BookError::WrongBoard {
                width: self.width,
                height: self.height,
                want_width: W,
                want_height: H,
            });
        }
        Ok(())
    }

    /// The header at the start of `bytes`, or `None` if they are shorter.
    pub(super) fn read(bytes: &[u8]) -> Option<&FileHeader> {
        bytes.get(..Self::LEN).map(bytemuck::from_bytes)
    }

    /// The header's 32 bytes.
    pub(super) fn as_bytes(&self) -> &[u8] {
        bytemuck::bytes_of(self)
    }

    /// (shard index, shard count).
    pub(super) fn shard(&self) -> (u16, u16) {
        (self.shard_index.get(), self.shard_count.get())
    }
}

/// CRC-32 of `bytes` (a whole file that opens with a [`FileHeader`]) with the
/// checksum field read as zero.
pub(super) fn checksum(bytes: &[u8]) -> u32 {
    let mut h = crc32fast::Hasher::new();
    h.update(&bytes[..CRC_AT]);
    h.update(&[0; 4]);
    h.update(&bytes[CRC_AT + 4..]);
    h.finalize()
}

/// Writes the [`checksum`] of `file` (a whole file) into its header.
pub(super) fn seal(file: &mut [u8]) {
    let crc = checksum(file);
    file[CRC_AT..CRC_AT + 4].copy_from_slice(&crc.to_le_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_lie_at_their_offsets() {
        let h = FileHeader {
            magic: *b"c4book\n\0",
            version: 0x0201.into(),
            width: 3,
            height: 4,
            depth: 5,
            lowest: 6,
            shard_index: 0x0807.into(),
            shard_count: 0x0a09.into(),
            key_bytes: 11,
            score_bits: 12,
            checksum: 0x100f_0e0d.into(),
            entries: 0x1817_1615_1413_1211.into(),
        };
        let mut want = b"c4book\n\0".to_vec();
        want.extend(1..=24u8);
        assert_eq!(h.as_bytes(), &want[..]);
        assert_eq!(FileHeader::read(&want), Some(&h));
        assert_eq!(FileHeader::read(&want[..31]), None);
        assert_eq!(
            (CRC_AT, h.shard(), h.entries.get()),
            (20, (0x0807, 0x0a09), 0x1817_1615_1413_1211)
        );
    }
}
