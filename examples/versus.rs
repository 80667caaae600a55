//! The tuned solver side by side with connect-four-ai 1.0, the Rust port of Pascal
//! Pons' final solver (no opening book), on the same positions in one run.
//!
//! ```text
//! cargo run --release --example versus -- FILE[:LIMIT]...
//! ```
//!
//! Each `FILE` is a test set (`moves score` per line, e.g. `../shared/pons-testsets/Test_L2_R2`)
//! and `LIMIT` the number of its first positions to solve (default: all); one
//! markdown row per set. Each
//! position is solved strong by one solver and then the other, so that both see the
//! same machine load; each solver's table is reset before every position and only
//! the search is timed. Both solvers first solve three positions untimed, which
//! touches their tables' pages (first-touch page faults are not search time). Every
//! score is checked against the file's; the exit code is 1 if any differs.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, bail};
use c4solver::bench::TestSet;
use c4solver::{Config, Mode};

use connect_four_ai::{Position as PonsPosition, Solver as PonsSolver};

type Position7x6 = c4solver::sized::Board<7, 6>;
type Solver7x6 = c4solver::sized::Solver<7, 6>;

/// Positions solved untimed first: a Middle-Medium, an End and a Begin position.
const WARM_UP: [&str; 3] = [
    "2252576253462244111563365343671351441",
    "4453232",
    "12211221",
];

fn main() -> anyhow::Result<ExitCode> {
    let sets: Vec<(PathBuf, usize)> = std::env::args()
        .skip(1)
        .map(|arg| parse_set(&arg))
        .collect::<anyhow::Result<_>>()?;
    if sets.is_empty() {
        bail!("usage: versus FILE[:LIMIT]...");
    }

    let mut theirs = PonsSolver::empty();
    let mut ours = Solver7x6::new(Config::tuned())?;
    for moves in WARM_UP {
        let pons = PonsPosition::from_moves(moves).map_err(|e| anyhow::anyhow!("{e:?}"))?;
        theirs.reset();
        theirs.solve(&pons);
        ours.solve(&Position7x6::parse(moves)?, Mode::Strong)
            .unwrap();
    }

    println!(
        "|set|positions|connect-four-ai: mean time|mean nodes|c4solver tuned: mean time|mean nodes|time ratio|nodes ratio|mismatches|"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    let mut any_mismatch = false;
    for (file, limit) in &sets {
        let set = TestSet::<7, 6>::read(file)?;
        let (mut count, mut mismatches) = (0u32, 0u32);
        let (mut their_secs, mut our_secs) = (0.0f64, 0.0f64);
        let (mut their_nodes, mut our_nodes) = (0u64, 0u64);
        for entry in set.entries.iter().take(*limit) {
            let pons = PonsPosition::from_moves(&entry.moves)
                .map_err(|e| anyhow::anyhow!("'{}': {e:?}", entry.moves))?;
            theirs.reset();
            let start = Instant::now();
            let their_score = i32::from(theirs.solve(&pons));
            their_secs += start.elapsed().as_secs_f64();
            their_nodes += theirs.explored_positions as u64;

            let solution = ours.solve(&entry.position, Mode::Strong).unwrap();
            our_secs += solution.time.as_secs_f64();
            our_nodes += solution.nodes;

            if their_score != entry.score || solution.score != entry.score {
                eprintln!(
                    "mismatch on '{}': expected {}, connect-four-ai {their_score}, c4solver {}",
                    entry.moves, entry.score, solution.score
                );
                mismatches += 1;
            }
            count += 1;
        }
        if count == 0 {
            bail!("{}: no position", file.display());
        }
        any_mismatch |= mismatches > 0;
        let n = f64::from(count);
        println!(
            "|{}|{count}|{}|{:.1}|{}|{:.1}|{:.3}|{:.3}|{mismatches}|",
            set.name,
            human_time(their_secs / n),
            their_nodes as f64 / n,
            human_time(our_secs / n),
            our_nodes as f64 / n,
            our_secs / their_secs,
            our_nodes as f64 / their_nodes as f64,
        );
    }
    Ok(if any_mismatch {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// `FILE` or `FILE:LIMIT` (the first `LIMIT` positions of `FILE`).
fn parse_set(arg: &str) -> anyhow::Result<(PathBuf, usize)> {
    match arg.rsplit_once(':') {
        Some((file, limit)) if !file.is_empty() => {
            let limit = limit
                .parse()
                .with_context(|| format!("{arg}: LIMIT '{limit}' is not a number"))?;
            Ok((PathBuf::from(file), limit))
        }
        _ => Ok((PathBuf::from(arg), usize::MAX)),
    }
}

/// A mean time in the unit that suits it (`3.41 μs`, `1.78 ms`, `0.82 s`).
fn human_time(secs: f64) -> String {
    if secs < 1e-3 {
        format!("{:.2} μs", secs * 1e6)
    } else if secs < 1.0 {
        format!("{:.2} ms", secs * 1e3)
    } else {
        format!("{secs:.2} s")
    }
}
