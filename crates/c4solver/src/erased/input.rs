//! Input lines on a board size chosen at run time: [`Line::parse`] and
//! [`Line::parse_pos`], the generic [`Query::parse`] and [`Query::parse_pos`]
//! dispatched once on the size, the position erased.

use crate::bits::Bits;
use crate::erased::Position;
use crate::input::{LineError, Query};
use crate::size::Size;
use crate::with_size;

/// A valid line on a board of any built size: [`Query`] with
/// its position erased.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line<'a> {
    /// The move string (possibly empty).
    pub moves: &'a str,
    /// The position after the moves; the game is not over (parsing refuses a
    /// move after four in a row).
    pub position: Position,
    /// The expected score, if the line gives one.
    pub expected: Option<i32>,
}

impl<'a> Line<'a> {
    /// [`Query::parse`] on the `size` board: one line (without its `\n`),
    /// `truncated` if the reader cut it at [`MAX_LINE`](crate::lines::MAX_LINE)
    /// bytes.
    ///
    /// # Errors
    /// [`Query::parse`]'s, with the same messages, and [`LineError::Size`] for a
    /// size this build does not hold.
    ///
    /// ```
    /// use c4solver::{Line, Size};
    ///
    /// let line = Line::parse(Size::STANDARD, b"4455 -2", false)?;
    /// assert_eq!((line.moves, line.expected), ("4455", Some(-2)));
    /// assert_eq!(line.position.moves_played(), 4);
    /// # Ok::<(), c4solver::LineError>(())
    /// ```
    pub fn parse(size: Size, bytes: &'a [u8], truncated: bool) -> Result<Self, LineError> {
        with_size!(size.built()?, line_on(bytes, truncated))
    }

    /// [`Query::parse_pos`] on the `size` board: a position given alone, no
    /// second field.
    ///
    /// # Errors
    /// [`Query::parse_pos`]'s, with the same messages.
    pub fn parse_pos(size: Size, bytes: &'a [u8]) -> Result<Self, LineError> {
        with_size!(size.built()?, pos_on(bytes))
    }
}

fn line_on<const W: usize, const H: usize, B: Bits>(
    bytes: &[u8],
    truncated: bool,
) -> Result<Line<'_>, LineError> {
    let q = Query::<W, H, B>::parse(bytes, truncated)?;
    Ok(Line {
        moves: q.moves,
        position: (*q.position).into(),
        expected: q.expected,
    })
}

fn pos_on<const W: usize, const H: usize, B: Bits>(bytes: &[u8]) -> Result<Line<'_>, LineError> {
    let q = Query::<W, H, B>::parse_pos(bytes)?;
    Ok(Line {
        moves: q.moves,
        position: (*q.position).into(),
        expected: q.expected,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_parse_as_the_generic_parser_does() {
        let s = Size::STANDARD;
        let line = Line::parse(s, b"  4453\t3\r", false).unwrap();
        assert_eq!(line.moves, "4453");
        assert_eq!(line.expected, Some(3));
        assert_eq!(line.position, Position::parse(s, "4453").unwrap());
        assert_eq!(
            Line::parse(s, b"48", false).unwrap_err().to_string(),
            "column 8 is out of range (1..=7) at move 2"
        );
        assert_eq!(
            Line::parse(s, b"44", true).unwrap_err(),
            LineError::TooLong {
                max: crate::lines::MAX_LINE
            }
        );
        assert_eq!(
            Line::parse_pos(s, b"").unwrap().position,
            Position::new(s).unwrap()
        );
        assert_eq!(
            Line::parse_pos(s, b"44 1").unwrap_err().to_string(),
            "pos holds moves only, found a second field in \"44 1\""
        );
        for &size in Size::BUILT {
            let line = Line::parse(size, b"1", false).unwrap();
            assert_eq!(line.position.size(), size);
        }
    }
}
