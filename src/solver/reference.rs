//! The reference search: the tutorial's part-7 negamax, node for node.
//!
//! Plain negamax with alpha-beta pruning, center-first move order and the
//! always-replace upper-bound table of [`UpperTable`]. Nothing here is tuned: it is
//! the baseline every other configuration is measured against, and its node counts
//! equal the tutorial's published ones (checked by `tests/fidelity.rs`).

use crate::moves::center_first;
use crate::position::Board;
use crate::table::{Bound, Table};

/// The tutorial's solver state: its table and its node counter.
///
/// With [`crate::table::UpperTable`] this is exactly the tutorial's program. Any
/// other [`Table`] plugs in: its lower bounds raise alpha, exact scores answer at
/// once, and its best move is searched first.
#[derive(Clone, Debug)]
pub struct Reference<const W: usize, const H: usize, T> {
    table: T,
    nodes: u64,
}

impl<const W: usize, const H: usize, T: Table> Reference<W, H, T> {
    const ORDER: [usize; W] = center_first::<W>();

    /// A solver using `table`.
    pub fn new(table: T) -> Self {
        Reference { table, nodes: 0 }
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
        let mut hint = None;
        if let Some(hit) = self.table.probe(pos.key()) {
            hint = hit.best;
            match hit.bound {
                Bound::Upper => max = hit.score,
                Bound::Exact => return hit.score,
                Bound::Lower => {
                    if alpha < hit.score {
                        alpha = hit.score;
                        if alpha >= beta {
                            return alpha;
                        }
                    }
                }
            }
        }
        if beta > max {
            // No need to look for more than we can get.
            beta = max;
            // The window is empty: the bound alone answers.
            if alpha >= beta {
                return beta;
            }
        }

        let alpha0 = alpha;
        let depth = (W * H - pos.moves_played()) as u8;
        let mut best = None;
        // The table's move first (if any), then center first.
        let first = hint.map(usize::from).filter(|&c| c < W && pos.can_play(c));
        let order = first.into_iter().chain(
            Self::ORDER
                .iter()
                .copied()
                .filter(|&c| Some(c) != first && pos.can_play(c)),
        );
        for col in order {
            let mut next = pos;
            next.play_col(col);
            let score = -self.negamax(next, -beta, -alpha);
            // A move at least as good as beta: the opponent will avoid this line.
            if score >= beta {
                self.table
                    .store(pos.key(), score, Bound::Lower, Some(col as u8), depth);
                return score;
            }
            // Narrow the window for the next moves.
            if score > alpha {
                alpha = score;
                best = Some(col as u8);
            }
        }

        // Every move was searched: alpha is exact if it rose above where it started,
        // otherwise an upper bound.
        let bound = if alpha > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.table.store(pos.key(), alpha, bound, best, depth);
        alpha
    }
}
