//! Opening books keyed on 128 bits, the word of the boards over 64 bits, on 5x4
//! (every position solves in microseconds, so the whole book is checked):
//! generation, whole and as two shards (one stopped in the middle of a record and
//! resumed) merged into the same bytes; every layer's count against plain grids;
//! every entry against the 64-bit book of the same board and a book-free solve;
//! the files say their word and are refused by the other. (The command line on
//! 5x12: tests/integration/book_wide.rs.)

use std::collections::HashSet;
use std::path::Path;

use super::generation::{DEPTH, H, W, config, options, scratch};
use crate::bits::Bits;
use crate::books::generate::checkpoint_path;
use crate::books::{Book, BookError, Generation, Outcome, Shard, merge, verify};
use crate::position::Board;
use crate::solver::{Mode, Solver, StopFlag};

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
    let wide_bytes = generate::<u128>(&dir.path().join("wide.c4book"), Shard::WHOLE);
    let narrow_bytes = generate::<u64>(&dir.path().join("narrow.c4book"), Shard::WHOLE);
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
}

#[test]
fn shards_keyed_on_128_bits_resume_and_merge_into_the_whole_book() {
    let dir = scratch("book-wide-shards");
    let whole = generate::<u128>(&dir.path().join("whole.c4book"), Shard::WHOLE);
    let shard = |i: u16| {
        (
            dir.path().join(format!("{i}.c4shard")),
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
}
