//! `c4solver analyze`: the score of every column of each input line (the line the
//! tutorial's program prints with `-a`), written as soon as it is known and its
//! line is next in order; lines are shared out among workers as `solve` does.

use c4solver::{Answer, Mode, Solver};
use serde::Serialize;

use super::Exit;
use super::args::{AnalyzeArgs, EngineArgs};
use super::engine;
use super::output::{self, Item};
use super::signals::Signals;
use super::source::{self, Line, Message};
use c4solver::batch as pool;

/// What the tutorial's program prints for a column that cannot be played.
pub const UNPLAYABLE: i32 = -1000;

/// One line of `--json`: the line number, the library's [`Answer`] (its fields
/// in its order, docs/answer.md), the expected score as written on the line (a
/// weak run compares its sign) and whether the score matched it, and the file
/// the line comes from.
#[derive(Serialize)]
struct JsonLine<'a> {
    line: usize,
    #[serde(flatten)]
    answer: &'a Answer,
    expected: Option<i32>,
    ok: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<&'a str>,
}

/// Analyses every line of the files (or stdin), one line per worker (as `solve`
/// does), printing the answers in input order.
///
/// # Errors
/// A solver that cannot be built, or stdout failing for another reason than being
/// closed.
pub fn run(args: &AnalyzeArgs, engine: &EngineArgs, signals: &Signals) -> anyhow::Result<Exit> {
    let threads = engine::threads(engine);
    // The run's own flag: set by a signal, or by the run itself (stdout closed).
    let stop = signals.stop_flag().child();
    let make = engine::workers(engine, "analyze", false, threads, &stop)?;
    let mode = if args.weak { Mode::Weak } else { Mode::Strong };
    source::hint(&args.files);
    let input = source::spawn(&args.files, 4)?;
    let (tx, writer) = output::stdout()?;
    let mut outcome = Exit::Ok;
    let ran = pool::run(
        threads,
        engine::noted(make),
        input.jobs(&stop),
        4 * threads + 64,
        &stop,
        |solver: &mut Solver, seq, msg| match msg {
            Message::Failed { message, .. } => Some((
                Item {
                    seq,
                    out: None,
                    err: Some(message),
                },
                Exit::Failure,
            )),
            Message::Line(line) => {
                let (mut item, o) = answer(&line, solver, mode, args)?;
                item.seq = seq;
                Some((item, o))
            }
        },
        |_, (item, o)| {
            outcome = outcome.worst(o);
            tx.send(item)
        },
    );
    drop(tx);
    let written = writer.finish();
    ran.map_err(engine::pool_error)?;
    written?;
    Ok(outcome)
}

/// The output of one line (or its error and an empty line, to keep the output
/// aligned with the input) and what it means for the exit code; `None` if a
/// search was stopped.
pub fn answer(
    line: &Line,
    solver: &mut Solver,
    mode: Mode,
    args: &AnalyzeArgs,
) -> Option<(Item, Exit)> {
    let file = line.file.as_ref().map(|f| f.display().to_string());
    let mut item = Item {
        seq: line.seq,
        ..Item::default()
    };
    let q = match c4solver::Line::parse(solver.size(), &line.bytes, line.truncated) {
        Ok(q) => q,
        Err(e) => {
            item.err = Some(format!("c4solver: {}: {e}\n", line.place()));
            item.out = Some(if args.json {
                let mut v = serde_json::json!({ "line": line.number, "error": e.to_string() });
                if let Some(f) = file {
                    v["file"] = f.into();
                }
                format!("{v}\n")
            } else {
                "\n".to_string()
            });
            return Some((item, Exit::BadInput));
        }
    };
    // Parsed lines hold playable positions: a stop is the one way to fail.
    let answer = solver.answer(q.moves, &q.position, mode, args.pv).ok()?;
    let score = answer.score;
    let mut outcome = Exit::Ok;
    let want = q.expected.map(|e| mode.answer_for(e));
    let ok = want.is_none_or(|w| w == score);
    if !ok {
        outcome = Exit::BadInput;
        item.err = Some(format!(
            "c4solver: {}: {} score {} differs from expected {}\n",
            line.place(),
            mode.name(),
            score,
            want.unwrap_or_default()
        ));
    }
    item.out = Some(if args.json {
        let json = JsonLine {
            line: line.number,
            answer: &answer,
            expected: q.expected,
            ok,
            file: file.as_deref(),
        };
        format!(
            "{}\n",
            serde_json::to_string(&json).expect("an answer serializes")
        )
    } else {
        let mut text = q.moves.to_string();
        for s in &answer.scores {
            text.push_str(&format!(" {}", s.unwrap_or(UNPLAYABLE)));
        }
        if let Some(pv) = &answer.pv {
            // A full board has no move left: `-` keeps the field there.
            text.push(' ');
            text.push_str(if pv.is_empty() { "-" } else { pv });
        }
        text.push('\n');
        text
    });
    Some((item, outcome))
}
