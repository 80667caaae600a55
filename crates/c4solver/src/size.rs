//! Board sizes chosen at run time.
//!
//! Every type of the library takes the board's width and height as const generic
//! parameters (`Board<W, H>`, `Solver<W, H>`, `Book<W, H>`): each size is compiled
//! on its own, with its masks and shifts as constants. A program that takes the
//! size from its user, as the command line's `--size WxH` does, parses it into a
//! [`Size`] and calls a generic function through [`with_size!`](crate::with_size),
//! which holds one instantiation per supported size.
//!
//! The supported sizes are every width and height from 4 up whose bitboard takes
//! at most 64 bits, `W * (H + 1) <= 64` ([`Size::ALL`], 42 sizes from 4x4 to
//! 12x4 and 4x15, on a `u64`), and eleven boards of up to 128 bits on a `u128`
//! ([`Size::WIDE`]: 5x12, 5x13, 6x10, 6x11, 6x12, 7x9, 7x10, 8x8, 9x7, 10x6 and 11x5). [`Size::new`] takes
//! every size of up to 128 bits; [`Size::built`] says whether this build has it. Smaller boards (a width or height below 4) work in the library
//! but are not instantiated here: nobody can win on a board less than four wide
//! and four high but in the other direction, and they are not in Tromp's table.
//!
//! [`with_size!`](crate::with_size) instantiates every supported size only with
//! the `all-sizes` cargo feature: each size is a copy of the whole program, about
//! 0.27 MB of code each, so the default build holds the standard 7x6 board alone
//! ([`Size::BUILT`]; [`Size::built`] says why another size is missing).

use std::fmt;
use std::str::FromStr;

/// A board size: `width` columns of `height` rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Size {
    /// Number of columns.
    pub width: usize,
    /// Number of rows.
    pub height: usize,
}

/// Why a size could not be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SizeError {
    /// Not of the form `WxH`.
    #[error("bad board size {0:?}: expected WIDTHxHEIGHT, for example 7x6")]
    Syntax(String),
    /// A width or height below 4.
    #[error("board size {0} is too small: width and height must be at least 4")]
    TooSmall(Size),
    /// A supported size that this build does not instantiate (built without the
    /// `all-sizes` feature).
    #[error(
        "board size {0} is not built into this program, which has the 7x6 board only: \
         build it with the `all-sizes` feature (`cargo install --path . --features all-sizes --profile all-sizes`)"
    )]
    NotBuilt(Size),
    /// A size over 64 bits that is not one of [`Size::WIDE`].
    #[error(
        "board size {0} ({bits} bits) is not one of the sizes over 64 bits that the `all-sizes` \
         build holds: 5x12, 5x13, 6x10, 6x11, 6x12, 7x9, 7x10, 8x8, 9x7, 10x6 and 11x5",
        bits = .0.width * (.0.height + 1)
    )]
    NotWide(Size),
    /// The bitboard would need more than 128 bits.
    #[error(
        "board size {0} is too large: width * (height + 1) = {bits} bits, more than the 128 of the widest bitboard",
        bits = .0.width * (.0.height + 1)
    )]
    TooLarge(Size),
}

impl Size {
    /// The standard board, 7x6.
    pub const STANDARD: Size = Size {
        width: 7,
        height: 6,
    };

    /// The sizes over 64 bits built with the `all-sizes` feature (each a copy of
    /// the program on a 128-bit bitboard): every board of Steininger's results
    /// table that needs more than 64 bits (65 to 78).
    pub const WIDE: [Size; 11] = [
        Size {
            width: 5,
            height: 12,
        },
        Size {
            width: 5,
            height: 13,
        },
        Size {
            width: 6,
            height: 10,
        },
        Size {
            width: 6,
            height: 11,
        },
        Size {
            width: 6,
            height: 12,
        },
        Size {
            width: 7,
            height: 9,
        },
        Size {
            width: 7,
            height: 10,
        },
        Size {
            width: 8,
            height: 8,
        },
        Size {
            width: 9,
            height: 7,
        },
        Size {
            width: 10,
            height: 6,
        },
        Size {
            width: 11,
            height: 5,
        },
    ];

    /// Every supported size, by width then height: every `W`x`H` with `W, H >= 4`
    /// and `W * (H + 1) <= 64`.
    pub const ALL: [Size; 42] = [
        Size {
            width: 4,
            height: 4,
        },
        Size {
            width: 4,
            height: 5,
        },
        Size {
            width: 4,
            height: 6,
        },
        Size {
            width: 4,
            height: 7,
        },
        Size {
            width: 4,
            height: 8,
        },
        Size {
            width: 4,
            height: 9,
        },
        Size {
            width: 4,
            height: 10,
        },
        Size {
            width: 4,
            height: 11,
        },
        Size {
            width: 4,
            height: 12,
        },
        Size {
            width: 4,
            height: 13,
        },
        Size {
            width: 4,
            height: 14,
        },
        Size {
            width: 4,
            height: 15,
        },
        Size {
            width: 5,
            height: 4,
        },
        Size {
            width: 5,
            height: 5,
        },
        Size {
            width: 5,
            height: 6,
        },
        Size {
            width: 5,
            height: 7,
        },
        Size {
            width: 5,
            height: 8,
        },
        Size {
            width: 5,
            height: 9,
        },
        Size {
            width: 5,
            height: 10,
        },
        Size {
            width: 5,
            height: 11,
        },
        Size {
            width: 6,
            height: 4,
        },
        Size {
            width: 6,
            height: 5,
        },
        Size {
            width: 6,
            height: 6,
        },
        Size {
            width: 6,
            height: 7,
        },
        Size {
            width: 6,
            height: 8,
        },
        Size {
            width: 6,
            height: 9,
        },
        Size {
            width: 7,
            height: 4,
        },
        Size {
            width: 7,
            height: 5,
        },
        Size {
            width: 7,
            height: 6,
        },
        Size {
            width: 7,
            height: 7,
        },
        Size {
            width: 7,
            height: 8,
        },
        Size {
            width: 8,
            height: 4,
        },
        Size {
            width: 8,
            height: 5,
        },
        Size {
            width: 8,
            height: 6,
        },
        Size {
            width: 8,
            height: 7,
        },
        Size {
            width: 9,
            height: 4,
        },
        Size {
            width: 9,
            height: 5,
        },
        Size {
            width: 9,
            height: 6,
        },
        Size {
            width: 10,
            height: 4,
        },
        Size {
            width: 10,
            height: 5,
        },
        Size {
            width: 11,
            height: 4,
        },
        Size {
            width: 12,
            height: 4,
        },
    ];

    /// A supported size, or why not.
    ///
    /// # Errors
    /// [`SizeError::TooSmall`] below 4 in either direction, [`SizeError::TooLarge`]
    /// when `width * (height + 1) > 128`.
    pub fn new(width: usize, height: usize) -> Result<Self, SizeError> {
        let size = Size { width, height };
        if width < 4 || height < 4 {
            Err(SizeError::TooSmall(size))
        } else if width.checked_mul(height + 1).is_none_or(|bits| bits > 128) {
            Err(SizeError::TooLarge(size))
        } else {
            Ok(size)
        }
    }

    /// The sizes [`with_size!`](crate::with_size) instantiates: every one of
    /// [`Size::ALL`] and [`Size::WIDE`] with the `all-sizes` feature, the standard
    /// board alone without.
    #[cfg(feature = "all-sizes")]
    pub const BUILT: &'static [Size] = &ALL_AND_WIDE;
    /// The sizes [`with_size!`](crate::with_size) instantiates: every one of
    /// [`Size::ALL`] with the `all-sizes` feature, the standard board alone without.
    #[cfg(not(feature = "all-sizes"))]
    pub const BUILT: &'static [Size] = &[Size::STANDARD];

    /// This size if [`with_size!`](crate::with_size) instantiates it
    /// ([`Size::BUILT`]).
    ///
    /// # Errors
    /// [`SizeError::NotBuilt`] for a size left out of this build.
    pub fn built(self) -> Result<Self, SizeError> {
        if Self::BUILT.contains(&self) {
            Ok(self)
        } else if self.bits() > 64 && !Self::WIDE.contains(&self) {
            Err(SizeError::NotWide(self))
        } else {
            Err(SizeError::NotBuilt(self))
        }
    }

    /// Whether the size's bitboard is a `u128` (more than 64 bits).
    pub fn is_wide(self) -> bool {
        self.bits() > 64
    }

    /// Number of cells.
    pub fn cells(self) -> usize {
        self.width * self.height
    }

    /// Bits of the bitboard, `width * (height + 1)`.
    pub fn bits(self) -> usize {
        self.width * (self.height + 1)
    }
}

/// [`Size::ALL`] then [`Size::WIDE`].
#[cfg(feature = "all-sizes")]
const ALL_AND_WIDE: [Size; 53] = {
    let mut all = [Size::STANDARD; 53];
    let mut i = 0;
    while i < 42 {
        all[i] = Size::ALL[i];
        i += 1;
    }
    while i < 53 {
        all[i] = Size::WIDE[i - 42];
        i += 1;
    }
    all
};

impl Default for Size {
    fn default() -> Self {
        Size::STANDARD
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

impl FromStr for Size {
    type Err = SizeError;

    /// Parses `WxH` (`7x6`; `X` and surrounding spaces accepted).
    fn from_str(s: &str) -> Result<Self, SizeError> {
        let syntax = || SizeError::Syntax(s.to_string());
        let (w, h) = s.trim().split_once(['x', 'X']).ok_or_else(syntax)?;
        let w: usize = w.trim().parse().map_err(|_| syntax())?;
        let h: usize = h.trim().parse().map_err(|_| syntax())?;
        Size::new(w, h)
    }
}

/// Calls a generic function `f::<W, H, B>(args...)` with the const parameters of
/// a [`Size`] chosen at run time and its bitboard word `B` (`u64` up to 64 bits,
/// `u128` above): `with_size!(size, solve_one(&moves))` expands to a `match` with
/// one arm per built size ([`Size::BUILT`]: all of [`Size::ALL`] and
/// [`Size::WIDE`] with the `all-sizes` feature, 7x6 alone without).
///
/// ```
/// use c4solver::{Bits, Board, Size, with_size};
///
/// fn cells<const W: usize, const H: usize, B: Bits>(extra: usize) -> usize {
///     Board::<W, H, B>::CELLS + extra
/// }
/// let size: Size = "7x6".parse()?;
/// assert_eq!(with_size!(size.built()?, cells(1)), 43);
/// # Ok::<(), c4solver::SizeError>(())
/// ```
///
/// # Panics
/// If the size is not one of [`Size::BUILT`] (check it with [`Size::built`]).
#[cfg(feature = "all-sizes")]
#[macro_export]
macro_rules! with_size {
    ($size:expr, $($f:ident)::+ ( $($arg:expr),* $(,)? )) => {{
        let size: $crate::Size = $size;
        match (size.width, size.height) {
            (4, 4) => $($f)::+::<4, 4, u64>($($arg),*),
            (4, 5) => $($f)::+::<4, 5, u64>($($arg),*),
            (4, 6) => $($f)::+::<4, 6, u64>($($arg),*),
            (4, 7) => $($f)::+::<4, 7, u64>($($arg),*),
            (4, 8) => $($f)::+::<4, 8, u64>($($arg),*),
            (4, 9) => $($f)::+::<4, 9, u64>($($arg),*),
            (4, 10) => $($f)::+::<4, 10, u64>($($arg),*),
            (4, 11) => $($f)::+::<4, 11, u64>($($arg),*),
            (4, 12) => $($f)::+::<4, 12, u64>($($arg),*),
            (4, 13) => $($f)::+::<4, 13, u64>($($arg),*),
            (4, 14) => $($f)::+::<4, 14, u64>($($arg),*),
            (4, 15) => $($f)::+::<4, 15, u64>($($arg),*),
            (5, 4) => $($f)::+::<5, 4, u64>($($arg),*),
            (5, 5) => $($f)::+::<5, 5, u64>($($arg),*),
            (5, 6) => $($f)::+::<5, 6, u64>($($arg),*),
            (5, 7) => $($f)::+::<5, 7, u64>($($arg),*),
            (5, 8) => $($f)::+::<5, 8, u64>($($arg),*),
            (5, 9) => $($f)::+::<5, 9, u64>($($arg),*),
            (5, 10) => $($f)::+::<5, 10, u64>($($arg),*),
            (5, 11) => $($f)::+::<5, 11, u64>($($arg),*),
            (6, 4) => $($f)::+::<6, 4, u64>($($arg),*),
            (6, 5) => $($f)::+::<6, 5, u64>($($arg),*),
            (6, 6) => $($f)::+::<6, 6, u64>($($arg),*),
            (6, 7) => $($f)::+::<6, 7, u64>($($arg),*),
            (6, 8) => $($f)::+::<6, 8, u64>($($arg),*),
            (6, 9) => $($f)::+::<6, 9, u64>($($arg),*),
            (7, 4) => $($f)::+::<7, 4, u64>($($arg),*),
            (7, 5) => $($f)::+::<7, 5, u64>($($arg),*),
            (7, 6) => $($f)::+::<7, 6, u64>($($arg),*),
            (7, 7) => $($f)::+::<7, 7, u64>($($arg),*),
            (7, 8) => $($f)::+::<7, 8, u64>($($arg),*),
            (8, 4) => $($f)::+::<8, 4, u64>($($arg),*),
            (8, 5) => $($f)::+::<8, 5, u64>($($arg),*),
            (8, 6) => $($f)::+::<8, 6, u64>($($arg),*),
            (8, 7) => $($f)::+::<8, 7, u64>($($arg),*),
            (9, 4) => $($f)::+::<9, 4, u64>($($arg),*),
            (9, 5) => $($f)::+::<9, 5, u64>($($arg),*),
            (9, 6) => $($f)::+::<9, 6, u64>($($arg),*),
            (10, 4) => $($f)::+::<10, 4, u64>($($arg),*),
            (10, 5) => $($f)::+::<10, 5, u64>($($arg),*),
            (11, 4) => $($f)::+::<11, 4, u64>($($arg),*),
            (12, 4) => $($f)::+::<12, 4, u64>($($arg),*),
            (5, 12) => $($f)::+::<5, 12, u128>($($arg),*),
            (5, 13) => $($f)::+::<5, 13, u128>($($arg),*),
            (6, 10) => $($f)::+::<6, 10, u128>($($arg),*),
            (6, 11) => $($f)::+::<6, 11, u128>($($arg),*),
            (6, 12) => $($f)::+::<6, 12, u128>($($arg),*),
            (7, 9) => $($f)::+::<7, 9, u128>($($arg),*),
            (7, 10) => $($f)::+::<7, 10, u128>($($arg),*),
            (8, 8) => $($f)::+::<8, 8, u128>($($arg),*),
            (9, 7) => $($f)::+::<9, 7, u128>($($arg),*),
            (10, 6) => $($f)::+::<10, 6, u128>($($arg),*),
            (11, 5) => $($f)::+::<11, 5, u128>($($arg),*),
            _ => panic!("board size {size} is not built into this program"),
        }
    }};
}

/// Calls a generic function `f::<W, H, B>(args...)` with the const parameters of
/// a [`Size`] chosen at run time and its bitboard word `B` (`u64` up to 64 bits,
/// `u128` above): `with_size!(size, solve_one(&moves))` expands to a `match` with
/// one arm per built size ([`Size::BUILT`]: all of [`Size::ALL`] and
/// [`Size::WIDE`] with the `all-sizes` feature, 7x6 alone without).
///
/// ```
/// use c4solver::{Bits, Board, Size, with_size};
///
/// fn cells<const W: usize, const H: usize, B: Bits>(extra: usize) -> usize {
///     Board::<W, H, B>::CELLS + extra
/// }
/// let size: Size = "7x6".parse()?;
/// assert_eq!(with_size!(size.built()?, cells(1)), 43);
/// # Ok::<(), c4solver::SizeError>(())
/// ```
///
/// # Panics
/// If the size is not one of [`Size::BUILT`] (check it with [`Size::built`]).
#[cfg(not(feature = "all-sizes"))]
#[macro_export]
macro_rules! with_size {
    ($size:expr, $($f:ident)::+ ( $($arg:expr),* $(,)? )) => {{
        let size: $crate::Size = $size;
        match (size.width, size.height) {
            (7, 6) => $($f)::+::<7, 6, u64>($($arg),*),
            _ => panic!("board size {size} is not built into this program"),
        }
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_size_of_up_to_128_bits() {
        let mut all = Vec::new();
        for w in 1..=140 {
            for h in 1..=140 {
                if let Ok(s) = Size::new(w, h) {
                    all.push(s);
                }
            }
        }
        assert_eq!(all.len(), 157);
        assert!(
            all.iter()
                .all(|s| s.width >= 4 && s.height >= 4 && s.bits() <= 128)
        );
        let narrow: Vec<Size> = all.iter().copied().filter(|s| !s.is_wide()).collect();
        assert_eq!(narrow, Size::ALL);
        assert!(Size::WIDE.iter().all(|s| all.contains(s) && s.is_wide()));
        // Steininger's sizes of width + height = 16 over 64 bits are all there.
        for w in 4..=12 {
            let s = Size::new(w, 16 - w).unwrap();
            assert!(!s.is_wide() || Size::WIDE.contains(&s), "{s}");
        }
    }

    #[test]
    fn parse_and_errors() {
        assert_eq!("7x6".parse(), Ok(Size::STANDARD));
        assert_eq!(" 8X7 ".parse::<Size>().map(Size::bits), Ok(64));
        assert_eq!(
            "3x6".parse::<Size>().unwrap_err().to_string(),
            "board size 3x6 is too small: width and height must be at least 4"
        );
        assert_eq!("9x7".parse::<Size>().map(Size::bits), Ok(72));
        assert_eq!(
            "13x9".parse::<Size>().unwrap_err().to_string(),
            "board size 13x9 is too large: width * (height + 1) = 130 bits, more than the 128 of the widest bitboard"
        );
        assert_eq!("16x7".parse::<Size>().map(Size::bits), Ok(128));
        assert_eq!(
            Size::new(12, 7).unwrap().built().unwrap_err().to_string(),
            "board size 12x7 (96 bits) is not one of the sizes over 64 bits that the `all-sizes` \
             build holds: 5x12, 5x13, 6x10, 6x11, 6x12, 7x9, 7x10, 8x8, 9x7, 10x6 and 11x5"
        );
        for bad in [
            "",
            "7",
            "7x",
            "x6",
            "7x6x5",
            "seven",
            "-1x6",
            "99999999999999999999x4",
        ] {
            assert!(
                matches!(bad.parse::<Size>(), Err(SizeError::Syntax(_))),
                "{bad:?}"
            );
        }
    }

    fn width_of<const W: usize, const H: usize, B: crate::Bits>() -> (usize, usize, usize) {
        (
            crate::Board::<W, H, B>::WIDTH,
            crate::Board::<W, H, B>::HEIGHT,
            B::BITS,
        )
    }

    #[test]
    fn with_size_instantiates_every_size() {
        for &size in Size::BUILT {
            let bits = if size.is_wide() { 128 } else { 64 };
            assert_eq!(
                with_size!(size, width_of()),
                (size.width, size.height, bits)
            );
        }
        let other = Size::new(8, 7).unwrap();
        assert_eq!(
            other.built().is_ok(),
            cfg!(feature = "all-sizes"),
            "8x7 is built with the feature only"
        );
    }
}
