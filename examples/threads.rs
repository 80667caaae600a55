//! Measures the parallel search of one position at a time: for each position, the
//! answer, the nodes of every thread and the wall time, against one thread.
//!
//! ```text
//! cargo run --release --example threads -- THREADS [FILE|MOVES] [LIMIT] [TABLE_MB]
//! ```
//!
//! `FILE` holds `moves [score]` lines
//! (the first `LIMIT`); a `MOVES` string is one position (default: the empty
//! board). `THREADS` 1 runs the one-thread solver of `--threads 1`, 0 the shared
//! table with one thread (a command-line worker that others may join). Prints one
//! line per position and the totals: the speed-up bound `nodes of one thread /
//! nodes of the busiest thread` needs no quiet machine.

use std::time::{Duration, Instant};

use c4solver::bench::TestSet;
use c4solver::research::TeamSearch;
use c4solver::research::{Narrow, SharedTable};
use c4solver::{Config, Mode};

type Position7x6 = c4solver::sized::Board<7, 6>;
type Solver7x6 = c4solver::sized::Solver<7, 6>;

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let threads: usize = args.first().map_or(Ok(2), |a| a.parse())?;
    let what = args.get(1).cloned().unwrap_or_default();
    let limit: usize = args.get(2).map_or(Ok(usize::MAX), |a| a.parse())?;
    let mb: usize = args.get(3).map_or(Ok(64), |a| a.parse())?;
    let positions: Vec<(String, Position7x6, Option<i32>)> =
        if std::path::Path::new(&what).is_file() {
            let set = TestSet::read(std::path::Path::new(&what))?;
            set.entries
                .into_iter()
                .take(limit)
                .map(|e| (e.moves, e.position.into(), Some(e.score)))
                .collect()
        } else {
            vec![(what.clone(), Position7x6::parse(&what)?, None)]
        };
    let mut single = Solver7x6::new(Config {
        table_mb: mb,
        ..Config::tuned()
    })?;
    let table = SharedTable::<Narrow>::for_board::<7, 6>(mb)?;
    let mut team =
        TeamSearch::<7, 6, u64, _>::new(table, threads.saturating_sub(1), Duration::ZERO)?;
    let (mut total, mut busiest, mut wall) = (0u64, 0u64, 0f64);
    for (moves, pos, want) in &positions {
        let start = Instant::now();
        let (score, nodes, per_thread) = if threads == 1 {
            let s = single.solve(pos, Mode::Strong)?;
            (s.score, s.nodes, vec![s.nodes])
        } else {
            team.clear();
            let (score, nodes) = team.search(pos, -21, 21);
            (score, nodes, team.thread_nodes().to_vec())
        };
        let secs = start.elapsed().as_secs_f64();
        if let Some(w) = want {
            assert_eq!(score, *w, "{moves}");
        }
        let max = per_thread.iter().copied().max().unwrap_or(0);
        total += nodes;
        busiest += max;
        wall += secs;
        if positions.len() <= 5 {
            println!("'{moves}' score {score} nodes {nodes} per thread {per_thread:?} {secs:.3} s");
        }
    }
    println!(
        "threads {threads}, {mb} MB: {} positions, total nodes {total}, busiest thread {busiest}, wall {wall:.3} s",
        positions.len()
    );
    Ok(())
}
