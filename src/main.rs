//! The `c4solver` command: parse the command line, run the job, map the outcome
//! to an exit code (0 good, 1 invalid or mismatched input, 2 usage or I/O error,
//! 130 interrupted).

mod cli;

use std::io::{self, BufReader, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Context, bail};
use clap::Parser;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use c4solver::generate::{self, Request};
use c4solver::harness::{self, Report};
use c4solver::input::{LineReader, parse_line};
use c4solver::table::TableStats;
use c4solver::testset::TestSet;
use c4solver::{Config, DepthKind, Mode, ReplaceKind, Solver7x6, SolverKind, TableKind};
use cli::{
    BenchArgs, Cli, Command, DepthArg, EngineArgs, GenerateArgs, ReplaceArg, SolveArgs, SolverArg,
};

/// How a run ended, before it becomes an exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    /// Everything valid and correct.
    Ok,
    /// Some line was invalid or some score mismatched.
    BadInput,
    /// An I/O or resource error (also reported on stderr).
    Failure,
    /// Stopped by Ctrl-C.
    Interrupted,
}

impl Outcome {
    fn code(self) -> ExitCode {
        ExitCode::from(match self {
            Outcome::Ok => 0,
            Outcome::BadInput => 1,
            Outcome::Failure => 2,
            Outcome::Interrupted => 130,
        })
    }

    fn worst(self, other: Outcome) -> Outcome {
        let rank = |o| match o {
            Outcome::Ok => 0,
            Outcome::BadInput => 1,
            Outcome::Failure => 2,
            Outcome::Interrupted => 3,
        };
        if rank(other) > rank(self) {
            other
        } else {
            self
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(outcome) => outcome.code(),
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("c4solver: {e:#}");
            Outcome::Failure.code()
        }
    }
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}

fn run(cli: Cli) -> anyhow::Result<Outcome> {
    if cli.command.is_some() && (cli.solve.weak || cli.solve.json || cli.solve.stats) {
        bail!("--weak, --json and --stats go after the subcommand (e.g. `c4solver solve --weak`)");
    }
    match cli.command {
        None => solve(&cli.solve, &[], &cli.engine),
        Some(Command::Solve(s)) => solve(&s.args, &s.files, &cli.engine),
        Some(Command::Bench(b)) => bench(&b, &cli.engine),
        Some(Command::Generate(g)) => generate(&g, &cli.engine),
    }
}

/// The configurations named by the engine options: every combination of the
/// listed values, without duplicates (`--depth` does not matter to `always`) and
/// without the policies a table design does not offer.
///
/// Without `--table`, each search gets its own table: `upper` for the reference
/// search, `compact` for the tuned one.
///
/// `stats` asks for table statistics, which only the reference search counts:
/// with `required`, a configuration list without it is an error.
fn configs(engine: &EngineArgs, stats: bool, required: bool) -> anyhow::Result<Vec<Config>> {
    let tables_named = !engine.table.is_empty()
        || engine.replace != [ReplaceArg::Always]
        || engine.depth != [DepthArg::Cells];
    let solvers = if !engine.solver.is_empty() {
        engine.solver.clone()
    } else if tables_named {
        vec![SolverArg::Reference]
    } else {
        vec![SolverArg::Tuned]
    };
    if stats && required && !solvers.contains(&SolverArg::Reference) {
        bail!("table statistics are counted by the reference search: add --solver reference");
    }
    let mut out: Vec<Config> = Vec::new();
    for solver in solvers {
        let kind: SolverKind = solver.into();
        let tables: Vec<TableKind> = if engine.table.is_empty() {
            vec![match kind {
                SolverKind::Reference => TableKind::Upper,
                SolverKind::Tuned => TableKind::Compact,
            }]
        } else {
            engine.table.iter().map(|&t| t.into()).collect()
        };
        for &table in &tables {
            for &replace in &engine.replace {
                let replace: ReplaceKind = replace.into();
                if !table.policies().contains(&replace) {
                    continue;
                }
                for &depth in &engine.depth {
                    for &table_mb in &engine.table_mb {
                        // `..Config::default()` keeps this valid when Config grows.
                        #[allow(clippy::needless_update)]
                        let config = Config {
                            kind,
                            table_mb,
                            keep_table: engine.keep_table,
                            table,
                            replace,
                            depth: if replace == ReplaceKind::Always {
                                DepthKind::Cells
                            } else {
                                depth.into()
                            },
                            stats: stats && kind == SolverKind::Reference,
                            ..Config::default()
                        };
                        if !out.contains(&config) {
                            out.push(config);
                        }
                    }
                }
            }
        }
    }
    if out.is_empty() {
        bail!("the compact table only replaces always: drop --replace or choose another --table");
    }
    Ok(out)
}

/// The single configuration of `solve` and `generate`.
fn single_solver(engine: &EngineArgs, command: &str, stats: bool) -> anyhow::Result<Solver7x6> {
    let configs = configs(engine, stats, true)?;
    let [config] = configs[..] else {
        bail!(
            "--solver, --table, --replace, --depth and --table-mb take a single value for {command}"
        );
    };
    Ok(Solver7x6::new(config)?)
}

fn solve(args: &SolveArgs, files: &[PathBuf], engine: &EngineArgs) -> anyhow::Result<Outcome> {
    let mut solver = single_solver(engine, "solve", args.stats)?;
    let mut totals = TableStats::default();
    let mode = if args.weak { Mode::Weak } else { Mode::Strong };
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut outcome = Outcome::Ok;
    let stdin_only = [PathBuf::from("-")];
    let files = if files.is_empty() {
        &stdin_only[..]
    } else {
        files
    };
    for path in files {
        let result = if path.as_os_str() == "-" {
            let stdin = io::stdin();
            let reader = BufReader::new(stdin.lock());
            solve_stream(
                reader,
                None,
                &mut solver,
                mode,
                args.json,
                &mut totals,
                &mut out,
            )
        } else {
            match std::fs::File::open(path).and_then(|f| {
                if f.metadata()?.is_dir() {
                    Err(io::Error::other("is a directory"))
                } else {
                    Ok(f)
                }
            }) {
                Ok(f) => solve_stream(
                    BufReader::new(f),
                    Some(path),
                    &mut solver,
                    mode,
                    args.json,
                    &mut totals,
                    &mut out,
                ),
                Err(e) => {
                    eprintln!("c4solver: cannot read {}: {e}", path.display());
                    outcome = outcome.worst(Outcome::Failure);
                    continue;
                }
            }
        };
        match result {
            Ok(o) => outcome = outcome.worst(o),
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(outcome),
            Err(e) => {
                eprintln!("c4solver: {}: {e}", path.display());
                outcome = outcome.worst(Outcome::Failure);
            }
        }
    }
    if args.stats && !args.json {
        eprintln!("c4solver: table stats: {}", totals.summary());
    }
    match out.flush() {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(outcome),
        r => {
            r?;
            Ok(outcome)
        }
    }
}

/// Solves every line of one input; I/O errors on reading are reported by line.
fn solve_stream<R: Read>(
    reader: BufReader<R>,
    path: Option<&Path>,
    solver: &mut Solver7x6,
    mode: Mode,
    json: bool,
    totals: &mut TableStats,
    out: &mut impl Write,
) -> io::Result<Outcome> {
    let mut lines = LineReader::new(reader);
    let mut outcome = Outcome::Ok;
    let prefix = path
        .map(|p| format!("{}: ", p.display()))
        .unwrap_or_default();
    let mut number = 0usize;
    while let Some((bytes, truncated)) = lines.next_line()? {
        number += 1;
        match parse_line::<7, 6>(bytes, truncated) {
            Err(e) => {
                eprintln!("c4solver: {prefix}line {number}: {e}");
                outcome = outcome.worst(Outcome::BadInput);
                if json {
                    let v = serde_json::json!({ "line": number, "error": e.to_string() });
                    writeln!(out, "{v}")?;
                } else {
                    writeln!(out)?;
                }
            }
            Ok(q) => {
                let s = solver.solve(&q.position, mode);
                let us = s.time.as_micros();
                let want = q.expected.map(|e| harness::expected(mode, e));
                let ok = want.is_none_or(|w| w == s.score);
                if !ok {
                    outcome = outcome.worst(Outcome::BadInput);
                    eprintln!(
                        "c4solver: {prefix}line {number}: {} score {} differs from expected {}",
                        harness::mode_name(mode),
                        s.score,
                        want.unwrap_or_default()
                    );
                }
                let stats = solver.last_stats();
                if let Some(st) = &stats {
                    totals.add(st);
                }
                if json {
                    let mut v = serde_json::json!({
                        "line": number,
                        "moves": q.moves,
                        "score": s.score,
                        "nodes": s.nodes,
                        "time_us": us,
                        "expected": want,
                        "ok": ok,
                    });
                    if let Some(st) = stats {
                        v["stats"] = serde_json::to_value(st)?;
                    }
                    writeln!(out, "{v}")?;
                } else {
                    writeln!(out, "{} {} {} {}", q.moves, s.score, s.nodes, us)?;
                }
            }
        }
        // Flush before a read that may block, so interactive use sees each answer.
        if lines.is_drained() {
            out.flush()?;
        }
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
        // begin-hard is left out: some of its positions take minutes (name it to run it)
    ];
    let mut sets = Vec::new();
    for name in order {
        let p = dir.join(name);
        if p.is_file() {
            sets.push(p);
        }
    }
    if sets.is_empty() {
        bail!("no test sets found in {}", dir.display());
    }
    Ok(sets)
}

fn progress_bar(len: u64) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    if !io::stderr().is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} {msg} [{elapsed_precise}, eta {eta}]")
            .expect("valid template"),
    );
    bar
}

/// A flag set by Ctrl-C.
fn interrupt_flag() -> Arc<AtomicBool> {
    let flag = Arc::new(AtomicBool::new(false));
    let f = flag.clone();
    // If a handler cannot be installed, Ctrl-C keeps its default effect.
    let _ = ctrlc::set_handler(move || f.store(true, Ordering::SeqCst));
    flag
}

fn bench(args: &BenchArgs, engine: &EngineArgs) -> anyhow::Result<Outcome> {
    let paths = if args.sets.is_empty() {
        default_sets()?
    } else {
        args.sets.clone()
    };
    let sets = paths
        .iter()
        .map(|p| TestSet::read(p))
        .collect::<Result<Vec<_>, _>>()?;
    let modes: Vec<Mode> = match (args.strong, args.weak) {
        (true, false) => vec![Mode::Strong],
        (false, true) => vec![Mode::Weak],
        _ => vec![Mode::Strong, Mode::Weak],
    };
    let configs = configs(engine, args.compare, false)?;
    let per_pass: usize = sets
        .iter()
        .map(|s| args.limit.unwrap_or(usize::MAX).min(s.entries.len()))
        .sum();
    let bar = progress_bar((per_pass * modes.len() * configs.len()) as u64);
    let stop = interrupt_flag();
    let report = harness::run(&configs, &modes, &sets, args.limit, || {
        bar.inc(1);
        !stop.load(Ordering::Relaxed)
    })?;
    bar.finish_and_clear();
    print_report(&report, args.json, args.compare)?;
    Ok(if report.interrupted {
        Outcome::Interrupted
    } else if report.mismatches.is_empty() {
        Outcome::Ok
    } else {
        Outcome::BadInput
    })
}

fn print_report(report: &Report, json: bool, compare: bool) -> io::Result<()> {
    let mut out = io::stdout().lock();
    if json {
        writeln!(out, "{}", serde_json::to_string_pretty(report)?)?;
        return Ok(());
    }
    if compare {
        write!(out, "{}", harness::compare_markdown(report))?;
    } else {
        write!(out, "{}", harness::markdown(report))?;
    }
    if report.interrupted {
        writeln!(out, "Interrupted: only the finished rows are shown.")?;
    }
    writeln!(out, "Mismatches: {}", report.mismatches.len())?;
    for m in &report.mismatches {
        writeln!(
            out,
            "- {} {} {} {} #{}: {} expected {}, got {}",
            m.solver, m.config, m.mode, m.set, m.index, m.moves, m.expected, m.got
        )?;
    }
    Ok(())
}

fn generate(args: &GenerateArgs, engine: &EngineArgs) -> anyhow::Result<Outcome> {
    let mut solver = single_solver(engine, "generate", false)?;
    let request = Request {
        stage: args.stage.into(),
        difficulty: args.difficulty.into(),
        count: args.count,
        seed: args.seed,
    };
    if !request.is_possible() {
        bail!(
            "{} positions are never {}: they end within {} moves",
            request.stage,
            request.difficulty,
            request.longest_game()
        );
    }
    let bar = progress_bar(args.count as u64);
    let stop = interrupt_flag();
    let mut out = io::stdout().lock();
    let mut write_error = None;
    // Each kept position is printed at once, so an interrupted run keeps its work.
    generate::generate(&request, &mut solver, |new, kept, tried| {
        if let Some(g) = new
            && let Err(e) = writeln!(out, "{} {}", g.moves, g.score).and_then(|()| out.flush())
        {
            write_error = Some(e);
            return false;
        }
        bar.set_position(kept as u64);
        bar.set_message(format!("kept of {tried} tried"));
        !stop.load(Ordering::Relaxed)
    });
    bar.finish_and_clear();
    if let Some(e) = write_error {
        return Err(e.into());
    }
    Ok(if stop.load(Ordering::Relaxed) {
        Outcome::Interrupted
    } else {
        Outcome::Ok
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcome_ranks() {
        assert_eq!(Outcome::Ok.worst(Outcome::BadInput), Outcome::BadInput);
        assert_eq!(Outcome::Failure.worst(Outcome::BadInput), Outcome::Failure);
    }

    #[test]
    fn drained_reader() {
        let mut r = LineReader::new(BufReader::new(&b"1\n2\n"[..]));
        assert!(r.is_drained());
        r.next_line().unwrap();
        assert!(!r.is_drained());
    }
}
