//! `c4solver book` and the book options end to end: the built-in book answers at
//! once, bad book files are clear errors (exit 2), `book info` describes, `bench
//! --book` compares, and `book generate` killed and restarted goes on where it
//! was, dropping a torn record.

use crate::common::{Book7x6, Position7x6, c4, run_stdin, text_lossy as text};

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A book file of `tests/data/books/`, written by the library: a 5x4 book of
/// one entry, and 7x6 shards 1 of 2 of one 4-stone entry each ("1234" scored 0,
/// "1123" scored -2).
fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/books")
        .join(name)
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("book-cli");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn the_empty_board_is_answered_from_the_built_in_book() {
    let o = run_stdin(&["solve"], "\n");
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let fields: Vec<&str> = out.split_whitespace().collect();
    assert_eq!(&fields[..2], ["1", "0"], "{out}");
    let o = run_stdin(&["solve", "-w", "--json"], "4\n");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["nodes"], 0, "{v}");
}

#[test]
fn bad_book_files_are_clear_errors() {
    let good = Book7x6::builtin().unwrap().bytes().to_vec();
    let mut flipped = good.clone();
    let last = flipped.len() - 1;
    flipped[last] ^= 0x04;
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("flipped", flipped, "checksum"),
        ("truncated", good[..good.len() - 3].to_vec(), "truncated"),
        (
            "header-only",
            good[..20].to_vec(),
            "shorter than the 32-byte header",
        ),
        ("not-a-book", b"4455 18\n".repeat(8), "bad magic"),
        (
            "other-board",
            std::fs::read(data("5x4-one-entry.c4book")).unwrap(),
            "for a 5x4 board, not 7x6",
        ),
    ];
    for (name, bytes, reason) in cases {
        let path = scratch(name);
        std::fs::write(&path, &bytes).unwrap();
        let p = path.to_str().unwrap();
        for args in [
            vec!["solve", "--book", p],
            vec!["book", "info", p],
            vec!["book", "verify", p],
        ] {
            let o = run_stdin(&args, "4\n");
            assert_eq!(o.status.code(), Some(2), "{args:?}");
            let err = text(&o.stderr);
            assert!(
                err.contains(reason) && err.contains(name),
                "{args:?}: {err}"
            );
            assert!(o.stdout.is_empty(), "{args:?}: no answer from a bad book");
        }
    }
    let o = run_stdin(&["solve", "--book", "/no/such/book"], "4\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("/no/such/book"));
}

#[test]
fn book_info_describes_the_built_in_book() {
    let book = Book7x6::builtin().unwrap();
    let o = run_stdin(&["book", "info", "--json"], "");
    assert!(o.status.success(), "{}", text(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["depth"], book.depth());
    assert_eq!(v["entries"], book.len());
    assert_eq!(v["bytes"], book.bytes().len());
    let by = v["by_stones"].as_array().unwrap();
    assert_eq!(by.len(), book.depth() + 1);
    assert_eq!(
        by[0],
        serde_json::json!({"stones":0,"won":1,"drawn":0,"lost":0})
    );
    // The same book from its file.
    let path = scratch("copy.c4book");
    std::fs::write(&path, book.bytes()).unwrap();
    let o = run_stdin(&["book", "info", path.to_str().unwrap()], "");
    assert!(o.status.success());
    let t = text(&o.stdout);
    assert!(t.contains(&format!("entries: {}", book.len())), "{t}");
    assert!(t.contains("| 0 | 1 | 0 | 0 | 1 |"), "{t}");
    // and as the book of a solve
    let o = run_stdin(&["solve", "--book", path.to_str().unwrap()], "\n");
    assert!(o.status.success());
    assert!(text(&o.stdout).starts_with(" 1 0 "), "{}", text(&o.stdout));
}

#[test]
fn bench_with_the_book_shows_both_side_by_side() {
    let set = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testsets/end-easy");
    let o = run_stdin(
        &[
            "bench",
            "--strong",
            "--limit",
            "2",
            set.to_str().unwrap(),
            "--book",
            "builtin",
        ],
        "",
    );
    let t = text(&o.stdout);
    assert!(o.status.success(), "{t}{}", text(&o.stderr));
    assert!(t.contains("|tuned|end-easy (End-Easy)|"), "{t}");
    assert!(t.contains("|tuned+book|end-easy (End-Easy)|"), "{t}");
    assert!(t.contains("time vs tuned"), "{t}");
}

#[test]
fn book_merge_checks_its_shards() {
    // One shard of two: refused, naming the missing one.
    // The shard holds one entry, "1234" scored 0.
    let shard = scratch("shard-1-of-2.c4book");
    std::fs::copy(data("7x6-shard-1-of-2-1234.c4book"), &shard).unwrap();
    let out = scratch("merged.c4book");
    let o = run_stdin(
        &[
            "book",
            "merge",
            shard.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("shard 2/2 is missing"),
        "{}",
        text(&o.stderr)
    );
    // A whole book merges into itself.
    let whole = scratch("whole.c4book");
    let bytes = Book7x6::builtin().unwrap().bytes().to_vec();
    std::fs::write(&whole, &bytes).unwrap();
    let o = run_stdin(
        &[
            "book",
            "merge",
            whole.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        "",
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(std::fs::read(&out).unwrap(), bytes);
}

/// Records in a checkpoint file (64-byte header, 32-byte records).
fn records(path: &std::path::Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len().saturating_sub(64) / 32)
}

/// Starts `book generate` on a one-block shard of the 9-stone layer (positions
/// that take a fraction of a second) and waits until the checkpoint holds more
/// than `at_least` records.
fn start_and_wait(out: &str, ckpt: &std::path::Path, at_least: u64) -> std::process::Child {
    let child = c4()
        .args([
            "book",
            "generate",
            "--depth",
            "9",
            "--shard",
            "1/4000",
            "--threads",
            "1",
            "--out",
            out,
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while records(ckpt) <= at_least {
        assert!(start.elapsed() < Duration::from_secs(120), "no progress");
        std::thread::sleep(Duration::from_millis(50));
    }
    child
}

#[test]
fn generate_killed_and_restarted_goes_on() {
    let out = scratch("gen9.c4book");
    let ckpt = PathBuf::from(format!("{}.ckpt", out.display()));
    let _ = std::fs::remove_file(&ckpt);
    let o = out.to_str().unwrap();
    // Ctrl-C: exit 130, the records kept.
    let child = start_and_wait(o, &ckpt, 0);
    Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    let r = child.wait_with_output().unwrap();
    assert_eq!(r.status.code(), Some(130));
    let err = text(&r.stderr);
    assert!(err.contains("run the same command again"), "{err}");
    let first = records(&ckpt);
    assert!(first >= 1);
    // Killed outright, then half a record left at the end as if by a crash.
    let mut child = start_and_wait(o, &ckpt, first);
    child.kill().unwrap();
    child.wait().unwrap();
    let second = records(&ckpt);
    assert!(second > first);
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&ckpt)
        .unwrap();
    f.write_all(&[7; 20]).unwrap();
    drop(f);
    // Restarted: the torn record is dropped, the others kept.
    let child = start_and_wait(o, &ckpt, second);
    Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    let r = child.wait_with_output().unwrap();
    assert_eq!(r.status.code(), Some(143));
    let err = text(&r.stderr);
    assert!(
        err.contains(&format!("{second} already in")) && err.contains("1 torn record(s) dropped"),
        "{err}"
    );
    assert!(records(&ckpt) > second);
    // Other arguments on this checkpoint are refused.
    let r = run_stdin(
        &[
            "book", "generate", "--depth", "9", "--shard", "2/4000", "--out", o,
        ],
        "",
    );
    assert_eq!(r.status.code(), Some(2));
    assert!(
        text(&r.stderr).contains("not for these arguments"),
        "{}",
        text(&r.stderr)
    );
}

/// `book export`'s lines of `stones` stones (with `--mirrors` when asked).
fn exported(stones: usize, mirrors: bool) -> Vec<String> {
    let k = stones.to_string();
    let mut args = vec!["book", "export", "--stones", &k];
    if mirrors {
        args.push("--mirrors");
    }
    let o = run_stdin(&args, "");
    assert!(o.status.success(), "{}", text(&o.stderr));
    text(&o.stdout).lines().map(String::from).collect()
}

/// The position and score of an exported line, checked to have `stones` stones.
fn parsed(line: &str, stones: usize) -> (Position7x6, i32) {
    let (moves, score) = line.split_once(' ').expect("MOVES SCORE");
    let pos = Position7x6::parse(moves).unwrap();
    assert_eq!(pos.moves_played(), stones, "{line}");
    (pos, score.parse().unwrap())
}

/// Runs `c4solver --json` (and `extra`) on `lines` and checks that every line
/// gets its own score back (`ok: true`).
fn read_back(lines: &[String], extra: &[&str]) {
    let mut args = vec!["--json"];
    args.extend_from_slice(extra);
    let o = run_stdin(&args, &lines.join("\n"));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let rows: Vec<serde_json::Value> = text(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), lines.len());
    for (row, line) in rows.iter().zip(lines) {
        let (_, score) = line.split_once(' ').expect("MOVES SCORE");
        assert_eq!(row["score"].to_string(), score, "{line}: {row}");
        assert_eq!(row["ok"], true, "{line}: {row}");
    }
}

#[test]
fn book_export_counts_equal_book_info_and_every_line_reads_back() {
    let info = run_stdin(&["book", "info", "--json"], "");
    assert!(info.status.success(), "{}", text(&info.stderr));
    let info: serde_json::Value = serde_json::from_slice(&info.stdout).unwrap();
    for stones in [1, 2, 5, 7] {
        let pairs = exported(stones, false);
        let both = exported(stones, true);
        // `book info` counts a position and its mirror image as two.
        let counted = &info["by_stones"][stones];
        assert_eq!(counted["stones"], stones);
        let sum: u64 = ["won", "drawn", "lost"]
            .iter()
            .map(|k| counted[k].as_u64().unwrap())
            .sum();
        assert_eq!(both.len() as u64, sum, "{stones} stones");
        // Both images of every pair, each once; one of each pair without `--mirrors`.
        let mut keys = std::collections::HashMap::new();
        for line in &both {
            let (pos, score) = parsed(line, stones);
            assert!(keys.insert(pos.key(), score).is_none(), "twice: {line}");
        }
        for (&key, score) in &keys {
            let pos = Position7x6::from_key(key).unwrap();
            assert_eq!(keys.get(&pos.mirror().key()), Some(score));
        }
        let mut canonical = std::collections::HashSet::new();
        for line in &pairs {
            let (pos, score) = parsed(line, stones);
            assert_eq!(keys.get(&pos.key()), Some(&score), "{line}");
            assert!(
                canonical.insert(pos.canonical_key()),
                "a pair twice: {line}"
            );
        }
        let pairs_of_both: std::collections::HashSet<u64> = keys
            .keys()
            .map(|&k| Position7x6::from_key(k).unwrap().canonical_key())
            .collect();
        assert_eq!(canonical, pairs_of_both, "{stones} stones");
    }
    // Read back by the command line with the book: every score as written.
    read_back(&exported(7, true), &[]);
}

#[test]
fn book_exports_scores_agree_with_a_book_free_search() {
    // 100 positions spread evenly over the 12 stones' list, solved without the
    // book (a second or two on one thread).
    let all = exported(12, false);
    let n = 100;
    assert!(all.len() > 1_000_000, "{}", all.len());
    let sample: Vec<String> = (0..n)
        .map(|i| all[(2 * i + 1) * all.len() / (2 * n)].clone())
        .collect();
    read_back(&sample, &["--no-book", "--threads", "1"]);
}

#[test]
fn book_export_refuses_the_empty_board_and_layers_the_book_lacks() {
    let o = run_stdin(&["book", "export", "--stones", "0"], "");
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert!(
        err.contains("the empty board (0 stones) has no moves to write"),
        "{err}"
    );
    assert!(err.contains("its score in built-in: 1"), "{err}");
    let depth = Book7x6::builtin().unwrap().depth();
    let k = (depth + 1).to_string();
    let o = run_stdin(&["book", "export", "--stones", &k], "");
    assert_eq!(o.status.code(), Some(2));
    let want = format!("built-in holds positions of 0 to {depth} stones, not {k}");
    assert!(text(&o.stderr).contains(&want), "{}", text(&o.stderr));
    let o = run_stdin(&["book", "export", "--threads", "2"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("has no --threads option"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn book_export_reads_a_book_file_a_shard_too() {
    // A sorted-entry shard of one 4-stone entry, its mirror image's moves kept.
    let key = Position7x6::parse("1123").unwrap().canonical_key();
    let shard = scratch("export-shard.c4book");
    std::fs::copy(data("7x6-shard-1-of-2-1123.c4book"), &shard).unwrap();
    let path = shard.to_str().unwrap();
    let o = run_stdin(&["book", "export", path, "--mirrors"], "");
    assert!(o.status.success(), "{}", text(&o.stderr));
    let lines: Vec<String> = text(&o.stdout).lines().map(String::from).collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    let (a, b) = (parsed(&lines[0], 4), parsed(&lines[1], 4));
    assert_eq!((a.0.key(), a.1), (key, -2));
    assert_eq!((b.0, b.1), (a.0.mirror(), -2));
    let o = run_stdin(&["book", "export", path, "--stones", "3"], "");
    assert_eq!(o.status.code(), Some(2));
    let want = format!("{path} holds positions of 4 to 4 stones, not 3");
    assert!(text(&o.stderr).contains(&want), "{}", text(&o.stderr));
}
