//! Memory and threads that cannot be had: under an address-space limit
//! (`prlimit --as`), with any number of threads and any table size, every command
//! gives its answers or a clear error naming what could not be had (exit 2),
//! never a panic or an abort; a worker started later whose table cannot be had
//! leaves its lines to the others; and a thousand threads asked for one short
//! line build only what the line needs.

use crate::common::text_lossy as text;

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// End-Easy: a search of a few nodes.
const EASY: &str = "2252576253462244111563365343671351441";

/// Runs the binary with `args` under an address-space limit of `mb` MB, `input`
/// on stdin.
fn limited(mb: u64, args: &[&str], input: &str) -> Output {
    let mut child = Command::new("prlimit")
        .arg(format!("--as={}", mb << 20))
        .arg("--")
        .arg(env!("CARGO_BIN_EXE_c4solver"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("prlimit (util-linux) runs");
    let mut stdin = child.stdin.take().unwrap();
    // A run refused at once may close its stdin first.
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    child.wait_with_output().unwrap()
}

#[test]
fn a_table_that_does_not_fit_is_a_clear_error() {
    // Regression: "failed to spawn thread" and exit 134 (about 1 GB of address
    // space, 1000 MB asked for the table). Twice the space asked for: whatever the
    // binary's own mappings, the table cannot fit.
    let out = limited(1025, &["--threads", "1", "--table-mb", "2000"], "4455\n");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stderr),
        "c4solver: cannot allocate a table of 2000 MB: not enough memory\n"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn a_thousand_workers_for_one_line_build_what_it_needs() {
    // Regression: a bytemuck `unwrap()` on an `Err` and exit 134 (1000 workers of
    // 1 MB each in 2.5 GB); and 1024 workers of 64 MB each (64 GB) cannot all be
    // had in 1 GB: one short line gets its answer all the same.
    for (mb, args) in [
        (2500, &["--threads", "1000", "--table-mb", "1000"][..]),
        (1024, &["--threads", "1024"][..]),
    ] {
        let out = limited(mb, args, "4455\n");
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            text(&out.stderr)
        );
        let answer = text(&out.stdout);
        assert!(answer.starts_with("4455 18 0 "), "{args:?}: {answer}");
        assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
    }
}

/// Each line's `moves score nodes`, without the time.
fn answers(out: &[u8]) -> Vec<String> {
    text(out)
        .lines()
        .map(|l| l.rsplit_once(' ').map_or(l, |(a, _)| a).to_string())
        .collect()
}

#[test]
fn a_later_worker_without_its_table_leaves_every_line_to_the_others() {
    // Regression: every line answered, then "cannot allocate the table of worker
    // 2 of 2" and exit 2. The first table (3000 MB) fits in 3900 MB of address
    // space, the second does not: the run succeeds on one worker, with a note.
    let input = "4455\n4\n44\n444\n";
    let whole = crate::common::output(&["--threads", "1"], input.as_bytes());
    assert_eq!(whole.status.code(), Some(0));
    for (args, lines) in [
        (
            &["--threads", "2", "--table-mb", "6000"][..],
            input.to_string(),
        ),
        // A stream longer than the workers: each line taken starts one more.
        (
            &["--threads", "8", "--table-mb", "8000"][..],
            input.repeat(50),
        ),
    ] {
        let out = limited(3900, args, &lines);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
        let want: Vec<String> = (0..lines.len() / input.len())
            .flat_map(|_| answers(&whole.stdout))
            .collect();
        assert_eq!(answers(&out.stdout), want, "{args:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: one note: {err}");
        assert!(
            err.starts_with("c4solver: note: cannot allocate the table of worker ")
                && err.contains("the workers already started go on without it"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn threads_of_play_that_cannot_start_are_a_clear_error() {
    // Each helper of the team has a 2 MB stack: 1023 of them do not fit in 256 MB.
    let out = limited(
        256,
        &["play", "--threads", "1024", "--table-mb", "8"],
        "q\n",
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(
        err.starts_with("c4solver: cannot start 1023 search thread(s): "),
        "{err}"
    );
}

#[test]
fn no_memory_limit_or_thread_count_makes_a_panic() {
    let input = format!("4455\n\n{EASY}\n4480\n");
    let mut failures = Vec::new();
    let mut errors = 0;
    for mb in [64, 128, 256, 512, 1024, 2560] {
        for threads in ["1", "2", "3", "64", "1024"] {
            for table in [None, Some("1000")] {
                let mut runs: Vec<(Vec<&str>, &str)> = vec![
                    (vec!["solve"], input.as_str()),
                    (vec!["analyze"], input.as_str()),
                    (vec!["play", "--start", "4455"], "3\nq\n"),
                    (
                        vec![
                            "generate",
                            "--stage",
                            "end",
                            "--difficulty",
                            "easy",
                            "--count",
                            "2",
                        ],
                        "",
                    ),
                ];
                for (args, _) in &mut runs {
                    args.extend(["--threads", threads]);
                    if let Some(t) = table {
                        args.extend(["--table-mb", t]);
                    }
                }
                for (args, stdin) in runs {
                    let out = limited(mb, &args, stdin);
                    let err = text(&out.stderr);
                    let code = out.status.code();
                    let clear = match code {
                        // A bad line (4480) or a game's bad move.
                        Some(0 | 1) => true,
                        Some(2) => {
                            errors += 1;
                            err.contains("c4solver: cannot ") || err.contains("less than 1 MB each")
                        }
                        _ => false,
                    };
                    if !clear || err.contains("panicked") || err.contains("memory allocation") {
                        failures.push(format!("{mb} MB, {args:?}: {code:?}\n{err}"));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The limits did bite: some runs could not have what they asked for.
    assert!(errors > 10, "{errors}");
}
