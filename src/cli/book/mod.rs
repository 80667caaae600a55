//! `c4solver book`: one file per subcommand.

mod export;
mod generate;
mod info;
mod merge;
mod verify;

use c4solver::Bits;

use super::Outcome;
use super::args::{BookAction, BookArgs, EngineArgs};
use super::signals::Signals;

/// The book at `file` (any version, or a shard), else the built-in 7x6 one, with
/// the name to show for it.
///
/// # Errors
/// A file that cannot be read or is not a book of this size; no `file` on
/// another size than 7x6.
fn open<const W: usize, const H: usize, B: Bits>(
    file: Option<&std::path::Path>,
) -> anyhow::Result<(String, c4solver::sized::Book<W, H, B>)> {
    use anyhow::Context;
    Ok(match file {
        Some(path) => (
            path.display().to_string(),
            c4solver::sized::Book::<W, H, B>::read_any(path).map_err(|e| match e {
                c4solver::BookError::Io { .. } => anyhow::Error::new(e),
                e => anyhow::anyhow!("{}: {e}", path.display()),
            })?,
        ),
        None if (W, H) == (7, 6) => (
            "built-in".to_string(),
            c4solver::sized::Book::<W, H, B>::builtin()
                .context("the built-in book does not check out")?,
        ),
        None => anyhow::bail!("there is no built-in {W}x{H} book: name a book file"),
    })
}

/// Runs a `book` subcommand.
///
/// # Errors
/// Whatever the subcommand reports (a file that cannot be read or written, a
/// checkpoint or shard that does not fit, a table that cannot be built).
pub fn run<const W: usize, const H: usize, B: Bits>(
    args: &BookArgs,
    engine: &EngineArgs,
    signals: &Signals,
) -> anyhow::Result<Outcome> {
    match &args.action {
        BookAction::Generate(g) => generate::run::<W, H, B>(g, engine, signals),
        BookAction::Merge(m) => merge::run::<W, H, B>(m),
        BookAction::Verify(v) => verify::run::<W, H, B>(v, engine, signals),
        BookAction::Info(i) => info::run::<W, H, B>(i),
        BookAction::Export(e) => export::run::<W, H, B>(e),
    }
}
