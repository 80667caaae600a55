//! The wide layout of the [shared table](super::shared): 8-byte entries holding the
//! whole key, for compact tables below the size at which the 4-byte entries'
//! partial key stays exact (63 MB on 7x6). Exact at every size from 1 MB, so that
//! `--table compact --table-mb 1` works instead of being refused.
//!
//! # Entry layout (one `AtomicU64` per slot)
//!
//! | bits   | width | field | meaning                                                    |
//! |--------|-------|-------|------------------------------------------------------------|
//! | 0..8   | 8     | value | 0 = empty; otherwise the value: upper bound `u` as `u - MIN + 1`, lower bound `l` as `l - MIN + 1 + R` (`R = MAX - MIN + 1`, 37 on 7x6, 73 on 6x12: `2R <= 255`) |
//! | 8..64  | 56    | key   | the position key mod 2^56: the whole key on boards of up to 56 bits (below 2^49 on 7x6) |
//!
//! * Index: `key mod p`, `p` the largest prime number of 8-byte slots that fits.
//! * One bound per slot, always replaced (no room for the work of a search).
//! * Empty: value 0. A slot answers only if its value is non-zero **and** its key
//!   field equals the key, so an empty slot never passes for the empty board
//!   (key 0).
//! * Exact at any size: a key of up to 56 bits is kept whole; a wider one (boards
//!   of up to 64 bits, such as 8x7) keeps its low 56 bits, and since the slot is
//!   `key mod p` with `p` an odd prime, the pair (slot, low 56 bits) determines
//!   `key mod (p * 2^56)` by the Chinese remainder theorem: exact for every key
//!   below `p * 2^56`, every 64-bit key once `p >= 256`, which
//!   [`Wide::exact`](super::shared::Layout::exact) checks.

use std::sync::atomic::AtomicU64;

use super::Bound;
use super::shared::Layout;

/// 8-byte entries: the whole key and the 8-bit value.
#[derive(Clone, Copy, Debug)]
pub struct Wide;

const KEY_SHIFT: u32 = 8;
const VALUE_MASK: u64 = 0xff;
/// The key bits kept: the low 56.
const PARTIAL_MASK: u64 = u64::MAX >> KEY_SHIFT;

/// The 8-bit values of a board's scores.
#[derive(Clone, Copy, Debug)]
pub struct WideCodes {
    min_score: i32,
    /// Number of distinct scores, `MAX - MIN + 1`.
    range: i32,
}

impl WideCodes {
    /// The value of a bound, clamped into the board's score range.
    #[inline]
    fn value(&self, score: i32, bound: Bound) -> u64 {
        let v = score.clamp(self.min_score, self.min_score + self.range - 1) - self.min_score + 1;
        match bound {
            Bound::Upper => v as u64,
            Bound::Lower | Bound::Exact => (v + self.range) as u64,
        }
    }

    /// Decodes a non-zero value into a score and its bound.
    #[inline]
    fn decode(&self, value: u64) -> (i32, Bound) {
        debug_assert!(value != 0);
        let v = value as i32;
        if v > self.range {
            (v - self.range + self.min_score - 1, Bound::Lower)
        } else {
            (v + self.min_score - 1, Bound::Upper)
        }
    }
}

impl Layout for Wide {
    type Word = AtomicU64;
    type Codes = WideCodes;
    #[cfg(feature = "research")]
    const NAME: &'static str = "compact (8-byte entries)";
    #[cfg(any(test, feature = "research"))]
    const ENTRIES: usize = 1;
    const DEPTH_IS_WORK: bool = false;
    fn exact(len: u64, key_bound: u128) -> bool {
        key_bound <= u128::from(len) << (u64::BITS - KEY_SHIFT)
    }
    fn codes(min_score: i32, max_score: i32) -> WideCodes {
        let range = max_score - min_score + 1;
        assert!(
            range > 0 && 2 * range <= VALUE_MASK as i32,
            "scores do not fit the 8-bit value"
        );
        WideCodes { min_score, range }
    }
    #[inline]
    fn read(codes: &WideCodes, key: u64, word: u64) -> Option<(i32, Bound)> {
        let value = word & VALUE_MASK;
        (word >> KEY_SHIFT == key & PARTIAL_MASK && value != 0).then(|| codes.decode(value))
    }
    #[inline]
    fn write(
        codes: &WideCodes,
        key: u64,
        _word: u64,
        score: i32,
        bound: Bound,
        _work: u8,
    ) -> Option<u64> {
        // Always replace.
        Some((key << KEY_SHIFT) | codes.value(score, bound))
    }
    #[cfg(any(test, feature = "research"))]
    #[inline]
    fn entries(word: u64) -> u32 {
        u32::from(word != 0)
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
            assert_eq!(t.get(k), None, "key {k}");
        }
        t.put(0u64, -18, Bound::Upper, 1);
        assert_eq!(
            (t.get(0u64), t.get(n)),
            (Some((-18, Bound::Upper)), None),
            "same slot, other key"
        );
        t.put(n, 18, Bound::Lower, 1);
        assert_eq!(
            (t.get(0u64), t.get(n)),
            (None, Some((18, Bound::Lower))),
            "replaced"
        );
    }

    #[test]
    fn the_widest_score_range_round_trips() {
        // 6x12, 72 cells: scores -33..=33, values up to 134, past 7 bits.
        use crate::position::Board;
        type B = Board<6, 12, u128>;
        let t = SharedTable::<Wide>::for_board::<6, 12>(40).unwrap();
        let key = (1u128 << 77) | 99;
        for (score, bound) in [
            (B::MIN_SCORE, Bound::Upper),
            (B::MAX_SCORE, Bound::Lower),
            (B::MAX_SCORE, Bound::Upper),
            (B::MIN_SCORE, Bound::Lower),
            (0, Bound::Lower),
        ] {
            t.put(key, score, bound, 1);
            assert_eq!(t.get(key), Some((score, bound)), "{score} {bound:?}");
        }
        assert_eq!((B::MIN_SCORE, B::MAX_SCORE), (-33, 33));
    }

    #[test]
    fn sixty_four_bit_keys_stay_apart() {
        // 8x7: keys of up to 64 bits, the low 56 kept.
        let t = SharedTable::<Wide>::for_board::<8, 7>(1).unwrap();
        let p = t.len() as u64;
        let a = (1u64 << 63) | 4_321;
        let b = a - (p << 8); // same slot, other low bits
        let c = a ^ (1 << 60); // same low bits, other slot
        assert_eq!((b % p, c & PARTIAL_MASK), (a % p, a & PARTIAL_MASK));
        t.put(a, 25, Bound::Lower, 1);
        assert_eq!(t.get(a), Some((25, Bound::Lower)));
        assert_eq!((t.get(b), t.get(c)), (None, None));
        assert!(Wide::exact(257, 1 << 64));
        assert!(!Wide::exact(255, 1 << 64));
    }
}
