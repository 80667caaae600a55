//! Book files on arbitrary bytes, and on the built-in book with a few bytes
//! changed: reading never panics, and a book that is accepted answers every
//! look-up with a score its position can have.
//!
//! Invariants checked (what `books/mod.rs` promises):
//! * `Book::from_bytes` returns `Ok` or an error, for any bytes;
//! * an accepted book's entries are strictly ascending, each the canonical key of
//!   a position with no four and a stone count inside the header's range, with a
//!   score inside the position's range;
//! * up to 4 changed bytes in a row of the built-in book are always refused (the
//!   checksum).

#![no_main]

use c4solver::{sized::Board, sized::Book};

use libfuzzer_sys::fuzz_target;

type Book7x6 = Book<7, 6>;

fn check<const W: usize, const H: usize>(data: &[u8]) {
    let Ok(book) = Book::<W, H>::from_bytes(data.to_vec()) else {
        return;
    };
    let mut previous = None;
    for (key, score) in book.entries() {
        assert!(previous < Some(key));
        previous = Some(key);
        let p = Board::<W, H>::from_key(key).expect("a key");
        assert!(!p.has_four());
        assert!(p.moves_played() <= book.depth());
        let (lo, hi) = p.score_range();
        assert!((lo..=hi).contains(&score));
        assert_eq!(book.score_of_key(key), Some(score));
        assert_eq!(book.score(&p.mirror()), Some(score));
    }
}

fuzz_target!(|data: &[u8]| {
    check::<7, 6>(data);
    check::<4, 4>(data);
    // The built-in book with up to 4 of the fuzzer's bytes written over it: a
    // change of at most 32 bits in a row, which CRC-32 always detects.
    if let (Some(builtin), Some((&at, rest))) = (Book7x6::builtin(), data.split_first()) {
        let mut bytes = builtin.bytes().to_vec();
        let at = at as usize % bytes.len();
        let n = rest.len().min(4).min(bytes.len() - at);
        let changed = bytes[at..at + n] != rest[..n];
        bytes[at..at + n].copy_from_slice(&rest[..n]);
        let accepted = Book7x6::from_bytes(bytes).is_ok();
        assert!(
            !(changed && accepted),
            "a changed built-in book was accepted"
        );
    }
});
