//! A position nobody has won: the positions a search takes without a check.

use std::ops::Deref;

use super::{Board, MoveError};

/// A position in which neither side holds four in a row, so that it has a score
/// (a full board without four scores 0): what the solver's `_playable` methods take,
/// and what parsing ([`Playable::parse`], [`crate::parse_line`]) gives. It reads
/// as the [`Board`] it holds.
///
/// ```
/// use c4solver::{Playable, Position};
///
/// let p = Playable::<7, 6>::parse("4455")?;
/// assert_eq!(p.moves_played(), 4);
/// // Four in column 1: the game is over, and the position is not playable.
/// let mut won = Position::parse("121212")?;
/// won.play_col(0);
/// assert_eq!(Playable::new(won), None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Playable<const W: usize, const H: usize>(Board<W, H>);

impl<const W: usize, const H: usize> Playable<W, H> {
    /// `board`, if neither side holds four in a row in it.
    pub fn new(board: Board<W, H>) -> Option<Self> {
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
    pub fn from_key(key: u64) -> Option<Self> {
        Board::from_key(key).and_then(Self::new)
    }

    /// `board`, which the caller knows holds no four in a row (a child reached by
    /// a move that does not win).
    pub(crate) fn trusted(board: Board<W, H>) -> Self {
        debug_assert!(!board.has_four());
        Playable(board)
    }

    /// The board.
    pub const fn board(&self) -> &Board<W, H> {
        &self.0
    }
}

impl<const W: usize, const H: usize> Deref for Playable<W, H> {
    type Target = Board<W, H>;

    fn deref(&self) -> &Board<W, H> {
        &self.0
    }
}

impl<const W: usize, const H: usize> From<Playable<W, H>> for Board<W, H> {
    fn from(p: Playable<W, H>) -> Self {
        p.0
    }
}
