//! `c4solver solve` (and bare `c4solver`): one answer per input line, written as
//! soon as it is known and its line is next in order.

use std::path::PathBuf;
use std::sync::mpsc::RecvTimeoutError;
use std::time::Duration;

use c4solver::harness;
use c4solver::input::parse_line;
use c4solver::solver::SolveError;
use c4solver::table::TableStats;
use c4solver::{Mode, Solver7x6};

use super::Outcome;
use super::args::{EngineArgs, SolveArgs};
use super::engine;
use super::output::{self, Item};
use super::signals::Signals;
use super::source::{self, Line, Message};

/// How often a run waiting for input looks at the signals.
pub const POLL: Duration = Duration::from_millis(50);

/// Solves every line of `files` (or stdin).
///
/// # Errors
/// A solver that cannot be built, or stdout failing for another reason than being
/// closed.
pub fn run(
    args: &SolveArgs,
    files: &[PathBuf],
    engine: &EngineArgs,
    signals: &Signals,
) -> anyhow::Result<Outcome> {
    let mut solver = engine::single_solver(engine, "solve", args.stats)?;
    solver.set_stop_flag(signals.stop_flag().clone());
    let mode = if args.weak { Mode::Weak } else { Mode::Strong };
    let mut input = source::spawn(files, 4);
    let (tx, writer) = output::stdout();
    let mut outcome = Outcome::Ok;
    let mut totals = TableStats::default();
    while !signals.stopped() && !tx.is_closed() {
        let msg = match input.recv_timeout(POLL) {
            Ok(m) => m,
            Err(RecvTimeoutError::Timeout) => continue,
            Err(RecvTimeoutError::Disconnected) => break,
        };
        let item = match msg {
            Message::Failed { seq, message } => {
                outcome = outcome.worst(Outcome::Failure);
                Item {
                    seq,
                    out: None,
                    err: Some(message),
                }
            }
            Message::Line(line) => {
                let Some((item, o)) = answer(&line, &mut solver, mode, args.json, &mut totals)
                else {
                    // Stopped inside the search: the line is not finished.
                    break;
                };
                outcome = outcome.worst(o);
                item
            }
        };
        if !tx.send(item) {
            break;
        }
    }
    drop(tx);
    writer.finish()?;
    if args.stats && !args.json && totals.searches > 0 {
        eprintln!("c4solver: table stats: {}", totals.summary());
    }
    Ok(outcome)
}

/// The output of one line: its text (or its error and an empty line, to keep the
/// output aligned with the input) and what it means for the exit code; `None` if
/// the search was stopped.
pub fn answer(
    line: &Line,
    solver: &mut Solver7x6,
    mode: Mode,
    json: bool,
    totals: &mut TableStats,
) -> Option<(Item, Outcome)> {
    let file = line.file.as_ref().map(|f| f.display().to_string());
    let mut item = Item {
        seq: line.seq,
        ..Item::default()
    };
    let q = match parse_line::<7, 6>(&line.bytes, line.truncated) {
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
            return Some((item, Outcome::BadInput));
        }
    };
    let s = match solver.solve(&q.position, mode) {
        Ok(s) => s,
        Err(SolveError::Stopped) => return None,
        Err(SolveError::GameOver) => unreachable!("parsed positions never hold four"),
    };
    let mut outcome = Outcome::Ok;
    let want = q.expected.map(|e| harness::expected(mode, e));
    let ok = want.is_none_or(|w| w == s.score);
    if !ok {
        outcome = Outcome::BadInput;
        item.err = Some(format!(
            "c4solver: {}: {} score {} differs from expected {}\n",
            line.place(),
            harness::mode_name(mode),
            s.score,
            want.unwrap_or_default()
        ));
    }
    let stats = solver.last_stats();
    if let Some(st) = &stats {
        totals.add(st);
    }
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
        if let Some(st) = stats {
            v["stats"] = serde_json::to_value(st).expect("counters serialize");
        }
        format!("{v}\n")
    } else {
        format!("{} {} {} {}\n", q.moves, s.score, s.nodes, us)
    });
    Some((item, outcome))
}
