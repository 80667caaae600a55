//! The command line on a board over 64 bits (`all-sizes`): a 5x12 book file,
//! keyed on 128 bits, is read, described, converted, exported and used, and a
//! book of the other word (7x6's) refused. Its scores are made up (every position
//! a draw, consistent layer to layer): a position of a few stones on 5x12 takes
//! minutes to solve, so the scores of a real book keyed on 128 bits are checked
//! on 5x4 by the library's unit tests (`books::tests::wide_keys`).
#![cfg(feature = "all-sizes")]

use std::collections::HashSet;
use std::path::PathBuf;

use c4solver::sized::Board;

use crate::common::run as c4solver;

const SIZE: &str = "5x12";

/// Positions of 0, 1 and 2 stones on 5x12, a position and its mirror image
/// counted as two: no four can be made yet, so every placement is one.
const LAYERS: [u64; 3] = [1, 5, 25];

/// The book of the test: every position of up to 2 stones of 5x12, scored a
/// draw, written by the library as version 1 (`tests/data/books/`).
fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/books")
        .join(name)
}

/// A fresh directory under the target directory.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn ok(args: &[&str]) -> (String, String) {
    let (out, err, code) = c4solver(args, "");
    assert_eq!(code, 0, "{args:?}: {err}");
    (out, err)
}

/// `book info --json`'s positions per layer.
fn totals(path: &str) -> (u64, Vec<u64>) {
    let (info, _) = ok(&["book", "info", "--size", SIZE, "--json", path]);
    let v: serde_json::Value = serde_json::from_str(&info).unwrap();
    assert_eq!(v["board"], SIZE);
    let by: Vec<u64> = v["by_stones"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            assert_eq!((c["won"].as_u64(), c["lost"].as_u64()), (Some(0), Some(0)));
            c["drawn"].as_u64().unwrap()
        })
        .collect();
    (v["format_version"].as_u64().unwrap(), by)
}

#[test]
fn a_book_of_a_board_over_64_bits_is_read_converted_exported_and_used() {
    let dir = scratch("book-wide-cli");
    let v1 = data("5x12-depth-2-draws.c4book");
    let v1 = v1.to_str().unwrap();
    assert_eq!(totals(v1), (1, LAYERS.to_vec()));
    // `book merge` writes it as version 2, keyed (and hashed) on 128 bits.
    let v2 = dir.join("v2.c4book");
    let v2 = v2.to_str().unwrap();
    ok(&["book", "merge", "--size", SIZE, v1, "--out", v2]);
    assert_eq!(std::fs::read(v2).unwrap()[18], 16);
    assert_eq!(totals(v2), (2, LAYERS.to_vec()));
    let (text, _) = ok(&["book", "info", "--size", SIZE, v2]);
    assert!(text.contains("board: 5x12\ndepth: 2\n"), "{text}");
    // `book export`: every position of 1 and 2 stones, mirror images too.
    let (rows, _) = ok(&["book", "export", "--size", SIZE, "--mirrors", v2]);
    let mut seen = HashSet::new();
    for line in rows.lines() {
        let (moves, score) = line.split_once(' ').unwrap();
        assert_eq!(score, "0", "{line}");
        assert!(seen.insert(Board::<5, 12, u128>::parse(moves).unwrap().key()));
    }
    assert_eq!(seen.len(), 5 + 25);
    // `--book FILE` answers its positions with no search.
    let (out, err, code) = c4solver(&["--size", SIZE, "--book", v2], "1\n25\n");
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out.lines()
            .map(|l| l.split(' ').take(3).collect::<Vec<_>>().join(" "))
            .collect::<Vec<_>>(),
        ["1 0 0", "25 0 0"]
    );
    // A book of one word is refused by a board of the other, exit 2.
    let seven = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/crates/c4solver/books/7x6.c4book"
    );
    for (args, want) in [
        (vec!["--book", v2], "the book is for a 5x12 board, not 7x6"),
        (
            vec!["book", "info", v2],
            "the book is for a 5x12 board, not 7x6",
        ),
        (
            vec!["--size", SIZE, "--book", seven],
            "the book is for a 7x6 board, not 5x12",
        ),
        (
            vec!["book", "info", "--size", SIZE, seven],
            "the book is for a 7x6 board, not 5x12",
        ),
        (
            vec!["--size", SIZE, "--book", "builtin"],
            "there is no built-in book for the 5x12 board",
        ),
    ] {
        let (_, err, code) = c4solver(&args, "1\n");
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
