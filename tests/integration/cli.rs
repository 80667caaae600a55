//! End-to-end tests of the `c4solver` binary: stdin, files, every invalid-input
//! kind, the expected-score check, exit codes, JSON and a closed stdout.

use crate::common::{c4, run_stdin, text};

use std::io::{Read, Write};
use std::process::{Output, Stdio};

const A: &str = "2252576253462244111563365343671351441"; // score -1
const B: &str = "7422341735647741166133573473242566"; // score 1

/// `(moves, score)` of each output line; empty lines give `None`.
fn fields(out: &Output) -> Vec<Option<(String, i32)>> {
    text(&out.stdout)
        .lines()
        .map(|l| {
            if l.is_empty() {
                return None;
            }
            let f: Vec<&str> = l.split(' ').collect();
            assert_eq!(f.len(), 4, "moves score nodes microseconds: {l:?}");
            // The built-in book answers up to its depth with no search.
            let nodes: u64 = f[2].parse().unwrap();
            let depth = crate::common::Book7x6::builtin().unwrap().depth();
            assert_eq!(nodes == 0, f[0].len() <= depth, "{l:?}");
            f[3].parse::<u64>().unwrap();
            Some((f[0].to_string(), f[1].parse().unwrap()))
        })
        .collect()
}

#[test]
fn solves_stdin_strong_and_weak() {
    let input = format!("{A}\n{B}\n");
    let out = run_stdin(&["solve"], &input);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        fields(&out),
        vec![Some((A.into(), -1)), Some((B.into(), 1))]
    );
    assert!(out.stderr.is_empty());

    // bare c4solver -w is solve on stdin, weak
    let out = run_stdin(&["-w"], &input);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        fields(&out),
        vec![Some((A.into(), -1)), Some((B.into(), 1))]
    );
    let out = run_stdin(&["solve", "--weak"], "44455554221\n");
    assert_eq!(fields(&out), vec![Some(("44455554221".into(), -1))]);
    let out = run_stdin(&[], "44455554221\n");
    assert_eq!(fields(&out), vec![Some(("44455554221".into(), -15))]);
}

#[test]
fn crlf_trailing_spaces_and_expected_scores() {
    let input = format!("{A} -1\r\n{B}   \r\n{B}\t1\n");
    let out = run_stdin(&["solve"], &input);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        fields(&out),
        vec![
            Some((A.into(), -1)),
            Some((B.into(), 1)),
            Some((B.into(), 1))
        ]
    );
}

#[test]
fn expected_score_mismatch_is_reported() {
    let out = run_stdin(&["solve"], &format!("{A} 3\n{B} 1\n"));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "c4solver: line 1: strong score -1 differs from expected 3\n"
    );
    // the line is still solved and printed
    assert_eq!(
        fields(&out),
        vec![Some((A.into(), -1)), Some((B.into(), 1))]
    );
    // weak mode compares the sign
    let out = run_stdin(&["-w"], &format!("{A} -2\n{B} 2\n"));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = run_stdin(&["-w"], &format!("{A} 3\n"));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "c4solver: line 1: weak score -1 differs from expected 1\n"
    );
}

#[test]
fn every_invalid_kind_with_valid_lines_between() {
    let input = [
        "44a5",          // bad character
        A,               // valid
        "4480",          // column out of range
        "1111111",       // full column
        "1212121",       // game over: the last move wins
        "12121213",      // move after the win
        B,               // valid
        "4455 abc",      // expected score not a number
        "4455 40",       // expected score out of range
        "4455 18 extra", // too many fields
    ]
    .join("\n");
    let out = run_stdin(&["solve"], &input);
    assert_eq!(out.status.code(), Some(1));
    let f = fields(&out);
    assert_eq!(f.len(), 10, "one output line per input line");
    assert_eq!(f[1], Some((A.into(), -1)));
    assert_eq!(f[6], Some((B.into(), 1)));
    assert!(
        f.iter()
            .enumerate()
            .all(|(i, l)| l.is_some() == (i == 1 || i == 6))
    );
    let err = text(&out.stderr);
    let want = [
        "c4solver: line 1: bad character 'a' at move 3",
        "c4solver: line 3: column 8 is out of range (1..=7) at move 3",
        "c4solver: line 4: column 1 is already full at move 7",
        "c4solver: line 5: move 7 makes four in a row: the game is already over",
        "c4solver: line 6: move 8 is played after the game was won at move 7",
        "c4solver: line 8: expected score \"abc\" is not a number",
        "c4solver: line 9: expected score 40 is out of range (-18..=18)",
        "c4solver: line 10: expected `moves [score]`, found 3 fields",
    ];
    assert_eq!(err.lines().collect::<Vec<_>>(), want);
}

#[test]
fn files_and_exit_codes() {
    let dir = std::env::temp_dir().join(format!("c4solver-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.txt");
    std::fs::write(&good, format!("{A} -1\n{B}\n")).unwrap();
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "9\n").unwrap();
    let missing = dir.join("missing.txt");

    let out = c4().arg("solve").arg(&good).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        fields(&out),
        vec![Some((A.into(), -1)), Some((B.into(), 1))]
    );

    let out = c4().arg("solve").arg(&bad).arg(&good).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        format!(
            "c4solver: {}: line 1: column 9 is out of range (1..=7) at move 1\n",
            bad.display()
        )
    );
    assert_eq!(fields(&out).len(), 3);

    // an unreadable file is an I/O error (2), and the other files are still solved
    let out = c4().arg("solve").arg(&missing).arg(&good).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).starts_with(&format!("c4solver: cannot read {}", missing.display())));
    assert_eq!(fields(&out).len(), 2);

    // usage errors are 2
    let out = c4().arg("--no-such-flag").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = c4()
        .args(["--table-mb", "100000000", "--threads", "1", "solve"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "c4solver: cannot allocate a table of 100000000 MB: not enough memory\n"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn json_output() {
    let out = run_stdin(&["--json"], &format!("{A} -1\n1111111\n"));
    assert_eq!(out.status.code(), Some(1));
    let lines: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["moves"], A);
    assert_eq!(lines[0]["score"], -1);
    assert_eq!(lines[0]["expected"], -1);
    assert_eq!(lines[0]["ok"], true);
    assert!(lines[0]["nodes"].as_u64().unwrap() >= 1);
    assert_eq!(lines[1]["line"], 2);
    assert_eq!(lines[1]["error"], "column 1 is already full at move 7");
}

#[test]
fn closed_stdout_ends_quietly() {
    let mut child = c4()
        .arg("solve")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let line = format!("{A}\n");
        for _ in 0..20_000 {
            if stdin.write_all(line.as_bytes()).is_err() {
                break;
            }
        }
    });
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 10];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    let status = child.wait().unwrap();
    writer.join().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert_eq!(status.code(), Some(0));
    assert_eq!(err, "");
}

#[test]
fn bench_checks_and_prints_tables() {
    let dir = std::env::temp_dir().join(format!("c4solver-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let set = dir.join("Test_L3_R1");
    std::fs::write(&set, format!("{A} -1\n{B} 1\n")).unwrap();
    let out = c4()
        .args(["bench", "--solver", "reference,tuned"])
        .arg(&set)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.contains("### Strong solver"));
    assert!(s.contains("### Weak solver"));
    assert!(s.contains("|Solver|Test Set name|mean time|mean nb pos|K pos/s|"));
    assert!(s.contains("|reference|Test_L3_R1 (End-Easy)|"));
    assert!(s.contains("|tuned|Test_L3_R1 (End-Easy)|"));
    assert!(s.contains("|Solver|Test Set name|nodes vs reference|time vs reference|"));
    assert!(s.contains("Mismatches: 0"));

    let wrong = dir.join("wrong");
    std::fs::write(&wrong, format!("{A} 2\n")).unwrap();
    let out = c4()
        .args(["bench", "--strong", "--solver", "reference"])
        .arg(&wrong)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let s = text(&out.stdout);
    assert!(!s.contains("Weak solver"));
    assert!(s.contains("Mismatches: 1"), "{s}");
    assert!(
        s.contains(&format!(
            "- reference upper/always/64 strong wrong #1: {A} expected 2, got -1"
        )),
        "{s}"
    );

    let out = c4()
        .args(["bench", "--json", "--weak"])
        .arg(&set)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["rows"][0]["mode"], "weak");
    assert_eq!(v["rows"][0]["positions"], 2);
    assert_eq!(v["mismatches"].as_array().unwrap().len(), 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn serve_refuses_sizes_that_cannot_be_had_before_allocating() {
    // Regression: these aborted ("memory allocation of 88000000000 bytes
    // failed") or panicked while the queue and the cache were set up.
    for (flag, value, range) in [
        ("--queue", "1000000000", "1..=1000000"),
        ("--queue", "18446744073709551615", "1..=1000000"),
        ("--cache", "1000000000", "0..=10000000"),
        ("--cache", "18446744073709551615", "0..=10000000"),
        ("--max-connections", "18446744073709551615", "1..=1000000"),
    ] {
        let out = c4()
            .args(["serve", "--addr", "127.0.0.1:0", flag, value])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flag} {value}: {err}");
        assert!(
            err.contains(&format!(
                "invalid value '{value}' for '{flag} <N>': {value} is not in {range}"
            )),
            "{flag} {value}: {err}"
        );
        assert!(out.stdout.is_empty(), "never listened");
    }
}

#[test]
fn serve_refuses_a_rate_burst_without_a_rate_limit() {
    // Regression: the burst was silently ignored.
    for (args, message) in [
        (&["--rate-burst", "5"][..], "--rate-limit <N>"),
        (
            &["--rate-limit", "0", "--rate-burst", "5"],
            "c4solver: --rate-burst applies past --rate-limit: give a --rate-limit above 0",
        ),
    ] {
        let out = c4()
            .args(["serve", "--addr", "127.0.0.1:0", "--threads", "1"])
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "never listened");
    }
}

#[test]
fn a_table_under_1_mb_a_worker_is_refused_not_rounded_up() {
    // docs/cli.md: `--table-mb` is a total, never rounded up past what was given.
    let out = c4()
        .args(["--table-mb", "1", "--threads", "2", "solve"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "c4solver: --table-mb 1 is shared out among 2 workers: less than 1 MB each \
         (give at least 2, or fewer --threads)\n"
    );
}

/// The lines of `c4solver ARGS --help`'s `Commands:` list, each trimmed.
fn help_commands(args: &[&str]) -> Vec<String> {
    let out = c4().args(args).arg("--help").output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    text(&out.stdout)
        .lines()
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .map(|l| l.trim().to_string())
        .collect()
}

#[test]
fn the_top_level_help_names_every_book_subcommand() {
    // Each `book` subcommand, and how the top-level line of `book` names it.
    let actions = [
        (
            "generate",
            "generate one (resumable, sharded across machines)",
        ),
        ("merge", "merge shards"),
        ("verify", "verify one against a book-free solve"),
        ("info", "describe one"),
        ("export", "export one's positions with their scores"),
    ];
    let names: Vec<String> = help_commands(&["book"])
        .iter()
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .filter(|n| n != "help")
        .collect();
    assert_eq!(names, actions.map(|(name, _)| name));
    let top = help_commands(&[]);
    let book = top.iter().find(|l| l.starts_with("book ")).unwrap();
    assert!(
        book.ends_with("export one's positions with their scores"),
        "{book}"
    );
    for (name, words) in actions {
        assert!(book.contains(words), "book {name}: {book}");
    }
}
