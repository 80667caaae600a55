//! Book generation on a small board (5x4, where every position solves in
//! microseconds): every entry against a book-free solve, every reachable position
//! present, a run killed and resumed (with a torn last record) against an
//! uninterrupted one, and shards merged against a single run, byte for byte.
//! (The small book's settings are shared with `wide`.)

use std::collections::HashMap;
use std::io::Write;
use std::path::Path;

use crate::books::generate::checkpoint_path;
use crate::books::verify;
use crate::books::{Book, GenerateError, Generation, Options, Outcome, Shard, merge};
use crate::position::Board;
use crate::solver::{Config, Mode, Solver, StopFlag};

/// The small book: 5x4 to 6 stones.
pub(super) const W: usize = 5;
pub(super) const H: usize = 4;
pub(super) const DEPTH: usize = 6;

pub(super) fn config() -> Config {
    Config {
        table_mb: 4,
        ..Config::tuned()
    }
}

pub(super) fn options(shard: Shard) -> Options {
    Options {
        depth: DEPTH,
        shard,
        threads: 2,
        config: config(),
    }
}

/// A fresh directory under the system's temporary one, removed with everything
/// in it when dropped (a failing test's too).
pub(super) fn scratch(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("c4solver-{name}-"))
        .tempdir()
        .unwrap()
}

/// Runs a generation to the end and returns the file's bytes.
fn generate(out: &Path, shard: Shard) -> Vec<u8> {
    let mut g = Generation::<W, H>::open(options(shard), out).unwrap();
    match g.run(&StopFlag::new(), &|_, _| {}).unwrap() {
        Outcome::Finished(s) => assert_eq!(s.solved, g.total()),
        stopped => panic!("{stopped:?}"),
    }
    std::fs::read(out).unwrap()
}

/// Every move string of at most `DEPTH` moves with no four, by its canonical key.
fn reachable() -> HashMap<u64, String> {
    let mut out = HashMap::new();
    let mut stack = vec![String::new()];
    while let Some(m) = stack.pop() {
        let p = Board::<W, H>::parse(&m).unwrap();
        out.entry(p.canonical_key()).or_insert_with(|| m.clone());
        if m.len() < DEPTH {
            for c in '1'..='5' {
                let next = format!("{m}{c}");
                if Board::<W, H>::parse(&next).is_ok() {
                    stack.push(next);
                }
            }
        }
    }
    out
}

#[test]
fn every_entry_is_a_book_free_solve_and_every_position_is_there() {
    let dir = scratch("book-exact");
    let bytes = generate(&dir.path().join("b"), Shard::WHOLE);
    let book = Book::<W, H>::from_bytes(bytes).unwrap();
    let reachable = reachable();
    assert_eq!(book.len(), reachable.len());
    let mut solver = Solver::<W, H>::new(config()).unwrap();
    for (key, moves) in &reachable {
        let pos = Board::<W, H>::parse(moves).unwrap();
        let want = solver.solve(&pos, Mode::Strong).unwrap().score;
        assert_eq!(book.score(&pos), Some(want), "{moves}");
        assert_eq!(book.score(&pos.mirror()), Some(want), "{moves} mirrored");
        assert_eq!(book.score_of_key(*key), Some(want));
    }
    assert!(verify::consistency(&book).unwrap().is_empty());
    // A solver with this book answers from it, with no search, in every window.
    let mut with_book = Solver::<W, H>::new(config()).unwrap();
    with_book.set_book(Some(book.clone()));
    for moves in reachable.values().take(200) {
        let pos = Board::<W, H>::parse(moves).unwrap();
        let want = solver.solve(&pos, Mode::Strong).unwrap().score;
        let s = with_book.solve(&pos, Mode::Strong).unwrap();
        assert_eq!((s.score, s.nodes), (want, 0), "{moves}");
        assert_eq!(
            with_book.solve(&pos, Mode::Weak).unwrap().score,
            want.signum()
        );
        for alpha in -3..3 {
            let got = with_book
                .solve_window(&pos, alpha, alpha + 1)
                .unwrap()
                .score;
            assert_eq!(got > alpha, want > alpha, "{moves} null window at {alpha}");
        }
    }
}

#[test]
fn a_run_killed_and_resumed_writes_the_same_book() {
    let dir = scratch("book-resume");
    let whole = generate(&dir.path().join("whole"), Shard::WHOLE);

    let out = dir.path().join("resumed");
    let stop = StopFlag::new();
    let mut g = Generation::<W, H>::open(options(Shard::WHOLE), &out).unwrap();
    let total = g.total();
    let ended = g
        .run(&stop, &|done, _| {
            if done >= total / 3 {
                stop.stop();
            }
        })
        .unwrap();
    let Outcome::Stopped { done, .. } = ended else {
        panic!("not stopped: {ended:?}")
    };
    assert!(done >= total / 3 && done < total, "{done} of {total}");
    assert!(!out.exists(), "no book before the end");
    // A crash in the middle of a write: half a record at the end.
    let ckpt = checkpoint_path(&out);
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&ckpt)
        .unwrap();
    f.write_all(&[0x5a; 17]).unwrap();
    drop(f);
    let g = Generation::<W, H>::open(options(Shard::WHOLE), &out).unwrap();
    assert_eq!((g.done(), g.dropped()), (done, 1));
    drop(g);
    // A whole last record with a bad checksum is dropped too.
    let len = std::fs::metadata(&ckpt).unwrap().len();
    let mut bytes = std::fs::read(&ckpt).unwrap();
    bytes[len as usize - 5] ^= 1;
    std::fs::write(&ckpt, &bytes).unwrap();
    let mut g = Generation::<W, H>::open(options(Shard::WHOLE), &out).unwrap();
    assert_eq!((g.done(), g.dropped()), (done - 1, 1));
    let solved_before = g.done();
    let counted = std::sync::atomic::AtomicUsize::new(0);
    let ended = g
        .run(&StopFlag::new(), &|_, _| {
            counted.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        })
        .unwrap();
    assert!(matches!(ended, Outcome::Finished(_)), "{ended:?}");
    assert_eq!(
        counted.into_inner(),
        total - solved_before,
        "nothing is solved twice"
    );
    assert_eq!(std::fs::read(&out).unwrap(), whole);
    // The book written, its checkpoint is gone; once more, the book is found:
    // nothing solved, nothing written.
    assert!(!ckpt.exists());
    let mut g = Generation::<W, H>::open(options(Shard::WHOLE), &out).unwrap();
    assert!(g.is_written());
    let again = g
        .run(&StopFlag::new(), &|_, _| panic!("solved again"))
        .unwrap();
    assert!(
        matches!(again, Outcome::Written { bytes, .. } if bytes == whole.len()),
        "{again:?}"
    );
    assert_eq!(std::fs::read(&out).unwrap(), whole);
}

#[test]
fn shards_merge_into_the_book_of_one_run() {
    let dir = scratch("book-shards");
    let whole = generate(&dir.path().join("whole"), Shard::WHOLE);
    for count in [2u16, 3] {
        let mut shards: Vec<Book<W, H>> = (1..=count)
            .map(|index| {
                let out = dir.path().join(format!("shard-{index}-of-{count}"));
                Book::from_bytes(generate(&out, Shard { index, count })).unwrap()
            })
            .collect();
        shards.reverse();
        assert_eq!(merge(&shards).unwrap(), whole, "{count} shards");
        // A missing shard and a repeated one are refused.
        let err = merge(&shards[1..]).unwrap_err().to_string();
        assert!(err.contains("is missing"), "{err}");
        let mut twice = shards.clone();
        twice[0] = shards[1].clone();
        let err = merge(&twice).unwrap_err().to_string();
        assert!(err.contains("is given twice"), "{err}");
    }
}

#[test]
fn a_checkpoint_of_other_arguments_is_refused() {
    let dir = scratch("book-other-args");
    let out = dir.path().join("b");
    let mut g = Generation::<W, H>::open(options(Shard::WHOLE), &out).unwrap();
    let stop = StopFlag::new();
    stop.stop();
    g.run(&stop, &|_, _| {}).unwrap();
    let other = Options {
        shard: Shard { index: 1, count: 2 },
        ..options(Shard::WHOLE)
    };
    match Generation::<W, H>::open(other, &out) {
        Err(GenerateError::Checkpoint { reason, .. }) => {
            assert!(reason.contains("not for these arguments"), "{reason}")
        }
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("accepted"),
    }
}
