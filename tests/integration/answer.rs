//! One answer on every surface (docs/answer.md): `c4solver analyze --json`, the
//! server's `/analyze` and the WebAssembly engine give the same `moves`, `score`,
//! `scores`, `best` and `book` for the same positions, the library's `Answer`
//! fields in its order (python/tests/test_analysis.py holds Python to the
//! command line's); and the two pages word a bad position alike.

use crate::common;
use crate::common::server::Server;
use crate::wasm;

use serde_json::{Value, json};

/// The fields every surface shares, in the order they are printed.
const FIELDS: [&str; 7] = [
    "moves", "score", "scores", "best", "book", "nodes", "time_us",
];

/// The empty board (book), a book position, a full column within the book's
/// depth, a win at once within the book's depth (not the book's), the 17 stones
/// of issue 58 (two full columns, searched), three full columns, and a win at
/// once past the book.
const POSITIONS: [&str; 7] = [
    "",
    "4455",
    "111111",
    "121212",
    "77777766666633442",
    "357764656655524426657442143123337712",
    "4455661122112211",
];

/// The command line's `analyze --json` of `POSITIONS`, a value each.
fn cli(extra: &[&str]) -> Vec<Value> {
    let mut args = vec!["analyze", "--json", "--threads", "1"];
    args.extend_from_slice(extra);
    let input: String = POSITIONS.iter().map(|m| format!("{m}\n")).collect();
    let out = common::output(&args, input.as_bytes());
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The keys of `v` in the order they were printed.
fn keys(text: &str) -> Vec<String> {
    let map: serde_json::Map<String, Value> = serde_json::from_str(text).unwrap();
    // serde_json's map is sorted: find each key's place in the text instead.
    let mut keys: Vec<String> = map.keys().cloned().collect();
    keys.sort_by_key(|k| text.find(&format!("\"{k}\":")).unwrap());
    keys
}

/// Checks `got` (one surface's answer to `POSITIONS[i]`) against the command
/// line's `want`, and the shared fields' order in `text`.
fn same(surface: &str, i: usize, text: &str, want: &Value) {
    let got: Value = serde_json::from_str(text).unwrap();
    for field in ["moves", "score", "scores", "best", "book"] {
        assert_eq!(
            got[field], want[field],
            "{surface}: {:?} {field}",
            POSITIONS[i]
        );
    }
    let order: Vec<String> = keys(text)
        .into_iter()
        .filter(|k| FIELDS.contains(&k.as_str()))
        .collect();
    assert_eq!(order, FIELDS, "{surface}: {text}");
}

#[test]
fn the_command_line_answers_with_the_librarys_fields() {
    let answers = cli(&["--pv"]);
    let book: Vec<bool> = answers
        .iter()
        .map(|a| a["book"].as_bool().unwrap())
        .collect();
    // The book scores the first three; a win at once and a search are not the book's.
    assert_eq!(book, [true, true, true, false, false, false, false]);
    for (i, a) in answers.iter().enumerate() {
        assert_eq!(a["moves"], POSITIONS[i]);
        let scores = a["scores"].as_array().unwrap();
        let top = scores.iter().filter_map(Value::as_i64).max().unwrap();
        assert_eq!(a["score"], top, "{a}");
        let best: Vec<usize> = (0..7)
            .filter(|&c| scores[c] == top)
            .map(|c| c + 1)
            .collect();
        assert_eq!(a["best"], json!(best));
        for (c, s) in scores.iter().enumerate() {
            let full = POSITIONS[i].matches(char::from(b'1' + c as u8)).count() == 6;
            assert_eq!(s.is_null(), full, "{a}: column {}", c + 1);
        }
    }
    // Issue 58's 17 stones: every move lets the opponent win at once, which the
    // search sees before counting a node. Searched all the same: not the book's.
    assert_eq!(
        (&answers[4]["nodes"], &answers[4]["book"]),
        (&json!(0), &json!(false))
    );
}

#[test]
fn the_server_answers_as_the_command_line() {
    for extra in [&[][..], &["--weak"][..]] {
        let want = cli(extra);
        let server = Server::start(&["--threads", "1"]);
        let weak = if extra.is_empty() { "" } else { "&weak=1" };
        for round in ["searched", "cached"] {
            for (i, m) in POSITIONS.iter().enumerate() {
                let reply = server.get(&format!("/analyze?pos={m}{weak}"));
                assert_eq!(reply.status, 200, "{m}: {}", reply.body);
                same(&format!("serve ({round})"), i, &reply.body, &want[i]);
                let keys = keys(&reply.body);
                assert_eq!(
                    keys.last().map(String::as_str),
                    Some("cached"),
                    "{}",
                    reply.body
                );
            }
        }
    }
    // A cached answer for another move order of the same position says the moves asked.
    let server = Server::start(&["--threads", "1"]);
    server.get("/analyze?pos=4455");
    let other = server.get("/analyze?pos=5544").json();
    assert_eq!(
        (other["moves"].as_str(), other["cached"].as_bool()),
        (Some("5544"), Some(true))
    );
}

#[test]
#[ignore = "needs node and the WebAssembly build: cargo test --test integration -- --ignored answer::webassembly_"]
fn webassembly_engine_answers_as_the_command_line() {
    let dir = wasm::built();
    // The page's books: the 12-stone book once book.c4book has arrived.
    let want = cli(&["--pv"]);
    let input: String = POSITIONS.iter().map(|m| format!("{m}\n")).collect();
    let book = dir.join("book.c4book").display().to_string();
    let lines = wasm::node_lines(dir, &["--book".into(), book], &input);
    assert_eq!(lines[0], r#"{"depth":12}"#);
    for (i, text) in lines[1..].iter().enumerate() {
        same("wasm", i, text, &want[i]);
        let got: Value = serde_json::from_str(text).unwrap();
        assert_eq!(got["pv"], want[i]["pv"]);
    }
    assert_eq!(lines.len(), POSITIONS.len() + 1);
}

/// A bad position's query and its move string: a second field, a full column, a
/// move after four in a row.
const BAD: [(&str, &str); 3] = [("44%2018", "44 18"), ("448", "448"), ("4444444", "4444444")];

/// The server's message for each of [`BAD`].
fn served_errors() -> Vec<String> {
    let server = Server::start(&["--threads", "1"]);
    BAD.iter()
        .map(|(query, _)| {
            let served = server.get(&format!("/analyze?pos={query}"));
            assert_eq!(served.status, 400);
            served.json()["error"].as_str().unwrap().to_string()
        })
        .collect()
}

#[test]
#[ignore = "needs node and the WebAssembly build: cargo test --test integration -- --ignored answer::webassembly_"]
fn webassembly_words_a_bad_position_as_the_server() {
    let input: String = BAD.iter().map(|(_, m)| format!("{m}\n")).collect();
    let errors = wasm::node_lines(wasm::built(), &[], &input);
    for (i, message) in served_errors().iter().enumerate() {
        let got: Value = serde_json::from_str(&errors[i]).unwrap();
        assert_eq!(
            got["error"].as_str(),
            Some(message.as_str()),
            "{:?}",
            BAD[i].1
        );
    }
}

#[test]
fn both_pages_word_a_bad_position_alike() {
    let server = Server::start(&["--threads", "1"]);
    let cases = BAD;
    for (i, (query, moves)) in cases.iter().enumerate() {
        let served = server.get(&format!("/analyze?pos={query}"));
        assert_eq!(served.status, 400);
        let message = served.json()["error"].as_str().unwrap().to_string();
        if i == 0 {
            assert_eq!(
                message,
                r#"pos holds moves only, found a second field in "44 18""#
            );
        } else {
            // The command line's own words for a line it refuses.
            let (_, stderr, _) = common::run(&["analyze"], &format!("{moves}\n"));
            assert!(stderr.contains(&format!("line 1: {message}")), "{stderr}");
        }
    }
}

/// Positions of other board sizes: 8x8 and 10x6 those of `wasm::OTHER_SIZES`;
/// 8x7 and 6x7 end positions of `c4solver generate --size S --stage end
/// --difficulty easy --count 3 --seed 65`.
#[cfg(feature = "all-sizes")]
const SIZED: [(&str, &str); 6] = [
    ("8x8", "245552858772546656325411183115264748116677"),
    ("10x6", "1693a325a217679512269546315a7363a115694a528973"),
    ("8x7", "42787311388874418387183122144714764365353"),
    ("8x7", "875553334578254813336385512178864178221"),
    ("6x7", "42643416152432166551115335315543443"),
    ("6x7", "145431234541511544261123523552"),
];

/// The command line's `analyze --json --pv --size SIZE` of `moves`.
#[cfg(feature = "all-sizes")]
fn cli_sized(size: &str, moves: &str) -> Value {
    let args = [
        "analyze",
        "--json",
        "--pv",
        "--threads",
        "1",
        "--size",
        size,
    ];
    let out = common::output(&args, format!("{moves}\n").as_bytes());
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// `got` has the command line's shared fields and the line of play.
#[cfg(feature = "all-sizes")]
fn same_sized(surface: &str, size: &str, text: &str, want: &Value) {
    let got: Value = serde_json::from_str(text).unwrap();
    for field in ["moves", "score", "scores", "best", "book", "pv"] {
        assert_eq!(
            got[field], want[field],
            "{surface} {size}: {field} of {text}"
        );
    }
    let width: usize = size.split('x').next().unwrap().parse().unwrap();
    assert_eq!(
        got["scores"].as_array().map(Vec::len),
        Some(width),
        "{surface} {size}"
    );
}

#[cfg(feature = "all-sizes")]
#[test]
fn the_server_answers_other_sizes_as_the_command_line() {
    // A 7x6 server answers every built size by `size=`; the cached answer too.
    let server = Server::start(&["--threads", "1"]);
    for (size, moves) in SIZED {
        let want = cli_sized(size, moves);
        for round in ["searched", "cached"] {
            let reply = server.get(&format!("/analyze?size={size}&pos={moves}&pv=1"));
            assert_eq!(reply.status, 200, "{size} {moves}: {}", reply.body);
            same_sized(&format!("serve ({round})"), size, &reply.body, &want);
        }
        // A column past the width is refused with the command line's message.
        let width: u32 = size.split('x').next().unwrap().parse().unwrap();
        let past = char::from_digit(width + 1, 36).unwrap();
        let reply = server.get(&format!("/analyze?size={size}&pos={past}"));
        let want = format!(
            "column {} is out of range (1..={width}) at move 1",
            width + 1
        );
        assert!(reply.body.contains(&want), "{size}: {}", reply.body);
        assert_eq!(reply.status, 400, "{size}: {}", reply.body);
    }
}

#[cfg(feature = "all-sizes")]
#[test]
#[ignore = "needs node, the WebAssembly builds and the all-sizes feature: cargo test --features all-sizes --test integration -- --ignored answer::webassembly_"]
fn webassembly_answers_other_sizes_as_the_command_line() {
    let pkg_all = wasm::built().join("pkg-all");
    for (size, moves) in SIZED {
        let want = cli_sized(size, moves);
        let args = ["--size".to_string(), size.to_string()];
        let lines = wasm::pkg_lines(&pkg_all, &args, &format!("{moves}\n"));
        assert_eq!(lines.len(), 1, "{size}: {lines:?}");
        same_sized("wasm", size, &lines[0], &want);
    }
}
