//! Every call of `serve` into the library's solver and book: parsing a position
//! (the command line's own parser, so that its messages are the command line's),
//! building the solver threads' searches, and one analysis. The rest of the
//! server knows only [`Parsed`], [`Task`] and [`Answer`].

use c4solver::SolveError;
use c4solver::parse_line;
use c4solver::{Board, Mode, Solver, StopFlag};

use super::answer::{Answer, Parsed, Task};
use super::pool::Work;
use crate::cli::args::EngineArgs;
use crate::cli::engine;

/// Parses the moves of `pos` as the command line parses a line of `analyze`,
/// with its message on error; a second field (a `solve` line's expected score)
/// has no place in a query.
///
/// # Errors
/// The command line's message for the line, without its `line N: ` prefix.
pub fn parse<const W: usize, const H: usize>(pos: &[u8]) -> Result<Parsed, String> {
    let q = parse_line::<W, H>(pos, false).map_err(|e| e.to_string())?;
    if q.expected.is_some() {
        return Err(format!(
            "pos holds moves only, found a second field in {}",
            c4solver::quoted(&String::from_utf8_lossy(pos))
        ));
    }
    Ok(Parsed {
        moves: q.moves.to_string(),
        key: q.position.key(),
    })
}

/// One search per solver thread, each with its own solver and table (its share
/// of `--table-mb`) and the book the options choose, built now so that a table
/// that cannot be had is reported before the server listens.
///
/// # Errors
/// The command line's messages for options, book files and tables.
pub fn workers<const W: usize, const H: usize>(
    engine: &EngineArgs,
    threads: usize,
) -> anyhow::Result<Vec<Work>> {
    let make = engine::workers::<W, H>(engine, "serve", false, threads, &StopFlag::new())?;
    (0..threads)
        .map(|i| {
            let mut solver = make(i)?.state;
            let work: Work =
                Box::new(move |task: &Task, stop: &StopFlag| analyze(&mut solver, task, stop));
            Ok(work)
        })
        .collect()
}

/// The analysis of one task, `None` if `stop` was set before it ended.
fn analyze<const W: usize, const H: usize>(
    solver: &mut Solver<W, H>,
    task: &Task,
    stop: &StopFlag,
) -> Option<Answer> {
    solver.set_stop_flag(stop.clone());
    let pos = Board::<W, H>::parse(&task.moves).ok()?;
    let mode = if task.weak { Mode::Weak } else { Mode::Strong };
    let stopped = |e| match e {
        SolveError::Stopped => None::<Answer>,
        SolveError::GameOver => unreachable!("parsed positions never hold four"),
    };
    let analysis = match solver.analyze(&pos, mode) {
        Ok(a) => a,
        Err(e) => return stopped(e),
    };
    let (mut nodes, mut time) = (analysis.nodes(), analysis.time());
    let pv = if task.pv {
        match solver.principal_variation_of(&analysis) {
            Ok(line) => {
                nodes += line.nodes();
                time += line.time();
                Some(line.to_string())
            }
            Err(e) => return stopped(e),
        }
    } else {
        None
    };
    // Every child of a position with fewer stones than the book's depth is in
    // the book: no search scored them.
    let book = solver
        .book()
        .is_some_and(|b| pos.moves_played() < b.depth());
    Some(Answer {
        scores: analysis.scores().to_vec(),
        best: analysis.best_moves().iter().map(|c| c + 1).collect(),
        score: analysis.score(),
        nodes,
        time_us: u64::try_from(time.as_micros()).unwrap_or(u64::MAX),
        pv,
        book,
    })
}
