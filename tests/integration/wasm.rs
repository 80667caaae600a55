//! The WebAssembly build (`scripts/build-web`, crates/c4solver-wasm) against the
//! native command line: the same positions analyzed by the bindings in Node and by
//! `c4solver analyze --json --pv --threads 1` give the same scores, best moves,
//! lines of best play and node counts (one thread and a 64 MB table on both sides,
//! so the same search), and bad input the command line's own message.
//!
//! Needs `node`, the wasm32 target and the wasm-bindgen CLI: under CI (`CI=true`)
//! node must be there and the script installs the others; elsewhere a missing one
//! skips, saying what to install (a plain `cargo test` installs nothing).

use crate::common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use serde_json::Value;

/// The first positions of each bundled set to compare: 200 in all, fewer of the
/// opening sets, whose analyses take longest.
const SAMPLE: [(&str, usize); 6] = [
    ("end-easy", 50),
    ("middle-easy", 50),
    ("middle-medium", 50),
    ("begin-easy", 30),
    ("begin-medium", 15),
    ("begin-hard", 5),
];

/// The static folder, built once for every test of this file.
fn built() -> Option<&'static PathBuf> {
    static DIR: OnceLock<Option<PathBuf>> = OnceLock::new();
    DIR.get_or_init(|| {
        if Command::new("node").arg("--version").output().is_err() {
            assert!(
                std::env::var_os("CI").is_none(),
                "CI needs node for the wasm tests"
            );
            eprintln!("skipped: no node on the PATH");
            return None;
        }
        common::build_web()
    })
    .as_ref()
}

/// The bindings' answers to `lines`, one JSON value each.
fn wasm(dir: &Path, lines: &str, book: bool, score_only: bool) -> Vec<Value> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut args = vec![
        root.join("tests/wasm/analyze.mjs").display().to_string(),
        dir.join("pkg").display().to_string(),
    ];
    if !book {
        args.push("--no-book".into());
    }
    if score_only {
        args.push("--score".into());
    }
    let mut child = Command::new("node")
        .args(&args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("node starts");
    let mut stdin = child.stdin.take().expect("piped");
    let input = lines.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("node runs");
    writer
        .join()
        .expect("writer")
        .expect("node reads its input");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    parse(&out.stdout)
}

/// The command line's answers to `lines` (`analyze`, or with `score_only` solve).
fn native(lines: &str, book: bool, score_only: bool) -> Vec<Value> {
    let mut args = if score_only {
        vec!["--json", "--threads", "1"]
    } else {
        vec!["analyze", "--json", "--pv", "--threads", "1"]
    };
    if !book {
        args.push("--no-book");
    }
    parse(&common::output(&args, lines.as_bytes()).stdout)
}

fn parse(bytes: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(bytes)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// Checks every line's fields that both give.
fn same(lines: &str, book: bool, score_only: bool) {
    let Some(dir) = built() else { return };
    let w = wasm(dir, lines, book, score_only);
    let n = native(lines, book, score_only);
    assert_eq!(w.len(), n.len());
    for (i, (w, n)) in w.iter().zip(&n).enumerate() {
        for field in ["error", "moves", "scores", "best", "score", "pv", "nodes"] {
            assert_eq!(
                w.get(field),
                n.get(field),
                "line {}: {field}: {w} vs {n}",
                i + 1
            );
        }
        if n.get("error").is_none() && !score_only {
            assert_eq!(w["book"], Value::Bool(n["nodes"] == 0), "line {}", i + 1);
        }
    }
}

#[test]
fn the_bindings_analyze_as_the_command_line_does() {
    let mut lines = String::new();
    for (set, n) in SAMPLE {
        for e in common::bundled_set(set).entries.iter().take(n) {
            lines.push_str(&e.moves);
            lines.push('\n');
        }
    }
    same(&lines, true, false);
}

#[test]
fn without_the_book_the_search_is_the_same_node_for_node() {
    let lines: String = common::bundled_set("middle-medium")
        .entries
        .iter()
        .take(50)
        .map(|e| format!("{}\n", e.moves))
        .collect();
    same(&lines, false, false);
    same(&lines, false, true);
}

#[test]
fn bad_input_gets_the_command_lines_message() {
    same("4458\n8\n4444444\n44a\n1212121\n", true, false);
    same("4458\n8\n4444444\n44a\n1212121\n", true, true);
}
