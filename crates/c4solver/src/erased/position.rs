//! [`Position`]: a position on any built board size, the size chosen at run time.
//!
//! It holds the size and the board's two words widened to `u128`; each method
//! dispatches once to the generic [`Board`] of its size (`with_size!`), so every
//! rule is the one code of the generic board.

use std::fmt;

use crate::bits::Bits;
use crate::position::{Board, MoveError, StonesError};
use crate::size::{Size, SizeError};
use crate::with_size;

/// A position on a board of any size this build holds ([`Size::BUILT`]): the
/// size-erased face of [`Board`](crate::sized::Board).
///
/// ```
/// use c4solver::{Position, Size};
///
/// let size: Size = "8x8".parse()?;
/// # if size.built().is_err() { return Ok(()); }
/// let pos = Position::parse(size, "4455")?;
/// assert_eq!((pos.size(), pos.moves_played()), (size, 4));
/// assert!(Position::parse(size, "9").is_err(), "8 columns");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    size: Size,
    current: u128,
    mask: u128,
    moves: u32,
}

/// Why a position could not be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// The size is not one this build holds.
    #[error(transparent)]
    Size(#[from] SizeError),
    /// A move of the move string could not be played.
    #[error(transparent)]
    Move(#[from] MoveError),
    /// The stones given cannot be a position of a game.
    #[error(transparent)]
    Stones(#[from] StonesError),
    /// A key that is no position's key on this board.
    #[error("{key:#x} is not the key of a position on the {size} board")]
    Key {
        /// The board size.
        size: Size,
        /// The key given.
        key: u128,
    },
}

impl<const W: usize, const H: usize, B: Bits> From<Board<W, H, B>> for Position {
    fn from(board: Board<W, H, B>) -> Self {
        Position {
            size: Size {
                width: W,
                height: H,
            },
            current: board.current().to_u128(),
            mask: board.mask().to_u128(),
            moves: board.moves_played() as u32,
        }
    }
}

impl Position {
    /// The empty board of `size`.
    ///
    /// # Errors
    /// [`SizeError`] when this build does not hold `size` ([`Size::built`]).
    pub fn new(size: Size) -> Result<Position, SizeError> {
        Ok(with_size!(size.built()?, empty()))
    }

    /// The position after `moves` (1-based columns, `"4453"`) on the `size` board,
    /// with the rules of [`Board::parse`].
    ///
    /// # Errors
    /// [`PositionError::Size`] for a size not built, [`PositionError::Move`] for a
    /// move that cannot be played (its message is the command line's).
    pub fn parse(size: Size, moves: &str) -> Result<Position, PositionError> {
        let size = size.built()?;
        Ok(with_size!(size, parse_on(moves))?)
    }

    /// The position whose stones are `first`'s (the first player's) and
    /// `second`'s, as bits of the key's layout (`col * (height + 1) + row`, row 0
    /// at the bottom), played in an order that reaches it.
    ///
    /// # Errors
    /// [`PositionError::Stones`] when no game reaches these stones.
    pub fn from_stones(size: Size, first: u128, second: u128) -> Result<Position, PositionError> {
        let size = size.built()?;
        with_size!(size, stones_on(first, second))
    }

    /// A game that reaches the board of `first`'s and `second`'s stones (as for
    /// [`Position::from_stones`]): the 0-based columns played from the empty
    /// board, as [`Board::move_order`] gives them (the last may make four).
    ///
    /// # Errors
    /// [`PositionError::Stones`] when no game reaches these stones.
    pub fn move_order(size: Size, first: u128, second: u128) -> Result<Vec<usize>, PositionError> {
        let size = size.built()?;
        with_size!(size, order_on(first, second))
    }

    /// The position whose [`Position::key`] is `key`.
    ///
    /// # Errors
    /// [`PositionError::Key`] when `key` is no position's key on this board.
    pub fn from_key(size: Size, key: u128) -> Result<Position, PositionError> {
        let size = size.built()?;
        with_size!(size, key_on(key)).ok_or(PositionError::Key { size, key })
    }

    /// The generic board of this position, if its size is `W`x`H` on word `B`.
    pub fn to_board<const W: usize, const H: usize, B: Bits>(&self) -> Option<Board<W, H, B>> {
        let same = self.size.width == W && self.size.height == H && B::BITS >= self.size.bits();
        same.then(|| {
            Board::from_parts(
                B::from_u128(self.current),
                B::from_u128(self.mask),
                self.moves,
            )
        })
    }

    /// The generic board of this position, which the caller dispatched on its size.
    pub(crate) fn board<const W: usize, const H: usize, B: Bits>(&self) -> Board<W, H, B> {
        self.to_board()
            .expect("dispatched on the position's own size")
    }

    /// The board size.
    pub fn size(&self) -> Size {
        self.size
    }

    /// Number of stones on the board.
    pub fn moves_played(&self) -> usize {
        self.moves as usize
    }

    /// Whether the board is full.
    pub fn is_full(&self) -> bool {
        self.moves_played() == self.size.cells()
    }

    /// Whether a stone can go into column `col` (0-based): on the board and not full.
    pub fn can_play(&self, col: usize) -> bool {
        col < self.size.width && self.cell(col, self.size.height - 1).is_none()
    }

    /// Plays column `col` (0-based). Unlike a move string, a move that makes four
    /// in a row is played: the game is then over ([`Position::has_four`]).
    ///
    /// # Errors
    /// The command line's error for a column past the width, a full column or a
    /// move after four in a row ([`MoveError`], its index counted from the empty
    /// board); the position is then left as it was.
    pub fn play(&mut self, col: usize) -> Result<(), MoveError> {
        let index = self.moves_played() + 1;
        if col >= self.size.width {
            return Err(MoveError::ColumnOutOfRange {
                index,
                column: u32::try_from(col + 1).unwrap_or(u32::MAX),
                width: self.size.width,
            });
        }
        if !self.can_play(col) {
            return Err(MoveError::ColumnFull {
                index,
                column: col + 1,
            });
        }
        if self.has_four() {
            return Err(MoveError::MoveAfterWin {
                index,
                won_at: self.moves_played(),
            });
        }
        *self = with_size!(self.size, play_col_on(self, col));
        Ok(())
    }

    /// Plays a move string on top of this position, as [`Position::parse`] does.
    ///
    /// # Errors
    /// As [`Position::parse`]; the position is then left as it was.
    pub fn play_str(&mut self, moves: &str) -> Result<(), MoveError> {
        *self = with_size!(self.size, play_on(self, moves))?;
        Ok(())
    }

    /// Whether playing column `col` (0-based, playable) makes four in a row.
    pub fn is_winning_move(&self, col: usize) -> bool {
        self.can_play(col) && with_size!(self.size, wins_on(self, col))
    }

    /// Whether either side holds four in a row: the game is over.
    pub fn has_four(&self) -> bool {
        with_size!(self.size, four_on(self))
    }

    /// The position's unique key: `current + mask` of the bitboard.
    pub fn key(&self) -> u128 {
        self.current + self.mask
    }

    /// The smaller of the keys of the position and of its mirror image.
    pub fn canonical_key(&self) -> u128 {
        self.key().min(self.mirror().key())
    }

    /// The position mirrored left to right.
    pub fn mirror(&self) -> Position {
        with_size!(self.size, mirror_on(self))
    }

    /// Who owns the cell at `col`, `row` (0-based, row 0 at the bottom):
    /// `Some(true)` for the player to move, `Some(false)` for the opponent,
    /// `None` for an empty cell or one off the board.
    pub fn cell(&self, col: usize, row: usize) -> Option<bool> {
        if col >= self.size.width || row >= self.size.height {
            return None;
        }
        let bit = 1u128 << (col * (self.size.height + 1) + row);
        (self.mask & bit != 0).then_some(self.current & bit != 0)
    }

    /// The column (1-based) that `ch` names in this board's move notation: `1` to
    /// `9`, then on boards wider than nine `a`, `b`, ... (either case)
    /// ([`Board::column_of_symbol`]); `None` for any other character. The column
    /// may still be off the board.
    pub fn column_of_symbol(&self, ch: char) -> Option<u32> {
        with_size!(self.size, symbol_on(ch))
    }

    /// The symbol of column `col` (0-based) in the move notation, the same on
    /// every board: `'1'`..`'9'`, then `'a'`, `'b'`, ... for the 10th, 11th, ...
    /// column ([`Board::column_symbol`]; [`Position::column_of_symbol`] reads it).
    ///
    /// Precondition: `col < 35` (`debug_assert!`ed).
    pub const fn column_symbol(col: usize) -> char {
        crate::position::column_symbol(col)
    }

    /// The lowest and highest score the position can still have
    /// ([`Board::score_range`]).
    pub fn score_range(&self) -> (i32, i32) {
        with_size!(self.size, range_on(self))
    }
}

/// The grid of [`Board`]'s `Display`: `x` for the first player, `o` for the
/// second, `.` for empty cells, top row first, then the column symbols.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&with_size!(self.size, grid_on(self)))
    }
}

fn empty<const W: usize, const H: usize, B: Bits>() -> Position {
    Board::<W, H, B>::new().into()
}

fn parse_on<const W: usize, const H: usize, B: Bits>(moves: &str) -> Result<Position, MoveError> {
    Board::<W, H, B>::parse(moves).map(Position::from)
}

fn stones_on<const W: usize, const H: usize, B: Bits>(
    first: u128,
    second: u128,
) -> Result<Position, PositionError> {
    let order = Board::<W, H, B>::move_order(B::from_u128(first), B::from_u128(second))?;
    let mut board = Board::<W, H, B>::new();
    for col in order {
        board.play_col(col);
    }
    Ok(board.into())
}

fn order_on<const W: usize, const H: usize, B: Bits>(
    first: u128,
    second: u128,
) -> Result<Vec<usize>, PositionError> {
    Ok(Board::<W, H, B>::move_order(
        B::from_u128(first),
        B::from_u128(second),
    )?)
}

fn key_on<const W: usize, const H: usize, B: Bits>(key: u128) -> Option<Position> {
    if W * (H + 1) < 128 && key >> (W * (H + 1)) != 0 {
        return None;
    }
    Board::<W, H, B>::from_key(B::from_u128(key)).map(Position::from)
}

fn play_on<const W: usize, const H: usize, B: Bits>(
    pos: &Position,
    moves: &str,
) -> Result<Position, MoveError> {
    let mut board = pos.board::<W, H, B>();
    board.play_str(moves)?;
    Ok(board.into())
}

fn play_col_on<const W: usize, const H: usize, B: Bits>(pos: &Position, col: usize) -> Position {
    let mut board = pos.board::<W, H, B>();
    board.play_col(col);
    board.into()
}

fn wins_on<const W: usize, const H: usize, B: Bits>(pos: &Position, col: usize) -> bool {
    pos.board::<W, H, B>().is_winning_move(col)
}

fn four_on<const W: usize, const H: usize, B: Bits>(pos: &Position) -> bool {
    pos.board::<W, H, B>().has_four()
}

fn mirror_on<const W: usize, const H: usize, B: Bits>(pos: &Position) -> Position {
    pos.board::<W, H, B>().mirror().into()
}

fn range_on<const W: usize, const H: usize, B: Bits>(pos: &Position) -> (i32, i32) {
    pos.board::<W, H, B>().score_range()
}

fn grid_on<const W: usize, const H: usize, B: Bits>(pos: &Position) -> String {
    pos.board::<W, H, B>().to_string()
}

fn symbol_on<const W: usize, const H: usize, B: Bits>(ch: char) -> Option<u32> {
    Board::<W, H, B>::column_of_symbol(ch)
}
