//! Scores known before any search: the solver asks a [`KnownScores`] (an opening
//! book, for one) for the score of a position before it searches it. The trait is
//! the search's, so the search never depends on what answers it; a solver built
//! with [`Solver::new`](super::Solver::new) asks nothing and always searches.

use crate::bits::Bits;
use std::fmt::Debug;

use crate::position::Board;

/// A source of exact scores that [`Solver`](super::Solver) consults before it
/// searches (set with [`Solver::set_known_scores`](super::Solver::set_known_scores)).
///
/// It must answer only exact strong scores, from the side to move, of positions
/// with no four in a row; the solver clamps them into the window asked and counts
/// no node for them.
pub trait KnownScores<const W: usize, const H: usize, B: Bits = u64>: Debug + Send + Sync {
    /// The exact strong score of `pos`, if this source knows it.
    fn known_score(&self, pos: &Board<W, H, B>) -> Option<i32>;

    /// The most stones of the positions this source knows every one of (an
    /// opening book's depth), if it knows a whole layer; `None` by default.
    fn depth(&self) -> Option<usize> {
        None
    }
}
