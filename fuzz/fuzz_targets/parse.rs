//! The move parser and the line parser on arbitrary bytes.
//!
//! Invariants checked (what `position.rs` and `input.rs` promise):
//! * a parsed position has one stone per character, every character a column digit,
//!   and nobody has four in a row;
//! * every move error names a 1-based index within the string, and the character at
//!   that index is the one the error describes; the prefix before it parses;
//! * `Query::parse` accepts a line only when it is not cut, returns a move string taken
//!   from the line whose position is the parsed one, and a score in range;
//! * a UTF-8 error points at a byte inside the line, after a valid prefix.

#![no_main]

use c4solver::{LineError, lines::MAX_LINE, sized::Query};
use c4solver::{MoveError, sized::Board};
use libfuzzer_sys::fuzz_target;

fn check_moves<const W: usize, const H: usize>(s: &str) {
    let chars: Vec<char> = s.chars().collect();
    match Board::<W, H>::parse(s) {
        Ok(p) => {
            assert_eq!(p.moves_played(), s.len());
            assert_eq!(p.moves_played(), chars.len());
            assert!(
                chars
                    .iter()
                    .all(|c| matches!(c.to_digit(10), Some(d) if d >= 1 && d as usize <= W))
            );
            // The player who just moved has not won, nor has the player to move.
            assert!(!Board::<W, H>::alignment(p.current() ^ p.mask()));
            assert!(!Board::<W, H>::alignment(p.current()));
            assert_eq!(p.mask().count_ones() as usize, chars.len());
            assert_eq!(p.current() & !p.mask(), 0);
            assert_eq!(p.mirror().mirror(), p);
            assert_eq!(s.parse::<Board<W, H>>(), Ok(p));
        }
        Err(e) => {
            let index = match e {
                MoveError::BadCharacter { index, ch } => {
                    assert_eq!(chars[index - 1], ch);
                    assert!(!ch.is_ascii_digit());
                    index
                }
                MoveError::ColumnOutOfRange {
                    index,
                    column,
                    width,
                } => {
                    assert_eq!(width, W);
                    assert_eq!(chars[index - 1].to_digit(10), Some(column));
                    assert!(column == 0 || column as usize > W);
                    index
                }
                MoveError::ColumnFull { index, column } => {
                    assert_eq!(chars[index - 1].to_digit(10), Some(column as u32));
                    let before: String = chars[..index - 1].iter().collect();
                    let p = Board::<W, H>::parse(&before).expect("prefix of a full column");
                    assert!(!p.can_play(column - 1));
                    index
                }
                MoveError::MoveAfterWin { index, won_at } => {
                    assert_eq!(won_at + 1, index);
                    let upto: String = chars[..won_at].iter().collect();
                    assert_eq!(
                        Board::<W, H>::parse(&upto),
                        Err(MoveError::GameOver { index: won_at })
                    );
                    index
                }
                MoveError::GameOver { index } => {
                    assert_eq!(index, chars.len());
                    index
                }
            };
            assert!((1..=chars.len()).contains(&index), "{e} for {s:?}");
            // A failed play_str leaves the board as it was.
            let mut p = Board::<W, H>::new();
            assert_eq!(p.play_str(s), Err(e.clone()));
            assert_eq!(p, Board::<W, H>::new());
            let msg = e.to_string();
            assert!(msg.contains(&format!("move {index}")), "{msg}");
        }
    }
}

fn check_line(data: &[u8], truncated: bool) {
    match Query::<7, 6, u64>::parse(data, truncated) {
        Ok(q) => {
            assert!(!truncated);
            assert!(data.len() <= MAX_LINE || !truncated);
            // The move string is a slice of the line (or empty).
            let start = q.moves.as_ptr() as usize;
            let base = data.as_ptr() as usize;
            assert!(
                q.moves.is_empty() || (start >= base && start + q.moves.len() <= base + data.len())
            );
            assert_eq!(q.position.moves_played(), q.moves.len());
            assert_eq!(Board::<7, 6>::parse(q.moves), Ok(*q.position.board()));
            if let Some(e) = q.expected {
                let (lo, hi) = q.position.score_range();
                assert!(e == 0 || (lo..=hi).contains(&e));
            }
        }
        Err(LineError::InvalidUtf8 { offset }) => {
            assert!(offset < data.len());
            assert!(std::str::from_utf8(&data[..offset]).is_ok());
        }
        Err(LineError::TooLong { max }) => {
            assert!(truncated);
            assert_eq!(max, MAX_LINE);
        }
        Err(LineError::Move(e)) => {
            let text = String::from_utf8_lossy(data);
            let first = text
                .split([' ', '\t'])
                .find(|f| !f.is_empty())
                .unwrap_or("");
            let index = match e {
                MoveError::BadCharacter { index, .. }
                | MoveError::ColumnOutOfRange { index, .. }
                | MoveError::ColumnFull { index, .. }
                | MoveError::MoveAfterWin { index, .. }
                | MoveError::GameOver { index } => index,
            };
            assert!(
                (1..=first.chars().count()).contains(&index),
                "{e} in {text:?}"
            );
        }
        Err(LineError::TooManyFields { found }) => assert!(found >= 3),
        // Only the size-erased parsers check the size.
        Err(LineError::Size(e)) => panic!("the generic parser checked a size: {e}"),
        Err(LineError::BadScore { text }) => assert!(text.parse::<i128>().is_err()),
        Err(LineError::ScoreOutOfRange { score, min, max }) => match score.parse::<i64>() {
            Ok(v) => assert!(v != 0 && !(i64::from(min)..=i64::from(max)).contains(&v)),
            // Too many digits for an i64: a whole number all the same.
            Err(_) => {
                let digits = score.strip_prefix(['-', '+']).unwrap_or(&score);
                assert!(!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()));
            }
        },
        // Only a position given alone (`parse_pos`) refuses a second field.
        Err(LineError::SecondField { text }) => panic!("a line refused its score: {text:?}"),
    }
}

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        check_moves::<7, 6>(s);
        check_moves::<4, 4>(s);
        check_moves::<9, 4>(s);
    }
    check_line(data, false);
    check_line(data, true);
});
