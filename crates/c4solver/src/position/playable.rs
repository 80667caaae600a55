//! A position nobody has won: the positions a search takes without a check.

use std::ops::Deref;

use super::{Board, MoveError};
use crate::bits::Bits;

/// A position in which neither side holds four in a row, so that it has a score
/// (a full board without four scores 0): what the solver's `_playable` methods take,
/// and what parsing ([`Playable::parse`], [`Query::parse`](crate::sized::Query::parse)) gives. It reads
/// as the [`Board`] it holds.
///
/// ```
/// use c4solver::sized::{Board, Playable};
///
/// type Position = Board<7, 6>;
/// let p = Playable::<7, 6>::parse("4455")?;
/// assert_eq!(p.moves_played(), 4);
/// // Four in column 1: the game is over, and the position is not playable.
/// let mut won = Position::parse("121212")?;
/// won.play_col(0);
/// assert_eq!(Playable::new(won), None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Playable<const W: usize, const H: usize, B = u64>(Board<W, H, B>);

impl<const W: usize, const H: usize, B: Bits> Playable<W, H, B> {
    /// `board`, if neither side holds four in a row in it.
    pub fn new(board: Board<W, H, B>) -> Option<Self> {
        (!board.has_four()).then_some(Playable(board))
    }

    /// The position after `moves` ([`Board::parse`], which refuses a move after
    /// four in a row, so that the game is never over).
    ///
    /// # Errors
    /// As [`Board::parse`].
    pub fn parse(moves: &str) -> Result<Self, MoveError> {
        let board = Board::parse(moves)?;
        debug_assert!(!board.has_four());
        Ok(Playable(board))
    }

    /// The position of `key` ([`Board::from_key`]), if it is one and nobody has
    /// won in it.
    pub fn from_key(key: B) -> Option<Self> {
        Board::from_key(key).and_then(Self::new)
    }

    /// `board`, which the caller knows holds no four in a row (a child reached by
    /// a move that does not win).
    pub(crate) fn trusted(board: Board<W, H, B>) -> Self {
        debug_assert!(!board.has_four());
        Playable(board)
    }

    /// The board.
    pub const fn board(&self) -> &Board<W, H, B> {
        &self.0
    }
}

impl<const W: usize, const H: usize, B: Bits> Deref for Playable<W, H, B> {
    type Target = Board<W, H, B>;

    fn deref(&self) -> &Board<W, H, B> {
        &self.0
    }
}

impl<const W: usize, const H: usize, B: Bits> From<Playable<W, H, B>> for Board<W, H, B> {
    fn from(p: Playable<W, H, B>) -> Self {
        p.0
    }
}
