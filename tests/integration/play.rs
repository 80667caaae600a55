//! `c4solver play` driven through stdin, as a script would: whole games at every
//! level, each solver move checked against solves of the position's children (a
//! best move at `perfect`, within the level's margin otherwise), the
//! last line checked against the game's real end, and the commands `h`, `u`, `q`,
//! invalid lines and the end of the input.

use crate::common::{self, Position7x6, Solver7x6, text};

use std::process::Output;

use c4solver::{Config, Mode};

/// A Middle-Medium position (Test_L2_R2, line 1): 15 stones, a draw.
const START: &str = "274552224131661";

fn play(args: &[&str], input: &str) -> Output {
    let args: Vec<&str> = std::iter::once("play")
        .chain(args.iter().copied())
        .collect();
    common::output(&args, input.as_bytes())
}

/// A human who plays the leftmost column that is not full: six lines of each
/// column, 1 to 7 (the lines for a full column are refused and asked again).
fn leftmost() -> String {
    (1..=7)
        .flat_map(|c| std::iter::repeat_n(format!("{c}\n"), 6))
        .collect()
}

/// The margin of each level (docs/cli.md).
fn margin(level: &str) -> i32 {
    match level {
        "perfect" => 0,
        "strong" => 2,
        "medium" => 5,
        "easy" => 10,
        _ => unreachable!(),
    }
}

/// Each column's score, by independent solves of the children.
fn scores(oracle: &mut Solver7x6, pos: &Position7x6) -> [Option<i32>; 7] {
    std::array::from_fn(|c| {
        if !pos.can_play(c) {
            None
        } else if pos.is_winning_move(c) {
            Some(pos.win_next_score())
        } else {
            let mut child = *pos;
            child.play_col(c);
            Some(-oracle.solve(&child, Mode::Strong).unwrap().score)
        }
    })
}

/// Replays the game that `out` shows: the human's lines in `input` (skipping those
/// that a full column refuses), the solver's moves from its `solver plays N` lines,
/// each checked against the level's margin; returns the result line the game must
/// end with, or `None` if the input ran out first.
fn replay(
    out: &Output,
    input: &str,
    start: &str,
    human_first: bool,
    level: &str,
) -> Option<String> {
    let stdout = text(&out.stdout);
    let mut replies = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("solver plays "))
        .map(|c| c.parse::<usize>().unwrap() - 1);
    let mut human = input.lines().map(|l| l.parse::<usize>().unwrap() - 1);
    let mut oracle = Solver7x6::with_builtin_book(Config::default()).unwrap();
    let mut pos = Position7x6::parse(start).unwrap();
    loop {
        let humans_turn = pos.moves_played() % 2 == usize::from(!human_first);
        let col = if humans_turn {
            let mut col = human.next()?;
            while !pos.can_play(col) {
                col = human.next()?;
            }
            col
        } else {
            let col = replies.next().expect("a reply of the solver");
            let s = scores(&mut oracle, &pos);
            let best = s.iter().flatten().max().copied().unwrap();
            let score = s[col].expect("the solver plays a free column");
            assert!(
                score >= best - margin(level),
                "{level}: column {} scores {score}, the best {best}: {s:?}",
                col + 1
            );
            if level == "perfect" {
                // The best move nearest the centre, the left one first.
                let nearest = (0..7)
                    .filter(|&c| s[c] == Some(best))
                    .min_by_key(|&c| (c.abs_diff(3), c))
                    .unwrap();
                assert_eq!(col, nearest, "{s:?}");
            }
            col
        };
        if pos.is_winning_move(col) {
            assert!(replies.next().is_none(), "no move after the end");
            return Some(
                if humans_turn {
                    "result: you win"
                } else {
                    "result: solver wins"
                }
                .into(),
            );
        }
        pos.play_col(col);
        if pos.is_full() {
            return Some("result: draw".into());
        }
    }
}

fn whole_game(level: &str, first: &str) {
    let input = leftmost();
    let out = play(
        &[
            "--level", level, "--first", first, "--seed", "7", "--start", START,
        ],
        &input,
    );
    let stdout = text(&out.stdout);
    let result = replay(&out, &input, START, first == "human", level)
        .expect("the human's lines fill the board: the game ends");
    assert_eq!(stdout.lines().last(), Some(result.as_str()), "{stdout}");
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with("result: ")).count(),
        1
    );
    assert!(!stdout.contains('\x1b'), "plain text when stdout is a pipe");
    // Refused lines (a full column) are reported and the game goes on: exit 1.
    let stderr = text(&out.stderr);
    let code = if stderr.is_empty() { 0 } else { 1 };
    assert_eq!(out.status.code(), Some(code), "{stderr}");
    for l in stderr.lines() {
        assert!(l.contains("is already full at move"), "{l}");
    }
}

#[test]
fn perfect_game() {
    whole_game("perfect", "human");
    whole_game("perfect", "solver");
}

#[test]
fn strong_game() {
    whole_game("strong", "human");
    whole_game("strong", "solver");
}

#[test]
fn medium_game() {
    whole_game("medium", "human");
    whole_game("medium", "solver");
}

#[test]
fn easy_game() {
    whole_game("easy", "human");
    whole_game("easy", "solver");
}

/// From the empty board, the solver first at `perfect`: a human who always answers
/// column 1 loses. Cheap since the built-in opening book holds every position of
/// up to 12 stones (a few hundredths of a second in a debug build): it runs with
/// the others.
#[test]
fn always_column_one_loses_to_perfect_play() {
    let input = "1\n".repeat(21);
    let out = play(&["--first", "solver"], &input);
    let result = replay(&out, &input, "", false, "perfect");
    assert_eq!(result.as_deref(), Some("result: solver wins"));
    assert_eq!(
        text(&out.stdout).lines().last(),
        Some("result: solver wins")
    );
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn always_column_one_loses_from_a_start() {
    // The same human from a drawn Middle-Medium position: perfect play wins.
    let input = "1\n".repeat(21);
    let out = play(&["--first", "solver", "--start", START], &input);
    let result = replay(&out, &input, START, false, "perfect");
    assert_eq!(result.as_deref(), Some("result: solver wins"));
    assert_eq!(
        text(&out.stdout).lines().last(),
        Some("result: solver wins")
    );
}

#[test]
fn the_same_seed_plays_the_same_game() {
    let input = leftmost();
    let args = ["--level", "easy", "--seed", "42", "--start", START];
    assert_eq!(play(&args, &input).stdout, play(&args, &input).stdout);
}

#[test]
fn invalid_lines_are_asked_again_and_the_input_may_end_first() {
    // The human (first player) to move at move 11.
    let start = "4445555422";
    let out = play(&["--start", start], "8\nx\n\n0\n1\n");
    let stderr = text(&out.stderr);
    assert_eq!(
        stderr,
        "c4solver: line 1: column 8 is out of range (1..=7) at move 11\n\
         c4solver: line 2: expected a column (1-7), h, u or q, found \"x\"\n\
         c4solver: line 4: column 0 is out of range (1..=7) at move 11\n"
    );
    let stdout = text(&out.stdout);
    // The human's 1 was played, then the solver's reply; then the input ended.
    assert_eq!(
        stdout
            .lines()
            .filter(|l| l.starts_with("solver plays"))
            .count(),
        1
    );
    assert!(!stdout.contains("result:"), "{stdout}");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn hints_take_backs_and_quit() {
    let start = "4445555422";
    let out = play(&["--start", start], "h\n1\nu\nu\nq\n7\n");
    let stdout = text(&out.stdout);
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
    assert_eq!(out.status.code(), Some(0));
    // h: every column's score for the human, as the library's analysis gives them.
    let pos = Position7x6::parse(start).unwrap();
    let mut solver = Solver7x6::with_builtin_book(Config::default()).unwrap();
    let a = solver.analyze(&pos, Mode::Strong).unwrap();
    let row: String = a
        .scores()
        .iter()
        .map(|s| s.map_or("   -".to_string(), |s| format!("{s:>4}")))
        .collect();
    let hint = stdout
        .lines()
        .find(|l| l.contains("your score per column"))
        .unwrap();
    assert!(hint.starts_with(&row), "{hint:?} vs {row:?}");
    assert!(hint.ends_with(&format!("best: {}", a.best_move().unwrap() + 1)));
    // u after the human's 1 and the reply: back to the start; a second u has
    // nothing to take back (the start is never taken back); q ends quietly, and
    // the 7 after it is never read.
    assert_eq!(stdout.matches("nothing to take back").count(), 1);
    let boards: Vec<&str> = stdout.split("   1   2   3   4   5   6   7\n").collect();
    let first = boards[0].lines().rev().take(6).collect::<Vec<_>>();
    let undone = boards[3].lines().rev().take(6).collect::<Vec<_>>();
    assert_eq!(first, undone, "{stdout}");
    assert!(!stdout.contains("result:"));
}

#[test]
fn a_bad_start_is_refused() {
    let out = play(&["--start", "1212121"], "");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "c4solver: --start 1212121: move 7 makes four in a row: the game is already over\n"
    );
    // A full board that holds no four (START, a draw, played out best): a draw at
    // once.
    let mut solver = Solver7x6::with_builtin_book(Config::default()).unwrap();
    let line = solver
        .principal_variation(&Position7x6::parse(START).unwrap(), Mode::Strong)
        .unwrap();
    let full = format!("{START}{line}");
    assert!(Position7x6::parse(&full).unwrap().is_full());
    let out = play(&["--start", &full], "");
    assert_eq!(text(&out.stdout).lines().last(), Some("result: draw"));
    assert_eq!(out.status.code(), Some(0));
}
