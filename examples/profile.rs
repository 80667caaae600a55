//! Solves one position with the tuned solver and shows where the nodes went: per
//! null-window search and per number of stones on the board.
//!
//! ```text
//! cargo run --release --example profile -- [MOVES] [TABLE_MB]
//! ```
//!
//! `MOVES` defaults to the empty board (39,079,382 nodes; 4-5 s on a quiet 2-core machine,
//! about 10 s on a loaded one), and `TABLE_MB` to 64.

use std::time::Instant;

use c4solver::research::CompactTable;
use c4solver::research::Tuned;

type Position7x6 = c4solver::sized::Board<7, 6>;

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let moves = args.next().unwrap_or_default();
    let mb: usize = args.next().map_or(Ok(64), |a| a.parse())?;
    let pos = Position7x6::parse(&moves)?;
    let mut solver =
        Tuned::<7, 6, u64, CompactTable, true>::new(CompactTable::for_board::<7, 6>(mb)?)?;
    let start = Instant::now();
    // The window of a strong solve (`Solver::solve`), so that the nodes are the same.
    let half: i32 = 7 * 6 / 2;
    let (score, nodes) = solver.search(&pos, -half, half);
    let secs = start.elapsed().as_secs_f64();
    println!("position '{moves}': score {score}, {nodes} nodes, {secs:.2} s, table {mb} MB");
    println!("\nnull windows (is the score above med?):");
    println!("|med|answer|nodes|share|");
    println!("|---:|---|---:|---:|");
    let profile = solver.profile();
    for w in profile.windows() {
        let side = if w.answer > w.med { ">" } else { "<=" };
        let share = 100.0 * w.nodes as f64 / nodes.max(1) as f64;
        println!("|{}|{side} ({})|{}|{share:.1}%|", w.med, w.answer, w.nodes);
    }
    println!("\nnodes by stones on the board:");
    println!("|stones|nodes|share|");
    println!("|---:|---:|---:|");
    for (stones, &n) in profile.nodes_by_stones.iter().enumerate() {
        if n > 0 {
            let share = 100.0 * n as f64 / nodes.max(1) as f64;
            println!("|{stones}|{n}|{share:.2}%|");
        }
    }
    Ok(())
}
