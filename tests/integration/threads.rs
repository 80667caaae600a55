//! Several threads on one position, and small tables: every score exact against
//! Pascal Pons' sets (strong and weak), the shared table node for node with the
//! compact table when one thread searches it, and a stress run with more threads
//! than cores over tiny tables.
//!
//! The parallel searches here let their helpers join at once (not after the
//! solver's millisecond), so that even End-Easy positions are searched by every
//! thread. The full runs (every Begin set in full with 2 and 4 threads) are
//! ignored by default:
//!
//! ```text
//! cargo test --release --test integration threads::begin_sets_in_full -- --ignored
//! ```

use crate::common::{self, Solver7x6};

#[cfg(feature = "research")]
use std::time::Duration;

#[cfg(feature = "research")]
use c4solver::research::{Layout, Narrow, SharedTable, TeamSearch, Wide};
use c4solver::{Config, Mode};

#[cfg(feature = "research")]
/// A team of `threads` threads over a shared table of layout `L`, its helpers
/// joining every search at once.
fn team<L: Layout>(mb: usize, threads: usize) -> TeamSearch<7, 6, u64, SharedTable<L>> {
    let table = SharedTable::<L>::for_board::<7, 6>(mb).unwrap();
    TeamSearch::new(table, threads - 1, Duration::ZERO).unwrap()
}

#[cfg(feature = "research")]
/// Solves the first `strong` positions of `set` strongly and the first `weak`
/// weakly with `t`, checks every answer and returns the total nodes.
fn check<L: Layout>(
    t: &mut TeamSearch<7, 6, u64, SharedTable<L>>,
    set: &str,
    strong: usize,
    weak: usize,
) -> u64 {
    // The vendored sample holds the first 300 positions; more need the full set.
    let ts = if strong.max(weak) <= 300 {
        common::pons_sample(set)
    } else {
        common::pons_set(set)
    };
    assert!(
        ts.entries.len() >= strong.max(weak),
        "{set}: too few positions"
    );
    let mut nodes = 0;
    for (i, e) in ts.entries.iter().enumerate().take(strong.max(weak)) {
        if i < strong {
            t.clear();
            let (score, n) = t.search(&e.position, -21, 21);
            assert_eq!(score, e.score, "{set} #{}: {} strong", i + 1, e.moves);
            nodes += n;
        }
        if i < weak {
            t.clear();
            let (score, _) = t.search(&e.position, -1, 1);
            assert_eq!(
                score.signum(),
                e.score.signum(),
                "{set} #{}: {} weak",
                i + 1,
                e.moves
            );
        }
    }
    nodes
}

#[cfg(feature = "research")]
#[test]
fn two_threads_begin_samples() {
    let mut t = team::<Narrow>(64, 2);
    check(&mut t, "Test_L1_R1", 200, 200);
    check(&mut t, "Test_L1_R2", 30, 30);
    check(&mut t, "Test_L1_R3", 3, 3);
}

#[cfg(feature = "research")]
/// One thread over the shared table explores exactly the nodes of the compact
/// table (same slots, same layout; its busy marks, with no other thread, change
/// nothing): the totals pinned in `tests/integration/tuned.rs`.
#[test]
fn one_thread_over_the_shared_table_is_the_compact_table_node_for_node() {
    let mut t = team::<Narrow>(64, 1);
    assert_eq!(check(&mut t, "Test_L2_R2", 100, 0), 1_062_135);
    assert_eq!(check(&mut t, "Test_L1_R2", 20, 0), 3_953_663);
}

#[cfg(feature = "research")]
/// Eight threads on two cores, over tables so small that the threads overwrite
/// each other's entries all the time, both layouts.
#[test]
fn more_threads_than_cores_over_tiny_tables() {
    let mut wide = team::<Wide>(1, 8);
    check(&mut wide, "Test_L2_R2", 100, 100);
    check(&mut wide, "Test_L1_R1", 50, 50);
    let mut narrow = team::<Narrow>(63, 8);
    check(&mut narrow, "Test_L1_R2", 10, 10);
}

/// Every compact table size from 1 MB works (8-byte entries below 63 MB), with
/// one thread and with two, through the solver.
#[test]
fn small_compact_tables_are_exact() {
    for mb in [1, 2, 16, 62, 63] {
        for threads in [1, 2] {
            let mut s = Solver7x6::new(Config {
                table_mb: mb,
                threads,
                ..Config::tuned()
            })
            .unwrap();
            for (set, n) in [("Test_L2_R2", 100), ("Test_L1_R1", 40)] {
                for e in &common::pons_sample(set).entries[..n] {
                    for mode in [Mode::Strong, Mode::Weak] {
                        let want = if mode == Mode::Strong {
                            e.score
                        } else {
                            e.score.signum()
                        };
                        let got = s.solve(&e.position, mode).unwrap().score;
                        assert_eq!(
                            got, want,
                            "{mb} MB, {threads} threads: {} {mode:?}",
                            e.moves
                        );
                    }
                }
            }
        }
    }
    // The reference search over a small compact table too (research).
    #[cfg(feature = "research")]
    {
        let mut r = Solver7x6::new(
            Config {
                table_mb: 1,
                ..Config::reference()
            }
            .with_table(c4solver::research::TableKind::Compact),
        )
        .unwrap();
        for e in &common::pons_sample("Test_L3_R1").entries[..200] {
            assert_eq!(r.solve(&e.position, Mode::Strong).unwrap().score, e.score);
        }
    }
}

/// The solver's own helpers (joining after a millisecond) on positions that
/// take longer than that.
#[test]
fn a_parallel_solver_on_begin_positions() {
    let mut s = Solver7x6::new(Config {
        threads: 2,
        ..Config::tuned()
    })
    .unwrap();
    for e in &common::pons_sample("Test_L1_R2").entries[..20] {
        assert_eq!(s.solve(&e.position, Mode::Strong).unwrap().score, e.score);
        assert_eq!(
            s.solve(&e.position, Mode::Weak).unwrap().score,
            e.score.signum()
        );
    }
}

/// The command line with several workers prints what one worker prints: every
/// answer in input order, invalid lines and mismatches reported in place, the same
/// exit code, and the same node counts but on the few lines an idle worker may
/// have joined at the end of the input (these lines are easy, but a loaded
/// machine can deschedule a worker holding one for longer than the tail join's
/// 100 ms: seen once in CI with five workers on two cores).
#[test]
fn the_command_line_with_workers_prints_what_one_worker_prints() {
    use std::process::Stdio;
    let mut input = String::new();
    for (i, e) in common::pons_sample("Test_L2_R1").entries[..300]
        .iter()
        .enumerate()
    {
        match i % 50 {
            7 => input.push_str("44a5\n"),
            19 => input.push_str(&format!("{} {}\n", e.moves, e.score + 1)),
            _ => input.push_str(&format!("{} {}\n", e.moves, e.score)),
        }
    }
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("threads");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("mixed.txt");
    std::fs::write(&path, &input).unwrap();
    let run = |threads: &str, json: bool| {
        let mut c = common::c4();
        c.args(["solve", "--threads", threads]);
        if json {
            c.arg("--json");
        }
        let out = c.arg(&path).stdin(Stdio::null()).output().unwrap();
        // Everything but the times.
        let text = String::from_utf8(out.stdout).unwrap();
        // Each line without its time, split into its node count and the rest.
        let lines: Vec<(String, Option<u64>)> = text
            .lines()
            .map(|l| {
                if json {
                    let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
                    let o = v.as_object_mut().unwrap();
                    o.remove("time_us");
                    let nodes = o.remove("nodes").and_then(|n| n.as_u64());
                    (v.to_string(), nodes)
                } else {
                    let l = l.rsplit_once(' ').map_or(l, |(a, _)| a);
                    match l.rsplit_once(' ') {
                        Some((rest, nodes)) => (rest.to_string(), Some(nodes.parse().unwrap())),
                        None => (l.to_string(), None),
                    }
                }
            })
            .collect();
        (
            out.status.code(),
            lines,
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    for json in [false, true] {
        let one = run("1", json);
        assert_eq!(one.0, Some(1));
        assert_eq!(one.1.len(), 300);
        assert_eq!(one.2.lines().count(), 12, "{}", one.2);
        for (threads, n) in [("2", 2), ("5", 5)] {
            let many = run(threads, json);
            assert_eq!(many.0, one.0, "--threads {threads}, json {json}");
            assert_eq!(many.2, one.2, "--threads {threads}, json {json}");
            // Every line's moves, score, check and error as with one worker.
            let rest = |r: &Vec<(String, Option<u64>)>| -> Vec<String> {
                r.iter().map(|l| l.0.clone()).collect()
            };
            assert_eq!(
                rest(&many.1),
                rest(&one.1),
                "--threads {threads}, json {json}"
            );
            // And its node count, but on the lines still running when the input
            // ran out, which idle workers may join (at most one fewer than the
            // workers; on a busy machine a worker descheduled for 100 ms can hold
            // even an easy line that long): there the count is the sum over the
            // threads that searched it.
            let joined = (many.1.iter().zip(&one.1))
                .filter(|(a, b)| a.1 != b.1)
                .count();
            assert!(
                joined < n,
                "--threads {threads}, json {json}: {joined} node counts differ"
            );
        }
    }
}

/// `generate` keeps the candidates in the order they were drawn: the same seed
/// gives the same file with any number of workers.
#[test]
fn generate_gives_the_same_file_with_any_number_of_workers() {
    use std::process::Stdio;
    let run = |threads: &str| {
        let out = common::c4()
            .args(["generate", "--stage", "middle", "--difficulty", "easy"])
            .args(["--count", "40", "--seed", "9", "--threads", threads])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        String::from_utf8(out.stdout).unwrap()
    };
    let one = run("1");
    assert_eq!(one.lines().count(), 40);
    assert_eq!(run("3"), one);
}

/// The tests that read the full sets from `../shared/pons-testsets/`: ignored by
/// default, run by `.ci/run` (`cargo test -- --ignored pons_sets`).
#[cfg(feature = "research")]
mod pons_sets {
    use super::*;

    #[test]
    #[ignore = "reads ../shared/pons-testsets: cargo test -- --ignored pons_sets"]
    fn two_threads_end_and_middle_sets_in_full() {
        let mut t = team::<Narrow>(64, 2);
        for set in ["Test_L3_R1", "Test_L2_R1", "Test_L2_R2"] {
            check(&mut t, set, 1000, 1000);
        }
    }
}

#[cfg(feature = "research")]
/// Every Begin set in full with 2 and 4 threads (tens of minutes on 2 cores):
/// `cargo test --release --test integration threads::begin_sets_in_full -- --ignored`.
#[test]
#[ignore = "tens of minutes: cargo test --release --test integration threads::begin_sets_in_full -- --ignored"]
fn begin_sets_in_full() {
    for threads in [2, 4] {
        let mut t = team::<Narrow>(64, threads);
        check(&mut t, "Test_L1_R1", 1000, 1000);
        check(&mut t, "Test_L1_R2", 1000, 1000);
        check(&mut t, "Test_L1_R3", 1000, 1000);
    }
}
