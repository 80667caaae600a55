//! Every table design and replacement policy gives exact scores with both
//! searches, on Pascal Pons' test sets (strong and weak). The designs other than
//! each search's own are research tools: these tests run with the `research`
//! feature (`.ci/run` runs them).
#![cfg(feature = "research")]
//!
//! The sets are the first 300 positions of each, vendored in `tests/data/pons/`;
//! the tests of `full_sets` (ignored by default, run by `.ci/run` when
//! `C4_FULL_SETS=1`, as the weekly and release runs do) read the full sets from
//! `../shared/pons-testsets` (or `$C4_PONS_DIR`).
//! Tables are 4 MB so that replacement happens often (the compact table needs
//! 63 MB and gets 64).
//!
//! **Tuned search**, every design (15 configurations): every 10th position of
//! the samples of `Test_L3_R1`, `Test_L2_R1`, `Test_L2_R2` and `Test_L1_R1`,
//! strong and weak; in `full_sets`, all of the four sets.
//!
//! **Reference search**, every design: the reference search needs up to 10^9
//! nodes per Begin-Easy position, so it runs (well under two minutes in the test
//! profile on a loaded 2-core machine):
//!
//! * `Test_L3_R1` (End-Easy) in full, strong and weak;
//! * `Test_L2_R1` (Middle-Easy): every 5th position weak, every 25th strong;
//! * `Test_L2_R2` (Middle-Medium): the first 2 positions, strong and weak;
//! * kept tables (ages at work): every 4th of `Test_L3_R1`, every 100th of
//!   `Test_L2_R1`, strong then weak;
//! * `Test_L1_R1` (Begin-Easy): positions 1 and 3 to 5, weak, with the bounds
//!   table only (a few million nodes in all; position 2, `6146`, takes 1.5*10^8
//!   nodes weak even with the bounds table, and the reference search needs seconds
//!   per position there).
//!
//! In `full_sets` too, every design of the reference search on all of
//! `Test_L3_R1`, strong and weak. The full runs, including `Test_L2_R2` in full,
//! are ignored by default:
//!
//! ```text
//! cargo test --release --test integration tables:: -- --ignored
//! ```

use crate::common::{self, Solver7x6};

use c4solver::TableStats;
use c4solver::bench::TestSet;
use c4solver::research::{DepthKind, ReplaceKind, TableKind};
use c4solver::{Config, Mode, SolverKind};

/// The vendored sample of a Pons set (its first 300 positions).
fn set(name: &str) -> TestSet {
    common::pons_sample(name)
}

/// Every table design and policy of the reference search (the depth-aware
/// policies with both measures).
fn configs() -> Vec<Config> {
    designs(SolverKind::Reference)
}

/// Every table design and policy for `kind`'s search, with statistics where the
/// search counts them.
fn designs(kind: SolverKind) -> Vec<Config> {
    let mut out = Vec::new();
    for table in TableKind::all() {
        out.push(
            Config {
                kind,
                table_mb: if table == TableKind::Compact { 64 } else { 4 },
                ..Config::default()
            }
            .with_table(table)
            .with_stats(kind == SolverKind::Reference),
        );
    }
    out
}

/// Solves the positions `pick` selects in every mode, checking scores and the
/// statistics' invariants.
fn check(config: Config, name: &str, modes: &[Mode], pick: impl Fn(usize) -> bool) {
    check_set(config, &set(name), name, modes, pick);
}

/// [`check`] on the full set, from `../shared/pons-testsets/`; a missing folder
/// fails the test with a message saying where the sets should be.
fn check_full(config: Config, name: &str, modes: &[Mode], pick: impl Fn(usize) -> bool) {
    check_set(config, &common::pons_set(name), name, modes, pick);
}

/// [`check`] on the positions of `set`.
fn check_set(
    config: Config,
    set: &TestSet,
    name: &str,
    modes: &[Mode],
    pick: impl Fn(usize) -> bool,
) {
    let mut solver = Solver7x6::new(config).unwrap();
    for &mode in modes {
        let mut total = TableStats::default();
        for (i, e) in set.entries.iter().enumerate().filter(|(i, _)| pick(*i)) {
            let got = solver.solve(&e.position, mode).unwrap().score;
            let want = match mode {
                Mode::Strong => e.score,
                Mode::Weak => e.score.signum(),
            };
            assert_eq!(
                got,
                want,
                "{} {mode:?} {name} #{}: {}",
                config.label(),
                i + 1,
                e.moves
            );
            if config.research.stats {
                let st = solver.last_stats().expect("stats on");
                assert_eq!(st.check(), Ok(()), "{st:?}");
                total.add(&st);
            }
        }
        assert_eq!(total.check(), Ok(()), "{total:?}");
    }
}

const BOTH: [Mode; 2] = [Mode::Strong, Mode::Weak];

#[test]
fn tuned_every_design_sampled() {
    let all = designs(SolverKind::Tuned);
    assert_eq!(all.len(), 15);
    for c in all {
        for name in ["Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1"] {
            check(c, name, &BOTH, |i| i % 10 == 0);
        }
    }
}

#[test]
fn middle_easy_sampled() {
    for c in configs() {
        check(c, "Test_L2_R1", &[Mode::Weak], |i| i % 5 == 0);
        check(c, "Test_L2_R1", &[Mode::Strong], |i| i % 25 == 0);
    }
}

#[test]
fn middle_medium_sampled() {
    for c in configs() {
        check(c, "Test_L2_R2", &BOTH, |i| i < 2);
    }
}

#[test]
fn begin_easy_first_positions_weak_with_bounds() {
    let config = Config {
        table_mb: 16,
        ..Config::reference()
    }
    .with_table(TableKind::Bounds(ReplaceKind::TwoTier(DepthKind::Cells)))
    .with_stats(true);
    check(config, "Test_L1_R1", &[Mode::Weak], |i| i < 5 && i != 1);
}

#[test]
fn kept_tables_stay_exact() {
    // Ages matter only when the table is kept: every depth-aware policy, kept
    // between positions and between strong and weak searches.
    for mut c in configs() {
        c.keep_table = true;
        check(c, "Test_L3_R1", &BOTH, |i| i % 4 == 0);
        check(c, "Test_L2_R1", &BOTH, |i| i % 100 == 0);
    }
}

#[test]
fn statistics_do_not_change_the_reference_search() {
    let set = set("Test_L3_R1");
    let mut plain = Solver7x6::new(Config::reference()).unwrap();
    let mut counted = Solver7x6::new(Config::reference().with_stats(true)).unwrap();
    let mut total = TableStats::default();
    for e in &set.entries {
        let a = plain.solve(&e.position, Mode::Strong).unwrap();
        let b = counted.solve(&e.position, Mode::Strong).unwrap();
        assert_eq!((a.score, a.nodes), (b.score, b.nodes), "{}", e.moves);
        assert!(plain.last_stats().is_none());
        total.add(&counted.last_stats().unwrap());
    }
    assert_eq!(total.check(), Ok(()));
    assert!(total.hits > 0 && total.cut_upper > 0);
    assert_eq!(total.hints, 0, "the tutorial's table keeps no moves");
}

#[test]
#[ignore = "minutes: cargo test --release --test integration tables:: -- --ignored"]
fn full_runs() {
    for c in configs() {
        check_full(c, "Test_L3_R1", &BOTH, |_| true);
        check_full(c, "Test_L2_R1", &BOTH, |_| true);
        check_full(c, "Test_L2_R2", &BOTH, |_| true);
    }
}

/// Every design over the full sets from `../shared/pons-testsets/`: ignored by
/// default, run by `.ci/run` with `C4_FULL_SETS=1` (the weekly and release runs;
/// docs/testing.md). The samples above check every design on each set.
mod full_sets {
    use super::*;

    #[test]
    #[ignore = "every design on the full sets: C4_FULL_SETS=1 .ci/run, or cargo test --features research --test integration -- --ignored tables::full_sets"]
    fn tuned_every_design_end_and_middle_easy_in_full() {
        let all = designs(SolverKind::Tuned);
        assert_eq!(all.len(), 15);
        for c in all {
            check_full(c, "Test_L3_R1", &BOTH, |_| true);
            check_full(c, "Test_L2_R1", &BOTH, |_| true);
        }
    }

    #[test]
    #[ignore = "every design on the full sets: C4_FULL_SETS=1 .ci/run, or cargo test --features research --test integration -- --ignored tables::full_sets"]
    fn tuned_every_design_middle_medium_in_full() {
        common::on_the_cores(&designs(SolverKind::Tuned), |_, part| {
            for &c in part {
                check_full(c, "Test_L2_R2", &BOTH, |_| true);
            }
        });
    }

    #[test]
    #[ignore = "every design on the full sets: C4_FULL_SETS=1 .ci/run, or cargo test --features research --test integration -- --ignored tables::full_sets"]
    fn tuned_every_design_begin_easy_in_full() {
        common::on_the_cores(&designs(SolverKind::Tuned), |_, part| {
            for &c in part {
                check_full(c, "Test_L1_R1", &BOTH, |_| true);
            }
        });
    }

    #[test]
    #[ignore = "every design on the full sets: C4_FULL_SETS=1 .ci/run, or cargo test --features research --test integration -- --ignored tables::full_sets"]
    fn end_easy_in_full() {
        for c in configs() {
            check_full(c, "Test_L3_R1", &BOTH, |_| true);
        }
    }
}
