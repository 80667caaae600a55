//! `c4solver bench`: run test sets through one or more configurations, check every
//! score, and print the tutorial's tables (or the comparison tables).

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

use c4solver::{Mode, Size};

use super::Exit;
use super::args::{BenchArgs, EngineArgs};
use super::engine;
use super::harness::{Report, Setup, TestSets};
use super::output;
use super::progress;
use super::signals::Signals;

/// Runs the benchmark.
///
/// # Errors
/// No sets, an unreadable set, an empty run, no configuration that can be built,
/// or stdout failing.
pub fn run(args: &BenchArgs, engine_args: &EngineArgs, signals: &Signals) -> anyhow::Result<Exit> {
    let mut outcome = Exit::Ok;
    let size = engine_args.size;
    let paths = if args.sets.is_empty() {
        if size != Size::STANDARD {
            bail!(
                "the bundled test sets are 7x6: name the {size} sets to run \
                 (make them with `c4solver generate --size {size}`)"
            );
        }
        default_sets()?
    } else {
        args.sets.clone()
    };
    let mut sets = TestSets::new(size)?;
    for path in &paths {
        for e in &sets.push_file(path)? {
            eprintln!("c4solver: {e}");
            outcome = outcome.worst(Exit::BadInput);
        }
    }
    let limit = args.limit.map(|n| usize::try_from(n).unwrap_or(usize::MAX));
    let per_pass: usize = sets
        .lens()
        .into_iter()
        .map(|len| limit.unwrap_or(usize::MAX).min(len))
        .sum();
    if per_pass == 0 {
        bail!("nothing to run: the sets hold no valid position");
    }
    let modes: Vec<Mode> = match (args.strong, args.weak) {
        (true, false) => vec![Mode::Strong],
        (false, true) => vec![Mode::Weak],
        _ => vec![Mode::Strong, Mode::Weak],
    };
    // Every combination is checked before any work is done.
    // One thread unless told: the rows then give each position's own time.
    let threads = engine_args
        .threads
        .map_or(1, |t| usize::try_from(t).unwrap_or(1));
    let (configs, left_out) = engine::configs(engine_args, args.compare(), threads)?;
    for left in &left_out {
        eprintln!("c4solver: left out {}: {}", left.name, left.reason);
    }
    if configs.is_empty() {
        bail!("no configuration left to run");
    }
    // --book builtin|FILE: every configuration again with the book, next to its
    // book-free rows.
    let book = engine::book_file(engine_args)?;
    let mut setups: Vec<Setup> = configs.iter().map(|&c| c.into()).collect();
    if engine::book_named(engine_args) {
        setups.extend(configs.iter().map(|&config| Setup { config, book: true }));
    }
    let bar = progress::bar(
        (per_pass * modes.len() * setups.len()) as u64,
        "{bar:40} {pos}/{len} positions [{elapsed_precise}, eta {eta}]",
    );
    let report = sets.run_threads(
        &setups,
        book.as_ref(),
        &modes,
        limit,
        signals.stop_flag(),
        threads,
        || bar.inc(1),
    )?;
    bar.finish_and_clear();
    print_report(&report, args.json, args.compare()).map_err(output::write_error)?;
    if !report.mismatches.is_empty() {
        outcome = outcome.worst(Exit::BadInput);
    }
    Ok(outcome)
}

/// The bundled test sets, in the tutorial's order, but for `begin-hard`.
fn default_sets() -> anyhow::Result<Vec<PathBuf>> {
    let dir = [
        PathBuf::from("testsets"),
        Path::new(env!("CARGO_MANIFEST_DIR")).join("testsets"),
    ]
    .into_iter()
    .find(|d| d.is_dir())
    .context("no test sets given and no testsets/ folder found")?;
    let order = [
        "end-easy",
        "middle-easy",
        "middle-medium",
        "begin-easy",
        "begin-medium",
        // begin-hard is left out: its positions take seconds each (name it to run it)
    ];
    let sets: Vec<PathBuf> = order
        .iter()
        .map(|name| dir.join(name))
        .filter(|p| p.is_file())
        .collect();
    if sets.is_empty() {
        bail!("no test sets found in {}", dir.display());
    }
    Ok(sets)
}

fn print_report(report: &Report, json: bool, compare: bool) -> io::Result<()> {
    let mut out = io::stdout().lock();
    let r = write_report(&mut out, report, json, compare);
    match r {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        r => r,
    }
}

fn write_report(
    out: &mut impl Write,
    report: &Report,
    json: bool,
    compare: bool,
) -> io::Result<()> {
    if json {
        writeln!(out, "{}", serde_json::to_string_pretty(report)?)?;
        return out.flush();
    }
    if compare {
        write!(out, "{}", super::markdown::compare_markdown(report))?;
    } else {
        write!(out, "{}", super::markdown::markdown(report))?;
    }
    if report.interrupted {
        writeln!(
            out,
            "Interrupted: only the positions solved before the stop are counted."
        )?;
    }
    writeln!(out, "Mismatches: {}", report.mismatches.len())?;
    for m in &report.mismatches {
        writeln!(
            out,
            "- {} {} {} {} #{}: {} expected {}, got {}",
            m.solver, m.config, m.mode, m.set, m.index, m.moves, m.expected, m.got
        )?;
    }
    out.flush()
}
