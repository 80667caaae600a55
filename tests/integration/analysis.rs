//! Analysis checked against book-free solves, on a random sample of each of
//! Pascal Pons' six sets (the first 300 of each, vendored in `tests/data/pons/`),
//! strong and weak:
//!
//! * every playable column scores `-solve(child)`, a move that wins at once
//!   `(43 - stones) / 2` (its sign in weak mode), a full column nothing;
//! * the position's score is the set's, `best_moves` are exactly the columns with
//!   the top score, `best_move` is the one nearest the centre (left first), and
//!   `moves_within` gives exactly the columns within the margin;
//! * the principal variation is legal, every move in it is a best move (checked
//!   with a solve per ply), and it ends as the score says.
//!
//! 20 positions of each of the fast sets, 5, 2 and 1 of the Begin sets (whose
//! analyses cost far more than their solves: a bad move of an easy position often
//! leads to a hard one). The sample is drawn with a fixed seed (set
//! `C4_ANALYSIS_SEED` to draw another); `cargo test --release --test integration analysis::
//! -- --ignored` runs a larger one.

use crate::common::{self, Position7x6, Solver7x6};

use c4solver::bench::Entry;
use c4solver::{Config, Mode, SolveError, StopFlag};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn seed() -> u64 {
    std::env::var("C4_ANALYSIS_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(11)
}

/// `count` distinct entries of the set `name`, drawn at random.
fn sample(name: &str, count: usize) -> Vec<Entry> {
    let mut entries = common::pons_sample(name).entries;
    let mut rng = ChaCha8Rng::seed_from_u64(seed() ^ name.len() as u64);
    let mut out = Vec::new();
    while out.len() < count && !entries.is_empty() {
        out.push(entries.swap_remove(rng.random_range(0..entries.len())));
    }
    out
}

/// The score of each column of `pos` by independent solves (the solver clears its
/// table before each).
fn oracle_scores(oracle: &mut Solver7x6, pos: &Position7x6, mode: Mode) -> [Option<i32>; 7] {
    std::array::from_fn(|c| {
        if !pos.can_play(c) {
            return None;
        }
        if pos.is_winning_move(c) {
            return Some(mode.answer_for(pos.win_next_score()));
        }
        let mut child = *pos;
        child.play_col(c);
        Some(-oracle.solve(&child, mode).unwrap().score)
    })
}

/// Distance from the centre, then left before right: the order `best_move` prefers.
fn centre_rank(c: usize) -> (usize, usize) {
    (c.abs_diff(3), c)
}

/// Plays `line` from `pos`, checking that `score` is the score of `pos` in `mode`,
/// that every move is legal and a best move (the position after it scores the
/// opposite of the position before it), and that the game ends as `score` says.
fn check_line(oracle: &mut Solver7x6, pos: &Position7x6, line: &[usize], score: i32, mode: Mode) {
    let what =
        |p: &Position7x6| format!("line {line:?} from {pos:?}, at {} stones", p.moves_played());
    let mut p = *pos;
    let mut want = score;
    assert_eq!(oracle.solve(&p, mode).unwrap().score, want, "{}", what(&p));
    for (i, &c) in line.iter().enumerate() {
        assert!(c < 7 && p.can_play(c), "{}: illegal move", what(&p));
        if p.is_winning_move(c) {
            assert_eq!(i, line.len() - 1, "{}: moves after the win", what(&p));
            // The mover wins: the score says so, and (strong) says with which stone.
            let winner_stones = p.moves_played() / 2 + 1;
            let mover_is_root = i % 2 == 0;
            assert_eq!(score > 0, mover_is_root, "{}: wrong winner", what(&p));
            if mode == Mode::Strong {
                assert_eq!(
                    winner_stones as i32,
                    22 - score.abs(),
                    "{}: wins with the wrong stone",
                    what(&p)
                );
            }
            return;
        }
        let mut child = p;
        child.play_col(c);
        assert_eq!(
            -oracle.solve(&child, mode).unwrap().score,
            want,
            "{}: not a best move",
            what(&p)
        );
        p = child;
        want = -want;
    }
    assert!(p.is_full(), "{}: the line stops before the end", what(&p));
    assert_eq!(
        score,
        0,
        "{}: the board fills but the score is not 0",
        what(&p)
    );
}

/// Checks the analysis of `e` in both modes, and its line; `thorough` adds
/// [`Solver7x6::best_moves`], [`Solver7x6::moves_within`] and a line built afresh
/// (each clears the table: seconds for a Begin position).
fn check_entry(analyst: &mut Solver7x6, oracle: &mut Solver7x6, e: &Entry, thorough: bool) {
    let pos = &e.position;
    for mode in [Mode::Strong, Mode::Weak] {
        let a = analyst.analyze(pos, mode).unwrap();
        let want = oracle_scores(oracle, pos, mode);
        assert_eq!(a.scores(), want, "{} {mode:?}", e.moves);
        assert_eq!(a.score(), mode.answer_for(e.score), "{} {mode:?}", e.moves);
        let top = want.iter().flatten().max().copied().unwrap();
        let argmax: Vec<usize> = (0..7).filter(|&c| want[c] == Some(top)).collect();
        assert_eq!(a.best_moves(), argmax, "{} {mode:?}", e.moves);
        let nearest = argmax.iter().copied().min_by_key(|&c| centre_rank(c));
        assert_eq!(a.best_move(), nearest, "{} {mode:?}", e.moves);

        if thorough {
            let best = analyst.best_moves(pos, mode).unwrap();
            assert_eq!((best.score, best.columns), (top, argmax.clone()));
            assert_eq!(analyst.best_move(pos, mode).unwrap(), nearest);
        }
        if thorough && mode == Mode::Strong {
            for margin in [1, 3, 6] {
                let within = analyst.moves_within(pos, mode, margin).unwrap();
                let cols: Vec<usize> = (0..7)
                    .filter(|&c| want[c].is_some_and(|s| s >= top - margin))
                    .collect();
                assert_eq!(
                    (within.score, within.columns),
                    (top, cols),
                    "margin {margin}"
                );
            }
        }

        let line = analyst.principal_variation_of(&a).unwrap();
        assert_eq!(line.score(), a.score());
        assert_eq!(line.moves().first().copied(), nearest, "{}", e.moves);
        check_line(oracle, pos, line.moves(), line.score(), mode);
        if thorough {
            // Afresh, the same line.
            let again = analyst.principal_variation(pos, mode).unwrap();
            assert_eq!(again.moves(), line.moves(), "{} {mode:?}", e.moves);
        }
    }
}

fn check_set(name: &str, count: usize) {
    let thorough = !name.starts_with("Test_L1");
    // The analyst with the opening book (every position of up to 8 stones), the
    // oracle without it.
    let mut analyst = Solver7x6::with_builtin_book(Config::default()).unwrap();
    let mut oracle = Solver7x6::new(Config::tuned()).unwrap();
    let entries = sample(name, count);
    assert_eq!(entries.len(), count);
    for e in &entries {
        check_entry(&mut analyst, &mut oracle, e, thorough);
    }
}

/// The analysis over the `bounds` table (every bound kind; the tuned search
/// neither reads nor stores its best moves), against the default solver's scores.
#[cfg(feature = "research")]
#[test]
fn bounds_table_analyst() {
    let mut analyst = Solver7x6::new(Config::tuned().with_table(
        c4solver::research::TableKind::Bounds(c4solver::research::ReplaceKind::Always),
    ))
    .unwrap();
    let mut oracle = Solver7x6::new(Config::tuned()).unwrap();
    for (name, count) in [("Test_L2_R1", 20), ("Test_L2_R2", 10)] {
        for e in &sample(name, count) {
            check_entry(&mut analyst, &mut oracle, e, true);
        }
    }
}

#[test]
fn end_easy() {
    check_set("Test_L3_R1", 20);
}

#[test]
fn middle_easy() {
    check_set("Test_L2_R1", 20);
}

#[test]
fn middle_medium() {
    check_set("Test_L2_R2", 20);
}

#[test]
fn begin_easy() {
    check_set("Test_L1_R1", 5);
}

#[test]
fn begin_medium() {
    check_set("Test_L1_R2", 2);
}

#[test]
fn begin_hard() {
    check_set("Test_L1_R3", 1);
}

/// A larger sample of every set: several minutes in a release build.
#[test]
#[ignore = "several minutes, in release: cargo test --release --test integration -- --ignored analysis::larger_sample"]
fn larger_sample() {
    for (name, count) in [
        ("Test_L3_R1", 200),
        ("Test_L2_R1", 200),
        ("Test_L2_R2", 200),
        ("Test_L1_R1", 200),
        ("Test_L1_R2", 30),
        ("Test_L1_R3", 5),
    ] {
        check_set(name, count);
    }
}

#[test]
fn the_reference_search_analyses_alike() {
    // Fail-soft bounds instead of clamped ones: the same scores and lines.
    let mut tuned = Solver7x6::new(Config::tuned()).unwrap();
    let mut reference = Solver7x6::new(Config::reference()).unwrap();
    for e in sample("Test_L3_R1", 10)
        .iter()
        .chain(&sample("Test_L2_R1", 3))
    {
        for mode in [Mode::Strong, Mode::Weak] {
            let a = tuned.analyze(&e.position, mode).unwrap();
            let b = reference.analyze(&e.position, mode).unwrap();
            assert_eq!(a.scores(), b.scores(), "{} {mode:?}", e.moves);
            let la = tuned.principal_variation_of(&a).unwrap();
            let lb = reference.principal_variation_of(&b).unwrap();
            assert_eq!(la.moves(), lb.moves(), "{} {mode:?}", e.moves);
        }
    }
}

#[test]
fn a_stopped_analysis_says_so_and_the_solver_works_again() {
    // Without the book: it would answer the empty board's children at once.
    let mut s = Solver7x6::new(Config::tuned()).unwrap();
    let flag = StopFlag::new();
    s.set_stop_flag(flag.clone());
    flag.stop();
    let empty = Position7x6::new();
    // The empty board's children take far more than one poll interval of nodes.
    assert_eq!(s.analyze(&empty, Mode::Strong), Err(SolveError::Stopped));
    assert_eq!(s.best_moves(&empty, Mode::Weak), Err(SolveError::Stopped));
    assert_eq!(
        s.principal_variation(&empty, Mode::Strong),
        Err(SolveError::Stopped)
    );
    flag.reset();
    let mut oracle = Solver7x6::new(Config::tuned()).unwrap();
    for e in sample("Test_L2_R1", 3) {
        check_entry(&mut s, &mut oracle, &e, true);
    }
}
