//! The line handling of `solve`: arbitrary bytes through `LineReader` (with a small
//! buffer so lines cross buffer boundaries) and `parse_line`; valid positions with
//! at least 30 stones are solved.
//!
//! Invariants checked:
//! * the reader yields exactly the lines of the input (split at `\n`, a final line
//!   without `\n` included), each cut at `MAX_LINE` bytes with `truncated` set
//!   exactly when the line was longer;
//! * a valid line's strong score is in `MIN_SCORE..=MAX_SCORE`, its weak score is
//!   the sign of it, and the mirrored position has the same score.

#![no_main]

use std::io::BufReader;
use std::sync::Mutex;

use c4solver::input::{LineReader, MAX_LINE, parse_line};
use c4solver::{Config, Mode, Position, Solver7x6};
use libfuzzer_sys::fuzz_target;

static SOLVER: Mutex<Option<Solver7x6>> = Mutex::new(None);

fuzz_target!(|data: &[u8]| {
    let Some((&cap, data)) = data.split_first() else {
        return;
    };
    let mut expected: Vec<&[u8]> = data.split(|&b| b == b'\n').collect();
    if data.is_empty() || data.ends_with(b"\n") {
        expected.pop();
    }
    let reader = BufReader::with_capacity(usize::from(cap % 64) + 1, data);
    let mut lines = LineReader::new(reader);
    let mut n = 0;
    let mut guard = SOLVER.lock().unwrap();
    let solver = guard.get_or_insert_with(|| {
        Solver7x6::new(Config {
            table_mb: 8,
            ..Config::default()
        })
        .unwrap()
    });
    while let Some((bytes, truncated)) = lines.next_line().unwrap() {
        let want = expected[n];
        assert_eq!(truncated, want.len() > MAX_LINE);
        assert_eq!(bytes, &want[..want.len().min(MAX_LINE)]);
        n += 1;
        let Ok(q) = parse_line::<7, 6>(bytes, truncated) else {
            continue;
        };
        let pos = q.position;
        if pos.moves_played() < 30 {
            continue;
        }
        let strong = solver.solve(&pos, Mode::Strong).score;
        assert!(
            (Position::MIN_SCORE..=Position::MAX_SCORE).contains(&strong),
            "{} scored {strong}",
            q.moves
        );
        assert_eq!(solver.solve(&pos, Mode::Weak).score, strong.signum());
        assert_eq!(solver.solve(&pos.mirror(), Mode::Strong).score, strong);
    }
    assert_eq!(n, expected.len());
});
