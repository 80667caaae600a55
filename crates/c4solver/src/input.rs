//! One line of `solve` input: `moves [expected-score]`.
//!
//! The rules, in the order they are checked:
//!
//! * the line must be valid UTF-8;
//! * a trailing `\r` (CRLF files), and spaces or tabs around the fields, are ignored;
//! * an empty line is the starting position;
//! * the first field is the move string ([`Board::parse`] says what can be wrong);
//! * an optional second field is the expected strong score: a whole number that
//!   the position can have ([`Board::score_range`](crate::sized::Board::score_range), or 0), checked against the
//!   solver's answer;
//! * there is no third field;
//! * a line longer than [`MAX_LINE`] bytes is cut there by the reader; if the part
//!   that was kept has no other error, the line is rejected as too long.

use crate::bits::Bits;
use crate::position::{MoveError, Playable};

/// The longest line kept in full; a valid line is far shorter (42 moves and a score).
pub const MAX_LINE: usize = 4096;

/// The most characters of a field that a message repeats: a longer one is cut
/// there, and its length given ([`excerpt`]).
pub(crate) const SHOWN: usize = 40;

/// `text` as a message repeats it: whole if it has at most `SHOWN`
/// characters, else its first `SHOWN` and its length, `1234...(5000 bytes)`,
/// so that a hostile line does not flood the terminal.
pub fn excerpt(text: &str) -> String {
    match text.char_indices().nth(SHOWN) {
        None => text.to_string(),
        Some((cut, _)) => format!("{}... ({} bytes)", &text[..cut], text.len()),
    }
}

/// [`excerpt`] in double quotes (the quotes around the part shown):
/// `"abc"`, `"abcd..."... (5000 bytes)`.
pub fn quoted(text: &str) -> String {
    match text.char_indices().nth(SHOWN) {
        None => format!("{text:?}"),
        Some((cut, _)) => format!("{:?}... ({} bytes)", &text[..cut], text.len()),
    }
}

/// A valid line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Query<'a, const W: usize = 7, const H: usize = 6, B: Bits = u64> {
    /// The move string (possibly empty).
    pub moves: &'a str,
    /// The position after the moves (parsing refuses a move after four in a row,
    /// so that the game is not over).
    pub position: Playable<W, H, B>,
    /// The expected score, if the line gives one.
    pub expected: Option<i32>,
}

/// Why a line was rejected (or a position given alone, [`Query::parse_pos`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    /// A board size this build does not hold (the size-erased parsers').
    #[error(transparent)]
    Size(#[from] crate::size::SizeError),
    /// The bytes are not UTF-8.
    #[error("invalid UTF-8 at byte {offset}")]
    InvalidUtf8 {
        /// 0-based offset of the first bad byte.
        offset: usize,
    },
    /// The move string cannot be played.
    #[error(transparent)]
    Move(#[from] MoveError),
    /// More than two fields.
    #[error("expected `moves [score]`, found {found} fields")]
    TooManyFields {
        /// Number of fields on the line.
        found: usize,
    },
    /// The second field is not a whole number.
    #[error("expected score {} is not a number", quoted(text))]
    BadScore {
        /// The field as written.
        text: String,
    },
    /// The second field is a whole number this position cannot have
    /// ([`Board::score_range`](crate::sized::Board::score_range)), however many digits it has.
    #[error("expected score {} is out of range ({min}..={max})", excerpt(score))]
    ScoreOutOfRange {
        /// The number as written.
        score: String,
        /// Lowest possible score.
        min: i32,
        /// Highest possible score.
        max: i32,
    },
    /// The line was cut at [`MAX_LINE`] bytes.
    #[error("line is longer than {max} bytes")]
    TooLong {
        /// The limit.
        max: usize,
    },
    /// A second field in a position given alone ([`Query::parse_pos`]): a
    /// position holds no expected score.
    #[error("pos holds moves only, found a second field in {}", quoted(text))]
    SecondField {
        /// The whole text, as given.
        text: String,
    },
}

impl<'a, const W: usize, const H: usize, B: Bits> Query<'a, W, H, B> {
    /// Parses one line (without its `\n`). `truncated` says the reader cut it at
    /// [`MAX_LINE`] bytes.
    ///
    /// # Errors
    /// The first rule of the module's list that the line breaks ([`LineError`]).
    pub fn parse(bytes: &'a [u8], truncated: bool) -> Result<Self, LineError> {
        parse_line(bytes, truncated)
    }

    /// Parses a position given alone, as the server's `pos` and the page's: the
    /// rules of [`Query::parse`], and no second field. Every surface that takes a
    /// position this way words its errors alike.
    ///
    /// # Errors
    /// [`Query::parse`]'s, and [`LineError::SecondField`] for a second field.
    pub fn parse_pos(bytes: &'a [u8]) -> Result<Self, LineError> {
        let q = parse_line::<W, H, B>(bytes, false)?;
        if q.expected.is_some() {
            return Err(LineError::SecondField {
                text: String::from_utf8_lossy(bytes).into_owned(),
            });
        }
        Ok(q)
    }
}

/// [`Query::parse`].
fn parse_line<const W: usize, const H: usize, B: Bits>(
    bytes: &[u8],
    truncated: bool,
) -> Result<Query<'_, W, H, B>, LineError> {
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        // A cut line may end inside a character: judge only what is complete.
        Err(e) if truncated && e.error_len().is_none() => {
            std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default()
        }
        Err(e) => {
            return Err(LineError::InvalidUtf8 {
                offset: e.valid_up_to(),
            });
        }
    };
    let text = text.strip_suffix('\r').unwrap_or(text);
    let is_blank = |c: char| c == ' ' || c == '\t';
    let mut fields = text.split(is_blank).filter(|f| !f.is_empty());
    let moves = fields.next().unwrap_or("");
    let score = fields.next();
    let extra = fields.count();
    let position = Playable::<W, H, B>::parse(moves)?;
    if extra > 0 {
        return Err(LineError::TooManyFields { found: 2 + extra });
    }
    let expected = match score {
        None => None,
        Some(s) => {
            let digits = s.strip_prefix(['-', '+']).unwrap_or(s);
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return Err(LineError::BadScore {
                    text: s.to_string(),
                });
            }
            let (min, max) = position.score_range();
            // Too many digits for an i64 is out of range too.
            match s.parse::<i64>() {
                Ok(v) if v == 0 || (i64::from(min)..=i64::from(max)).contains(&v) => Some(v as i32),
                _ => {
                    return Err(LineError::ScoreOutOfRange {
                        score: s.to_string(),
                        min,
                        max,
                    });
                }
            }
        }
    };
    if truncated {
        return Err(LineError::TooLong { max: MAX_LINE });
    }
    Ok(Query {
        moves,
        position,
        expected,
    })
}

/// Reads lines of at most [`MAX_LINE`] bytes, skipping the rest of longer lines,
/// so that no input can make memory grow. A UTF-8 byte-order mark at the very start
/// of the input (as some editors write) is skipped.
pub struct LineReader<R> {
    inner: R,
    buf: Vec<u8>,
    first: bool,
}

/// The UTF-8 byte-order mark.
const BOM: &[u8] = b"\xEF\xBB\xBF";

impl<R: std::io::BufRead> LineReader<R> {
    /// Wraps a buffered reader.
    pub fn new(inner: R) -> Self {
        LineReader {
            inner,
            buf: Vec::with_capacity(MAX_LINE),
            first: true,
        }
    }

    /// The next line without its `\n`, and whether it was cut; `None` at the end.
    pub fn next_line(&mut self) -> std::io::Result<Option<(&[u8], bool)>> {
        self.buf.clear();
        let mut truncated = false;
        let mut any = false;
        loop {
            let chunk = match self.inner.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                break;
            }
            any = true;
            let (line_part, used, done) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (&chunk[..i], i + 1, true),
                None => (chunk, chunk.len(), false),
            };
            let room = MAX_LINE - self.buf.len();
            if line_part.len() > room {
                truncated = true;
            }
            self.buf
                .extend_from_slice(&line_part[..line_part.len().min(room)]);
            self.inner.consume(used);
            if done {
                break;
            }
        }
        if std::mem::take(&mut self.first) && self.buf.starts_with(BOM) {
            self.buf.drain(..BOM.len());
        }
        Ok(any.then_some((&self.buf[..], truncated)))
    }

    /// Whether the underlying reader has no buffered input left (reading again may
    /// block): a good moment to flush output.
    pub fn is_drained(&mut self) -> bool
    where
        R: BufferedLen,
    {
        self.inner.buffered_len() == 0
    }
}

/// Readers that can tell how many bytes they hold in their buffer.
pub trait BufferedLen {
    /// Bytes buffered and not consumed yet.
    fn buffered_len(&self) -> usize;
}

impl<R> BufferedLen for std::io::BufReader<R> {
    fn buffered_len(&self) -> usize {
        self.buffer().len()
    }
}

impl BufferedLen for &[u8] {
    fn buffered_len(&self) -> usize {
        self.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &[u8]) -> Result<Query<'_>, LineError> {
        Query::parse(s, false)
    }

    #[test]
    fn a_position_alone_has_no_second_field() {
        assert_eq!(
            Query::<7, 6, u64>::parse_pos(b" 4455 ").unwrap().moves,
            "4455"
        );
        assert_eq!(
            Query::<7, 6, u64>::parse_pos(b"44 18")
                .unwrap_err()
                .to_string(),
            r#"pos holds moves only, found a second field in "44 18""#
        );
        // The line's own errors first, in its words.
        assert_eq!(
            Query::<7, 6, u64>::parse_pos(b"48 x")
                .unwrap_err()
                .to_string(),
            parse(b"48 x").unwrap_err().to_string()
        );
    }

    #[test]
    fn line_reader_caps_and_splits() {
        let mut long = vec![b'1'; MAX_LINE + 10];
        long.extend_from_slice(b"\nabc\r\n\nlast");
        let mut r = LineReader::new(&long[..]);
        let (l, t) = r.next_line().unwrap().unwrap();
        assert_eq!((l.len(), t), (MAX_LINE, true));
        assert_eq!(r.next_line().unwrap().unwrap(), (&b"abc\r"[..], false));
        assert_eq!(r.next_line().unwrap().unwrap(), (&b""[..], false));
        assert_eq!(r.next_line().unwrap().unwrap(), (&b"last"[..], false));
        assert!(r.next_line().unwrap().is_none());
    }

    #[test]
    fn a_leading_byte_order_mark_is_skipped() {
        let mut r = LineReader::new(&b"\xEF\xBB\xBF4455 18\n\xEF\xBB\xBF4\n"[..]);
        assert_eq!(r.next_line().unwrap().unwrap(), (&b"4455 18"[..], false));
        // only at the start of the input
        let (line, _) = r.next_line().unwrap().unwrap();
        assert!(parse(line).is_err());
        let mut r = LineReader::new(&b"\xEF\xBB\xBF"[..]);
        assert_eq!(r.next_line().unwrap().unwrap(), (&b""[..], false));
    }

    #[test]
    fn valid_lines() {
        let q = parse(b"4455 18\r").unwrap();
        assert_eq!((q.moves, q.expected), ("4455", Some(18)));
        let q = parse(b"\t4455\t  ").unwrap();
        assert_eq!((q.moves, q.expected), ("4455", None));
        let q = parse(b"").unwrap();
        assert_eq!((q.moves, q.position.moves_played()), ("", 0));
        assert_eq!(parse(b"4 -2").unwrap().expected, Some(-2));
    }

    #[test]
    fn each_error() {
        assert_eq!(
            parse(b"44\xff5").unwrap_err(),
            LineError::InvalidUtf8 { offset: 2 }
        );
        assert!(matches!(
            parse(b"4\x005").unwrap_err(),
            LineError::Move(MoveError::BadCharacter { index: 2, ch: '\0' })
        ));
        assert_eq!(
            parse(b"4455 18 3").unwrap_err(),
            LineError::TooManyFields { found: 3 }
        );
        assert_eq!(
            parse(b"4455 abc").unwrap_err().to_string(),
            "expected score \"abc\" is not a number"
        );
        assert_eq!(
            parse(b"4455 19").unwrap_err().to_string(),
            "expected score 19 is out of range (-18..=18)"
        );
        // A number too large for any integer type is out of range, not "not a
        // number"; a long field is shown cut, with its length.
        assert_eq!(
            parse(b"4455 99999999999999999999").unwrap_err().to_string(),
            "expected score 99999999999999999999 is out of range (-18..=18)"
        );
        assert_eq!(
            parse(b"4455 -000000000000000000000000000000000000000000000000000000000")
                .unwrap()
                .expected,
            Some(0)
        );
        let long = format!("4455 {}", "9".repeat(5000));
        assert_eq!(
            parse(long.as_bytes()).unwrap_err().to_string(),
            format!(
                "expected score {}... (5000 bytes) is out of range (-18..=18)",
                "9".repeat(40)
            )
        );
        let long = format!("4455 {}", "x".repeat(5000));
        assert_eq!(
            parse(long.as_bytes()).unwrap_err().to_string(),
            format!(
                "expected score \"{}\"... (5000 bytes) is not a number",
                "x".repeat(40)
            )
        );
        for bad in ["+", "-", "1e3", "--1", "0x10", "1.0"] {
            let line = format!("4455 {bad}");
            assert!(
                matches!(parse(line.as_bytes()), Err(LineError::BadScore { .. })),
                "{bad}"
            );
        }
        assert_eq!(
            Query::<7, 6, u64>::parse(b"4455", true).unwrap_err(),
            LineError::TooLong { max: MAX_LINE }
        );
        // a cut line reports its first real error instead
        assert!(matches!(
            Query::<7, 6, u64>::parse(b"4444444", true).unwrap_err(),
            LineError::Move(MoveError::ColumnFull { index: 7, .. })
        ));
        // cut in the middle of a multi-byte character
        assert_eq!(
            Query::<7, 6, u64>::parse(b"44\xc3", true).unwrap_err(),
            LineError::TooLong { max: MAX_LINE }
        );
    }
}
