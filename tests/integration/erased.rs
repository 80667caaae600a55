//! The size-erased API (`c4solver::Position`, `Solver`, `Line::parse`) on every
//! size this build holds: the standard board alone by default, all 53 with the
//! `all-sizes` feature (`.ci/run` runs them so, with the features' integration
//! tests). The oracles are the reference search (the tutorial's, independent of
//! the tuned one) through the same API, and the generic boards and parser of
//! `c4solver::sized`. The library's unit tests check the erased solver against
//! the generic one on the standard board.

use c4solver::sized::{Bits, Board, Query};
use c4solver::{
    Config, Line, LineError, Mode, Position, Size, SizeError, Solver, SolverKind, with_size,
};

/// Positions of a few stones on any board: every column in turn, then the
/// centre, as far as the board takes them without a win.
fn positions(size: Size) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut moves = String::new();
    for i in 0..(size.width * 2).min(size.cells() - 1) {
        let col = (i * 3 + 1) % size.width;
        moves.push(Position::column_symbol(col));
        if Position::parse(size, &moves).is_err() {
            break;
        }
        out.push(moves.clone());
    }
    out
}

/// The first player's and the second player's stones of `p`.
fn stones(p: &Position) -> (u128, u128) {
    let size = p.size();
    let (mut first, mut second) = (0u128, 0u128);
    for col in 0..size.width {
        for row in 0..size.height {
            let bit = 1u128 << (col * (size.height + 1) + row);
            match (p.cell(col, row), p.moves_played().is_multiple_of(2)) {
                (Some(mine), first_to_move) if mine == first_to_move => first |= bit,
                (Some(_), _) => second |= bit,
                (None, _) => {}
            }
        }
    }
    (first, second)
}

/// The small boards (at most 30 cells), and the positions of each that the
/// reference search solves in a moment: any on at most 24 cells, from the fourth
/// stone on the others.
fn small_positions() -> impl Iterator<Item = (Size, Vec<String>)> {
    Size::BUILT.iter().filter(|s| s.cells() <= 30).map(|&size| {
        let quick = |m: &String| size.cells() <= 24 || m.len() >= 4;
        (size, positions(size).into_iter().filter(quick).collect())
    })
}

#[test]
fn the_tuned_search_answers_as_the_reference_on_the_small_boards() {
    let reference = Config {
        kind: SolverKind::Reference,
        ..Config::default()
    };
    for (size, positions) in small_positions() {
        let mut tuned = Solver::new(size, Config::default()).unwrap();
        let mut oracle = Solver::new(size, reference).unwrap();
        for moves in positions {
            let pos = Position::parse(size, &moves).unwrap();
            let want = oracle.analyze(&pos, Mode::Strong).unwrap();
            let a = tuned.analyze(&pos, Mode::Strong).unwrap();
            assert_eq!(a.scores(), want.scores(), "{size} {moves}");
            assert_eq!(a.scores().len(), size.width);
            let score = tuned.solve(&pos, Mode::Strong).unwrap().score;
            assert_eq!(score, oracle.solve(&pos, Mode::Strong).unwrap().score);
            assert_eq!(
                tuned.principal_variation_of(&a).unwrap().to_string(),
                oracle.principal_variation_of(&want).unwrap().to_string(),
                "{size} {moves}"
            );
            let answer = tuned.answer(&moves, &pos, Mode::Strong, false).unwrap();
            assert_eq!(answer.score, score, "{size} {moves}");
            assert_eq!(answer.scores, want.scores().to_vec(), "{size} {moves}");
        }
    }
}

fn grid<const W: usize, const H: usize, B: Bits>(moves: &str) -> String {
    Board::<W, H, B>::parse(moves).unwrap().to_string()
}

#[test]
fn positions_round_trip_through_keys_stones_and_mirrors_on_every_size() {
    for &size in Size::BUILT {
        for moves in positions(size) {
            let p = Position::parse(size, &moves).unwrap();
            assert_eq!(Position::from_key(size, p.key()), Ok(p), "{size} {moves}");
            let (first, second) = stones(&p);
            let q = Position::from_stones(size, first, second).unwrap();
            assert_eq!(q.key(), p.key(), "{size} {moves}");
            assert_eq!(p.mirror().mirror(), p);
            assert_eq!(p.canonical_key(), p.key().min(p.mirror().key()));
            assert_eq!(p.to_string(), with_size!(size, grid(&moves)));
        }
    }
}

/// The line as the generic parser reads it: its moves and expected score.
fn line_of<const W: usize, const H: usize, B: Bits>(bytes: &[u8]) -> (String, Option<i32>) {
    let q = Query::<W, H, B>::parse(bytes, false).unwrap();
    (q.moves.to_string(), q.expected)
}

#[test]
fn lines_and_move_orders_on_every_size() {
    for &size in Size::BUILT {
        for moves in positions(size) {
            let line = format!(" {moves}\t\r");
            let read = Line::parse(size, line.as_bytes(), false).unwrap();
            let want = Position::parse(size, &moves).unwrap();
            assert_eq!((read.moves, read.position), (moves.as_str(), want));
            let generic = with_size!(size, line_of(line.as_bytes()));
            assert_eq!(generic, (read.moves.to_string(), read.expected));
            let (first, second) = stones(&want);
            let mut replayed = Position::new(size).unwrap();
            for col in Position::move_order(size, first, second).unwrap() {
                replayed.play(col).unwrap();
            }
            assert_eq!(replayed, want, "{size} {moves}");
        }
        let past = Position::column_symbol(size.width);
        let err = Line::parse(size, past.to_string().as_bytes(), false).unwrap_err();
        // On a board of at most nine columns a letter is no column symbol at all.
        let want = if size.width == 9 {
            format!("bad character {past:?} at move 1")
        } else {
            format!(
                "column {} is out of range (1..={}) at move 1",
                size.width + 1,
                size.width
            )
        };
        assert_eq!(err.to_string(), want, "{size}");
        assert!(matches!(
            Line::parse(size, b"4", true),
            Err(LineError::TooLong { .. })
        ));
    }
    let wide = Size::new(10, 6).unwrap();
    if wide.built().is_err() {
        assert!(matches!(
            Line::parse(wide, b"", false),
            Err(LineError::Size(SizeError::NotBuilt(_)))
        ));
    }
}

fn width_of<const W: usize, const H: usize, B: Bits>() -> (usize, usize, usize) {
    (Board::<W, H, B>::WIDTH, Board::<W, H, B>::HEIGHT, B::BITS)
}

#[test]
fn with_size_instantiates_every_size() {
    for &size in Size::BUILT {
        let bits = if size.is_wide() { 128 } else { 64 };
        assert_eq!(
            with_size!(size, width_of()),
            (size.width, size.height, bits)
        );
    }
    let other = Size::new(8, 7).unwrap();
    assert_eq!(
        other.built().is_ok(),
        cfg!(feature = "all-sizes"),
        "8x7 is built with the feature only"
    );
}
