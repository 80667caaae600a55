//! The tuned search: Pascal Pons' final solver with the improvements that
//! measured faster. Each part is described, with its measurements, in a section
//! of docs/tuned-solver.md; the research log behind them is docs/research/log.md.
//!
//! * [`Tuned::search`] finds the score by null windows `[med, med + 1]` that lean
//!   toward 0 and then walk outward from it (docs/tuned-solver.md#null-windows);
//!   the threads of one root share the bounds they prove, and a helper asks
//!   ahead of the others ([`RootBounds`], docs/threads.md).
//! * `Tuned::negamax` searches one window, in parts that each settle the node or
//!   narrow it for the next, cheapest first:
//!   1. the safe moves ([`non_losing_moves`]; none loses, two cells left draw;
//!      docs/tuned-solver.md#anticipating-losses), and a node with one safe move
//!      only steps to its child (docs/tuned-solver.md#one-safe-move);
//!   2. the table, under the smaller of the position's and its mirror image's keys
//!      (docs/tuned-solver.md#compact-table, #mirror-keys, #near-table);
//!   3. the children's expansion, which asks for their slots early
//!      (docs/tuned-solver.md#prefetch) and finds the wins in two
//!      (docs/tuned-solver.md#wins-in-two);
//!   4. the parity bounds (Allis' zugzwang rules) on the node and one ply down
//!      (docs/tuned-solver.md#parity-bounds);
//!   5. enhanced transposition cutoffs
//!      (docs/tuned-solver.md#enhanced-transposition-cutoffs);
//!   6. the move ordering: threats, the [`Potential`] far from the end, the
//!      threads' marks (docs/tuned-solver.md#move-ordering, #threads);
//!   7. the move loop, which follows the refutations of the moves that fail low
//!      (docs/tuned-solver.md#refutations).
//!
//! The table is any [`Table`] (`Tuned<W, H, T>`); the default is [`CompactTable`].

use std::convert::Infallible;
use std::ops::ControlFlow;
use std::sync::Arc;

use super::parity::{
    children, claimeven_bound, claimeven_move_with, column, odd_threat_bound,
    odd_threat_bound_with, odd_threat_refuted_with, player_rows,
};
use crate::bits::Bits;
use crate::moves::{MoveSorter, center_first};
use crate::position::Board;
use crate::solver::busy::Busy;
use crate::solver::potential::Potential;
use crate::solver::root::RootBounds;
use crate::solver::stop::StopFlag;
use crate::table::{
    Bound, CompactTable, Hit, SharedTable, Table, TableError, TableStats, Wide, work_depth,
};

/// The near table's design: 8-byte entries holding the whole key, one bound each,
/// always replaced, exact at any size ([`Wide`]); its dirty-group clearing costs
/// a search only what it wrote.
pub(crate) type NearTable = SharedTable<Wide>;

/// Nodes with at most this many empty cells probe and store in the [`NearTable`]
/// instead of the main table (26 stones and more on 7x6): 16 and 18 measured best
/// (docs/tuned-solver.md#near-table).
pub(crate) const NEAR_EMPTY: i32 = 16;

/// The near table's size: one core's L2 cache on the machine it was measured on
/// (docs/tuned-solver.md#near-table).
pub(crate) const NEAR_TABLE_MB: usize = 2;

/// The near table's size on the `W`x`H` board: [`NEAR_TABLE_MB`], or on a board of
/// more than 73 bits the least that keeps its partial keys exact (16 MB or more).
pub(crate) fn near_table_mb<const W: usize, const H: usize>() -> usize {
    match NearTable::slots_for(NEAR_TABLE_MB, crate::table::compact::key_bound(W, H)) {
        Err(TableError::TooSmallForKey { min_mb, .. }) => min_mb,
        _ => NEAR_TABLE_MB,
    }
}

/// The tuned solver's state: its table, its node counter and, with `PROFILE`, its
/// `Profile` (without it the counting is compiled out).
#[derive(Clone, Debug)]
pub struct Tuned<
    const W: usize,
    const H: usize,
    B: Bits = u64,
    T = CompactTable,
    const PROFILE: bool = false,
> {
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
    /// The bounds of the root's score that the threads of this root proved
    /// (`None`: a search alone; see [`Tuned::set_root`]).
    root: Option<Arc<RootBounds>>,
    /// Whether this thread may ask ahead of the others (a helper).
    may_go_ahead: bool,
    /// The null window being searched at the root, `[med, med + 1]`.
    med: i32,
    /// The window was given up, answered by another thread: the search goes on.
    given_up: bool,
    /// Stones on the board at the root of the current search.
    root_stones: i32,
    /// The table of the nodes near the end.
    near: NearTable,
    /// The last node that cut, as (its stones, the move it cut with): a parent
    /// whose move just failed low reads its refutation here
    /// (docs/tuned-solver.md#refutations). Stones
    /// -1: none since the parent reset it. A node with one safe move records
    /// nothing: its parent knows that move.
    refutation: (i32, B),
}

/// The weight of the threat score against the [`Potential`] in the move ordering
/// far from the end: one winning cell created (2 points of the threat score) is
/// worth 16, as much as two fours of the mover's holding one stone each (8 each).
/// 8 measured best of 4 to 64 (docs/tuned-solver.md#move-ordering).
const THREAT_WEIGHT: u32 = 8;

/// Plies below the root where the nodes being searched are marked ([`Busy`]): 16
/// measured best of 12 to 40 with two threads (docs/threads.md).
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

/// A node of [`Tuned::negamax`] as the parts of its search narrow it.
#[derive(Clone, Copy, Debug)]
struct Node<B> {
    /// Stones on the board.
    n: i32,
    /// The node counter when its search started (for a table that measures work).
    nodes0: u64,
    /// The table key: the smaller of the position's and its mirror image's.
    key: B,
    /// The window's lower end.
    alpha: i32,
    /// The window's upper end.
    beta: i32,
    /// The moves still to search.
    next: B,
    /// The best value the moves left out of the search may have (`i32::MIN`: none).
    left_out: i32,
    /// The opponent's winning cells (for the move ordering's useful threats).
    their_wins: B,
}

/// What [`Tuned::negamax`] learns of its children while it expands them.
#[derive(Clone, Copy, Debug)]
struct Children<const W: usize, B> {
    /// Each safe move with its child's table key, in the order of [`children`].
    keys: [(B, B); W],
    /// Parallel to `keys`: when the child has one safe reply, the key of the
    /// position after it (its slot is the one asked for); else 0.
    forced_keys: [B; W],
    /// How many entries of `keys` are in use.
    count: usize,
    /// By column: the column of the child's one safe reply, plus one (0: none or
    /// several). A byte each keeps the whole struct within the size the compiler
    /// zeroes with inline stores rather than a call to `memset` at every node.
    forced_replies: [u8; W],
    /// By column: our winning cells after the move (the child's opponent's).
    wins_after: [B; W],
    /// The moves that leave the opponent no safe reply.
    wins_in_two: B,
}

impl<const W: usize, B: Bits> Default for Children<W, B> {
    fn default() -> Self {
        Children {
            keys: [(B::ZERO, B::ZERO); W],
            forced_keys: [B::ZERO; W],
            count: 0,
            forced_replies: [0; W],
            wins_after: [B::ZERO; W],
            wins_in_two: B::ZERO,
        }
    }
}

impl<const W: usize, B: Bits> Children<W, B> {
    /// The moves and their children's keys.
    #[inline(always)]
    fn moves(&self) -> &[(B, B)] {
        &self.keys[..self.count]
    }
}

/// The children's parity bounds that their parent computed (by column).
#[derive(Clone, Copy, Debug)]
struct ChildBounds<const W: usize> {
    /// Whether `claimeven` was computed.
    claimeven_known: bool,
    /// [`claimeven_bound`] of each child.
    claimeven: [Option<i32>; W],
    /// Whether `odd_threat` was computed.
    odd_threat_known: bool,
    /// [`odd_threat_bound`] of each child.
    odd_threat: [Option<i32>; W],
}

impl<const W: usize> Default for ChildBounds<W> {
    fn default() -> Self {
        ChildBounds {
            claimeven_known: false,
            claimeven: [None; W],
            odd_threat_known: false,
            odd_threat: [None; W],
        }
    }
}

impl<const W: usize> ChildBounds<W> {
    /// What the child in column `col` is told of its own bounds.
    #[inline(always)]
    fn of(&self, col: usize) -> Known {
        Known {
            claimeven: self.claimeven_known.then_some(self.claimeven[col]),
            odd_threat: self.odd_threat_known.then_some(self.odd_threat[col]),
        }
    }
}

/// The moves of a node put off because another thread entered their child,
/// handed out in order once the others are searched.
#[derive(Clone, Copy, Debug)]
struct PutOff<const W: usize, B> {
    /// The moves put off.
    moves: [B; W],
    /// How many were put off.
    len: usize,
    /// How many were handed out.
    taken: usize,
}

impl<const W: usize, B: Bits> Default for PutOff<W, B> {
    fn default() -> Self {
        PutOff {
            moves: [B::ZERO; W],
            len: 0,
            taken: 0,
        }
    }
}

impl<const W: usize, B: Bits> PutOff<W, B> {
    /// Puts `mv` off.
    #[inline(always)]
    fn push(&mut self, mv: B) {
        self.moves[self.len] = mv;
        self.len += 1;
    }

    /// The next move put off, if any is left.
    #[inline(always)]
    fn take(&mut self) -> Option<B> {
        (self.taken < self.len).then(|| {
            self.taken += 1;
            self.moves[self.taken - 1]
        })
    }
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
    #[cfg(feature = "research")]
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
#[cfg(test)]
pub(crate) fn non_losing_moves<const W: usize, const H: usize, B: Bits>(pos: &Board<W, H, B>) -> B {
    debug_assert!(!pos.can_win_next());
    safe_moves(pos.possible(), pos.opponent_winning_position())
}

/// [`non_losing_moves`] from the playable cells and the opponent's winning cells.
#[inline]
fn safe_moves<B: Bits>(mut possible: B, opponent_win: B) -> B {
    let forced = possible & opponent_win;
    if forced != B::ZERO {
        if forced.clear_lowest() != B::ZERO {
            // Two threats: one cannot block both.
            return B::ZERO;
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
pub(crate) fn mirror_key<const W: usize, const H: usize, B: Bits>(key: B) -> B {
    let field = B::from_u128((1u128 << (H + 1)) - 1);
    let mut m = B::ZERO;
    for c in 0..W {
        m |= ((key >> (c * (H + 1))) & field) << ((W - 1 - c) * (H + 1));
    }
    m
}

/// [`mirror_key`] of a 128-bit word, at compile time.
const fn mirror_key_128<const W: usize, const H: usize>(key: u128) -> u128 {
    let field = (1u128 << (H + 1)) - 1;
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
const fn mirror_cells<const W: usize, const H: usize>() -> [u128; 128] {
    let mut cells = [0; 128];
    let mut i = 0;
    while i < W * (H + 1) {
        cells[i] = mirror_key_128::<W, H>(1 << i);
        i += 1;
    }
    cells
}

/// [`mirror_cells`] in 64-bit words, for the boards of up to 64 bits (a wider
/// board reads the 128-bit ones).
const fn mirror_cells_64<const W: usize, const H: usize>() -> [u64; 64] {
    let wide = mirror_cells::<W, H>();
    let mut cells = [0; 64];
    let mut i = 0;
    while i < 64 {
        cells[i] = wide[i] as u64;
        i += 1;
    }
    cells
}

impl<const W: usize, const H: usize, B: Bits, T: Table, const PROFILE: bool>
    Tuned<W, H, B, T, PROFILE>
{
    const ORDER: [usize; W] = center_first::<W>();
    /// [`mirror_cells`] of this board.
    const MIRROR_CELL: [u128; 128] = mirror_cells::<W, H>();
    /// [`mirror_cells_64`] of this board.
    const MIRROR_CELL_64: [u64; 64] = mirror_cells_64::<W, H>();
    const CELLS: i32 = (W * H) as i32;
    /// Enhanced transposition cutoffs are tried at nodes with fewer stones than this
    /// (more than 8 empty cells): 34 on 7x6, 5-6% fewer nodes than 30 in the same
    /// time (docs/tuned-solver.md#enhanced-transposition-cutoffs).
    const ETC_BELOW: i32 = Self::CELLS - 8;
    /// The largest magnitude of the parity bounds ([`claimeven_bound`],
    /// [`odd_threat_bound`]): a win with `H - 1` cells left above the winning one.
    const PARITY_BOUND: i32 = (H as i32 + 1) / 2;
    /// Windows `(alpha, alpha + 1)` with `|alpha|` below this ask about a win late
    /// in the game, where zugzwang decides; the move ordering's zugzwang rule (a
    /// move under a winning cell of the mover's own on the mover's rows comes last
    /// among its ties) applies only in them. A seventh of the cells: 6 on 7x6, where
    /// it was measured best (docs/tuned-solver.md#move-ordering).
    const ZUGZWANG_WINDOW: i32 = Self::CELLS / 7;
    /// Nodes with fewer stones than this order their moves by threats and
    /// [`Potential`]: three eighths of the cells, 16 on 7x6, where it was measured
    /// best (docs/tuned-solver.md#potential).
    const POTENTIAL_BELOW: i32 = (3 * Self::CELLS + 7) / 8;
    /// Nodes with at least this many stones use the near table.
    const NEAR_FROM: i32 = Self::CELLS - NEAR_EMPTY;

    /// A solver using `table` for the nodes with more than `NEAR_EMPTY` empty
    /// cells, and a `NearTable` of its own for the others.
    ///
    /// # Errors
    /// The near table (2 MB, more on boards of more than 73 bits) cannot be had.
    pub fn new(table: T) -> Result<Self, TableError> {
        Ok(Tuned {
            table,
            nodes: 0,
            stop: StopFlag::new(),
            stopped: false,
            overwrites0: 0,
            profile: Box::default(),
            busy: None,
            root: None,
            may_go_ahead: false,
            med: 0,
            given_up: false,
            root_stones: 0,
            near: NearTable::for_board::<W, H>(near_table_mb::<W, H>())?,
            refutation: (-1, B::ZERO),
        })
    }

    /// Makes this search one of several threads on one root (Lazy SMP over a shared
    /// table): while a helper is in (`Busy::shared`), in the first `BUSY_PLIES`
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

    /// Makes this search share the bounds of the root's score with the other
    /// threads of its root: each window starts from every thread's bounds, and a
    /// window another thread's answer settled is given up (polled with the stop
    /// flag). A helper (`helper`) may ask the window after 0 while the others ask
    /// at 0 (`crate::solver::root`). Alone, the search asks the windows of a search
    /// without.
    pub(crate) fn set_root(&mut self, root: Arc<RootBounds>, helper: bool) {
        self.root = Some(root);
        self.may_go_ahead = helper;
    }

    /// Whether the search must unwind now: when [`StopFlag::due`], the stop flag,
    /// then whether another thread settled the root's window.
    #[inline(always)]
    fn poll(&mut self) -> bool {
        if !StopFlag::due(self.nodes) {
            return false;
        }
        if self.stop.is_stopped() {
            return true;
        }
        self.given_up = self.root.as_ref().is_some_and(|r| r.settles(self.med));
        self.given_up
    }

    /// Makes the search poll `flag` (every `crate::solver::stop::POLL_INTERVAL`
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
    #[cfg(feature = "research")]
    pub fn profile(&self) -> &Profile {
        &self.profile
    }

    /// Starts a new `Profile`.
    #[cfg(feature = "research")]
    pub fn reset_profile(&mut self) {
        *self.profile = Profile::default();
    }

    /// The table.
    #[cfg(feature = "research")]
    pub fn table(&self) -> &T {
        &self.table
    }

    /// Empties the tables.
    pub fn clear(&mut self) {
        self.table.clear();
        self.clear_near();
    }

    /// Faults the memory of both tables in now (`Table::prefault`).
    pub fn prefault(&mut self) {
        self.table.prefault();
        self.near.prefault();
    }

    /// Empties the near table only (the main table, shared with other threads,
    /// is theirs to clear).
    pub(crate) fn clear_near(&mut self) {
        self.near.clear();
    }

    /// Starts a new root position while keeping the table (ages its entries).
    #[cfg(feature = "research")]
    pub fn new_search(&mut self) {
        self.table.new_search();
    }

    /// The mirror image of the single-bit cell `mv`.
    #[inline(always)]
    fn mirror_cell(mv: B) -> B {
        let i = mv.trailing_zeros() as usize;
        if B::BITS <= 64 {
            B::from_u128(u128::from(Self::MIRROR_CELL_64[i]))
        } else {
            B::from_u128(Self::MIRROR_CELL[i])
        }
    }

    /// Whether a position with `n` stones belongs in the near table.
    #[inline]
    const fn is_near(n: i32) -> bool {
        n >= Self::NEAR_FROM
    }

    /// The near table, if a position with `n` stones belongs in it.
    #[inline(always)]
    fn near(&mut self, n: i32) -> Option<&mut NearTable> {
        Self::is_near(n).then_some(&mut self.near)
    }

    /// Probes the table of a position with `n` stones (the near table or the main
    /// one) for `key`.
    #[inline(always)]
    fn probe_table(&mut self, n: i32, key: B) -> Option<Hit> {
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
    fn move_bound(&mut self, n: i32, child_key: B, forced_key: B) -> Option<(i32, Bound)> {
        if forced_key != B::ZERO {
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
    fn prefetch(&self, n: i32, key: B) {
        if Self::is_near(n) {
            self.near.prefetch(key)
        } else {
            self.table.prefetch(key)
        }
    }

    /// Probes the table for `key`, a position with `n` stones, at a node whose
    /// window is `(alpha, beta)`, counting the probe with `PROFILE`.
    #[inline(always)]
    fn probe(&mut self, n: i32, key: B, alpha: i32, beta: i32) -> Option<Hit> {
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
    fn store(&mut self, n: i32, key: B, score: i32, bound: Bound, depth: u8) {
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
    #[cfg(feature = "research")]
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
    fn entered(&self, mv: B, children: &[(B, B)]) -> bool {
        let key = children.iter().find(|c| c.0 == mv).map_or(B::ZERO, |c| c.1);
        key != B::ZERO && self.busy.as_deref().is_some_and(|b| b.is_busy(key))
    }

    /// The move that `negamax` searches first among `next` (without marks): the
    /// best by the move ordering.
    fn first_move(
        pos: &Board<W, H, B>,
        next: B,
        wins_after: &[B; W],
        their_wins: B,
        own_rows: B,
        potential: bool,
    ) -> B {
        // The highest score; among ties the last in reverse order, as the sorter.
        let mut first = (B::ZERO, 0);
        for &col in Self::ORDER.iter().rev() {
            let mv = next & Board::<W, H, B>::column_mask(col);
            if mv != B::ZERO {
                let score =
                    Self::order_score(pos, mv, wins_after[col], their_wins, own_rows, potential);
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
    fn move_score(mv: B, wins: B, own_rows: B) -> u32 {
        let wasted = (mv << 1) & wins & own_rows != B::ZERO;
        2 * wins.count_ones() + u32::from(!wasted) + 1
    }

    /// The move ordering's score of move `mv` of `pos` (at least 1): with
    /// `potential`, the threat score of [`Self::move_score`] times [`THREAT_WEIGHT`]
    /// plus the move's [`Potential`] (the open fours through its cell), else the
    /// threat score alone. Only the useful winning cells count: not one just above
    /// a winning cell of the opponent's (`their_wins`, before the move), which the
    /// opponent wins on or the mover must block, so that it never wins
    /// (docs/tuned-solver.md#move-ordering).
    #[inline]
    fn order_score(
        pos: &Board<W, H, B>,
        mv: B,
        wins: B,
        their_wins: B,
        own_rows: B,
        potential: bool,
    ) -> u32 {
        let useful = wins & !((their_wins & !mv) << 1);
        let threats = Self::move_score(mv, useful, own_rows);
        if potential {
            let own = pos.current();
            THREAT_WEIGHT * threats + Potential::<W, H>::of(mv, own, own ^ pos.mask())
        } else {
            threats
        }
    }

    /// The node cuts with move `mv`, worth at least `score`: stores the lower
    /// bound, records `mv` as the refutation its parent may read
    /// (docs/tuned-solver.md#refutations), and returns `score`.
    #[inline(always)]
    fn cut(&mut self, node: &Node<B>, score: i32, mv: B) -> i32 {
        let depth = self.depth(node.n, node.nodes0);
        self.store(node.n, node.key, score, Bound::Lower, depth);
        self.refutation = (node.n, mv);
        score
    }

    /// Every move of the node fails low, each worth at most `upper`: stores that
    /// upper bound (a later window or a transposition can use it) and returns it.
    #[inline(always)]
    fn fail_low(&mut self, node: &Node<B>, upper: i32) -> i32 {
        let depth = self.depth(node.n, node.nodes0);
        self.store(node.n, node.key, upper, Bound::Upper, depth);
        upper
    }

    /// Frees this node's mark if [`Busy::enter`] set it (`marked`).
    #[inline(always)]
    fn leave(&self, marked: bool, key: B) {
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
    pub fn search(&mut self, pos: &Board<W, H, B>, alpha: i32, beta: i32) -> (i32, u64) {
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
        // Whether this helper asks ahead on this root (once, at its first window at 0).
        let mut ahead = self.may_go_ahead;
        loop {
            if let Some(r) = &self.root {
                let (a, b) = r.get();
                (min, max) = (min.max(a), max.min(b));
            }
            if min >= max {
                break;
            }
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
            if ahead && med == 0 && max > 1 {
                ahead = false;
                if self.root.as_ref().is_some_and(|r| r.go_ahead()) {
                    // Another thread asks at 0: ask the window it asks next if
                    // the score is above 0, and leave 0 to it.
                    med = 1;
                    asked_zero = true;
                }
            }
            let before = self.nodes;
            after_zero = med == 0 && !next_to_zero;
            asked_zero |= med == 0;
            self.med = med;
            let r = self.negamax(pos, med, med + 1, their_wins, Known::default());
            if self.stopped {
                if std::mem::take(&mut self.given_up) {
                    // Answered by another thread: on with what all of them proved.
                    self.stopped = false;
                    continue;
                }
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
            if let Some(root) = &self.root {
                root.narrow(min, max);
            }
        }
        // A fail-high (fail-low) answer may overshoot the window: clamp it.
        (min.clamp(alpha, beta), self.nodes)
    }

    /// Negamax with alpha-beta, the tables and the loss anticipation: counts the
    /// node, polls the stop flag, then runs the parts of [`Self::settle`].
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
        pos: &Board<W, H, B>,
        alpha: i32,
        beta: i32,
        their_wins: B,
        known: Known,
    ) -> i32 {
        debug_assert!(alpha < beta);
        debug_assert!(known.claimeven.is_none_or(|b| b == claimeven_bound(pos)));
        debug_assert!(known.odd_threat.is_none_or(|b| b == odd_threat_bound(pos)));
        debug_assert!(!pos.can_win_next());
        debug_assert_eq!(their_wins, pos.opponent_winning_position());
        let nodes0 = self.nodes;
        self.nodes += 1;
        if self.poll() {
            // Unwind: every parent checks `stopped` before using a child's score.
            self.stopped = true;
            return 0;
        }
        let n = pos.moves_played() as i32;
        if PROFILE {
            self.profile.nodes_by_stones[n as usize] += 1;
        }
        let node = Node {
            n,
            nodes0,
            key: B::ZERO,
            alpha,
            beta,
            next: B::ZERO,
            left_out: i32::MIN,
            their_wins,
        };
        let ControlFlow::Break(score) = self.settle(pos, node, their_wins, known);
        score
    }

    /// The parts of a node's search, cheapest first: each either settles the node
    /// (`Break` with its score) or narrows its window and its moves for the next.
    #[inline(always)]
    fn settle(
        &mut self,
        pos: &Board<W, H, B>,
        mut node: Node<B>,
        their_wins: B,
        known: Known,
    ) -> ControlFlow<i32, Infallible> {
        Self::immediate_outcomes(pos, &mut node, their_wins)?;
        if node.next & (node.next - B::ONE) == B::ZERO {
            return ControlFlow::Break(self.step_through(pos, &node));
        }
        // The mirror image's stones and mask: a child's mirror key follows from
        // them and the mirror of its move, as its key follows from ours.
        let mirror = (
            mirror_key::<W, H, B>(pos.current()),
            mirror_key::<W, H, B>(pos.mask()),
        );
        // A position and its mirror image share one entry, under the smaller key
        // (docs/tuned-solver.md#mirror-keys).
        node.key = pos.key().min(mirror.0 + mirror.1);
        self.probe_node(&mut node)?;
        // Filled in place by the parts (out-parameters, not values returned: a
        // node copies none of these arrays).
        let mut children = Children::default();
        self.expand(pos, &node, mirror, &mut children);
        self.wins_in_two(&mut node, &children)?;
        Self::parity_bounds(pos, &mut node, known)?;
        let mut child_bounds = ChildBounds::default();
        self.parity_moves(pos, &mut node, their_wins, &mut child_bounds)?;
        let promising = self.transposition_cutoffs(&mut node, &children)?;
        let mut moves = MoveSorter::<W, B>::new();
        let busy = self.order_moves(pos, &node, &children, promising, &mut moves);
        ControlFlow::Break(self.search_moves(
            pos,
            &mut node,
            &children,
            &child_bounds,
            &mut moves,
            busy,
        ))
    }

    /// Finds the safe moves (docs/tuned-solver.md#anticipating-losses) and settles
    /// the node when there is none (the opponent wins next) or when two cells are
    /// left (a draw); else raises alpha to the latest loss still possible.
    #[inline(always)]
    fn immediate_outcomes(
        pos: &Board<W, H, B>,
        node: &mut Node<B>,
        their_wins: B,
    ) -> ControlFlow<i32> {
        let n = node.n;
        node.next = safe_moves(pos.possible(), their_wins);
        // No safe move: the opponent wins with their next stone.
        if node.next == B::ZERO {
            return ControlFlow::Break(-(Self::CELLS - n) / 2);
        }
        // Two cells left and neither side can win with them: a draw.
        if n >= Self::CELLS - 2 {
            return ControlFlow::Break(0);
        }
        // We do not lose at once, so we lose at best with the opponent's stone after next.
        let min = -(Self::CELLS - 2 - n) / 2;
        if node.alpha < min {
            node.alpha = min;
            if node.alpha >= node.beta {
                return ControlFlow::Break(node.alpha);
            }
        }
        ControlFlow::Continue(())
    }

    /// A node with one safe move (`node.next`) is only a step to its child
    /// (docs/tuned-solver.md#one-safe-move): its score is the child's, negated,
    /// with no probe, store or cut test here. Its parent asked for the child's
    /// slot and tried its bounds; it records no refutation (its parent knows the
    /// move).
    #[inline(always)]
    fn step_through(&mut self, pos: &Board<W, H, B>, node: &Node<B>) -> i32 {
        let mut child = *pos;
        child.play_move_unchecked(node.next);
        let ours = child.opponent_winning_position();
        // The opponent has no safe reply: we win with our stone after next.
        if safe_moves(child.possible(), ours) == B::ZERO {
            return (Self::CELLS - 1 - node.n) / 2;
        }
        -self.negamax(&child, -node.beta, -node.alpha, ours, Known::default())
    }

    /// Narrows the window by the node's stored bounds, settling the node when they
    /// meet. First of the rules: the parent asked for this slot, and a bound that
    /// settles the node spares the children's keys and the parity rules. A stored
    /// best move is not read (docs/tuned-solver.md#compact-table).
    #[inline(always)]
    fn probe_node(&mut self, node: &mut Node<B>) -> ControlFlow<i32> {
        if let Some(Hit { score, bound, .. }) = self.probe(node.n, node.key, node.alpha, node.beta)
        {
            if bound != Bound::Upper && score > node.alpha {
                node.alpha = score;
                // The table's lower bound already reaches beta.
                if node.alpha >= node.beta {
                    return ControlFlow::Break(node.alpha);
                }
            }
            if bound != Bound::Lower && score < node.beta {
                node.beta = score;
                // No need to look for more than we can get.
                if node.alpha >= node.beta {
                    return ControlFlow::Break(node.beta);
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// Expands the safe moves: each child's key (kept for the transposition
    /// cutoffs), our winning cells after it (for the ordering and the wins in
    /// two), and its one safe reply if it has only one. Asks for the children's
    /// slots now, so that their loads overlap with this node's work
    /// (docs/tuned-solver.md#prefetch); a child with one safe reply is never
    /// stored, so its only child's slot is asked for instead.
    #[inline(always)]
    fn expand(
        &mut self,
        pos: &Board<W, H, B>,
        node: &Node<B>,
        mirror: (B, B),
        c: &mut Children<W, B>,
    ) {
        let (mirror_current, mirror_mask) = mirror;
        for (mv, child) in children(pos, node.next) {
            let child_mirror =
                (mirror_current ^ mirror_mask) + (mirror_mask | Self::mirror_cell(mv));
            debug_assert_eq!(child_mirror, mirror_key::<W, H, B>(child.key()));
            let child_key = child.key().min(child_mirror);
            let ours = child.opponent_winning_position();
            let replies = safe_moves(child.possible(), ours);
            if replies != B::ZERO && replies & (replies - B::ONE) == B::ZERO {
                let mut grandchild = child;
                grandchild.play_move_unchecked(replies);
                let k = grandchild.key();
                let k = k.min(mirror_key::<W, H, B>(k));
                self.prefetch(node.n + 2, k);
                c.forced_keys[c.count] = k;
                c.forced_replies[column::<W, H, B>(mv)] = column::<W, H, B>(replies) as u8 + 1;
            } else {
                self.prefetch(node.n + 1, child_key);
            }
            c.keys[c.count] = (mv, child_key);
            c.count += 1;
            c.wins_after[column::<W, H, B>(mv)] = ours;
            // The opponent has no safe reply: we win with our stone after next.
            c.wins_in_two |= mv & B::from_u128(u128::from(replies == B::ZERO)).wrapping_neg();
        }
    }

    /// Wins in two (docs/tuned-solver.md#wins-in-two): we cannot win at once, so
    /// we win at best with our stone after next, which a move leaving the opponent
    /// no safe reply does; when no move does, a stone later at best.
    #[inline(always)]
    fn wins_in_two(&mut self, node: &mut Node<B>, children: &Children<W, B>) -> ControlFlow<i32> {
        let win_in_two = (Self::CELLS - 1 - node.n) / 2;
        let wins = children.wins_in_two;
        if wins != B::ZERO {
            self.refutation = (node.n, wins & wins.wrapping_neg());
            return ControlFlow::Break(win_in_two);
        }
        let max = win_in_two - 1;
        if node.beta > max {
            node.beta = max;
            // No need to look for more than we can get.
            if node.alpha >= node.beta {
                return ControlFlow::Break(node.beta);
            }
        }
        ControlFlow::Continue(())
    }

    /// The parity bounds of the node itself (docs/tuned-solver.md#parity-bounds),
    /// asked after the table, which often settles the node without them; `known`
    /// holds those its parent already computed.
    #[inline(always)]
    fn parity_bounds(pos: &Board<W, H, B>, node: &mut Node<B>, known: Known) -> ControlFlow<i32> {
        // Our odd threat may win by zugzwang (a bound of 1 to PARITY_BOUND, useless
        // unless alpha is below it).
        if node.alpha < Self::PARITY_BOUND
            && let Some(bound) = known
                .odd_threat
                .unwrap_or_else(|| odd_threat_bound_with(pos, pos.winning_position()))
            && bound > node.alpha
        {
            node.alpha = bound;
            if node.alpha >= node.beta {
                return ControlFlow::Break(node.alpha);
            }
        }
        // The opponent's claimeven may show that we cannot win (a bound of 0 to
        // -PARITY_BOUND, useless unless beta is above it).
        if node.beta > -Self::PARITY_BOUND
            && let Some(bound) = known.claimeven.unwrap_or_else(|| claimeven_bound(pos))
            && bound < node.beta
        {
            node.beta = bound;
            if node.alpha >= node.beta {
                return ControlFlow::Break(node.beta);
            }
        }
        ControlFlow::Continue(())
    }

    /// The parity bounds one ply down (docs/tuned-solver.md#parity-bounds): with an
    /// odd number of empty cells, a move after which the opponent's claimeven bound
    /// already reaches beta cuts, and moves after which the opponent wins by their
    /// odd threat too soon to raise alpha are left out. The children's bounds
    /// computed here are handed to the children searched.
    #[inline(always)]
    fn parity_moves(
        &mut self,
        pos: &Board<W, H, B>,
        node: &mut Node<B>,
        their_wins: B,
        b: &mut ChildBounds<W>,
    ) -> ControlFlow<i32> {
        let odd_empties = (Self::CELLS - node.n) % 2 == 1;
        b.claimeven_known = odd_empties && node.beta <= Self::PARITY_BOUND;
        if b.claimeven_known
            && let Some((mv, score)) = claimeven_move_with(pos, node.next, &mut b.claimeven)
            && score >= node.beta
        {
            return ControlFlow::Break(self.cut(node, score, mv));
        }
        b.odd_threat_known = odd_empties && node.alpha >= -Self::PARITY_BOUND;
        if b.odd_threat_known {
            let (refuted, best) =
                odd_threat_refuted_with(pos, node.next, node.alpha, their_wins, &mut b.odd_threat);
            node.next &= !refuted;
            node.left_out = best;
            if node.next == B::ZERO {
                return ControlFlow::Break(self.fail_low(node, best));
            }
        }
        ControlFlow::Continue(())
    }

    /// Enhanced transposition cutoffs (docs/tuned-solver.md#enhanced-transposition-cutoffs):
    /// a move whose stored lower bound reaches beta refutes the node without a
    /// search; a move whose stored upper bound is at most alpha cannot raise it and
    /// is left out. Only far from the end, where a search costs more than the
    /// probes. Returns the move whose stored lower bound reached alpha in an
    /// earlier window (0: none): it is searched first.
    #[inline(always)]
    fn transposition_cutoffs(
        &mut self,
        node: &mut Node<B>,
        children: &Children<W, B>,
    ) -> ControlFlow<i32, B> {
        let mut promising = (B::ZERO, node.alpha - 1);
        if node.n >= Self::ETC_BELOW {
            return ControlFlow::Continue(B::ZERO);
        }
        for (&(mv, child_key), &forced_key) in children.moves().iter().zip(&children.forced_keys) {
            if mv & node.next == B::ZERO {
                continue;
            }
            match self.move_bound(node.n, child_key, forced_key) {
                Some((l, Bound::Lower | Bound::Exact)) if l >= node.beta => {
                    return ControlFlow::Break(self.cut(node, l, mv));
                }
                Some((u, Bound::Upper)) if u <= node.alpha => {
                    node.next &= !mv;
                    node.left_out = node.left_out.max(u);
                }
                Some((l, Bound::Lower | Bound::Exact)) if l > promising.1 => {
                    promising = (mv, l);
                }
                _ => {}
            }
        }
        // Every move is worth at most `left_out` (<= alpha).
        if node.next == B::ZERO {
            return ControlFlow::Break(self.fail_low(node, node.left_out));
        }
        ControlFlow::Continue(promising.0)
    }

    /// Orders the moves left (docs/tuned-solver.md#move-ordering): by the threats
    /// they create, far from the end with their [`Potential`] too, a move that
    /// reached alpha in an earlier window first, and the children other threads
    /// are searching last (docs/tuned-solver.md#threads). Also says whether this
    /// node takes part in the threads' marks. The moves go into `moves`.
    #[inline(always)]
    fn order_moves(
        &self,
        pos: &Board<W, H, B>,
        node: &Node<B>,
        children: &Children<W, B>,
        promising: B,
        moves: &mut MoveSorter<W, B>,
    ) -> bool {
        let alpha = node.alpha;
        // The rows where the mover's threats win by zugzwang (see `parity`): the
        // player's rows with an even number of empty cells, the others with an odd;
        // none when the window asks about a win too early for zugzwang to decide.
        let own_rows = if alpha.abs() >= Self::ZUGZWANG_WINDOW {
            B::ZERO
        } else if (Self::CELLS - node.n) % 2 == 0 {
            player_rows::<W, H, B>()
        } else {
            Board::<W, H, B>::board() & !player_rows::<W, H, B>()
        };
        // A window asking for an early win is settled by short lines, where the
        // threats order well and the potential would only cost time.
        let potential = node.n < Self::POTENTIAL_BELOW && alpha.abs() < Self::ZUGZWANG_WINDOW;
        let (busy, busy_children) = self.busy_children(pos, node, children, own_rows, potential);
        // Added in reverse order so that among ties the center comes out first.
        for &col in Self::ORDER.iter().rev() {
            let mv = node.next & Board::<W, H, B>::column_mask(col);
            if mv != B::ZERO {
                // A child another thread is searching comes last: it scores 0,
                // every other move at least 1 (the same order among them).
                let free = busy_children & mv == B::ZERO;
                let wins = children.wins_after[col];
                moves.add(
                    mv,
                    Self::order_score(pos, mv, wins, node.their_wins, own_rows, potential)
                        * u32::from(free),
                );
            }
        }
        if promising & node.next != B::ZERO {
            moves.promote(promising);
        }
        busy
    }

    /// Near the root, with other threads on it (docs/tuned-solver.md#threads):
    /// whether this node takes part in the marks, and the children other threads
    /// are searching now, except the first move by the ordering, which is searched
    /// first anyway (ABDADA's eldest brother: where it alone refutes the window,
    /// a thread that went to its siblings would do work nobody needs).
    #[inline(always)]
    fn busy_children(
        &self,
        pos: &Board<W, H, B>,
        node: &Node<B>,
        children: &Children<W, B>,
        own_rows: B,
        potential: bool,
    ) -> (bool, B) {
        let ply = node.n - self.root_stones;
        let Some(b) = self
            .busy
            .as_deref()
            .filter(|b| ply < BUSY_PLIES && b.shared())
        else {
            return (false, B::ZERO);
        };
        let mut busy_children = B::ZERO;
        if ply + 1 < BUSY_PLIES {
            for &(mv, child_key) in children.moves() {
                if mv & node.next != B::ZERO && b.is_busy(child_key) {
                    busy_children |= mv;
                }
            }
        }
        if busy_children != B::ZERO {
            busy_children &= !Self::first_move(
                pos,
                node.next,
                &children.wins_after,
                node.their_wins,
                own_rows,
                potential,
            );
        }
        (true, busy_children)
    }

    /// The move loop: searches the moves in order until one reaches beta (a cut),
    /// narrowing alpha as they fail low, following the refutations
    /// (docs/tuned-solver.md#refutations); marks the node for the other threads
    /// (`busy`) while it runs. Every move failing low stores the best bound met.
    #[inline(always)]
    fn search_moves(
        &mut self,
        pos: &Board<W, H, B>,
        node: &mut Node<B>,
        children: &Children<W, B>,
        child_bounds: &ChildBounds<W>,
        moves: &mut MoveSorter<W, B>,
        busy: bool,
    ) -> i32 {
        let key = node.key;
        let marked = busy && self.busy.as_deref().is_some_and(|b| b.enter(key));
        // Moves after the first whose child another thread entered since the moves
        // were ordered are put off until the others are searched.
        let recheck = busy && node.n - self.root_stones + 1 < BUSY_PLIES;
        let mut put_off = PutOff::<W, B>::default();
        let mut first = true;
        // Refutations are followed in windows about a late win, where the
        // potential no longer orders the moves.
        let refutations =
            node.n >= Self::POTENTIAL_BELOW && node.alpha.abs() < Self::ZUGZWANG_WINDOW;
        // The best score met (fail-soft): every move searched or left out is worth
        // at most this (a move that loses at once, never searched, is worth less
        // than any safe one), so it bounds the node from above, often below alpha.
        let mut upper = node.left_out;
        while let Some(mv) = self.next_move(moves, &mut put_off, recheck && !first, children) {
            first = false;
            let col = column::<W, H, B>(mv);
            let mut child = *pos;
            child.play_move_unchecked(mv);
            self.refutation.0 = -1;
            let score = -self.negamax(
                &child,
                -node.beta,
                -node.alpha,
                children.wins_after[col],
                child_bounds.of(col),
            );
            if self.stopped {
                self.leave(marked, key);
                return 0;
            }
            // A move at least as good as beta: the opponent will avoid this line.
            if score >= node.beta {
                self.leave(marked, key);
                return self.cut(node, score, mv);
            }
            if refutations {
                self.follow_refutation(moves, node, col, children.forced_replies[col]);
            }
            // Narrow the window for the next moves.
            if score > node.alpha {
                node.alpha = score;
            }
            upper = upper.max(score);
        }
        self.leave(marked, key);
        debug_assert!(upper <= node.alpha);
        // Every move failed low: a later window (or a transposition) can use the
        // tighter bound.
        self.fail_low(node, upper)
    }

    /// The next move to search: the sorter's, unless `recheck` and another thread
    /// entered its child since the ordering (it is then put off); when the sorter
    /// is empty, the moves put off, in order.
    #[inline(always)]
    fn next_move(
        &self,
        moves: &mut MoveSorter<W, B>,
        put_off: &mut PutOff<W, B>,
        recheck: bool,
        children: &Children<W, B>,
    ) -> Option<B> {
        for mv in moves.by_ref() {
            if recheck && self.entered(mv, children.moves()) {
                put_off.push(mv);
                continue;
            }
            return Some(mv);
        }
        put_off.take()
    }

    /// After move `mv` in column `col` failed low: our move in the column where the
    /// opponent refuted it comes next, unless a move left ranks higher by its
    /// threats (docs/tuned-solver.md#refutations). The opponent's refuting stone
    /// often took the cell both sides needed. A child with one safe reply
    /// (`forced_reply`: its column plus one, 0 if none) is refuted by it; it
    /// records nothing itself.
    #[inline(always)]
    fn follow_refutation(
        &self,
        moves: &mut MoveSorter<W, B>,
        node: &Node<B>,
        col: usize,
        forced_reply: u8,
    ) {
        let refuted_in = if forced_reply != 0 {
            Some(usize::from(forced_reply - 1))
        } else if self.refutation.0 == node.n + 1 && self.refutation.1 != B::ZERO {
            Some(column::<W, H, B>(self.refutation.1))
        } else {
            None
        };
        if let Some(c) = refuted_in
            && c != col
        {
            moves.promote_among_best(node.next & Board::<W, H, B>::column_mask(c));
        }
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
            assert_eq!(
                mirror_key::<7, 6, u64>(p.key()),
                p.mirror().key(),
                "{moves}"
            );
            assert_eq!(
                mirror_key::<7, 6, u64>(mirror_key::<7, 6, u64>(p.key())),
                p.key()
            );
        }
    }

    /// A table that knows nothing useful and answers every probe with a column far
    /// outside the board.
    #[derive(Clone, Debug)]
    struct Corrupt;

    impl Table for Corrupt {
        fn probe<K: Bits>(&mut self, _key: K) -> Option<Hit> {
            Some(Hit {
                score: 100,
                bound: Bound::Upper,
                best: Some(200),
            })
        }
        fn store<K: Bits>(&mut self, _: K, _: i32, _: Bound, _: Option<u8>, _: u8) {}
        fn clear(&mut self) {}
        fn hashfull(&self) -> u32 {
            0
        }
    }

    #[test]
    fn a_stored_column_outside_the_board_is_ignored() {
        // Regression: `W - 1 - c` was computed for a mirrored key before `c < W`
        // was checked (an overflow in debug builds). The search now reads no
        // stored column at all: a table answering garbage columns must still
        // change no score.
        let mut corrupt = Tuned::<7, 6, u64, Corrupt>::new(Corrupt).unwrap();
        let mut good = Tuned::<7, 6>::new(CompactTable::for_board::<7, 6>(64).unwrap()).unwrap();
        for moves in [
            "44455554221",
            "7422341735647741166133573473242566",
            "3535657324111",
        ] {
            let p = Position::parse(moves).unwrap();
            assert!(mirror_key::<7, 6, u64>(p.key()) != p.key());
            good.clear();
            assert_eq!(corrupt.search(&p, -21, 21).0, good.search(&p, -21, 21).0);
        }
    }

    #[test]
    fn the_near_table_changes_no_score() {
        // The tuned search with its near table gives the reference search's scores;
        // and nodes stored in the near table show that it is really used.
        let table = CompactTable::for_board::<7, 6>(64).unwrap();
        let mut with = Tuned::<7, 6>::new(table).unwrap();
        let mut without =
            crate::solver::reference::Reference::<7, 6, u64, crate::table::UpperTable>::new(
                crate::table::UpperTable::with_megabytes(8).unwrap(),
            );
        let mut used = false;
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
            let (a, _) = with.search(&p, -21, 21);
            let (b, _) = without.search(&p, -21, 21);
            assert_eq!(a, b, "{moves}");
            used |= with.near.hashfull() > 0;
        }
        assert!(used, "the near table was never used");
    }

    #[test]
    fn shared_root_bounds_change_no_score() {
        // A helper that asks ahead (at 1 before 0), and a search that starts from
        // bounds other threads proved, give the scores of a search alone: above,
        // below and at 0, strong and weak.
        let root = Arc::new(RootBounds::new());
        let table = || CompactTable::for_board::<7, 6>(64).unwrap();
        let mut alone = Tuned::<7, 6>::new(table()).unwrap();
        let mut helper = Tuned::<7, 6>::new(table()).unwrap();
        helper.set_root(root.clone(), true);
        let mut went_ahead = 0;
        for moves in [
            "44455554221",
            "4455",
            "274552224131661",
            "32164625",
            "3535657324111",
            "32751571231557",
            "335662333565",
        ] {
            let p = Position::parse(moves).unwrap();
            alone.clear();
            let score = alone.search(&p, -21, 21).0;
            for (alpha, beta, want) in [(-21, 21, score), (-1, 1, score.signum())] {
                helper.clear();
                root.reset();
                assert_eq!(helper.search(&p, alpha, beta).0, want, "{moves}");
                went_ahead += usize::from(!root.go_ahead());
            }
            // Bounds proved by others: nothing left to ask, or one window.
            helper.clear();
            root.reset();
            root.narrow(score, score);
            assert_eq!(helper.search(&p, -21, 21), (score, 0), "{moves}");
            helper.clear();
            root.reset();
            root.narrow(score - 1, score);
            let (found, nodes) = helper.search(&p, -21, 21);
            assert_eq!(found, score, "{moves}");
            if nodes > 0 {
                assert_eq!(root.get(), (score, score), "{moves}: the answer shared");
            }
        }
        assert!(went_ahead > 0, "the helper never asked ahead");
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
