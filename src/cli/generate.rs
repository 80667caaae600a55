//! `c4solver generate`: a labelled test set, one `moves score` line per position,
//! each written as soon as it is kept.

use c4solver::generate::{self, Request};
use c4solver::solver::SolveError;

use super::Outcome;
use super::args::{EngineArgs, GenerateArgs};
use super::engine;
use super::output::{self, Item};
use super::progress;
use super::signals::Signals;

/// Generates the set.
///
/// # Errors
/// A solver that cannot be built, or stdout failing for another reason than being
/// closed.
pub fn run(
    args: &GenerateArgs,
    engine_args: &EngineArgs,
    signals: &Signals,
) -> anyhow::Result<Outcome> {
    let mut solver = engine::single_solver(engine_args, "generate", false)?;
    solver.set_stop_flag(signals.stop_flag().clone());
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
    let (tx, writer) = output::stdout();
    let stop = signals.stop_flag().clone();
    let result = generate::generate(&request, &mut solver, |new, kept, tried| {
        if let Some(g) = new
            && !tx.send(Item {
                seq: kept as u64 - 1,
                out: Some(format!("{} {}\n", g.moves, g.score)),
                err: None,
            })
        {
            // stdout is closed: nobody reads what we would generate.
            stop.stop();
        }
        bar.set_position(kept as u64);
        bar.set_message(format!("{tried} tried"));
    });
    bar.finish_and_clear();
    drop(tx);
    writer.finish()?;
    match result {
        Ok(_) | Err(SolveError::Stopped) => Ok(Outcome::Ok),
        Err(e @ SolveError::GameOver) => Err(e.into()),
    }
}
