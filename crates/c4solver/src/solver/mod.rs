//! Solving positions: configurations, modes and results.
//!
//! A [`Solver`] owns one search configuration (the tutorial's [`reference`](mod@reference)
//! search or the [`tuned`] one) with its table, and answers [`Solver::solve`] for one
//! position at a time. Scores follow the tutorial's convention: from the side to
//! move, positive for a win (`22 - stones the winner has played at the end` on 7x6),
//! 0 for a draw, negative for a loss.

pub(crate) mod busy;
mod known;
pub(crate) mod parallel;
pub(crate) mod parity;
pub(crate) mod potential;
pub(crate) mod reference;
#[cfg(feature = "research")]
pub(crate) mod research;
pub(crate) mod root;
pub(crate) mod stop;
pub(crate) mod tuned;

use crate::bits::Bits;
use std::sync::Arc;
use std::time::Duration;
// `std::time::Instant` panics on wasm32-unknown-unknown; web-time is std's elsewhere.
use web_time::Instant;

use crate::position::{Board, Playable};
use crate::table::shared::Layout;
use crate::table::{CompactTable, Narrow, SharedTable, TableError, TableStats, UpperTable, Wide};
pub use known::KnownScores;
pub(crate) use parallel::Helper;
use parallel::JOIN_AFTER;
#[cfg(feature = "research")]
pub use parallel::TeamSearch;
#[cfg(not(feature = "research"))]
use parallel::TeamSearch;
use reference::Reference;
#[cfg(feature = "research")]
pub use research::{DepthKind, ReplaceKind, TableKind};
pub use stop::StopFlag;
#[cfg(feature = "research")]
pub use tuned::Tuned;
#[cfg(not(feature = "research"))]
use tuned::Tuned;

/// Exact score or only its sign.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// The exact score (window `[-W*H/2, W*H/2]`).
    Strong,
    /// Only win (1), draw (0) or loss (-1) (window `[-1, 1]`).
    Weak,
}

impl Mode {
    /// The mode's name in reports: `strong` or `weak`.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Strong => "strong",
            Mode::Weak => "weak",
        }
    }

    /// The answer this mode gives for a position of strong score `score`: the
    /// score itself, or its sign in weak mode.
    pub fn answer_for(self, score: i32) -> i32 {
        match self {
            Mode::Strong => score,
            Mode::Weak => score.signum(),
        }
    }
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
    #[cfg(feature = "research")]
    pub fn own_table(self) -> TableKind {
        match self {
            SolverKind::Reference => TableKind::Upper(ReplaceKind::Always),
            SolverKind::Tuned => TableKind::Compact,
        }
    }

    /// The name of the search's own table design: `upper` for the reference
    /// search, `compact` for the tuned one.
    pub fn own_table_name(self) -> &'static str {
        match self {
            SolverKind::Reference => "upper",
            SolverKind::Tuned => "compact",
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
    /// The research tools' options (empty without the `research` feature).
    pub research: Research,
    /// Threads that search each position together (0 counts as 1). With 1, the
    /// search runs on the calling thread alone, exactly as it always did. With
    /// more, the tuned search over the compact table runs on the calling thread and
    /// `threads - 1` helper threads the solver keeps, sharing one table of
    /// `table_mb` megabytes (see `parallel`); the reference search, the other
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
            research: Research::default(),
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

    /// The default configuration of `kind`'s search: its own 64 MB table (upper
    /// bounds for the reference search, the compact table for the tuned one),
    /// always replaced, cleared before each position.
    pub fn for_solver(kind: SolverKind) -> Self {
        Config {
            kind,
            ..Config::default()
        }
    }

    /// Checks, without allocating anything, that [`Solver::new`] can build this
    /// configuration's table for the `W`x`H` board (only the allocation itself may
    /// still fail).
    ///
    /// # Errors
    /// The [`TableError`] that [`Solver::new`] would return.
    pub fn check<const W: usize, const H: usize, B: Bits>(&self) -> Result<(), TableError> {
        #[cfg(feature = "research")]
        if !self.any_size() {
            return research::check::<W, H>(self);
        }
        match self.kind {
            SolverKind::Tuned => check_compact::<W, H>(self.table_mb),
            SolverKind::Reference => check_upper::<W, H>(self.table_mb),
        }
    }

    /// Whether [`Solver::new`] builds this configuration for every board size:
    /// each search with its own table, always replaced, without statistics (all of
    /// them without the `research` feature). The other table designs and
    /// statistics are research tools of the 7x6 board; compiling them for every
    /// size would multiply the build for nothing.
    pub fn any_size(&self) -> bool {
        #[cfg(feature = "research")]
        return !self.research.stats && self.table() == self.kind.own_table();
        #[cfg(not(feature = "research"))]
        true
    }

    /// Whether [`Solver::new`] runs this configuration's searches on several
    /// threads: the tuned search over the compact table, without statistics, with
    /// more than one thread.
    pub fn is_parallel(&self) -> bool {
        self.threads > 1 && self.can_share()
    }

    /// Whether this configuration's search can run on several threads (the tuned
    /// search over its own table, without statistics).
    pub fn can_share(&self) -> bool {
        self.kind == SolverKind::Tuned && self.any_size()
    }

    /// Whether the table is `kind`'s own ([`Config::for_solver`]): its design,
    /// always replaced, 64 MB, cleared before each position.
    pub fn is_default_table(&self) -> bool {
        #[cfg(feature = "research")]
        let own = self.table() == self.kind.own_table();
        #[cfg(not(feature = "research"))]
        let own = true;
        own && (self.table_mb, self.keep_table) == (64, false)
    }

    /// A short name of the table options: `compact/always/64`, `upper/always/64`,
    /// with `/keep` when the table is kept (research: `bounds/bucket/16`,
    /// `bounds/depth:work/64`).
    pub fn label(&self) -> String {
        #[cfg(feature = "research")]
        let (table, replace, depth) = (
            self.table().name(),
            self.table().replace().name(),
            match self.table().replace().depth() {
                Some(DepthKind::Work) => ":work",
                _ => "",
            },
        );
        #[cfg(not(feature = "research"))]
        let (table, replace, depth) = (self.kind.own_table_name(), "always", "");
        let keep = if self.keep_table { "/keep" } else { "" };
        format!("{table}/{replace}{depth}/{}{keep}", self.table_mb)
    }
}

/// The research tools' options of a [`Config`]: which table design, replacement
/// policy and depth measure the search uses, and whether it counts statistics.
/// Without the `research` feature it holds nothing; its fields may grow, so it is
/// built with [`Research::default`] and its fields set one by one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Research {
    /// What the table keeps and how it replaces; `None` for the search's own
    /// table ([`SolverKind::own_table`]).
    #[cfg(feature = "research")]
    pub table: Option<TableKind>,
    /// Count table statistics (see [`Solver::last_stats`]).
    #[cfg(feature = "research")]
    pub stats: bool,
}

#[cfg(feature = "research")]
impl Config {
    /// The table design the search uses: [`Research::table`], or the search's own.
    pub fn table(&self) -> TableKind {
        self.research.table.unwrap_or(self.kind.own_table())
    }

    /// This configuration with the table design `table` (research).
    pub fn with_table(self, table: TableKind) -> Self {
        let mut research = self.research;
        research.table = Some(table);
        Config { research, ..self }
    }

    /// This configuration with table statistics on or off (research).
    pub fn with_stats(self, stats: bool) -> Self {
        let mut research = self.research;
        research.stats = stats;
        Config { research, ..self }
    }
}

/// Whether a compact table of `mb` MB can be had for the `W`x`H` board: 4-byte
/// entries where their partial key is exact, 8-byte ones below.
fn check_compact<const W: usize, const H: usize>(mb: usize) -> Result<(), TableError> {
    let bound = crate::table::compact::key_bound(W, H);
    if CompactTable::fits(mb, bound) {
        return Ok(());
    }
    SharedTable::<Wide>::slots_for(mb, bound).map(drop)
}

/// Whether the tutorial's table of `mb` MB can be had for the `W`x`H` board: its
/// 8-byte slots keep 56 bits of the key, exact while `slots << 56` bounds every
/// key (always up to 64 bits; from 1 MB on up to 73 bits).
fn check_upper<const W: usize, const H: usize>(mb: usize) -> Result<(), TableError> {
    // The same slots and partial key as the shared table's 8-byte entries.
    SharedTable::<Wide>::slots_for(mb, crate::table::compact::key_bound(W, H)).map(drop)
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
    /// A position of another board size than the solver's
    /// ([`Solver`](crate::Solver) takes any size).
    #[error("a position of the {position} board given to a solver of the {solver} board")]
    WrongSize {
        /// The solver's size.
        solver: crate::Size,
        /// The position's size.
        position: crate::Size,
    },
    /// A window with `alpha >= beta`.
    #[error("the window ({alpha}, {beta}) is empty: alpha must be below beta")]
    EmptyWindow {
        /// The window's lower end.
        alpha: i32,
        /// The window's upper end.
        beta: i32,
    },
    /// A margin below zero.
    #[error("the margin {0} is negative")]
    NegativeMargin(i32),
}

/// The search was stopped through the solver's [`StopFlag`]: the one way a search
/// of a [`Playable`] position can fail.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the search was stopped")]
pub struct Stopped;

impl From<Stopped> for SolveError {
    fn from(_: Stopped) -> Self {
        SolveError::Stopped
    }
}

/// `pos` as a [`Playable`] position, or [`SolveError::GameOver`]: the check of
/// every method that takes a [`Board`].
pub(crate) fn playable<const W: usize, const H: usize, B: Bits>(
    pos: &Board<W, H, B>,
) -> Result<Playable<W, H, B>, SolveError> {
    Playable::new(*pos).ok_or(SolveError::GameOver)
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

#[derive(Debug)]
enum Engine<const W: usize, const H: usize, B: Bits> {
    Reference(Reference<W, H, B, UpperTable>),
    /// The tuned search with its compact table.
    Tuned(Tuned<W, H, B>),
    /// Either search with any other table design or with statistics (research);
    /// the one virtual call per position keeps the dispatch out of the search.
    #[cfg(feature = "research")]
    Tables(Box<dyn research::TableSearch<W, H, B>>),
    /// The tuned search over a shared compact table: on several threads, or on
    /// one with 8-byte entries (below 63 MB on 7x6) or on a board other than 7x6.
    Team(Box<dyn TeamEngine<W, H, B>>),
}

/// A [`TeamSearch`] without its table layout, with what it takes to build another.
trait TeamEngine<const W: usize, const H: usize, B: Bits>: std::fmt::Debug + Send {
    fn search(&mut self, pos: &Board<W, H, B>, alpha: i32, beta: i32) -> (i32, u64);
    fn clear(&mut self);
    fn prefault(&mut self);
    fn set_stop_flag(&mut self, flag: StopFlag);
    fn stopped(&self) -> bool;
    fn helper(&self) -> Helper;
    fn threads(&self) -> usize;
    /// The same search with a table of its own, empty, and threads of its own.
    fn try_clone(&self) -> Result<Box<dyn TeamEngine<W, H, B>>, TableError>;
}

/// A [`TeamSearch`] over a shared table of layout `L`, with its configuration.
#[derive(Debug)]
struct TeamBox<const W: usize, const H: usize, B: Bits, L: Layout> {
    search: TeamSearch<W, H, B, SharedTable<L>>,
    config: Config,
    helpers: usize,
}

impl<const W: usize, const H: usize, B: Bits, L: Layout> TeamEngine<W, H, B>
    for TeamBox<W, H, B, L>
{
    fn search(&mut self, pos: &Board<W, H, B>, alpha: i32, beta: i32) -> (i32, u64) {
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
    fn try_clone(&self) -> Result<Box<dyn TeamEngine<W, H, B>>, TableError> {
        team::<W, H, B>(&self.config, self.helpers)
    }
}

/// The tuned search of `config` over a shared compact table (4-byte entries where
/// their partial key is exact, 8-byte ones below), with `helpers` threads of its own.
fn team<const W: usize, const H: usize, B: Bits>(
    config: &Config,
    helpers: usize,
) -> Result<Box<dyn TeamEngine<W, H, B>>, TableError> {
    fn build<const W: usize, const H: usize, B: Bits, L: Layout>(
        config: &Config,
        helpers: usize,
    ) -> Result<Box<dyn TeamEngine<W, H, B>>, TableError> {
        let table = SharedTable::<L>::for_board::<W, H>(config.table_mb)?;
        let search = TeamSearch::new(table, helpers, JOIN_AFTER)?;
        Ok(Box::new(TeamBox {
            search,
            config: *config,
            helpers,
        }))
    }
    // A constant condition first: a board over 64 bits would need terabytes for
    // the 4-byte entries, so its build compiles no search over them.
    if B::BITS <= 64 && narrow_fits::<W, H>(config.table_mb) {
        build::<W, H, B, Narrow>(config, helpers)
    } else {
        build::<W, H, B, Wide>(config, helpers)
    }
}

/// Whether a compact table of `mb` megabytes keeps its 4-byte entries exact.
fn narrow_fits<const W: usize, const H: usize>(mb: usize) -> bool {
    CompactTable::fits(mb, crate::table::compact::key_bound(W, H))
}

/// A solver for `W`x`H` boards; see the module documentation.
///
/// A solver built with [`Solver::new`] searches every position. Given
/// [`KnownScores`] (an opening book: [`Solver::with_builtin_book`],
/// [`Solver::set_book`]), it asks them first and answers what they know with no
/// search (a search from a deeper position never reaches a book's positions, so
/// they are asked once, before the search).
///
/// Its methods live beside what they build, so that imports flow one way: the
/// search (`solve`, `solve_window`, the table) here; the book
/// ([`Solver::with_builtin_book`], [`Solver::set_book`], [`Solver::book_depth`])
/// in `books/known.rs`; every move's score ([`Solver::analyze`],
/// [`Solver::best_moves`], [`Solver::principal_variation_of`]) in `analysis.rs`;
/// and [`Solver::answer`] in `answer.rs`.
#[derive(Debug)]
pub struct Solver<const W: usize, const H: usize, B: Bits = u64> {
    config: Config,
    engine: Engine<W, H, B>,
    stats: Option<TableStats>,
    stop: StopFlag,
    /// Asked before each search (`None`: search everything).
    known: Option<Arc<dyn KnownScores<W, H, B>>>,
}

/// The solver for the standard 7x6 board (the tests').
#[cfg(test)]
pub(crate) type Solver7x6 = Solver<7, 6>;

impl<const W: usize, const H: usize, B: Bits> Solver<W, H, B> {
    /// Creates a solver, allocating its table (and starting its helper threads if
    /// [`Config::is_parallel`]).
    ///
    /// The tuned search on one thread of the 7x6 board runs over the compact
    /// table of 4-byte entries; everywhere else (several threads, 8-byte entries,
    /// other sizes) over the shared table of the same layouts, with no helper
    /// thread for one thread, so that each other size compiles two searches, not
    /// three. Relaxed atomics cost nothing on one thread.
    ///
    /// # Errors
    /// The [`TableError`] of [`Config::check`], or an allocation or thread that
    /// cannot be had.
    pub fn new(config: Config) -> Result<Self, TableError> {
        config.check::<W, H, B>()?;
        // A constant condition first: the research engines are not even compiled for
        // the other sizes (`check` refused their configurations there).
        #[cfg(feature = "research")]
        if Self::STANDARD && !config.any_size() {
            let engine = Engine::Tables(research::engine::<W, H, B>(&config)?);
            return Ok(Self::with_engine(config, engine));
        }
        let mb = config.table_mb;
        let engine = match config.kind {
            SolverKind::Reference => Engine::Reference(Reference::new(UpperTable::for_board(
                mb,
                Board::<W, H, B>::MIN_SCORE,
            )?)),
            SolverKind::Tuned
                if Self::STANDARD && config.threads <= 1 && narrow_fits::<W, H>(mb) =>
            {
                Engine::Tuned(Tuned::new(CompactTable::for_board::<W, H>(mb)?)?)
            }
            SolverKind::Tuned => Engine::Team(team::<W, H, B>(&config, config.threads.max(1) - 1)?),
        };
        Ok(Self::with_engine(config, engine))
    }

    /// Another solver of the same configuration, known scores and stop flag, with
    /// a table of its own (empty) and threads of its own.
    ///
    /// # Errors
    /// As [`Solver::new`]: the new table or threads cannot be had.
    pub fn try_clone(&self) -> Result<Self, TableError> {
        let engine = match &self.engine {
            Engine::Team(t) => Engine::Team(t.try_clone()?),
            _ => Self::new(self.config)?.engine,
        };
        let mut copy = Self::with_engine(self.config, engine);
        copy.set_known_scores(self.known.clone());
        copy.set_stop_flag(self.stop.clone());
        Ok(copy)
    }

    /// Whether this is the 7x6 board, whose one-thread tuned search has its own
    /// compiled copy over the compact table.
    const STANDARD: bool = W == 7 && H == 6;

    /// A solver whose searches other threads can join through
    /// [`Solver::helper`], starting no thread of its own: the size-erased
    /// solver's for the pool's workers, so that idle workers can join the last
    /// searches of a stream. Configurations that cannot share their table
    /// ([`Config::can_share`]) get the one-thread solver of [`Solver::new`].
    ///
    /// # Errors
    /// As [`Solver::new`].
    pub(crate) fn new_joinable(config: Config) -> Result<Self, TableError> {
        if !config.can_share() {
            return Self::new(config);
        }
        let engine = Engine::Team(team::<W, H, B>(&config, 0)?);
        Ok(Self::with_engine(config, engine))
    }

    fn with_engine(config: Config, engine: Engine<W, H, B>) -> Self {
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
    pub(crate) fn helper(&self) -> Option<Helper> {
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
    pub fn set_known_scores(&mut self, known: Option<Arc<dyn KnownScores<W, H, B>>>) {
        self.known = known;
    }

    /// The known scores asked before each search, if any.
    pub fn known_scores(&self) -> Option<&dyn KnownScores<W, H, B>> {
        self.known.as_deref()
    }

    /// Makes every later search poll `flag` and stop when it is set: the solve then
    /// fails with [`SolveError::Stopped`] within a fraction of a millisecond.
    pub fn set_stop_flag(&mut self, flag: StopFlag) {
        match &mut self.engine {
            Engine::Reference(r) => r.set_stop_flag(flag.clone()),
            #[cfg(feature = "research")]
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
            #[cfg(feature = "research")]
            Engine::Tables(t) => t.clear(),
            Engine::Tuned(t) => t.clear(),
            Engine::Team(t) => t.clear(),
        }
    }

    /// Has the kernel map and zero the tables' memory now rather than at each
    /// page's first use by a search (the content is kept): `bench` calls it before
    /// its clock starts, so that small sets time their searches, not the first
    /// touches of fresh memory (`crate::table::Table::prefault`).
    pub fn prefault(&mut self) {
        match &mut self.engine {
            Engine::Reference(r) => r.prefault(),
            #[cfg(feature = "research")]
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
    pub fn solve(&mut self, pos: &Board<W, H, B>, mode: Mode) -> Result<Solution, SolveError> {
        let pos = playable(pos)?;
        Ok(self.solve_playable(&pos, mode)?)
    }

    /// [`Solver::solve`] of a position known to be playable, with no check for
    /// four in a row: the library's fast path (a book's keys, a test set's
    /// entries, an analysis's children); the one error left is a stop. A user's
    /// [`Playable`] goes to [`Solver::solve`], which it derefs to.
    ///
    /// # Errors
    /// [`Stopped`] if the [`StopFlag`] was set.
    pub(crate) fn solve_playable(
        &mut self,
        pos: &Playable<W, H, B>,
        mode: Mode,
    ) -> Result<Solution, Stopped> {
        let half = (W * H / 2) as i32;
        let (alpha, beta) = match mode {
            Mode::Strong => (-half, half),
            Mode::Weak => (-1, 1),
        };
        let mut s = self.solve_window_playable(pos, alpha, beta)?;
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
        pos: &Board<W, H, B>,
        alpha: i32,
        beta: i32,
    ) -> Result<Solution, SolveError> {
        let pos = playable(pos)?;
        Ok(self.solve_window_playable(&pos, alpha, beta)?)
    }

    /// [`Solver::solve_window`] of a position known to be playable.
    ///
    /// # Panics
    /// In debug builds, if `alpha >= beta`.
    ///
    /// # Errors
    /// [`Stopped`] if the [`StopFlag`] was set.
    pub(crate) fn solve_window_playable(
        &mut self,
        pos: &Playable<W, H, B>,
        alpha: i32,
        beta: i32,
    ) -> Result<Solution, Stopped> {
        self.window(pos, alpha, beta, true)
    }

    /// The body of [`Solver::solve_window_playable`] (`fresh`: the table readied
    /// by [`Solver::begin_position`] first) and [`Solver::search_window_playable`]:
    /// the known score if there is one, else the search.
    fn window(
        &mut self,
        pos: &Playable<W, H, B>,
        alpha: i32,
        beta: i32,
        fresh: bool,
    ) -> Result<Solution, Stopped> {
        debug_assert!(alpha < beta);
        if let Some(answer) = self.known_answer(pos, alpha, beta) {
            return Ok(answer);
        }
        if fresh {
            self.begin_position();
        }
        self.search(pos, alpha, beta)
    }

    /// The known score of `pos`, clamped to the window, if there is one.
    fn known_answer(&mut self, pos: &Board<W, H, B>, alpha: i32, beta: i32) -> Option<Solution> {
        let known = self.known.as_deref()?;
        let start = Instant::now();
        let score = known.known_score(pos)?;
        // Counted, and nothing to count: the table was not used.
        #[cfg(feature = "research")]
        {
            self.stats = self.config.research.stats.then(TableStats::default);
        }
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
        } else {
            #[cfg(feature = "research")]
            if let Engine::Tables(t) = &mut self.engine {
                t.new_search();
            }
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
        pos: &Board<W, H, B>,
        alpha: i32,
        beta: i32,
    ) -> Result<Solution, SolveError> {
        let pos = playable(pos)?;
        Ok(self.search_window_playable(&pos, alpha, beta)?)
    }

    /// [`Solver::search_window`] of a position known to be playable.
    ///
    /// # Panics
    /// In debug builds, if `alpha >= beta`.
    ///
    /// # Errors
    /// [`Stopped`] if the [`StopFlag`] was set.
    pub(crate) fn search_window_playable(
        &mut self,
        pos: &Playable<W, H, B>,
        alpha: i32,
        beta: i32,
    ) -> Result<Solution, Stopped> {
        self.window(pos, alpha, beta, false)
    }

    /// The search of [`Solver::search_window`] once the game-over and known-score checks
    /// have been made: the engine's search over the table as it is.
    pub(crate) fn search(
        &mut self,
        pos: &Playable<W, H, B>,
        alpha: i32,
        beta: i32,
    ) -> Result<Solution, Stopped> {
        let start = Instant::now();
        let (score, nodes) = match &mut self.engine {
            Engine::Reference(r) => r.search(pos, alpha, beta),
            #[cfg(feature = "research")]
            Engine::Tables(t) => t.search(pos, alpha, beta),
            Engine::Tuned(t) => t.search(pos, alpha, beta),
            Engine::Team(t) => t.search(pos, alpha, beta),
        };
        let time = start.elapsed();
        let stopped = match &self.engine {
            Engine::Reference(r) => r.stopped(),
            #[cfg(feature = "research")]
            Engine::Tables(t) => t.stopped(),
            Engine::Tuned(t) => t.stopped(),
            Engine::Team(t) => t.stopped(),
        };
        self.stats = match &self.engine {
            #[cfg(feature = "research")]
            Engine::Tables(t) => t.stats(),
            _ => None,
        };
        if stopped {
            return Err(Stopped);
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
        for config in [Config::reference(), Config::tuned()] {
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
        assert!(Config::tuned().check::<7, 6, u64>().is_ok());
        // Below 63 MB the compact table takes 8-byte entries instead of refusing.
        for mb in [1, 8, 62] {
            let small = Config {
                table_mb: mb,
                ..Config::tuned()
            };
            assert!(small.check::<7, 6, u64>().is_ok());
        }
        #[cfg(feature = "research")]
        {
            let bounds = Config {
                table_mb: 1,
                ..Config::tuned()
            }
            .with_table(TableKind::Bounds(ReplaceKind::Bucket(DepthKind::Cells)));
            assert!(bounds.check::<7, 6, u64>().is_ok());
            assert!(Solver7x6::new(bounds).is_ok());
            assert!(matches!(
                bounds.check::<6, 5, u64>(),
                Err(TableError::StandardBoardOnly { .. })
            ));
        }
        assert_eq!(
            Config {
                table_mb: 0,
                ..Config::reference()
            }
            .check::<7, 6, u64>(),
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
                let mut s = Solver7x6::new(config).unwrap();
                let parallel = threads > 1 && kind == SolverKind::Tuned;
                assert_eq!(s.threads(), if parallel { threads } else { 1 });
                // One thread over 8-byte entries (1 and 8 MB) runs the shared table's
                // search with no helper thread, and can be joined.
                let shared = kind == SolverKind::Tuned && (parallel || mb < 63);
                assert_eq!(s.helper().is_some(), shared);
                assert_eq!(s.solve(&p, Mode::Strong).unwrap().score, -15);
                assert_eq!(s.solve(&p, Mode::Weak).unwrap().score, -1);
                let mut copy = s.try_clone().unwrap();
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
            #[cfg(feature = "research")]
            Config::tuned().with_table(TableKind::Bounds(ReplaceKind::Always)),
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
            ..Config::tuned()
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
