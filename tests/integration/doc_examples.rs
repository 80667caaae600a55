//! The documentation's examples print what the documentation shows: every
//! ```` ```console ```` block of README.md and docs/*.md, read when the test
//! runs, has each of its `$ ` commands run (with `c4solver` this build's binary,
//! from the repository root) and its output compared line by line with the lines
//! under the command, node counts included, so that no figure goes stale
//! silently.
//!
//! Timings differ from run to run and are masked on both sides: the last field of
//! a `moves score nodes microseconds` line, and the columns of a markdown table
//! whose header names a time or a rate (`mean time`, `K pos/s`). A line `...`
//! in the documentation stands for any number of lines. An HTML comment on the
//! line before a block changes how it is checked:
//!
//! * `<!-- example: not run (REASON) -->`: the block is not run (a command that
//!   takes minutes, or writes a file);
//! * `<!-- example: nodes vary -->`: node counts are masked too (several threads
//!   on one position explore more or fewer nodes from run to run);
//! * `<!-- example: needs all-sizes -->`: run only in a build with the
//!   `all-sizes` feature (other board sizes), as `.ci/run` runs it.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::common;

/// One `$ ` command of a console block and the lines shown under it.
#[derive(Debug)]
struct Example {
    /// `FILE:LINE` of the command.
    place: String,
    command: String,
    expected: Vec<String>,
    nodes_vary: bool,
}

/// How the block after a marker is checked.
#[derive(Clone, Copy, PartialEq)]
enum Marker {
    None,
    NotRun,
    NodesVary,
}

fn marker(line: &str) -> Marker {
    let line = line.trim();
    if line.starts_with("<!-- example: not run") {
        Marker::NotRun
    } else if line == "<!-- example: needs all-sizes -->" {
        if cfg!(feature = "all-sizes") {
            Marker::None
        } else {
            Marker::NotRun
        }
    } else if line == "<!-- example: nodes vary -->" {
        Marker::NodesVary
    } else {
        Marker::None
    }
}

/// The examples of one markdown file, and how many blocks were not run.
fn examples(root: &Path, name: &str) -> (Vec<Example>, usize) {
    let text = std::fs::read_to_string(root.join(name)).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let (mut out, mut not_run) = (Vec::new(), 0);
    let mut i = 0;
    while i < lines.len() {
        let fence = lines[i].trim_start();
        if fence != "```console" {
            i += 1;
            continue;
        }
        let indent = lines[i].len() - fence.len();
        let mark = match i.checked_sub(1) {
            Some(before) => marker(lines[before]),
            None => Marker::None,
        };
        i += 1;
        let mut block = Vec::new();
        while i < lines.len() && lines[i].trim_start() != "```" {
            block.push((i + 1, lines[i].get(indent..).unwrap_or("")));
            i += 1;
        }
        if mark == Marker::NotRun {
            not_run += 1;
            continue;
        }
        for (number, line) in block {
            if let Some(command) = line.strip_prefix("$ ") {
                out.push(Example {
                    place: format!("{name}:{number}"),
                    command: command.to_string(),
                    expected: Vec::new(),
                    nodes_vary: mark == Marker::NodesVary,
                });
            } else if let Some(e) = out.last_mut() {
                e.expected.push(line.to_string());
            }
        }
    }
    (out, not_run)
}

/// Whether `field` is a whole number.
fn is_int(field: &str) -> bool {
    let digits = field.strip_prefix('-').unwrap_or(field);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// The cells of a markdown table row, if `line` is one.
fn cells(line: &str) -> Option<Vec<&str>> {
    let row = line.strip_prefix('|')?;
    Some(row.strip_suffix('|').unwrap_or(row).split('|').collect())
}

/// Whether `line` is a table's separator row (`|---|---:|`).
fn is_separator(line: &str) -> bool {
    cells(line).is_some_and(|c| c.iter().all(|c| c.trim_matches([':', '-']).is_empty()))
}

/// `lines` with their timings masked (and their node counts, if they vary).
fn masked(lines: &[String], nodes_vary: bool) -> Vec<String> {
    let mut header: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if let Some(row) = cells(line) {
            if lines.get(i + 1).is_some_and(|next| is_separator(next)) {
                header = row.iter().map(|c| c.to_lowercase()).collect();
            } else if !is_separator(line) {
                let row: Vec<&str> = row
                    .iter()
                    .enumerate()
                    .map(|(k, c)| match header.get(k) {
                        Some(h) if h.contains("time") || h.contains("pos/s") => "<time>",
                        _ => c,
                    })
                    .collect();
                out.push(format!("|{}|", row.join("|")));
                continue;
            }
            out.push(line.clone());
            continue;
        }
        // `moves score nodes microseconds` (moves may be empty: the empty board).
        let fields: Vec<&str> = line.split(' ').collect();
        if fields.len() == 4 && fields[1..].iter().all(|f| is_int(f)) {
            let nodes = if nodes_vary { "<nodes>" } else { fields[2] };
            out.push(format!("{} {} {nodes} <us>", fields[0], fields[1]));
        } else {
            out.push(line.clone());
        }
    }
    out
}

/// Whether `got` matches `want`, where a `...` line of `want` matches any number
/// of lines.
fn matches(want: &[String], got: &[String]) -> bool {
    match want.split_first() {
        None => got.is_empty(),
        Some((w, rest)) if w == "..." => (0..=got.len()).any(|k| matches(rest, &got[k..])),
        Some((w, rest)) => got.first() == Some(w) && matches(rest, &got[1..]),
    }
}

/// Runs `command` with `sh` from `root`, this build's binary first on the PATH:
/// its stdout lines, then its stderr lines (an example may show an error).
fn run(root: &Path, command: &str) -> Vec<String> {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_c4solver"));
    let mut path = vec![bin.parent().unwrap().to_path_buf()];
    if let Some(p) = std::env::var_os("PATH") {
        path.extend(std::env::split_paths(&p));
    }
    let out = Command::new("sh")
        .arg("-c")
        .arg(command)
        .current_dir(root)
        .env("PATH", std::env::join_paths(path).unwrap())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    [out.stdout, out.stderr]
        .iter()
        .flat_map(|o| {
            String::from_utf8_lossy(o)
                .lines()
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn every_console_example_prints_what_the_documentation_shows() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut checked = Vec::new();
    let mut stale = Vec::new();
    for doc in common::documents() {
        let (examples, _) = examples(root, &doc);
        for e in examples {
            let got = masked(&run(root, &e.command), e.nodes_vary);
            let want = masked(&e.expected, e.nodes_vary);
            if !matches(&want, &got) {
                stale.push(format!(
                    "{}: `$ {}` shows\n{}\nbut prints now\n{}",
                    e.place,
                    e.command,
                    want.join("\n"),
                    got.join("\n")
                ));
            }
            checked.push(e.place);
        }
    }
    assert!(
        stale.is_empty(),
        "stale examples:\n\n{}",
        stale.join("\n\n")
    );
    // The two documents the command line is taught from have examples run.
    for doc in ["README.md:", "docs/cli.md:"] {
        assert!(
            checked.iter().filter(|p| p.starts_with(doc)).count() >= 3,
            "{doc} {checked:?}"
        );
    }
}

#[test]
fn the_checker_masks_timings_and_only_timings() {
    let lines = |s: &[&str]| s.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    let doc = lines(&[
        "4455 18 0 2",
        " 1 53371046 2456601",
        "|Solver|Test Set name|mean time|mean nb pos|K pos/s|",
        "|---|---|---|---:|---:|",
        "|tuned|end-easy (End-Easy)|2.312 μs|2.000|865.1|",
        "...",
        "Mismatches: 0",
    ]);
    let now = lines(&[
        "4455 18 0 7",
        " 1 53371046 2100000",
        "|Solver|Test Set name|mean time|mean nb pos|K pos/s|",
        "|---|---|---|---:|---:|",
        "|tuned|end-easy (End-Easy)|3.1 μs|2.000|700.0|",
        "### Weak solver",
        "",
        "Mismatches: 0",
    ]);
    assert!(matches(&masked(&doc, false), &masked(&now, false)));
    // A node count or a mean of nodes that changed is caught.
    let mut nodes = now.clone();
    nodes[1] = " 1 53371047 2100000".to_string();
    assert!(!matches(&masked(&doc, false), &masked(&nodes, false)));
    assert!(matches(&masked(&doc, true), &masked(&nodes, true)));
    let mut mean = now.clone();
    mean[4] = "|tuned|end-easy (End-Easy)|3.1 μs|2.850|700.0|".to_string();
    assert!(!matches(&masked(&doc, false), &masked(&mean, false)));
    // So is a missing or an extra line.
    assert!(!matches(&masked(&doc, false), &masked(&now[..7], false)));
    assert!(!matches(&doc[..2], &now[..3]));
}

#[test]
fn markers_are_read() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("doc-examples");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("x.md"),
        "text\n\n```console\n$ echo a\na\n```\n<!-- example: not run (minutes) -->\n```console\n\
         $ sleep 1000\n```\n<!-- example: needs all-sizes -->\n```console\n$ echo c\nc\n```\n\
         <!-- example: nodes vary -->\n  ```console\n  $ echo b\n  b\n  $ true\n  ```\n",
    )
    .unwrap();
    let (found, not_run) = examples(&dir, "x.md");
    let sized = cfg!(feature = "all-sizes");
    assert_eq!(not_run, if sized { 1 } else { 2 });
    let got: Vec<(&str, &[String], bool)> = found
        .iter()
        .map(|e| (e.command.as_str(), &e.expected[..], e.nodes_vary))
        .collect();
    let (a, b, c) = (["a".to_string()], ["b".to_string()], ["c".to_string()]);
    let mut want: Vec<(&str, &[String], bool)> = vec![("echo a", &a[..], false)];
    if sized {
        want.push(("echo c", &c[..], false));
    }
    want.extend([("echo b", &b[..], true), ("true", &[][..], true)]);
    assert_eq!(got, want);
    assert_eq!(found[0].place, "x.md:4");
}
