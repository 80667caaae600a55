//! The wide layout of the [shared table](super::shared): 8-byte entries holding the
//! whole key, for compact tables below the size at which the 4-byte entries'
//! partial key stays exact (63 MB on 7x6). Exact at every size from 1 MB, so that
//! `--table compact --table-mb 1` works instead of being refused.
//!
//! # Entry layout (one `AtomicU64` per slot)
//!
//! | bits   | width | field | meaning                                                    |
//! |--------|-------|-------|------------------------------------------------------------|
//! | 0..8   | 8     | value | 0 = empty; otherwise the compact table's 7-bit value (upper bound `u - MIN + 1`, lower bound `l - MIN + 1 + R`) |
//! | 8..64  | 56    | key   | the whole position key (below 2^49 on 7x6)                 |
//!
//! * Index: `key mod p`, `p` the largest prime number of 8-byte slots that fits.
//! * Empty: value 0. A slot answers only if its value is non-zero **and** its key
//!   field equals the key, so an empty slot never passes for the empty board
//!   (key 0).
//! * Exact at any size: the whole key is kept (every key of a board of up to 56
//!   bits, which [`Wide::exact`](super::shared::Layout::exact) checks).

use std::sync::atomic::AtomicU64;

use super::shared::Layout;

/// 8-byte entries: the whole key and the 7-bit value.
#[derive(Clone, Copy, Debug)]
pub struct Wide;

const KEY_SHIFT: u32 = 8;

impl Layout for Wide {
    type Word = AtomicU64;
    const NAME: &'static str = "compact (8-byte entries)";
    fn exact(_len: u64, key_bound: u128) -> bool {
        key_bound <= 1 << (u64::BITS - KEY_SHIFT)
    }
    #[inline]
    fn pack(key: u64, value: u8) -> u64 {
        (key << KEY_SHIFT) | u64::from(value)
    }
    #[inline]
    fn unpack(key: u64, word: u64) -> u8 {
        if word >> KEY_SHIFT == key {
            (word & 0xff) as u8
        } else {
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::shared::SharedTable;

    #[test]
    fn every_size_from_one_megabyte_is_exact() {
        for mb in [1, 2, 8, 62] {
            let t = SharedTable::<Wide>::for_board::<7, 6>(mb).unwrap();
            assert_eq!(t.len() as u64, crate::table::prev_prime((mb as u64) << 17));
        }
    }

    #[test]
    fn zero_keys_are_not_empty_slots() {
        let t = SharedTable::<Wide>::for_board::<7, 6>(1).unwrap();
        let n = t.len() as u64;
        for k in [0, n, 2 * n, 1 << 40] {
            assert_eq!(t.get(k), 0, "key {k}");
        }
        t.put(0, 3);
        assert_eq!((t.get(0), t.get(n)), (3, 0), "same slot, other key");
        t.put(n, 5);
        assert_eq!((t.get(0), t.get(n)), (0, 5), "replaced");
    }
}
