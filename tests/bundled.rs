//! The bundled test sets in `testsets/`: well formed, in their buckets, without
//! duplicates, and labelled with the scores the solver finds (checked on a sample).

mod common;

use std::collections::HashSet;

use c4solver::testset::{Difficulty, Stage, moves_left};
use c4solver::{Config, Mode, Solver7x6};

fn check(name: &str, stage: Stage, difficulty: Difficulty, sample: usize) {
    let set = common::bundled_set(name);
    assert_eq!(set.entries.len(), 1000, "{name}");
    let mut keys = HashSet::new();
    for e in &set.entries {
        let n = e.position.moves_played();
        assert_eq!(Stage::of(n), stage, "{name} {}", e.moves);
        assert_eq!(
            Difficulty::of(moves_left(n, e.score)),
            difficulty,
            "{name} {}",
            e.moves
        );
        assert!(
            keys.insert(e.position.key()),
            "{name}: duplicate {}",
            e.moves
        );
    }
    let mut solver = Solver7x6::new(Config::default()).unwrap();
    for e in set.entries.iter().take(sample) {
        assert_eq!(
            solver.solve(&e.position, Mode::Strong).score,
            e.score,
            "{name} {}",
            e.moves
        );
    }
}

#[test]
fn end_easy() {
    check("end-easy", Stage::End, Difficulty::Easy, 1000);
}

#[test]
fn middle_easy() {
    check("middle-easy", Stage::Middle, Difficulty::Easy, 100);
}

#[test]
fn middle_medium() {
    check("middle-medium", Stage::Middle, Difficulty::Medium, 10);
}
