//! `c4solver generate`: a labelled test set, one `moves score` line per position,
//! each written as soon as it is kept. Candidates are labelled in parallel, one
//! per worker, and kept in the order they were drawn, so that a seed gives the
//! same file with any number of threads.

use c4solver::{SolveError, Solver};

use super::Exit;
use super::args::{EngineArgs, GenerateArgs};
use super::candidates::{self, Generated, Request};
use super::engine;
use super::output::{self, Item};
use super::progress;
use super::signals::Signals;
use c4solver::batch as pool;

/// Generates the set.
///
/// # Errors
/// A solver that cannot be built, or stdout failing for another reason than being
/// closed.
pub fn run(
    args: &GenerateArgs,
    engine_args: &EngineArgs,
    signals: &Signals,
) -> anyhow::Result<Exit> {
    let threads = engine::threads(engine_args);
    // Set by a signal, or by the run once enough positions are kept (or stdout
    // is closed): the candidates still being labelled are dropped.
    let stop = signals.stop_flag().child();
    let make = engine::workers(engine_args, "generate", false, threads, &stop)?;
    let request = Request {
        stage: args.stage.into(),
        difficulty: args.difficulty.into(),
        count: usize::try_from(args.count).unwrap_or(usize::MAX),
        seed: args.seed,
    };
    let bar = progress::bar(
        args.count,
        "{bar:40} {pos}/{len} kept, {msg} [{elapsed_precise}, eta {eta}]",
    );
    bar.set_message("0 tried");
    let (tx, writer) = output::stdout()?;
    let (mut kept, mut tried) = (0usize, 0usize);
    let difficulty = request.difficulty;
    let mut failed = None;
    let mut ran = Ok(());
    if request.is_possible() {
        ran = pool::run(
            threads,
            engine::noted(make),
            candidates::candidates(engine_args.size, &request)?,
            4 * threads + 16,
            &stop,
            |solver: &mut Solver, _, (moves, pos)| match candidates::label(solver, &pos, difficulty)
            {
                Ok(score) => Some(Ok(score.map(|score| Generated { moves, score }))),
                Err(SolveError::Stopped) => None,
                Err(e) => Some(Err(e)),
            },
            |_, labelled| {
                tried += 1;
                let g = match labelled {
                    Ok(g) => g,
                    Err(e) => {
                        failed = Some(e);
                        return false;
                    }
                };
                if let Some(g) = g {
                    kept += 1;
                    if !tx.send(Item {
                        seq: kept as u64 - 1,
                        out: Some(format!("{} {}\n", g.moves, g.score)),
                        err: None,
                    }) {
                        // stdout is closed: nobody reads what we would generate.
                        return false;
                    }
                }
                bar.set_position(kept as u64);
                bar.set_message(format!("{tried} tried"));
                kept < request.count
            },
        );
    }
    bar.finish_and_clear();
    drop(tx);
    let written = writer.finish();
    ran.map_err(engine::pool_error)?;
    written?;
    match failed {
        None => Ok(Exit::Ok),
        Some(e) => Err(e.into()),
    }
}
