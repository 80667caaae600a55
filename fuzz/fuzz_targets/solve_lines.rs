//! The line handling of `solve`: arbitrary bytes through `LineReader` (with a small
//! buffer so lines cross buffer boundaries) and `Query::parse`; valid positions with
//! at least 20 stones are solved by the tuned search, and those with at least 30
//! by the reference search too.
//!
//! Invariants checked:
//! * the reader yields exactly the lines of the input (split at `\n`, a final line
//!   without `\n` included), each cut at `MAX_LINE` bytes with `truncated` set
//!   exactly when the line was longer;
//! * a valid line's strong score is in the position's `score_range()`, its weak
//!   score is the sign of it, the mirrored position has the same score, and both
//!   searches agree.

#![no_main]

use std::io::BufReader;
use std::sync::Mutex;

use c4solver::{Config, Mode};
use c4solver::{lines::LineReader, lines::MAX_LINE, sized::Query};
use libfuzzer_sys::fuzz_target;

type Solver7x6 = c4solver::sized::Solver<7, 6>;

/// The tuned and the reference solver, built once.
static SOLVERS: Mutex<Option<(Solver7x6, Solver7x6)>> = Mutex::new(None);

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
    let mut guard = SOLVERS.lock().unwrap();
    let (tuned, reference) = guard.get_or_insert_with(|| {
        let tuned = Solver7x6::new(Config::tuned()).unwrap();
        let reference = Solver7x6::new(Config {
            table_mb: 8,
            ..Config::reference()
        })
        .unwrap();
        (tuned, reference)
    });
    while let Some((bytes, truncated)) = lines.next_line().unwrap() {
        let want = expected[n];
        assert_eq!(truncated, want.len() > MAX_LINE);
        assert_eq!(bytes, &want[..want.len().min(MAX_LINE)]);
        n += 1;
        let Ok(q) = Query::<7, 6, u64>::parse(bytes, truncated) else {
            continue;
        };
        let pos = q.position;
        if pos.moves_played() < 20 {
            continue;
        }
        let strong = tuned.solve(&pos, Mode::Strong).unwrap().score;
        let (lo, hi) = pos.score_range();
        assert!((lo..=hi).contains(&strong), "{} scored {strong}", q.moves);
        assert_eq!(
            tuned.solve(&pos, Mode::Weak).unwrap().score,
            strong.signum()
        );
        assert_eq!(
            tuned.solve(&pos.mirror(), Mode::Strong).unwrap().score,
            strong
        );
        if pos.moves_played() >= 30 {
            assert_eq!(reference.solve(&pos, Mode::Strong).unwrap().score, strong);
            assert_eq!(
                reference.solve(&pos, Mode::Weak).unwrap().score,
                strong.signum()
            );
        }
    }
    assert_eq!(n, expected.len());
});
