//! Criterion benches: a fixed sample of each bundled test set, strong and weak,
//! every answer checked.

use std::path::PathBuf;

use c4solver::bench::TestSet;
use c4solver::{Config, Mode, SolverKind};

use criterion::{Criterion, criterion_group, criterion_main};

type Solver7x6 = c4solver::sized::Solver<7, 6>;

fn sample(name: &str, n: usize) -> TestSet {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("testsets")
        .join(name);
    let mut set = TestSet::read(&path).unwrap_or_else(|e| panic!("{e}"));
    set.entries.truncate(n);
    set
}

fn bench_sets(c: &mut Criterion) {
    let reference_sets = [
        sample("end-easy", 100),
        sample("middle-easy", 10),
        sample("middle-medium", 2),
    ];
    let tuned_sets = [
        sample("end-easy", 100),
        sample("middle-easy", 100),
        sample("middle-medium", 20),
        sample("begin-easy", 20),
        sample("begin-medium", 2),
    ];
    for (kind, sets) in [
        (SolverKind::Reference, &reference_sets[..]),
        (SolverKind::Tuned, &tuned_sets[..]),
    ] {
        let mut solver = Solver7x6::new(Config::for_solver(kind)).unwrap();
        let mut group = c.benchmark_group(kind.name());
        group.sample_size(10);
        for set in sets {
            for mode in [Mode::Strong, Mode::Weak] {
                let id = format!("{}/{}", set.name, mode.name());
                group.bench_function(id, |b| {
                    b.iter(|| {
                        let mut nodes = 0;
                        for e in &set.entries {
                            let s = solver.solve(&e.position, mode).unwrap();
                            assert_eq!(s.score, mode.answer_for(e.score), "{}", e.moves);
                            nodes += s.nodes;
                        }
                        nodes
                    })
                });
            }
        }
        group.finish();
    }
}

criterion_group!(benches, bench_sets);
criterion_main!(benches);
