//! The bitboard word: `u64` for boards of at most 64 bits, `u128` up to 128.
//!
//! [`Board`](crate::sized::Board) takes its word as a type parameter `B: Bits` (`u64`
//! unless named), so one source serves both widths and the 64-bit boards (7x6
//! among them) compile to the same machine code as before: every method here is
//! the integer's own operation, inlined.
//!
//! Masks that depend on the geometry are computed once as `u128` constants by
//! `const fn`s and narrowed with [`Bits::from_u128`] where they are used: a cast
//! of a constant, folded by the compiler.

use std::fmt::{Binary, Debug, Display};
use std::hash::Hash;
use std::ops::{
    Add, BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Mul, Not, Shl, Shr, Sub,
};

/// Keeps [`Bits`] to the two words the library is written and tested for.
mod sealed {
    /// Implemented for `u64` and `u128` alone; public in a private module, so that
    /// it bounds [`Bits`](super::Bits) and nobody outside can name it.
    #[allow(unreachable_pub)]
    pub trait Sealed {}
    impl Sealed for u64 {}
    impl Sealed for u128 {}
}

/// An unsigned integer used as a bitboard: the operations the position, the
/// search and the tables need, for `u64` and `u128` (sealed: no other type can
/// implement it).
pub trait Bits:
    sealed::Sealed
    + Copy
    + Eq
    + Ord
    + Hash
    + Debug
    + Display
    + Binary
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Shl<usize, Output = Self>
    + Shr<usize, Output = Self>
{
    /// Number of bits of the word.
    const BITS: usize;
    /// No bit set.
    const ZERO: Self;
    /// The lowest bit alone.
    const ONE: Self;

    /// Number of bits set.
    fn count_ones(self) -> u32;
    /// Number of zero bits below the lowest bit set (`BITS` for zero).
    fn trailing_zeros(self) -> u32;
    /// Number of zero bits above the highest bit set (`BITS` for zero).
    fn leading_zeros(self) -> u32;
    /// The low `BITS` bits of `x` (the whole of it when it fits).
    fn from_u128(x: u128) -> Self;
    /// The word widened to 128 bits.
    fn to_u128(self) -> u128;
    /// Subtraction modulo `2^BITS`.
    fn wrapping_sub(self, other: Self) -> Self;
    /// Negation modulo `2^BITS` (`x & x.wrapping_neg()` is the lowest bit set).
    fn wrapping_neg(self) -> Self;
    /// The low 64 bits.
    fn low_u64(self) -> u64;
    /// The bits above the low 64 (always 0 for `u64`).
    fn high_u64(self) -> u64;
    /// The word with its lowest bit set cleared (`x & (x - 1)`; zero stays zero).
    #[inline]
    fn clear_lowest(self) -> Self {
        self & self.wrapping_sub(Self::ONE)
    }
}

macro_rules! bits_for {
    ($t:ty) => {
        impl Bits for $t {
            const BITS: usize = <$t>::BITS as usize;
            const ZERO: Self = 0;
            const ONE: Self = 1;

            #[inline(always)]
            fn count_ones(self) -> u32 {
                <$t>::count_ones(self)
            }
            #[inline(always)]
            fn trailing_zeros(self) -> u32 {
                <$t>::trailing_zeros(self)
            }
            #[inline(always)]
            fn leading_zeros(self) -> u32 {
                <$t>::leading_zeros(self)
            }
            #[inline(always)]
            fn from_u128(x: u128) -> Self {
                x as $t
            }
            #[inline(always)]
            fn to_u128(self) -> u128 {
                self as u128
            }
            #[inline(always)]
            fn wrapping_sub(self, other: Self) -> Self {
                <$t>::wrapping_sub(self, other)
            }
            #[inline(always)]
            fn wrapping_neg(self) -> Self {
                <$t>::wrapping_neg(self)
            }
            #[inline(always)]
            fn low_u64(self) -> u64 {
                self as u64
            }
            #[inline(always)]
            #[allow(clippy::cast_possible_truncation)]
            fn high_u64(self) -> u64 {
                (self as u128 >> 64) as u64
            }
        }
    };
}

bits_for!(u64);
bits_for!(u128);

/// One bit at the bottom of each of `w` columns of `h + 1` bits.
pub(crate) const fn bottom_mask(w: usize, h: usize) -> u128 {
    let mut m = 0u128;
    let mut c = 0;
    while c < w {
        m |= 1u128 << (c * (h + 1));
        c += 1;
    }
    m
}

/// Every cell of `w` columns of `h` rows (sentinel bits excluded).
pub(crate) const fn board_mask(w: usize, h: usize) -> u128 {
    bottom_mask(w, h) * ((1u128 << h) - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ops<B: Bits>() {
        let x = B::from_u128(0b1011_0000);
        assert_eq!(x.count_ones(), 3);
        assert_eq!(x.trailing_zeros(), 4);
        assert_eq!(x.leading_zeros() as usize, B::BITS - 8);
        assert_eq!(x.clear_lowest().to_u128(), 0b1010_0000);
        assert_eq!(B::ZERO.trailing_zeros() as usize, B::BITS);
        assert_eq!((B::ONE << (B::BITS - 1)).to_u128(), 1u128 << (B::BITS - 1));
        assert_eq!(B::ZERO.wrapping_sub(B::ONE).count_ones() as usize, B::BITS);
    }

    #[test]
    fn both_words_behave_as_integers() {
        ops::<u64>();
        ops::<u128>();
        assert_eq!(
            u64::from_u128(1 << 70 | 5),
            5,
            "narrowing keeps the low bits"
        );
    }

    #[test]
    fn masks() {
        assert_eq!(bottom_mask(7, 6) as u64, 0x0000_0408_1020_4081);
        assert_eq!(board_mask(7, 6).count_ones(), 42);
        // 8x8: nine bits a column, the last column's bottom at bit 63.
        assert_eq!(bottom_mask(8, 8).count_ones(), 8);
        assert_eq!(board_mask(8, 8).count_ones(), 64);
        assert_eq!(128 - board_mask(8, 8).leading_zeros(), 71);
    }
}
