//! The benchmark harness: runs test sets through solver configurations, checks
//! every score and gives the tutorial's figures (mean time, mean nodes, K pos/s;
//! the command line lays them out as tables).

use crate::sized::Bits;
use std::sync::Mutex;
use std::time::Duration;

use serde::Serialize;

use crate::books::Book;
use crate::pool::{self, FromIter, PoolError, Worker};
use crate::solver::{Config, Mode, Solver, StopFlag};
use crate::table::{TableError, TableStats};
use crate::testset::TestSet;

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
    /// A solver of this setup, with `book` (or the built-in one) if it takes the
    /// book.
    fn solver<const W: usize, const H: usize, B: Bits>(
        &self,
        book: Option<&Book<W, H, B>>,
    ) -> Result<Solver<W, H, B>, TableError> {
        let mut solver = Solver::<W, H, B>::new(self.config)?;
        if self.book {
            solver.set_book(book.cloned().or_else(Book::builtin));
        }
        Ok(solver)
    }
}

/// The name of a setup's solver in reports: the search's name, with `+book` when
/// it answers from an opening book.
pub(crate) fn solver_name(setup: &Setup) -> String {
    let book = if setup.book { "+book" } else { "" };
    format!("{}{book}", setup.config.kind.name())
}

/// The mismatch of answer `got` for position `i` (0-based) of `set`, if the
/// answer is not the one `mode` must give.
fn mismatch<const W: usize, const H: usize, B: Bits>(
    setup: &Setup,
    mode: Mode,
    set: &TestSet<W, H, B>,
    i: usize,
    got: i32,
) -> Option<Mismatch> {
    let e = &set.entries[i];
    let want = mode.answer_for(e.score);
    (got != want).then(|| Mismatch {
        solver: solver_name(setup),
        config: setup.config.label(),
        mode: mode.name(),
        set: set.name.clone(),
        index: i + 1,
        moves: e.moves.clone(),
        expected: want,
        got,
    })
}

/// Runs every set through every configuration in every mode, with `threads`
/// workers per set ([`pool::run`]), each with its own solver of the setup's
/// configuration (whose `table_mb` is each worker's), solving one position at a
/// time: with more than one, the rows give throughput (see [`Row::threads`]).
/// Node counts and scores are the same on any number of workers.
///
/// The setups that take the book answer from `book`, or from the built-in book
/// if `None`.
///
/// `limit` keeps only the first positions of each set. `tick` is called once per
/// position solved, in order (for a progress bar). Setting `stop` ends the run
/// within a fraction of a millisecond, even inside a long search: the report then
/// holds the rows finished so far, a last row for the positions of the
/// interrupted set that were solved (if any), and `interrupted` is set.
///
/// # Errors
/// A configuration whose table cannot be built (check them first with
/// [`Config::check`] to fail before any work is done), or a worker thread that
/// cannot start.
#[allow(clippy::too_many_arguments)] // the run's inputs and the thread count
pub(crate) fn run_threads<const W: usize, const H: usize, B: Bits>(
    setups: &[Setup],
    book: Option<&Book<W, H, B>>,
    modes: &[Mode],
    sets: &[TestSet<W, H, B>],
    limit: Option<usize>,
    stop: &StopFlag,
    threads: usize,
    mut tick: impl FnMut() + Send,
) -> Result<Report, TableError> {
    let mut report = Report::default();
    for &mode in modes {
        for setup in setups {
            // Every worker's solver, its fresh memory mapped and zeroed, before
            // the clock starts.
            let solvers = (0..threads.max(1))
                .map(|_| {
                    let mut s = setup.solver(book)?;
                    s.set_stop_flag(stop.clone());
                    s.prefault();
                    Ok(Mutex::new(s))
                })
                .collect::<Result<Vec<_>, TableError>>()?;
            for set in sets {
                let run = Run {
                    setup,
                    mode,
                    set,
                    stop,
                };
                let (row, interrupted) =
                    run.set(limit, &solvers, &mut report.mismatches, &mut tick)?;
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
struct Run<'a, const W: usize, const H: usize, B: Bits> {
    setup: &'a Setup,
    mode: Mode,
    set: &'a TestSet<W, H, B>,
    stop: &'a StopFlag,
}

impl<const W: usize, const H: usize, B: Bits> Run<'_, W, H, B> {
    /// Solves the first `limit` positions of the set with one worker per solver
    /// (each locks only its own), adding the wrong answers to `mismatches` in
    /// position order: the row of the positions solved (none if none were), and
    /// whether a stop cut the set short.
    fn set(
        &self,
        limit: Option<usize>,
        solvers: &[Mutex<Solver<W, H, B>>],
        mismatches: &mut Vec<Mismatch>,
        tick: &mut (impl FnMut() + Send),
    ) -> Result<(Option<Row>, bool), TableError> {
        let (setup, mode, set) = (self.setup, self.mode, self.set);
        let n = limit.unwrap_or(usize::MAX).min(set.entries.len());
        let threads = solvers.len();
        let mut time = Duration::ZERO;
        let mut nodes = 0u64;
        let mut wrong = 0;
        let mut solved = 0;
        let mut stats: Option<TableStats> = None;
        let start = web_time::Instant::now();
        pool::run(
            threads,
            |i| {
                Ok(Worker {
                    state: i,
                    helper: None,
                })
            },
            FromIter(set.entries[..n].iter()),
            threads,
            self.stop,
            |&mut i, _, e| {
                let mut solver = solvers[i].lock().unwrap_or_else(|e| e.into_inner());
                let s = solver.solve_playable(&e.position, mode).ok()?;
                Some((s, solver.last_stats()))
            },
            |i, (s, st)| {
                solved += 1;
                time += s.time;
                nodes += s.nodes;
                if let Some(st) = st {
                    stats.get_or_insert_with(TableStats::default).add(&st);
                }
                if let Some(m) = mismatch(setup, mode, set, i as usize, s.score) {
                    wrong += 1;
                    mismatches.push(m);
                }
                tick();
                true
            },
        )
        .map_err(|e| match e {
            PoolError::Worker(e) => e,
            PoolError::Spawn { count, error, .. } => TableError::Threads {
                count,
                reason: error.to_string(),
            },
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
                solver: solver_name(setup),
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

/// Rounds `x` to 4 significant digits and writes it with thousands separators:
/// `92.84`, `207,900`, `1,731,000`, `0.5000`.
pub fn sig4(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return "0".to_string();
    }
    let magnitude = x.abs().log10().floor() as i32;
    let decimals = (3 - magnitude).max(0) as usize;
    let rounded = if magnitude >= 4 {
        let p = 10f64.powi(magnitude - 3);
        (x / p).round() * p
    } else {
        x
    };
    let s = format!("{rounded:.decimals$}");
    // After rounding, e.g. 9.9996 -> "10.000": drop the extra digit.
    let s = if s.replace(['.', '-'], "").trim_start_matches('0').len() > 4 && decimals > 0 {
        format!("{rounded:.prec$}", prec = decimals - 1)
    } else {
        s
    };
    let (int, frac) = match s.split_once('.') {
        Some((i, f)) => (i.to_string(), Some(f.to_string())),
        None => (s.clone(), None),
    };
    let (sign, digits) = match int.strip_prefix('-') {
        Some(d) => ("-", d.to_string()),
        None => ("", int),
    };
    let mut grouped = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(c);
    }
    match frac {
        Some(f) => format!("{sign}{grouped}.{f}"),
        None => format!("{sign}{grouped}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first `n` positions of a bundled test set (the workspace's testsets/).
    fn bundled(name: &str, n: usize) -> TestSet {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../testsets")
            .join(name);
        let mut set = TestSet::read(&path).unwrap();
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
        let sets = [bundled("end-easy", 60), bundled("middle-easy", 40)];
        let run = |sets: &[TestSet], threads| {
            let mut ticks = 0;
            let report = run_threads(
                &setups,
                None,
                &modes,
                sets,
                None,
                &StopFlag::new(),
                threads,
                || ticks += 1,
            )
            .unwrap();
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
    fn four_significant_digits() {
        assert_eq!(sig4(92.8412), "92.84");
        assert_eq!(sig4(207_942.24), "207,900");
        assert_eq!(sig4(1_731_151.0), "1,731,000");
        assert_eq!(sig4(68.69), "68.69");
        assert_eq!(sig4(28_752.6), "28,750");
        assert_eq!(sig4(752_300.4), "752,300");
        assert_eq!(sig4(8.0), "8.000");
        assert_eq!(sig4(9.99996), "10.00");
        assert_eq!(sig4(1234.4), "1,234");
        assert_eq!(sig4(0.5), "0.5000");
    }
}
