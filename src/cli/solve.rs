//! `c4solver solve` (and bare `c4solver`): one answer per input line, written as
//! soon as it is known and its line is next in order.

use std::path::PathBuf;

use c4solver::TableStats;
use c4solver::{Mode, Solver};

use super::Exit;
use super::args::{EngineArgs, SolveArgs};
use super::output::Item;
use super::per_line;
use super::signals::Signals;
use super::source::Line;

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
    let mode = if args.weak { Mode::Weak } else { Mode::Strong };
    let mut totals = TableStats::default();
    let outcome = per_line::run(
        files,
        engine,
        "solve",
        args.stats(),
        signals,
        |line, solver| answer(line, solver, mode, args.json),
        |stats: Option<TableStats>| {
            if let Some(st) = &stats {
                totals.add(st);
            }
        },
    )?;
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
    let q = match per_line::parse(line, solver.size(), json) {
        Ok(q) => q,
        Err(item) => return Some((item, Exit::BadInput, None)),
    };
    // Parsed lines hold playable positions: a stop is the one way to fail.
    let s = solver.solve(&q.position, mode).ok()?;
    let (mut item, outcome) = per_line::compare(line, mode, q.expected, s.score);
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
            "ok": outcome == Exit::Ok,
        });
        if let Some(f) = line.file_name() {
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
