//! Hostile input through the built binary: every bad line gets its own error on
//! stderr (`c4solver: [file: ]line N: reason`) and an empty line on stdout, every
//! good line is still solved in its place, and the exit code is the documented one
//! (1 for invalid lines or mismatches, 2 for unreadable files and resource errors,
//! 130 when interrupted).

use crate::common;

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// End positions from Pons' `Test_L3_R1` (30 stones or more: solved in microseconds).
const A: (&str, i32) = ("2252576253462244111563365343671351441", -1);
const B: (&str, i32) = ("7422341735647741166133573473242566", 1);
const C: (&str, i32) = ("23163416124767223154467471272416755633", 0);

fn line(p: (&str, i32)) -> String {
    format!("{} {}", p.0, p.1)
}

/// Runs the binary with `args`, feeding `stdin` from another thread.
fn run(args: &[&str], stdin: &[u8]) -> Output {
    common::output(args, stdin)
}

fn stdout_lines(out: &Output) -> Vec<String> {
    String::from_utf8(out.stdout.clone())
        .expect("stdout is UTF-8")
        .lines()
        .map(str::to_string)
        .collect()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Checks that an output line reports `moves` with `score`.
fn assert_solved(got: &str, p: (&str, i32)) {
    let fields: Vec<&str> = got.split(' ').collect();
    assert_eq!(fields.len(), 4, "{got:?}");
    assert_eq!(
        (fields[0], fields[1]),
        (p.0, p.1.to_string().as_str()),
        "{got:?}"
    );
}

/// A file in the test's scratch folder.
fn scratch(name: &str, contents: &[u8]) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("hostile");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

#[test]
fn invalid_utf8_is_one_bad_line() {
    let input = format!("{}\n44\u{0}\n{}\n", line(A), line(B)).replace('\u{0}', "\u{1}");
    let mut bytes = input.into_bytes();
    // replace the \x01 marker by two bytes that are not UTF-8
    let at = bytes.iter().position(|&b| b == 1).unwrap();
    bytes.splice(at..=at, [0xff, 0xfe]);
    let out = run(&["solve"], &bytes);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stderr(&out), "c4solver: line 2: invalid UTF-8 at byte 2\n");
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), 3);
    assert_solved(&lines[0], A);
    assert_eq!(lines[1], "");
    assert_solved(&lines[2], B);
}

#[test]
fn nul_bytes_are_bad_characters() {
    let input = format!("4\u{0}5\n{}\n\u{0}\n", line(C));
    let out = run(&[], input.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "c4solver: line 1: bad character '\\0' at move 2\n\
         c4solver: line 3: bad character '\\0' at move 1\n"
    );
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0], "");
    assert_solved(&lines[1], C);
    assert_eq!(lines[2], "");
}

#[test]
fn ten_megabyte_lines_are_cut_and_rejected() {
    let mut input = format!("{}\n", line(A)).into_bytes();
    // a valid start followed by 10 MB of blanks: only "too long" is wrong with it
    input.extend_from_slice(B.0.as_bytes());
    input.extend(std::iter::repeat_n(b' ', 10 << 20));
    input.extend_from_slice(b"x\n");
    // 10 MB of moves: the first real error in the kept part is reported
    input.extend(std::iter::repeat_n(b'4', 10 << 20));
    input.push(b'\n');
    input.extend_from_slice(line(C).as_bytes());
    let out = run(&["solve"], &input);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "c4solver: line 2: line is longer than 4096 bytes\n\
         c4solver: line 3: column 4 is already full at move 7\n"
    );
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), 4);
    assert_solved(&lines[0], A);
    assert_eq!(lines[1], "");
    assert_eq!(lines[2], "");
    assert_solved(&lines[3], C);
}

#[test]
fn ten_thousand_invalid_lines_then_a_valid_one() {
    let mut input = "8\n".repeat(10_000);
    input.push_str(&line(B));
    let out = run(&["solve"], input.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    let errors: Vec<&str> = err.lines().collect();
    assert_eq!(errors.len(), 10_000);
    assert_eq!(
        errors[9_999],
        "c4solver: line 10000: column 8 is out of range (1..=7) at move 1"
    );
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), 10_001);
    assert!(lines[..10_000].iter().all(String::is_empty));
    assert_solved(&lines[10_000], B);
}

#[test]
fn missing_file_among_valid_files() {
    let a = scratch(
        "missing-a.txt",
        format!("{}\n{}\n", line(A), line(B)).as_bytes(),
    );
    let c = scratch("missing-c.txt", format!("{}\n", line(C)).as_bytes());
    let missing = a.with_file_name("does-not-exist.txt");
    let out = run(
        &[
            "solve",
            a.to_str().unwrap(),
            missing.to_str().unwrap(),
            c.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "c4solver: cannot read {}: No such file or directory (os error 2)\n",
            missing.display()
        )
    );
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), 3);
    assert_solved(&lines[0], A);
    assert_solved(&lines[1], B);
    assert_solved(&lines[2], C);
}

#[test]
fn directory_given_as_a_file() {
    let a = scratch("dir-a.txt", format!("{}\n", line(A)).as_bytes());
    let dir = a.parent().unwrap();
    let out = run(&["solve", dir.to_str().unwrap(), a.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!("c4solver: cannot read {}: is a directory\n", dir.display())
    );
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), 1);
    assert_solved(&lines[0], A);
}

#[test]
fn bad_line_in_a_file_names_the_file() {
    let a = scratch("named.txt", format!("{}\n4x\n", line(A)).as_bytes());
    let out = run(&["solve", "--", a.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        format!(
            "c4solver: {}: line 2: bad character 'x' at move 2\n",
            a.display()
        )
    );
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), 2);
    assert_solved(&lines[0], A);
    assert_eq!(lines[1], "");
}

#[test]
fn crlf_and_tabs_are_accepted() {
    let input = format!("{}\r\n\t{}\t{}\t\r\n  {}  \r\n", line(A), B.0, B.1, C.0);
    let out = run(&["solve"], input.as_bytes());
    assert_eq!(stderr(&out), "");
    assert_eq!(out.status.code(), Some(0));
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), 3);
    assert_solved(&lines[0], A);
    assert_solved(&lines[1], B);
    assert_solved(&lines[2], C);
}

#[test]
fn second_field_not_a_number() {
    let input = format!("{} abc\n{} 1.5\n{}\n", A.0, B.0, line(C));
    let out = run(&["solve"], input.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "c4solver: line 1: expected score \"abc\" is not a number\n\
         c4solver: line 2: expected score \"1.5\" is not a number\n"
    );
    let lines = stdout_lines(&out);
    assert_eq!(lines, vec![String::new(), String::new(), lines[2].clone()]);
    assert_solved(&lines[2], C);
}

#[test]
fn score_out_of_range_or_wrong() {
    let input = format!(
        "{} 19\n{} -99999999999999999999\n{} 2\n{}\n",
        A.0,
        B.0,
        C.0,
        line(A)
    );
    let out = run(&["solve"], input.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    // Regression: a number too long for an integer type was "not a number".
    let (lo, hi) = common::Position7x6::parse(B.0).unwrap().score_range();
    assert_eq!(
        stderr(&out),
        format!(
            "c4solver: line 1: expected score 19 is out of range (-2..=3)\n\
             c4solver: line 2: expected score -99999999999999999999 is out of range ({lo}..={hi})\n\
             c4solver: line 3: strong score 0 differs from expected 2\n"
        )
    );
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), 4);
    assert_eq!((lines[0].as_str(), lines[1].as_str()), ("", ""));
    // a mismatched score is still printed
    assert_solved(&lines[2], C);
    assert_solved(&lines[3], A);
}

#[test]
fn weak_win_in_one_prints_the_sign() {
    // Regression: the weak solver printed the strong score (18) of a win in one.
    let input = format!("121212 18\n{}\n", line(B));
    let out = run(&["solve", "--weak"], input.as_bytes());
    assert_eq!(stderr(&out), "");
    assert_eq!(out.status.code(), Some(0));
    let lines = stdout_lines(&out);
    assert_solved(&lines[0], ("121212", 1));
    assert_solved(&lines[1], (B.0, 1));
}

#[test]
fn json_reports_bad_lines_in_place() {
    let input = format!("{}\n9\n", line(A));
    let out = run(&["solve", "--json"], input.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), 2);
    assert!(
        lines[0].contains(&format!("\"moves\":\"{}\"", A.0)),
        "{}",
        lines[0]
    );
    assert!(lines[0].contains("\"score\":-1"), "{}", lines[0]);
    assert_eq!(
        lines[1],
        r#"{"error":"column 9 is out of range (1..=7) at move 1","line":2}"#
    );
}

#[test]
fn huge_table_is_a_clear_error() {
    for args in [
        &["--table-mb", "100000000", "solve", "--threads", "1"][..],
        &["solve", "--table-mb", "100000000", "--threads", "1"][..],
        &["--threads", "1", "--table-mb", "100000000"][..],
    ] {
        let out = run(args, format!("{}\n", line(A)).as_bytes());
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(
            stderr(&out),
            "c4solver: cannot allocate a table of 100000000 MB: not enough memory\n"
        );
        assert!(out.stdout.is_empty());
    }
    // Shared out among workers, the total is named, and each one's share.
    let out = run(
        &["--threads", "4", "--table-mb", "18446744073709551615"],
        b"4455\n",
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "c4solver: cannot allocate tables of 18446744073709551615 MB in all \
         (4611686018427387903 MB for each of 4 workers): not enough memory\n"
    );
}

#[test]
fn bench_interrupted_prints_finished_rows() {
    let quick = scratch(
        "quick-set",
        format!("{}\n{}\n", line(A), line(B)).as_bytes(),
    );
    // A long set: Pons' Middle-Medium if present, else its first three positions
    // (0.2 to 3 s each for the reference solver) many times over.
    let pons = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/pons-testsets/Test_L2_R2");
    let long = if pons.is_file() {
        pons
    } else {
        let three = "274552224131661 0\n5455174361263362 -1\n2531276566711153 2\n";
        scratch("long-set", three.repeat(50).as_bytes())
    };
    let child = common::c4()
        .args(["bench", "--solver", "reference", "--strong"])
        .arg(&quick)
        .arg(&long)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Let it load the sets, install its handler and finish the quick set.
    let out = interrupt_after(child, 2);
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("quick-set"), "{text}");
    // The long set's row, if any position of it was solved, says how far it got.
    let long_name = long.file_name().unwrap().to_str().unwrap();
    for row in text.lines().filter(|l| l.contains(long_name)) {
        assert!(row.contains("(interrupted)"), "{row}");
    }
    assert!(
        text.contains("Interrupted: only the positions solved before the stop are counted."),
        "{text}"
    );
    assert!(text.contains("Mismatches: 0"), "{text}");
}

#[test]
fn generate_rejects_impossible_buckets() {
    // Regression: End x Medium searched forever.
    let out = run(
        &[
            "generate",
            "--stage",
            "end",
            "--difficulty",
            "medium",
            "--count",
            "1",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with(
            "error: end positions are never medium: they end within 13 moves \
             (possible: end easy; middle easy or medium; begin easy, medium or hard)"
        ),
        "{}",
        stderr(&out)
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn generate_huge_count_is_interruptible() {
    // Regression: a huge --count aborted at once (capacity overflow).
    use std::io::{BufRead, BufReader};
    let mut child = common::c4()
        .args(["generate", "--stage", "end", "--difficulty", "easy"])
        .args(["--count", &usize::MAX.to_string(), "--seed", "3"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Interrupt once the first position is out (however loaded the machine is).
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    assert!(!first.is_empty(), "generate printed nothing");
    let reader = std::thread::spawn(move || {
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut rest).unwrap();
        rest
    });
    let out = interrupt_after(child, 0);
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    let rest = reader.join().unwrap();
    // What was kept is printed, each line a valid End position with its score.
    for l in std::iter::once(first.trim_end()).chain(rest.lines()) {
        let (moves, score) = l.split_once(' ').unwrap();
        let p = common::Position7x6::parse(moves).unwrap();
        assert!(p.moves_played() >= 29, "{l}");
        assert!((-18..=18).contains(&score.parse::<i32>().unwrap()), "{l}");
    }
}

#[test]
fn solve_options_before_the_subcommand_are_an_error() {
    let out = run(&["--weak", "solve"], format!("{}\n", line(A)).as_bytes());
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out)
            .starts_with("error: --weak goes after the subcommand: `c4solver solve --weak`"),
        "{}",
        stderr(&out)
    );
    // engine options are fine on either side
    let out = run(
        &["--table-mb", "80", "solve"],
        format!("{}\n", line(A)).as_bytes(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_solved(&stdout_lines(&out)[0], A);
}

/// Sends SIGINT to `child` after `secs` seconds and collects its output.
fn interrupt_after(child: std::process::Child, secs: u64) -> Output {
    std::thread::sleep(std::time::Duration::from_secs(secs));
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    child.wait_with_output().unwrap()
}
