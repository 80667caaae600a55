//! From the engine options (`--solver`, `--table`, `--replace`, `--depth`,
//! `--table-mb`, `--keep-table`, `--threads`, `--book`, `--no-book`) to solver
//! configurations.

use anyhow::{anyhow, bail};

use c4solver::{
    Book7x6, BookError, Config, DepthKind, ReplaceKind, Solver7x6, SolverKind, TableKind,
};

use super::args::EngineArgs;

/// Every combination of the listed values, without duplicates (`--depth` does not
/// matter to `always`), all without the book (`bench` adds the book's rows). The
/// search is `tuned` unless `--solver` says otherwise; without `--table`, each
/// search gets its own table design.
///
/// Combinations that cannot be built (a policy the design does not offer, a size
/// too small for the design's keys) are returned apart, each with the reason.
pub fn configs(engine: &EngineArgs, stats: bool) -> (Vec<Config>, Vec<(Config, String)>) {
    let solvers = if engine.solver.is_empty() {
        vec![SolverKind::Tuned]
    } else {
        engine.solver.iter().map(|&s| s.into()).collect()
    };
    let mut good: Vec<Config> = Vec::new();
    let mut left_out: Vec<(Config, String)> = Vec::new();
    for kind in solvers {
        let tables: Vec<TableKind> = if engine.table.is_empty() {
            vec![kind.own_table()]
        } else {
            engine.table.iter().map(|&t| t.into()).collect()
        };
        for &table in &tables {
            for &replace in &engine.replace {
                let replace: ReplaceKind = replace.into();
                for &depth in &engine.depth {
                    for &table_mb in &engine.table_mb {
                        let config = Config {
                            kind,
                            table_mb,
                            keep_table: engine.keep_table,
                            table,
                            replace,
                            depth: if replace == ReplaceKind::Always {
                                DepthKind::Cells
                            } else {
                                depth.into()
                            },
                            stats,
                            book: false,
                        };
                        if good.contains(&config) || left_out.iter().any(|(c, _)| *c == config) {
                            continue;
                        }
                        match config.check::<7, 6>() {
                            Ok(()) => good.push(config),
                            Err(e) => left_out.push((config, e.to_string())),
                        }
                    }
                }
            }
        }
    }
    (good, left_out)
}

/// The one configuration of a command that runs a single solver (`solve`,
/// `generate`), built, with the book the options choose (the built-in one unless
/// `--no-book` or `--book FILE`).
///
/// # Errors
/// A list where one value is expected, a table that cannot be built, or a book
/// file that cannot be read, with a message naming the command or the file.
pub fn single_solver(engine: &EngineArgs, command: &str, stats: bool) -> anyhow::Result<Solver7x6> {
    let config = single_config(engine, command, stats)?;
    let mut solver = Solver7x6::new(config)?;
    if let Some(book) = book_file(engine)? {
        solver.set_book(Some(book));
    }
    Ok(solver)
}

/// The book file of `--book FILE`, read and checked.
///
/// # Errors
/// A file that is not a whole 7x6 book, with the reason.
pub fn book_file(engine: &EngineArgs) -> anyhow::Result<Option<Book7x6>> {
    let Some(Some(path)) = &engine.book else {
        return Ok(None);
    };
    let book = Book7x6::read(path).map_err(|e| match e {
        BookError::Io { .. } => anyhow!("--book {e}"),
        BookError::BadMagic => anyhow!(
            "--book {}: {e} (--book takes the next name as its file: to name the built-in \
             book, put --book after the other arguments)",
            path.display()
        ),
        e => anyhow!("--book {}: {e}", path.display()),
    })?;
    Ok(Some(book))
}

/// Worker threads: `--threads N`, or every core.
pub fn threads(engine: &EngineArgs) -> usize {
    engine.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |n| n as usize,
    )
}

/// The one configuration of a command that runs a single solver, unbuilt; its
/// `book` flag says whether the built-in book is used (`--book FILE` is read by
/// [`book_file`]).
///
/// # Errors
/// As [`single_solver`], but for the book file.
pub fn single_config(engine: &EngineArgs, command: &str, stats: bool) -> anyhow::Result<Config> {
    let lists = [
        ("--solver", engine.solver.len()),
        ("--table", engine.table.len()),
        ("--replace", engine.replace.len()),
        ("--depth", engine.depth.len()),
        ("--table-mb", engine.table_mb.len()),
    ];
    if let Some((flag, _)) = lists.iter().find(|(_, n)| *n > 1) {
        bail!("{flag} takes a single value for `{command}` (lists are for `bench --compare`)");
    }
    let (good, left_out) = configs(engine, stats);
    if let Some((_, reason)) = left_out.first() {
        bail!("{reason}");
    }
    Ok(Config {
        book: !engine.no_book && matches!(engine.book, None | Some(None)),
        ..good[0]
    })
}
