//! From the engine options (`--solver`, `--table-mb`, `--keep-table`,
//! `--threads`, `--book`, `--no-book`, and with the `research` feature `--table`,
//! `--replace`, `--depth-measure`) to solver configurations.

use anyhow::{anyhow, bail};

use c4solver::StopFlag;
use c4solver::TableError;
use c4solver::{Book, BookError, Config, Size, Solver, SolverError, SolverKind};

use super::args::{BookArg, EngineArgs};
use c4solver::batch::{PoolError, Worker};

/// Table memory of one worker when no `--table-mb` is given, in MB.
pub const DEFAULT_MB_PER_WORKER: usize = 64;

/// The table size of each of `workers` workers for each `--table-mb` value (a
/// total shared out equally), or the default of 64 MB per worker.
///
/// # Errors
/// A total that leaves a worker less than 1 MB.
pub fn table_mb_per_worker(engine: &EngineArgs, workers: usize) -> anyhow::Result<Vec<usize>> {
    if engine.table_mb.is_empty() {
        return Ok(vec![DEFAULT_MB_PER_WORKER]);
    }
    engine
        .table_mb
        .iter()
        .map(|&total| {
            if total != 0 && total < workers {
                bail!(
                    "--table-mb {total} is shared out among {workers} workers: less than 1 MB each \
                     (give at least {workers}, or fewer --threads)"
                );
            }
            Ok(total / workers)
        })
        .collect()
}

/// The configurations that can be built, and those left out.
pub type Configs = (Vec<Config>, Vec<LeftOut>);

/// A combination of options that cannot be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeftOut {
    /// The search and the table options, as `bench` names them.
    pub name: String,
    /// Why.
    pub reason: String,
    /// Whether the reason is memory that cannot be had.
    pub alloc: bool,
}

/// Every combination of the listed values, without duplicates, all without the
/// book (`bench` adds the book's rows), for solvers of one thread each. The
/// search is `tuned` unless `--solver` says otherwise; each search gets its own
/// table design unless the research options (`--table`, `--replace`,
/// `--depth-measure`) say otherwise. `--table-mb` values are shared out among
/// `workers` workers.
///
/// Combinations that cannot be built (a policy the design does not offer, a size
/// too small for the design's keys) are returned apart, each with the reason.
///
/// # Errors
/// A `--table-mb` that leaves a worker less than 1 MB.
pub fn configs(engine: &EngineArgs, stats: bool, workers: usize) -> anyhow::Result<Configs> {
    let sizes = table_mb_per_worker(engine, workers)?;
    let solvers = if engine.solver.is_empty() {
        vec![SolverKind::Tuned]
    } else {
        engine.solver.iter().map(|&s| s.into()).collect()
    };
    let mut good: Vec<Config> = Vec::new();
    let mut left_out: Vec<LeftOut> = Vec::new();
    for kind in solvers {
        for &table_mb in &sizes {
            let base = Config {
                table_mb,
                keep_table: engine.keep_table,
                ..Config::for_solver(kind)
            };
            #[cfg(feature = "research")]
            let all = super::research::expand(&engine.research, base, stats);
            #[cfg(not(feature = "research"))]
            let all = {
                let _ = stats;
                [Ok::<_, (String, String)>(base)]
            };
            for config in all {
                let config = match config {
                    Ok(c) => c,
                    Err((name, reason)) => {
                        push_new(
                            &mut left_out,
                            LeftOut {
                                name,
                                reason,
                                alloc: false,
                            },
                        );
                        continue;
                    }
                };
                if good.contains(&config) {
                    continue;
                }
                match config.check_on(engine.size) {
                    Ok(()) => good.push(config),
                    Err(e) => push_new(
                        &mut left_out,
                        LeftOut {
                            name: format!("{} {}", kind.name(), config.label()),
                            reason: e.to_string(),
                            alloc: matches!(e, SolverError::Table(TableError::Alloc { .. })),
                        },
                    ),
                }
            }
        }
    }
    Ok((good, left_out))
}

/// Adds `item` unless it is there already.
fn push_new<T: PartialEq>(list: &mut Vec<T>, item: T) {
    if !list.contains(&item) {
        list.push(item);
    }
}

/// How to build the workers of a command that runs one configuration on
/// `workers` workers (`solve`, `analyze`, `generate`): the configuration is
/// checked and the book read now; each call of the closure builds one worker (the
/// pool builds them as the jobs come), a solver of one thread with its share of
/// `--table-mb`, the book the options choose (the built-in one unless
/// `--no-book` or `--book FILE`) and `stop` as its stop flag. With more than one
/// worker, the solvers are joinable ([`Solver::new_joinable`]) so that idle
/// workers can help the last searches.
///
/// # Errors
/// A list where one value is expected, or a book file that cannot be read, with a
/// message naming the option or the file; the closure, a table or thread that
/// cannot be had, naming it.
pub fn workers(
    engine: &EngineArgs,
    command: &str,
    stats: bool,
    workers: usize,
    stop: &StopFlag,
) -> anyhow::Result<impl Fn(usize) -> anyhow::Result<Worker<Solver>> + Sync + use<>> {
    let size = engine.size;
    let config = config_for(engine, command, stats, workers)?;
    let book = book_choice(engine)?;
    let stop = stop.clone();
    let total = total_mb(engine, workers);
    Ok(move |index: usize| {
        let solver = if workers == 1 {
            Solver::new(size, config)
        } else {
            Solver::new_joinable(size, config)
        };
        let mut solver = solver.map_err(|e| match e {
            SolverError::Table(TableError::Alloc { .. }) if index == 0 => {
                alloc_error(total, config.table_mb, workers)
            }
            SolverError::Table(TableError::Alloc { mb }) => anyhow!(
                "cannot allocate the table of worker {} of {workers} ({mb} MB each): not enough \
                 memory (give fewer --threads or a smaller --table-mb)",
                index + 1
            ),
            e => e.into(),
        })?;
        solver.set_book(book.as_ref());
        solver.set_stop_flag(stop.clone());
        Ok(Worker::joinable(solver))
    })
}

/// `make` for the pool ([`c4solver::batch::run`]), which goes on without a later
/// worker whose table cannot be had: that worker's error is printed as a note on
/// stderr, once, and the run still answers every line (exit code unchanged).
pub fn noted<S>(
    make: impl Fn(usize) -> anyhow::Result<Worker<S>> + Sync,
) -> impl Fn(usize) -> anyhow::Result<Worker<S>> + Sync {
    let told = std::sync::atomic::AtomicBool::new(false);
    move |index| {
        make(index).inspect_err(|e| {
            if index > 0 && !told.swap(true, std::sync::atomic::Ordering::SeqCst) {
                eprintln!("c4solver: note: {e}; the workers already started go on without it");
            }
        })
    }
}

/// The pool's error as the command line says it.
pub fn pool_error(e: PoolError<anyhow::Error>) -> anyhow::Error {
    match e {
        PoolError::Worker(e) => e,
        e => anyhow!("{e}"),
    }
}

/// The table memory asked for in all, in MB: `--table-mb`, or the default per
/// worker times `workers`.
fn total_mb(engine: &EngineArgs, workers: usize) -> usize {
    engine
        .table_mb
        .first()
        .copied()
        .unwrap_or(DEFAULT_MB_PER_WORKER.saturating_mul(workers))
}

/// The tables of `total` MB (`each` MB for each of `workers` workers) cannot be
/// had.
fn alloc_error(total: usize, each: usize, workers: usize) -> anyhow::Error {
    if workers == 1 {
        anyhow!("cannot allocate a table of {total} MB: not enough memory")
    } else {
        anyhow!(
            "cannot allocate tables of {total} MB in all ({each} MB for each of {workers} \
             workers): not enough memory"
        )
    }
}

/// The one solver of a command that searches one position at a time (`play`),
/// built: every `--threads` thread searches each position together over one
/// table of `--table-mb` (default 64 MB) when the configuration can share its
/// table (the tuned search over the compact table), one thread otherwise; with
/// the book the options choose.
///
/// # Errors
/// As [`workers`].
pub fn team_solver(engine: &EngineArgs, command: &str) -> anyhow::Result<Solver> {
    let mut config = config_for(engine, command, false, 1)?;
    if config.can_share() {
        config.threads = threads(engine);
    }
    let mut solver = Solver::new(engine.size, config)?;
    solver.set_book(book_choice(engine)?.as_ref());
    Ok(solver)
}

/// The book a command answers from before it searches: none with `--book none`
/// or `--no-book`, the file of `--book FILE`, else the built-in one (none on
/// boards without one).
///
/// # Errors
/// As [`book_file`].
pub fn book_choice(engine: &EngineArgs) -> anyhow::Result<Option<Book>> {
    if engine.no_book || engine.book == Some(BookArg::None) {
        return Ok(None);
    }
    Ok(book_file(engine)?.or_else(|| Book::builtin(engine.size)))
}

/// Whether the options ask for a book by name (`--book builtin` or `--book
/// FILE`): `bench` then runs every set with and without it.
pub fn book_named(engine: &EngineArgs) -> bool {
    matches!(engine.book, Some(BookArg::Builtin | BookArg::File(_))) && !engine.no_book
}

/// The book file of `--book FILE`, read and checked.
///
/// # Errors
/// A file that is not a whole book of the board's size, with the reason.
pub fn book_file(engine: &EngineArgs) -> anyhow::Result<Option<Book>> {
    builtin_exists(engine)?;
    let Some(BookArg::File(path)) = &engine.book else {
        return Ok(None);
    };
    let book = Book::read(engine.size, path).map_err(|e| match e {
        e @ BookError::Io { .. } => anyhow!("--book {e}"),
        e => anyhow!("--book {}: {e}", path.display()),
    })?;
    Ok(Some(book))
}

/// Refuses `--book` alone (the built-in book) on a board that has none, as a
/// book file of another board is refused.
fn builtin_exists(engine: &EngineArgs) -> anyhow::Result<()> {
    let size = engine.size;
    if engine.book == Some(BookArg::Builtin) && size != Size::STANDARD {
        bail!(
            "--book builtin: there is no built-in book for the {size} board (it is 7x6): name \
             a {size} book file (`c4solver book generate --size {size}` makes one), or leave \
             --book out"
        );
    }
    Ok(())
}

/// Worker threads: `--threads N`, or every core.
pub fn threads(engine: &EngineArgs) -> usize {
    engine.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |n| usize::try_from(n).unwrap_or(1),
    )
}

/// The one configuration of a command whose [`threads`] workers each run a
/// solver of it (`book generate`, `book verify`), unbuilt: each worker's share of
/// `--table-mb` (64 MB each by default).
///
/// # Errors
/// As [`workers`], but for the book file.
pub fn single_config(engine: &EngineArgs, command: &str, stats: bool) -> anyhow::Result<Config> {
    config_for(engine, command, stats, threads(engine))
}

/// The one configuration of a command, for `workers` workers.
fn config_for(
    engine: &EngineArgs,
    command: &str,
    stats: bool,
    workers: usize,
) -> anyhow::Result<Config> {
    let lists = [
        ("--solver", engine.solver.len()),
        ("--table-mb", engine.table_mb.len()),
        #[cfg(feature = "research")]
        ("--table", engine.research.table.len()),
        #[cfg(feature = "research")]
        ("--replace", engine.research.replace.len()),
        #[cfg(feature = "research")]
        ("--depth-measure", engine.research.depth_measure.len()),
    ];
    if let Some((flag, _)) = lists.iter().find(|(_, n)| *n > 1) {
        bail!("{flag} takes a single value for `{command}` (lists are for `bench`)");
    }
    builtin_exists(engine)?;
    let (good, left_out) = configs(engine, stats, workers)?;
    if let Some(left) = left_out.first() {
        if left.alloc {
            let each = total_mb(engine, workers) / workers.max(1);
            return Err(alloc_error(total_mb(engine, workers), each, workers));
        }
        bail!("{}", left.reason);
    }
    Ok(good[0])
}
