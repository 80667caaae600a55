//! `c4solver solve` (and bare `c4solver`): one answer per input line, written as
//! soon as it is known and its line is next in order.

use std::path::PathBuf;

use c4solver::TableStats;
use c4solver::{Mode, Solver};

use super::Exit;
use super::args::{EngineArgs, SolveArgs};
use super::engine;
use super::output::{self, Item};
use super::signals::Signals;
use super::source::{self, Line, Message};
use c4solver::batch as pool;

/// Solves every line of `files` (or stdin), one line per worker, printing the
/// answers in input order.
///
/// # Errors
/// A solver that cannot be built, or stdout failing for another reason than being
/// closed.
pub fn run(
    args: &SolveArgs,
    files: &[PathBuf],
    engine: &EngineArgs,
    signals: &Signals,
) -> anyhow::Result<Exit> {
    let threads = engine::threads(engine);
    // The run's own flag: set by a signal, or by the run itself (stdout closed).
    let stop = signals.stop_flag().child();
    let make = engine::workers(engine, "solve", args.stats(), threads, &stop)?;
    let mode = if args.weak { Mode::Weak } else { Mode::Strong };
    source::hint(files);
    let input = source::spawn(files, 4)?;
    let (tx, writer) = output::stdout()?;
    let mut outcome = Exit::Ok;
    let mut totals = TableStats::default();
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
                None,
            )),
            Message::Line(line) => {
                let (mut item, o, stats) = answer(&line, solver, mode, args.json)?;
                item.seq = seq;
                Some((item, o, stats))
            }
        },
        |_, (item, o, stats)| {
            outcome = outcome.worst(o);
            if let Some(st) = &stats {
                totals.add(st);
            }
            tx.send(item)
        },
    );
    drop(tx);
    let written = writer.finish();
    ran.map_err(engine::pool_error)?;
    written?;
    if args.stats() && !args.json {
        eprintln!("c4solver: table stats: {}", totals.summary());
    }
    Ok(outcome)
}

/// The output of one line: its text (or its error and an empty line, to keep the
/// output aligned with the input), what it means for the exit code, and the
/// table statistics of its search if the solver counts them; `None` if the
/// search was stopped.
pub fn answer(
    line: &Line,
    solver: &mut Solver,
    mode: Mode,
    json: bool,
) -> Option<(Item, Exit, Option<TableStats>)> {
    let file = line.file.as_ref().map(|f| f.display().to_string());
    let mut item = Item {
        seq: line.seq,
        ..Item::default()
    };
    let q = match c4solver::Line::parse(solver.size(), &line.bytes, line.truncated) {
        Ok(q) => q,
        Err(e) => {
            item.err = Some(format!("c4solver: {}: {e}\n", line.place()));
            item.out = Some(if json {
                let mut v = serde_json::json!({ "line": line.number, "error": e.to_string() });
                if let Some(f) = file {
                    v["file"] = f.into();
                }
                format!("{v}\n")
            } else {
                "\n".to_string()
            });
            return Some((item, Exit::BadInput, None));
        }
    };
    // Parsed lines hold playable positions: a stop is the one way to fail.
    let s = solver.solve(&q.position, mode).ok()?;
    let mut outcome = Exit::Ok;
    let want = q.expected.map(|e| mode.answer_for(e));
    let ok = want.is_none_or(|w| w == s.score);
    if !ok {
        outcome = Exit::BadInput;
        item.err = Some(format!(
            "c4solver: {}: {} score {} differs from expected {}\n",
            line.place(),
            mode.name(),
            s.score,
            want.unwrap_or_default()
        ));
    }
    let stats = solver.last_stats();
    let us = s.time.as_micros();
    item.out = Some(if json {
        let mut v = serde_json::json!({
            "line": line.number,
            "moves": q.moves,
            "score": s.score,
            "nodes": s.nodes,
            "time_us": us,
            // As written on the line: a weak run compares its sign.
            "expected": q.expected,
            "ok": ok,
        });
        if let Some(f) = file {
            v["file"] = f.into();
        }
        if let Some(st) = &stats {
            v["stats"] = serde_json::to_value(st).expect("counters serialize");
        }
        format!("{v}\n")
    } else {
        format!("{} {} {} {}\n", q.moves, s.score, s.nodes, us)
    });
    Some((item, outcome, stats))
}
