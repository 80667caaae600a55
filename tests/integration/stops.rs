//! Stops with real signals: every finished answer reaches stdout at once (a pipe
//! or a file) and survives SIGINT and SIGTERM, and a long search stops within a
//! second of the signal, in `solve`, `bench`, `generate`, `analyze` and `play`.
//!
//! The slow line is the empty board (tens of seconds); the tests never wait for it
//! to finish.

use crate::common;

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// End-Easy positions: solved in microseconds.
const A: &str = "2252576253462244111563365343671351441";
const B: &str = "7422341735647741166133573473242566";

/// How long a test waits for something that takes milliseconds before it fails.
const PATIENCE: Duration = Duration::from_secs(60);

fn scratch(name: &str, contents: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("stops");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

/// The command, without the opening book: the empty board must take a search.
fn c4(args: &[&str]) -> Command {
    let mut c = common::c4();
    c.args(args)
        .arg("--no-book")
        .stdin(Stdio::null())
        .stderr(Stdio::piped());
    c
}

/// Sends `signal` ("INT", "TERM") to `child`, waits for it, and returns its exit
/// code and how long it took to end after the signal.
fn signal_and_wait(child: &mut Child, signal: &str) -> (Option<i32>, Duration) {
    let sent = Instant::now();
    let kill = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let status = child.wait().unwrap();
    (status.code(), sent.elapsed())
}

/// Reads `child`'s stdout lines on a thread, as they come.
fn lines_of(child: &mut Child) -> mpsc::Receiver<String> {
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if tx.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    rx
}

fn solved(line: &str, moves: &str) -> bool {
    line.split(' ').next() == Some(moves) && line.split(' ').count() == 4
}

/// Two quick lines then the empty board, through a pipe: the two answers arrive
/// while the third line is still being solved, and the signal keeps them.
fn finished_lines_reach_a_pipe_and_survive(signal: &str, code: i32) {
    let input = scratch(&format!("three-{signal}.txt"), &format!("{A}\n{B}\n\n"));
    let mut child = c4(&["solve", input.to_str().unwrap()])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let lines = lines_of(&mut child);
    let first = lines.recv_timeout(PATIENCE).expect("first answer at once");
    let second = lines.recv_timeout(PATIENCE).expect("second answer at once");
    assert!(solved(&first, A), "{first}");
    assert!(solved(&second, B), "{second}");
    // The empty board is being solved now: nothing more comes for a while.
    assert!(lines.recv_timeout(Duration::from_millis(300)).is_err());
    let (status, took) = signal_and_wait(&mut child, signal);
    assert_eq!(status, Some(code));
    assert!(took < Duration::from_secs(1), "took {took:?} to stop");
    // Nothing else was printed: the unfinished line has no answer.
    assert!(lines.recv_timeout(PATIENCE).is_err());
}

#[test]
fn sigint_keeps_every_finished_line_in_a_pipe() {
    finished_lines_reach_a_pipe_and_survive("INT", 130);
}

#[test]
fn sigterm_keeps_every_finished_line_in_a_pipe() {
    finished_lines_reach_a_pipe_and_survive("TERM", 143);
}

#[test]
fn finished_lines_reach_a_file_at_once_and_survive() {
    let input = scratch("three-file.txt", &format!("{A}\n{B}\n\n"));
    let out_path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("stops/out.txt");
    let out = std::fs::File::create(&out_path).unwrap();
    let mut child = c4(&["solve", input.to_str().unwrap()])
        .stdout(out)
        .spawn()
        .unwrap();
    let start = Instant::now();
    let text = loop {
        let text = std::fs::read_to_string(&out_path).unwrap();
        if text.lines().count() >= 2 {
            break text;
        }
        assert!(start.elapsed() < PATIENCE, "answers never reached the file");
        std::thread::sleep(Duration::from_millis(20));
    };
    let (status, took) = signal_and_wait(&mut child, "INT");
    assert_eq!(status, Some(130));
    assert!(took < Duration::from_secs(1), "took {took:?} to stop");
    let lines: Vec<&str> = text.lines().collect();
    assert!(solved(lines[0], A) && solved(lines[1], B), "{text}");
    assert_eq!(std::fs::read_to_string(&out_path).unwrap(), text);
}

#[test]
fn a_long_search_stops_within_a_second() {
    // The empty board on stdin, alone; the search is well under way after 1 s.
    let mut child = c4(&["solve"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(b"\n").unwrap();
        // stdin stays open: a run waiting for more input must stop too.
        std::thread::sleep(Duration::from_secs(1));
        let (status, took) = signal_and_wait(&mut child, "INT");
        assert_eq!(status, Some(130));
        assert!(took < Duration::from_secs(1), "took {took:?} to stop");
        drop(stdin);
    }
}

#[test]
fn a_run_waiting_for_input_stops_at_once() {
    let mut child = c4(&["solve"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let stdin = child.stdin.take().unwrap();
    std::thread::sleep(Duration::from_millis(500));
    let (status, took) = signal_and_wait(&mut child, "TERM");
    assert_eq!(status, Some(143));
    assert!(took < Duration::from_secs(1), "took {took:?} to stop");
    drop(stdin);
}

#[test]
fn bench_stops_inside_a_long_position() {
    let set = scratch("slow-set", &format!("{A} -1\n 1\n"));
    let mut child = c4(&["bench", "--strong", set.to_str().unwrap()])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let lines = lines_of(&mut child);
    std::thread::sleep(Duration::from_secs(1));
    let (status, took) = signal_and_wait(&mut child, "INT");
    assert_eq!(status, Some(130));
    assert!(took < Duration::from_secs(1), "took {took:?} to stop");
    let text: Vec<String> = lines.iter().collect();
    let row = text
        .iter()
        .find(|l| l.contains("slow-set"))
        .unwrap_or_else(|| panic!("no row: {text:?}"));
    assert!(row.contains("slow-set, 1 of 2 (interrupted)"), "{row}");
    assert!(text.iter().any(|l| l == "Mismatches: 0"), "{text:?}");
}

#[test]
fn generate_stops_between_and_inside_searches() {
    // Begin x Hard candidates are rare and some take seconds.
    let mut child = c4(&[
        "generate",
        "--stage",
        "begin",
        "--difficulty",
        "hard",
        "--count",
        "1000",
    ])
    .stdout(Stdio::piped())
    .spawn()
    .unwrap();
    let lines = lines_of(&mut child);
    std::thread::sleep(Duration::from_secs(1));
    let (status, took) = signal_and_wait(&mut child, "INT");
    assert_eq!(status, Some(130));
    assert!(took < Duration::from_secs(1), "took {took:?} to stop");
    for l in lines.iter() {
        let (moves, score) = l.split_once(' ').unwrap();
        let p = common::Position7x6::parse(moves).unwrap();
        assert!(p.moves_played() <= 14, "{l}");
        score.parse::<i32>().unwrap();
    }
}

#[test]
fn analyze_keeps_finished_lines_and_stops_inside_a_long_analysis() {
    // Two quick lines, then the empty board (minutes without the book).
    let input = scratch("analyze-three.txt", &format!("{A}\n{B}\n\n"));
    let mut child = c4(&["analyze", input.to_str().unwrap()])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let lines = lines_of(&mut child);
    let first = lines.recv_timeout(PATIENCE).expect("first answer at once");
    let second = lines.recv_timeout(PATIENCE).expect("second answer at once");
    assert!(
        first.starts_with(&format!("{A} ")) && first.split(' ').count() == 8,
        "{first}"
    );
    assert!(second.starts_with(&format!("{B} ")), "{second}");
    assert!(lines.recv_timeout(Duration::from_millis(300)).is_err());
    let (status, took) = signal_and_wait(&mut child, "INT");
    assert_eq!(status, Some(130));
    assert!(took < Duration::from_secs(1), "took {took:?} to stop");
    assert!(lines.recv_timeout(PATIENCE).is_err());
}

#[test]
fn play_stops_while_the_solver_thinks_and_while_it_waits() {
    // Without the book, the solver's first move on the empty board takes tens of
    // seconds.
    let mut child = c4(&["play", "--first", "solver"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let stdin = child.stdin.take().unwrap();
    std::thread::sleep(Duration::from_secs(1));
    let (status, took) = signal_and_wait(&mut child, "INT");
    assert_eq!(status, Some(130));
    assert!(took < Duration::from_secs(1), "took {took:?} to stop");
    drop(stdin);
    // Waiting for the human's move.
    let mut child = c4(&["play", "--start", B])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let stdin = child.stdin.take().unwrap();
    let lines = lines_of(&mut child);
    // The board is drawn before the human is asked.
    let mut seen = Vec::new();
    while !seen
        .iter()
        .any(|l: &String| l.contains("1   2   3   4   5   6   7"))
    {
        seen.push(lines.recv_timeout(PATIENCE).expect("the board"));
    }
    let (status, took) = signal_and_wait(&mut child, "INT");
    assert_eq!(status, Some(130));
    assert!(took < Duration::from_secs(1), "took {took:?} to stop");
    drop(stdin);
}

/// `input` through `solve --threads N` without the book: the first answer is
/// waited for, then (time for the lines after the unfinished one to be solved:
/// they take microseconds) the run is stopped. Its whole stdout.
fn stopped_after_the_first_answer(name: &str, input: &str, threads: &str) -> Vec<String> {
    let file = scratch(name, input);
    let mut child = c4(&["solve", "--threads", threads, file.to_str().unwrap()])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let lines = lines_of(&mut child);
    let first = lines
        .recv_timeout(PATIENCE)
        .expect("the first answer at once");
    std::thread::sleep(Duration::from_millis(500));
    let (status, _) = signal_and_wait(&mut child, "INT");
    assert_eq!(status, Some(130));
    std::iter::once(first).chain(lines.iter()).collect()
}

#[test]
fn after_a_stop_the_output_still_lines_up_with_the_input() {
    // The empty board (an empty line) is the unfinished one; the lines after it
    // are quick, and other workers finish them before the stop. Regression: with
    // several threads they were printed (in the unfinished line's place), with
    // one the line was missing: either way the output paired the wrong lines.
    for (threads, input) in [
        ("1", format!("{A}\n\n{B}\n")),
        ("2", format!("{A}\n\n{B}\n")),
        ("3", format!("{A}\n\n{B}\n\n{A}\n")),
        ("4", format!("{B}\n{A}\n\n\n{B}\n{A}\n")),
    ] {
        let out = stopped_after_the_first_answer(&format!("align-{threads}.txt"), &input, threads);
        let lines: Vec<&str> = input.lines().collect();
        let finished = lines.iter().position(|l| l.is_empty()).unwrap();
        assert_eq!(out.len(), finished, "--threads {threads}: {out:?}");
        for (answer, line) in out.iter().zip(&lines) {
            assert!(
                solved(answer, line),
                "--threads {threads}: {answer} for {line}"
            );
        }
    }
}
