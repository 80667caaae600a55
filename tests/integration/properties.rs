//! Property tests: the solver is never wrong, on the standard board and on small
//! ones.
//!
//! * strong score = max over legal moves of -score(child) (a win-in-one scores
//!   `win_next_score`, a full board 0), and on small boards it equals an
//!   independent memoized minimax;
//! * weak score = sign of the strong score; the mirrored position scores the same;
//! * keys: `current + mask` decodes back to `(current, mask)` (so different
//!   positions never share a key) and survive parse / play / mirror round trips;
//! * a table kept between positions gives the same scores as a cleared one.
//!
//! Every solver property runs for every configuration of [`configs`]: a new search
//! or table design is tested by adding one line there.
//!
//! Random positions come from random games that never end the game early, with
//! enough stones on 7x6 (20 or more) that the reference solver answers within
//! milliseconds; the whole file runs in a few seconds.

use std::cell::RefCell;
use std::collections::HashMap;

#[cfg(feature = "research")]
use c4solver::research::{DepthKind, TableKind};
use c4solver::sized::Query;
use c4solver::{Config, Mode, SolverKind, sized::Board, sized::Solver};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::{Config as RunnerConfig, TestCaseError, TestRunner};

/// Every configuration under test (each also runs with `keep_table` on and off).
/// A new search or table design is one more line here.
fn configs() -> Vec<Config> {
    let mut all = Vec::new();
    for kind in [SolverKind::Reference, SolverKind::Tuned] {
        // each search with its own table first, then every other design and policy
        let own = Config::for_solver(kind);
        all.push(own);
        #[cfg(feature = "research")]
        for table in TableKind::all() {
            // every other design and policy, with the depth measure of cells
            if table == own.table() || table.replace().depth() == Some(DepthKind::Work) {
                continue;
            }
            all.push(
                Config {
                    kind,
                    // the compact table needs 64 MB on 7x6 (small boards need less)
                    table_mb: if table == TableKind::Compact { 64 } else { 1 },
                    ..Config::default()
                }
                .with_table(table),
            );
        }
    }
    all
}

/// One solver per configuration the board is built for (every one on 7x6; each
/// search with its own table on the other sizes, see `Config::any_size`),
/// clearing or keeping its table as asked.
fn solvers<const W: usize, const H: usize>(keep_table: bool) -> Vec<Solver<W, H>> {
    let all: Vec<Solver<W, H>> = configs()
        .into_iter()
        .filter(|c| (W, H) == (7, 6) || c.any_size())
        .map(|c| Solver::new(Config { keep_table, ..c }).expect("table fits"))
        .collect();
    assert!(all.len() >= 2, "{W}x{H}: both searches at least");
    all
}

/// Runs `test` on `cases` values of `strategy`; panics with the shrunk input.
fn check<S: Strategy>(cases: u32, strategy: S, test: impl Fn(S::Value) -> Result<(), TestCaseError>)
where
    S::Value: std::fmt::Debug,
{
    let config = RunnerConfig {
        cases,
        failure_persistence: None,
        ..RunnerConfig::default()
    };
    if let Err(e) = TestRunner::new(config).run(&strategy, test) {
        panic!("{e}");
    }
}

/// Plays a random game of up to `stones` moves. Each choice picks one of the
/// playable columns that neither wins at once nor lets the opponent win at once
/// (so most positions need a real search); when there is none, one that does not
/// win; when every playable column wins, the game stops there (a win in one).
/// Returns the move string too.
fn random_game<const W: usize, const H: usize>(
    stones: usize,
    choices: &[u8],
) -> (String, Board<W, H>) {
    let mut pos = Board::<W, H>::new();
    let mut moves = String::new();
    for &c in choices.iter().take(stones) {
        let quiet: Vec<usize> = (0..W)
            .filter(|&col| pos.can_play(col) && !pos.is_winning_move(col))
            .collect();
        let safe: Vec<usize> = quiet
            .iter()
            .copied()
            .filter(|&col| {
                let mut next = pos;
                next.play_col(col);
                !next.can_win_next()
            })
            .collect();
        let from = if safe.is_empty() { &quiet } else { &safe };
        if from.is_empty() {
            break;
        }
        let col = from[usize::from(c) % from.len()];
        pos.play_col(col);
        moves.push(char::from(b'1' + col as u8));
    }
    (moves, pos)
}

/// Random games of `stones` moves on a `W`x`H` board.
fn games<const W: usize, const H: usize>(
    stones: std::ops::RangeInclusive<usize>,
) -> impl Strategy<Value = (String, Board<W, H>)> {
    (stones, vec(any::<u8>(), W * H)).prop_map(|(n, c)| random_game::<W, H>(n, &c))
}

/// The score by the rules alone: best over legal moves of the negated child score,
/// with `child` giving a child's score.
fn score_from_children<const W: usize, const H: usize>(
    pos: &Board<W, H>,
    mut child: impl FnMut(&Board<W, H>) -> i32,
) -> i32 {
    if pos.is_full() {
        return 0;
    }
    let mut best = i32::MIN;
    for col in 0..W {
        if !pos.can_play(col) {
            continue;
        }
        if pos.is_winning_move(col) {
            return pos.win_next_score();
        }
        let mut next = *pos;
        next.play_col(col);
        best = best.max(-child(&next));
    }
    best
}

/// Plain minimax memoized on `(current, mask)`: an oracle independent of the
/// solver's search, pruning, table and key.
fn oracle<const W: usize, const H: usize>(
    pos: &Board<W, H>,
    memo: &mut HashMap<(u64, u64), i32>,
) -> i32 {
    if let Some(&s) = memo.get(&(pos.current(), pos.mask())) {
        return s;
    }
    let s = score_from_children(pos, |c| oracle(c, memo));
    memo.insert((pos.current(), pos.mask()), s);
    s
}

/// Decodes a key. In a column of height `h`, `mask` is `2^h - 1` and `current` is
/// below `2^h`, so the column's part of the key lies in `[2^h - 1, 2^(h+1) - 2]`:
/// these ranges do not overlap, so `h` is the highest set bit of `part + 1`.
fn decode<const W: usize, const H: usize>(key: u64) -> (u64, u64) {
    let mut current = 0;
    let mut mask = 0;
    for col in 0..W {
        let part = (key >> (col * (H + 1))) & ((1 << (H + 1)) - 1);
        let height = 63 - (part + 1).leading_zeros() as usize;
        assert!(height <= H);
        let column_mask = (1u64 << height) - 1;
        mask |= column_mask << (col * (H + 1));
        current |= (part - column_mask) << (col * (H + 1));
    }
    (current, mask)
}

/// Solves with every solver and both modes and checks what one position must
/// satisfy; returns the strong score.
fn check_position<const W: usize, const H: usize>(
    solvers: &mut [Solver<W, H>],
    pos: &Board<W, H>,
) -> Result<i32, TestCaseError> {
    let mut first = None;
    for solver in solvers.iter_mut() {
        let name = solver.config().kind.name();
        let strong = solver.solve(pos, Mode::Strong).unwrap().score;
        prop_assert!(
            (Board::<W, H>::MIN_SCORE..=Board::<W, H>::MAX_SCORE).contains(&strong) || strong == 0,
            "{name}: score {strong} out of range"
        );
        let by_children =
            score_from_children(pos, |c| solver.solve(c, Mode::Strong).unwrap().score);
        prop_assert_eq!(strong, by_children, "{}: strong vs children", name);
        prop_assert_eq!(
            solver.solve(pos, Mode::Weak).unwrap().score,
            strong.signum(),
            "{}: weak",
            name
        );
        prop_assert_eq!(
            solver.solve(&pos.mirror(), Mode::Strong).unwrap().score,
            strong,
            "{}: mirror",
            name
        );
        let first = *first.get_or_insert(strong);
        prop_assert_eq!(
            strong,
            first,
            "{}: differs from {}",
            name,
            configs()[0].kind.name()
        );
    }
    Ok(first.unwrap_or_default())
}

#[test]
fn solver_7x6_matches_children_weak_and_mirror() {
    let solvers = RefCell::new(solvers::<7, 6>(false));
    check(192, games::<7, 6>(20..=36), |(moves, pos)| {
        let _ = moves;
        check_position(&mut solvers.borrow_mut(), &pos).map(|_| ())
    });
}

/// Small boards: the same checks plus the oracle.
fn small_board<const W: usize, const H: usize>(cases: u32, min_stones: usize) {
    let solvers = RefCell::new(solvers::<W, H>(false));
    let memo = RefCell::new(HashMap::new());
    check(cases, games::<W, H>(min_stones..=W * H), |(_, pos)| {
        let strong = check_position(&mut solvers.borrow_mut(), &pos)?;
        prop_assert_eq!(strong, oracle(&pos, &mut memo.borrow_mut()), "oracle");
        Ok(())
    });
}

#[test]
fn solver_4x4_matches_oracle() {
    small_board::<4, 4>(128, 0);
}

#[test]
fn solver_5x4_matches_oracle() {
    small_board::<5, 4>(96, 2);
}

#[test]
fn solver_4x5_matches_oracle() {
    small_board::<4, 5>(96, 2);
}

/// The same positions, in the same order, with both strong and weak solves mixed:
/// a table kept between them gives the same answers as a cleared one.
fn kept_table_agrees<const W: usize, const H: usize>(
    stones: std::ops::RangeInclusive<usize>,
    cases: u32,
) {
    let cleared = RefCell::new(solvers::<W, H>(false));
    let kept = RefCell::new(solvers::<W, H>(true));
    let strategy = vec((games::<W, H>(stones), any::<bool>()), 1..8);
    check(cases, strategy, |list| {
        for ((_, pos), weak_first) in &list {
            let modes = if *weak_first {
                [Mode::Weak, Mode::Strong]
            } else {
                [Mode::Strong, Mode::Weak]
            };
            for (a, b) in cleared
                .borrow_mut()
                .iter_mut()
                .zip(kept.borrow_mut().iter_mut())
            {
                for mode in modes {
                    let want = a.solve(pos, mode).unwrap().score;
                    prop_assert_eq!(b.solve(pos, mode).unwrap().score, want);
                }
            }
        }
        Ok(())
    });
}

#[test]
fn kept_table_agrees_7x6() {
    kept_table_agrees::<7, 6>(20..=38, 32);
}

#[test]
fn kept_table_agrees_small_boards() {
    kept_table_agrees::<4, 4>(0..=16, 32);
    kept_table_agrees::<5, 4>(4..=20, 16);
    kept_table_agrees::<4, 5>(4..=20, 16);
}

/// Keys decode to the position, round trips keep them.
fn keys_round_trip<const W: usize, const H: usize>() {
    check(256, games::<W, H>(0..=W * H), |(moves, pos)| {
        let key = pos.key();
        prop_assert!(key < 1 << (W * (H + 1)));
        prop_assert_eq!(decode::<W, H>(key), (pos.current(), pos.mask()));
        prop_assert_eq!(pos.moves_played(), moves.len());
        // the move string parses to the same position
        let parsed = Board::<W, H>::parse(&moves);
        prop_assert_eq!(parsed, Ok(pos));
        // played in two parts
        for split in [0, moves.len() / 2, moves.len()] {
            let mut p = Board::<W, H>::parse(&moves[..split]).unwrap();
            p.play_str(&moves[split..]).unwrap();
            prop_assert_eq!(p.key(), key);
        }
        // the mirrored move string gives the mirrored position
        let mirrored: String = moves
            .bytes()
            .map(|b| char::from(b'1' + (W as u8 - 1 - (b - b'1'))))
            .collect();
        let m = Board::<W, H>::parse(&mirrored).unwrap();
        prop_assert_eq!(m, pos.mirror());
        prop_assert_eq!(m.mirror().key(), key);
        Ok(())
    });
}

#[test]
fn keys_round_trip_all_boards() {
    keys_round_trip::<7, 6>();
    keys_round_trip::<4, 4>();
    keys_round_trip::<5, 4>();
    keys_round_trip::<4, 5>();
}

#[test]
fn keys_round_trip_through_input_lines() {
    check(
        256,
        (games::<7, 6>(1..=42), -18i32..=18),
        |((moves, pos), score)| {
            // A score the position can have (or 0) is accepted, the next one is not.
            let (lo, hi) = pos.score_range();
            let score = score.clamp(lo, hi);
            // (an empty move string cannot carry a score: the score would be read as moves)
            let line = format!(" {moves}\t{score}\r");
            let q = Query::<7, 6, u64>::parse(line.as_bytes(), false).unwrap();
            prop_assert_eq!(q.moves, moves.as_str());
            prop_assert_eq!(q.position.key(), pos.key());
            prop_assert_eq!(q.expected, Some(score));
            let beyond = format!("{moves} {}", hi + 1);
            prop_assert!(Query::<7, 6, u64>::parse(beyond.as_bytes(), false).is_err());
            Ok(())
        },
    );
}

/// Two games that share most moves (one move changed, or two swapped, which is
/// often a transposition): same key exactly when same `(current, mask)`.
#[test]
fn different_positions_never_share_a_key() {
    let pair = (vec(any::<u8>(), 42), 0..42usize, 0..42usize, any::<u8>());
    check(512, pair, |(choices, i, j, v)| {
        let (_, a) = random_game::<7, 6>(42, &choices);
        let mut changed = choices.clone();
        changed[i] = v;
        let mut swapped = choices.clone();
        swapped.swap(i, j);
        for other in [changed, swapped] {
            let (_, b) = random_game::<7, 6>(42, &other);
            let same = (a.current(), a.mask()) == (b.current(), b.mask());
            prop_assert_eq!(a.key() == b.key(), same);
        }
        Ok(())
    });
}

#[test]
fn transposition_has_the_same_key() {
    // 4, 5, 4, 3 and 4, 3, 4, 5 reach the same position by different orders.
    let a = Board::<7, 6>::parse("4543").unwrap();
    let b = Board::<7, 6>::parse("4345").unwrap();
    assert_eq!(a, b);
    assert_eq!(a.key(), b.key());
    assert_ne!(a.key(), Board::<7, 6>::parse("4534").unwrap().key());
}

#[test]
fn oracle_knows_the_small_boards() {
    // 4x4 is a draw from the start.
    let mut memo = HashMap::new();
    assert_eq!(oracle(&Board::<4, 4>::new(), &mut memo), 0);
    // A win in one is scored by the number of stones left.
    let p = Board::<4, 4>::parse("121212").unwrap();
    assert_eq!(oracle(&p, &mut memo), p.win_next_score());
    assert_eq!(p.win_next_score(), (16 + 1 - 6) / 2);
}
