//! Board sizes chosen at run time.
//!
//! The library's engines take the board's width and height as const generic
//! parameters ([`sized`](crate::sized)): each size is compiled on its own, with its
//! masks and shifts as constants. The size-erased types ([`Position`](crate::Position),
//! [`Solver`](crate::Solver)) take a [`Size`] at run time and dispatch once
//! through [`with_size!`](crate::with_size), which holds one instantiation per
//! built size.
//!
//! The sizes are listed once, in `every_size!`: every width and height from 4 up
//! whose bitboard takes at most 64 bits, `W * (H + 1) <= 64` ([`Size::ALL`], on a
//! `u64`), and the boards of up to 128 bits of Steininger's table ([`Size::WIDE`],
//! on a `u128`). [`Size::new`] takes every size of up to 128 bits;
//! [`Size::built`] says whether this build has it. Smaller boards (a width or
//! height below 4) are not instantiated: nobody can win on a board less than four
//! wide and four high but in the other direction, and they are not in Tromp's
//! table.
//!
//! Every size is built only with the `all-sizes` cargo feature; the default build
//! holds the standard 7x6 board alone ([`Size::BUILT`]; [`Size::built`] says why
//! another size is missing).

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
         build holds: {list}",
        bits = .0.width * (.0.height + 1),
        list = Size::listed(&Size::WIDE)
    )]
    NotWide(Size),
    /// The bitboard would need more than 128 bits.
    #[error(
        "board size {0} is too large: width * (height + 1) = {bits} bits, more than the 128 of the widest bitboard",
        bits = .0.width * (.0.height + 1)
    )]
    TooLarge(Size),
}

/// The one list of the board sizes this library builds: every size of at most 64
/// bits (`narrow`, on a `u64`) and the boards over 64 bits (`wide`, on a `u128`).
/// `every_size!(m)` calls the macro `m` with the list: [`Size::ALL`],
/// [`Size::WIDE`], [`Size::BUILT`], [`with_size!`](crate::with_size) and the
/// messages are all made from it.
#[doc(hidden)]
#[macro_export]
macro_rules! every_size {
    ($m:ident $(! { $($args:tt)* })?) => {
        $crate::$m! {
            $($($args)*)?
            narrow [
            (4, 4) (4, 5) (4, 6) (4, 7) (4, 8) (4, 9) (4, 10) (4, 11) (4, 12)
            (4, 13) (4, 14) (4, 15) (5, 4) (5, 5) (5, 6) (5, 7) (5, 8) (5, 9)
            (5, 10) (5, 11) (6, 4) (6, 5) (6, 6) (6, 7) (6, 8) (6, 9) (7, 4) (7,
            5) (7, 6) (7, 7) (7, 8) (8, 4) (8, 5) (8, 6) (8, 7) (9, 4) (9, 5)
            (9, 6) (10, 4) (10, 5) (11, 4) (12, 4)
            ]
            wide [
            (5, 12) (5, 13) (6, 10) (6, 11) (6, 12) (7, 9) (7, 10) (8, 8) (9, 7)
            (10, 6) (11, 5)
            ]
        }
    };
}

/// [`Size::ALL`] of the list.
#[doc(hidden)]
#[macro_export]
macro_rules! narrow_sizes {
    (narrow [$(($w:literal, $h:literal))*] wide [$(($ww:literal, $wh:literal))*]) => {
        [$(Size { width: $w, height: $h }),*]
    };
}

/// [`Size::WIDE`] of the list.
#[doc(hidden)]
#[macro_export]
macro_rules! wide_sizes {
    (narrow [$(($w:literal, $h:literal))*] wide [$(($ww:literal, $wh:literal))*]) => {
        [$(Size { width: $ww, height: $wh }),*]
    };
}

/// How many sizes of each kind the list holds.
#[doc(hidden)]
#[macro_export]
macro_rules! size_counts {
    (narrow [$(($w:literal, $h:literal))*] wide [$(($ww:literal, $wh:literal))*]) => {
        ([$($w),*].len(), [$($ww),*].len())
    };
}

const NARROW_COUNT: usize = every_size!(size_counts).0;
const WIDE_COUNT: usize = every_size!(size_counts).1;

impl Size {
    /// The standard board, 7x6.
    pub const STANDARD: Size = Size {
        width: 7,
        height: 6,
    };

    /// The sizes over 64 bits built with the `all-sizes` feature (each a copy of
    /// the program on a 128-bit bitboard): every board of Steininger's results
    /// table that needs more than 64 bits (65 to 78). From the one list of sizes,
    /// `every_size!`.
    pub const WIDE: [Size; WIDE_COUNT] = every_size!(wide_sizes);

    /// Every supported size of at most 64 bits, by width then height: every
    /// `W`x`H` with `W, H >= 4` and `W * (H + 1) <= 64`. From the one list of
    /// sizes, `every_size!`.
    pub const ALL: [Size; NARROW_COUNT] = every_size!(narrow_sizes);

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

    /// `sizes` written as in prose: `"5x12, 5x13 and 6x10"`. The messages, the
    /// help and the documents list the sizes this way.
    pub fn listed(sizes: &[Size]) -> String {
        let names: Vec<String> = sizes.iter().map(Size::to_string).collect();
        match names.split_last() {
            None => String::new(),
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
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
const ALL_AND_WIDE: [Size; NARROW_COUNT + WIDE_COUNT] = {
    let mut all = [Size::STANDARD; NARROW_COUNT + WIDE_COUNT];
    let mut i = 0;
    while i < NARROW_COUNT {
        all[i] = Size::ALL[i];
        i += 1;
    }
    while i < NARROW_COUNT + WIDE_COUNT {
        all[i] = Size::WIDE[i - NARROW_COUNT];
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
/// use c4solver::{sized::Bits, sized::Board, Size, with_size};
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
#[macro_export]
macro_rules! with_size {
    ($size:expr, $($f:ident)::+ ( $($arg:expr),* $(,)? )) => {
        $crate::every_size!(with_size_arms! { ($size) ($($f)::+) ($($arg),*) })
    };
}

/// The arms of [`with_size!`]: one per built size of the list.
#[cfg(feature = "all-sizes")]
#[doc(hidden)]
#[macro_export]
macro_rules! with_size_arms {
    (($size:expr) $f:tt $args:tt
     narrow [$(($w:literal, $h:literal))*] wide [$(($ww:literal, $wh:literal))*]) => {{
        let size: $crate::Size = $size;
        match (size.width, size.height) {
            $(($w, $h) => $crate::call_sized!($f, $w, $h, u64, $args),)*
            $(($ww, $wh) => $crate::call_sized!($f, $ww, $wh, u128, $args),)*
            _ => panic!("board size {size} is not built into this program"),
        }
    }};
}

/// The arms of [`with_size!`]: the standard board alone without `all-sizes`.
#[cfg(not(feature = "all-sizes"))]
#[doc(hidden)]
#[macro_export]
macro_rules! with_size_arms {
    (($size:expr) $f:tt $args:tt narrow [$($n:tt)*] wide [$($w:tt)*]) => {{
        let size: $crate::Size = $size;
        match (size.width, size.height) {
            (7, 6) => $crate::call_sized!($f, 7, 6, u64, $args),
            _ => panic!("board size {size} is not built into this program"),
        }
    }};
}

/// One call of [`with_size!`]: `f::<W, H, B>(args)`.
#[doc(hidden)]
#[macro_export]
macro_rules! call_sized {
    (($($f:ident)::+), $w:literal, $h:literal, $b:ty, ($($arg:expr),*)) => {
        $($f)::+::<$w, $h, $b>($($arg),*)
    };
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
}
