//! John Tromp's table of solved board sizes, reproduced: the exact score of the
//! empty board of every size, with its nodes and time, one thread, no book.
//!
//! ```text
//! cargo run --release --example tromp -- [--table-mb MB] [--limit SECONDS] [--weak]
//!     [--results FILE] [SIZE...]
//! ```
//!
//! `SIZE`s default to the 36 of Tromp's table (4x4 to 11x4 and 4x11), smallest
//! first. Each result is appended to `FILE` (default `docs/sizes.tsv`) as soon as
//! it is known, one tab-separated line `size mode score nodes seconds table_mb`;
//! a size already in the file for this mode is skipped, so a stopped run picks up
//! where it left off. A search still running after `--limit` seconds (default
//! 3600) is stopped and recorded with score `?` and the time it was given; it is
//! tried again only with a larger limit. `scripts/sizes-table.py` turns the file
//! into the README's table.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use c4solver::{
    Config, Mode, Size, SolveError, StopFlag, sized::Bits, sized::Board, sized::Solver, with_size,
};

/// Tromp's table: widths 4 to 11 across, heights 4 up, `W + H <= 15`.
fn tromp_sizes() -> Vec<Size> {
    let mut sizes: Vec<Size> = Size::ALL
        .into_iter()
        .filter(|s| s.width <= 11 && s.height <= 11 && s.width + s.height <= 15)
        .collect();
    sizes.sort_by_key(|s| (s.cells(), s.width));
    sizes
}

/// One recorded result.
struct Record {
    size: Size,
    mode: String,
    /// `None` when the search was stopped at the limit.
    score: Option<i32>,
    seconds: f64,
}

fn read_records(path: &PathBuf) -> anyhow::Result<Vec<Record>> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Ok(Vec::new());
    };
    let mut records = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.starts_with("size") || line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() < 6 {
            bail!(
                "{}:{}: expected 6 tab-separated fields",
                path.display(),
                i + 1
            );
        }
        records.push(Record {
            size: f[0]
                .parse()
                .with_context(|| format!("{}:{}", path.display(), i + 1))?,
            mode: f[1].to_string(),
            score: f[2].parse().ok(),
            seconds: f[4]
                .parse()
                .with_context(|| format!("{}:{}: seconds", path.display(), i + 1))?,
        });
    }
    Ok(records)
}

/// Solves the empty `W`x`H` board; `None` if stopped at `limit`.
fn solve_empty<const W: usize, const H: usize, B: Bits>(
    config: Config,
    mode: Mode,
    limit: Duration,
) -> anyhow::Result<Option<(i32, u64, Duration)>> {
    let mut solver = Solver::<W, H, B>::new(config)?;
    let stop = StopFlag::new();
    solver.set_stop_flag(stop.clone());
    let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
    let timer = std::thread::spawn(move || {
        if done_rx.recv_timeout(limit).is_err() {
            stop.stop();
        }
    });
    let start = Instant::now();
    let result = solver.solve(&Board::<W, H, B>::new(), mode);
    let elapsed = start.elapsed();
    drop(done_tx);
    timer.join().expect("timer thread");
    match result {
        Ok(s) => Ok(Some((s.score, s.nodes, elapsed))),
        Err(SolveError::Stopped) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

fn main() -> anyhow::Result<()> {
    let mut table_mb = 1024;
    let mut limit = 3600.0;
    let mut mode = Mode::Strong;
    let mut results = PathBuf::from("docs/sizes.tsv");
    let mut sizes = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().with_context(|| format!("{name} needs a value"));
        match arg.as_str() {
            "--table-mb" => table_mb = value("--table-mb")?.parse()?,
            "--limit" => limit = value("--limit")?.parse()?,
            "--weak" => mode = Mode::Weak,
            "--results" => results = value("--results")?.into(),
            _ => sizes.push(arg.parse::<Size>()?),
        }
    }
    if sizes.is_empty() {
        sizes = tromp_sizes();
    }
    let mode_name = if mode == Mode::Weak { "weak" } else { "strong" };
    let done = read_records(&results)?;
    let config = Config {
        table_mb,
        ..Config::tuned()
    };
    for size in sizes {
        let skip = done.iter().any(|r| {
            r.size == size && r.mode == mode_name && (r.score.is_some() || r.seconds >= limit)
        });
        if skip {
            continue;
        }
        eprintln!("{size}: solving (limit {limit} s, {table_mb} MB)");
        let answer = with_size!(
            size,
            solve_empty(config, mode, Duration::from_secs_f64(limit))
        )?;
        let line = match answer {
            Some((score, nodes, time)) => format!(
                "{size}\t{mode_name}\t{score}\t{nodes}\t{:.3}\t{table_mb}",
                time.as_secs_f64()
            ),
            None => format!("{size}\t{mode_name}\t?\t?\t{limit:.0}\t{table_mb}"),
        };
        println!("{line}");
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&results)
            .with_context(|| format!("cannot open {}", results.display()))?;
        writeln!(file, "{line}")?;
    }
    Ok(())
}
