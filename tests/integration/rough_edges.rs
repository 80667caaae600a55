//! The rough edges a new user hit (issue 18), each reproduced end to end: the
//! command line does what the documentation says.

use crate::common;

use std::path::PathBuf;
use std::process::Output;

const A: &str = "2252576253462244111563365343671351441"; // score -1
const B: &str = "7422341735647741166133573473242566"; // score 1

fn scratch(name: &str, contents: &[u8]) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("rough-edges");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

fn run(args: &[&str], stdin: &str) -> Output {
    common::output(args, stdin.as_bytes())
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn bare_c4solver_reads_the_files_it_is_given() {
    // Regression: `c4solver bad.txt` was "unrecognized subcommand 'bad.txt'".
    let f = scratch("bare.txt", format!("{A}\n{B}\n").as_bytes());
    let o = run(&[f.to_str().unwrap()], "");
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let lines: Vec<String> = out(&o).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 2);
    assert!(lines[0].starts_with(&format!("{A} -1 ")), "{}", lines[0]);
    assert!(lines[1].starts_with(&format!("{B} 1 ")), "{}", lines[1]);
    let o = run(&["-w", "nope.txt"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).starts_with("c4solver: cannot read nope.txt: "),
        "{}",
        err(&o)
    );
}

#[cfg(feature = "research")]
#[test]
fn bench_compare_leaves_out_what_a_table_cannot_do_before_it_starts() {
    // Regression: with --table-mb 64,8 it ran the 64 MB rows, then stopped with
    // exit 2 on the 8 MB compact table. (An 8 MB compact table now works, with
    // 8-byte entries; a 0 MB one is what cannot be built.)
    let set = scratch("two", format!("{A} -1\n{B} 1\n").as_bytes());
    let o = run(
        &[
            "bench",
            "--compare",
            "--table-mb",
            "64,0,8",
            set.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(
        err(&o),
        "c4solver: left out tuned compact/always/0: table size of 0 MB is too small (at least 1 MB)\n"
    );
    assert!(out(&o).contains("|tuned|compact/always/64|"), "{}", out(&o));
    assert!(out(&o).contains("|tuned|compact/always/8|"), "{}", out(&o));
    assert!(!out(&o).contains("compact/always/0"), "{}", out(&o));
    // The same limit in `solve` is a clear error about the table; a small compact
    // table solves.
    let o = run(&["solve", "--table-mb", "0"], &format!("{A}\n"));
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("too small"), "{}", err(&o));
    let o = run(
        &["solve", "--threads", "1", "--table-mb", "8"],
        &format!("{A}\n"),
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(out(&o).starts_with(&format!("{A} -1 ")), "{}", out(&o));
}

#[test]
fn bench_reports_an_unreadable_set_once() {
    // Regression: the OS error was printed twice.
    let o = run(&["bench", "nope.txt"], "");
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        err(&o),
        "c4solver: cannot read nope.txt: No such file or directory (os error 2)\n"
    );
}

#[test]
fn bench_goes_on_after_a_bad_line_and_exits_with_1() {
    // Regression: a bad line stopped `bench` with exit 2 (the README says 1).
    let set = scratch("one-bad", format!("{A} -1\n4480 2\n{B} 1\n").as_bytes());
    let o = run(&["bench", "--strong", set.to_str().unwrap()], "");
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    assert!(
        err(&o).contains("one-bad: line 2: column 8 is out of range (1..=7) at move 3"),
        "{}",
        err(&o)
    );
    assert!(out(&o).contains("Mismatches: 0"), "{}", out(&o));
    let row = out(&o)
        .lines()
        .find(|l| l.contains("one-bad"))
        .unwrap()
        .to_string();
    // Two positions solved.
    assert!(row.starts_with("|tuned|one-bad|"), "{row}");
}

#[test]
fn bench_refuses_an_empty_run() {
    // Regression: `bench --limit 0` printed a table of zeros and exited 0.
    let o = run(&["bench", "--limit", "0"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("--limit"), "{}", err(&o));
    let empty = scratch("empty-set", b"\n\n");
    let o = run(&["bench", empty.to_str().unwrap()], "");
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        err(&o),
        "c4solver: nothing to run: the sets hold no valid position\n"
    );
}

#[cfg(feature = "research")]
#[test]
fn stats_work_with_the_default_search() {
    // Regression: `--stats` failed with the tuned search.
    let o = run(&["solve", "--stats", "--json"], &format!("{B}\n"));
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let v: serde_json::Value = serde_json::from_str(out(&o).trim()).unwrap();
    let stats = &v["stats"];
    assert!(stats["probes"].as_u64().unwrap() > 0, "{v}");
    assert!(stats["stores"].as_u64().unwrap() > 0, "{v}");
    let o = run(&["solve", "--stats"], &format!("{B}\n"));
    assert_eq!(o.status.code(), Some(0));
    assert!(
        err(&o).starts_with("c4solver: table stats: "),
        "{}",
        err(&o)
    );
}

#[test]
fn a_byte_order_mark_is_accepted() {
    // Regression: a UTF-8 BOM was "bad character '\u{feff}'".
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    bytes.extend_from_slice(format!("{A} -1\n{B} 1\n").as_bytes());
    let f = scratch("bom.txt", &bytes);
    let o = run(&["solve", f.to_str().unwrap()], "");
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(out(&o).starts_with(&format!("{A} -1 ")));
    let o = run(&["bench", "--strong", f.to_str().unwrap()], "");
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let o = run(&["solve"], &String::from_utf8(bytes).unwrap());
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
}

#[test]
fn weak_json_keeps_the_expected_score_as_given() {
    // Regression: `4455 3` in weak mode gave "expected":1.
    let o = run(&["solve", "-w", "--json"], "44455554221 -15\n4455 3\n");
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let lines: Vec<serde_json::Value> = out(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["expected"], -15);
    assert_eq!(lines[0]["score"], -1);
    assert_eq!(lines[1]["expected"], 3);
    assert_eq!(lines[1]["score"], 1);
    assert_eq!(lines[1]["ok"], true);
}

#[cfg(feature = "research")]
#[test]
fn table_options_choose_a_design_not_a_search() {
    // Regression: `--table bounds` silently switched to the part-7 search (about a
    // billion nodes on 4455); the tuned search with that design needs a handful.
    let o = run(&["solve", "--table", "bounds"], "4455\n");
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let text = out(&o);
    let f: Vec<&str> = text.split_whitespace().collect();
    assert_eq!(f[1], "18");
    assert!(f[2].parse::<u64>().unwrap() < 1000, "{f:?}");
    // The reference search is asked for by name.
    let o = run(
        &["solve", "--solver", "reference", "--table", "bounds"],
        &format!("{A}\n"),
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
}

#[test]
fn lists_are_for_bench_only() {
    let o = run(&["solve", "--table-mb", "64,128"], "");
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        err(&o),
        "c4solver: --table-mb takes a single value for `solve` (lists are for `bench`)\n"
    );
}
