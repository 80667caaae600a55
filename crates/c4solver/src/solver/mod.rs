//! Solving positions: configurations, modes and results.
//!
//! A [`Solver`] owns one search configuration (the tutorial's [`reference`](mod@reference)
//! search or the [`tuned`] one) with its table, and answers [`Solver::solve`] for one
//! position at a time. Scores follow the tutorial's convention: from the side to
//! move, positive for a win (`22 - stones the winner has played at the end` on 7x6),
//! 0 for a draw, negative for a loss.

pub mod busy;
mod known;
pub mod parallel;
pub mod parity;
pub mod potential;
pub mod reference;
pub mod stop;
pub mod tuned;

use std::sync::Arc;
use std::time::Duration;
// `std::time::Instant` panics on wasm32-unknown-unknown; web-time is std's elsewhere.
use web_time::Instant;

use crate::position::Board;
use crate::table::shared::Layout;
use crate::table::{
    Always, BoundTable, Bucket, CompactTable, DepthPreferred, Narrow, SharedTable, Table,
    TableError, TableStats, TwoTier, UpperTable, Wide,
};
pub use known::KnownScores;
use parallel::{Helper, JOIN_AFTER, TeamSearch};
use reference::Reference;
pub use stop::StopFlag;
use tuned::Tuned;

/// Exact score or only its sign.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// The exact score (window `[-W*H/2, W*H/2]`).
    Strong,
    /// Only win (1), draw (0) or loss (-1) (window `[-1, 1]`).
    Weak,
}

/// Which search to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum SolverKind {
    /// The tutorial's part-7 solver (center-first negamax, upper-bound table): the
    /// baseline every other configuration is measured against.
    Reference,
    /// Pons' final solver and further tuning (null windows, loss anticipation,
    /// wins in two, zugzwang bounds, threat-sorted moves, compact two-bound table);
    /// the default.
    #[default]
    Tuned,
}

impl SolverKind {
    /// The search's own table design: the tutorial's upper bounds for the
    /// reference search, the compact table for the tuned one.
    pub fn own_table(self) -> TableKind {
        match self {
            SolverKind::Reference => TableKind::Upper,
            SolverKind::Tuned => TableKind::Compact,
        }
    }

    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            SolverKind::Reference => "reference",
            SolverKind::Tuned => "tuned",
        }
    }
}

/// What the table keeps. Every search works with every table design.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TableKind {
    /// Upper bounds only (the tutorial's): [`UpperTable`] with
    /// [`ReplaceKind::Always`], a [`BoundTable`] in upper-only mode otherwise.
    Upper,
    /// Upper, lower and exact bounds with the best move: a [`BoundTable`].
    Bounds,
    /// One upper or lower bound in 4 bytes, two entries per set (the bigger
    /// search's result and the newest other): the tuned search's [`CompactTable`]
    /// (an exact score is kept as a lower bound). Its replacement is its own; it
    /// takes no `--replace` policy but `always`. Below the size at which its
    /// partial key stays exact (63 MB on 7x6), 8-byte entries holding the whole key
    /// ([`Wide`]); with several threads, the [`SharedTable`] of the same layouts.
    Compact,
}

impl TableKind {
    /// Every table design.
    pub const ALL: [TableKind; 3] = [TableKind::Upper, TableKind::Bounds, TableKind::Compact];

    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            TableKind::Upper => "upper",
            TableKind::Bounds => "bounds",
            TableKind::Compact => "compact",
        }
    }

    /// The replacement policies this design offers: the compact table has its
    /// own (one bit of work per set), listed as `always`.
    pub fn policies(self) -> &'static [ReplaceKind] {
        match self {
            TableKind::Upper | TableKind::Bounds => &ReplaceKind::ALL,
            TableKind::Compact => &[ReplaceKind::Always],
        }
    }
}

/// The table's replacement policy (see [`crate::table::replace`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum ReplaceKind {
    /// Always replace (the tutorial's).
    #[default]
    Always,
    /// Keep the deeper entry.
    Depth,
    /// Two entries per slot: depth-preferred and always-replace.
    TwoTier,
    /// Eight entries per cache line; the victim minimises `depth - 8 * age`.
    Bucket,
}

impl ReplaceKind {
    /// Every replacement policy.
    pub const ALL: [ReplaceKind; 4] = [
        ReplaceKind::Always,
        ReplaceKind::Depth,
        ReplaceKind::TwoTier,
        ReplaceKind::Bucket,
    ];

    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            ReplaceKind::Always => "always",
            ReplaceKind::Depth => "depth",
            ReplaceKind::TwoTier => "two-tier",
            ReplaceKind::Bucket => "bucket",
        }
    }
}

/// What "depth" means to the depth-aware replacement policies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum DepthKind {
    /// Empty cells of the position.
    #[default]
    Cells,
    /// Bit length of the node count of the search that produced the entry.
    Work,
}

impl DepthKind {
    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            DepthKind::Cells => "cells",
            DepthKind::Work => "work",
        }
    }
}

/// Everything that selects a solver configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Config {
    /// The search.
    pub kind: SolverKind,
    /// Table size in megabytes (2^20 bytes); the table holds the largest prime
    /// number of entries that fits.
    pub table_mb: usize,
    /// Keep the table between positions instead of clearing it before each one.
    pub keep_table: bool,
    /// What the table keeps.
    pub table: TableKind,
    /// The table's replacement policy.
    pub replace: ReplaceKind,
    /// The depth measure of the depth-aware policies (ignored by `always`).
    pub depth: DepthKind,
    /// Count table statistics (see [`Solver::last_stats`]).
    pub stats: bool,
    /// Threads that search each position together (0 counts as 1). With 1, the
    /// search runs on the calling thread alone, exactly as it always did. With
    /// more, the tuned search over the compact table runs on the calling thread and
    /// `threads - 1` helper threads the solver keeps, sharing one table of
    /// `table_mb` megabytes (see [`parallel`]); the reference search, the other
    /// table designs and statistics stay on one thread.
    pub threads: usize,
}

impl Default for Config {
    /// The tuned configuration: the tuned search with its 64 MB compact table,
    /// cleared before each position, on one thread. A solver of it searches every
    /// position; the opening book is beside the search
    /// ([`Solver::with_builtin_book`]).
    fn default() -> Self {
        Config {
            kind: SolverKind::Tuned,
            table_mb: 64,
            keep_table: false,
            table: TableKind::Compact,
            replace: ReplaceKind::Always,
            depth: DepthKind::Cells,
            stats: false,
            threads: 1,
        }
    }
}

impl Config {
    /// The tuned configuration, [`Config::default`].
    pub fn tuned() -> Self {
        Self::default()
    }

    /// The reference configuration: the tutorial's part-7 solver with its 64 MB
    /// upper-bound, always-replace table, cleared before each position; the
    /// baseline every other configuration is measured against.
    pub fn reference() -> Self {
        Self::for_solver(SolverKind::Reference)
    }

    /// The tuned configuration, [`Config::default`]: every position is searched
    /// (a configuration never holds a book). Kept for the callers written when
    /// the default answered from the built-in book.
    pub fn tuned_without_book() -> Self {
        Self::default()
    }

    /// The default configuration of `kind`'s search: its own 64 MB table
    /// ([`TableKind::Upper`] for the reference search, [`TableKind::Compact`] for
    /// the tuned one), always replaced, cleared before each position.
    pub fn for_solver(kind: SolverKind) -> Self {
        Config {
            kind,
            table: kind.own_table(),
            ..Config::default()
        }
    }

    /// Checks, without allocating anything, that [`Solver::new`] can build this
    /// configuration's table for the `W`x`H` board (only the allocation itself may
    /// still fail).
    ///
    /// # Errors
    /// The [`TableError`] that [`Solver::new`] would return.
    pub fn check<const W: usize, const H: usize>(&self) -> Result<(), TableError> {
        use crate::table::Replace;
        if (W, H) != (7, 6) && !self.any_size() {
            let what = if self.stats {
                "table statistics (--stats)".to_string()
            } else {
                format!("the table option {}", self.label())
            };
            return Err(TableError::StandardBoardOnly {
                what: format!("{what} with the {} search", self.kind.name()),
                width: W,
                height: H,
            });
        }
        let mb = self.table_mb;
        let ways = match self.replace {
            ReplaceKind::Always => Always::WAYS,
            ReplaceKind::Depth => DepthPreferred::WAYS,
            ReplaceKind::TwoTier => TwoTier::WAYS,
            ReplaceKind::Bucket => Bucket::WAYS,
        };
        match (self.table, self.replace) {
            (TableKind::Compact, ReplaceKind::Always) => {
                // 4-byte entries where their partial key is exact, 8-byte ones below.
                let bound = crate::table::compact::key_bound(W, H);
                CompactTable::sets_for(mb, bound)
                    .or_else(|_| SharedTable::<Wide>::slots_for(mb, bound))
                    .map(drop)
            }
            (TableKind::Compact, replace) => Err(TableError::NoSuchPolicy {
                table: TableKind::Compact.name(),
                replace: replace.name(),
            }),
            (TableKind::Upper, ReplaceKind::Always) => {
                if mb == 0 {
                    Err(TableError::TooSmall { mb })
                } else {
                    mb.checked_mul(1 << 20)
                        .map(drop)
                        .ok_or(TableError::Alloc { mb })
                }
            }
            (TableKind::Upper | TableKind::Bounds, _) => {
                crate::table::bounds::sets_for(mb, (W * (H + 1)) as u32, ways).map(drop)
            }
        }
    }

    /// Whether [`Solver::new`] builds this configuration for every board size:
    /// each search with its own table design ([`SolverKind::own_table`]), always
    /// replaced, without statistics. The other table designs and statistics are
    /// research tools of the 7x6 board; compiling them for every size would
    /// multiply the build time for nothing, so [`Solver::new`] refuses them on
    /// other sizes ([`TableError::StandardBoardOnly`]).
    pub fn any_size(&self) -> bool {
        !self.stats && self.replace == ReplaceKind::Always && self.table == self.kind.own_table()
    }

    /// Whether [`Solver::new`] runs this configuration's searches on several
    /// threads: the tuned search over the compact table, without statistics, with
    /// more than one thread.
    pub fn is_parallel(&self) -> bool {
        self.threads > 1 && self.can_share()
    }

    /// Whether this configuration's search can run on several threads (the tuned
    /// search over the compact table, always replaced, without statistics).
    pub fn can_share(&self) -> bool {
        self.kind == SolverKind::Tuned
            && self.table == TableKind::Compact
            && self.replace == ReplaceKind::Always
            && !self.stats
    }

    /// Whether the table options are the tutorial's (upper bounds, always replace),
    /// at whatever size.
    pub fn is_reference_table(&self) -> bool {
        self.table == TableKind::Upper && self.replace == ReplaceKind::Always
    }

    /// Whether the table is `kind`'s own ([`Config::for_solver`]): its design,
    /// always replaced, 64 MB, cleared before each position.
    pub fn is_default_table(&self) -> bool {
        let own = Config::for_solver(self.kind);
        (self.table, self.replace, self.table_mb, self.keep_table)
            == (own.table, own.replace, own.table_mb, own.keep_table)
    }

    /// A short name of the table options: `upper/always/64`, `bounds/bucket/16`,
    /// `bounds/depth:work/64`, with `/keep` when the table is kept.
    pub fn label(&self) -> String {
        let depth = if self.replace != ReplaceKind::Always && self.depth == DepthKind::Work {
            ":work"
        } else {
            ""
        };
        let keep = if self.keep_table { "/keep" } else { "" };
        format!(
            "{}/{}{depth}/{}{keep}",
            self.table.name(),
            self.replace.name(),
            self.table_mb
        )
    }
}

/// Why a position was not solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// A side already holds four in a row: the game is over and has no score.
    #[error("the position already holds four in a row: the game is over")]
    GameOver,
    /// The solver's [`StopFlag`] was set during the search.
    #[error("the search was stopped")]
    Stopped,
}

/// The result of solving one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The score (strong) or its sign (weak).
    pub score: i32,
    /// Nodes explored (calls of the search function).
    pub nodes: u64,
    /// Search time, not counting the table clear before it.
    pub time: Duration,
}

#[derive(Clone, Debug)]
enum Engine<const W: usize, const H: usize> {
    Reference(Reference<W, H, UpperTable>),
    /// The tuned search with its compact table.
    Tuned(Tuned<W, H>),
    /// Either search with any other table design or with statistics; the one
    /// virtual call per position keeps the dispatch out of the search.
    Tables(Box<dyn TableSearch<W, H>>),
    /// The tuned search on several threads over a shared compact table.
    Team(Box<dyn TeamEngine<W, H>>),
}

/// A [`TeamSearch`] without its table layout, with what it takes to build another.
trait TeamEngine<const W: usize, const H: usize>: std::fmt::Debug + Send {
    fn search(&mut self, pos: &Board<W, H>, alpha: i32, beta: i32) -> (i32, u64);
    fn clear(&mut self);
    fn prefault(&mut self);
    fn set_stop_flag(&mut self, flag: StopFlag);
    fn stopped(&self) -> bool;
    fn helper(&self) -> Helper;
    fn threads(&self) -> usize;
    fn clone_box(&self) -> Box<dyn TeamEngine<W, H>>;
}

/// A [`TeamSearch`] over a shared table of layout `L`, with its configuration.
#[derive(Debug)]
struct TeamBox<const W: usize, const H: usize, L: Layout> {
    search: TeamSearch<W, H, SharedTable<L>>,
    config: Config,
    helpers: usize,
}

impl<const W: usize, const H: usize, L: Layout> TeamEngine<W, H> for TeamBox<W, H, L> {
    fn search(&mut self, pos: &Board<W, H>, alpha: i32, beta: i32) -> (i32, u64) {
        self.search.search(pos, alpha, beta)
    }
    fn clear(&mut self) {
        self.search.clear()
    }
    fn prefault(&mut self) {
        self.search.prefault()
    }
    fn set_stop_flag(&mut self, flag: StopFlag) {
        self.search.set_stop_flag(flag)
    }
    fn stopped(&self) -> bool {
        self.search.stopped()
    }
    fn helper(&self) -> Helper {
        self.search.helper()
    }
    fn threads(&self) -> usize {
        self.search.threads()
    }
    fn clone_box(&self) -> Box<dyn TeamEngine<W, H>> {
        // A clone gets a table of its own, empty, and threads of its own.
        team::<W, H>(&self.config, self.helpers).expect("the table was allocated before")
    }
}

impl<const W: usize, const H: usize> Clone for Box<dyn TeamEngine<W, H>> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// The tuned search of `config` over a shared compact table (4-byte entries where
/// their partial key is exact, 8-byte ones below), with `helpers` threads of its own.
fn team<const W: usize, const H: usize>(
    config: &Config,
    helpers: usize,
) -> Result<Box<dyn TeamEngine<W, H>>, TableError> {
    fn build<const W: usize, const H: usize, L: Layout>(
        config: &Config,
        helpers: usize,
    ) -> Result<Box<dyn TeamEngine<W, H>>, TableError> {
        let table = SharedTable::<L>::for_board::<W, H>(config.table_mb)?;
        let search = TeamSearch::new(table, helpers, JOIN_AFTER)?;
        Ok(Box::new(TeamBox {
            search,
            config: *config,
            helpers,
        }))
    }
    if narrow_fits::<W, H>(config.table_mb) {
        build::<W, H, Narrow>(config, helpers)
    } else {
        build::<W, H, Wide>(config, helpers)
    }
}

/// Whether a compact table of `mb` megabytes keeps its 4-byte entries exact.
fn narrow_fits<const W: usize, const H: usize>(mb: usize) -> bool {
    CompactTable::sets_for(mb, crate::table::compact::key_bound(W, H)).is_ok()
}

/// A search over some table, behind one virtual call per position.
trait TableSearch<const W: usize, const H: usize>: std::fmt::Debug + Send {
    fn search(&mut self, pos: &Board<W, H>, alpha: i32, beta: i32) -> (i32, u64);
    fn clear(&mut self);
    fn prefault(&mut self);
    fn new_search(&mut self);
    fn stats(&self) -> Option<TableStats>;
    fn set_stop_flag(&mut self, flag: StopFlag);
    fn stopped(&self) -> bool;
    fn clone_box(&self) -> Box<dyn TableSearch<W, H>>;
}

impl<const W: usize, const H: usize, T, const STATS: bool> TableSearch<W, H>
    for Reference<W, H, T, STATS>
where
    T: Table + Clone + std::fmt::Debug + Send + 'static,
{
    fn search(&mut self, pos: &Board<W, H>, alpha: i32, beta: i32) -> (i32, u64) {
        Reference::search(self, pos, alpha, beta)
    }
    fn clear(&mut self) {
        Reference::clear(self)
    }
    fn prefault(&mut self) {
        Reference::prefault(self)
    }
    fn new_search(&mut self) {
        Reference::new_search(self)
    }
    fn stats(&self) -> Option<TableStats> {
        Reference::stats(self)
    }
    fn set_stop_flag(&mut self, flag: StopFlag) {
        Reference::set_stop_flag(self, flag)
    }
    fn stopped(&self) -> bool {
        Reference::stopped(self)
    }
    fn clone_box(&self) -> Box<dyn TableSearch<W, H>> {
        Box::new(self.clone())
    }
}

impl<const W: usize, const H: usize, T, const PROFILE: bool> TableSearch<W, H>
    for Tuned<W, H, T, PROFILE>
where
    T: Table + Clone + std::fmt::Debug + Send + 'static,
{
    fn search(&mut self, pos: &Board<W, H>, alpha: i32, beta: i32) -> (i32, u64) {
        Tuned::search(self, pos, alpha, beta)
    }
    fn clear(&mut self) {
        Tuned::clear(self)
    }
    fn prefault(&mut self) {
        Tuned::prefault(self)
    }
    fn new_search(&mut self) {
        Tuned::new_search(self)
    }
    fn stats(&self) -> Option<TableStats> {
        Tuned::stats(self)
    }
    fn set_stop_flag(&mut self, flag: StopFlag) {
        Tuned::set_stop_flag(self, flag)
    }
    fn stopped(&self) -> bool {
        Tuned::stopped(self)
    }
    fn clone_box(&self) -> Box<dyn TableSearch<W, H>> {
        Box::new(self.clone())
    }
}

impl<const W: usize, const H: usize> Clone for Box<dyn TableSearch<W, H>> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// The configured search over `table`, counting statistics if asked to.
fn boxed<const W: usize, const H: usize, T>(table: T, config: &Config) -> Box<dyn TableSearch<W, H>>
where
    T: Table + Clone + std::fmt::Debug + Send + 'static,
{
    match (config.kind, config.stats) {
        (SolverKind::Tuned, true) => Box::new(Tuned::<W, H, T, true>::new(table)),
        (SolverKind::Tuned, false) => Box::new(Tuned::<W, H, T, false>::new(table)),
        (SolverKind::Reference, true) => Box::new(Reference::<W, H, T, true>::new(table)),
        (SolverKind::Reference, false) => Box::new(Reference::<W, H, T, false>::new(table)),
    }
}

/// The configured search over a [`BoundTable`] of the configured policy and depth.
fn packed<const W: usize, const H: usize, const UPPER_ONLY: bool>(
    config: &Config,
) -> Result<Box<dyn TableSearch<W, H>>, TableError> {
    let (mb, bits, st) = (config.table_mb, (W * (H + 1)) as u32, config);
    let work = config.depth == DepthKind::Work;
    Ok(match (config.replace, work) {
        (ReplaceKind::Always, _) => {
            boxed(BoundTable::<Always, UPPER_ONLY, false>::new(mb, bits)?, st)
        }
        (ReplaceKind::Depth, false) => boxed(
            BoundTable::<DepthPreferred, UPPER_ONLY, false>::new(mb, bits)?,
            st,
        ),
        (ReplaceKind::Depth, true) => boxed(
            BoundTable::<DepthPreferred, UPPER_ONLY, true>::new(mb, bits)?,
            st,
        ),
        (ReplaceKind::TwoTier, false) => {
            boxed(BoundTable::<TwoTier, UPPER_ONLY, false>::new(mb, bits)?, st)
        }
        (ReplaceKind::TwoTier, true) => {
            boxed(BoundTable::<TwoTier, UPPER_ONLY, true>::new(mb, bits)?, st)
        }
        (ReplaceKind::Bucket, false) => {
            boxed(BoundTable::<Bucket, UPPER_ONLY, false>::new(mb, bits)?, st)
        }
        (ReplaceKind::Bucket, true) => {
            boxed(BoundTable::<Bucket, UPPER_ONLY, true>::new(mb, bits)?, st)
        }
    })
}

/// A solver for `W`x`H` boards; see the module documentation.
///
/// A solver built with [`Solver::new`] searches every position. Given
/// [`KnownScores`] (an opening book: [`Solver::with_builtin_book`],
/// [`Solver::set_book`]), it asks them first and answers what they know with no
/// search (a search from a deeper position never reaches a book's positions, so
/// they are asked once, before the search).
#[derive(Clone, Debug)]
pub struct Solver<const W: usize, const H: usize> {
    config: Config,
    engine: Engine<W, H>,
    stats: Option<TableStats>,
    stop: StopFlag,
    /// Asked before each search (`None`: search everything).
    known: Option<Arc<dyn KnownScores<W, H>>>,
}

/// The solver for the standard 7x6 board.
pub type Solver7x6 = Solver<7, 6>;

impl<const W: usize, const H: usize> Solver<W, H> {
    /// Creates a solver, allocating its table (and starting its helper threads if
    /// [`Config::is_parallel`]).
    pub fn new(config: Config) -> Result<Self, TableError> {
        if !Self::STANDARD {
            // A constant condition: the code below is not even compiled for the
            // other sizes.
            return Self::new_any_size(config);
        }
        if config.is_parallel() {
            let engine = Engine::Team(team::<W, H>(&config, config.threads - 1)?);
            return Ok(Self::with_engine(config, engine));
        }
        let upper = || UpperTable::for_board(config.table_mb, Board::<W, H>::MIN_SCORE);
        let compact = || CompactTable::for_board::<W, H>(config.table_mb);
        // Below the narrow entries' size, one thread's table of 8-byte entries.
        let wide = || SharedTable::<Wide>::for_board::<W, H>(config.table_mb);
        let narrow = narrow_fits::<W, H>(config.table_mb);
        let plain = !config.stats;
        let engine = match (config.kind, config.table, config.replace) {
            (SolverKind::Reference, TableKind::Upper, ReplaceKind::Always) if plain => {
                Engine::Reference(Reference::new(upper()?))
            }
            (SolverKind::Tuned, TableKind::Compact, ReplaceKind::Always) if plain && narrow => {
                Engine::Tuned(Tuned::new(compact()?))
            }
            (_, TableKind::Upper, ReplaceKind::Always) => Engine::Tables(boxed(upper()?, &config)),
            (_, TableKind::Compact, ReplaceKind::Always) if narrow => {
                Engine::Tables(boxed(compact()?, &config))
            }
            (_, TableKind::Compact, ReplaceKind::Always) => Engine::Tables(boxed(wide()?, &config)),
            (_, TableKind::Compact, replace) => {
                return Err(TableError::NoSuchPolicy {
                    table: TableKind::Compact.name(),
                    replace: replace.name(),
                });
            }
            (_, TableKind::Upper, _) => Engine::Tables(packed::<W, H, true>(&config)?),
            (_, TableKind::Bounds, _) => Engine::Tables(packed::<W, H, false>(&config)?),
        };
        Ok(Self::with_engine(config, engine))
    }

    /// Whether this is the 7x6 board, the one every configuration is built for.
    const STANDARD: bool = W == 7 && H == 6;

    /// [`Solver::new`] on a board other than 7x6: the configurations of
    /// [`Config::any_size`] only, and the tuned search always over the shared
    /// table (with no helper thread for one thread), so that each size compiles
    /// two searches, not five: the shared table's layouts are the compact
    /// table's (sets of two 4-byte entries where their partial key is exact,
    /// 8-byte entries below), read and written with relaxed atomics that cost
    /// nothing on one thread.
    fn new_any_size(config: Config) -> Result<Self, TableError> {
        config.check::<W, H>()?;
        let engine = match config.kind {
            SolverKind::Reference => Engine::Reference(Reference::new(UpperTable::for_board(
                config.table_mb,
                Board::<W, H>::MIN_SCORE,
            )?)),
            SolverKind::Tuned => Engine::Team(team::<W, H>(&config, config.threads.max(1) - 1)?),
        };
        Ok(Self::with_engine(config, engine))
    }

    /// A solver whose searches other threads can join through
    /// [`Solver::helper`], starting no thread of its own: the command line gives
    /// each worker one, so that idle workers can join the last searches of a
    /// stream. Configurations that cannot share their table
    /// ([`Config::can_share`]) get the one-thread solver of [`Solver::new`].
    ///
    /// # Errors
    /// As [`Solver::new`].
    pub fn new_joinable(config: Config) -> Result<Self, TableError> {
        if !config.can_share() {
            return Self::new(config);
        }
        let engine = Engine::Team(team::<W, H>(&config, 0)?);
        Ok(Self::with_engine(config, engine))
    }

    fn with_engine(config: Config, engine: Engine<W, H>) -> Self {
        Solver {
            config,
            engine,
            stats: None,
            stop: StopFlag::new(),
            known: None,
        }
    }

    /// A handle through which another thread can join this solver's searches
    /// ([`Helper::help`]), if they run over a shared table ([`Solver::new`] with
    /// [`Config::is_parallel`], or [`Solver::new_joinable`]).
    pub fn helper(&self) -> Option<Helper> {
        match &self.engine {
            Engine::Team(t) => Some(t.helper()),
            _ => None,
        }
    }

    /// Threads that search each position: 1, or the calling thread and the
    /// solver's own helpers.
    pub fn threads(&self) -> usize {
        match &self.engine {
            Engine::Team(t) => t.threads(),
            _ => 1,
        }
    }

    /// Asks `known` for the score of each position before searching it (`None`:
    /// search every position).
    pub fn set_known_scores(&mut self, known: Option<Arc<dyn KnownScores<W, H>>>) {
        self.known = known;
    }

    /// The known scores asked before each search, if any.
    pub fn known_scores(&self) -> Option<&dyn KnownScores<W, H>> {
        self.known.as_deref()
    }

    /// Makes every later search poll `flag` and stop when it is set: the solve then
    /// fails with [`SolveError::Stopped`] within a fraction of a millisecond.
    pub fn set_stop_flag(&mut self, flag: StopFlag) {
        match &mut self.engine {
            Engine::Reference(r) => r.set_stop_flag(flag.clone()),
            Engine::Tables(t) => t.set_stop_flag(flag.clone()),
            Engine::Tuned(t) => t.set_stop_flag(flag.clone()),
            Engine::Team(t) => t.set_stop_flag(flag.clone()),
        }
        self.stop = flag;
    }

    /// The flag the searches poll (a fresh, unset one unless
    /// [`Solver::set_stop_flag`] gave another).
    pub fn stop_flag(&self) -> &StopFlag {
        &self.stop
    }

    /// The configuration this solver was built with.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        match &mut self.engine {
            Engine::Reference(r) => r.clear(),
            Engine::Tables(t) => t.clear(),
            Engine::Tuned(t) => t.clear(),
            Engine::Team(t) => t.clear(),
        }
    }

    /// Has the kernel map and zero the tables' memory now rather than at each
    /// page's first use by a search (the content is kept): `bench` calls it before
    /// its clock starts, so that small sets time their searches, not the first
    /// touches of fresh memory ([`Table::prefault`]).
    pub fn prefault(&mut self) {
        match &mut self.engine {
            Engine::Reference(r) => r.prefault(),
            Engine::Tables(t) => t.prefault(),
            Engine::Tuned(t) => t.prefault(),
            Engine::Team(t) => t.prefault(),
        }
    }

    /// The table statistics of the last [`Solver::solve`], if the configuration
    /// counts them (all zero, [`TableStats::searches`] too, when a known score
    /// answered).
    pub fn last_stats(&self) -> Option<TableStats> {
        self.stats
    }

    /// Solves `pos` in `mode`.
    ///
    /// The table is cleared first unless the configuration keeps it (then its
    /// entries age by one generation). In weak mode the score is the sign of the
    /// search's answer.
    ///
    /// # Errors
    /// [`SolveError::GameOver`] if a side already holds four in a row (a position
    /// built with [`Board::play_col`] may; [`Board::parse`] refuses them), and
    /// [`SolveError::Stopped`] if the [`StopFlag`] was set.
    pub fn solve(&mut self, pos: &Board<W, H>, mode: Mode) -> Result<Solution, SolveError> {
        let half = (W * H / 2) as i32;
        let (alpha, beta) = match mode {
            Mode::Strong => (-half, half),
            Mode::Weak => (-1, 1),
        };
        let mut s = self.solve_window(pos, alpha, beta)?;
        // A fail-soft search may answer outside the window (a win found at once, or a
        // kept table's bounds): a weak answer is only the side of the window it fell on.
        if mode == Mode::Weak {
            s.score = s.score.signum();
        }
        Ok(s)
    }

    /// Searches `pos` in the window `[alpha, beta]`: the answer is the exact score if
    /// it lies strictly inside, an upper bound if it is `<= alpha`, a lower bound if
    /// it is `>= beta`. With `beta = alpha + 1` this tests whether the score is at
    /// least `beta`.
    ///
    /// A position whose score is known ([`KnownScores`]) is answered with it,
    /// clamped to the window, with 0 nodes. Otherwise the table is cleared first unless the
    /// configuration keeps it.
    ///
    /// # Panics
    /// In debug builds, if `alpha >= beta`.
    ///
    /// # Errors
    /// As [`Solver::solve`].
    pub fn solve_window(
        &mut self,
        pos: &Board<W, H>,
        alpha: i32,
        beta: i32,
    ) -> Result<Solution, SolveError> {
        debug_assert!(alpha < beta);
        if pos.has_four() {
            return Err(SolveError::GameOver);
        }
        if let Some(answer) = self.known_answer(pos, alpha, beta) {
            return Ok(answer);
        }
        self.begin_position();
        self.search(pos, alpha, beta)
    }

    /// The known score of `pos`, clamped to the window, if there is one.
    fn known_answer(&mut self, pos: &Board<W, H>, alpha: i32, beta: i32) -> Option<Solution> {
        let known = self.known.as_deref()?;
        let start = Instant::now();
        let score = known.known_score(pos)?;
        // Counted, and nothing to count: the table was not used.
        self.stats = self.config.stats.then(TableStats::default);
        Some(Solution {
            score: score.clamp(alpha, beta),
            nodes: 0,
            time: start.elapsed(),
        })
    }

    /// Readies the table for a new root position, as [`Solver::solve`] does: clears
    /// it, or ages its entries by one generation if the configuration keeps it.
    pub fn begin_position(&mut self) {
        if !self.config.keep_table {
            self.clear();
        } else if let Engine::Tables(t) = &mut self.engine {
            t.new_search();
        }
    }

    /// Searches `pos` in the window `[alpha, beta]` like [`Solver::solve_window`]
    /// (a position whose score is known is answered with it), but with the table
    /// as it is: for a run of related searches that share what they prove (the
    /// children of one position, the plies of a line of play). Call
    /// [`Solver::begin_position`] before the first one.
    ///
    /// # Panics
    /// In debug builds, if `alpha >= beta`.
    ///
    /// # Errors
    /// As [`Solver::solve`].
    pub fn search_window(
        &mut self,
        pos: &Board<W, H>,
        alpha: i32,
        beta: i32,
    ) -> Result<Solution, SolveError> {
        debug_assert!(alpha < beta);
        if pos.has_four() {
            return Err(SolveError::GameOver);
        }
        if let Some(answer) = self.known_answer(pos, alpha, beta) {
            return Ok(answer);
        }
        self.search(pos, alpha, beta)
    }

    /// The search of [`Solver::search_window`] once the game-over and known-score checks
    /// have been made: the engine's search over the table as it is.
    fn search(&mut self, pos: &Board<W, H>, alpha: i32, beta: i32) -> Result<Solution, SolveError> {
        let start = Instant::now();
        let (score, nodes) = match &mut self.engine {
            Engine::Reference(r) => r.search(pos, alpha, beta),
            Engine::Tables(t) => t.search(pos, alpha, beta),
            Engine::Tuned(t) => t.search(pos, alpha, beta),
            Engine::Team(t) => t.search(pos, alpha, beta),
        };
        let time = start.elapsed();
        let stopped = match &self.engine {
            Engine::Reference(r) => r.stopped(),
            Engine::Tables(t) => t.stopped(),
            Engine::Tuned(t) => t.stopped(),
            Engine::Team(t) => t.stopped(),
        };
        self.stats = match &self.engine {
            Engine::Reference(_) | Engine::Tuned(_) | Engine::Team(_) => None,
            Engine::Tables(t) => t.stats(),
        };
        if stopped {
            return Err(SolveError::Stopped);
        }
        Ok(Solution { score, nodes, time })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    fn solve(moves: &str, mode: Mode) -> i32 {
        let mut s = Solver::<7, 6>::new(Config::reference()).unwrap();
        s.solve(&Position::parse(moves).unwrap(), mode)
            .unwrap()
            .score
    }

    #[test]
    fn readme_examples() {
        // "4455" = 18 takes the reference solver ~10^9 nodes; the tuned solver's
        // tests cover it.
        assert_eq!(solve("44455554221", Mode::Strong), -15);
        assert_eq!(solve("44455554221", Mode::Weak), -1);
    }

    #[test]
    fn solvers_can_move_to_other_threads() {
        fn send<T: Send>() {}
        fn sync<T: Send + Sync>() {}
        send::<Solver7x6>();
        send::<StopFlag>();
        sync::<Helper>();
    }

    #[test]
    fn positions_that_hold_four_are_refused() {
        // Regression: a position built with play_col that holds four got a score.
        let mut won = Position::parse("121212").unwrap();
        won.play_col(0);
        for config in [Config::reference(), Config::tuned()] {
            let mut s = Solver7x6::new(config).unwrap();
            assert_eq!(s.solve(&won, Mode::Strong), Err(SolveError::GameOver));
            assert_eq!(s.solve_window(&won, 0, 1), Err(SolveError::GameOver));
        }
    }

    #[test]
    fn a_stopped_search_says_so_and_the_solver_works_again() {
        for config in [Config::reference(), Config::tuned_without_book()] {
            let mut s = Solver7x6::new(config).unwrap();
            let flag = StopFlag::new();
            s.set_stop_flag(flag.clone());
            flag.stop();
            // The empty board takes far more than one poll interval of nodes.
            assert_eq!(
                s.solve(&Position::new(), Mode::Strong),
                Err(SolveError::Stopped)
            );
            flag.reset();
            let p = Position::parse("44455554221").unwrap();
            assert_eq!(s.solve(&p, Mode::Strong).unwrap().score, -15);
        }
    }

    #[test]
    fn configurations_are_checked_without_allocating() {
        assert!(Config::tuned().check::<7, 6>().is_ok());
        // Below 63 MB the compact table takes 8-byte entries instead of refusing.
        for mb in [1, 8, 62] {
            let small = Config {
                table_mb: mb,
                ..Config::tuned()
            };
            assert!(small.check::<7, 6>().is_ok());
        }
        assert!(matches!(
            Config {
                replace: ReplaceKind::Bucket,
                ..Config::tuned()
            }
            .check::<7, 6>(),
            Err(TableError::NoSuchPolicy { .. })
        ));
        let bounds = Config {
            table: TableKind::Bounds,
            replace: ReplaceKind::Bucket,
            table_mb: 1,
            ..Config::tuned()
        };
        assert!(bounds.check::<7, 6>().is_ok());
        assert!(Solver7x6::new(bounds).is_ok());
        assert_eq!(
            Config {
                table_mb: 0,
                ..Config::reference()
            }
            .check::<7, 6>(),
            Err(TableError::TooSmall { mb: 0 })
        );
    }

    #[test]
    fn small_compact_tables_and_parallel_solvers_are_exact() {
        let p = Position::parse("44455554221").unwrap();
        for (mb, threads) in [(1, 1), (1, 2), (8, 1), (64, 2), (64, 3)] {
            for kind in [SolverKind::Tuned, SolverKind::Reference] {
                let config = Config {
                    table_mb: mb,
                    threads,
                    ..Config::for_solver(kind)
                };
                let config = Config {
                    table: TableKind::Compact,
                    ..config
                };
                let mut s = Solver7x6::new(config).unwrap();
                let parallel = threads > 1 && kind == SolverKind::Tuned;
                assert_eq!(s.threads(), if parallel { threads } else { 1 });
                assert_eq!(s.helper().is_some(), parallel);
                assert_eq!(s.solve(&p, Mode::Strong).unwrap().score, -15);
                assert_eq!(s.solve(&p, Mode::Weak).unwrap().score, -1);
                let mut copy = s.clone();
                assert_eq!(copy.solve(&p, Mode::Strong).unwrap().score, -15);
            }
        }
        let joinable = Solver7x6::new_joinable(Config::tuned()).unwrap();
        assert!(joinable.helper().is_some());
        assert_eq!(joinable.threads(), 1);
    }

    #[test]
    fn prefaulted_solvers_give_the_same_scores_and_nodes() {
        // Every engine: the reference search, the tuned one, a table design
        // behind the virtual call, and two threads on a shared table.
        let p = Position::parse("44455554221").unwrap();
        let configs = [
            Config::for_solver(SolverKind::Reference),
            Config::tuned(),
            Config {
                table: TableKind::Bounds,
                ..Config::tuned()
            },
            Config {
                threads: 2,
                ..Config::tuned()
            },
        ];
        for config in configs {
            let mut plain = Solver7x6::new(config).unwrap();
            let mut faulted = Solver7x6::new(config).unwrap();
            faulted.prefault();
            let a = plain.solve(&p, Mode::Strong).unwrap();
            let b = faulted.solve(&p, Mode::Strong).unwrap();
            assert_eq!(a.score, -15);
            assert_eq!(b.score, -15);
            if config.threads == 1 {
                assert_eq!(a.nodes, b.nodes, "{config:?}");
            }
            // A table in use keeps what it holds.
            faulted.prefault();
            assert_eq!(faulted.solve(&p, Mode::Weak).unwrap().score, -1);
        }
    }

    #[test]
    fn a_parallel_solver_is_stopped_by_its_flag() {
        let mut s = Solver7x6::new(Config {
            threads: 2,
            ..Config::tuned_without_book()
        })
        .unwrap();
        let flag = StopFlag::new();
        s.set_stop_flag(flag.clone());
        let stopper = {
            let flag = flag.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(50));
                flag.stop();
            })
        };
        // The empty board takes far longer than the 50 ms before the stop.
        assert_eq!(
            s.solve(&Position::new(), Mode::Strong),
            Err(SolveError::Stopped)
        );
        stopper.join().unwrap();
        flag.reset();
        let p = Position::parse("274552224131661").unwrap();
        assert_eq!(s.solve(&p, Mode::Strong).unwrap().score, 0);
    }

    #[test]
    fn weak_score_is_a_sign() {
        // Regression: the side to move wins at once; the weak solver returned the
        // strong score 18 instead of 1.
        assert_eq!(solve("121212", Mode::Weak), 1);
        assert_eq!(solve("121212", Mode::Strong), 18);
        // Regression: with a kept table, bounds from a strong search leaked out of
        // the weak window (-8 instead of -1).
        let mut s = Solver7x6::new(Config {
            keep_table: true,
            ..Config::reference()
        })
        .unwrap();
        let p = Position::parse("2252576253462244111563365343671351441").unwrap();
        let q = Position::parse("7422341735647741166133573473242566").unwrap();
        for pos in [p, q, p, q] {
            let strong = s.solve(&pos, Mode::Strong).unwrap().score;
            assert_eq!(s.solve(&pos, Mode::Weak).unwrap().score, strong.signum());
        }
    }
}
