//! The tuned solver against Pascal Pons' test sets: the search's total node
//! counts pinned on fixed samples (vendored in `tests/data/pons/`), the README's
//! examples, and, in `pons_sets` (ignored by default, run by `.ci/run`), exact
//! strong scores and weak signs on all of four sets and samples of the two others
//! (about 30 s of CPU in the test profile), read from `../shared/pons-testsets/`
//! (override with `C4_PONS_DIR=DIR`).

use crate::common::{self, Position7x6, Solver7x6};

use c4solver::{Config, Mode};

fn tuned() -> Solver7x6 {
    // The search itself: no book (node counts are the search's).
    Solver7x6::new(Config::tuned()).unwrap()
}

#[test]
fn readme_examples() {
    let mut s = tuned();
    let p = Position7x6::parse("44455554221").unwrap();
    assert_eq!(s.solve(&p, Mode::Strong).unwrap().score, -15);
    assert_eq!(s.solve(&p, Mode::Weak).unwrap().score, -1);
    let p = Position7x6::parse("4455").unwrap();
    assert_eq!(s.solve(&p, Mode::Strong).unwrap().score, 18);
    assert_eq!(s.solve(&p, Mode::Weak).unwrap().score, 1);
}

#[test]
fn edge_positions() {
    let mut s = tuned();
    // can win at once (columns 3 or 7): no search
    let p = Position7x6::parse("445566").unwrap();
    let sol = s.solve(&p, Mode::Strong).unwrap();
    assert_eq!((sol.score, sol.nodes), (18, 0));
    assert_eq!(s.solve(&p, Mode::Weak).unwrap().score, 1);
    // the table survives between positions with keep_table and gives the same answers
    let mut keep = Solver7x6::new(Config {
        keep_table: true,
        ..Config::tuned()
    })
    .unwrap();
    for moves in ["44455554221", "4455", "44455554221"] {
        let p = Position7x6::parse(moves).unwrap();
        assert_eq!(
            keep.solve(&p, Mode::Strong).unwrap().score,
            s.solve(&p, Mode::Strong).unwrap().score
        );
    }
}

/// The tuned search's total nodes on fixed samples of each of Pons' sets, strong
/// and weak, with a 64 MB table cleared before each position: any change in the
/// search's work (more or fewer nodes) shows up here and must be accepted
/// deliberately, by updating these numbers in the same change (and saying why).
/// `c4solver bench --json --limit N SET` prints the same totals.
#[test]
fn node_counts_are_pinned() {
    let pins = [
        // (set, first N positions, strong total, weak total)
        ("Test_L3_R1", 100, 2_232, 1_145),
        ("Test_L2_R1", 100, 8_423, 1_811),
        ("Test_L2_R2", 100, 1_062_135, 318_581),
        ("Test_L1_R1", 100, 100_507, 172_630),
        ("Test_L1_R2", 20, 3_953_663, 211_129),
        ("Test_L1_R3", 3, 7_808_861, 566_511),
    ];
    let mut solver = tuned();
    for (set, n, strong, weak) in pins {
        let ts = common::pons_sample(set);
        for (mode, want) in [(Mode::Strong, strong), (Mode::Weak, weak)] {
            let total: u64 = ts.entries[..n]
                .iter()
                .map(|e| solver.solve(&e.position, mode).unwrap().nodes)
                .sum();
            assert_eq!(
                total, want,
                "{set} first {n} {mode:?}: the search's work changed"
            );
        }
    }
}

/// The full sets, from `../shared/pons-testsets/`.
mod pons_sets {
    use super::*;

    /// Solves the first `limit` positions of `set` strongly and the first `weak`
    /// weakly, and checks every answer.
    fn check(set: &str, limit: usize, weak: usize) {
        let ts = common::pons_set(set);
        let mut solver = tuned();
        for (i, e) in ts.entries.iter().take(limit).enumerate() {
            let strong = solver.solve(&e.position, Mode::Strong).unwrap().score;
            assert_eq!(strong, e.score, "{set} #{}: {} strong", i + 1, e.moves);
            if i < weak {
                let sign = solver.solve(&e.position, Mode::Weak).unwrap().score;
                assert_eq!(sign, e.score.signum(), "{set} #{}: {} weak", i + 1, e.moves);
            }
        }
    }

    #[test]
    #[ignore = "reads ../shared/pons-testsets: cargo test -- --ignored pons_sets"]
    fn end_easy_all() {
        check("Test_L3_R1", 1000, 1000);
    }

    #[test]
    #[ignore = "reads ../shared/pons-testsets: cargo test -- --ignored pons_sets"]
    fn middle_easy_all() {
        check("Test_L2_R1", 1000, 1000);
    }

    #[test]
    #[ignore = "reads ../shared/pons-testsets: cargo test -- --ignored pons_sets"]
    fn middle_medium_all() {
        check("Test_L2_R2", 1000, 1000);
    }

    #[test]
    #[ignore = "reads ../shared/pons-testsets: cargo test -- --ignored pons_sets"]
    fn begin_easy_all() {
        check("Test_L1_R1", 1000, 1000);
    }

    #[test]
    #[ignore = "reads ../shared/pons-testsets: cargo test -- --ignored pons_sets"]
    fn begin_medium_first_200() {
        check("Test_L1_R2", 200, 100);
    }

    #[test]
    #[ignore = "reads ../shared/pons-testsets: cargo test -- --ignored pons_sets"]
    fn begin_hard_first_10() {
        // about 1.5 s a position in the test profile; the README's full run checks
        // all 1000 (`c4solver bench ../shared/pons-testsets/Test_L1_R3`)
        check("Test_L1_R3", 10, 5);
    }
}
