//! What a new user and a hostile one still hit (issue 48), each end to end:
//! statistics when the book answers, the built-in book on a board it is not for,
//! `book verify`'s count, errors said once, stdout and stdin that fail or are
//! closed, numbers told as they are, and the checkpoint of a finished book.

use crate::common::{run_stdin, text_lossy as text};

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_c4solver")
}

/// Runs `script` with `sh`, `$C` the binary: for redirections the test harness
/// cannot make.
fn shell(script: &str) -> Output {
    Command::new("sh")
        .arg("-c")
        .arg(script)
        .env("C", bin())
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("user-edges");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

#[cfg(feature = "research")]
#[test]
fn stats_are_given_when_the_book_answers() {
    // Regression: nothing on stderr, and no `stats` field.
    let out = run_stdin(&["--stats"], "4455\n");
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).starts_with("4455 18 0 "));
    let err = text(&out.stderr);
    assert!(
        err.starts_with("c4solver: table stats: probes=0 hits=0 "),
        "{err}"
    );
    let out = run_stdin(&["--stats", "--json"], "4455\n");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["nodes"], 0);
    assert_eq!(v["stats"]["probes"], 0);
    assert_eq!(v["stats"]["searches"], 0);
    // A search past the book counts as before.
    let out = run_stdin(&["--stats", "--json"], "274552224131661\n");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["stats"]["searches"], 1);
    assert!(v["stats"]["probes"].as_u64().unwrap() > 0);
}

#[cfg(feature = "all-sizes")]
#[test]
fn the_built_in_book_is_refused_on_another_board_as_a_book_file_is() {
    let book = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("crates/c4solver/books/7x6.c4book");
    let file = run_stdin(&["--size", "4x4", "--book", book.to_str().unwrap()], "22\n");
    assert_eq!(file.status.code(), Some(2), "{}", text(&file.stderr));
    // Regression: accepted, and answered with no book at all.
    let builtin = run_stdin(&["--size", "4x4", "--book", "builtin"], "22\n");
    assert_eq!(builtin.status.code(), Some(2));
    assert_eq!(
        text(&builtin.stderr),
        "c4solver: --book builtin: there is no built-in book for the 4x4 board (it is 7x6): name \
         a 4x4 book file (`c4solver book generate --size 4x4` makes one), or leave --book out\n"
    );
    assert!(builtin.stdout.is_empty());
    // Without --book, a 4x4 board has no book and searches, as documented.
    let out = run_stdin(&["--size", "4x4"], "22\n");
    assert_eq!(out.status.code(), Some(0));
}

/// Generates a 4x4 book of `stones` stones into `out` (seconds at most).
#[cfg(feature = "all-sizes")]
fn generate_4x4(stones: &str, out: &std::path::Path) -> Output {
    run_stdin(
        &[
            "--size",
            "4x4",
            "book",
            "generate",
            "--depth",
            stones,
            "--threads",
            "2",
            "--out",
            out.to_str().unwrap(),
        ],
        "",
    )
}

#[cfg(feature = "all-sizes")]
#[test]
fn book_verify_counts_the_entries_above_the_deepest_layer() {
    let out = scratch("verify-5.c4book");
    let made = generate_4x4("5", &out);
    assert_eq!(made.status.code(), Some(0), "{}", text(&made.stderr));
    let v = run_stdin(
        &[
            "--size",
            "4x4",
            "book",
            "verify",
            out.to_str().unwrap(),
            "--sample",
            "3",
        ],
        "",
    );
    assert_eq!(v.status.code(), Some(0), "{}", text(&v.stderr));
    // The oracle: the layers of 4x4 up to 5 stones, one entry per mirror pair
    // (1, 2, 8, 26, 82 and 218, as the library enumerates them).
    let layers: [usize; 6] = [1, 2, 8, 26, 82, 218];
    let above: usize = layers[..5].iter().sum();
    let whole: usize = layers.iter().sum();
    assert!(above < whole);
    let err = text(&v.stderr);
    // Regression: the whole book's count.
    assert!(
        err.contains(&format!(
            "book verify: {above} entries above the deepest layer checked against their \
             moves' entries: all agree"
        )),
        "{err}"
    );
}

#[cfg(feature = "all-sizes")]
#[test]
fn a_finished_book_leaves_no_checkpoint_and_is_not_made_again() {
    let out = scratch("finished.c4book");
    let ckpt = PathBuf::from(format!("{}.ckpt", out.display()));
    let _ = std::fs::remove_file(&ckpt);
    let made = generate_4x4("4", &out);
    assert_eq!(made.status.code(), Some(0), "{}", text(&made.stderr));
    assert!(out.is_file());
    // Regression: FILE.ckpt stayed behind.
    assert!(!ckpt.exists(), "the checkpoint of a finished book stays");
    let bytes = std::fs::read(&out).unwrap();
    // Run again, it finds the book written and does nothing (a batch of shards
    // started again skips the finished ones).
    let again = generate_4x4("4", &out);
    assert_eq!(again.status.code(), Some(0));
    let err = text(&again.stderr);
    assert!(
        err.contains("finished.c4book already holds this book"),
        "{err}"
    );
    assert_eq!(std::fs::read(&out).unwrap(), bytes);
    assert!(!ckpt.exists());
    // Other arguments do not overwrite it from nothing.
    let other = generate_4x4("3", &out);
    assert_eq!(other.status.code(), Some(2));
    let err = text(&other.stderr);
    assert!(
        err.contains(
            "finished.c4book already exists, has no checkpoint and is not the book these \
             arguments make"
        ),
        "{err}"
    );
    assert_eq!(std::fs::read(&out).unwrap(), bytes);
    // A shard's checkpoint stays: it keeps the costs the shard file does not.
    let shard = scratch("finished-shard.c4book");
    let shard_ckpt = PathBuf::from(format!("{}.ckpt", shard.display()));
    let _ = std::fs::remove_file(&shard_ckpt);
    let made = run_stdin(
        &[
            "--size",
            "4x4",
            "book",
            "generate",
            "--depth",
            "4",
            "--shard",
            "1/2",
            "--out",
            shard.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(made.status.code(), Some(0), "{}", text(&made.stderr));
    assert!(shard.is_file() && shard_ckpt.is_file());
}

#[cfg(feature = "all-sizes")]
#[test]
fn a_file_error_is_said_once() {
    // Regression: "No such file or directory (os error 2): No such file or
    // directory (os error 2)".
    let out = run_stdin(
        &[
            "book",
            "generate",
            "--depth",
            "1",
            "--out",
            "/nonexistent/dir/x.c4book",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "c4solver: /nonexistent/dir/x.c4book.ckpt: No such file or directory (os error 2)\n"
    );
    // Merging into a directory: said once, and no half-written file left.
    let shard = scratch("merge-me.c4book");
    let made = generate_4x4("3", &shard);
    assert_eq!(made.status.code(), Some(0), "{}", text(&made.stderr));
    let dir = scratch("merge-into");
    std::fs::create_dir_all(&dir).unwrap();
    let out = run_stdin(
        &[
            "--size",
            "4x4",
            "book",
            "merge",
            shard.to_str().unwrap(),
            "--out",
            dir.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert_eq!(err.matches("os error").count(), 1, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(!PathBuf::from(format!("{}.tmp", dir.display())).exists());
}

#[test]
fn stdout_and_stdin_that_fail_or_are_closed_are_clear_errors() {
    // Regression: "No space left on device" without naming stdout.
    let out = shell("echo 4455 | \"$C\" > /dev/full");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "c4solver: cannot write to stdout: No space left on device (os error 28)\n"
    );
    // Regression: exit 0, every answer lost.
    for command in ["solve", "analyze", "book info"] {
        let out = shell(&format!("echo 4455 | \"$C\" {command} >&-"));
        assert_eq!(out.status.code(), Some(2), "{command}");
        assert_eq!(
            text(&out.stderr),
            "c4solver: stdout is closed: there is nowhere to print the answers\n",
            "{command}"
        );
    }
    // Regression: exit 0 silently, as if the input were empty.
    let out = shell("\"$C\" <&-");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "c4solver: cannot read stdin: it is closed (give the positions on stdin, or name a \
         file)\n"
    );
    // A file named instead of stdin is read as usual.
    let file = scratch("closed-stdin.txt");
    std::fs::write(&file, "4455\n").unwrap();
    let out = shell(&format!("\"$C\" {} <&-", file.display()));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with("4455 18 0 "));
    // An empty stdin (not a closed one) is an empty input, as before.
    let out = shell("\"$C\" < /dev/null");
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty() && out.stderr.is_empty());
}

#[test]
fn numbers_are_told_as_they_are() {
    // Regression: "0 is not in 1..18446744073709551615".
    for args in [
        &[
            "generate",
            "--stage",
            "end",
            "--difficulty",
            "easy",
            "--count",
            "0",
        ][..],
        &["bench", "--limit", "0"][..],
        &["book", "verify", "x.c4book", "--sample", "0"][..],
    ] {
        let out = run_stdin(args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = text(&out.stderr);
        assert!(
            err.contains("invalid value '0'") && err.contains(": must be at least 1"),
            "{args:?}: {err}"
        );
    }
    // A score of 2,000 digits: out of range, not "not a number", and cut.
    let out = run_stdin(&[], &format!("4455 {}\n", "9".repeat(2000)));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        format!(
            "c4solver: line 1: expected score {}... (2000 bytes) is out of range (-18..=18)\n",
            "9".repeat(40)
        )
    );
    // Of 5,000 digits: the line is cut at 4096 bytes, and the message is short.
    let out = run_stdin(&[], &format!("4455 {}\n", "9".repeat(5000)));
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.len() < 200 && err.contains("is out of range"), "{err}");
    // A 10 MB line to `play` is not repeated in full.
    let out = run_stdin(
        &["play", "--start", "4455"],
        &format!("{}\nq\n", "z".repeat(10 << 20)),
    );
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.len() < 200, "{} bytes: {}", err.len(), &err[..200]);
    assert!(err.contains("... (4096 bytes)"), "{err}");
}
