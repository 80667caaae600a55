//! `c4solver analyze`: the score of every column of each input line (the line the
//! tutorial's program prints with `-a`), written as soon as it is known and its
//! line is next in order; lines are shared out among workers as `solve` does.

use c4solver::harness;
use c4solver::input::parse_line;
use c4solver::solver::SolveError;
use c4solver::{Mode, Solver};

use super::Outcome;
use super::args::{AnalyzeArgs, EngineArgs};
use super::engine;
use super::output::{self, Item};
use super::signals::Signals;
use super::source::{self, Line, Message};
use c4solver::pool;

/// What the tutorial's program prints for a column that cannot be played.
pub const UNPLAYABLE: i32 = -1000;

/// Analyses every line of the files (or stdin), one line per worker (as `solve`
/// does), printing the answers in input order.
///
/// # Errors
/// A solver that cannot be built, or stdout failing for another reason than being
/// closed.
pub fn run<const W: usize, const H: usize>(
    args: &AnalyzeArgs,
    engine: &EngineArgs,
    signals: &Signals,
) -> anyhow::Result<Outcome> {
    let threads = engine::threads(engine);
    // The run's own flag: set by a signal, or by the run itself (stdout closed).
    let stop = signals.stop_flag().child();
    let make = engine::workers::<W, H>(engine, "analyze", false, threads, &stop)?;
    let mode = if args.weak { Mode::Weak } else { Mode::Strong };
    source::hint(&args.files);
    let input = source::spawn(&args.files, 4)?;
    let (tx, writer) = output::stdout()?;
    let mut outcome = Outcome::Ok;
    let ran = pool::run(
        threads,
        engine::noted(make),
        input,
        4 * threads + 64,
        &stop,
        |solver: &mut Solver<W, H>, seq, msg| match msg {
            Message::Failed { message, .. } => Some((
                Item {
                    seq,
                    out: None,
                    err: Some(message),
                },
                Outcome::Failure,
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
pub fn answer<const W: usize, const H: usize>(
    line: &Line,
    solver: &mut Solver<W, H>,
    mode: Mode,
    args: &AnalyzeArgs,
) -> Option<(Item, Outcome)> {
    let file = line.file.as_ref().map(|f| f.display().to_string());
    let mut item = Item {
        seq: line.seq,
        ..Item::default()
    };
    let q = match parse_line::<W, H>(&line.bytes, line.truncated) {
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
            return Some((item, Outcome::BadInput));
        }
    };
    let unfinished = |e| match e {
        SolveError::Stopped => None,
        SolveError::GameOver => unreachable!("parsed positions never hold four"),
    };
    let analysis = match solver.analyze(&q.position, mode) {
        Ok(a) => a,
        Err(e) => return unfinished(e),
    };
    let (mut nodes, mut time) = (analysis.nodes(), analysis.time());
    let pv = if args.pv {
        match solver.principal_variation_of(&analysis) {
            Ok(line) => {
                nodes += line.nodes();
                time += line.time();
                Some(line.to_string())
            }
            Err(e) => return unfinished(e),
        }
    } else {
        None
    };
    let score = analysis.score();
    let mut outcome = Outcome::Ok;
    let want = q.expected.map(|e| harness::expected(mode, e));
    let ok = want.is_none_or(|w| w == score);
    if !ok {
        outcome = Outcome::BadInput;
        item.err = Some(format!(
            "c4solver: {}: {} score {} differs from expected {}\n",
            line.place(),
            harness::mode_name(mode),
            score,
            want.unwrap_or_default()
        ));
    }
    let scores = analysis.scores();
    item.out = Some(if args.json {
        let best: Vec<usize> = analysis.best_moves().iter().map(|c| c + 1).collect();
        let mut v = serde_json::json!({
            "line": line.number,
            "moves": q.moves,
            "scores": scores.to_vec(),
            "best": best,
            "score": score,
            "nodes": nodes,
            "time_us": time.as_micros(),
            // As written on the line: a weak run compares its sign.
            "expected": q.expected,
            "ok": ok,
        });
        if let Some(pv) = pv {
            v["pv"] = pv.into();
        }
        if let Some(f) = file {
            v["file"] = f.into();
        }
        format!("{v}\n")
    } else {
        let mut text = q.moves.to_string();
        for s in scores {
            text.push_str(&format!(" {}", s.unwrap_or(UNPLAYABLE)));
        }
        if let Some(pv) = pv {
            // A full board has no move left: `-` keeps the field there.
            text.push(' ');
            text.push_str(if pv.is_empty() { "-" } else { &pv });
        }
        text.push('\n');
        text
    });
    Some((item, outcome))
}
