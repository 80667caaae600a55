//! The tuned search: Pascal Pons' final solver, then measured improvements.
//!
//! * **Null windows.** The score is found by a sequence of searches in windows
//!   `[med, med + 1]` that each only say "above or below `med`", narrowing
//!   `[min, max]` until it is one value. The first two `med` lean toward 0 (half
//!   the bound on each side), where most scores are; if 0 is still inside after
//!   them, the next window asks at 0, where the parity bounds below cut the most,
//!   and if that one answers exactly 1 (or 0), the next asks at 1 (or -1). Once
//!   a window at 0 has been asked and the sign is known, the windows walk outward
//!   from the bound nearest 0 instead of halving: `(max - min) / 5` scores beyond
//!   it (one while `max - min` is 5 to 9), then one at a time. Proving a bound
//!   far beyond the score costs about as much as proving the score itself (4%
//!   fewer nodes on the Begin-Medium and Begin-Hard sets, step 30 of the
//!   research log).
//! * **Anticipating losses.** A node first computes its non-losing moves: a move
//!   below a cell where the opponent would complete four is never played; if the
//!   opponent threatens to win at once the reply is forced, and two such threats
//!   (or no safe move) lose at once. A node with one safe move is only a step
//!   to its child: it plays the move and answers the child's score, negated,
//!   without a probe, a store or the rules below; its parent asks for the
//!   grandchild's slot instead of its own and tries the grandchild's bounds in
//!   its transposition cutoffs (about a third of the nodes are such steps; 7-12%
//!   less time on the Middle-Medium and Begin sets for 3-8% more nodes, step 27
//!   of the research log).
//! * **Wins in two.** A node looks one ply ahead: a move after which the opponent
//!   has no safe reply wins with the mover's stone after next, the best score left,
//!   so the node returns it at once; when no move does, the mover wins a stone
//!   later at best, one less than the usual bound.
//! * **Move ordering.** Moves are sorted by the number of winning cells they create
//!   for the mover ([`MoveSorter`]); among ties, a move just under a winning cell
//!   of the mover's on the mover's own rows (a zugzwang threat the opponent would
//!   block at once) comes last in windows about late wins, where zugzwang decides
//!   (`Tuned::ZUGZWANG_WINDOW`), and the center first. Far from the end (fewer
//!   than 16 stones on 7x6) in those windows, each move also counts its
//!   [`Potential`]: the fours through its cell that are still open, for the
//!   mover (to build) and for the opponent (to block), weighted by the stones
//!   already in them. Near the root a wrong first move costs a whole subtree, and
//!   there few moves create a winning cell: this ordering took 37-41% fewer nodes
//!   on the empty board, 14-18% strong and 22-35% weak on the Begin-Medium and
//!   Begin-Hard sets (step 29 of the research log).
//!   From 16 stones on, in the same windows, the search also learns as it goes
//!   (step 31): when a move fails low, our move in the column where the
//!   opponent refuted it (the child's cutting move, win in two, claimeven move,
//!   transposition cutoff or one safe move) is searched next unless a move
//!   left ranks higher by its threats, since the opponent's stone there often
//!   took the cell both sides needed; and far from the end, a move whose stored
//!   lower bound already reaches alpha (from an earlier window) is searched
//!   first. 5-6% fewer nodes on Begin-Medium,
//!   9-10% on Begin-Hard, 15% on the empty board (step 31 of the research log).
//! * **Parity bounds (Allis' zugzwang rules).** With an even number of empty
//!   cells, the opponent's *claimeven* (answer just above, pair the odd columns)
//!   leaves the player only every other row: if those cells hold no four, the
//!   player cannot win, and a group of the opponent's sure cells wins
//!   (*aftereven*), also when every four of the player's lies above it
//!   ([`claimeven_bound`]). The player's *odd threat* wins by the mirror strategy
//!   when the opponent's cells hold no four ([`odd_threat_bound`]). Both say when
//!   the win comes at the latest, are used at the node and, one ply up, for every
//!   move of the other side ([`claimeven_move`](super::parity::claimeven_move),
//!   [`odd_threat_refuted`](super::parity::odd_threat_refuted)), and are
//!   checked against the reference search on random positions.
//! * **Near table.** Nodes with at most [`NEAR_EMPTY`] (16) empty cells use a
//!   table of their own, [`NEAR_TABLE_MB`] (2) MB of 8-byte entries holding the
//!   whole key, always replaced ([`NearTable`]): it fits in a core's L2 cache, so
//!   the probes of the deepest and most numerous nodes no longer wait on the main
//!   table's memory, and those nodes' results stop crowding out the shallower
//!   nodes' entries. Each search (each thread) has its own; it costs up to 8%
//!   more nodes and saves 2-8% of the time (step 23 of the research log).
//! * **Table.** [`CompactTable`] keeps upper and lower bounds in 4-byte entries,
//!   two per set: the result of the bigger search and the newest other one.
//!   Any other [`Table`] design plugs in (`Tuned<W, H, T>`): its exact scores
//!   answer at once and its replacement policy gets the depth it asks for. A
//!   position and its mirror image share one entry under the smaller of their
//!   keys. The search neither reads nor stores a best move, even in the designs
//!   that keep one: a move that cut in an earlier, lower window is a worse first
//!   move than the ordering's (9% more nodes on the first 200 of `Test_L1_R2`
//!   with the `bounds` table, step 32 of the research log).
//!
//! The per-step measurements are in docs/tuned-solver.md (Step by step) and,
//! from step 17 on, in docs/tuned-solver-steps-17.md.

use std::sync::Arc;

use super::parity::{
    children, claimeven_bound, claimeven_move_with, column, odd_threat_bound,
    odd_threat_bound_with, odd_threat_refuted_with, player_rows,
};
use crate::moves::{MoveSorter, center_first};
use crate::position::Board;
use crate::solver::busy::Busy;
use crate::solver::potential::Potential;
use crate::solver::stop::StopFlag;
use crate::table::{Bound, CompactTable, Hit, SharedTable, Table, TableStats, Wide, work_depth};

/// The near table's design: 8-byte entries holding the whole key, one bound each,
/// always replaced, exact at any size ([`Wide`]); its dirty-group clearing costs
/// a search only what it wrote.
pub type NearTable = SharedTable<Wide>;

/// Nodes with at most this many empty cells probe and store in the [`NearTable`]
/// instead of the main table (26 stones and more on 7x6). Measured on 2026-11-24:
/// 16 and 18 empty cells best (14 slower on Begin-Medium and Begin-Hard, 20 no
/// faster with more nodes).
pub const NEAR_EMPTY: i32 = 16;

/// The near table's size: one core's L2 cache on the machine it was measured on
/// (1 MB took 8% more nodes and was slower, 4 MB slower).
pub const NEAR_TABLE_MB: usize = 2;

/// The tuned solver's state: its table, its node counter and, with `PROFILE`, its
/// [`Profile`] (without it the counting is compiled out).
#[derive(Clone, Debug)]
pub struct Tuned<const W: usize, const H: usize, T = CompactTable, const PROFILE: bool = false> {
    table: T,
    nodes: u64,
    /// Polled every few thousand nodes; see [`StopFlag`].
    stop: StopFlag,
    /// The flag was seen: every node returns at once, storing nothing.
    stopped: bool,
    /// The table's overwrite count when the last search started (with `PROFILE`).
    overwrites0: u64,
    /// Boxed: 1.6 KB that only a profiling search touches.
    profile: Box<Profile>,
    /// The marks of the nodes the threads of this root are searching (`None`: a
    /// search no other thread can join, no marks; see [`Tuned::set_busy`]).
    busy: Option<Arc<Busy>>,
    /// Stones on the board at the root of the current search.
    root_stones: i32,
    /// The table of the nodes near the end (`None` only if its 2 MB could not be
    /// had: the main table then takes every node, as exact, only slower).
    near: Option<NearTable>,
    /// The last node that cut, as (its stones, the move it cut with): a parent
    /// whose move just failed low reads its refutation here (step 31). Stones
    /// -1: none since the parent reset it. A node with one safe move records
    /// nothing: its parent knows that move.
    refutation: (i32, u64),
}

/// The weight of the threat score against the [`Potential`] in the move ordering
/// far from the end: one winning cell created (2 points of the threat score) is
/// worth 16, as much as two fours of the mover's holding one stone each (8 each).
/// 8 measured best of 4 to 64 (step 29; with 64 the threats decide alone and the
/// potential breaks ties: 5% more nodes on the Begin-Medium sample, 7% on
/// Begin-Hard's).
const THREAT_WEIGHT: u32 = 8;

/// Plies below the root where the nodes being searched are marked ([`Busy`]): 16
/// with the eldest brother and the marks read again before each move, measured
/// best of 12 to 40 with two threads on the first 50 of Test_L1_R3 and on the empty
/// board (docs/threads.md).
const BUSY_PLIES: i32 = 16;

/// The parity bounds of a position that its parent already computed (`None`: not
/// computed; `Some(None)`: computed, the rule does not apply).
#[derive(Clone, Copy, Debug, Default)]
struct Known {
    /// [`claimeven_bound`] of the position.
    claimeven: Option<Option<i32>>,
    /// [`odd_threat_bound`] of the position.
    odd_threat: Option<Option<i32>>,
}

/// One null-window search of [`Tuned::search`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Window {
    /// The search asked whether the score is above `med`.
    pub med: i32,
    /// What it answered: `> med` is a lower bound, `<= med` an upper bound.
    pub answer: i32,
    /// Nodes it explored.
    pub nodes: u64,
}

/// Where the tuned search's nodes went: per number of stones on the board, and
/// per null-window search, summed since [`Tuned::reset_profile`], with the use of
/// the table. Counted only by a `Tuned<W, H, T, true>` (a few additions per node,
/// about 3% of the time).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Profile {
    /// Nodes by stones on the board (index 0: the empty board).
    pub nodes_by_stones: [u64; 64],
    /// The table's counters: a hit's cutoff or narrowing is judged against the
    /// node's window when it probed the table (before the table's own bounds).
    pub table: TableStats,
    /// The first [`Profile::MAX_WINDOWS`] null-window searches, in order.
    windows: [Window; Profile::MAX_WINDOWS],
    /// How many null-window searches ran (may exceed `MAX_WINDOWS`).
    window_count: usize,
}

impl Profile {
    /// Null-window searches kept.
    pub const MAX_WINDOWS: usize = 64;

    /// The null-window searches kept, in order.
    pub fn windows(&self) -> &[Window] {
        &self.windows[..self.window_count.min(Self::MAX_WINDOWS)]
    }
}

impl Default for Profile {
    fn default() -> Self {
        Profile {
            nodes_by_stones: [0; 64],
            table: TableStats::default(),
            windows: [Window::default(); Profile::MAX_WINDOWS],
            window_count: 0,
        }
    }
}

/// Playable cells that do not lose at once for the player to move: if the opponent
/// threatens one cell, only that cell (none if they threaten two), and never a cell
/// just below one of the opponent's winning cells.
///
/// Precondition: the player to move cannot win at once (`debug_assert!`ed).
#[inline]
pub fn non_losing_moves<const W: usize, const H: usize>(pos: &Board<W, H>) -> u64 {
    debug_assert!(!pos.can_win_next());
    safe_moves(pos.possible(), pos.opponent_winning_position())
}

/// [`non_losing_moves`] from the playable cells and the opponent's winning cells.
#[inline]
fn safe_moves(mut possible: u64, opponent_win: u64) -> u64 {
    let forced = possible & opponent_win;
    if forced != 0 {
        if forced & (forced - 1) != 0 {
            // Two threats: one cannot block both.
            return 0;
        }
        possible = forced;
    }
    // Playing under an opponent's winning cell lets them play it.
    possible & !(opponent_win >> 1)
}

/// The key of the mirror image of the position whose key is `key`: the key is a
/// sequence of `H + 1`-bit column fields with no carry between them, so mirroring
/// reverses the order of the fields. The same reversal mirrors any bitboard of
/// the position's layout (its `current` or `mask`).
#[inline]
pub const fn mirror_key<const W: usize, const H: usize>(key: u64) -> u64 {
    let field = (1u64 << (H + 1)) - 1;
    let mut m = 0;
    let mut c = 0;
    while c < W {
        m |= ((key >> (c * (H + 1))) & field) << ((W - 1 - c) * (H + 1));
        c += 1;
    }
    m
}

/// For each bit index `i` of the board's layout, the single-bit mirror image of
/// bit `i` (same row, column `W - 1 - c` instead of `c`); 0 past the layout.
const fn mirror_cells<const W: usize, const H: usize>() -> [u64; 64] {
    let mut cells = [0; 64];
    let mut i = 0;
    while i < W * (H + 1) {
        cells[i] = mirror_key::<W, H>(1 << i);
        i += 1;
    }
    cells
}

impl<const W: usize, const H: usize, T: Table, const PROFILE: bool> Tuned<W, H, T, PROFILE> {
    const ORDER: [usize; W] = center_first::<W>();
    /// [`mirror_cells`] of this board.
    const MIRROR_CELL: [u64; 64] = mirror_cells::<W, H>();
    const CELLS: i32 = (W * H) as i32;
    /// Enhanced transposition cutoffs are tried at nodes with fewer stones than this
    /// (more than 8 empty cells). 34 on 7x6: since forced nodes step through (step
    /// 27), 5-6% fewer nodes than 30 in the same time (step 28 of the research log).
    const ETC_BELOW: i32 = Self::CELLS - 8;
    /// The largest magnitude of the parity bounds ([`claimeven_bound`],
    /// [`odd_threat_bound`]): a win with `H - 1` cells left above the winning one.
    const PARITY_BOUND: i32 = (H as i32 + 1) / 2;
    /// Windows `(alpha, alpha + 1)` with `|alpha|` below this ask about a win late
    /// in the game, where zugzwang decides; the move ordering's zugzwang rule (a
    /// move under a winning cell of the mover's own on the mover's rows comes last
    /// among its ties) applies only in them. A seventh of the cells: 6 on 7x6, where
    /// it was measured (5 and 6 best of 2 to 9; without the limit, Begin-Easy took
    /// 16% more nodes).
    const ZUGZWANG_WINDOW: i32 = Self::CELLS / 7;
    /// Nodes with fewer stones than this order their moves by threats and
    /// [`Potential`] (step 29): three eighths of the cells, 16 on 7x6, where it was
    /// measured (14 and 18 within 2.5% of 16 on the Begin samples, 20 4-5% more
    /// nodes; with an earlier weighting, 24 and every node 5-17% more).
    const POTENTIAL_BELOW: i32 = (3 * Self::CELLS + 7) / 8;
    /// Nodes with at least this many stones use the near table.
    const NEAR_FROM: i32 = Self::CELLS - NEAR_EMPTY;

    /// A solver using `table` for the nodes with more than [`NEAR_EMPTY`] empty
    /// cells, and a [`NearTable`] of its own for the others.
    pub fn new(table: T) -> Self {
        Tuned {
            table,
            nodes: 0,
            stop: StopFlag::new(),
            stopped: false,
            overwrites0: 0,
            profile: Box::default(),
            busy: None,
            root_stones: 0,
            near: NearTable::for_board::<W, H>(NEAR_TABLE_MB).ok(),
            refutation: (-1, 0),
        }
    }

    /// Makes this search one of several threads on one root (Lazy SMP over a shared
    /// table): while a helper is in ([`Busy::shared`]), in the first `BUSY_PLIES`
    /// (16) plies below the root it marks the nodes it is searching in `busy`, and
    /// searches last the children another thread has marked (but never a node's
    /// first move: ABDADA's eldest brother), including a child another thread
    /// entered after the moves were ordered, so that threads sharing one table
    /// spread over different subtrees instead of racing through the same ones. The
    /// score is unchanged (every move is still searched unless one cuts); only the
    /// order, so the nodes, may differ. Alone on a root it neither marks nor reads
    /// marks: it explores exactly the nodes of a search without, at its speed.
    pub fn set_busy(&mut self, busy: Arc<Busy>) {
        self.busy = Some(busy);
    }

    /// Makes the search poll `flag` (every [`crate::solver::stop::POLL_INTERVAL`]
    /// nodes) and stop when it is set.
    pub fn set_stop_flag(&mut self, flag: StopFlag) {
        self.stop = flag;
    }

    /// Whether the last [`Tuned::search`] was stopped by its flag: its score is then
    /// meaningless (the table holds only what was proved before the stop).
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Where the nodes went since the last [`Tuned::reset_profile`].
    pub fn profile(&self) -> &Profile {
        &self.profile
    }

    /// Starts a new [`Profile`].
    pub fn reset_profile(&mut self) {
        *self.profile = Profile::default();
    }

    /// The table.
    pub fn table(&self) -> &T {
        &self.table
    }

    /// Empties the tables.
    pub fn clear(&mut self) {
        self.table.clear();
        self.clear_near();
    }

    /// Faults the memory of both tables in now ([`Table::prefault`]).
    pub fn prefault(&mut self) {
        self.table.prefault();
        if let Some(near) = &mut self.near {
            near.prefault();
        }
    }

    /// Empties the near table only (the main table, shared with other threads,
    /// is theirs to clear).
    pub(crate) fn clear_near(&mut self) {
        if let Some(near) = &mut self.near {
            near.clear();
        }
    }

    /// Starts a new root position while keeping the table (ages its entries).
    pub fn new_search(&mut self) {
        self.table.new_search();
    }

    /// Whether a position with `n` stones belongs in the near table.
    #[inline]
    const fn is_near(n: i32) -> bool {
        n >= Self::NEAR_FROM
    }

    /// The near table, if a position with `n` stones belongs in it.
    #[inline(always)]
    fn near(&mut self, n: i32) -> Option<&mut NearTable> {
        self.near.as_mut().filter(|_| Self::is_near(n))
    }

    /// Probes the table of a position with `n` stones (the near table or the main
    /// one) for `key`.
    #[inline(always)]
    fn probe_table(&mut self, n: i32, key: u64) -> Option<Hit> {
        match self.near(n) {
            Some(near) => near.probe(key),
            None => self.table.probe(key),
        }
    }

    /// The stored bound of a move's score, from the point of view of the node
    /// with `n` stones that plays it: its child's bound (key `child_key`) negated,
    /// or, when the child has one safe reply (`forced_key`, the key of that
    /// reply's position; 0 if none), the grandchild's bound as it is (the forced
    /// child is never stored, and two negations cancel).
    #[inline(always)]
    fn move_bound(&mut self, n: i32, child_key: u64, forced_key: u64) -> Option<(i32, Bound)> {
        if forced_key != 0 {
            return self
                .probe_table(n + 2, forced_key)
                .map(|h| (h.score, h.bound));
        }
        self.probe_table(n + 1, child_key).map(|h| {
            let bound = match h.bound {
                Bound::Lower => Bound::Upper,
                Bound::Upper => Bound::Lower,
                Bound::Exact => Bound::Exact,
            };
            (-h.score, bound)
        })
    }

    /// Asks for the slot of a position with `n` stones and key `key`.
    #[inline]
    fn prefetch(&self, n: i32, key: u64) {
        match &self.near {
            Some(near) if Self::is_near(n) => near.prefetch(key),
            _ => self.table.prefetch(key),
        }
    }

    /// Probes the table for `key`, a position with `n` stones, at a node whose
    /// window is `(alpha, beta)`, counting the probe with `PROFILE`.
    #[inline(always)]
    fn probe(&mut self, n: i32, key: u64, alpha: i32, beta: i32) -> Option<Hit> {
        let hit = self.probe_table(n, key);
        if PROFILE {
            let t = &mut self.profile.table;
            t.probes += 1;
            if let Some(h) = hit {
                t.hits += 1;
                match h.bound {
                    Bound::Exact => t.cut_exact += 1,
                    Bound::Lower if h.score >= beta => t.cut_lower += 1,
                    Bound::Lower if h.score > alpha => t.narrow_alpha += 1,
                    Bound::Upper if h.score <= alpha => t.cut_upper += 1,
                    Bound::Upper if h.score < beta => t.narrow_beta += 1,
                    _ => {}
                }
            }
        }
        hit
    }

    /// Stores a bound of a position with `n` stones, with no best move (the search
    /// reads none, see the module's doc), counting the store with `PROFILE`.
    #[inline(always)]
    fn store(&mut self, n: i32, key: u64, score: i32, bound: Bound, depth: u8) {
        if PROFILE {
            self.profile.table.stores += 1;
        }
        match self.near(n) {
            Some(near) => near.store(key, score, bound, None, depth),
            None => self.table.store(key, score, bound, None, depth),
        }
    }

    /// The table counters since the last [`Tuned::reset_profile`], with the table's
    /// occupancy now (`None` without `PROFILE`).
    pub fn stats(&self) -> Option<TableStats> {
        PROFILE.then(|| TableStats {
            hashfull: u64::from(self.table.hashfull()),
            overwrites: self.table.overwrites() - self.overwrites0,
            searches: 1,
            ..self.profile.table
        })
    }

    /// Whether another thread is searching the child that move `mv` leads to now
    /// (`children`: the moves and their children's keys).
    #[inline]
    fn entered(&self, mv: u64, children: &[(u64, u64)]) -> bool {
        let key = children.iter().find(|c| c.0 == mv).map_or(0, |c| c.1);
        key != 0 && self.busy.as_deref().is_some_and(|b| b.is_busy(key))
    }

    /// The move that `negamax` searches first among `next` (without marks): the
    /// best by the move ordering.
    fn first_move(
        pos: &Board<W, H>,
        next: u64,
        wins_after: &[u64; W],
        own_rows: u64,
        potential: bool,
    ) -> u64 {
        // The highest score; among ties the last in reverse order, as the sorter.
        let mut first = (0, 0);
        for &col in Self::ORDER.iter().rev() {
            let mv = next & Board::<W, H>::column_mask(col);
            if mv != 0 {
                let score = Self::order_score(pos, mv, wins_after[col], own_rows, potential);
                if score >= first.1 {
                    first = (mv, score);
                }
            }
        }
        first.0
    }

    /// The move ordering's score of move `mv`, after which the mover's winning cells
    /// are `wins`, at least 1: each winning cell the move creates counts 2; the move
    /// counts 1 more unless it is played just under a winning cell of its own on
    /// `own_rows` (a zugzwang threat the opponent would then block at once).
    #[inline]
    fn move_score(mv: u64, wins: u64, own_rows: u64) -> u32 {
        let wasted = (mv << 1) & wins & own_rows != 0;
        2 * wins.count_ones() + u32::from(!wasted) + 1
    }

    /// The move ordering's score of move `mv` of `pos` (at least 1): with
    /// `potential`, the threat score of [`Self::move_score`] times [`THREAT_WEIGHT`]
    /// plus the move's [`Potential`] (the open fours through its cell), else the
    /// threat score alone.
    #[inline]
    fn order_score(pos: &Board<W, H>, mv: u64, wins: u64, own_rows: u64, potential: bool) -> u32 {
        let threats = Self::move_score(mv, wins, own_rows);
        if potential {
            let own = pos.current();
            THREAT_WEIGHT * threats + Potential::<W, H>::of(mv, own, own ^ pos.mask())
        } else {
            threats
        }
    }

    /// A node with `n` stones and key `key` whose search started at node count
    /// `nodes0` cuts with move `mv`, worth at least `score`: stores the lower bound,
    /// records `mv` as the refutation its parent may read (step 31), and returns
    /// `score`.
    #[inline(always)]
    fn cut(&mut self, n: i32, key: u64, score: i32, mv: u64, nodes0: u64) -> i32 {
        let depth = self.depth(n, nodes0);
        self.store(n, key, score, Bound::Lower, depth);
        self.refutation = (n, mv);
        score
    }

    /// Frees this node's mark if [`Busy::enter`] set it (`marked`).
    #[inline(always)]
    fn leave(&self, marked: bool, key: u64) {
        if marked && let Some(b) = &self.busy {
            b.leave(key);
        }
    }

    /// What `depth` the table wants for an entry of a position with `n` stones whose
    /// search started when the node counter was `nodes0`.
    #[inline]
    fn depth(&self, n: i32, nodes0: u64) -> u8 {
        if T::DEPTH_IS_WORK {
            work_depth(self.nodes - nodes0)
        } else {
            (Self::CELLS - n) as u8
        }
    }

    /// Solves `pos` within `[alpha, beta]` and returns the score (clamped into the
    /// window) with the number of nodes explored.
    ///
    /// Preconditions: nobody has won yet (parsing guarantees it) and `alpha < beta`.
    pub fn search(&mut self, pos: &Board<W, H>, alpha: i32, beta: i32) -> (i32, u64) {
        debug_assert!(alpha < beta);
        self.nodes = 0;
        self.stopped = false;
        if PROFILE {
            // The table counters are per search; the rest of the profile adds up.
            self.profile.table = TableStats::default();
            self.overwrites0 = self.table.overwrites();
        }
        let n = pos.moves_played() as i32;
        self.root_stones = n;
        if pos.can_win_next() {
            return (pos.win_next_score().clamp(alpha, beta), 0);
        }
        let their_wins = pos.opponent_winning_position();
        // The score lies in [min, max]; shrink the interval with null windows.
        let mut min = (-(Self::CELLS - n) / 2).max(alpha);
        let mut max = ((Self::CELLS + 1 - n) / 2).min(beta);
        let mut windows = 0;
        // Whether the last window asked at 0, and the window after it.
        let (mut after_zero, mut next_to_zero) = (false, false);
        // Whether a window asked at 0 (then the score is likely near 0).
        let mut asked_zero = false;
        while min < max {
            let mut med = min + (max - min) / 2;
            if after_zero && (min == 1 || max == 0) {
                // The window at 0 said the score is 1 or more (0 or less), and no
                // more: ask next to 0 first. A score of 1 (a win with the last
                // stone, the empty board's) or 0 then takes no more windows; the
                // usual halving would first prove the expensive bounds 3 and 2,
                // each about as hard as 1 itself when the score is 1.
                med = if min == 1 { 1 } else { -1 };
                next_to_zero = true;
            } else if asked_zero && (min >= 1 || max <= 0) {
                // The sign is known: walk outward from the bound nearest 0,
                // skipping `(max - min) / 5` scores (one while `max - min` is 5 to
                // 9, none below 5: score by score). Halving would first prove a far
                // bound (say "at most 5" when the score is 3), which costs about as
                // much as the bound the score needs.
                let step = (max - min) / 5;
                med = if min >= 1 { min + step } else { max - 1 - step };
            } else if windows >= 2 && min < 0 && max > 0 {
                // Two windows left 0 inside: the score is likely near it, where the
                // claimeven and odd-threat bounds (0, -1 and 1) cut the most.
                med = 0;
            } else if med <= 0 && min / 2 < med {
                // Lean toward 0: scores near the middle are the most common.
                med = min / 2;
            } else if med >= 0 && max / 2 > med {
                med = max / 2;
            }
            let before = self.nodes;
            after_zero = med == 0 && !next_to_zero;
            asked_zero |= med == 0;
            let r = self.negamax(pos, med, med + 1, their_wins, Known::default());
            if self.stopped {
                break;
            }
            windows += 1;
            if PROFILE {
                let p = &mut self.profile;
                if let Some(w) = p.windows.get_mut(p.window_count) {
                    *w = Window {
                        med,
                        answer: r,
                        nodes: self.nodes - before,
                    };
                }
                p.window_count += 1;
            }
            if r <= med {
                max = r;
            } else {
                min = r;
            }
        }
        // A fail-high (fail-low) answer may overshoot the window: clamp it.
        (min.clamp(alpha, beta), self.nodes)
    }

    /// Negamax with alpha-beta, the table and the loss anticipation.
    ///
    /// Preconditions: nobody has won, the player to move cannot win at once,
    /// `alpha < beta`, `their_wins` is `pos.opponent_winning_position()` (the
    /// parent computed it for its move ordering), and `known` holds parity bounds
    /// of `pos` only if they are its own (all `debug_assert!`ed).
    ///
    /// Returns the exact score if it lies in `(alpha, beta)`; a value `<= alpha` is an
    /// upper bound of the true score (fail low), a value `>= beta` a lower bound
    /// (fail high). Fail-soft: both are the tightest bounds the search met, not
    /// alpha or beta themselves (a node whose every move fails low answers the best
    /// of their bounds, often below alpha), so that the next window at the root and
    /// the table's entries learn as much as the search proved.
    fn negamax(
        &mut self,
        pos: &Board<W, H>,
        mut alpha: i32,
        mut beta: i32,
        their_wins: u64,
        known: Known,
    ) -> i32 {
        debug_assert!(alpha < beta);
        debug_assert!(known.claimeven.is_none_or(|b| b == claimeven_bound(pos)));
        debug_assert!(known.odd_threat.is_none_or(|b| b == odd_threat_bound(pos)));
        debug_assert!(!pos.can_win_next());
        debug_assert_eq!(their_wins, pos.opponent_winning_position());
        let nodes0 = self.nodes;
        self.nodes += 1;
        if self.stop.poll(self.nodes) {
            // Unwind: every parent checks `stopped` before using a child's score.
            self.stopped = true;
            return 0;
        }
        let n = pos.moves_played() as i32;
        if PROFILE {
            self.profile.nodes_by_stones[n as usize] += 1;
        }

        let mut next = safe_moves(pos.possible(), their_wins);
        // No safe move: the opponent wins with their next stone.
        if next == 0 {
            return -(Self::CELLS - n) / 2;
        }
        // Two cells left and neither side can win with them: a draw.
        if n >= Self::CELLS - 2 {
            return 0;
        }

        // We do not lose at once, so we lose at best with the opponent's stone after next.
        let min = -(Self::CELLS - 2 - n) / 2;
        if alpha < min {
            alpha = min;
            if alpha >= beta {
                return alpha;
            }
        }

        // One safe move (we must block the opponent's winning cell, or every other
        // move plays under one): the node's score is its child's, negated. The
        // node is neither probed nor stored, and it makes none of the cut tests
        // below: its child makes its own. Its parent asked for the child's slot
        // and, far from the end, tried its transposition cutoff (`move_bound`).
        // It records no refutation: its parent knows the move (step 31).
        if next & (next - 1) == 0 {
            let mut child = *pos;
            child.play_move_unchecked(next);
            let ours = child.opponent_winning_position();
            // The opponent has no safe reply: we win with our stone after next.
            if safe_moves(child.possible(), ours) == 0 {
                return (Self::CELLS - 1 - n) / 2;
            }
            return -self.negamax(&child, -beta, -alpha, ours, Known::default());
        }

        // The mirror image's stones and mask: a child's mirror key follows from them
        // and the mirror of its move, as its key follows from ours (`Board::key`).
        let mirror_current = mirror_key::<W, H>(pos.current());
        let mirror_mask = mirror_key::<W, H>(pos.mask());
        // A position and its mirror image share one entry, under the smaller key.
        let key = pos.key().min(mirror_current + mirror_mask);
        // The table first: the parent asked for its slot, and a bound that settles
        // the node spares the children's keys and the parity rules below. A stored
        // best move is not read (see the module's doc: the ordering does better).
        if let Some(Hit { score, bound, .. }) = self.probe(n, key, alpha, beta) {
            if bound != Bound::Upper && score > alpha {
                alpha = score;
                // The table's lower bound already reaches beta.
                if alpha >= beta {
                    return alpha;
                }
            }
            if bound != Bound::Lower && score < beta {
                beta = score;
                // No need to look for more than we can get.
                if alpha >= beta {
                    return beta;
                }
            }
        }

        // Ask for the children's slots now: their loads overlap with this node's.
        // Their keys are kept for the transposition cutoffs below, and the cells
        // where we would then complete four for the move ordering. A child with
        // one safe reply is never stored (see above): its only child's slot is
        // asked for instead, and its key kept in `forced_keys` (0: not forced).
        let mut child_keys = [(0u64, 0u64); W];
        let mut forced_keys = [0u64; W];
        // The one safe reply after each move (by column; 0: none or several).
        let mut forced_replies = [0u64; W];
        // Our winning cells after each move (by column): the child's opponent's.
        let mut wins_after = [0u64; W];
        let mut child_count = 0;
        // The moves that leave the opponent no safe reply.
        let mut wins_in_two = 0;
        for (mv, child) in children(pos, next) {
            let child_mirror = (mirror_current ^ mirror_mask)
                + (mirror_mask | Self::MIRROR_CELL[mv.trailing_zeros() as usize]);
            debug_assert_eq!(child_mirror, mirror_key::<W, H>(child.key()));
            let child_key = child.key().min(child_mirror);
            let ours = child.opponent_winning_position();
            let replies = safe_moves(child.possible(), ours);
            if replies != 0 && replies & (replies - 1) == 0 {
                let mut grandchild = child;
                grandchild.play_move_unchecked(replies);
                let k = grandchild.key();
                let k = k.min(mirror_key::<W, H>(k));
                self.prefetch(n + 2, k);
                forced_keys[child_count] = k;
                forced_replies[column::<W, H>(mv)] = replies;
            } else {
                self.prefetch(n + 1, child_key);
            }
            child_keys[child_count] = (mv, child_key);
            child_count += 1;
            wins_after[column::<W, H>(mv)] = ours;
            // The opponent has no safe reply: we win with our stone after next.
            wins_in_two |= mv & u64::from(replies == 0).wrapping_neg();
        }
        // We cannot win at once, so we win at best with our stone after next, and
        // when no move leaves the opponent without a safe reply, a stone later.
        let win_in_two = (Self::CELLS - 1 - n) / 2;
        if wins_in_two != 0 {
            self.refutation = (n, wins_in_two & wins_in_two.wrapping_neg());
            return win_in_two;
        }
        let max = win_in_two - 1;

        if beta > max {
            beta = max;
            // No need to look for more than we can get.
            if alpha >= beta {
                return beta;
            }
        }

        // Our odd threat may win by zugzwang (a bound of 1 to PARITY_BOUND, useless
        // unless alpha is below it). Asked after the table, which often settles the
        // node without it.
        if alpha < Self::PARITY_BOUND
            && let Some(bound) = known
                .odd_threat
                .unwrap_or_else(|| odd_threat_bound_with(pos, pos.winning_position()))
            && bound > alpha
        {
            alpha = bound;
            if alpha >= beta {
                return alpha;
            }
        }
        // The opponent's claimeven may show that we cannot win (a bound of 0 to
        // -PARITY_BOUND, useless unless beta is above it).
        if beta > -Self::PARITY_BOUND
            && let Some(bound) = known.claimeven.unwrap_or_else(|| claimeven_bound(pos))
            && bound < beta
        {
            beta = bound;
            if alpha >= beta {
                return beta;
            }
        }

        // A move after which the opponent's claimeven bound already reaches beta (it
        // guarantees 0 to PARITY_BOUND).
        // With an odd number of empty cells, the children's claimeven and odd-threat
        // bounds are computed here: they are passed on to the children searched.
        let odd_empties = (Self::CELLS - n) % 2 == 1;
        let mut child_claimeven = [None; W];
        let claimeven_known = odd_empties && beta <= Self::PARITY_BOUND;
        if claimeven_known
            && let Some((mv, score)) = claimeven_move_with(pos, next, &mut child_claimeven)
            && score >= beta
        {
            return self.cut(n, key, score, mv, nodes0);
        }

        // Moves after which our opponent wins by their odd threat so soon that they
        // cannot raise alpha: leave them out.
        let mut child_odd_threat = [None; W];
        let odd_threat_known = odd_empties && alpha >= -Self::PARITY_BOUND;
        // The best value the moves left out may have (`i32::MIN`: none left out).
        let mut left_out = i32::MIN;
        if odd_threat_known {
            let (refuted, best) =
                odd_threat_refuted_with(pos, next, alpha, their_wins, &mut child_odd_threat);
            next &= !refuted;
            left_out = best;
            if next == 0 {
                let depth = self.depth(n, nodes0);
                self.store(n, key, best, Bound::Upper, depth);
                return best;
            }
        }

        // Enhanced transposition cutoff: a move whose stored lower bound `l` (see
        // `move_bound`) reaches beta refutes this node without a search; a move
        // whose stored upper bound `u` is at most alpha cannot raise it and is left
        // out. Only worth their probes far from the end, where a search costs more
        // than W probes. A move whose stored lower bound is at least alpha (it
        // reached alpha in an earlier window, short of beta) is searched first.
        let mut promising = (0, alpha - 1);
        if n < Self::ETC_BELOW {
            for (&(mv, child_key), &forced_key) in
                child_keys[..child_count].iter().zip(&forced_keys)
            {
                if mv & next == 0 {
                    continue;
                }
                match self.move_bound(n, child_key, forced_key) {
                    Some((l, Bound::Lower | Bound::Exact)) if l >= beta => {
                        return self.cut(n, key, l, mv, nodes0);
                    }
                    Some((u, Bound::Upper)) if u <= alpha => {
                        next &= !mv;
                        left_out = left_out.max(u);
                    }
                    Some((l, Bound::Lower | Bound::Exact)) if l > promising.1 => {
                        promising = (mv, l);
                    }
                    _ => {}
                }
            }
            // Every move is worth at most `left_out` (<= alpha).
            if next == 0 {
                let depth = self.depth(n, nodes0);
                self.store(n, key, left_out, Bound::Upper, depth);
                return left_out;
            }
        }

        // The rows where the mover's threats win by zugzwang (see `parity`): the
        // player's rows with an even number of empty cells, the others with an odd;
        // none when the window asks about a win too early for zugzwang to decide.
        let own_rows = if alpha.abs() >= Self::ZUGZWANG_WINDOW {
            0
        } else if (Self::CELLS - n) % 2 == 0 {
            player_rows::<W, H>()
        } else {
            Board::<W, H>::BOARD_MASK & !player_rows::<W, H>()
        };
        // Far from the end, in a window about a late win, the open fours through
        // each move's cell order the moves too (step 29). A window asking for an
        // early win is settled by short lines, where the threats order well and
        // the potential would only cost time (Begin-Easy's windows are all such).
        let potential = n < Self::POTENTIAL_BELOW && alpha.abs() < Self::ZUGZWANG_WINDOW;
        // Near the root, with other threads on it: the children they are searching now.
        let ply = n - self.root_stones;
        let busy = self
            .busy
            .as_deref()
            .filter(|b| ply < BUSY_PLIES && b.shared());
        let mut busy_children = 0;
        if let Some(b) = busy
            && ply + 1 < BUSY_PLIES
        {
            for &(mv, child_key) in &child_keys[..child_count] {
                if mv & next != 0 && b.is_busy(child_key) {
                    busy_children |= mv;
                }
            }
        }
        // The first move is searched even if another thread is in it (ABDADA's
        // eldest brother): where it alone refutes the window, a thread that went to
        // its siblings instead would do work nobody needs; in it, the threads split
        // its subtree. Measured (docs/threads.md): two threads on Begin-Hard and
        // Begin-Medium explore 5-8% fewer nodes than when the first move is
        // deferred in the first 4 plies, the empty board 15-20% more.
        if busy_children != 0 {
            busy_children &= !Self::first_move(pos, next, &wins_after, own_rows, potential);
        }
        let mut moves = MoveSorter::<W>::new();
        // Added in reverse order so that among ties the center comes out first.
        for &col in Self::ORDER.iter().rev() {
            let mv = next & Board::<W, H>::column_mask(col);
            if mv != 0 {
                // A child another thread is searching comes last: it scores 0,
                // every other move at least 1 (the same order among them).
                let free = busy_children & mv == 0;
                moves.add(
                    mv,
                    Self::order_score(pos, mv, wins_after[col], own_rows, potential)
                        * u32::from(free),
                );
            }
        }

        // A move that reached alpha in an earlier window first (see the cutoffs
        // above).
        if promising.0 & next != 0 {
            moves.promote(promising.0);
        }
        // Mark this node for the other threads while its moves are searched.
        let marked = busy.is_some_and(|b| b.enter(key));
        // Moves after the first whose child another thread entered since the moves
        // were ordered are put off until the others are searched.
        let recheck = busy.is_some() && ply + 1 < BUSY_PLIES;
        let mut put_off = [0u64; W];
        let (mut n_put_off, mut taken_up) = (0, 0);
        let mut first = true;
        // Refutations (step 31): in a window about a late win, from 16 stones on
        // (where the potential no longer orders the moves), when a move fails low
        // our move in the column where the opponent refuted it comes next among
        // the moves of the best threat score left. The opponent's refuting stone
        // often took the cell that mattered, to both.
        let refutations = n >= Self::POTENTIAL_BELOW && alpha.abs() < Self::ZUGZWANG_WINDOW;
        // The best score met (fail-soft): every move searched or left out is worth
        // at most this (a move that loses at once, never searched, is worth less
        // than any safe one), so it bounds the node from above, often below alpha.
        let mut upper = left_out;
        loop {
            let mv = match moves.next() {
                Some(mv) => {
                    if recheck && !first && self.entered(mv, &child_keys[..child_count]) {
                        put_off[n_put_off] = mv;
                        n_put_off += 1;
                        continue;
                    }
                    mv
                }
                None if taken_up < n_put_off => {
                    taken_up += 1;
                    put_off[taken_up - 1]
                }
                None => break,
            };
            first = false;
            let mut child = *pos;
            child.play_move_unchecked(mv);
            let col = column::<W, H>(mv);
            let known = Known {
                claimeven: claimeven_known.then_some(child_claimeven[col]),
                odd_threat: odd_threat_known.then_some(child_odd_threat[col]),
            };
            self.refutation.0 = -1;
            let score = -self.negamax(&child, -beta, -alpha, wins_after[col], known);
            if self.stopped {
                self.leave(marked, key);
                return 0;
            }
            // A move at least as good as beta: the opponent will avoid this line.
            if score >= beta {
                self.leave(marked, key);
                return self.cut(n, key, score, mv, nodes0);
            }
            // The move failed low: our move where the opponent refuted it next,
            // unless a move left ranks higher by its threats (a tie is broken).
            if refutations {
                // A child with one safe reply is refuted by it (it records nothing).
                let refutation = if forced_replies[col] != 0 {
                    forced_replies[col]
                } else if self.refutation.0 == n + 1 {
                    self.refutation.1
                } else {
                    0
                };
                if refutation != 0 {
                    let c = column::<W, H>(refutation);
                    if c != col {
                        moves.promote_among_best(next & Board::<W, H>::column_mask(c));
                    }
                }
            }
            // Narrow the window for the next moves.
            if score > alpha {
                alpha = score;
            }
            upper = upper.max(score);
        }
        self.leave(marked, key);
        debug_assert!(upper <= alpha);
        let depth = self.depth(n, nodes0);
        // Every move failed low: a later window (or a transposition) can use the
        // tighter bound.
        self.store(n, key, upper, Bound::Upper, depth);
        upper
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    #[test]
    fn mirror_key_is_the_mirror_positions_key() {
        for moves in [
            "",
            "1",
            "4453",
            "1234567",
            "7654321",
            "112233",
            "44455554221",
        ] {
            let p = Position::parse(moves).unwrap();
            assert_eq!(mirror_key::<7, 6>(p.key()), p.mirror().key(), "{moves}");
            assert_eq!(mirror_key::<7, 6>(mirror_key::<7, 6>(p.key())), p.key());
        }
    }

    /// A table that knows nothing useful and answers every probe with a column far
    /// outside the board.
    #[derive(Clone, Debug)]
    struct Corrupt;

    impl Table for Corrupt {
        fn probe(&mut self, _key: u64) -> Option<Hit> {
            Some(Hit {
                score: 100,
                bound: Bound::Upper,
                best: Some(200),
            })
        }
        fn store(&mut self, _: u64, _: i32, _: Bound, _: Option<u8>, _: u8) {}
        fn clear(&mut self) {}
        fn hashfull(&self) -> u32 {
            0
        }
    }

    #[test]
    fn a_stored_column_outside_the_board_is_ignored() {
        // Regression: `W - 1 - c` was computed for a mirrored key before `c < W`
        // was checked (an overflow in debug builds). Since step 32 the search reads
        // no stored column at all: a table answering garbage columns must still
        // change no score.
        let mut corrupt = Tuned::<7, 6, Corrupt>::new(Corrupt);
        let mut good = Tuned::<7, 6>::new(CompactTable::for_board::<7, 6>(64).unwrap());
        for moves in [
            "44455554221",
            "7422341735647741166133573473242566",
            "3535657324111",
        ] {
            let p = Position::parse(moves).unwrap();
            assert!(mirror_key::<7, 6>(p.key()) != p.key());
            good.clear();
            assert_eq!(corrupt.search(&p, -21, 21).0, good.search(&p, -21, 21).0);
        }
    }

    #[test]
    fn the_near_table_changes_no_score() {
        // With and without the near table (as when its 2 MB cannot be had): the
        // same scores; and different node counts on some position show that the
        // near table is really used.
        let table = || CompactTable::for_board::<7, 6>(64).unwrap();
        let mut with = Tuned::<7, 6>::new(table());
        let mut without = Tuned::<7, 6>::new(table());
        without.near = None;
        assert!(with.near.is_some());
        let mut differ = false;
        for moves in [
            "44455554221",
            "3535657324111",
            "2252576253462244111563365343671351441",
            "7422341735647741166133573473242566",
            "32751571231557",
            "335662333565",
        ] {
            let p = Position::parse(moves).unwrap();
            with.clear();
            without.clear();
            let (a, na) = with.search(&p, -21, 21);
            let (b, nb) = without.search(&p, -21, 21);
            assert_eq!(a, b, "{moves}");
            differ |= na != nb;
        }
        assert!(differ, "the near table was never used");
    }

    #[test]
    fn non_losing_moves_block_and_avoid() {
        // x threatens 4 in row 1 (cells 1-3 taken, 4 free): o must block at column 4.
        let p = Position::parse("112233").unwrap();
        assert!(p.can_win_next());
        let p = Position::parse("1122335").unwrap(); // o to move, x threatens column 4
        assert_eq!(non_losing_moves(&p), Board::<7, 6>::bottom_mask_col(3));
    }
}
