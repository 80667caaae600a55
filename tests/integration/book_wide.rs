//! Opening books of a board over 64 bits (keys of 128 bits), through the command
//! line: `book generate` (whole, and as two shards merged), `book info` against an
//! independent count of the positions, `book verify`, `book export`, a resumed
//! shard, `solve` and `analyze` with `--book FILE` against `--no-book`, and
//! a book refused by a board of the other word.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::common::run as c4solver;

/// The board of these tests: 65 bits, so its keys take 128.
const SIZE: &str = "5x12";
const W: usize = 5;
const H: usize = 12;
/// The book's depth: its deepest positions solve in milliseconds each.
const DEPTH: usize = 6;

/// A scratch directory of this test process.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("c4-book-wide-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `c4solver` and asserts its exit code: stdout and stderr.
fn ok(args: &[&str], input: &str) -> (String, String) {
    let (out, err, code) = c4solver(args, input);
    assert_eq!(code, 0, "{args:?}: {err}");
    (out, err)
}

/// Generates the whole book of [`DEPTH`] into `out`.
fn generate(out: &Path, extra: &[&str]) -> String {
    let depth = DEPTH.to_string();
    let mut args = vec![
        "book",
        "generate",
        "--size",
        SIZE,
        "--depth",
        &depth,
        "--threads",
        "2",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    ok(&args, "").1
}

/// Whether `cells` (column-major, `H` a column, 0 empty) hold four in a row.
fn four(cells: &[u8]) -> bool {
    let at = |c: i64, r: i64| {
        if c < 0 || r < 0 || c >= W as i64 || r >= H as i64 {
            0
        } else {
            cells[c as usize * H + r as usize]
        }
    };
    (0..W as i64).any(|c| {
        (0..H as i64).any(|r| {
            let p = at(c, r);
            p != 0
                && [(1, 0), (0, 1), (1, 1), (1, -1)]
                    .iter()
                    .any(|&(dc, dr)| (1..4).all(|k| at(c + k * dc, r + k * dr) == p))
        })
    })
}

/// Positions of each number of stones up to `depth` that a game reaches with no
/// four on the board, counted on plain grids (a position and its mirror image
/// are two grids, a symmetric one is one), sharing no code with the solver.
fn grid_counts(depth: usize) -> Vec<u64> {
    let mut layer: HashSet<Vec<u8>> = HashSet::from([vec![0; W * H]]);
    let mut counts = vec![1];
    for stones in 0..depth {
        let player = 1 + (stones % 2) as u8;
        let mut next = HashSet::new();
        for cells in &layer {
            for c in 0..W {
                if let Some(r) = (0..H).find(|&r| cells[c * H + r] == 0) {
                    let mut child = cells.clone();
                    child[c * H + r] = player;
                    if !four(&child) {
                        next.insert(child);
                    }
                }
            }
        }
        counts.push(next.len() as u64);
        layer = next;
    }
    counts
}

/// The scores `solve` prints (the second field of each line).
fn scores(out: &str) -> Vec<i32> {
    out.lines()
        .map(|l| l.split(' ').nth(1).unwrap().parse().unwrap())
        .collect()
}

#[test]
fn a_book_of_a_board_over_64_bits_is_generated_checked_and_used() {
    let dir = scratch("whole");
    let book = dir.join("wide.c4book");
    let path = book.to_str().unwrap();
    let said = generate(&book, &[]);
    assert!(said.contains(&format!("wrote {path}: ")), "{said}");

    // `book info`: every layer holds the positions a plain grid counts.
    let (info, _) = ok(&["book", "info", "--size", SIZE, "--json", path], "");
    let v: serde_json::Value = serde_json::from_str(&info).unwrap();
    assert_eq!(v["board"], SIZE);
    assert_eq!(v["depth"], DEPTH);
    assert_eq!(v["format_version"], 2);
    let totals: Vec<u64> = v["by_stones"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            ["won", "drawn", "lost"]
                .iter()
                .map(|k| c[k].as_u64().unwrap())
                .sum()
        })
        .collect();
    assert_eq!(totals, grid_counts(DEPTH));
    let (text, _) = ok(&["book", "info", "--size", SIZE, path], "");
    assert!(text.contains(&format!("board: {SIZE}\n")), "{text}");

    // `book verify`: every layer against its moves', and the whole deepest
    // layer re-solved without the book.
    let (_, err) = ok(&["book", "verify", "--size", SIZE, path], "");
    assert!(
        err.contains("checked against their moves' entries: all agree"),
        "{err}"
    );
    assert!(
        err.contains("re-solved without the book: all agree"),
        "{err}"
    );

    // `book export`: one line per position (mirror images too), as many as
    // `book info` counts; its scores are those a book-free search finds.
    let (rows, _) = ok(&["book", "export", "--size", SIZE, "--mirrors", path], "");
    let lines: Vec<&str> = rows.lines().collect();
    assert_eq!(lines.len() as u64, totals[1..].iter().sum::<u64>());
    // Every 7th line, every layer's: with the book (no search) and without.
    let sample: Vec<&str> = lines.iter().step_by(7).copied().collect();
    let moves: String = sample
        .iter()
        .map(|l| format!("{}\n", l.split(' ').next().unwrap()))
        .collect();
    let exported: Vec<i32> = sample
        .iter()
        .map(|l| l.split(' ').nth(1).unwrap().parse().unwrap())
        .collect();
    let (with_book, _) = ok(&["--size", SIZE, "--book", path], &moves);
    let (without, _) = ok(&["--size", SIZE, "--no-book"], &moves);
    assert_eq!(scores(&with_book), exported);
    assert_eq!(scores(&without), exported);
    assert!(
        with_book.lines().all(|l| l.split(' ').nth(2) == Some("0")),
        "the book answers with no search"
    );
    // `analyze` of positions above the deepest layer: each column's score as
    // without the book, and its children answered from the book.
    let shallow: String = sample
        .iter()
        .map(|l| l.split(' ').next().unwrap())
        .filter(|m| m.len() < DEPTH)
        .take(20)
        .map(|m| format!("{m}\n"))
        .collect();
    assert!(shallow.lines().count() >= 10, "{shallow}");
    let (a, _) = ok(&["analyze", "--size", SIZE, "--book", path], &shallow);
    let (b, _) = ok(&["analyze", "--size", SIZE, "--no-book"], &shallow);
    assert_eq!(a, b);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn shards_of_a_wide_book_resume_and_merge_into_the_whole_book() {
    let dir = scratch("shards");
    let whole = dir.join("whole.c4book");
    generate(&whole, &[]);
    let shard = |i: usize| dir.join(format!("shard-{i}.c4shard"));
    for i in 1..=2 {
        generate(&shard(i), &["--shard", &format!("{i}/2")]);
    }
    // A shard's checkpoint stays, with records of 16 key bytes and 24 more.
    let ckpt = dir.join("shard-1.c4shard.ckpt");
    let bytes = std::fs::read(&ckpt).unwrap();
    assert_eq!(bytes[13], 16, "the checkpoint records 16-byte keys");
    let records = (bytes.len() - 64) / 40;
    assert!(
        records > 4 && (bytes.len() - 64) % 40 == 0,
        "{}",
        bytes.len()
    );
    let first = std::fs::read(shard(1)).unwrap();
    // Stopped halfway through a record: the run goes on from the half it kept.
    let keep = 64 + (records / 2) * 40 + 17;
    std::fs::write(&ckpt, &bytes[..keep]).unwrap();
    std::fs::remove_file(shard(1)).unwrap();
    let said = generate(&shard(1), &["--shard", "1/2"]);
    assert!(
        said.contains(&format!("{} already in", records / 2))
            && said.contains("(1 torn record(s) dropped)"),
        "{said}"
    );
    assert_eq!(std::fs::read(shard(1)).unwrap(), first);

    let (info, _) = ok(
        &["book", "info", "--size", SIZE, shard(2).to_str().unwrap()],
        "",
    );
    assert!(info.contains("shard: 2 of 2"), "{info}");
    let merged = dir.join("merged.c4book");
    ok(
        &[
            "book",
            "merge",
            "--size",
            SIZE,
            "--out",
            merged.to_str().unwrap(),
            shard(1).to_str().unwrap(),
            shard(2).to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(
        std::fs::read(&merged).unwrap(),
        std::fs::read(&whole).unwrap()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_book_is_refused_by_a_board_of_the_other_word() {
    let dir = scratch("refused");
    let wide = dir.join("wide.c4book");
    generate(&wide, &[]);
    let wide = wide.to_str().unwrap();
    // The wide book on the 64-bit 7x6 board, and the 7x6 book on the wide board.
    let seven = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/crates/c4solver/books/7x6.c4book"
    );
    for (args, want) in [
        (
            vec!["--book", wide],
            "the book is for a 5x12 board, not 7x6",
        ),
        (
            vec!["book", "info", wide],
            "the book is for a 5x12 board, not 7x6",
        ),
        (
            vec!["--size", SIZE, "--book", seven],
            "the book is for a 7x6 board, not 5x12",
        ),
        (
            vec!["book", "verify", "--size", SIZE, seven],
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
