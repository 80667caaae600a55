//! Small-board oracle: on 4x4, 5x4 and 4x5 boards the solver's strong score equals
//! a plain minimax (no alpha-beta, memoized in a `HashMap`) that shares no code
//! with the solver, on thousands of random positions; the weak score is its sign.
//! The analysis too: every column's score, and the line of best play, played out
//! on the oracle's own grid.

use std::collections::HashMap;

use c4solver::{Config, Mode, sized::Board, sized::Solver};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A board as a plain grid: `cells[col][row]`, 0 empty, 1 first player, 2 second.
#[derive(Clone)]
struct Grid {
    w: usize,
    h: usize,
    cells: Vec<Vec<u8>>,
    stones: usize,
}

impl Grid {
    fn new(w: usize, h: usize) -> Self {
        Grid {
            w,
            h,
            cells: vec![vec![0; h]; w],
            stones: 0,
        }
    }

    fn height(&self, col: usize) -> usize {
        self.cells[col].iter().filter(|&&c| c != 0).count()
    }

    fn to_move(&self) -> u8 {
        if self.stones.is_multiple_of(2) { 1 } else { 2 }
    }

    fn get(&self, col: i64, row: i64) -> u8 {
        if col < 0 || row < 0 || col >= self.w as i64 || row >= self.h as i64 {
            0
        } else {
            self.cells[col as usize][row as usize]
        }
    }

    /// Whether the stone at (col, row) is part of four in a row.
    fn wins_at(&self, col: usize, row: usize) -> bool {
        let who = self.cells[col][row];
        for (dc, dr) in [(1i64, 0i64), (0, 1), (1, 1), (1, -1)] {
            let mut run = 1;
            for sign in [1i64, -1] {
                let (mut c, mut r) = (col as i64 + sign * dc, row as i64 + sign * dr);
                while self.get(c, r) == who {
                    run += 1;
                    c += sign * dc;
                    r += sign * dr;
                }
            }
            if run >= 4 {
                return true;
            }
        }
        false
    }

    /// Plays `col`; returns whether the move won.
    fn play(&mut self, col: usize) -> bool {
        let row = self.height(col);
        self.cells[col][row] = self.to_move();
        self.stones += 1;
        self.wins_at(col, row)
    }

    fn undo(&mut self, col: usize) {
        let row = self.height(col) - 1;
        self.cells[col][row] = 0;
        self.stones -= 1;
    }

    fn code(&self) -> u64 {
        let mut k = 0u64;
        for col in &self.cells {
            for &c in col {
                k = k * 3 + u64::from(c);
            }
        }
        k
    }
}

/// Exact score by full minimax: a win with the n-th stone of the board scores
/// `(cells + 1 - stones before it) / 2`.
fn minimax(g: &mut Grid, memo: &mut HashMap<u64, i32>) -> i32 {
    if g.stones == g.w * g.h {
        return 0;
    }
    let code = g.code();
    if let Some(&v) = memo.get(&code) {
        return v;
    }
    let mut best = i32::MIN;
    for col in 0..g.w {
        if g.height(col) == g.h {
            continue;
        }
        let score = if g.play(col) {
            ((g.w * g.h + 1 - (g.stones - 1)) / 2) as i32
        } else {
            -minimax(g, memo)
        };
        g.undo(col);
        best = best.max(score);
    }
    memo.insert(code, best);
    best
}

fn check_board<const W: usize, const H: usize>(positions: usize, seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut memo = HashMap::new();
    // Both searches, each with a table small enough to be replaced often.
    let mut solvers = [Config::reference(), Config::tuned()]
        .map(|c| Solver::<W, H>::new(Config { table_mb: 4, ..c }).unwrap());
    let mut checked = 0;
    let mut scores = HashMap::new();
    while checked < positions {
        // a random game, stopped at a random ply before it is won
        let ply = rng.random_range(0..W * H);
        let mut g = Grid::new(W, H);
        let mut moves = String::new();
        let mut over = false;
        for _ in 0..ply {
            let open: Vec<usize> = (0..W).filter(|&c| g.height(c) < H).collect();
            let col = open[rng.random_range(0..open.len())];
            moves.push(char::from(b'1' + col as u8));
            if g.play(col) {
                over = true;
                break;
            }
        }
        if over {
            assert!(Board::<W, H>::parse(&moves).is_err(), "{moves} is over");
            continue;
        }
        let pos = Board::<W, H>::parse(&moves).unwrap();
        let want = minimax(&mut g, &mut memo);
        for solver in &mut solvers {
            let kind = solver.config().kind.name();
            let strong = solver.solve(&pos, Mode::Strong).unwrap().score;
            assert_eq!(strong, want, "{W}x{H} {moves}: {kind} strong");
            let weak = solver.solve(&pos, Mode::Weak).unwrap().score;
            assert_eq!(weak, want.signum(), "{W}x{H} {moves}: {kind} weak");
        }
        *scores.entry(want.signum()).or_insert(0) += 1;
        checked += 1;
    }
    // the sample is not one-sided
    assert!(scores.len() >= 2, "{W}x{H}: {scores:?}");
}

#[test]
fn board_4x4() {
    check_board::<4, 4>(2000, 1);
}

#[test]
fn board_5x4() {
    check_board::<5, 4>(2000, 2);
}

#[test]
fn board_4x5() {
    check_board::<4, 5>(2000, 3);
}

/// Each column's score by minimax (`None` for a full column).
fn column_scores(g: &mut Grid, memo: &mut HashMap<u64, i32>) -> Vec<Option<i32>> {
    (0..g.w)
        .map(|col| {
            if g.height(col) == g.h {
                return None;
            }
            let score = if g.play(col) {
                ((g.w * g.h + 1 - (g.stones - 1)) / 2) as i32
            } else {
                -minimax(g, memo)
            };
            g.undo(col);
            Some(score)
        })
        .collect()
}

/// Plays `line` on the oracle's grid: every move is legal and keeps the score
/// (a best move), and the game ends as `score` says: a four of the side it names
/// with the stone that gives that score, or a full board for 0. In weak mode the
/// scores are signs and any winning stone will do.
fn check_line(g: &Grid, line: &[usize], score: i32, weak: bool, memo: &mut HashMap<u64, i32>) {
    let mut g = g.clone();
    let sign = |v: i32| if weak { v.signum() } else { v };
    let mut want = score;
    for (i, &col) in line.iter().enumerate() {
        let scores = column_scores(&mut g, memo);
        assert_eq!(
            scores[col].map(sign),
            Some(want),
            "{line:?}: move {i} is not a best move"
        );
        let before = g.stones;
        if g.play(col) {
            assert_eq!(i, line.len() - 1, "{line:?}: moves after the win");
            assert_eq!(score > 0, i % 2 == 0, "{line:?}: the wrong side wins");
            if !weak {
                assert_eq!(((g.w * g.h + 1 - before) / 2) as i32, score.abs());
            }
            return;
        }
        want = -want;
    }
    assert_eq!(g.stones, g.w * g.h, "{line:?} stops before the end");
    assert_eq!(score, 0, "{line:?} fills the board: a draw");
}

fn check_analysis<const W: usize, const H: usize>(positions: usize, seed: u64, symmetric: &[&str]) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut memo = HashMap::new();
    let mut solvers = [
        Config::reference(),
        Config::tuned(),
        // Two threads over one shared table (the `bounds` table's analysis, a 7x6
        // tool, is checked in tests/integration/analysis.rs).
        Config {
            threads: 2,
            ..Config::tuned()
        },
    ]
    .map(|c| Solver::<W, H>::new(Config { table_mb: 4, ..c }).unwrap());
    for moves in symmetric {
        let pos = Board::<W, H>::parse(moves).unwrap();
        assert_eq!(pos.mirror(), pos, "{moves} is its own mirror image");
    }
    let mut games: Vec<String> = symmetric.iter().map(|s| s.to_string()).collect();
    while games.len() < positions + symmetric.len() {
        let ply = rng.random_range(0..W * H);
        let mut g = Grid::new(W, H);
        let mut moves = String::new();
        for _ in 0..ply {
            let open: Vec<usize> = (0..W).filter(|&c| g.height(c) < H).collect();
            let col = open[rng.random_range(0..open.len())];
            if g.play(col) {
                break;
            }
            moves.push(char::from(b'1' + col as u8));
        }
        games.push(moves);
    }
    for moves in &games {
        let pos = Board::<W, H>::parse(moves).unwrap();
        let mut g = Grid::new(W, H);
        for b in moves.bytes() {
            g.play(usize::from(b - b'1'));
        }
        let want = column_scores(&mut g, &mut memo);
        for solver in &mut solvers {
            let kind = solver.config().kind.name();
            for weak in [false, true] {
                let mode = if weak { Mode::Weak } else { Mode::Strong };
                let sign = |v: i32| if weak { v.signum() } else { v };
                let a = solver.analyze(&pos, mode).unwrap();
                let want: Vec<Option<i32>> = want.iter().map(|s| s.map(sign)).collect();
                assert_eq!(
                    a.scores().to_vec(),
                    want,
                    "{W}x{H} {moves}: {kind} {mode:?}"
                );
                let line = solver.principal_variation_of(&a).unwrap();
                check_line(&g, line.moves(), a.score(), weak, &mut memo);
            }
        }
    }
}

#[test]
fn analysis_4x4() {
    // The empty board and "1243" are their own mirror images (the analysis
    // searches one column of each mirror pair).
    check_analysis::<4, 4>(150, 4, &["", "1243"]);
}

#[test]
fn analysis_5x4() {
    check_analysis::<5, 4>(150, 5, &["", "33", "135"]);
}

#[test]
fn analysis_4x5() {
    check_analysis::<4, 5>(150, 6, &["", "1243"]);
}
