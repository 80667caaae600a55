//! Figures from runs, stated once: `docs/sizes.tsv` holds the measured
//! empty-board results (score and nodes of one thread with no book, for each
//! board size and table size, each block under the command and date that measured
//! it), and every other place that states one of those node counts must state
//! the same number:
//!
//! * a number followed by `<!-- nodes WxH -->` in README.md or docs/*.md;
//! * a console example of the empty board on one thread with the defaults
//!   (`printf '\n' | c4solver [--size WxH] [--no-book] --threads 1`);
//! * a refreshed table of the empty board (`scripts/refresh-benchmarks.py`, a
//!   block whose command solves `""` with `--no-book --threads 1`): its `strong`
//!   row.
//!
//! And the recorded rows of the command line's default table (64 MB) are what the
//! program computes, run again through the command line in a build with the
//! `all-sizes` feature (`.ci/run` runs it; other builds list it as ignored): the
//! small ones, and with `C4_SLOW` set those up to 7x6.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::common;

/// The command line's table for one worker, in MB: the rows recorded with it are
/// those of `printf '\n' | c4solver --size WxH --no-book --threads 1`.
const DEFAULT_MB: u64 = 64;

/// Without `C4_SLOW`, the rows run again are those of at most this many nodes (a
/// fraction of a second each in the test build).
const QUICK_NODES: u64 = 1_000_000;

/// With `C4_SLOW`, those of at most this many: 7x6 among them (about 30 s of
/// the test build, whose debug assertions slow the search).
const SLOW_NODES: u64 = 45_000_000;

/// One solved empty board of `docs/sizes.tsv`.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Recorded {
    score: i32,
    nodes: u64,
    table_mb: u64,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The last solved strong result of each size in `docs/sizes.tsv` (as
/// `scripts/sizes-table.py` reads it: a later line replaces an earlier one).
fn recorded() -> BTreeMap<String, Recorded> {
    let text = std::fs::read_to_string(root().join("docs/sizes.tsv")).unwrap();
    let mut rows = BTreeMap::new();
    for line in text.lines() {
        if line.starts_with('#') || line.starts_with("size\t") || line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        assert!(f.len() >= 6, "docs/sizes.tsv: {line:?}");
        if f[1] != "strong" || f[2] == "?" {
            continue;
        }
        let row = Recorded {
            score: f[2].parse().unwrap(),
            nodes: f[3].parse().unwrap(),
            table_mb: f[5].parse().unwrap(),
        };
        rows.insert(f[0].to_string(), row);
    }
    rows
}

/// The checked documents ([`common::documents`]) with their text.
fn documents() -> Vec<(String, String)> {
    common::documents()
        .into_iter()
        .map(|n| {
            let text = std::fs::read_to_string(root().join(&n)).unwrap();
            (n, text)
        })
        .collect()
}

/// The number that ends `text`: digits with commas (`41,575,914`), or three
/// significant digits and a unit as `scripts/sizes-table.py` writes them
/// (`41.6 M`, `301 k`).
fn number_before(text: &str) -> Option<String> {
    let token = |t: &str| -> String {
        let start = t
            .rfind(|c: char| !(c.is_ascii_digit() || c == ',' || c == '.'))
            .map_or(0, |i| i + 1);
        t[start..].to_string()
    };
    for unit in [" k", " M", " G"] {
        if let Some(head) = text.strip_suffix(unit) {
            let n = token(head);
            return (!n.is_empty()).then(|| format!("{n}{unit}"));
        }
    }
    let n = token(text);
    (!n.is_empty()).then_some(n)
}

/// `nodes` as `scripts/sizes-table.py` rounds it (`nodes_text`): three
/// significant digits and k, M or G.
fn rounded(nodes: u64) -> String {
    for (unit, div) in [("G", 1e9), ("M", 1e6), ("k", 1e3)] {
        let x = nodes as f64 / div;
        if x >= 1.0 {
            let decimals = if x >= 99.95 {
                0
            } else if x >= 9.995 {
                1
            } else {
                2
            };
            let text = format!("{x:.decimals$}");
            let text = if text.contains('.') {
                text.trim_end_matches('0').trim_end_matches('.')
            } else {
                &text
            };
            return format!("{text} {unit}");
        }
    }
    nodes.to_string()
}

/// Whether a stated number means `nodes`: exactly, or rounded as the sizes table
/// rounds it.
fn states(stated: &str, nodes: u64) -> bool {
    stated.replace(',', "") == nodes.to_string() || stated == rounded(nodes)
}

/// Every `<!-- nodes WxH -->` of `text`: `(line, size, the number before it)`.
fn marked(text: &str) -> Vec<(usize, String, Option<String>)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let mut rest = line;
        let mut before = String::new();
        while let Some(at) = rest.find("<!-- nodes ") {
            before.push_str(&rest[..at]);
            let tail = &rest[at + "<!-- nodes ".len()..];
            let end = tail.find(" -->").expect("an unclosed <!-- nodes comment");
            out.push((i + 1, tail[..end].to_string(), number_before(&before)));
            rest = &tail[end + " -->".len()..];
        }
    }
    out
}

/// The board size of an empty-board example's command run on one thread with the
/// default table and no book (none exists but for 7x6), if it is one.
fn empty_board_example(command: &str) -> Option<String> {
    let cmd = command.strip_prefix("$ ")?;
    let rest = cmd
        .strip_prefix("printf '\\n' | c4solver")
        .or_else(|| cmd.strip_prefix("echo \"\" | c4solver"))?;
    let args: Vec<&str> = rest.split_whitespace().collect();
    let mut size = "7x6".to_string();
    let (mut one_thread, mut no_book) = (false, false);
    let mut i = 0;
    while i < args.len() {
        match args[i] {
            "--size" => {
                size = args.get(i + 1)?.to_string();
                i += 1;
            }
            "--threads" => {
                one_thread = args.get(i + 1) == Some(&"1");
                i += 1;
            }
            "--no-book" => no_book = true,
            "solve" => {}
            _ => return None,
        }
        i += 1;
    }
    (one_thread && (no_book || size != "7x6")).then_some(size)
}

/// `(score, nodes)` of a ` score nodes microseconds` line of the empty board.
fn answer(line: &str) -> Option<(i32, u64)> {
    let f: Vec<&str> = line.split_whitespace().collect();
    if f.len() != 3 {
        return None;
    }
    Some((f[0].parse().ok()?, f[1].parse().ok()?))
}

/// Every statement of an empty board's one-thread result in `text`: `(line,
/// size, score if stated, nodes)`.
fn statements(text: &str) -> Vec<(usize, String, Option<i32>, Option<String>)> {
    let mut out: Vec<_> = marked(text)
        .into_iter()
        .map(|(line, size, nodes)| (line, size, None, nodes))
        .collect();
    let lines: Vec<&str> = text.lines().collect();
    let mut refresh_of_empty = false;
    for (i, line) in lines.iter().enumerate() {
        if let Some(size) = empty_board_example(line) {
            let next = lines.get(i + 1).copied().unwrap_or("");
            let stated = answer(next);
            out.push((
                i + 2,
                size,
                stated.map(|s| s.0),
                stated.map(|s| s.1.to_string()),
            ));
        }
        if line.starts_with("<!-- refresh: ") {
            refresh_of_empty = line.contains("echo \"\" | c4solver solve")
                && line.contains("--no-book --threads 1");
        } else if line.starts_with("<!-- end refresh -->") {
            refresh_of_empty = false;
        } else if refresh_of_empty && line.starts_with("|strong|") {
            let cells: Vec<&str> = line.split('|').collect();
            out.push((
                i + 1,
                "7x6".into(),
                cells.get(2).and_then(|c| c.parse().ok()),
                cells.get(3).map(|c| c.to_string()),
            ));
        }
    }
    out
}

#[test]
fn every_statement_of_an_empty_boards_nodes_is_the_recorded_one() {
    let rows = recorded();
    let mut seen = 0;
    let mut wrong = Vec::new();
    for (name, text) in documents() {
        for (line, size, score, nodes) in statements(&text) {
            seen += 1;
            let place = format!("{name}:{line}");
            let Some(row) = rows.get(&size) else {
                wrong.push(format!(
                    "{place}: {size} has no solved row in docs/sizes.tsv"
                ));
                continue;
            };
            if row.table_mb != DEFAULT_MB {
                wrong.push(format!(
                    "{place}: {size} is recorded with a {} MB table, not the command line's {DEFAULT_MB} MB",
                    row.table_mb
                ));
            }
            if !nodes.as_deref().is_some_and(|n| states(n, row.nodes))
                || score.is_some_and(|s| s != row.score)
            {
                wrong.push(format!(
                    "{place}: {size}: states {score:?} {nodes:?}, docs/sizes.tsv records score {} and {} nodes",
                    row.score, row.nodes
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // The README's, the command line's and the benchmarks' statements were found.
    assert!(seen >= 5, "{seen} statements found");
}

#[test]
fn the_checker_reads_every_form_of_statement() {
    let text = "takes 41,575,914<!-- nodes 7x6 --> nodes, 41.6 M<!-- nodes 7x6 --> and 12<!-- nodes 4x4 -->\n\
                ```console\n\
                $ printf '\\n' | c4solver --size 6x5 --threads 1\n \
                0 300885 663387\n\
                $ printf '\\n' | c4solver --threads 1\n \
                1 0 3\n\
                ```\n\
                <!-- refresh: printf 'x'; echo \"\" | c4solver solve $f --no-book --threads 1 | awk -->\n\
                |strong|1|41575914|3.91 s|\n\
                <!-- end refresh -->\n\
                |strong|1|7|3.91 s|\n";
    assert_eq!(
        statements(text),
        vec![
            (1, "7x6".to_string(), None, Some("41,575,914".to_string())),
            (1, "7x6".to_string(), None, Some("41.6 M".to_string())),
            (1, "4x4".to_string(), None, Some("12".to_string())),
            (4, "6x5".to_string(), Some(0), Some("300885".to_string())),
            (9, "7x6".to_string(), Some(1), Some("41575914".to_string())),
        ]
    );
    for (stated, nodes, same) in [
        ("41,575,914", 41_575_914, true),
        ("41575914", 41_575_914, true),
        ("41.6 M", 41_575_914, true),
        ("41.5 M", 41_575_914, false),
        ("71.1 M", 41_575_914, false),
        ("301 k", 300_885, true),
        ("421 k", 300_885, false),
        ("4.08 M", 4_080_403, true),
        ("2.35 k", 2355, true),
        ("16.3 G", 16_336_816_601, true),
        ("300,886", 300_885, false),
    ] {
        assert_eq!(states(stated, nodes), same, "{stated} for {nodes}");
    }
}

/// Runs the command line on the empty `size` board, one thread, no book, the
/// default table: `(score, nodes)`.
fn program(size: &str) -> (i32, u64) {
    let out = common::output(
        &[
            "--size",
            size,
            "--no-book",
            "--threads",
            "1",
            "--table-mb",
            &DEFAULT_MB.to_string(),
        ],
        b"\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{size}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    answer(text.trim_end_matches('\n')).unwrap_or_else(|| panic!("{size}: {text:?}"))
}

#[test]
#[cfg_attr(
    not(feature = "all-sizes"),
    ignore = "the small sizes need the all-sizes feature: \
              cargo test --features all-sizes --test integration figures::"
)]
fn the_recorded_rows_of_the_default_table_are_what_the_program_computes() {
    let slow = std::env::var_os("C4_SLOW").is_some();
    let mut checked = Vec::new();
    for (size, row) in recorded() {
        let cost = if slow { SLOW_NODES } else { QUICK_NODES };
        if row.table_mb != DEFAULT_MB || row.nodes > cost {
            continue;
        }
        assert_eq!(
            program(&size),
            (row.score, row.nodes),
            "{size}: docs/sizes.tsv records (score, nodes) ({}, {}); re-measure with \
             `cargo run --features all-sizes --profile all-sizes --example tromp -- --table-mb 64 \
             --results FILE {size}`",
            row.score,
            row.nodes
        );
        checked.push(size);
    }
    assert!(checked.len() >= 10, "{checked:?}");
    if slow {
        assert!(checked.contains(&"7x6".to_string()), "{checked:?}");
    }
}
