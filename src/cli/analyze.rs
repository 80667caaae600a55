//! `c4solver analyze`: the score of every column of each input line (the line the
//! tutorial's program prints with `-a`), written as soon as it is known and its
//! line is next in order; lines are shared out among workers as `solve` does.

use c4solver::{Answer, Mode, Solver};
use serde::Serialize;

use super::Exit;
use super::args::{AnalyzeArgs, EngineArgs};
use super::output::Item;
use super::per_line;
use super::signals::Signals;
use super::source::Line;

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
    let mode = if args.weak { Mode::Weak } else { Mode::Strong };
    per_line::run(
        &args.files,
        engine,
        "analyze",
        false,
        signals,
        |line, solver| answer(line, solver, mode, args).map(|(item, o)| (item, o, ())),
        |()| {},
    )
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
    let q = match per_line::parse(line, solver.size(), args.json) {
        Ok(q) => q,
        Err(item) => return Some((item, Exit::BadInput)),
    };
    // Parsed lines hold playable positions: a stop is the one way to fail.
    let answer = solver.answer(q.moves, &q.position, mode, args.pv).ok()?;
    let (mut item, outcome) = per_line::compare(line, mode, q.expected, answer.score);
    item.out = Some(if args.json {
        let file = line.file_name();
        let json = JsonLine {
            line: line.number,
            answer: &answer,
            expected: q.expected,
            ok: outcome == Exit::Ok,
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
