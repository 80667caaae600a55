//! What `solve` and `analyze` share: every input line answered by a worker of
//! the pool and written in input order, a bad line's output, and the check of a
//! score against the line's expected one. Each command keeps its own output.

use std::path::PathBuf;

use c4solver::{Mode, Size, Solver};

use super::Exit;
use super::args::EngineArgs;
use super::engine;
use super::output::{self, Item};
use super::signals::Signals;
use super::source::{self, Line, Message};
use c4solver::batch as pool;

/// Answers every line of `files` (or stdin) with `answer`, one line per worker,
/// writing the items in input order; `tally` gets what each answer adds up (as
/// they are written). The workers are `command`'s (`stats`: they count table
/// statistics). `answer` gives the line's item, what it means for the exit code
/// and the tally's part, or `None` if its search was stopped.
///
/// # Errors
/// A solver that cannot be built, or stdout failing for another reason than being
/// closed.
pub fn run<T: Default + Send>(
    files: &[PathBuf],
    engine: &EngineArgs,
    command: &str,
    stats: bool,
    signals: &Signals,
    answer: impl Fn(&Line, &mut Solver) -> Option<(Item, Exit, T)> + Sync,
    mut tally: impl FnMut(T) + Send,
) -> anyhow::Result<Exit> {
    let threads = engine::threads(engine);
    // The run's own flag: set by a signal, or by the run itself (stdout closed).
    let stop = signals.stop_flag().child();
    let make = engine::workers(engine, command, stats, threads, &stop)?;
    source::hint(files);
    let input = source::spawn(files, 4)?;
    let (tx, writer) = output::stdout()?;
    let mut outcome = Exit::Ok;
    let ran = pool::run(
        threads,
        engine::noted(make),
        input.jobs(&stop),
        4 * threads + 64,
        &stop,
        |solver: &mut Solver, seq, msg| match msg {
            Message::Failed { seq: read, message } => Some((
                Item {
                    seq: {
                        debug_assert_eq!(read, seq, "the pool numbers jobs as they were read");
                        seq
                    },
                    out: None,
                    err: Some(message),
                },
                Exit::Failure,
                T::default(),
            )),
            Message::Line(line) => {
                let (mut item, o, part) = answer(&line, solver)?;
                item.seq = seq;
                Some((item, o, part))
            }
        },
        |_, (item, o, part)| {
            outcome = outcome.worst(o);
            tally(part);
            tx.send(item)
        },
    );
    drop(tx);
    let written = writer.finish();
    ran.map_err(engine::pool_error)?;
    written?;
    Ok(outcome)
}

/// The line parsed on the `size` board, or the item of a line that is not valid:
/// its error on stderr and, to keep the output aligned with the input, an empty
/// line on stdout (with `json`, the error as a JSON line).
pub fn parse(line: &Line, size: Size, json: bool) -> Result<c4solver::Line<'_>, Item> {
    c4solver::Line::parse(size, &line.bytes, line.truncated).map_err(|e| Item {
        seq: line.seq,
        err: Some(format!("c4solver: {}: {e}\n", line.place())),
        out: Some(if json {
            let mut v = serde_json::json!({ "line": line.number, "error": e.to_string() });
            if let Some(f) = line.file_name() {
                v["file"] = f.into();
            }
            format!("{v}\n")
        } else {
            "\n".to_string()
        }),
    })
}

/// `score` compared with the line's `expected` score (`mode`'s answer for it): the
/// line's item, its error set if they differ (its output left to the command),
/// and the outcome, [`Exit::BadInput`] if they differ.
pub fn compare(line: &Line, mode: Mode, expected: Option<i32>, score: i32) -> (Item, Exit) {
    let mut item = Item {
        seq: line.seq,
        ..Item::default()
    };
    let want = expected.map(|e| mode.answer_for(e));
    if want.is_none_or(|w| w == score) {
        return (item, Exit::Ok);
    }
    item.err = Some(format!(
        "c4solver: {}: {} score {} differs from expected {}\n",
        line.place(),
        mode.name(),
        score,
        want.unwrap_or_default()
    ));
    (item, Exit::BadInput)
}
