//! End-to-end tests of `c4solver analyze`: the tutorial program's `-a` lines, byte
//! for byte; weak signs; the principal variation field; JSON; expected scores;
//! invalid lines; exit codes.

use crate::common::{Position7x6, Solver7x6, c4, run_stdin, text};

use c4solver::{Config, Mode};

/// Lines of the bundled sets (`moves score`) and what the tutorial's final
/// program prints for their moves with `-a` (`c4solver -a -b /nonexistent`, no
/// opening book): full columns (-1000), wins at once (17 with 8 stones down, 13
/// with 16), every stage.
const TUTORIAL: [(&str, &str); 8] = [
    (
        "317125365677263145631455163157 6",
        "317125365677263145631455163157 -1000 6 -6 6 -1000 -6 -6",
    ),
    (
        "357764656655524426657442143123337712 0",
        "357764656655524426657442143123337712 -3 -3 -3 -1000 -1000 -1000 0",
    ),
    (
        "6677757621657542 13",
        "6677757621657542 -13 -13 -13 -13 -13 -13 13",
    ),
    (
        "472472125321525 14",
        "472472125321525 -13 -13 14 -13 3 -13 -13",
    ),
    (
        "31227753552622266376557 2",
        "31227753552622266376557 -9 -1000 -9 2 -9 -9 -9",
    ),
    ("3535657324111 15", "3535657324111 -2 -2 -2 12 15 10 8"),
    ("16623536563 -4", "16623536563 -15 -15 -4 -15 -15 -15 -15"),
    ("33772344 17", "33772344 17 16 16 16 17 16 16"),
];

fn input() -> String {
    TUTORIAL.iter().map(|(i, _)| format!("{i}\n")).collect()
}

#[test]
fn the_lines_of_the_tutorials_program_byte_for_byte() {
    let out = run_stdin(&["analyze"], &input());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let want: String = TUTORIAL.iter().map(|(_, o)| format!("{o}\n")).collect();
    assert_eq!(text(&out.stdout), want);
    assert!(out.stderr.is_empty());
    // Without the expected scores, the same lines.
    let moves: String = TUTORIAL
        .iter()
        .map(|(i, _)| format!("{}\n", i.split(' ').next().unwrap()))
        .collect();
    assert_eq!(text(&run_stdin(&["analyze"], &moves).stdout), want);
}

#[test]
fn weak_scores_are_the_signs() {
    let out = run_stdin(&["analyze", "-w"], &input());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let got = text(&out.stdout);
    for ((_, strong), weak) in TUTORIAL.iter().zip(got.lines()) {
        let want: Vec<String> = strong
            .split(' ')
            .enumerate()
            .map(|(i, f)| match f.parse::<i32>() {
                Ok(-1000) | Err(_) => f.to_string(),
                Ok(s) if i > 0 => s.signum().to_string(),
                Ok(_) => f.to_string(),
            })
            .collect();
        assert_eq!(weak, want.join(" "));
    }
}

#[test]
fn the_principal_variation_is_one_more_field() {
    let out = run_stdin(&["analyze", "--pv"], &input());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let mut solver = Solver7x6::with_builtin_book(Config::default()).unwrap();
    for ((_, strong), line) in TUTORIAL.iter().zip(text(&out.stdout).lines()) {
        let (scores, pv) = line.rsplit_once(' ').unwrap();
        assert_eq!(scores, *strong);
        let moves = strong.split(' ').next().unwrap();
        let pos = Position7x6::parse(moves).unwrap();
        let want = solver.principal_variation(&pos, Mode::Strong).unwrap();
        assert_eq!(pv, want.to_string());
        // The line is legal to the end: the game is over after it (a four, or a
        // full board).
        let mut p = pos;
        let last = pv.len() - 1;
        for (i, b) in pv.bytes().enumerate() {
            let c = usize::from(b - b'1');
            if i == last && p.is_winning_move(c) {
                break;
            }
            assert!(p.can_play(c) && !p.is_winning_move(c), "{line}");
            p.play_col(c);
            assert!(i < last || p.is_full(), "{line}");
        }
    }
}

#[test]
fn json_lines() {
    let input = "33772344\n357764656655524426657442143123337712 3\n44a\n";
    let out = run_stdin(&["analyze", "--json", "--pv"], input);
    assert_eq!(out.status.code(), Some(1));
    let lines: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    let a = &lines[0];
    assert_eq!(a["line"], 1);
    assert_eq!(a["moves"], "33772344");
    assert_eq!(a["scores"], serde_json::json!([17, 16, 16, 16, 17, 16, 16]));
    assert_eq!(a["best"], serde_json::json!([1, 5]));
    assert_eq!(a["score"], 17);
    // A win at once: the best move nearest the centre is column 5.
    assert_eq!(a["pv"], "5");
    assert!(a["nodes"].as_u64().is_some() && a["time_us"].as_u64().is_some());
    assert_eq!(a["expected"], serde_json::Value::Null);
    assert_eq!(a["ok"], true);
    let b = &lines[1];
    assert_eq!(
        b["scores"],
        serde_json::json!([-3, -3, -3, null, null, null, 0])
    );
    assert_eq!(b["best"], serde_json::json!([7]));
    assert_eq!(b["expected"], 3);
    assert_eq!(b["ok"], false);
    assert_eq!(lines[2]["line"], 3);
    assert_eq!(lines[2]["error"], "bad character 'a' at move 3");
    assert_eq!(
        text(&out.stderr),
        "c4solver: line 2: strong score 0 differs from expected 3\n\
         c4solver: line 3: bad character 'a' at move 3\n"
    );
}

#[test]
fn expected_scores_invalid_lines_and_files() {
    // The expected score is the position's: the best move's score.
    let out = run_stdin(
        &["analyze"],
        "33772344 16\n1212121\n33772344 17\n4455 18 x\n",
    );
    assert_eq!(out.status.code(), Some(1));
    let line = "33772344 17 16 16 16 17 16 16";
    assert_eq!(text(&out.stdout), format!("{line}\n\n{line}\n\n"));
    assert_eq!(
        text(&out.stderr),
        "c4solver: line 1: strong score 17 differs from expected 16\n\
         c4solver: line 2: move 7 makes four in a row: the game is already over\n\
         c4solver: line 4: expected `moves [score]`, found 3 fields\n"
    );
    // Weak: the sign is compared.
    let out = run_stdin(&["analyze", "-w"], "33772344 16\n");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout), "33772344 1 1 1 1 1 1 1\n");
    // A file that cannot be read: exit 2, the others are still read.
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("analyze");
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("one.txt");
    std::fs::write(&f, "33772344\n").unwrap();
    let out = c4()
        .args(["analyze", "/nonexistent/x", f.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(text(&out.stdout), format!("{line}\n"));
    assert!(text(&out.stderr).starts_with("c4solver: cannot read /nonexistent/x: "));
}

#[test]
fn options_go_after_the_subcommand() {
    let out = c4().args(["-w", "analyze"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("`c4solver analyze --weak`"));
    #[cfg(feature = "research")]
    {
        let out = c4().args(["--stats", "analyze"]).output().unwrap();
        assert_eq!(out.status.code(), Some(2));
        assert!(text(&out.stderr).contains("`c4solver analyze` has no --stats"));
    }
    let out = c4().args(["--json", "play"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("`c4solver play` has no --json"));
}

#[test]
fn a_full_board_has_no_move() {
    // A drawn Middle-Medium position played out best fills the board with no four.
    let start = "274552224131661";
    let mut solver = Solver7x6::with_builtin_book(Config::default()).unwrap();
    let line = solver
        .principal_variation(&Position7x6::parse(start).unwrap(), Mode::Strong)
        .unwrap();
    let full = format!("{start}{line}");
    assert!(Position7x6::parse(&full).unwrap().is_full());
    let out = run_stdin(&["analyze", "--pv"], &format!("{full} 0\n"));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        format!("{full}{} -\n", " -1000".repeat(7))
    );
    let out = run_stdin(&["analyze", "--json", "--pv"], &format!("{full}\n"));
    let v: serde_json::Value = serde_json::from_str(text(&out.stdout).trim()).unwrap();
    assert_eq!(
        v["scores"],
        serde_json::json!([null, null, null, null, null, null, null])
    );
    assert_eq!(v["best"], serde_json::json!([]));
    assert_eq!((v["score"].as_i64(), v["pv"].as_str()), (Some(0), Some("")));
}
