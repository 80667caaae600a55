//! `c4solver book`: one file per subcommand.

mod generate;
mod info;
mod merge;
mod verify;

use super::Outcome;
use super::args::{BookAction, BookArgs, EngineArgs};
use super::signals::Signals;

/// Runs a `book` subcommand.
///
/// # Errors
/// Whatever the subcommand reports (a file that cannot be read or written, a
/// checkpoint or shard that does not fit, a table that cannot be built).
pub fn run<const W: usize, const H: usize>(
    args: &BookArgs,
    engine: &EngineArgs,
    signals: &Signals,
) -> anyhow::Result<Outcome> {
    match &args.action {
        BookAction::Generate(g) => generate::run::<W, H>(g, engine, signals),
        BookAction::Merge(m) => merge::run::<W, H>(m),
        BookAction::Verify(v) => verify::run::<W, H>(v, engine, signals),
        BookAction::Info(i) => info::run::<W, H>(i),
    }
}
