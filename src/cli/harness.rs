//! `bench`'s harness: runs test sets through solver configurations, checks every
//! score and gives the tutorial's figures (mean time, mean nodes, K pos/s;
//! `markdown.rs` lays them out as tables). The sets are read by
//! the library's [`TestSet`] of their size and run on the size-erased [`Solver`].

use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::Serialize;

use c4solver::batch::{self as pool, PoolError, Worker};
use c4solver::bench::{TestSet, TestSetError};
use c4solver::sized::Bits;
use c4solver::{
    Book, Config, Mode, Position, Size, SizeError, Solver, SolverError, StopFlag, TableError,
    TableStats, with_size,
};

/// Figures for one (configuration, mode, test set) run.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// Solver name (`reference`, `tuned`, `tuned+book`).
    pub solver: String,
    /// The table options ([`Config::label`]: `upper/always/64`, ...).
    pub config: String,
    /// Whether the table is the search's own at 64 MB, cleared per position
    /// ([`Config::is_default_table`]); the markdown table then names the solver
    /// alone.
    pub default_table: bool,
    /// `strong` or `weak`.
    pub mode: &'static str,
    /// The test set's file name.
    pub set: String,
    /// Positions solved.
    pub positions: usize,
    /// Positions the run meant to solve (more than `positions` only in the last
    /// row of an interrupted run).
    pub planned: usize,
    /// Mean search time per position, in seconds.
    pub mean_time_s: f64,
    /// Mean nodes per position.
    pub mean_nodes: f64,
    /// Total nodes over the positions (exact).
    pub total_nodes: u64,
    /// Thousands of nodes per second (total nodes / total time / 1000).
    pub kpos_per_s: f64,
    /// Positions whose score was wrong.
    pub mismatches: usize,
    /// Table statistics summed over the positions, if the configuration counts them.
    pub stats: Option<TableStats>,
    /// Threads that solved the set, one position each at a time: with more than
    /// one, `mean_time_s` is the wall time of the set per position (throughput)
    /// and `kpos_per_s` the nodes of all threads per second of wall time.
    pub threads: usize,
}

/// A wrong answer.
#[derive(Clone, Debug, Serialize)]
pub struct Mismatch {
    /// Solver name.
    pub solver: String,
    /// The table options ([`Config::label`]).
    pub config: String,
    /// `strong` or `weak`.
    pub mode: &'static str,
    /// The test set's file name.
    pub set: String,
    /// 1-based index of the position in the set.
    pub index: usize,
    /// The move string.
    pub moves: String,
    /// The expected answer (the score, or its sign in weak mode).
    pub expected: i32,
    /// What the solver answered.
    pub got: i32,
}

/// The result of a benchmark run.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Report {
    /// One row per (configuration, mode, set), in run order.
    pub rows: Vec<Row>,
    /// Every wrong answer.
    pub mismatches: Vec<Mismatch>,
    /// Whether the run stopped early: the last row then holds only the positions
    /// solved before the stop (its `positions` says how many).
    pub interrupted: bool,
}

/// One configuration of a run, and whether its solver answers from the opening
/// book before it searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The search and its table.
    pub config: Config,
    /// Answer from the book given to the run (the built-in one if none).
    pub book: bool,
}

impl From<Config> for Setup {
    /// The configuration without the book.
    fn from(config: Config) -> Self {
        Setup {
            config,
            book: false,
        }
    }
}

impl Setup {
    /// A solver of this setup on the `size` board, with `book` (or the built-in
    /// one) if it takes the book; a book of another size counts as none.
    fn solver(&self, size: Size, book: Option<&Book>) -> Result<Solver, SolverError> {
        let mut solver = Solver::new(size, self.config)?;
        if self.book {
            let builtin = Book::builtin(size);
            solver.set_book(book.filter(|b| b.size() == size).or(builtin.as_ref()));
        }
        Ok(solver)
    }

    /// The name of the setup's solver in reports: the search's name, with
    /// `+book` when it answers from an opening book.
    fn name(&self) -> String {
        let book = if self.book { "+book" } else { "" };
        format!("{}{book}", self.config.kind.name())
    }
}

/// One line of a test set, its position size-erased.
#[derive(Clone, Debug)]
struct Entry {
    /// The move string as written.
    moves: String,
    /// The position it leads to (nobody has won: reading refuses that).
    position: Position,
    /// The expected strong score.
    score: i32,
}

/// A test set of any size: its file name and its positions, in file order.
#[derive(Clone, Debug)]
struct Set {
    name: String,
    entries: Vec<Entry>,
}

/// Test sets of one board size, read from their files.
#[derive(Debug)]
pub struct TestSets {
    size: Size,
    sets: Vec<Set>,
}

impl TestSets {
    /// No set yet, of the `size` board.
    ///
    /// # Errors
    /// [`SizeError`] for a size this build does not hold.
    pub fn new(size: Size) -> Result<TestSets, SizeError> {
        Ok(TestSets {
            size: size.built()?,
            sets: Vec::new(),
        })
    }

    /// Reads the set at `path` ([`TestSet::read_valid`]) and adds its valid
    /// lines; returns the errors of its other lines.
    ///
    /// # Errors
    /// A file that cannot be read.
    pub fn push_file(&mut self, path: &Path) -> Result<Vec<TestSetError>, TestSetError> {
        let (set, bad) = with_size!(self.size, read_set(path))?;
        self.sets.push(set);
        Ok(bad)
    }

    /// Positions of each set, in the order they were added.
    pub fn lens(&self) -> Vec<usize> {
        self.sets.iter().map(|s| s.entries.len()).collect()
    }

    /// Runs every set through every setup in every mode with `threads` workers
    /// per set ([`run_threads`]), `book` answering for the setups that ask for
    /// it (the built-in one if `None`; a book of another size counts as none).
    ///
    /// # Errors
    /// A table that cannot be had, or a worker thread that cannot start.
    #[allow(clippy::too_many_arguments)] // the run's inputs and the thread count
    pub fn run_threads(
        &self,
        setups: &[Setup],
        book: Option<&Book>,
        modes: &[Mode],
        limit: Option<usize>,
        stop: &StopFlag,
        threads: usize,
        tick: impl FnMut() + Send,
    ) -> Result<Report, SolverError> {
        let run = Run {
            size: self.size,
            setups,
            book,
            modes,
            limit,
            stop,
            threads,
        };
        run_threads(&run, &self.sets, tick)
    }
}

/// The set at `path` on the `W`x`H` board, its positions erased, and the errors
/// of its invalid lines.
fn read_set<const W: usize, const H: usize, B: Bits>(
    path: &Path,
) -> Result<(Set, Vec<TestSetError>), TestSetError> {
    let (set, bad) = TestSet::<W, H, B>::read_valid(path)?;
    let entries = set
        .entries
        .into_iter()
        .map(|e| Entry {
            position: Position::from(*e.position),
            moves: e.moves,
            score: e.score,
        })
        .collect();
    let set = Set {
        name: set.name,
        entries,
    };
    Ok((set, bad))
}

/// What a run does, but the sets and the tick.
struct Run<'a> {
    /// The sets' board size.
    size: Size,
    setups: &'a [Setup],
    /// The book of the setups that take one (the built-in one if `None`).
    book: Option<&'a Book>,
    modes: &'a [Mode],
    /// Keep only the first positions of each set.
    limit: Option<usize>,
    stop: &'a StopFlag,
    /// Workers per set.
    threads: usize,
}

/// Runs every set through every configuration in every mode, with `threads`
/// workers per set ([`pool::run`]), each with its own solver of the setup's
/// configuration (whose `table_mb` is each worker's), solving one position at a
/// time: with more than one, the rows give throughput (see [`Row::threads`]).
/// Node counts and scores are the same on any number of workers.
///
/// `limit` keeps only the first positions of each set. `tick` is called once per
/// position solved, in order (for a progress bar). Setting `stop` ends the run
/// within a fraction of a millisecond, even inside a long search: the report then
/// holds the rows finished so far, a last row for the positions of the
/// interrupted set that were solved (if any), and `interrupted` is set.
///
/// # Errors
/// A configuration whose table cannot be built (check them first with
/// [`Config::check_on`] to fail before any work is done), or a worker thread that
/// cannot start.
fn run_threads(
    run: &Run<'_>,
    sets: &[Set],
    mut tick: impl FnMut() + Send,
) -> Result<Report, SolverError> {
    let mut report = Report::default();
    for &mode in run.modes {
        for setup in run.setups {
            // Every worker's solver, its fresh memory mapped and zeroed, before
            // the clock starts.
            let solvers = (0..run.threads.max(1))
                .map(|_| {
                    let mut s = setup.solver(run.size, run.book)?;
                    s.set_stop_flag(run.stop.clone());
                    s.prefault();
                    Ok(Mutex::new(s))
                })
                .collect::<Result<Vec<_>, SolverError>>()?;
            for set in sets {
                let one = OneSet {
                    setup,
                    mode,
                    set,
                    stop: run.stop,
                };
                let (row, interrupted) =
                    one.run(run.limit, &solvers, &mut report.mismatches, &mut tick)?;
                report.rows.extend(row);
                if interrupted {
                    report.interrupted = true;
                    return Ok(report);
                }
            }
        }
    }
    Ok(report)
}

/// One set in one mode through one setup.
struct OneSet<'a> {
    setup: &'a Setup,
    mode: Mode,
    set: &'a Set,
    stop: &'a StopFlag,
}

impl OneSet<'_> {
    /// The mismatch of answer `got` for position `i` (0-based), if the answer is
    /// not the one the mode must give.
    fn mismatch(&self, i: usize, got: i32) -> Option<Mismatch> {
        let e = &self.set.entries[i];
        let want = self.mode.answer_for(e.score);
        (got != want).then(|| Mismatch {
            solver: self.setup.name(),
            config: self.setup.config.label(),
            mode: self.mode.name(),
            set: self.set.name.clone(),
            index: i + 1,
            moves: e.moves.clone(),
            expected: want,
            got,
        })
    }

    /// Solves the first `limit` positions of the set with one worker per solver
    /// (each locks only its own), adding the wrong answers to `mismatches` in
    /// position order: the row of the positions solved (none if none were), and
    /// whether a stop cut the set short.
    fn run(
        &self,
        limit: Option<usize>,
        solvers: &[Mutex<Solver>],
        mismatches: &mut Vec<Mismatch>,
        tick: &mut (impl FnMut() + Send),
    ) -> Result<(Option<Row>, bool), SolverError> {
        let (setup, mode, set) = (self.setup, self.mode, self.set);
        let n = limit.unwrap_or(usize::MAX).min(set.entries.len());
        let threads = solvers.len();
        let mut time = Duration::ZERO;
        let mut nodes = 0u64;
        let mut wrong = 0;
        let mut solved = 0;
        let mut stats: Option<TableStats> = None;
        let start = Instant::now();
        pool::run(
            threads,
            // Each worker's nodes its own: no worker joins another's search.
            |i| Ok(Worker::new(i)),
            set.entries[..n].iter(),
            threads,
            self.stop,
            |&mut i, _, e| {
                let mut solver = solvers[i].lock().unwrap_or_else(|e| e.into_inner());
                let s = solver.solve(&e.position, mode).ok()?;
                Some((s, solver.last_stats()))
            },
            |i, (s, st)| {
                solved += 1;
                time += s.time;
                nodes += s.nodes;
                if let Some(st) = st {
                    stats.get_or_insert_with(TableStats::default).add(&st);
                }
                if let Some(m) = self.mismatch(i as usize, s.score) {
                    wrong += 1;
                    mismatches.push(m);
                }
                tick();
                true
            },
        )
        .map_err(|e| match e {
            PoolError::Worker(e) => e,
            PoolError::Spawn { count, error, .. } => SolverError::Table(TableError::Threads {
                count,
                reason: error.to_string(),
            }),
        })?;
        // One thread: the searches' own time; more: the set's wall time.
        let secs = if threads == 1 {
            time.as_secs_f64()
        } else {
            start.elapsed().as_secs_f64()
        };
        let row = (solved > 0).then(|| {
            let count = solved as f64;
            Row {
                solver: setup.name(),
                config: setup.config.label(),
                default_table: setup.config.is_default_table(),
                mode: mode.name(),
                set: set.name.clone(),
                positions: solved,
                planned: n,
                mean_time_s: secs / count,
                mean_nodes: nodes as f64 / count,
                total_nodes: nodes,
                kpos_per_s: if secs > 0.0 {
                    nodes as f64 / secs / 1000.0
                } else {
                    0.0
                },
                mismatches: wrong,
                stats,
                threads,
            }
        });
        Ok((row, solved < n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bundled test sets (the workspace's testsets/).
    fn bundled(name: &str) -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("testsets")
            .join(name)
    }

    /// The first `n` positions of a bundled test set.
    fn sample(name: &str, n: usize) -> Set {
        let (mut set, bad) = read_set::<7, 6, u64>(&bundled(name)).unwrap();
        assert!(bad.is_empty());
        set.entries.truncate(n);
        set
    }

    #[test]
    fn two_workers_give_the_scores_and_nodes_of_one() {
        let setups = [Setup::from(Config {
            table_mb: 4,
            ..Config::default()
        })];
        let modes = [Mode::Strong, Mode::Weak];
        let sets = [sample("end-easy", 60), sample("middle-easy", 40)];
        let stop = StopFlag::new();
        let run = |sets: &[Set], threads| {
            let mut ticks = 0;
            let run = Run {
                size: Size::STANDARD,
                setups: &setups,
                book: None,
                modes: &modes,
                limit: None,
                stop: &stop,
                threads,
            };
            let report = run_threads(&run, sets, || ticks += 1).unwrap();
            assert!(!report.interrupted);
            assert_eq!(ticks, 2 * 100);
            report
        };
        let (one, two) = (run(&sets, 1), run(&sets, 2));
        assert_eq!(one.rows.len(), 4);
        for (a, b) in one.rows.iter().zip(&two.rows) {
            assert_eq!((a.threads, b.threads), (1, 2));
            assert_eq!((&a.set, a.mode, a.positions), (&b.set, b.mode, b.positions));
            assert!(a.total_nodes > 0);
            assert_eq!(a.total_nodes, b.total_nodes, "{} {}", a.set, a.mode);
            assert_eq!((a.mismatches, b.mismatches), (0, 0));
        }
        // Every strong answer, in position order: expected scores that no
        // position has make each one a mismatch, which shows what the solver said
        // (in weak mode, those of the positions that do not win).
        let mut wrong = sets.clone();
        for e in wrong.iter_mut().flat_map(|s| s.entries.iter_mut()) {
            e.score = 1000;
        }
        let said = |r: &Report| -> Vec<_> {
            r.mismatches
                .iter()
                .map(|m| (m.mode, m.set.clone(), m.index, m.got))
                .collect()
        };
        let (one, two) = (run(&wrong, 1), run(&wrong, 2));
        let strong = one.mismatches.iter().filter(|m| m.mode == "strong").count();
        assert_eq!(strong, 100);
        assert_eq!(said(&one), said(&two));
        let first: Vec<usize> = one.mismatches[..60].iter().map(|m| m.index).collect();
        assert_eq!(first, (1..=60).collect::<Vec<_>>());
    }

    #[test]
    fn sets_are_read_and_run_with_their_nodes() {
        let dir = std::env::temp_dir().join(format!("c4-testsets-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("end");
        let moves = "2252576253462244111563365343671351441";
        std::fs::write(&path, format!("{moves} -1\n4455 x\n")).unwrap();
        let mut sets = TestSets::new(Size::STANDARD).unwrap();
        assert_eq!(sets.push_file(&path).unwrap().len(), 1, "the bad score");
        assert_eq!(sets.lens(), vec![1]);
        assert!(sets.push_file(&dir.join("none")).is_err());
        let setups = [Setup::from(Config::default())];
        let report = sets
            .run_threads(
                &setups,
                None,
                &[Mode::Strong],
                None,
                &StopFlag::new(),
                1,
                || {},
            )
            .unwrap();
        // The nodes of the same search outside the harness.
        let mut solver = Solver::new(Size::STANDARD, Config::default()).unwrap();
        let pos = Position::parse(Size::STANDARD, moves).unwrap();
        let alone = solver.solve(&pos, Mode::Strong).unwrap();
        assert!(report.mismatches.is_empty());
        assert_eq!(report.rows.len(), 1);
        assert_eq!(report.rows[0].total_nodes, alone.nodes);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
