//! Other board sizes (`--size WxH`), checked against oracles that share no code
//! with the solver.
//!
//! * Small boards (4x4, 5x4, 4x5, 6x4, 4x6 and 5x5, whose 25 cells make the first
//!   player's last stone the board's last): a brute-force alpha-beta minimax on a
//!   plain grid, with no table and no pruning beyond alpha-beta, on the empty
//!   boards it can afford and on thousands of random positions, against both
//!   searches, strong and weak.
//! * Every size the command line accepts: random positions solved by the tuned and
//!   the reference search through the binary, which must agree, and the empty
//!   board's score of the small ones against the oracle.
//! * The other commands on other sizes: `analyze` (each column's score is the
//!   oracle's), `generate` (every label is the oracle's and lies in its bucket),
//!   `book generate` (a book whose answers are the book-free solver's).

use c4solver::{Config, Mode, sized::Board, sized::Solver};
// The command line on other sizes needs them all built in.
#[cfg(feature = "all-sizes")]
use c4solver::bench::{Difficulty, Stage};
#[cfg(feature = "all-sizes")]
use c4solver::{Size, sized::Bits, with_size};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::common::run as c4solver;

/// A board as a plain grid: `cells[col][row]`, 0 empty, 1 and 2 the players.
#[derive(Clone)]
struct Grid {
    w: usize,
    h: usize,
    cells: Vec<Vec<u8>>,
    heights: Vec<usize>,
    stones: usize,
}

impl Grid {
    fn new(w: usize, h: usize) -> Self {
        Grid {
            w,
            h,
            cells: vec![vec![0; h]; w],
            heights: vec![0; w],
            stones: 0,
        }
    }

    fn at(&self, col: i64, row: i64) -> u8 {
        if col < 0 || row < 0 || col >= self.w as i64 || row >= self.h as i64 {
            0
        } else {
            self.cells[col as usize][row as usize]
        }
    }

    /// Plays `col` for the side to move; whether the stone makes four.
    fn play(&mut self, col: usize) -> bool {
        let row = self.heights[col];
        let who = 1 + (self.stones % 2) as u8;
        self.cells[col][row] = who;
        self.heights[col] += 1;
        self.stones += 1;
        [(1i64, 0i64), (0, 1), (1, 1), (1, -1)]
            .iter()
            .any(|&(dc, dr)| {
                let run = |sign: i64| {
                    (1..4)
                        .take_while(|&k| {
                            self.at(col as i64 + sign * k * dc, row as i64 + sign * k * dr) == who
                        })
                        .count()
                };
                1 + run(1) + run(-1) >= 4
            })
    }

    fn undo(&mut self, col: usize) {
        self.heights[col] -= 1;
        self.cells[col][self.heights[col]] = 0;
        self.stones -= 1;
    }

    /// The score of a win with the next stone: `(cells + 1 - stones) / 2`.
    fn win_score(&self) -> i32 {
        ((self.w * self.h + 1 - self.stones) / 2) as i32
    }

    /// The exact score by alpha-beta in `[alpha, beta]` (fail-hard), columns
    /// left to right: no table, no other pruning.
    fn alphabeta(&mut self, mut alpha: i32, beta: i32) -> i32 {
        if self.stones == self.w * self.h {
            return 0;
        }
        for col in 0..self.w {
            if self.heights[col] == self.h {
                continue;
            }
            let win = self.win_score();
            let score = if self.play(col) {
                win
            } else {
                -self.alphabeta(-beta, -alpha)
            };
            self.undo(col);
            if score >= beta {
                return beta;
            }
            alpha = alpha.max(score);
        }
        alpha
    }

    /// The exact score.
    fn score(&mut self) -> i32 {
        let bound = (self.w * self.h) as i32;
        self.alphabeta(-bound, bound)
    }
}

/// A random game of `ply` moves that nobody wins, as a move string and a grid,
/// or `None` if it was won on the way.
fn random_game(rng: &mut ChaCha8Rng, w: usize, h: usize, ply: usize) -> Option<(String, Grid)> {
    let mut g = Grid::new(w, h);
    let mut moves = String::new();
    for _ in 0..ply {
        let open: Vec<usize> = (0..w).filter(|&c| g.heights[c] < h).collect();
        let col = open[rng.random_range(0..open.len())];
        if g.play(col) {
            return None;
        }
        moves.push(c4solver::Position::column_symbol(col));
    }
    Some((moves, g))
}

/// `positions` random positions with at most `max_empty` empty cells, each
/// solved by both searches strong and weak and by the oracle.
fn check_random<const W: usize, const H: usize>(positions: usize, max_empty: usize, seed: u64) {
    let cells = W * H;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut solvers = [Config::reference(), Config::tuned()]
        .map(|c| Solver::<W, H>::new(Config { table_mb: 2, ..c }).unwrap());
    let mut signs = [0usize; 3];
    let mut checked = 0;
    while checked < positions {
        let ply = rng.random_range(cells.saturating_sub(max_empty)..cells);
        let Some((moves, mut g)) = random_game(&mut rng, W, H, ply) else {
            continue;
        };
        let pos = Board::<W, H>::parse(&moves).unwrap();
        let want = g.score();
        for solver in &mut solvers {
            let kind = solver.config().kind.name();
            let strong = solver.solve(&pos, Mode::Strong).unwrap().score;
            assert_eq!(strong, want, "{W}x{H} {moves}: {kind} strong");
            let weak = solver.solve(&pos, Mode::Weak).unwrap().score;
            assert_eq!(weak, want.signum(), "{W}x{H} {moves}: {kind} weak");
        }
        signs[(want.signum() + 1) as usize] += 1;
        checked += 1;
    }
    // The sample holds wins, draws and losses (not one-sided).
    assert!(signs.iter().all(|&n| n > 0), "{W}x{H}: {signs:?}");
}

// Three tests rather than one, so that the test harness runs them side by side.
#[test]
fn small_boards_against_alpha_beta_4x4_5x4() {
    check_random::<4, 4>(600, 16, 11);
    check_random::<5, 4>(600, 17, 12);
}

#[test]
fn small_boards_against_alpha_beta_4x5_6x4() {
    check_random::<4, 5>(600, 17, 13);
    check_random::<6, 4>(500, 16, 14);
}

#[test]
fn small_boards_against_alpha_beta_4x6_5x5() {
    check_random::<4, 6>(500, 16, 15);
    check_random::<5, 5>(500, 17, 16);
}

/// The empty board's score by the oracle, by both searches, and Tromp's sign.
fn check_empty<const W: usize, const H: usize>(tromp: i32) {
    let want = Grid::new(W, H).score();
    assert_eq!(
        want.signum(),
        tromp,
        "{W}x{H}: the oracle against Tromp's table"
    );
    for config in [Config::reference(), Config::tuned()] {
        let mut solver = Solver::<W, H>::new(Config {
            table_mb: 8,
            ..config
        })
        .unwrap();
        let got = solver.solve(&Board::<W, H>::new(), Mode::Strong).unwrap();
        assert_eq!(got.score, want, "{W}x{H}: {}", config.kind.name());
    }
}

#[test]
fn small_empty_boards_against_alpha_beta() {
    // Tromp: 4x4, 5x4 and 4x5 are draws.
    check_empty::<4, 4>(0);
    check_empty::<5, 4>(0);
    check_empty::<4, 5>(0);
}

/// The score column of `solve`'s output (`moves score nodes us`, the moves
/// empty for the empty board).
#[cfg(feature = "all-sizes")]
fn scores(out: &str) -> Vec<i32> {
    out.lines()
        .map(|l| l.split(' ').nth(1).unwrap().parse().unwrap())
        .collect()
}

#[cfg(feature = "all-sizes")]
#[test]
fn every_size_solves_through_the_command_line() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for size in Size::ALL {
        let (w, h, cells) = (size.width, size.height, size.cells());
        // Positions with 10 to 16 empty cells: quick for both searches.
        let mut lines = Vec::new();
        let mut grids = Vec::new();
        while lines.len() < 4 {
            let ply = cells - rng.random_range(10..=16);
            if let Some((moves, g)) = random_game(&mut rng, w, h, ply) {
                lines.push(moves);
                grids.push(g);
            }
        }
        let input = lines.join("\n") + "\n";
        let size_arg = size.to_string();
        let run = |solver: &str| {
            let (out, err, code) = c4solver(
                &[
                    "solve",
                    "--size",
                    &size_arg,
                    "--solver",
                    solver,
                    "--threads",
                    "1",
                ],
                &input,
            );
            assert_eq!(code, 0, "{size} {solver}: {err}");
            scores(&out)
        };
        let tuned = run("tuned");
        assert_eq!(tuned, run("reference"), "{size}: {lines:?}");
        // The oracle has the last word on the smallest boards.
        if cells <= 20 {
            let want: Vec<i32> = grids.iter_mut().map(Grid::score).collect();
            assert_eq!(tuned, want, "{size}: {lines:?}");
        }
        // Two threads on one position agree too.
        let (out, err, code) = c4solver(&["--size", &size_arg, "--threads", "2"], &lines[0]);
        assert_eq!(code, 0, "{size}: {err}");
        assert_eq!(scores(&out), vec![tuned[0]], "{size} two threads");
    }
}

#[cfg(feature = "all-sizes")]
#[test]
fn wide_boards_write_columns_past_nine_as_letters() {
    // 12x4: "a", "b", "c" are columns 10 to 12; a 13th column does not exist.
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let moves = loop {
        if let Some((m, _)) = random_game(&mut rng, 12, 4, 36)
            && m.contains(['a', 'b', 'c'])
        {
            break m;
        }
    };
    let input = format!("{moves}\n{}\nd\n1-\n", moves.to_uppercase());
    let (out, err, code) = c4solver(&["--size", "12x4"], &input);
    assert_eq!(code, 1, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4);
    let score = |line: &str| line.split(' ').nth(1).map(str::to_string);
    assert!(lines[0].starts_with(&format!("{moves} ")), "{out}");
    assert_eq!(score(lines[0]), score(lines[1]), "either case: {out}");
    assert_eq!(lines[2..], ["", ""]);
    assert!(
        err.contains("line 3: column 13 is out of range (1..=12) at move 1"),
        "{err}"
    );
    assert!(err.contains("line 4: bad character '-' at move 2"), "{err}");
    // On 7x6 a letter is still a bad character.
    let (_, err, code) = c4solver(&[], "4a\n");
    assert_eq!(code, 1);
    assert!(err.contains("bad character 'a' at move 2"), "{err}");
}

#[test]
fn sizes_outside_the_bitboard_are_refused() {
    for (size, reason) in [
        ("3x6", "too small"),
        ("7x3", "too small"),
        ("13x9", "130 bits, more than the 128 of the widest bitboard"),
        ("4x32", "132 bits"),
        ("12x7", "(96 bits) is not one of the sizes over 64 bits"),
        ("7by6", "expected WIDTHxHEIGHT"),
    ] {
        let (_, err, code) = c4solver(&["--size", size], "");
        assert_eq!(code, 2, "{size}");
        assert!(err.contains(reason), "{size}: {err}");
    }
    // A size this build leaves out names the feature that holds it.
    if !cfg!(feature = "all-sizes") {
        let (_, err, code) = c4solver(&["--size", "6x5"], "1\n");
        assert_eq!(code, 2);
        assert!(
            err.contains("board size 6x5 is not built into this program")
                && err.contains("--features all-sizes"),
            "{err}"
        );
        return;
    }
    // 7x6-only options name the board.
    #[cfg(feature = "research")]
    {
        let (_, err, code) = c4solver(&["--size", "6x5", "--table", "bounds"], "1\n");
        assert_eq!(code, 2);
        assert!(err.contains("7x6 board only, not 6x5"), "{err}");
    }
    let (_, err, code) = c4solver(&["book", "info", "--size", "6x5"], "");
    assert_eq!(code, 2);
    assert!(err.contains("no built-in 6x5 book"), "{err}");
    // A board over 64 bits has books (tests/integration/book_wide.rs), but no
    // built-in one; a file that is no book is refused as on 7x6.
    let (_, err, code) = c4solver(&["book", "info", "--size", "8x8"], "");
    assert_eq!(code, 2);
    assert!(err.contains("no built-in 8x8 book"), "{err}");
    let file = std::env::temp_dir().join(format!("c4-wide-book-{}", std::process::id()));
    std::fs::write(&file, b"not a book").unwrap();
    let (_, err, code) = c4solver(&["--size", "10x6", "--book", file.to_str().unwrap()], "1\n");
    std::fs::remove_file(&file).unwrap();
    assert_eq!(code, 2);
    assert!(err.contains("not a c4solver book"), "{err}");
}

/// On the 78-bit 6x12 board a table must hold about `2^22` 8-byte slots for its
/// 56-bit partial keys to stay exact: a smaller one is refused (exit 2) with the
/// least size that works, for both searches, and that size solves.
#[cfg(feature = "all-sizes")]
#[test]
fn tables_too_small_for_78_bit_keys_are_refused() {
    let moves = "1223113142652133666253553526544362231554266625315251124564";
    let mut grid = Grid::new(6, 12);
    for ch in moves.chars() {
        assert!(!grid.play(ch.to_digit(10).unwrap() as usize - 1), "{moves}");
    }
    let want = grid.score();
    let line = format!("{moves}\n");
    for solver in ["tuned", "reference"] {
        let run = |mb: &str| {
            let args = [
                "--size",
                "6x12",
                "--solver",
                solver,
                "--threads",
                "1",
                "--table-mb",
                mb,
            ];
            c4solver(&args, &line)
        };
        let (_, err, code) = run("8");
        assert_eq!(code, 2, "{solver}: {err}");
        let least: usize = err
            .split("(at least ")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{solver}: {err}"));
        assert!(
            err.contains(
                "a 8 MB table is too small for its partial keys to stay exact on this board"
            ),
            "{err}"
        );
        assert!(
            (30..=34).contains(&least),
            "about 2^22 slots of 8 bytes: {least} MB"
        );
        let (_, err, code) = run(&(least - 1).to_string());
        assert_eq!(code, 2, "{solver} {}: {err}", least - 1);
        let (out, err, code) = run(&least.to_string());
        assert_eq!(code, 0, "{solver} {least}: {err}");
        assert_eq!(scores(&out), [want], "{solver}");
    }
}

/// Late positions (`empty` cells left) of a board over 64 bits: each solved by
/// the tuned and the reference search through the command line and by the
/// oracle; its mirror image solved to the same score; `analyze`'s best column
/// scoring the position's score.
#[cfg(feature = "all-sizes")]
fn check_wide(size: Size, positions: usize, empty: std::ops::RangeInclusive<usize>, seed: u64) {
    let (w, h, cells) = (size.width, size.height, size.cells());
    assert!(size.is_wide(), "{size}");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut lines, mut want) = (Vec::new(), Vec::new());
    // Random late positions are mostly won by the side to move: draw until the
    // sample also holds a loss.
    let has_loss = |want: &[i32]| want.iter().any(|&s| s < 0);
    while lines.len() < positions || !has_loss(&want) {
        let ply = cells - rng.random_range(empty.clone());
        if let Some((moves, mut g)) = random_game(&mut rng, w, h, ply) {
            let score = g.score();
            if lines.len() < positions || score < 0 {
                want.push(score);
                lines.push(moves);
            }
        }
    }
    let size_arg = size.to_string();
    let solve = |solver: &str, lines: &[String]| {
        let args = ["--size", &size_arg, "--solver", solver, "--threads", "1"];
        let (out, err, code) = c4solver(&args, &(lines.join("\n") + "\n"));
        assert_eq!(code, 0, "{size} {solver}: {err}");
        scores(&out)
    };
    assert_eq!(solve("tuned", &lines), want, "{size}: {lines:?}");
    assert_eq!(solve("reference", &lines), want, "{size}: {lines:?}");
    let mirrored: Vec<String> = lines
        .iter()
        .map(|m| {
            m.chars()
                .map(|ch| {
                    let col = (0..w)
                        .position(|c| c4solver::Position::column_symbol(c) == ch)
                        .unwrap();
                    c4solver::Position::column_symbol(w - 1 - col)
                })
                .collect()
        })
        .collect();
    assert_eq!(solve("tuned", &mirrored), want, "{size} mirrored");
    let (out, err, code) = c4solver(
        &["analyze", "--size", &size_arg],
        &(lines.join("\n") + "\n"),
    );
    assert_eq!(code, 0, "{size}: {err}");
    for (line, &score) in out.lines().zip(&want) {
        let columns: Vec<i32> = line
            .split(' ')
            .skip(1)
            .map(|s| s.parse().unwrap())
            .collect();
        assert_eq!(columns.len(), w, "{line}");
        assert_eq!(columns.iter().max(), Some(&score), "{size}: {line}");
    }
}

#[cfg(feature = "all-sizes")]
#[test]
fn boards_over_64_bits_against_alpha_beta_8x8_10x6() {
    // At least 40 filled cells: 8x8 with 48 to 54 stones, 10x6 with 44 to 50.
    check_wide(Size::new(8, 8).unwrap(), 12, 10..=16, 88);
    check_wide(Size::new(10, 6).unwrap(), 12, 10..=16, 106);
}

/// `serve --size 10x6`: late positions (columns past the ninth written as
/// letters) get the oracle's score from `/analyze` and the command line's
/// analysis from `/analyze` and `/solve`; `/health` names the board; a column
/// past the tenth is the command line's error, 400.
#[cfg(feature = "all-sizes")]
#[test]
fn serve_on_a_board_over_64_bits() {
    use serde_json::{Value, json};
    let server =
        crate::common::server::Server::start(&["--size", "10x6", "--threads", "2", "--quiet"]);
    assert_eq!(server.health()["size"], "10x6");
    let mut rng = ChaCha8Rng::seed_from_u64(1006);
    let (mut checked, mut letters) = (0, 0);
    while checked < 8 {
        let ply = 60 - rng.random_range(10..=14);
        let Some((moves, mut g)) = random_game(&mut rng, 10, 6, ply) else {
            continue;
        };
        let (out, err, code) = c4solver(
            &["analyze", "--size", "10x6", "--json"],
            &format!("{moves}\n"),
        );
        assert_eq!(code, 0, "{moves}: {err}");
        let cli: Value = serde_json::from_str(out.trim()).unwrap();
        let got = server.get(&format!("/analyze?pos={moves}")).json();
        assert_eq!(got["score"], json!(g.score()), "{moves}");
        for field in ["scores", "best", "score"] {
            assert_eq!(got[field], cli[field], "{moves} {field}");
        }
        let scores: Vec<Value> = cli["scores"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| if s.is_null() { json!(100) } else { s.clone() })
            .collect();
        let solve = server.get(&format!("/solve?pos={moves}"));
        assert_eq!(solve.json(), json!({"pos": moves, "score": scores}));
        letters += usize::from(moves.contains('a'));
        checked += 1;
    }
    assert!(letters > 0, "some position plays the tenth column");
    let (_, err, code) = c4solver(&["analyze", "--size", "10x6"], "4b\n");
    assert_eq!(code, 1);
    let message = err.trim_end().trim_start_matches("c4solver: line 1: ");
    let bad = server.get("/analyze?pos=4b");
    assert_eq!(bad.status, 400, "{}", bad.body);
    assert_eq!(bad.json()["error"], json!(message));
}

#[cfg(feature = "all-sizes")]
#[test]
fn boards_over_64_bits_against_alpha_beta_the_others() {
    for (i, &size) in c4solver::Size::WIDE.iter().enumerate() {
        if ![(8, 8), (10, 6)].contains(&(size.width, size.height)) {
            check_wide(size, 6, 10..=14, 500 + i as u64);
        }
    }
}

#[cfg(feature = "all-sizes")]
#[test]
fn analyze_on_other_sizes_gives_the_oracles_scores() {
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    for (w, h) in [(5, 4), (4, 5), (6, 4)] {
        let size = format!("{w}x{h}");
        let mut checked = 0;
        while checked < 20 {
            let ply = w * h - rng.random_range(6..=14);
            let Some((moves, mut g)) = random_game(&mut rng, w, h, ply) else {
                continue;
            };
            let (out, err, code) = c4solver(&["analyze", "--size", &size, "--pv"], &moves);
            assert_eq!(code, 0, "{size} {moves}: {err}");
            let fields: Vec<&str> = out.split_whitespace().collect();
            assert_eq!(fields.len(), 1 + w + 1, "{size} {moves}: {out}");
            for col in 0..w {
                let want = if g.heights[col] == h {
                    -1000
                } else {
                    let win = g.win_score();
                    let s = if g.play(col) { win } else { -g.score() };
                    g.undo(col);
                    s
                };
                assert_eq!(
                    fields[1 + col],
                    want.to_string(),
                    "{size} {moves} col {col}"
                );
            }
            checked += 1;
        }
    }
}

/// Generated positions on a small board: each label is the oracle's and its
/// moves left put it in the bucket asked for.
#[cfg(feature = "all-sizes")]
#[test]
fn generate_on_other_sizes_labels_like_the_oracle() {
    for (stage, difficulty) in [("end", "easy"), ("middle", "medium"), ("middle", "easy")] {
        let (out, err, code) = c4solver(
            &[
                "generate",
                "--size",
                "5x4",
                "--stage",
                stage,
                "--difficulty",
                difficulty,
                "--count",
                "30",
                "--threads",
                "1",
            ],
            "",
        );
        assert_eq!(code, 0, "{err}");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 30);
        for line in lines {
            let (moves, score) = line.split_once(' ').unwrap();
            let score: i32 = score.parse().unwrap();
            let mut g = Grid::new(5, 4);
            for ch in moves.chars() {
                assert!(!g.play(ch.to_digit(10).unwrap() as usize - 1), "{line}");
            }
            assert_eq!(g.score(), score, "{line}");
            let stones = moves.len();
            assert_eq!(Stage::of_on(20, stones).name(), stage, "{line}");
            assert_eq!(
                Difficulty::of_score_on(20, stones, score).name(),
                difficulty,
                "{line}"
            );
        }
    }
}

/// A 5x4 book of every position up to 6 stones, through the command line: its
/// answers are the book-free solver's on every position it holds.
#[cfg(feature = "all-sizes")]
#[test]
fn book_generate_on_another_size() {
    let dir = std::env::temp_dir().join(format!("c4-sizes-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let book = dir.join("5x4.c4book");
    let book_arg = book.to_str().unwrap();
    let (_, err, code) = c4solver(
        &[
            "book", "generate", "--size", "5x4", "--depth", "6", "--out", book_arg,
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let (_, err, code) = c4solver(&["book", "verify", "--size", "5x4", book_arg], "");
    assert_eq!(code, 0, "{err}");
    // Every position of up to 4 stones, from the book and searched.
    let mut lines = Vec::new();
    let mut stack = vec![String::new()];
    while let Some(m) = stack.pop() {
        lines.push(m.clone());
        if m.len() < 4 {
            for c in '1'..='5' {
                let next = format!("{m}{c}");
                if Board::<5, 4>::parse(&next).is_ok() {
                    stack.push(next);
                }
            }
        }
    }
    let input = lines.join("\n") + "\n";
    let (with_book, err, code) = c4solver(&["--size", "5x4", "--book", book_arg], &input);
    assert_eq!(code, 0, "{err}");
    let (without, err, code) = c4solver(&["--size", "5x4", "--no-book"], &input);
    assert_eq!(code, 0, "{err}");
    assert_eq!(scores(&with_book), scores(&without));
    // The book answered with no search.
    assert!(with_book.lines().all(|l| l.split(' ').nth(2) == Some("0")));
    // A 5x4 book is not a 4x5 one.
    let (_, err, code) = c4solver(&["--size", "4x5", "--book", book_arg], "1\n");
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("the book is for a 5x4 board, not 4x5"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(feature = "all-sizes")]
#[test]
fn with_size_reaches_the_library_for_every_size() {
    fn empty_score_bound<const W: usize, const H: usize, B: Bits>() -> (i32, i32) {
        (Board::<W, H, B>::MIN_SCORE, Board::<W, H, B>::MAX_SCORE)
    }
    for size in Size::ALL {
        let (lo, hi) = with_size!(size, empty_score_bound());
        // A win with the fourth stone: (cells + 1 - 6) / 2 for the first player.
        assert_eq!(hi, ((size.cells() + 1 - 6) / 2) as i32, "{size}");
        assert_eq!(lo, -((size.cells() as i32) / 2) + 3, "{size}");
    }
}
