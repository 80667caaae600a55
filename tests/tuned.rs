//! The tuned solver against Pascal Pons' test sets: exact strong scores and weak
//! signs on all of four sets and samples of the two others (about 30 s of CPU in
//! the test profile), plus the README's examples. The sets are read from `../shared/pons-testsets/` (override
//! with `C4_PONS_TESTSETS=DIR`); they are not part of the repository.

use std::path::PathBuf;

use c4solver::testset::TestSet;
use c4solver::{Config, Mode, Position, Solver7x6};

fn sets_dir() -> PathBuf {
    let dir = std::env::var_os("C4_PONS_TESTSETS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/pons-testsets")
        });
    assert!(
        dir.join("Test_L3_R1").is_file(),
        "Pascal Pons' test sets are missing: expected Test_L1_R1 .. Test_L3_R1 in {} \
         (set C4_PONS_TESTSETS to their folder)",
        dir.display()
    );
    dir
}

fn tuned() -> Solver7x6 {
    Solver7x6::new(Config::tuned()).unwrap()
}

/// Solves the first `limit` positions of `set` strongly and the first `weak`
/// weakly, and checks every answer.
fn check(set: &str, limit: usize, weak: usize) {
    let path = sets_dir().join(set);
    let ts: TestSet = TestSet::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut solver = tuned();
    for (i, e) in ts.entries.iter().take(limit).enumerate() {
        let strong = solver.solve(&e.position, Mode::Strong).score;
        assert_eq!(strong, e.score, "{set} #{}: {} strong", i + 1, e.moves);
        if i < weak {
            let sign = solver.solve(&e.position, Mode::Weak).score;
            assert_eq!(sign, e.score.signum(), "{set} #{}: {} weak", i + 1, e.moves);
        }
    }
}

#[test]
fn end_easy_all() {
    check("Test_L3_R1", 1000, 1000);
}

#[test]
fn middle_easy_all() {
    check("Test_L2_R1", 1000, 1000);
}

#[test]
fn middle_medium_all() {
    check("Test_L2_R2", 1000, 1000);
}

#[test]
fn begin_easy_all() {
    check("Test_L1_R1", 1000, 1000);
}

#[test]
fn begin_medium_first_200() {
    check("Test_L1_R2", 200, 100);
}

#[test]
fn begin_hard_first_10() {
    // about 1.5 s a position in the test profile; the README's full run checks
    // all 1000 (`c4solver bench ../shared/pons-testsets/Test_L1_R3`)
    check("Test_L1_R3", 10, 5);
}

#[test]
fn readme_examples() {
    let mut s = tuned();
    let p = Position::parse("44455554221").unwrap();
    assert_eq!(s.solve(&p, Mode::Strong).score, -15);
    assert_eq!(s.solve(&p, Mode::Weak).score, -1);
    let p = Position::parse("4455").unwrap();
    assert_eq!(s.solve(&p, Mode::Strong).score, 18);
    assert_eq!(s.solve(&p, Mode::Weak).score, 1);
}

#[test]
fn edge_positions() {
    let mut s = tuned();
    // can win at once (columns 3 or 7): no search
    let p = Position::parse("445566").unwrap();
    let sol = s.solve(&p, Mode::Strong);
    assert_eq!((sol.score, sol.nodes), (18, 0));
    assert_eq!(s.solve(&p, Mode::Weak).score, 1);
    // the table survives between positions with keep_table and gives the same answers
    let mut keep = Solver7x6::new(Config {
        keep_table: true,
        ..Config::tuned()
    })
    .unwrap();
    for moves in ["44455554221", "4455", "44455554221"] {
        let p = Position::parse(moves).unwrap();
        assert_eq!(
            keep.solve(&p, Mode::Strong).score,
            s.solve(&p, Mode::Strong).score
        );
    }
}
