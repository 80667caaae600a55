//! Every call of `serve` into the library's solver and book: parsing a position
//! (the command line's own parser, so that its messages are the command line's),
//! building the solver threads' searches, and one analysis. The rest of the
//! server knows only [`Parsed`], [`Task`] and the library's [`Answer`].

use c4solver::Bits;
use c4solver::parse_pos;
use c4solver::{Mode, StopFlag, sized::Solver};

use super::answer::{Answer, Parsed, Position, Task};
use super::pool::{Failure, Work};
use crate::cli::args::EngineArgs;
use crate::cli::engine;

/// Parses the moves of `pos` as the command line parses a line of `analyze`,
/// with its message on error; a second field (a `solve` line's expected score)
/// has no place in a query ([`parse_pos`], as the page's WebAssembly engine).
///
/// # Errors
/// The command line's message for the line, without its `line N: ` prefix.
pub fn parse<const W: usize, const H: usize, B: Bits>(pos: &[u8]) -> Result<Parsed, String> {
    let q = parse_pos::<W, H, B>(pos).map_err(|e| e.to_string())?;
    Ok(Parsed {
        moves: q.moves.to_string(),
        key: q.position.key().to_u128(),
        position: Position::new(q.position),
    })
}

/// One search per solver thread, each with its own solver and table (its share
/// of `--table-mb`) and the book the options choose, built now so that a table
/// that cannot be had is reported before the server listens.
///
/// # Errors
/// The command line's messages for options, book files and tables.
pub fn workers<const W: usize, const H: usize, B: Bits>(
    engine: &EngineArgs,
    threads: usize,
) -> anyhow::Result<Vec<Work>> {
    let make = engine::workers::<W, H, B>(engine, "serve", false, threads, &StopFlag::new())?;
    (0..threads)
        .map(|i| {
            let mut solver = make(i)?.state;
            let work: Work =
                Box::new(move |task: &Task, stop: &StopFlag| analyze(&mut solver, task, stop));
            Ok(work)
        })
        .collect()
}

/// The analysis of one task; [`Failure::Stopped`] if `stop` was set before it
/// ended.
fn analyze<const W: usize, const H: usize, B: Bits>(
    solver: &mut Solver<W, H, B>,
    task: &Task,
    stop: &StopFlag,
) -> Result<Answer, Failure> {
    solver.set_stop_flag(stop.clone());
    let pos = task
        .position
        .board::<W, H, B>()
        .ok_or_else(|| Failure::Failed(format!("the position is not one of the {W}x{H} board")))?;
    let mode = if task.weak { Mode::Weak } else { Mode::Strong };
    solver
        .answer(&task.moves, &pos, mode, task.pv)
        .map_err(|_| Failure::Stopped)
}
