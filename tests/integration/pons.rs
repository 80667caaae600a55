//! Every position of Pascal Pons' End-Easy, Middle-Easy and Middle-Medium sets,
//! strong and weak, solved exactly by the reference solver, whose mean node counts
//! must equal the tutorial's published figures (4 significant digits): same
//! algorithm, same table, same move order, same nodes.

use crate::common::{self, Solver7x6};

use c4solver::bench::{Difficulty, Stage};
use c4solver::{Config, Mode};

/// The command line's rounding to 4 significant digits, as its tables show the
/// figures (a binary's module: included, not imported).
#[path = "../../src/cli/sig4.rs"]
mod rounding;
use rounding::sig4;

/// Solves the whole set, checks every answer and returns the mean node count.
///
/// Each solve starts from a cleared table, so the positions are shared out among
/// the machine's cores, one solver each, with the same nodes as in one run.
fn run(name: &str, mode: Mode) -> f64 {
    let set = common::pons_set(name);
    assert_eq!(set.entries.len(), 1000);
    let parts = common::on_the_cores(&set.entries, |first, entries| {
        let mut solver = Solver7x6::new(Config::reference()).unwrap();
        let mut nodes = 0u64;
        let mut wrong = Vec::new();
        for (i, e) in entries.iter().enumerate() {
            let s = solver.solve(&e.position, mode).unwrap();
            nodes += s.nodes;
            if s.score != mode.answer_for(e.score) {
                wrong.push(format!(
                    "#{} {}: expected {}, got {}",
                    first + i + 1,
                    e.moves,
                    e.score,
                    s.score
                ));
            }
        }
        (nodes, wrong)
    });
    let nodes: u64 = parts.iter().map(|(n, _)| n).sum();
    let wrong: Vec<&String> = parts.iter().flat_map(|(_, w)| w).collect();
    assert!(wrong.is_empty(), "{name} {mode:?}: {wrong:?}");
    nodes as f64 / set.entries.len() as f64
}

/// The tests that read the full sets from `../shared/pons-testsets/`: ignored by
/// default, run by `.ci/run` (`cargo test -- --ignored pons_sets`).
mod pons_sets {
    use super::*;

    #[test]
    #[ignore = "reads ../shared/pons-testsets: cargo test -- --ignored pons_sets"]
    fn end_easy_strong() {
        assert_eq!(sig4(run("Test_L3_R1", Mode::Strong)), "92.84");
    }

    #[test]
    #[ignore = "reads ../shared/pons-testsets: cargo test -- --ignored pons_sets"]
    fn end_easy_weak() {
        assert_eq!(sig4(run("Test_L3_R1", Mode::Weak)), "68.69");
    }

    #[test]
    #[ignore = "reads ../shared/pons-testsets: cargo test -- --ignored pons_sets"]
    fn middle_easy_strong() {
        assert_eq!(sig4(run("Test_L2_R1", Mode::Strong)), "207,900");
    }

    #[test]
    #[ignore = "reads ../shared/pons-testsets: cargo test -- --ignored pons_sets"]
    fn middle_easy_weak() {
        assert_eq!(sig4(run("Test_L2_R1", Mode::Weak)), "28,750");
    }

    #[test]
    #[ignore = "reads ../shared/pons-testsets: cargo test -- --ignored pons_sets"]
    fn middle_medium_strong() {
        assert_eq!(sig4(run("Test_L2_R2", Mode::Strong)), "1,731,000");
    }

    #[test]
    #[ignore = "reads ../shared/pons-testsets: cargo test -- --ignored pons_sets"]
    fn middle_medium_weak() {
        assert_eq!(sig4(run("Test_L2_R2", Mode::Weak)), "752,300");
    }

    /// The bucket rules of `testset` put every Pons position in its own file's bucket.
    #[test]
    #[ignore = "reads ../shared/pons-testsets: cargo test -- --ignored pons_sets"]
    fn buckets_match_pons_files() {
        let files = [
            ("Test_L3_R1", Stage::End, Difficulty::Easy),
            ("Test_L2_R1", Stage::Middle, Difficulty::Easy),
            ("Test_L2_R2", Stage::Middle, Difficulty::Medium),
            ("Test_L1_R1", Stage::Begin, Difficulty::Easy),
            ("Test_L1_R2", Stage::Begin, Difficulty::Medium),
            ("Test_L1_R3", Stage::Begin, Difficulty::Hard),
        ];
        for (name, stage, difficulty) in files {
            for e in common::pons_set(name).entries {
                let n = e.position.moves_played();
                assert_eq!(Stage::of(n), stage, "{name} {}", e.moves);
                assert_eq!(
                    Difficulty::of_score_on(42, n, e.score),
                    difficulty,
                    "{name} {} {}",
                    e.moves,
                    e.score
                );
            }
        }
    }
}
