//! Test-set files (`moves score` per line) and the six difficulty buckets.
//!
//! The buckets are those of Pascal Pons' benchmark sets, by stones on the board
//! (stage) and by moves left until the end of the game under perfect play
//! (difficulty). Both ranges are closed above: a Middle position has 15 to 28
//! stones, an Easy one ends within 14 more moves. Every position of Pons' six files
//! falls in its own bucket under these rules (checked by `tests/integration/pons.rs`).
//!
//! On other boards the buckets are the same thirds of the cells (`cells / 3` and
//! `2 * cells / 3`, rounded down: 14 and 28 of 7x6's 42): the `_on` functions
//! take the number of cells.

use crate::bits::Bits;
use std::fmt;
use std::path::Path;

use crate::position::{MoveError, Playable};

/// Stage of the game by stones on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Stage {
    /// 29 to 42 stones.
    End,
    /// 15 to 28 stones.
    Middle,
    /// 0 to 14 stones.
    Begin,
}

/// Difficulty by moves left under perfect play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Difficulty {
    /// 0 to 14 moves left.
    Easy,
    /// 15 to 28 moves left.
    Medium,
    /// 29 to 42 moves left.
    Hard,
}

impl Stage {
    /// All stages, End first as in the tutorial's tables.
    pub const ALL: [Stage; 3] = [Stage::End, Stage::Middle, Stage::Begin];

    /// The stage of a position with `stones` stones (7x6 board).
    pub fn of(stones: usize) -> Stage {
        Stage::of_on(42, stones)
    }

    /// The stage of a position with `stones` stones on a board of `cells` cells.
    pub fn of_on(cells: usize, stones: usize) -> Stage {
        if stones <= cells / 3 {
            Stage::Begin
        } else if stones <= 2 * cells / 3 {
            Stage::Middle
        } else {
            Stage::End
        }
    }

    /// The range of stones of this stage (7x6 board).
    pub fn stones(self) -> std::ops::RangeInclusive<usize> {
        self.stones_on(42)
    }

    /// The range of stones of this stage on a board of `cells` cells.
    pub fn stones_on(self, cells: usize) -> std::ops::RangeInclusive<usize> {
        match self {
            Stage::Begin => 0..=cells / 3,
            Stage::Middle => cells / 3 + 1..=2 * cells / 3,
            Stage::End => 2 * cells / 3 + 1..=cells,
        }
    }

    /// The most moves left in a position of this stage (7x6 board): a position
    /// with `s` stones ends within `42 - s` moves.
    pub fn longest_game(self) -> usize {
        self.longest_game_on(42)
    }

    /// The most moves left in a position of this stage on a board of `cells`
    /// cells.
    pub fn longest_game_on(self, cells: usize) -> usize {
        cells - *self.stones_on(cells).start()
    }

    /// Lowercase name (`end`, `middle`, `begin`).
    pub fn name(self) -> &'static str {
        match self {
            Stage::End => "end",
            Stage::Middle => "middle",
            Stage::Begin => "begin",
        }
    }
}

impl Difficulty {
    /// All difficulties, easiest first.
    pub const ALL: [Difficulty; 3] = [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard];

    /// The difficulty of a position that ends `moves_left` moves from now (7x6
    /// board).
    pub fn of(moves_left: usize) -> Difficulty {
        Difficulty::of_on(42, moves_left)
    }

    /// The difficulty of a position that ends `moves_left` moves from now on a
    /// board of `cells` cells.
    pub fn of_on(cells: usize, moves_left: usize) -> Difficulty {
        if moves_left <= cells / 3 {
            Difficulty::Easy
        } else if moves_left <= 2 * cells / 3 {
            Difficulty::Medium
        } else {
            Difficulty::Hard
        }
    }

    /// The difficulty of a position with `stones` stones and strong score `score`
    /// on a board of `cells` cells: by the moves left until the game ends under
    /// perfect play (a win or a loss with its last stone, a draw when the board
    /// is full), as Pons' test sets are labelled.
    ///
    /// Precondition: the position can have `score`
    /// ([`Board::score_range`](crate::sized::Board::score_range)), as every parsed
    /// test-set line does (`debug_assert!`ed).
    pub fn of_score_on(cells: usize, stones: usize, score: i32) -> Difficulty {
        Difficulty::of_on(cells, moves_left_on(cells, stones, score))
    }

    /// Lowercase name (`easy`, `medium`, `hard`).
    pub fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
        }
    }
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Stage::End => "End",
            Stage::Middle => "Middle",
            Stage::Begin => "Begin",
        })
    }
}

impl fmt::Display for Difficulty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Difficulty::Easy => "Easy",
            Difficulty::Medium => "Medium",
            Difficulty::Hard => "Hard",
        })
    }
}

/// Moves left until the game ends under perfect play, for a position with
/// `stones` stones and strong score `score` on a board of `cells` cells (42 on
/// 7x6, where a win with score `s` comes with the winner's `22 - s`-th stone):
/// what [`Difficulty::of_score_on`] buckets.
///
/// A win with score `s > 0` comes with the move played onto `n` stones where
/// `(cells + 1 - n) / 2 = s` (rounded down) and `n` has the parity of `stones`
/// (the side to move plays onto an even difference), that is `n = cells - 2s` or
/// `cells + 1 - 2s`; a loss is the same for the opponent, onto `n` of the other
/// parity; a draw fills the board.
///
/// Precondition: the position can have `score`
/// ([`Board::score_range`](crate::sized::Board::score_range)), as every parsed
/// test-set line does (`debug_assert!`ed).
pub(crate) fn moves_left_on(cells: usize, stones: usize, score: i32) -> usize {
    if score == 0 {
        return cells - stones;
    }
    let s = i64::from(score.unsigned_abs());
    let cells_i = cells as i64;
    // The winning move is played onto n stones, n in {cells - 2s, cells + 1 - 2s}.
    let mover_parity = if score > 0 {
        stones % 2
    } else {
        (stones + 1) % 2
    } as i64;
    let n = if (cells_i - 2 * s).rem_euclid(2) == mover_parity {
        cells_i - 2 * s
    } else {
        cells_i + 1 - 2 * s
    };
    debug_assert!(
        n >= stones as i64 && n < cells_i,
        "score {score} is impossible with {stones} stones on {cells} cells"
    );
    let n = n.max(stones as i64) as usize;
    n + 1 - stones
}

/// One line of a test set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry<const W: usize = 7, const H: usize = 6, B: Bits = u64> {
    /// The move string as written.
    pub moves: String,
    /// The position it leads to (parsing refuses a finished game).
    pub position: Playable<W, H, B>,
    /// The expected strong score.
    pub score: i32,
}

/// Why a test-set file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum TestSetError {
    /// The file could not be read (the message includes the cause).
    #[error("cannot read {path}: {error}")]
    Io {
        /// The file.
        path: String,
        /// The cause.
        error: std::io::Error,
    },
    /// A line is not `moves score`.
    #[error("{path}: line {line}: {reason}")]
    Line {
        /// The file.
        path: String,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        reason: String,
    },
}

/// A named list of positions with their expected scores.
#[derive(Clone, Debug)]
pub struct TestSet<const W: usize = 7, const H: usize = 6, B: Bits = u64> {
    /// The file name (without directories).
    pub name: String,
    /// The positions, in file order.
    pub entries: Vec<Entry<W, H, B>>,
}

/// Parses one `moves score` line (the score is required).
///
/// The moves may be empty (the starting position): ` 1` is the empty board.
pub(crate) fn parse_line<const W: usize, const H: usize, B: Bits>(
    line: &str,
) -> Result<Entry<W, H, B>, String> {
    let line = line.trim_end();
    let (moves, rest) = match line.find(char::is_whitespace) {
        Some(i) => (&line[..i], line[i..].trim_start()),
        None => (line, ""),
    };
    let score = match rest.split_whitespace().collect::<Vec<_>>()[..] {
        [s] => s,
        _ => return Err("expected `moves score`".to_string()),
    };
    let score: i32 = score
        .parse()
        .map_err(|_| format!("score {score:?} is not a number"))?;
    let position = Playable::<W, H, B>::parse(moves).map_err(|e: MoveError| e.to_string())?;
    let (min, max) = position.score_range();
    if score != 0 && !(min..=max).contains(&score) {
        return Err(format!("score {score} is out of range ({min}..={max})"));
    }
    Ok(Entry {
        moves: moves.to_string(),
        position,
        score,
    })
}

impl<const W: usize, const H: usize, B: Bits> TestSet<W, H, B> {
    /// Reads a test-set file. Every line must be valid.
    ///
    /// # Errors
    /// An unreadable file, or the first invalid line.
    pub fn read(path: &Path) -> Result<Self, TestSetError> {
        let (set, mut bad) = Self::read_valid(path)?;
        match bad.is_empty() {
            true => Ok(set),
            false => Err(bad.swap_remove(0)),
        }
    }

    /// Reads a test-set file, keeping its valid lines and returning an error for
    /// each invalid one (blank lines are skipped).
    ///
    /// # Errors
    /// An unreadable file.
    pub fn read_valid(path: &Path) -> Result<(Self, Vec<TestSetError>), TestSetError> {
        let text = std::fs::read(path).map_err(|error| TestSetError::Io {
            path: path.display().to_string(),
            error,
        })?;
        // A UTF-8 byte-order mark, as some editors write, is not part of line 1.
        let text = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&text);
        let mut entries = Vec::new();
        let mut bad = Vec::new();
        for (i, line) in text.split(|&b| b == b'\n').enumerate() {
            let result = std::str::from_utf8(line)
                .map_err(|e| format!("invalid UTF-8 at byte {}", e.valid_up_to()))
                .and_then(|line| {
                    if line.trim().is_empty() {
                        Ok(None)
                    } else {
                        parse_line(line).map(Some)
                    }
                });
            match result {
                Ok(Some(e)) => entries.push(e),
                Ok(None) => {}
                Err(reason) => bad.push(TestSetError::Line {
                    path: path.display().to_string(),
                    line: i + 1,
                    reason,
                }),
            }
        }
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| path.display().to_string());
        Ok((TestSet { name, entries }, bad))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_left_examples() {
        // "4455": side to move wins with its 4th stone (it has 2): 3 moves left.
        assert_eq!(moves_left_on(42, 4, 18), 3);
        // "44455554221": 11 stones, score -15: the opponent (6 stones) wins with its 7th.
        assert_eq!(moves_left_on(42, 11, -15), 2);
        assert_eq!(moves_left_on(42, 40, 0), 2);
    }

    #[test]
    fn moves_left_on_other_boards() {
        for cells in [16, 20, 25, 35, 56] {
            // nobody wins before their fourth stone: the side to move from 6 stones
            for n in 6..cells {
                // the side to move wins with the move onto n stones: 1 move left
                let win = ((cells + 1 - n) / 2) as i32;
                assert_eq!(moves_left_on(cells, n, win), 1, "{cells} cells, {n} stones");
                // the opponent wins with the next move after that: 2 moves left
                if n + 1 < cells {
                    let loss = -(((cells - n) / 2) as i32);
                    assert_eq!(
                        moves_left_on(cells, n, loss),
                        2,
                        "{cells} cells, {n} stones"
                    );
                }
                assert_eq!(moves_left_on(cells, n, 0), cells - n);
            }
        }
        // the thirds of 7x6 are Pons' buckets
        assert_eq!(Stage::Middle.stones_on(42), 15..=28);
        assert_eq!(Stage::End.stones_on(20), 14..=20);
        assert_eq!(Difficulty::of_on(20, 7), Difficulty::Medium);
    }

    #[test]
    fn buckets() {
        assert_eq!(Stage::of(14), Stage::Begin);
        assert_eq!(Stage::of(15), Stage::Middle);
        assert_eq!(Stage::of(29), Stage::End);
        assert_eq!(Difficulty::of(14), Difficulty::Easy);
        assert_eq!(Difficulty::of(28), Difficulty::Medium);
        assert_eq!(Difficulty::of(29), Difficulty::Hard);
        // by the score: a win on the next stone, a loss after two, a draw at the end
        assert_eq!(Difficulty::of_score_on(42, 4, 18), Difficulty::Easy);
        assert_eq!(Difficulty::of_score_on(42, 11, -15), Difficulty::Easy);
        assert_eq!(Difficulty::of_score_on(42, 14, 0), Difficulty::Medium);
        assert_eq!(Difficulty::of_score_on(42, 13, 1), Difficulty::Hard);
        assert_eq!(Difficulty::of_score_on(20, 14, 0), Difficulty::Easy);
    }

    #[test]
    fn parse_line_errors() {
        assert!(parse_line::<7, 6, u64>("4455 18").is_ok());
        let empty = parse_line::<7, 6, u64>(" 1\r").unwrap();
        assert_eq!((empty.moves.as_str(), empty.score), ("", 1));
        assert!(parse_line::<7, 6, u64>("4455 18 3").is_err());
        assert!(
            parse_line::<7, 6, u64>("4455")
                .unwrap_err()
                .contains("expected")
        );
        assert!(
            parse_line::<7, 6, u64>("4455 x")
                .unwrap_err()
                .contains("not a number")
        );
        assert!(
            parse_line::<7, 6, u64>("4485 1")
                .unwrap_err()
                .contains("out of range")
        );
        // Regression: an impossible score underflowed moves_left.
        assert_eq!(
            parse_line::<7, 6, u64>("2252576253462244111563365343671351441 17").unwrap_err(),
            "score 17 is out of range (-2..=3)"
        );
        assert!(parse_line::<7, 6, u64>("2252576253462244111563365343671351441 3").is_ok());
    }
}
