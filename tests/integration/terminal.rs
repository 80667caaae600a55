//! The command line on a real terminal (a pseudo-terminal made by util-linux's
//! `script`): the hint of a bare `c4solver` reading a terminal, `play` without
//! colour under `NO_COLOR`, and Ctrl-C while `play` thinks leaving no spinner on
//! the screen (checked on a model of the screen that the output draws).

use crate::common;

use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// How long a test waits for something that takes milliseconds before it fails.
const PATIENCE: Duration = Duration::from_secs(60);

/// Runs `command` (`$C` is the binary) with `sh` on a new 80x24 terminal; its
/// stdin goes to the terminal as typed.
fn on_a_terminal(command: &str) -> Child {
    Command::new("script")
        .args(["-qec"])
        .arg(format!("stty rows 24 cols 80; {command}"))
        .arg("/dev/null")
        .env("C", env!("CARGO_BIN_EXE_c4solver"))
        .env("TERM", "xterm")
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("script (util-linux) runs")
}

/// The terminal's output as it comes, in chunks, from a thread.
fn output_of(child: &mut Child) -> mpsc::Receiver<Vec<u8>> {
    let mut out = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = out.read(&mut buf) {
            if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    rx
}

/// Collects output until it contains `what` (or the terminal closes, if
/// `what` is empty).
fn until(rx: &mpsc::Receiver<Vec<u8>>, seen: &mut Vec<u8>, what: &str) {
    while what.is_empty() || !String::from_utf8_lossy(seen).contains(what) {
        match rx.recv_timeout(PATIENCE) {
            Ok(chunk) => seen.extend(chunk),
            Err(mpsc::RecvTimeoutError::Disconnected) if what.is_empty() => return,
            Err(e) => panic!(
                "{e:?} waiting for {what:?} in {:?}",
                String::from_utf8_lossy(seen)
            ),
        }
    }
}

fn typed(stdin: &mut ChildStdin, keys: &[u8]) {
    stdin.write_all(keys).unwrap();
    stdin.flush().unwrap();
}

#[test]
fn bare_c4solver_on_a_terminal_says_how_to_end_the_input() {
    let mut child = on_a_terminal("exec \"$C\"");
    let rx = output_of(&mut child);
    let mut stdin = child.stdin.take().unwrap();
    let mut seen = Vec::new();
    // Regression: it waited with no word.
    until(
        &rx,
        &mut seen,
        "c4solver: reading positions from stdin, one per line; Ctrl-D to end",
    );
    typed(&mut stdin, b"4455\n");
    until(&rx, &mut seen, "4455 18 0 ");
    // Ctrl-D: the end of the input.
    typed(&mut stdin, b"\x04");
    until(&rx, &mut seen, "");
    assert!(child.wait().unwrap().success());
    // Not on a pipe: scripts see only the answers.
    let out = common::c4().stdin(Stdio::null()).output().unwrap();
    assert!(out.stderr.is_empty());
}

/// `play --start 4455 --first solver` up to the solver's first move, then `q`:
/// what the terminal received.
fn a_game_on_a_terminal(env: &str) -> String {
    let mut child = on_a_terminal(&format!(
        "{env} exec \"$C\" play --start 4455 --first solver"
    ));
    let rx = output_of(&mut child);
    let mut stdin = child.stdin.take().unwrap();
    let mut seen = Vec::new();
    until(&rx, &mut seen, "your move");
    typed(&mut stdin, b"q\n");
    until(&rx, &mut seen, "");
    assert!(child.wait().unwrap().success());
    String::from_utf8(seen).unwrap()
}

/// Whether `text` sets a colour or an attribute (an SGR sequence, `ESC [ ... m`);
/// the spinner's line clears (`ESC [ 2K`) are no colour.
fn has_colour(text: &str) -> bool {
    text.split("\x1b[").skip(1).any(|seq| {
        seq.chars()
            .find(|c| !c.is_ascii_digit() && *c != ';')
            .is_some_and(|c| c == 'm')
    })
}

#[test]
fn no_color_draws_the_discs_as_letters() {
    let coloured = a_game_on_a_terminal("");
    assert!(has_colour(&coloured), "{coloured:?}");
    // Regression: colour codes all the same, and both discs the same "●".
    let plain = a_game_on_a_terminal("NO_COLOR=1");
    assert!(!has_colour(&plain), "{plain:?}");
    assert!(
        plain.contains("You are o and play second; the solver is x."),
        "{plain}"
    );
    assert!(plain.contains("   .   .   x   x   x   .   ."), "{plain}");
    // An empty NO_COLOR asks for nothing (no-color.org).
    assert!(has_colour(&a_game_on_a_terminal("NO_COLOR=")));
}

/// A screen of `width` columns that `bytes` are drawn on: text, `\r`, `\n`,
/// and the escape sequences the program and the terminal's echo send (cursor up,
/// clear line; colours ignored). A character written in the last column leaves
/// the cursor there until the next one, which wraps to the next line first, as
/// terminals do.
fn screen(bytes: &[u8], width: usize) -> Vec<String> {
    let text = String::from_utf8_lossy(bytes);
    let mut rows: Vec<Vec<char>> = vec![Vec::new()];
    let (mut row, mut col, mut pending) = (0usize, 0usize, false);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => (col, pending) = (0, false),
            '\n' => {
                row += 1;
                pending = false;
                if rows.len() <= row {
                    rows.push(Vec::new());
                }
            }
            '\x1b' => {
                let mut seq = String::new();
                if chars.peek() == Some(&'[') {
                    chars.next();
                    while let Some(&d) = chars.peek() {
                        chars.next();
                        if d.is_ascii_alphabetic() {
                            seq.push(d);
                            break;
                        }
                        seq.push(d);
                    }
                }
                let n = seq[..seq.len().saturating_sub(1)].parse().unwrap_or(1);
                match seq.chars().last() {
                    Some('A') => row = row.saturating_sub(n),
                    Some('K') if seq.starts_with('2') => rows[row].clear(),
                    Some('K') => rows[row].truncate(col),
                    _ => {}
                }
                pending = false;
            }
            c if c.is_control() => {}
            c => {
                if pending {
                    row += 1;
                    col = 0;
                    pending = false;
                    if rows.len() <= row {
                        rows.push(Vec::new());
                    }
                }
                let line = &mut rows[row];
                if line.len() <= col {
                    line.resize(col + 1, ' ');
                }
                line[col] = c;
                if col + 1 == width {
                    pending = true;
                } else {
                    col += 1;
                }
            }
        }
    }
    rows.into_iter()
        .map(|r| r.into_iter().collect::<String>().trim_end().to_string())
        .collect()
}

#[test]
fn the_screen_model_wraps_as_a_terminal_does() {
    let rows = |r: &[&str]| r.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(screen(b"ab\r\x1b[2Kcd\n", 3), rows(&["cd", ""]));
    // A full line: the next character wraps, and a clear clears the new line.
    assert_eq!(screen(b"abc^C\r\x1b[2K", 3), rows(&["abc", ""]));
    // Room left: the echo stays on the line, and the clear takes both.
    assert_eq!(screen(b"a^C\r\x1b[2K", 3), rows(&[""]));
    assert_eq!(screen(b"x\r\ny\x1b[1A\r\x1b[2K", 3), rows(&["", "y"]));
    // A line feed alone moves down, not back.
    assert_eq!(screen(b"x\ny", 3), rows(&["x", " y"]));
}

#[test]
fn ctrl_c_while_the_solver_thinks_leaves_no_spinner() {
    // Without the book the solver's first move takes tens of seconds.
    let mut child = on_a_terminal("exec \"$C\" play --first solver --no-book");
    let rx = output_of(&mut child);
    let mut stdin = child.stdin.take().unwrap();
    let mut seen = Vec::new();
    until(&rx, &mut seen, "thinking");
    // Ctrl-C as typed: the terminal echoes `^C` and signals the program.
    typed(&mut stdin, b"\x03");
    until(&rx, &mut seen, "");
    let status = child.wait().unwrap();
    assert!(!status.success());
    let shown = screen(&seen, 80);
    // Regression: the spinner filled the line to the last column, the echoed
    // `^C` wrapped below it, and the spinner's last clear cleared that line.
    assert!(
        shown.iter().all(|l| !l.contains("thinking")),
        "{}",
        shown.join("\n")
    );
    assert!(
        shown
            .iter()
            .any(|l| l.contains("1   2   3   4   5   6   7")),
        "{}",
        shown.join("\n")
    );
}
