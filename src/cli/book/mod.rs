//! `c4solver book`: one file per subcommand.

mod export;
mod generate;
mod info;
mod merge;
mod verify;

use c4solver::{Book, BookError, Size};

use super::Exit;
use super::args::{BookAction, BookArgs, EngineArgs};
use super::signals::Signals;

/// The book at `file` (any version, or a shard), else the built-in 7x6 one, with
/// the name to show for it.
///
/// # Errors
/// A file that cannot be read or is not a book of this size; no `file` on
/// another size than 7x6.
fn open(size: Size, file: Option<&std::path::Path>) -> anyhow::Result<(String, Book)> {
    use anyhow::Context;
    Ok(match file {
        Some(path) => (path.display().to_string(), read_any(size, path)?),
        None if size == Size::STANDARD => (
            "built-in".to_string(),
            Book::builtin(size).context("the built-in book does not check out")?,
        ),
        None => anyhow::bail!("there is no built-in {size} book: name a book file"),
    })
}

/// The book or shard at `path`, of the `size` board; an error that is not the
/// file's own names the file.
///
/// # Errors
/// A file that cannot be read or is not a book or shard of this size.
fn read_any(size: Size, path: &std::path::Path) -> anyhow::Result<Book> {
    Book::read_any(size, path).map_err(|e| match e {
        e @ BookError::Io { .. } => anyhow::Error::new(e),
        e => anyhow::anyhow!("{}: {e}", path.display()),
    })
}

/// Runs a `book` subcommand.
///
/// # Errors
/// Whatever the subcommand reports (a file that cannot be read or written, a
/// checkpoint or shard that does not fit, a table that cannot be built).
pub fn run(args: &BookArgs, engine: &EngineArgs, signals: &Signals) -> anyhow::Result<Exit> {
    match &args.action {
        BookAction::Generate(g) => generate::run(g, engine, signals),
        BookAction::Merge(m) => merge::run(m, engine.size),
        BookAction::Verify(v) => verify::run(v, engine, signals),
        BookAction::Info(i) => info::run(i, engine.size),
        BookAction::Export(e) => export::run(e, engine.size),
    }
}
