//! The reference search: the tutorial's part-7 negamax, node for node.
//!
//! Plain negamax with alpha-beta pruning, center-first move order and the
//! always-replace upper-bound table of [`UpperTable`]. Nothing here is tuned: it is
//! the baseline every other configuration is measured against, and its node counts
//! equal the tutorial's published ones (checked by `tests/fidelity.rs`).

use crate::moves::center_first;
use crate::position::Board;
use crate::table::{TableError, UpperTable};

/// The tutorial's solver state: its table and its node counter.
#[derive(Clone, Debug)]
pub struct Reference<const W: usize, const H: usize> {
    table: UpperTable,
    nodes: u64,
}

impl<const W: usize, const H: usize> Reference<W, H> {
    const ORDER: [usize; W] = center_first::<W>();

    /// A solver with a table of at most `table_mb` megabytes.
    pub fn new(table_mb: usize) -> Result<Self, TableError> {
        Ok(Reference {
            table: UpperTable::with_megabytes(table_mb)?,
            nodes: 0,
        })
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Searches `pos` in the window `[alpha, beta]` and returns the number of nodes
    /// explored with the score.
    pub fn search(&mut self, pos: &Board<W, H>, alpha: i32, beta: i32) -> (i32, u64) {
        self.nodes = 0;
        let score = self.negamax(*pos, alpha, beta);
        (score, self.nodes)
    }

    /// Negamax with alpha-beta.
    ///
    /// Preconditions: nobody has won yet and `alpha < beta`.
    ///
    /// Returns the exact score if it lies in `(alpha, beta)`; a value `<= alpha` is an
    /// upper bound of the true score (fail low), a value `>= beta` a lower bound
    /// (fail high).
    fn negamax(&mut self, pos: Board<W, H>, mut alpha: i32, mut beta: i32) -> i32 {
        debug_assert!(alpha < beta);
        self.nodes += 1;

        // A full board is a draw.
        if pos.is_full() {
            return 0;
        }

        // If the player to move can win now, the score is known.
        for col in 0..W {
            if pos.can_play(col) && pos.is_winning_move(col) {
                return pos.win_next_score();
            }
        }

        // We cannot win now, so we cannot do better than winning with the stone after next;
        // the table may know a tighter upper bound.
        let mut max = ((W * H - 1 - pos.moves_played()) / 2) as i32;
        let val = self.table.get(pos.key());
        if val != 0 {
            max = i32::from(val) + Board::<W, H>::MIN_SCORE - 1;
        }
        if beta > max {
            // No need to look for more than we can get.
            beta = max;
            // The window is empty: the bound alone answers.
            if alpha >= beta {
                return beta;
            }
        }

        for &col in &Self::ORDER {
            if pos.can_play(col) {
                let mut next = pos;
                next.play_col(col);
                let score = -self.negamax(next, -beta, -alpha);
                // A move at least as good as beta: the opponent will avoid this line.
                if score >= beta {
                    return score;
                }
                // Narrow the window for the next moves.
                if score > alpha {
                    alpha = score;
                }
            }
        }

        // alpha is now an upper bound of the score; wrapping to u8 as the tutorial does.
        self.table
            .put(pos.key(), (alpha - Board::<W, H>::MIN_SCORE + 1) as u8);
        alpha
    }
}
