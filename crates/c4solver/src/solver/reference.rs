//! The reference search: the tutorial's part-7 negamax, node for node.
//!
//! Plain negamax with alpha-beta pruning, center-first move order and the
//! always-replace upper-bound table of [`UpperTable`](crate::table::UpperTable). Nothing here is tuned: it is
//! the baseline every other configuration is measured against, and its node counts
//! equal the tutorial's published ones (checked by `tests/integration/pons.rs`).

use crate::bits::Bits;
use std::marker::PhantomData;
use std::ops::ControlFlow;

use crate::moves::center_first;
use crate::position::Board;
use crate::solver::stop::StopFlag;
use crate::table::{Bound, Table, TableStats, work_depth};

/// The tutorial's solver state: its table and its node counter.
///
/// With [`crate::table::UpperTable`] this is exactly the tutorial's program. Any
/// other [`Table`] plugs in: its lower bounds raise alpha, exact scores answer at
/// once, and its best move is searched first.
///
/// With `STATS` the search counts its use of the table in a [`TableStats`]; the
/// counting never changes the search (same nodes, same scores), and without it the
/// counters are compiled out.
#[derive(Clone, Debug)]
pub(crate) struct Reference<const W: usize, const H: usize, B: Bits, T, const STATS: bool = false> {
    table: T,
    nodes: u64,
    stats: TableStats,
    /// Polled every few thousand nodes; see [`StopFlag`].
    stop: StopFlag,
    /// The flag was seen: every node returns at once, storing nothing.
    stopped: bool,
    /// The bitboard word of the positions searched.
    word: PhantomData<B>,
}

impl<const W: usize, const H: usize, B: Bits, T: Table, const STATS: bool>
    Reference<W, H, B, T, STATS>
{
    const ORDER: [usize; W] = center_first::<W>();

    /// A solver using `table`.
    pub(crate) fn new(table: T) -> Self {
        Reference {
            table,
            nodes: 0,
            stats: TableStats::default(),
            stop: StopFlag::new(),
            word: PhantomData,
            stopped: false,
        }
    }

    /// Makes the search poll `flag` (every [`crate::solver::stop::POLL_INTERVAL`]
    /// nodes) and stop when it is set. Polling never changes the node count.
    pub(crate) fn set_stop_flag(&mut self, flag: StopFlag) {
        self.stop = flag;
    }

    /// Whether the last [`Reference::search`] was stopped by its flag: its score is
    /// then meaningless (the table holds only what was proved before the stop).
    pub(crate) fn stopped(&self) -> bool {
        self.stopped
    }

    /// Starts a new root position while keeping the table (ages its entries).
    #[cfg(feature = "research")]
    pub(crate) fn new_search(&mut self) {
        self.table.new_search();
    }

    /// The table counters of the last [`Reference::search`], if `STATS` is on
    /// (the occupancy is sampled now, so that the search's time does not include it).
    #[cfg(feature = "research")]
    pub(crate) fn stats(&self) -> Option<TableStats> {
        STATS.then(|| TableStats {
            hashfull: u64::from(self.table.hashfull()),
            ..self.stats
        })
    }

    /// Empties the table.
    pub(crate) fn clear(&mut self) {
        self.table.clear();
    }

    /// Faults the table's memory in now ([`Table::prefault`]).
    pub(crate) fn prefault(&mut self) {
        self.table.prefault();
    }

    /// Searches `pos` in the window `[alpha, beta]` and returns the number of nodes
    /// explored with the score.
    pub(crate) fn search(&mut self, pos: &Board<W, H, B>, alpha: i32, beta: i32) -> (i32, u64) {
        self.nodes = 0;
        self.stopped = false;
        let overwrites = self.table.overwrites();
        if STATS {
            self.stats = TableStats::default();
        }
        let score = self.negamax(*pos, alpha, beta);
        if STATS {
            self.stats.overwrites = self.table.overwrites() - overwrites;
            self.stats.searches = 1;
        }
        (score, self.nodes)
    }

    /// Negamax with alpha-beta.
    ///
    /// Preconditions: nobody has won yet and `alpha < beta`.
    ///
    /// Returns the exact score if it lies in `(alpha, beta)`; a value `<= alpha` is an
    /// upper bound of the true score (fail low), a value `>= beta` a lower bound
    /// (fail high).
    fn negamax(&mut self, pos: Board<W, H, B>, mut alpha: i32, mut beta: i32) -> i32 {
        debug_assert!(alpha < beta);
        let nodes0 = self.nodes;
        self.nodes += 1;
        if self.stop.poll(self.nodes) {
            // Unwind: every parent checks `stopped` before using a child's score.
            self.stopped = true;
            return 0;
        }

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

        let hint = match self.probe_window(&pos, &mut alpha, &mut beta) {
            ControlFlow::Break(score) => return score,
            ControlFlow::Continue(hint) => hint,
        };

        let alpha0 = alpha;
        let cells = (W * H - pos.moves_played()) as u8;
        // The work measure, if the table wants it, once the children are searched.
        let depth = |nodes: u64| {
            if T::DEPTH_IS_WORK {
                work_depth(nodes - nodes0)
            } else {
                cells
            }
        };
        let mut best = None;
        // The table's move first (if any), then center first.
        let first = hint.map(usize::from).filter(|&c| c < W && pos.can_play(c));
        if STATS && first.is_some() {
            self.stats.hints += 1;
        }
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
            if self.stopped {
                return 0;
            }
            // A move at least as good as beta: the opponent will avoid this line.
            if score >= beta {
                if STATS {
                    self.stats.stores += 1;
                    if Some(col) == first {
                        self.stats.hint_cuts += 1;
                    }
                }
                let depth = depth(self.nodes);
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
        if STATS {
            self.stats.stores += 1;
        }
        let depth = depth(self.nodes);
        self.table.store(pos.key(), alpha, bound, best, depth);
        alpha
    }

    /// The window narrowed by what a node that cannot win at once can get (a win
    /// with its stone after next) and by the table's bound, which answers the
    /// node when it settles it (`Break`); else the table's best move, searched
    /// first.
    #[inline(always)]
    fn probe_window(
        &mut self,
        pos: &Board<W, H, B>,
        alpha: &mut i32,
        beta: &mut i32,
    ) -> ControlFlow<i32, Option<u8>> {
        // We cannot win now, so we cannot do better than winning with the stone after next;
        // the table may know a tighter upper bound.
        let mut max = ((W * H - 1 - pos.moves_played()) / 2) as i32;
        let mut hint = None;
        // Only counted with STATS: whether `max` came from the table.
        let mut upper_hit = false;
        if STATS {
            self.stats.probes += 1;
        }
        if let Some(hit) = self.table.probe(pos.key()) {
            hint = hit.best;
            if STATS {
                self.stats.hits += 1;
                upper_hit = hit.bound == Bound::Upper;
            }
            match hit.bound {
                Bound::Upper => max = hit.score,
                Bound::Exact => {
                    if STATS {
                        self.stats.cut_exact += 1;
                    }
                    return ControlFlow::Break(hit.score);
                }
                Bound::Lower => {
                    if *alpha < hit.score {
                        *alpha = hit.score;
                        if *alpha >= *beta {
                            if STATS {
                                self.stats.cut_lower += 1;
                            }
                            return ControlFlow::Break(*alpha);
                        }
                        if STATS {
                            self.stats.narrow_alpha += 1;
                        }
                    }
                }
            }
        }
        if *beta > max {
            // No need to look for more than we can get.
            *beta = max;
            // The window is empty: the bound alone answers.
            if *alpha >= *beta {
                if STATS && upper_hit {
                    self.stats.cut_upper += 1;
                }
                return ControlFlow::Break(*beta);
            }
            if STATS && upper_hit {
                self.stats.narrow_beta += 1;
            }
        }
        ControlFlow::Continue(hint)
    }
}
