use c4solver::book::layers;
use c4solver::position::Board;
use c4solver::solver::{Config, Mode, Solver};
use std::time::Instant;

fn run(keys: &[u64], mb: usize, clear_every: usize) -> (f64, u64) {
    let mut s = Solver::<7, 6>::new(Config {
        keep_table: true,
        book: false,
        table_mb: mb,
        ..Config::default()
    })
    .unwrap();
    let t = Instant::now();
    let mut nodes = 0;
    for (i, &k) in keys.iter().enumerate() {
        if clear_every > 0 && i % clear_every == 0 {
            s.clear();
        }
        let p = Board::<7, 6>::from_key(k).unwrap();
        nodes += s.solve(&p, Mode::Strong).unwrap().nodes;
    }
    (
        t.elapsed().as_secs_f64() * 1000.0 / keys.len() as f64,
        nodes,
    )
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let off: usize = a[1].parse().unwrap();
    let n: usize = a[2].parse().unwrap();
    let l = layers::layers::<7, 6>(12);
    let keys = &l[12][off..off + n];
    for (name, mb, ce) in [
        ("contig 64MB", 64, 0),
        ("block64 fresh", 64, 64),
        ("contig 1GB", 1024, 0),
        ("scratch", 64, 1),
        ("contig 256MB", 256, 0),
    ] {
        let (ms, nodes) = run(keys, mb, ce);
        println!("{name}: {ms:.3} ms/pos, {nodes} nodes");
    }
    let mut sorted = keys.to_vec();
    sorted.sort();
    let (ms, nodes) = run(&sorted, 64, 0);
    println!("key-sorted 64MB: {ms:.3} ms/pos, {nodes} nodes");
}
