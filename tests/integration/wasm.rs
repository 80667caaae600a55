//! The WebAssembly build (`scripts/build-web`, crates/c4solver-wasm) against the
//! native command line: the same positions analyzed by the bindings in Node and by
//! `c4solver analyze --json --pv --threads 1` give the same scores, best moves,
//! lines of best play and node counts (one thread and a 64 MB table on both sides,
//! so the same search), and bad input the command line's own message. Both with
//! the 8-stone book inside the .wasm (the command line reading the same file) and
//! with the 12-stone book the page fetches (`book.c4book`, the command line's
//! built-in one) handed to `loadBook`, which refuses a bad file as `--book` does.
//!
//! Needs `node`, and `scripts/build-web` installs the wasm32 target and the
//! wasm-bindgen CLI when they are missing: a plain `cargo test` lists these tests
//! as ignored, with the command that runs them (`.ci/run` does):
//! `cargo test --test integration -- --ignored wasm::`. Run so, a missing node
//! fails them, saying what to install.

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

/// The static folder, built once for every test of this file and of answer.rs; a missing node
/// fails the test.
pub fn built() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        assert!(
            Command::new("node").arg("--version").output().is_ok(),
            "no node on the PATH (apt-get install nodejs)"
        );
        common::build_web()
    })
}

/// Which book each side answers from.
#[derive(Clone, Copy)]
pub(crate) enum Books {
    /// None: the search alone (`--no-book`).
    None,
    /// The 8-stone book inside the .wasm; the command line reads the same file.
    Small,
    /// The page's: the bindings load `book.c4book` from the built folder (the
    /// command line's built-in book), the command line its built-in book.
    Full,
}

/// The 8-stone book inside the .wasm.
fn small_book() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("crates/c4solver-wasm/books/7x6-8.c4book")
}

/// The bindings' answers to `lines`, one JSON value each (after the answer to
/// loading the book, with `Books::Full`).
fn wasm(dir: &Path, lines: &str, books: Books, score_only: bool) -> Vec<Value> {
    let mut args = Vec::new();
    match books {
        Books::None => args.push("--no-book".into()),
        Books::Small => {}
        Books::Full => {
            args.push("--book".into());
            args.push(dir.join("book.c4book").display().to_string());
        }
    }
    if score_only {
        args.push("--score".into());
    }
    node(dir, &args, lines)
}

/// `tests/wasm/analyze.mjs` on the built folder's bindings with `args`, `lines`
/// on its stdin: its output lines as JSON values.
fn node(dir: &Path, args: &[String], lines: &str) -> Vec<Value> {
    parse(node_lines(dir, args, lines).join("\n").as_bytes())
}

/// [`node`]'s output lines as printed (their keys in order).
pub fn node_lines(dir: &Path, args: &[String], lines: &str) -> Vec<String> {
    pkg_lines(&dir.join("pkg"), args, lines)
}

/// [`node_lines`] of the bindings in `pkg` (the built folder's `pkg` or `pkg-all`).
pub(crate) fn pkg_lines(pkg: &Path, args: &[String], lines: &str) -> Vec<String> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut child = Command::new("node")
        .arg(root.join("tests/wasm/analyze.mjs"))
        .arg(pkg)
        .args(args)
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
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(String::from)
        .collect()
}

/// The command line's answers to `lines` (`analyze`, or with `score_only` solve).
pub(crate) fn native(lines: &str, books: Books, score_only: bool) -> Vec<Value> {
    let mut args: Vec<String> = if score_only {
        vec!["--json", "--threads", "1"]
    } else {
        vec!["analyze", "--json", "--pv", "--threads", "1"]
    }
    .into_iter()
    .map(String::from)
    .collect();
    match books {
        Books::None => args.push("--no-book".into()),
        Books::Small => {
            args.push("--book".into());
            args.push(small_book().display().to_string());
        }
        Books::Full => {}
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    parse(&common::output(&args, lines.as_bytes()).stdout)
}

fn parse(bytes: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(bytes)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// Checks every line's fields that both give.
fn same(lines: &str, books: Books, score_only: bool) {
    let dir = built();
    let mut w = wasm(dir, lines, books, score_only);
    if let Books::Full = books {
        assert_eq!(
            w.remove(0),
            serde_json::json!({"depth": 12}),
            "book.c4book loads"
        );
    }
    let n = native(lines, books, score_only);
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
        if !score_only {
            assert_eq!(w.get("book"), n.get("book"), "line {}", i + 1);
        }
    }
}

/// The bundled sets' first positions (`SAMPLE`), a line each.
pub(crate) fn sample_lines() -> String {
    let mut lines = String::new();
    for (set, n) in SAMPLE {
        for e in common::bundled_set(set).entries.iter().take(n) {
            lines.push_str(&e.moves);
            lines.push('\n');
        }
    }
    lines
}

#[test]
#[ignore = "needs node and the WebAssembly build: cargo test --test integration -- --ignored wasm::"]
fn the_bindings_analyze_as_the_command_line_does() {
    // As the page does once book.c4book has arrived, and before.
    same(&sample_lines(), Books::Full, false);
    same(&sample_lines(), Books::Small, false);
}

#[test]
#[ignore = "needs node and the WebAssembly build: cargo test --test integration -- --ignored wasm::"]
fn without_the_book_the_search_is_the_same_node_for_node() {
    let lines: String = common::bundled_set("middle-medium")
        .entries
        .iter()
        .take(50)
        .map(|e| format!("{}\n", e.moves))
        .collect();
    same(&lines, Books::None, false);
    same(&lines, Books::None, true);
}

#[test]
#[ignore = "needs node and the WebAssembly build: cargo test --test integration -- --ignored wasm::"]
fn bad_input_gets_the_command_lines_message() {
    same("4458\n8\n4444444\n44a\n1212121\n", Books::Full, false);
    same("4458\n8\n4444444\n44a\n1212121\n", Books::Small, true);
}

/// A damaged book or a shard handed to `loadBook` is refused with the reason the
/// command line gives for the same file, and the engine goes on with its own.
#[test]
#[ignore = "needs node and the WebAssembly build: cargo test --test integration -- --ignored wasm::"]
fn a_bad_book_file_is_refused_as_the_command_line_refuses_it() {
    let dir = built();
    let tmp = std::env::temp_dir().join(format!("c4-wasm-books-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let good = std::fs::read(small_book()).unwrap();
    let mut flipped = good.clone();
    flipped[good.len() / 2] ^= 0x10;
    let shard = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("books/shards-12/1.c4shard");
    let cases = [
        ("flipped.c4book", flipped),
        ("cut.c4book", good[..good.len() - 100].to_vec()),
        ("shard.c4shard", std::fs::read(shard).unwrap()),
    ];
    for (name, bytes) in cases {
        let path = tmp.join(name);
        std::fs::write(&path, bytes).unwrap();
        let answers = node(
            dir,
            &["--book".into(), path.display().to_string()],
            "4455\n",
        );
        let error = answers[0]["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{name}: {answers:?}"));
        let (_, stderr, code) = common::run(&["--book", path.to_str().unwrap()], "4455\n");
        assert_eq!(code, 2, "{name}: {stderr}");
        assert!(
            !error.is_empty() && stderr.contains(error),
            "{name}: {error:?} not in {stderr:?}"
        );
        // The same engine keeps its 8-stone book: 4455 still answered from it.
        assert_eq!(answers[1]["nodes"], 0, "{name}: {answers:?}");
    }
    std::fs::remove_dir_all(&tmp).unwrap();
}

/// Positions of other board sizes (each searched at once, none in a book): the
/// every-size build (`pkg-all/`) against `c4solver analyze --size`.
#[cfg(feature = "all-sizes")]
pub(crate) const OTHER_SIZES: [(&str, &str); 2] = [
    ("8x8", "245552858772546656325411183115264748116677"),
    ("10x6", "1693a325a217679512269546315a7363a115694a528973"),
];

/// The command line's answers on board `size` (`analyze --size SIZE --json --pv
/// --threads 1`): one value a line, `{"error": message}` for a line it refused.
#[cfg(feature = "all-sizes")]
pub(crate) fn native_sized(size: &str, lines: &str) -> Vec<Value> {
    let args = [
        "analyze",
        "--size",
        size,
        "--json",
        "--pv",
        "--threads",
        "1",
    ];
    parse(&common::output(&args, lines.as_bytes()).stdout)
}

/// Whether the command line refuses `--size SIZE` with `message` (clap's words
/// around it).
pub(crate) fn cli_refuses_size(size: &str, message: &str) -> bool {
    let (_, err, code) = common::run(&["analyze", "--size", size], "4\n");
    code != 0 && !message.is_empty() && err.contains(message)
}

#[cfg(feature = "all-sizes")]
#[test]
#[ignore = "needs node, the WebAssembly builds and the all-sizes feature"]
fn other_sizes_analyze_as_the_command_line() {
    let pkg_all = built().join("pkg-all");
    for (size, moves) in OTHER_SIZES {
        // The position, one move less, and bad lines: a column past the width,
        // a position longer than the board, a character that is no column.
        let long = moves.repeat(3);
        let lines = format!("{moves}\n{}\n9b\n{long}\n{moves}0\n", &moves[1..]);
        let args = ["--size".to_string(), size.to_string()];
        let w = parse(pkg_lines(&pkg_all, &args, &lines).join("\n").as_bytes());
        let n = native_sized(size, &lines);
        assert_eq!(w.len(), n.len(), "{size}");
        for (i, (w, n)) in w.iter().zip(&n).enumerate() {
            for field in [
                "error", "moves", "scores", "best", "score", "pv", "nodes", "book",
            ] {
                assert_eq!(w.get(field), n.get(field), "{size} line {}: {field}", i + 1);
            }
        }
        let width: usize = size.split('x').next().unwrap().parse().unwrap();
        assert_eq!(n[0]["scores"].as_array().map(Vec::len), Some(width));
        for bad in &n[2..] {
            assert!(bad["error"].is_string(), "{size}: {bad}");
        }
    }
}

/// Each build lists its sizes: the 7x6 one its own and the every-size build's
/// (which the page offers before loading that build), equal to what that build
/// holds; a size neither holds is refused by both with the command line's message.
#[test]
#[ignore = "needs node and the WebAssembly builds: cargo test --test integration -- --ignored wasm::"]
fn the_builds_list_and_refuse_sizes_as_the_command_line() {
    let dir = built();
    let list = |pkg: &str| {
        parse(
            pkg_lines(&dir.join(pkg), &["--list".into()], "")
                .join("\n")
                .as_bytes(),
        )
    };
    let (small, all) = (&list("pkg")[0], &list("pkg-all")[0]);
    assert_eq!(small["built"], serde_json::json!(["7x6"]));
    assert_eq!(small["every"], all["built"]);
    assert_eq!(all["every"], all["built"]);
    assert_eq!(all["built"].as_array().unwrap().len(), 53);
    for pkg in ["pkg", "pkg-all"] {
        for size in ["9x9", "3x6", "eight", "12x12"] {
            let args = ["--size".to_string(), size.to_string()];
            let got = parse(pkg_lines(&dir.join(pkg), &args, "").join("\n").as_bytes());
            let message = got[0]["error"].as_str().unwrap_or_default();
            assert!(cli_refuses_size(size, message), "{pkg} {size}: {got:?}");
        }
    }
    // The 7x6 build refuses a size of the every-size build as the 7x6 command line.
    let args = ["--size".to_string(), "8x8".to_string()];
    let got = parse(pkg_lines(&dir.join("pkg"), &args, "").join("\n").as_bytes());
    let message = got[0]["error"].as_str().unwrap();
    assert!(
        message.starts_with("board size 8x8 is not built into this program"),
        "{message}"
    );
}
