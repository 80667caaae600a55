//! `key mod len` without a division, for keys of either bitboard word.

use crate::bits::Bits;

/// A table length with what the division-free remainder needs.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Modulus {
    len: u64,
    /// `floor((2^64 - 1) / len)`: the estimated quotient is `q` or `q - 1`.
    magic: u64,
    /// `2^64 mod len`, to fold the high word of a 128-bit key.
    two64: u64,
}

impl Modulus {
    /// The remainder by `len` (`len >= 1`).
    pub(crate) const fn new(len: u64) -> Self {
        Modulus {
            len,
            magic: u64::MAX / len,
            two64: ((u64::MAX % len) + 1) % len,
        }
    }

    /// `x mod len` for a 64-bit `x`: one multiplication and at most one
    /// subtraction.
    #[inline(always)]
    fn reduce64(self, x: u64) -> u64 {
        let q = ((u128::from(x) * u128::from(self.magic)) >> 64) as u64;
        let mut r = x - q * self.len;
        if r >= self.len {
            r -= self.len;
        }
        debug_assert_eq!(r, x % self.len);
        r
    }

    /// `key mod len`. A `u64` key costs what it always did; a `u128` key folds
    /// its high word in as `high * 2^64 mod len` (exact while `len < 2^32`, every
    /// table this machine can hold; a division otherwise).
    #[inline(always)]
    pub(crate) fn reduce<K: Bits>(self, key: K) -> u64 {
        let low = self.reduce64(key.low_u64());
        if K::BITS <= 64 {
            return low;
        }
        let high = key.high_u64();
        if high == 0 {
            return low;
        }
        if self.len >= 1 << 32 {
            return (key.to_u128() % u128::from(self.len)) as u64;
        }
        // Both factors below 2^32: the product fits, and so does the sum below.
        let folded = self.reduce64(self.reduce64(high) * self.two64);
        self.reduce64(folded + low)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_remainder_of_either_word() {
        for len in [
            1u64,
            2,
            3,
            251,
            65_521,
            8_257_531,
            4_294_967_291,
            (1 << 40) + 15,
        ] {
            let m = Modulus::new(len);
            for k in [0u64, 1, len - 1, len, u64::MAX, 0x1234_5678_9abc_def0] {
                assert_eq!(m.reduce(k), k % len, "{k} mod {len}");
            }
            for k in [
                1u128 << 64,
                (1 << 72) - 1,
                0xff_1234_5678_9abc_def0,
                u128::MAX,
            ] {
                assert_eq!(
                    u128::from(m.reduce(k)),
                    k % u128::from(len),
                    "{k} mod {len}"
                );
            }
        }
    }
}
