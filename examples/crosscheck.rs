//! Checks the labels of test-set files with connect-four-ai 1.0 (a Rust port of
//! Pascal Pons' final solver that shares no code with c4solver), using its embedded
//! depth-8 opening book: an independent oracle for the bundled Begin sets.
//!
//! ```text
//! cargo run --release --example crosscheck -- FILE...
//! ```
//!
//! Every line's score is compared with connect-four-ai's; each mismatch is printed,
//! and the exit code is 1 if any. One line per file sums it up.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::bail;
use c4solver::bench::TestSet;
use connect_four_ai::{Position as OtherPosition, Solver as OtherSolver};

fn main() -> anyhow::Result<ExitCode> {
    let files: Vec<PathBuf> = std::env::args().skip(1).map(PathBuf::from).collect();
    if files.is_empty() {
        bail!("usage: crosscheck FILE...");
    }
    let mut other = OtherSolver::new();
    let mut all_good = true;
    for file in &files {
        let set = TestSet::<7, 6>::read(file)?;
        let start = Instant::now();
        let mut mismatches = 0;
        for (i, e) in set.entries.iter().enumerate() {
            let p = OtherPosition::from_moves(&e.moves)
                .map_err(|err| anyhow::anyhow!("line {}: '{}': {err:?}", i + 1, e.moves))?;
            other.reset();
            let theirs = i32::from(other.solve(&p));
            if theirs != e.score {
                mismatches += 1;
                println!(
                    "{}: line {}: {} labelled {}, connect-four-ai says {theirs}",
                    file.display(),
                    i + 1,
                    e.moves,
                    e.score
                );
            }
        }
        all_good &= mismatches == 0;
        println!(
            "{}: {} positions, {mismatches} mismatches ({:.1} s)",
            file.display(),
            set.entries.len(),
            start.elapsed().as_secs_f64()
        );
    }
    Ok(if all_good {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
