//! The built-in 7x6 book against independent oracles, through the public API: its
//! layers against each other, connect-four-ai's embedded book and its solver,
//! Pascal Pons' labelled sets, and book-free null-window searches on a random
//! sample of its deepest layer. (Its layers against the published numbers of
//! positions per ply and John Tromp's 8-ply database: the library's unit tests,
//! `books::tests::layers`.)

use crate::common::{self, Book7x6, Position7x6, Solver7x6};

use c4solver::{Book, Config, Mode, Size};

fn builtin() -> Book7x6 {
    Book7x6::builtin().expect("the built-in book checks out")
}

#[test]
fn every_entry_is_the_best_of_its_moves() {
    let book = Book::builtin(Size::STANDARD).unwrap();
    let bad = book.consistency().unwrap();
    assert!(bad.is_empty(), "{:?}", &bad[..bad.len().min(10)]);
}

/// connect-four-ai 1.0 (a Rust port of Pons' final solver that shares no code with
/// c4solver) embeds its own depth-8 book of exact scores: every entry of ours with
/// at most 8 stones must be its answer too.
#[test]
fn every_entry_agrees_with_connect_four_ai() {
    use connect_four_ai::{Position as OtherPosition, Solver as OtherSolver};
    let book = builtin();
    let mut other = OtherSolver::new();
    let mut checked = 0;
    // Each entry of at most 8 stones, with the moves that reach it.
    for row in (0..=book.depth().min(8)).flat_map(|stones| book.rows(stones, false)) {
        let (moves, score) = row.expect("reachable");
        let p = OtherPosition::from_moves(&moves).unwrap();
        other.reset();
        assert_eq!(i32::from(other.solve(&p)), score, "{moves}");
        checked += 1;
    }
    assert_eq!(checked, book.len().min(129_498));
}

/// The WebAssembly build carries the 8-stone book (the former built-in one) and
/// fetches the rest: every one of its entries is the built-in book's, and it
/// holds every position of up to 8 stones.
#[test]
fn the_web_builds_8_stone_book_is_the_built_in_books_first_layers() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/crates/c4solver-wasm/books/7x6-8.c4book"
    );
    let small = Book7x6::read(std::path::Path::new(path)).unwrap();
    let book = builtin();
    assert_eq!((small.depth(), small.len()), (8, 129_498));
    for (key, score) in small.entries() {
        assert_eq!(book.score_of_key(key), Some(score), "{key:#x}");
    }
}

/// Positions of 9 to 12 stones drawn from random games (no four on the board),
/// 10 of each: the default solver (the built-in book up to its depth, then search)
/// against connect-four-ai's, which shares no code with c4solver. The thousands
/// behind the 12-stone book's release: `python/benchmarks/check_vs_bitbully.py`
/// (docs/book.md).
#[test]
fn random_positions_of_9_to_12_stones_agree_with_connect_four_ai() {
    use connect_four_ai::{Position as OtherPosition, Solver as OtherSolver};
    // Drawn as `c4solver generate` draws (a game won on the way gives none).
    let games: Vec<(String, Position7x6)> = (9..=12)
        .flat_map(|stones| {
            c4solver::bench::draws::<7, 6, u64>(stones..=stones, 43)
                .expect("9 to 12 stones can be drawn")
                .flatten()
                .take(10)
        })
        .collect();
    let mut ours = Solver7x6::with_builtin_book(Config::default()).unwrap();
    let mut other = OtherSolver::new();
    for (moves, p) in &games {
        let want = i32::from(other.solve(&OtherPosition::from_moves(moves).unwrap()));
        other.reset();
        let got = ours.solve(p, Mode::Strong).unwrap();
        assert_eq!(got.score, want, "{moves}");
        if p.moves_played() <= builtin().depth() {
            assert_eq!(got.nodes, 0, "{moves}: not from the book");
        }
    }
}

/// A random sample of the deepest layer (200 entries when it holds 8 stones or
/// more, where a book-free search takes a fraction of a second) against two
/// book-free null-window searches each: the score is at least the stored one, and
/// not more. `c4solver book verify --sample 5000 FILE` re-solves any sample.
#[test]
fn a_sample_of_the_deepest_layer_agrees_with_book_free_searches() {
    let book = Book::builtin(Size::STANDARD).unwrap();
    assert!(book.depth() >= 8, "no cheap layer to sample");
    let deepest: Vec<(u64, i32)> = book
        .sample_deepest(200, 7)
        .into_iter()
        .map(|(k, score)| (k as u64, score))
        .collect();
    assert_eq!(deepest.len(), 200);
    // Shared out among the cores, one solver each (every search clears its table).
    common::on_the_cores(&deepest, |_, part| {
        let mut solver = Solver7x6::new(Config::tuned()).unwrap();
        for &(key, score) in part {
            let p = Position7x6::from_key(key).unwrap();
            let at_least = solver.solve_window(&p, score - 1, score).unwrap().score;
            assert!(at_least >= score, "{key:#x}: {score} stored, below it");
            let at_most = solver.solve_window(&p, score, score + 1).unwrap().score;
            assert!(at_most <= score, "{key:#x}: {score} stored, above it");
        }
    });
}

/// The tests that read the full sets from `../shared/pons-testsets/`: ignored by
/// default, run by `.ci/run` (`cargo test -- --ignored pons_sets`).
mod pons_sets {
    use super::*;

    #[test]
    #[ignore = "reads ../shared/pons-testsets: cargo test -- --ignored pons_sets"]
    fn pons_positions_in_the_book_score_as_labelled() {
        let book = builtin();
        let mut with_book = Solver7x6::with_builtin_book(Config::default()).unwrap();
        let mut checked = 0;
        for set in [
            "Test_L1_R1",
            "Test_L1_R2",
            "Test_L1_R3",
            "Test_L2_R1",
            "Test_L2_R2",
            "Test_L3_R1",
        ] {
            for e in common::pons_set(set).entries {
                if e.position.moves_played() > book.depth() {
                    continue;
                }
                assert_eq!(book.score(&e.position), Some(e.score), "{set} {}", e.moves);
                let s = with_book.solve(&e.position, Mode::Strong).unwrap();
                assert_eq!((s.score, s.nodes), (e.score, 0), "{set} {}", e.moves);
                let w = with_book.solve(&e.position, Mode::Weak).unwrap();
                assert_eq!(w.score, e.score.signum(), "{set} {} weak", e.moves);
                checked += 1;
            }
        }
        assert!(checked >= 11, "only {checked} positions");
    }
}
