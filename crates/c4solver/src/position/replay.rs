//! A game that reaches a board given by its stones ([`Board::move_order`]): how a
//! grid of cells (a board drawn as an array) becomes a position that the search
//! and the book take, and why some grids cannot be one ([`StonesError`]).
//!
//! Working backwards from the board, the last move is a top stone of the player
//! who moved last, and no position before the last may hold four in a row. A
//! depth-first search over those top stones, remembering the boards that lead
//! nowhere, finds an order or proves there is none; on boards from real games the
//! first path it tries almost always reaches the empty board.

use std::collections::HashSet;

use super::Board;
use crate::bits::Bits;

/// Why stones cannot be the board of a game. Columns are 1-based and rows count
/// from the bottom, 1-based, as the board is drawn.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StonesError {
    /// A cell holds a stone of both players.
    #[error("a cell holds stones of both players")]
    Overlap,
    /// A stone lies outside the board's cells (a sentinel bit or beyond).
    #[error("a stone lies outside the board")]
    Outside,
    /// A stone has an empty cell under it.
    #[error(
        "a stone floats in column {column}, row {row} from the bottom: the cell under it is empty"
    )]
    Floating {
        /// The stone's column, 1-based.
        column: usize,
        /// The stone's row from the bottom, 1-based (at least 2).
        row: usize,
    },
    /// The first player must have as many stones as the second, or one more.
    #[error(
        "the first player has {first} stones and the second {second}: the first player has as many as the second or one more"
    )]
    Counts {
        /// The first player's stones.
        first: u32,
        /// The second player's stones.
        second: u32,
    },
    /// Both players have four in a row.
    #[error("both players have four in a row")]
    BothFours,
    /// The player who did not move last has four in a row: the game ended before
    /// the other player's last move.
    #[error(
        "the {} player has four in a row, but the other player moved after it",
        if *.first { "first" } else { "second" }
    )]
    FourBeforeLastMove {
        /// Whether that player is the first player.
        first: bool,
    },
    /// The last mover has fours in a row that no single last stone completes.
    #[error("two fours in a row that no single last stone made")]
    TwoFours,
    /// No order of play, the players taking turns from the empty board, reaches
    /// the stones (a first player's only stone on top of the second player's).
    #[error("no game reaches this board: its stones cannot have been played in turn")]
    Unreachable,
}

impl<const W: usize, const H: usize, B: Bits> Board<W, H, B> {
    /// A game that reaches the board holding `first`'s stones for the first
    /// player and `second`'s for the second (bitboards in the layout above): the
    /// 0-based columns played from the empty board, the first player first, with
    /// no four in a row before the last move (which may make one: a finished
    /// game). Playing them with [`Board::play_col`] gives the board.
    ///
    /// ```
    /// use c4solver::sized::Board;
    ///
    /// type Position = Board<7, 6>;
    /// let board = Position::parse("4453")?;
    /// // The first player's stones are the opponent's of the player to move (o).
    /// let (first, second) = (board.current(), board.current() ^ board.mask());
    /// let order = Position::move_order(first, second)?;
    /// let mut replayed = Position::new();
    /// order.iter().for_each(|&c| replayed.play_col(c));
    /// assert_eq!(replayed, board);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// The reason the stones cannot be the board of a game ([`StonesError`]).
    pub fn move_order(first: B, second: B) -> Result<Vec<usize>, StonesError> {
        let mask = first | second;
        if first & second != B::ZERO {
            return Err(StonesError::Overlap);
        }
        if mask & !Self::board() != B::ZERO {
            return Err(StonesError::Outside);
        }
        Self::no_floating_stone(mask)?;
        let (nf, ns) = (first.count_ones(), second.count_ones());
        if nf != ns && nf != ns + 1 {
            return Err(StonesError::Counts {
                first: nf,
                second: ns,
            });
        }
        // The player who moved last, and the other one.
        let first_moved_last = nf > ns;
        let (last, other) = if first_moved_last {
            (first, second)
        } else {
            (second, first)
        };
        match (Self::alignment(last), Self::alignment(other)) {
            (true, true) => return Err(StonesError::BothFours),
            (false, true) => {
                return Err(StonesError::FourBeforeLastMove {
                    first: !first_moved_last,
                });
            }
            (true, false) if !Self::tops(mask, last).any(|t| !Self::alignment(last & !t)) => {
                return Err(StonesError::TwoFours);
            }
            _ => {}
        }
        let mut order = Vec::with_capacity(mask.count_ones() as usize);
        let mut dead_ends = HashSet::new();
        if Self::unplay(last, other, &mut dead_ends, &mut order) {
            order.reverse();
            Ok(order)
        } else {
            Err(StonesError::Unreachable)
        }
    }

    /// Refuses a column whose stones do not lie on one another from the bottom.
    fn no_floating_stone(mask: B) -> Result<(), StonesError> {
        for col in 0..W {
            let v = (mask >> (col * (H + 1))).to_u128() & ((1u128 << H) - 1);
            if v & (v + 1) != 0 {
                let empty = v.trailing_ones();
                let row = (v >> empty).trailing_zeros() + empty;
                return Err(StonesError::Floating {
                    column: col + 1,
                    row: row as usize + 1,
                });
            }
        }
        Ok(())
    }

    /// The top stones of the columns of `mask` that belong to `stones`, one bit
    /// each.
    fn tops(mask: B, stones: B) -> impl Iterator<Item = B> {
        (0..W).filter_map(move |col| {
            let v = (mask >> (col * (H + 1))).to_u128() & ((1u128 << H) - 1);
            let top =
                (v != 0).then(|| B::ONE << (col * (H + 1) + 127 - v.leading_zeros() as usize));
            top.filter(|&t| t & stones != B::ZERO)
        })
    }

    /// Takes back moves from the board of `last` (who moved last) and `other`
    /// down to the empty board, pushing their columns last first; false if no
    /// order works. `dead_ends` holds the boards already found to lead nowhere.
    fn unplay(last: B, other: B, dead_ends: &mut HashSet<B>, order: &mut Vec<usize>) -> bool {
        let mask = last | other;
        if mask == B::ZERO {
            return true;
        }
        for top in Self::tops(mask, last) {
            let before = last & !top;
            // Only the last move may make four in a row.
            if Self::alignment(before) {
                continue;
            }
            // The board before, with `other` to move back next: its key.
            let key = (mask & !top) + other;
            if dead_ends.contains(&key) {
                continue;
            }
            order.push(top.trailing_zeros() as usize / (H + 1));
            if Self::unplay(other, before, dead_ends, order) {
                return true;
            }
            order.pop();
            dead_ends.insert(key);
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The first player's and the second player's stones of `moves`' board (which
    /// may end with a four).
    fn stones(moves: &str) -> (u64, u64) {
        let mut b = Position::new();
        for ch in moves.chars() {
            b.play_col(ch.to_digit(10).unwrap() as usize - 1);
        }
        let (current, other) = (b.current(), b.current() ^ b.mask());
        if b.moves_played().is_multiple_of(2) {
            (current, other)
        } else {
            (other, current)
        }
    }

    fn replay(order: &[usize]) -> Position {
        let mut b = Position::new();
        for (i, &c) in order.iter().enumerate() {
            assert!(b.can_play(c));
            assert!(!b.has_four(), "a four before the last move, at move {i}");
            b.play_col(c);
        }
        b
    }

    #[test]
    fn random_games_are_reached_again() {
        let mut rng = ChaCha8Rng::seed_from_u64(47);
        for _ in 0..2000 {
            let mut b = Position::new();
            let plies = rng.random_range(0..=42);
            let mut moves = String::new();
            while moves.len() < plies && !b.has_four() {
                let playable: Vec<usize> = (0..7).filter(|&c| b.can_play(c)).collect();
                let c = playable[rng.random_range(0..playable.len())];
                b.play_col(c);
                moves.push(Position::column_symbol(c));
            }
            let (first, second) = stones(&moves);
            let order = Position::move_order(first, second).unwrap();
            assert_eq!(replay(&order), b, "{moves}");
        }
    }

    #[test]
    fn random_games_on_8x8_are_reached_again() {
        // 72 bits: the stones above bit 63 are replayed as well as the others.
        type Board8x8 = Board<8, 8, u128>;
        let mut rng = ChaCha8Rng::seed_from_u64(48);
        for _ in 0..500 {
            let mut b = Board8x8::new();
            let plies = rng.random_range(0..=64);
            while b.moves_played() < plies && !b.has_four() {
                let playable: Vec<usize> = (0..8).filter(|&c| b.can_play(c)).collect();
                b.play_col(playable[rng.random_range(0..playable.len())]);
            }
            let (mine, theirs) = (b.current(), b.current() ^ b.mask());
            let (first, second) = if b.moves_played().is_multiple_of(2) {
                (mine, theirs)
            } else {
                (theirs, mine)
            };
            let order = Board8x8::move_order(first, second).unwrap();
            let mut again = Board8x8::new();
            order.iter().for_each(|&c| again.play_col(c));
            assert_eq!(again, b);
        }
    }

    #[test]
    fn a_finished_game_ends_with_its_four() {
        let (first, second) = stones("4455667");
        let order = Position::move_order(first, second).unwrap();
        assert_eq!(replay(&order).key(), stones_board("4455667").key());
        assert!(replay(&order).has_four());
    }

    fn stones_board(moves: &str) -> Position {
        let mut b = Position::new();
        moves
            .chars()
            .for_each(|ch| b.play_col(ch.to_digit(10).unwrap() as usize - 1));
        b
    }

    #[test]
    fn impossible_boards_say_why() {
        let bit = |col: usize, row: usize| 1u64 << (col * 7 + row);
        let err = |first, second| Position::move_order(first, second).unwrap_err();
        assert_eq!(err(bit(0, 0), bit(0, 0)), StonesError::Overlap);
        assert_eq!(err(bit(0, 6), 0), StonesError::Outside);
        assert_eq!(
            err(bit(2, 1), 0),
            StonesError::Floating { column: 3, row: 2 }
        );
        assert_eq!(
            err(bit(0, 0) | bit(1, 0), 0),
            StonesError::Counts {
                first: 2,
                second: 0
            }
        );
        assert_eq!(
            err(0, bit(0, 0)),
            StonesError::Counts {
                first: 0,
                second: 1
            }
        );
        // Four in column 1 for the first player, four in column 2 for the second.
        let col = |c: usize| (0..4).map(|r| bit(c, r)).sum::<u64>();
        assert_eq!(
            err(col(0), col(1) ^ bit(1, 3) | bit(2, 0)),
            StonesError::FourBeforeLastMove { first: true }
        );
        assert_eq!(err(col(0) | bit(3, 0), col(1)), StonesError::BothFours);
        // Two fours of the first player, in columns 1 and 7: no single top stone
        // made both.
        let first = col(0) | col(6);
        let second = [(1, 0), (2, 0), (4, 0), (5, 0), (1, 1), (2, 1), (4, 1)]
            .iter()
            .map(|&(c, r)| bit(c, r))
            .sum::<u64>();
        assert_eq!(err(first, second), StonesError::TwoFours);
        // The first player's only stone on top of the second player's.
        assert_eq!(err(bit(0, 1), bit(0, 0)), StonesError::Unreachable);
        // Every message is a sentence of its own.
        assert_eq!(
            StonesError::FourBeforeLastMove { first: false }.to_string(),
            "the second player has four in a row, but the other player moved after it"
        );
    }
}
