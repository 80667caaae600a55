//! A move's *potential*: how much the fours through its cell still promise, the
//! tuned search's move ordering far from the end (docs/tuned-solver.md#potential).
//!
//! Near the root a wrong first move costs a whole subtree, and there the threat
//! count of the move ordering says little: few moves create a winning cell, so
//! most ties are broken by the column alone. The potential sees the fours that are
//! not blocked yet. Of the fours through the move's cell (any direction, on the
//! board):
//!
//! | four through the cell | counts | why |
//! |---|---|---|
//! | none of the opponent's stones, `k` of the mover's | `2 * (k + 1)^2` | the move builds it |
//! | none of the mover's stones, `k` of the opponent's | `(k + 1)^2` | the move blocks it |
//! | stones of both sides | 0 | nobody can complete it |
//!
//! An empty four counts both ways (3). The square makes one four three stones
//! along worth more than several empty ones. Only the order of the moves
//! changes, never a score.

use crate::bits::Bits;
use crate::position::Board;

/// Most fours through one cell: four directions, four positions in each.
const MAX_LINES: usize = 16;

/// The fours through each cell of a `W`x`H` board (bit index as in
/// [`crate::position`]): `masks[cell][..len[cell]]`.
/// The fours through each cell of a board of up to 128 bits.
#[derive(Debug)]
struct Lines {
    masks: [[u128; MAX_LINES]; 128],
    len: [u8; 128],
}

/// [`Lines`] in 64-bit words, for the boards of up to 64 bits (the cells past bit
/// 63 of a wider board are left out: its search reads the 128-bit ones).
#[derive(Debug)]
struct Lines64 {
    masks: [[u64; MAX_LINES]; 64],
    len: [u8; 64],
}

const fn narrow(lines: &Lines) -> Lines64 {
    let mut out = Lines64 {
        masks: [[0; MAX_LINES]; 64],
        len: [0; 64],
    };
    let mut cell = 0;
    while cell < 64 {
        out.len[cell] = lines.len[cell];
        let mut i = 0;
        while i < MAX_LINES {
            out.masks[cell][i] = lines.masks[cell][i] as u64;
            i += 1;
        }
        cell += 1;
    }
    out
}

const fn lines<const W: usize, const H: usize>() -> Lines {
    let mut out = Lines {
        masks: [[0; MAX_LINES]; 128],
        len: [0; 128],
    };
    // (columns, rows) steps: vertical, horizontal and both diagonals.
    let dirs: [(i32, i32); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];
    let (w, h) = (W as i32, H as i32);
    let mut col = 0;
    while col < w {
        let mut row = 0;
        while row < h {
            let cell = (col * (h + 1) + row) as usize;
            let mut d = 0;
            while d < 4 {
                let (dc, dr) = dirs[d];
                // The four that starts `k` steps back from the cell.
                let mut k = 0;
                while k < 4 {
                    let (c0, r0) = (col - k * dc, row - k * dr);
                    let (c3, r3) = (c0 + 3 * dc, r0 + 3 * dr);
                    let rows_in = r0 >= 0 && r0 < h && r3 >= 0 && r3 < h;
                    if c0 >= 0 && c3 < w && rows_in {
                        let mut mask = 0u128;
                        let mut i = 0;
                        while i < 4 {
                            mask |= 1 << ((c0 + i * dc) * (h + 1) + r0 + i * dr);
                            i += 1;
                        }
                        out.masks[cell][out.len[cell] as usize] = mask;
                        out.len[cell] += 1;
                    }
                    k += 1;
                }
                d += 1;
            }
            row += 1;
        }
        col += 1;
    }
    out
}

/// The potential of the moves of a `W`x`H` board; see the module documentation.
pub(crate) struct Potential<const W: usize, const H: usize>;

impl<const W: usize, const H: usize> Potential<W, H> {
    const LINES: Lines = lines::<W, H>();
    const LINES64: Lines64 = narrow(&Self::LINES);

    /// The potential of the move `mv` (one bit) for the player whose stones are
    /// `own`, the opponent's being `theirs`.
    #[inline]
    pub(crate) fn of<B: Bits>(mv: B, own: B, theirs: B) -> u32 {
        debug_assert!(mv.count_ones() == 1 && mv & Board::<W, H, B>::board() == mv);
        debug_assert!(mv & (own | theirs) == B::ZERO);
        let cell = mv.trailing_zeros() as usize;
        if B::BITS <= 64 {
            let len = Self::LINES64.len[cell] as usize;
            let masks = &Self::LINES64.masks[cell][..len];
            sum(masks, own.low_u64(), theirs.low_u64())
        } else {
            let len = Self::LINES.len[cell] as usize;
            sum(
                &Self::LINES.masks[cell][..len],
                own.to_u128(),
                theirs.to_u128(),
            )
        }
    }
}

/// The table of the module documentation, summed over the fours `lines`.
#[inline(always)]
fn sum<T: Bits>(lines: &[T], own: T, theirs: T) -> u32 {
    let mut total = 0;
    for &line in lines {
        if line & theirs == T::ZERO {
            let k = (line & own).count_ones() + 1;
            total += 2 * k * k;
        }
        if line & own == T::ZERO {
            let k = (line & theirs).count_ones() + 1;
            total += k * k;
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    /// The fours of a 7x6 board, counted per direction: 21 vertical, 24
    /// horizontal, 12 and 12 diagonal (69 in all); each holds four cells.
    #[test]
    fn every_four_is_listed_once_per_cell() {
        let lines = lines::<7, 6>();
        let listed: u32 = lines.len.iter().map(|&l| u32::from(l)).sum();
        assert_eq!(listed, 69 * 4);
        // The bottom-left corner lies on 3 fours, a central cell of row 3 on 13.
        assert_eq!(lines.len[0], 3);
        assert_eq!(lines.len[3 * 7 + 2], 13);
        for cell in 0..64 {
            for &m in &lines.masks[cell][..lines.len[cell] as usize] {
                assert_eq!(m.count_ones(), 4);
                assert_eq!(m & !u128::from(Board::<7, 6>::BOARD_MASK), 0);
                assert_ne!(m & (1 << cell), 0);
            }
        }
    }

    #[test]
    fn the_potential_counts_open_fours_squared() {
        // The empty board: the bottom-left corner's three fours are all empty
        // (each counts 2 + 1), the bottom of the center column has seven.
        let empty = Position::parse("").unwrap();
        let (own, theirs) = (empty.current(), empty.current() ^ empty.mask());
        assert_eq!(Potential::<7, 6>::of(1, own, theirs), 3 * 3);
        assert_eq!(Potential::<7, 6>::of(1 << 21, own, theirs), 7 * 3);
        // After "44" the first player is to move (stone at bit 21, the opponent's at
        // bit 22). Bit 23, on top of them, lies on 13 fours: vertically rows 0-3
        // (both sides' stones: 0), rows 1-4 (the opponent's stone only, blocked:
        // (1 + 1)^2 = 4) and rows 2-5 (empty: 3); 4 horizontal and 6 diagonal fours,
        // all empty (3 each).
        let pos = Position::parse("44").unwrap();
        let (own, theirs) = (pos.current(), pos.current() ^ pos.mask());
        assert_eq!(Potential::<7, 6>::of(1 << 23, own, theirs), 4 + 3 + 10 * 3);
        // Bit 28, the bottom of column 5: its vertical four is empty (3), the three
        // horizontal fours of row 0 it lies on (columns 2-5, 3-6, 4-7) hold the
        // mover's stone at bit 21 and none of the opponent's (2 * (1 + 1)^2 = 8
        // each), and its one diagonal four (columns 2-5, rows 4 down to 1) holds the
        // opponent's stone at bit 22 only (4).
        assert_eq!(Potential::<7, 6>::of(1 << 28, own, theirs), 3 + 3 * 8 + 4);
    }
}
