//! A Connect Four position as two bitboards.
//!
//! # Bit layout
//!
//! Each column takes `HEIGHT + 1` bits: `HEIGHT` cells from bottom to top and one
//! sentinel bit above them that is never set by a stone. For the default 7x6 board
//! the bit indexes are:
//!
//! ```text
//!   .  .  .  .  .  .  .     <- sentinel row (always 0 in `current` and `mask`)
//!   5 12 19 26 33 40 47
//!   4 11 18 25 32 39 46
//!   3 10 17 24 31 38 45
//!   2  9 16 23 30 37 44
//!   1  8 15 22 29 36 43
//!   0  7 14 21 28 35 42     <- bottom row
//!  col 1  2  3  4  5  6  7  (1-based, as in the move notation)
//! ```
//!
//! Two words describe the position:
//!
//! * `mask`: a 1 for every occupied cell;
//! * `current`: a 1 for every stone of the player to move.
//!
//! Worked example, after the moves `4453` (`x` = first player, to move again
//! after 4 stones; `o` = second player); only the three lowest rows are drawn:
//!
//! ```text
//! board        current      mask         key = current + mask
//! .......      .......      .......      ...1...
//! ...o...      .......      ...1...      ....1..
//! ..oxx..      ...11..      ..111..      ..1....
//! col 3: mask 01  + current 00  = 001
//! col 4: mask 11  + current 01  = 100
//! col 5: mask 01  + current 01  = 010
//! ```
//!
//! # Why the key is unique
//!
//! Take one column with `h` stones: its `mask` bits are `2^h - 1` (a run of ones
//! from the bottom) and its `current` bits a subset of them, so `mask + current`
//! lies in `[2^h - 1, 2^(h+1) - 2]`. These ranges do not overlap for different
//! heights, so the column's value tells its height, and then `current` (the value
//! minus the mask). The largest value, `2^(HEIGHT+1) - 2`, fits in the column's
//! `HEIGHT + 1` bits, so no carry crosses into the next column: the key identifies
//! the position and stays below `2^(WIDTH * (HEIGHT + 1))`, at most `2^64` in a
//! `u64` word and `2^128` in a `u128`.
//!
//! # Other board sizes
//!
//! `Board<W, H, B>` is any board whose `W * (H + 1)` bits fit in its word `B`
//! ([`Bits`]: `u64`, the default, or `u128` for boards of 65 to 128 bits such as
//! 8x8, 9x7 and 10x6; see [`Board::GEOMETRY_OK`]). The layout, the key and every
//! method are the same in both words; a 64-bit board in a `u128` plays the same
//! games with the same keys. Columns are written `1`..`9`, and on boards wider than
//! nine columns `a`, `b`, `c`, ... for the 10th, 11th, 12th, ... (as in
//! hexadecimal; upper case too): `"5ab"` on 12x4. On boards of at most nine
//! columns a letter is a bad character, as it always was.

use std::fmt;

use crate::bits::{self, Bits};

mod playable;
mod replay;
pub use playable::Playable;
pub use replay::StonesError;

/// The standard board: 7 columns, 6 rows (the tests').
#[cfg(test)]
pub(crate) type Position = Board<7, 6>;

/// A position on a `W`-column, `H`-row board, held in two words of type `B`
/// (`u64` unless named; `u128` for a board of more than 64 bits).
///
/// `W * (H + 1)` must not exceed the word's bits so that the key fits in one
/// word; this is checked at compile time when a board type is first used (see
/// [`Board::GEOMETRY_OK`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Board<const W: usize, const H: usize, B = u64> {
    current: B,
    mask: B,
    moves: u32,
}

/// Why a move string could not be played.
///
/// Every variant carries the 1-based index of the offending move in the string.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// A character that is not a column symbol (a decimal digit, or on boards wider
    /// than nine columns a letter).
    #[error("bad character {ch:?} at move {index}")]
    BadCharacter {
        /// 1-based index of the move.
        index: usize,
        /// The offending character.
        ch: char,
    },
    /// A symbol that does not name a column of the board.
    #[error("column {column} is out of range (1..={width}) at move {index}")]
    ColumnOutOfRange {
        /// 1-based index of the move.
        index: usize,
        /// The column as written (1-based).
        column: u32,
        /// The board width.
        width: usize,
    },
    /// The column has no free cell left.
    #[error("column {column} is already full at move {index}")]
    ColumnFull {
        /// 1-based index of the move.
        index: usize,
        /// The column as written (1-based).
        column: usize,
    },
    /// The game was already won before this move.
    #[error("move {index} is played after the game was won at move {won_at}")]
    MoveAfterWin {
        /// 1-based index of the move.
        index: usize,
        /// 1-based index of the winning move.
        won_at: usize,
    },
    /// The last move makes four in a row: the game is over and cannot be solved.
    #[error("move {index} makes four in a row: the game is already over")]
    GameOver {
        /// 1-based index of the winning move.
        index: usize,
    },
}

/// The symbol of column `col` (0-based) in the move notation, on any board:
/// `'1'`..`'9'`, then `'a'`, `'b'`, ... for the 10th, 11th, ... column (see
/// [`Board::column_symbol`]).
///
/// Precondition: `col < 35` (`debug_assert!`ed).
#[inline]
pub(crate) const fn column_symbol(col: usize) -> char {
    debug_assert!(col < 35);
    if col < 9 {
        (b'1' + col as u8) as char
    } else {
        (b'a' + (col - 9) as u8) as char
    }
}

impl<const W: usize, const H: usize, B: Bits> Board<W, H, B> {
    /// Number of columns.
    pub const WIDTH: usize = W;
    /// Number of rows.
    pub const HEIGHT: usize = H;
    /// Number of cells.
    pub const CELLS: usize = W * H;
    /// Lowest possible score: the opponent wins with their fourth stone.
    pub const MIN_SCORE: i32 = -((W * H) as i32) / 2 + 3;
    /// Highest possible score: the player to move wins with their fourth stone.
    pub const MAX_SCORE: i32 = ((W * H) as i32 + 1) / 2 - 3;
    /// Compile-time check of the geometry: the key (`W * (H + 1)` bits) must fit in
    /// the word `B` (64 or 128 bits), every shift of the win detection must stay
    /// inside it (the longest is three diagonal steps of `H + 2` bits in
    /// [`Board::compute_winning_position`]), and every column must have a symbol in
    /// the move notation (`1`..`9`, then `a`..`z`: at most 35 columns).
    ///
    /// A board that breaks it does not compile:
    ///
    /// ```compile_fail
    /// // 2 * 28 = 56 bits of key, but 3 * 29 = 87 bits of diagonal shift.
    /// let _ = c4solver::sized::Board::<2, 27>::new();
    /// ```
    ///
    /// ```compile_fail
    /// // 9 * 8 = 72 bits of key, in the default 64-bit word.
    /// let _ = c4solver::sized::Board::<9, 7>::new();
    /// ```
    ///
    /// ```compile_fail
    /// // 11 * 12 = 132 bits of key: more than the 128-bit word holds.
    /// let _ = c4solver::sized::Board::<11, 11, u128>::new();
    /// ```
    ///
    /// In a 128-bit word, 9x7 is a board:
    ///
    /// ```
    /// let p = c4solver::sized::Board::<9, 7, u128>::parse("5")?;
    /// assert_eq!(p.key(), 1 << 32);
    /// # Ok::<(), c4solver::MoveError>(())
    /// ```
    pub const GEOMETRY_OK: () = assert!(
        W * (H + 1) <= B::BITS && W >= 1 && H >= 1 && W <= 35 && 3 * (H + 2) < B::BITS,
        "board must satisfy W * (H + 1) <= bits of the word, 1 <= W, 1 <= H and 3 * (H + 2) < bits of the word"
    );
    /// One bit at the bottom of every column, in 128 bits (see [`Board::bottom`]).
    pub const BOTTOM_MASK_128: u128 = bits::bottom_mask(W, H);
    /// Every playable cell (sentinel bits excluded), in 128 bits (see
    /// [`Board::board`]).
    pub const BOARD_MASK_128: u128 = bits::board_mask(W, H);

    /// One bit at the bottom of every column.
    #[inline(always)]
    pub fn bottom() -> B {
        B::from_u128(Self::BOTTOM_MASK_128)
    }

    /// Every playable cell (sentinel bits excluded).
    #[inline(always)]
    pub fn board() -> B {
        B::from_u128(Self::BOARD_MASK_128)
    }

    /// The empty board.
    #[inline]
    pub const fn new() -> Self {
        let () = Self::GEOMETRY_OK;
        Board {
            current: B::ZERO,
            mask: B::ZERO,
            moves: 0,
        }
    }

    /// The board of these words, which the caller took from a board of this size.
    pub(crate) const fn from_parts(current: B, mask: B, moves: u32) -> Self {
        Board {
            current,
            mask,
            moves,
        }
    }

    /// Parses a move string ("4453": 1-based columns) from the empty board.
    ///
    /// Fails on the first move that is not a column symbol, names a column outside
    /// the board, goes into a full column, is played after a win, or makes four in a
    /// row as the last move (such a position is over and has no score).
    pub fn parse(moves: &str) -> Result<Self, MoveError> {
        let mut pos = Self::new();
        pos.play_str(moves)?;
        Ok(pos)
    }

    /// Plays a move string on top of this position; see [`Board::parse`].
    ///
    /// On error the position is left as it was before the call.
    pub fn play_str(&mut self, moves: &str) -> Result<(), MoveError> {
        let mut next = *self;
        let mut won_at: Option<usize> = None;
        for (i, ch) in moves.chars().enumerate() {
            let index = i + 1;
            let digit = Self::column_of_symbol(ch).ok_or(MoveError::BadCharacter { index, ch })?;
            if digit == 0 || digit as usize > W {
                return Err(MoveError::ColumnOutOfRange {
                    index,
                    column: digit,
                    width: W,
                });
            }
            let col = digit as usize - 1;
            if let Some(won_at) = won_at {
                return Err(MoveError::MoveAfterWin { index, won_at });
            }
            if !next.can_play(col) {
                return Err(MoveError::ColumnFull {
                    index,
                    column: digit as usize,
                });
            }
            if next.is_winning_move(col) {
                won_at = Some(index);
            }
            next.play_col(col);
        }
        match won_at {
            Some(index) => Err(MoveError::GameOver { index }),
            None => {
                *self = next;
                Ok(())
            }
        }
    }

    /// The 1-based column a move symbol names: `1`..`9` for `'1'`..`'9'` (and 0 for
    /// `'0'`), and on boards wider than nine columns 10, 11, ... for `'a'`, `'b'`,
    /// ... (either case); `None` for any other character. The column may still be
    /// outside the board.
    #[inline]
    pub const fn column_of_symbol(ch: char) -> Option<u32> {
        match ch {
            '0'..='9' => Some(ch as u32 - '0' as u32),
            'a'..='z' if W > 9 => Some(ch as u32 - 'a' as u32 + 10),
            'A'..='Z' if W > 9 => Some(ch as u32 - 'A' as u32 + 10),
            _ => None,
        }
    }

    /// The symbol of column `col` (0-based) in the move notation: `'1'`..`'9'`,
    /// then `'a'`, `'b'`, ... for the 10th, 11th, ... column.
    ///
    /// Precondition: `col < W` (`debug_assert!`ed).
    #[inline]
    pub const fn column_symbol(col: usize) -> char {
        debug_assert!(col < W);
        column_symbol(col)
    }

    /// Bitmask of the top cell of column `col`.
    #[inline]
    pub fn top_mask_col(col: usize) -> B {
        B::ONE << (H - 1 + col * (H + 1))
    }

    /// Bitmask of the bottom cell of column `col`.
    #[inline]
    pub fn bottom_mask_col(col: usize) -> B {
        B::ONE << (col * (H + 1))
    }

    /// Bitmask of every cell of column `col`.
    #[inline]
    pub fn column_mask(col: usize) -> B {
        B::from_u128((1u128 << H) - 1) << (col * (H + 1))
    }

    /// Whether column `col` (0-based) has a free cell.
    ///
    /// # Panics
    /// In debug builds, if `col >= W`.
    #[inline]
    pub fn can_play(&self, col: usize) -> bool {
        debug_assert!(col < W);
        self.mask & Self::top_mask_col(col) == B::ZERO
    }

    /// Plays column `col` (0-based) for the player to move.
    ///
    /// Precondition: `can_play(col)`, checked by `debug_assert!`. The move is not
    /// checked for ending the game.
    #[inline]
    pub fn play_col(&mut self, col: usize) {
        debug_assert!(self.can_play(col));
        self.play_move_unchecked((self.mask + Self::bottom_mask_col(col)) & Self::column_mask(col));
    }

    /// Plays the move given as a one-bit mask of the cell to fill.
    ///
    /// Precondition: `mv` is exactly one free cell directly above a column's stones
    /// (as given by [`Board::possible`]); only `debug_assert!`ed.
    #[inline]
    pub fn play_move_unchecked(&mut self, mv: B) {
        debug_assert!(mv.count_ones() == 1 && mv & self.possible() == mv);
        self.current ^= self.mask;
        self.mask |= mv;
        self.moves += 1;
    }

    /// Whether playing column `col` makes four in a row for the player to move.
    ///
    /// Precondition: `can_play(col)`.
    #[inline]
    pub fn is_winning_move(&self, col: usize) -> bool {
        debug_assert!(self.can_play(col));
        let pos =
            self.current | ((self.mask + Self::bottom_mask_col(col)) & Self::column_mask(col));
        Self::alignment(pos)
    }

    /// Whether the player to move can win with their next stone.
    #[inline]
    pub fn can_win_next(&self) -> bool {
        self.winning_position() & self.possible() != B::ZERO
    }

    /// Bitmask of the playable cells (one per non-full column).
    #[inline]
    pub fn possible(&self) -> B {
        (self.mask + Self::bottom()) & Self::board()
    }

    /// Cells (free or not) that would complete four in a row for the player to move.
    #[inline]
    pub fn winning_position(&self) -> B {
        Self::compute_winning_position(self.current, self.mask)
    }

    /// Cells that would complete four in a row for the opponent.
    #[inline]
    pub fn opponent_winning_position(&self) -> B {
        Self::compute_winning_position(self.current ^ self.mask, self.mask)
    }

    /// Free cells that complete four in a row for the owner of `stones`.
    #[inline]
    pub fn compute_winning_position(stones: B, mask: B) -> B {
        let h = H;
        // vertical: three stones under the cell
        let mut r = (stones << 1) & (stones << 2) & (stones << 3);

        // horizontal (shift h+1), and the two diagonals (shift h and h+2)
        let mut k = 0;
        let shifts = [h + 1, h, h + 2];
        while k < 3 {
            let s = shifts[k];
            let mut p = (stones << s) & (stones << (2 * s));
            r |= p & (stones << (3 * s));
            r |= p & (stones >> s);
            p = (stones >> s) & (stones >> (2 * s));
            r |= p & (stones << s);
            r |= p & (stones >> (3 * s));
            k += 1;
        }
        r & (Self::board() ^ mask)
    }

    /// Whether the stones in `pos` contain four in a row.
    #[inline]
    pub fn alignment(pos: B) -> bool {
        let h = H;
        // horizontal
        let m = pos & (pos >> (h + 1));
        if m & (m >> (2 * (h + 1))) != B::ZERO {
            return true;
        }
        // diagonal 1 (up-left to down-right)
        let m = pos & (pos >> h);
        if m & (m >> (2 * h)) != B::ZERO {
            return true;
        }
        // diagonal 2 (down-left to up-right)
        let m = pos & (pos >> (h + 2));
        if m & (m >> (2 * (h + 2))) != B::ZERO {
            return true;
        }
        // vertical
        let m = pos & (pos >> 1);
        m & (m >> 2) != B::ZERO
    }

    /// Whether either side holds four in a row: the game is over (positions built
    /// with [`Board::play_col`] may be; [`Board::parse`] never returns one).
    #[inline]
    pub fn has_four(&self) -> bool {
        Self::alignment(self.current) || Self::alignment(self.current ^ self.mask)
    }

    /// Number of stones on the board.
    #[inline]
    pub const fn moves_played(&self) -> usize {
        self.moves as usize
    }

    /// The unique key `current + mask` (below `2^(W * (H + 1))`).
    #[inline]
    pub fn key(&self) -> B {
        self.current + self.mask
    }

    /// Stones of the player to move.
    #[inline]
    pub const fn current(&self) -> B {
        self.current
    }

    /// Occupied cells.
    #[inline]
    pub const fn mask(&self) -> B {
        self.mask
    }

    /// Whether the board is full.
    #[inline]
    pub const fn is_full(&self) -> bool {
        self.moves as usize == W * H
    }

    /// The position mirrored left to right.
    pub fn mirror(&self) -> Self {
        let mut current = B::ZERO;
        let mut mask = B::ZERO;
        let cm = B::from_u128((1u128 << (H + 1)) - 1);
        for col in 0..W {
            let from = col * (H + 1);
            let to = (W - 1 - col) * (H + 1);
            current |= ((self.current >> from) & cm) << to;
            mask |= ((self.mask >> from) & cm) << to;
        }
        Board {
            current,
            mask,
            moves: self.moves,
        }
    }

    /// The smaller of the keys of the position and of its mirror image: one key
    /// for both (the opening book stores positions under it).
    pub fn canonical_key(&self) -> B {
        self.key().min(self.mirror().key())
    }

    /// The position whose [`Board::key`] is `key`, if `key` is one: every column's
    /// field must encode a height and stones (see "Why the key is unique"), no bit
    /// may lie above the last column, and the player to move must have as many
    /// stones as the opponent (first player to move) or one fewer.
    ///
    /// The position may hold four in a row or be unreachable in a game (a stone
    /// of the second player under one of the first in a two-stone column).
    pub fn from_key(key: B) -> Option<Self> {
        let field = B::from_u128((1u128 << (H + 1)) - 1);
        if W * (H + 1) < B::BITS && key >> (W * (H + 1)) != B::ZERO {
            return None;
        }
        let (mut current, mut mask) = (B::ZERO, B::ZERO);
        for col in 0..W {
            let shift = col * (H + 1);
            let v = (key >> shift) & field;
            // v = (2^h - 1) + stones, with 0 <= stones <= 2^h - 1
            let h = B::BITS - 1 - (v + B::ONE).leading_zeros() as usize;
            if h > H {
                return None;
            }
            let m = (B::ONE << h) - B::ONE;
            current |= (v - m) << shift;
            mask |= m << shift;
        }
        let moves = mask.count_ones();
        if current.count_ones() != moves / 2 {
            return None;
        }
        Some(Board {
            current,
            mask,
            moves,
        })
    }

    /// The lowest and highest score this position can have: the opponent wins with
    /// their next stone at the earliest, the player to move with theirs, and nobody
    /// wins before their fourth stone.
    #[inline]
    pub const fn score_range(&self) -> (i32, i32) {
        let cells = (W * H) as i32;
        let n = self.moves as i32;
        let lo = -(cells - n) / 2;
        let hi = (cells + 1 - n) / 2;
        (
            if lo < Self::MIN_SCORE {
                Self::MIN_SCORE
            } else {
                lo
            },
            if hi > Self::MAX_SCORE {
                Self::MAX_SCORE
            } else {
                hi
            },
        )
    }

    /// The score of a win for the player to move with their next stone.
    #[inline]
    pub const fn win_next_score(&self) -> i32 {
        (W * H + 1 - self.moves as usize) as i32 / 2
    }

    /// Who owns the cell at `col`, `row` (0-based, row 0 at the bottom):
    /// `Some(true)` for the player to move, `Some(false)` for the opponent.
    pub fn cell(&self, col: usize, row: usize) -> Option<bool> {
        let bit = B::ONE << (col * (H + 1) + row);
        if self.mask & bit == B::ZERO {
            None
        } else {
            Some(self.current & bit != B::ZERO)
        }
    }
}

/// The masks as constants of the board's own word, for code written for one word.
macro_rules! word_masks {
    ($t:ty) => {
        impl<const W: usize, const H: usize> Board<W, H, $t> {
            /// One bit at the bottom of every column.
            pub const BOTTOM_MASK: $t = bits::bottom_mask(W, H) as $t;
            /// Every playable cell (sentinel bits excluded).
            pub const BOARD_MASK: $t = bits::board_mask(W, H) as $t;
        }
    };
}
word_masks!(u64);
word_masks!(u128);

impl<const W: usize, const H: usize, B: Bits> Default for Board<W, H, B> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const W: usize, const H: usize, B: Bits> std::str::FromStr for Board<W, H, B> {
    type Err = MoveError;
    fn from_str(s: &str) -> Result<Self, MoveError> {
        Self::parse(s)
    }
}

/// A grid with `x` for the first player, `o` for the second and `.` for empty
/// cells, top row first, followed by the column numbers.
impl<const W: usize, const H: usize, B: Bits> fmt::Display for Board<W, H, B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The player to move is the first player when an even number of stones is down.
        let to_move_is_first = self.moves.is_multiple_of(2);
        for row in (0..H).rev() {
            for col in 0..W {
                let c = match self.cell(col, row) {
                    None => '.',
                    Some(mine) => {
                        if mine == to_move_is_first {
                            'x'
                        } else {
                            'o'
                        }
                    }
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        for col in 0..W {
            write!(f, "{}", Self::column_symbol(col))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn pos(s: &str) -> Position {
        Position::parse(s).unwrap()
    }

    #[test]
    fn layout_constants() {
        assert_eq!(Position::BOTTOM_MASK.count_ones(), 7);
        assert_eq!(Position::BOARD_MASK.count_ones(), 42);
        assert_eq!(Position::MIN_SCORE, -18);
        assert_eq!(Position::MAX_SCORE, 18);
        assert_eq!(Position::column_mask(0), 0b111111);
        assert_eq!(Position::top_mask_col(6), 1 << 47);
    }

    #[test]
    fn parse_errors_each_kind() {
        assert_eq!(
            Position::parse("44a"),
            Err(MoveError::BadCharacter { index: 3, ch: 'a' })
        );
        assert_eq!(
            Position::parse("4480"),
            Err(MoveError::ColumnOutOfRange {
                index: 3,
                column: 8,
                width: 7
            })
        );
        assert_eq!(
            Position::parse("0").unwrap_err(),
            MoveError::ColumnOutOfRange {
                index: 1,
                column: 0,
                width: 7
            }
        );
        assert_eq!(
            Position::parse("1111111"),
            Err(MoveError::ColumnFull {
                index: 7,
                column: 1
            })
        );
        // 1212121: the first player completes a vertical four at move 7.
        assert_eq!(
            Position::parse("1212121"),
            Err(MoveError::GameOver { index: 7 })
        );
        assert_eq!(
            Position::parse("12121213"),
            Err(MoveError::MoveAfterWin {
                index: 8,
                won_at: 7
            })
        );
        let msg = Position::parse("4480").unwrap_err().to_string();
        assert_eq!(msg, "column 8 is out of range (1..=7) at move 3");
    }

    #[test]
    fn a_failed_play_str_leaves_the_board_as_it_was() {
        let mut p = pos("44");
        // "121212" then "1": the 7th move of the string wins, and the game is over.
        assert_eq!(p.play_str("1212121"), Err(MoveError::GameOver { index: 7 }));
        assert_eq!(p, pos("44"));
        assert!(!p.has_four());
        assert_eq!(
            p.play_str("3338"),
            Err(MoveError::ColumnOutOfRange {
                index: 4,
                column: 8,
                width: 7
            })
        );
        assert_eq!(p, pos("44"));
        p.play_str("33").unwrap();
        assert_eq!(p, pos("4433"));
    }

    #[test]
    fn score_ranges() {
        assert_eq!(Position::new().score_range(), (-18, 18));
        assert_eq!(pos("4455").score_range(), (-18, 18));
        // 11 stones: the opponent (6 stones) wins with their 7th at the earliest, the
        // player to move (5 stones) with their 6th.
        assert_eq!(pos("44455554221").score_range(), (-15, 16));
        // 37 stones: the player to move (18 stones) wins with their 19th at best.
        let p = pos("2252576253462244111563365343671351441");
        assert_eq!(p.score_range(), (-2, 3));
    }

    #[test]
    fn has_four_sees_either_side() {
        let mut p = pos("121212");
        assert!(!p.has_four());
        p.play_col(0); // the first player's vertical four
        assert!(p.has_four());
        let mut q = pos("1212123");
        q.play_col(1); // the second player's vertical four
        assert!(q.has_four());
    }

    #[test]
    fn wins_in_all_directions_and_edges() {
        // vertical at the left edge
        assert!(pos("121212").is_winning_move(0));
        // vertical at the top of the right edge (rows 2..5 of column 7)
        let p = pos("77717171");
        assert!(p.is_winning_move(6), "{p}");
        assert!(!p.is_winning_move(1), "{p}");
        // diagonal /: x at (1,1),(2,2),(3,3) (1-based col,row), completes (4,4)
        let diag = pos("1223343446");
        assert!(diag.is_winning_move(3), "{diag}");
        // diagonal \ : mirror of the above
        let anti = pos("7665545442");
        assert!(anti.is_winning_move(3), "{anti}");
    }

    #[test]
    fn no_wrap_around_wins() {
        // Vertical: three x stones at the top of column 1 and one at the bottom of
        // column 2 are adjacent bits only through the sentinel, which is never set.
        // x: 1,1,1 on rows 3..5 of column 1, then column 2 bottom.
        let p = pos("1111112");
        // Player to move is o; the x stones in column 1 are rows 0,2,4; no win.
        assert!(!Position::alignment(p.current() ^ p.mask()));
        // Horizontal wrap: stones at columns 5,6,7 and column 1 of the next row are
        // far apart in bit index, so nothing to check beyond alignment on them.
        let stones = Position::bottom_mask_col(4)
            | Position::bottom_mask_col(5)
            | Position::bottom_mask_col(6)
            | (Position::bottom_mask_col(0) << 1);
        assert!(!Position::alignment(stones));
    }

    #[test]
    fn worked_example_of_the_key() {
        let p = pos("4453");
        assert_eq!(p.current(), (1 << 21) | (1 << 28));
        assert_eq!(p.mask(), (1 << 14) | (1 << 21) | (1 << 22) | (1 << 28));
        assert_eq!(p.key(), (1 << 14) | (1 << 23) | (1 << 29));
        assert_eq!(Position::new().key(), 0, "the empty board's key is 0");
    }

    #[test]
    fn keys_decode_into_their_positions() {
        for moves in ["", "4", "4453", "1111117", "7777776", "44455554221"] {
            let p = pos(moves);
            assert_eq!(Position::from_key(p.key()), Some(p), "{moves}");
            assert_eq!(p.canonical_key(), p.mirror().canonical_key(), "{moves}");
            assert!(p.canonical_key() <= p.key());
        }
        // a column field of all ones (height 7 on a 6-row board)
        assert_eq!(Position::from_key(0b111_1111), None);
        // a bit above the last column
        assert_eq!(Position::from_key(1 << 49), None);
        // two stones, both the side to move's (col 1: current 11, mask 11)
        assert_eq!(Position::from_key(0b110), None);
        // one stone of the player to move and none of the opponent's
        assert_eq!(Position::from_key(0b10), None);
    }

    #[test]
    fn mirror_and_display() {
        let p = pos("4453");
        assert_eq!(p.mirror(), pos("4435"));
        assert_eq!(p.mirror().mirror(), p);
        let s = p.to_string();
        assert_eq!(
            s,
            ".......\n.......\n.......\n.......\n...o...\n..ox+..\n1234567".replace('+', "x")
        );
    }

    #[test]
    fn key_is_unique_on_a_sample() {
        // Enumerate every position reachable in up to 8 moves (with no win) and
        // check that equal keys mean equal (current, mask).
        let mut seen: HashMap<u64, (u64, u64)> = HashMap::new();
        let mut frontier = vec![Position::new()];
        for _ in 0..8 {
            let mut next = Vec::new();
            for p in &frontier {
                for col in 0..7 {
                    if p.can_play(col) && !p.is_winning_move(col) {
                        let mut q = *p;
                        q.play_col(col);
                        let prev = seen.insert(q.key(), (q.current(), q.mask()));
                        if let Some(prev) = prev {
                            assert_eq!(prev, (q.current(), q.mask()));
                        } else {
                            next.push(q);
                        }
                    }
                }
            }
            frontier = next;
        }
        assert!(seen.len() > 250_000, "{}", seen.len());
        assert!(seen.keys().all(|&k| k < 1 << 49));
    }

    /// The 8x8 board: 72 bits, the last column from bit 63 to bit 71.
    type Board8x8 = Board<8, 8, u128>;
    /// The 10x6 board: 70 bits, the last column from bit 63 to bit 69.
    type Board10x6 = Board<10, 6, u128>;

    /// The bit of cell (`col`, `row`), 0-based, on a board of height `h`.
    fn cell(h: usize, col: usize, row: usize) -> u128 {
        1 << (col * (h + 1) + row)
    }

    /// Each four is seen by `alignment`, no three of it is, and the fourth cell
    /// is the one `compute_winning_position` names for the other three.
    fn check_fours<const W: usize, const H: usize>(fours: &[[(usize, usize); 4]]) {
        for four in fours {
            let bits: Vec<u128> = four.iter().map(|&(c, r)| cell(H, c, r)).collect();
            let all = bits.iter().fold(0, |a, b| a | b);
            assert!(
                all >> 64 != 0 && all & u128::from(u64::MAX) != 0,
                "{four:?} crosses bit 64"
            );
            assert!(Board::<W, H, u128>::alignment(all), "{four:?}");
            let vertical = four.iter().all(|&(c, _)| c == four[0].0);
            for &missing in &bits {
                let three = all & !missing;
                assert!(!Board::<W, H, u128>::alignment(three), "{four:?}");
                if vertical && missing != bits[3] {
                    continue; // a vertical four is completed on top only
                }
                let wins = Board::<W, H, u128>::compute_winning_position(three, three);
                assert_eq!(wins & missing, missing, "{four:?}");
            }
        }
    }

    #[test]
    fn wins_in_every_direction_across_bit_64() {
        check_fours::<8, 8>(&[
            [(7, 0), (7, 1), (7, 2), (7, 3)], // vertical: bits 63..66
            [(4, 1), (5, 1), (6, 1), (7, 1)], // horizontal: 37, 46, 55, 64
            [(4, 0), (5, 1), (6, 2), (7, 3)], // diagonal /: 36, 46, 56, 66
            [(4, 4), (5, 3), (6, 2), (7, 1)], // diagonal \: 40, 48, 56, 64
        ]);
        check_fours::<10, 6>(&[
            [(9, 0), (9, 1), (9, 2), (9, 3)], // vertical: bits 63..66
            [(6, 1), (7, 1), (8, 1), (9, 1)], // horizontal: 43, 50, 57, 64
            [(6, 0), (7, 1), (8, 2), (9, 3)], // diagonal /: 42, 50, 58, 66
            [(6, 4), (7, 3), (8, 2), (9, 1)], // diagonal \: 46, 52, 58, 64
        ]);
    }

    #[test]
    fn played_wins_across_bit_64() {
        // vertical in the 8th column (bits 63, 64, 65, then 66)
        let p = Board8x8::parse("818181").unwrap();
        assert!(p.is_winning_move(7), "{p}");
        assert_eq!(
            Board8x8::parse("8181818"),
            Err(MoveError::GameOver { index: 7 })
        );
        // horizontal on the second row of columns 5..8 (bits 37, 46, 55, then 64),
        // over a first row of alternate stones
        let p = Board8x8::parse("6587516171").unwrap();
        assert!(p.is_winning_move(7), "{p}");
        assert!(p.can_win_next());
        assert_eq!(
            Board8x8::parse("65875161718"),
            Err(MoveError::GameOver { index: 11 })
        );
        // the same on 10x6, the 10th column written `a`
        let p = Board10x6::parse("87a9718191").unwrap();
        assert!(p.is_winning_move(9), "{p}");
        assert_eq!(
            Board10x6::parse("87a9718191A"),
            Err(MoveError::GameOver { index: 11 })
        );
        // no four through the sentinel (bit 62) of the 7th column into the 8th
        let stones = cell(8, 6, 5) | cell(8, 6, 6) | cell(8, 6, 7) | cell(8, 7, 0);
        assert!(!Board8x8::alignment(stones));
    }

    #[test]
    fn wide_boards_parse_and_refuse() {
        let p = Board10x6::parse("1a5").unwrap();
        assert_eq!(p.to_string().lines().last(), Some("123456789a"));
        assert_eq!(
            p.cell(9, 0),
            Some(true),
            "the second player's stone, to move"
        );
        assert_eq!(p.cell(4, 0), Some(false));
        assert_eq!(
            Board10x6::parse("1b"),
            Err(MoveError::ColumnOutOfRange {
                index: 2,
                column: 11,
                width: 10
            })
        );
        assert!(
            !Board8x8::parse("88888888").unwrap().can_play(7),
            "eight stones fill a column"
        );
        assert_eq!(
            Board8x8::parse("888888888"),
            Err(MoveError::ColumnFull {
                index: 9,
                column: 8
            })
        );
        assert_eq!(Board8x8::bottom().count_ones(), 8);
        assert_eq!(Board8x8::BOARD_MASK.count_ones(), 64);
        assert_eq!(128 - Board8x8::BOARD_MASK.leading_zeros(), 71);
        assert_eq!(Board8x8::column_mask(7), 0xff << 63);
    }

    #[test]
    fn wide_keys_are_unique_and_decode() {
        // Every position of up to 7 stones on 8x8: equal keys mean equal boards,
        // each key decodes into its board, and the mirror's canonical key is its own.
        let mut seen: HashMap<u128, (u128, u128)> = HashMap::new();
        let mut frontier = vec![Board8x8::new()];
        for _ in 0..7 {
            let mut next = Vec::new();
            for p in &frontier {
                for col in 0..8 {
                    let mut q = *p;
                    q.play_col(col);
                    match seen.insert(q.key(), (q.current(), q.mask())) {
                        Some(prev) => assert_eq!(prev, (q.current(), q.mask())),
                        None => next.push(q),
                    }
                }
            }
            frontier = next;
        }
        assert!(seen.len() > 150_000, "{}", seen.len());
        assert!(seen.keys().any(|&k| k >> 64 != 0), "keys above 64 bits");
        assert!(seen.keys().all(|&k| k < 1 << 72));
        for p in frontier.iter().step_by(97) {
            assert_eq!(Board8x8::from_key(p.key()), Some(*p));
            assert_eq!(p.mirror().mirror(), *p);
            assert_eq!(p.canonical_key(), p.mirror().canonical_key());
        }
        assert_eq!(
            Board8x8::parse("1").unwrap().mirror(),
            Board8x8::parse("8").unwrap()
        );
        assert_eq!(
            Board10x6::parse("1").unwrap().mirror(),
            Board10x6::parse("a").unwrap()
        );
        // a bit above the last column, and a field of all ones in the last column
        assert_eq!(Board8x8::from_key(1 << 72), None);
        assert_eq!(Board8x8::from_key(0x1ff << 63), None);
    }

    /// Plays the same random games on a board of each word: every answer agrees.
    fn same_games<const W: usize, const H: usize>(seed: u64) {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..200 {
            let (mut a, mut b) = (Board::<W, H>::new(), Board::<W, H, u128>::new());
            while !a.is_full() {
                let col = rng.random_range(0..W);
                if !a.can_play(col) {
                    continue;
                }
                assert_eq!(a.is_winning_move(col), b.is_winning_move(col));
                let win = a.is_winning_move(col);
                a.play_col(col);
                b.play_col(col);
                assert_eq!(u128::from(a.key()), b.key());
                assert_eq!(u128::from(a.possible()), b.possible());
                assert_eq!(u128::from(a.winning_position()), b.winning_position());
                assert_eq!(u128::from(a.canonical_key()), b.canonical_key());
                assert_eq!(a.to_string(), b.to_string());
                if win {
                    break;
                }
            }
        }
    }

    #[test]
    fn both_words_play_the_same_games() {
        same_games::<7, 6>(1);
        same_games::<8, 7>(2); // 64 bits: the last column's top at bit 62
        same_games::<12, 4>(3);
    }
}
