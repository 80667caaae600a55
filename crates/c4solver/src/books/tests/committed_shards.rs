//! The committed shards of the 12-stone layer (`books/shards-12/` of the
//! repository), checked as they land: each reads back (checksum, positions, score
//! ranges), and a random sample of their entries is solved again without a book.
//! The compact shard format end to end: the built-in book's deepest layer cut into
//! compact shards merges back into the built-in book, byte for byte.

use std::path::PathBuf;
use std::sync::Mutex;

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use crate::books::verify::{self, Checked};
use crate::books::{Book7x6, BookError, Format, Shard, merge, shard};
use crate::position::Position as Position7x6;
use crate::solver::{Config, StopFlag};

/// Entries re-solved over all the committed shards.
const SAMPLE: usize = 300;

fn shard_files() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../books/shards-12");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "c4shard"))
        .collect();
    files.sort();
    files
}

#[test]
fn a_sample_of_the_committed_shards_agrees_with_book_free_solves() {
    let files = shard_files();
    assert!(!files.is_empty(), "no shard in books/shards-12");
    let mut entries: Vec<(u64, i32)> = Vec::new();
    for path in &files {
        let book = Book7x6::read_any(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let h = book.header();
        assert_eq!(
            (h.depth, h.lowest, h.shard_count),
            (12, 12, 64),
            "{}",
            path.display()
        );
        assert_eq!(book.format(), Format::CompactShard);
        assert_eq!(book.file_len(), shard::HEADER_BYTES + book.len());
        entries.extend(book.entries());
    }
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    entries.shuffle(&mut rng);
    entries.truncate(SAMPLE);
    let checked: Mutex<Vec<Checked>> = Mutex::new(Vec::new());
    verify::resolve::<7, 6, u64>(&entries, Config::tuned(), 2, &StopFlag::new(), &|c| {
        checked.lock().unwrap().push(c)
    })
    .unwrap();
    let checked = checked.into_inner().unwrap();
    assert_eq!(checked.len(), entries.len());
    for c in &checked {
        assert_eq!(c.book, c.solved, "{}: shard {} book-free", c.moves, c.book);
        assert_eq!(Position7x6::parse(&c.moves).unwrap().moves_played(), 12);
    }
}

#[test]
fn a_damaged_or_foreign_shard_is_refused() {
    let path = &shard_files()[0];
    let good = std::fs::read(path).unwrap();
    let mut flipped = good.clone();
    flipped[shard::HEADER_BYTES + 7] ^= 1;
    assert!(matches!(
        Book7x6::from_bytes(flipped),
        Err(BookError::Checksum { .. })
    ));
    let cut = good[..good.len() - 1].to_vec();
    assert!(matches!(
        Book7x6::from_bytes(cut),
        Err(BookError::Length { .. })
    ));
    // Another shard's index, the checksum made right: the positions differ.
    let book = Book7x6::from_bytes(good).unwrap();
    let index = book.header().shard_index;
    let other = Shard {
        index: index % 64 + 1,
        count: 64,
    };
    let entries: Vec<(u64, i32)> = book.entries().collect();
    let bytes = shard::encode::<7, 6, u64>(12, other, &entries);
    let err = Book7x6::from_bytes(bytes).unwrap_err();
    assert!(matches!(err, BookError::BadHeader(_)), "{err}");
}

#[test]
fn compact_shards_of_the_built_in_book_merge_back_into_it() {
    let builtin = Book7x6::builtin().unwrap();
    let depth = builtin.depth();
    let layers = crate::books::layers::cached::<7, 6, u64>(depth);
    let mut shards = Vec::new();
    for index in 1..=4 {
        let s = Shard { index, count: 4 };
        let mut keys = s.select(&layers[depth]);
        keys.sort_unstable();
        let entries: Vec<(u64, i32)> = keys
            .iter()
            .map(|&k| (k, builtin.score_of_key(k).unwrap()))
            .collect();
        let bytes = shard::encode::<7, 6, u64>(depth, s, &entries);
        shards.push(Book7x6::from_bytes(bytes).unwrap());
    }
    shards.reverse();
    let merged = merge(&shards).unwrap();
    assert_eq!(
        merged,
        builtin.bytes(),
        "the merge differs from the built-in book"
    );
    // Three of four shards: refused.
    assert!(merge(&shards[1..]).is_err());
}
