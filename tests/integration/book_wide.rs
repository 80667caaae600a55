//! Opening books keyed on 128 bits, the word of the boards over 64 bits.
//!
//! * On 5x4 keyed on `u128` (every position solves in microseconds, so the whole
//!   book is checked): generation, whole and as two shards (one stopped in the
//!   middle of a record and resumed) merged into the same bytes; every layer's
//!   count against plain grids; every entry against the 64-bit book of the same
//!   board and a book-free solve; the files say their word and are refused by the
//!   other.
//! * On 5x12 through the command line (`all-sizes`): a book file of that board is
//!   read, described, converted, exported and used, and a book of the other word
//!   (7x6's) refused. Its scores are made up (every position a draw, consistent
//!   layer to layer): a position of a few stones on 5x12 takes minutes to solve, so
//!   the scores of a real book are checked on 5x4 above.

use std::collections::HashSet;
use std::path::Path;

use c4solver::book::{Generation, Outcome, Shard, checkpoint_path, merge, verify};
use c4solver::{BookError, Mode, StopFlag, sized::Bits, sized::Board, sized::Book, sized::Solver};

use crate::common::small_book::{DEPTH, H, W, config, options, scratch};

/// Runs a generation on the word `B` to the end and returns the file's bytes.
fn generate<B: Bits>(out: &Path, shard: Shard) -> Vec<u8> {
    let mut g = Generation::<W, H, B>::open(options(shard), out).unwrap();
    match g.run(&StopFlag::new(), &|_, _| {}).unwrap() {
        Outcome::Finished(s) => assert_eq!(s.solved, g.total()),
        stopped => panic!("{stopped:?}"),
    }
    std::fs::read(out).unwrap()
}

/// Whether `cells` of a `w`x`h` board (column-major, `h` a column, 0 empty) hold four in a row.
fn four(w: usize, h: usize, cells: &[u8]) -> bool {
    let at = |c: i64, r: i64| {
        if c < 0 || r < 0 || c >= w as i64 || r >= h as i64 {
            0
        } else {
            cells[c as usize * h + r as usize]
        }
    };
    (0..w as i64).any(|c| {
        (0..h as i64).any(|r| {
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
fn grid_counts(w: usize, h: usize, depth: usize) -> Vec<u64> {
    let mut layer: HashSet<Vec<u8>> = HashSet::from([vec![0; w * h]]);
    let mut counts = vec![1];
    for stones in 0..depth {
        let player = 1 + (stones % 2) as u8;
        let mut next = HashSet::new();
        for cells in &layer {
            for c in 0..w {
                if let Some(r) = (0..h).find(|&r| cells[c * h + r] == 0) {
                    let mut child = cells.clone();
                    child[c * h + r] = player;
                    if !four(w, h, &child) {
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

#[test]
fn a_book_keyed_on_128_bits_holds_the_64_bit_books_scores() {
    let dir = scratch("book-wide-whole");
    let wide_bytes = generate::<u128>(&dir.join("wide.c4book"), Shard::WHOLE);
    let narrow_bytes = generate::<u64>(&dir.join("narrow.c4book"), Shard::WHOLE);
    // The header says the word: 16 bytes a key, 0 for the 64-bit word.
    assert_eq!((wide_bytes[18], narrow_bytes[18]), (16, 0));
    let wide = Book::<W, H, u128>::from_bytes(wide_bytes.clone()).unwrap();
    let narrow = Book::<W, H>::from_bytes(narrow_bytes.clone()).unwrap();
    for err in [
        Book::<W, H>::from_bytes(wide_bytes).unwrap_err(),
        Book::<W, H, u128>::from_bytes(narrow_bytes)
            .map(|_| ())
            .unwrap_err(),
    ] {
        assert!(matches!(err, BookError::KeyWidth { .. }), "{err}");
    }
    wide.check_positions().unwrap();
    // Every layer holds the positions a plain grid counts, with the 64-bit
    // book's won, drawn and lost.
    let counts = wide.by_stones();
    let totals: Vec<u64> = counts.iter().map(|c| c.total()).collect();
    assert_eq!(totals, grid_counts(W, H, DEPTH));
    assert_eq!(counts, narrow.by_stones());
    // Every entry: the 64-bit book's score and a book-free solve's.
    let mut solver = Solver::<W, H, u128>::new(config()).unwrap();
    assert_eq!(wide.len(), narrow.len());
    for (key, score) in wide.entries() {
        let pos = Board::<W, H, u128>::from_key(key).unwrap();
        let same = Board::<W, H>::from_key(key as u64).unwrap();
        assert_eq!(narrow.score(&same), Some(score));
        assert_eq!(wide.score(&pos), Some(score));
        assert_eq!(solver.solve(&pos, Mode::Strong).unwrap().score, score);
    }
    assert!(verify::consistency(&wide).unwrap().is_empty());
    // Exported rows read back to their positions and scores.
    for stones in 1..=DEPTH {
        for row in wide.rows(stones, true) {
            let (moves, score) = row.unwrap();
            let pos = Board::<W, H, u128>::parse(&moves).unwrap();
            assert_eq!(wide.score(&pos), Some(score), "{moves}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn shards_keyed_on_128_bits_resume_and_merge_into_the_whole_book() {
    let dir = scratch("book-wide-shards");
    let whole = generate::<u128>(&dir.join("whole.c4book"), Shard::WHOLE);
    let shard = |i: u16| {
        (
            dir.join(format!("{i}.c4shard")),
            Shard { index: i, count: 2 },
        )
    };
    let (one, s1) = shard(1);
    let first = generate::<u128>(&one, s1);
    assert_eq!(first[18], 16, "a compact shard says its word");
    // The shard's checkpoint stays: 40-byte records, 16 of key.
    let ckpt = checkpoint_path(&one);
    let bytes = std::fs::read(&ckpt).unwrap();
    assert_eq!(bytes[13], 16);
    assert_eq!((bytes.len() - 64) % 40, 0);
    let records = (bytes.len() - 64) / 40;
    assert!(records > 4, "{records}");
    // Stopped in the middle of a record: the run goes on from the records kept.
    std::fs::write(&ckpt, &bytes[..64 + records / 2 * 40 + 17]).unwrap();
    std::fs::remove_file(&one).unwrap();
    let mut g = Generation::<W, H, u128>::open(options(s1), &one).unwrap();
    assert_eq!((g.done(), g.dropped()), (records / 2, 1));
    assert!(matches!(
        g.run(&StopFlag::new(), &|_, _| {}).unwrap(),
        Outcome::Finished(_)
    ));
    assert_eq!(std::fs::read(&one).unwrap(), first);
    // A 64-bit run refuses the 128-bit checkpoint.
    std::fs::remove_file(&one).unwrap();
    let err = Generation::<W, H>::open(options(s1), &one).err().unwrap();
    assert!(
        err.to_string()
            .ends_with(": its positions are keyed on 128 bits, this board's on 64"),
        "{err}"
    );
    std::fs::write(&one, &first).unwrap();
    let (two, s2) = shard(2);
    generate::<u128>(&two, s2);
    let shards: Vec<Book<W, H, u128>> = [&one, &two]
        .iter()
        .map(|p| Book::read_any(p).unwrap())
        .collect();
    assert_eq!(merge(&shards).unwrap(), whole);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The command line on a board over 64 bits: a 5x12 book of depth 2 (every
/// position a draw) written by the library as version 1.
#[cfg(feature = "all-sizes")]
mod command_line {
    use super::*;
    use crate::common::run as c4solver;

    const SIZE: &str = "5x12";

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
        let layers = c4solver::book::layers::<5, 12, u128>(2);
        let mut entries: Vec<(u128, i32)> = layers.iter().flatten().map(|&k| (k, 0)).collect();
        entries.sort_unstable();
        let v1 = dir.join("v1.c4book");
        std::fs::write(
            &v1,
            c4solver::book::encode::<5, 12, u128>(2, 0, (1, 1), &entries),
        )
        .unwrap();
        let v1 = v1.to_str().unwrap();
        assert_eq!(totals(v1), (1, grid_counts(5, 12, 2)));
        // `book merge` writes it as version 2, keyed (and hashed) on 128 bits.
        let v2 = dir.join("v2.c4book");
        let v2 = v2.to_str().unwrap();
        ok(&["book", "merge", "--size", SIZE, v1, "--out", v2]);
        assert_eq!(std::fs::read(v2).unwrap()[18], 16);
        assert_eq!(totals(v2), (2, grid_counts(5, 12, 2)));
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
}
