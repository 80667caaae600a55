//! What goes between the handlers, the cache and the solver threads: a parsed
//! position, a search to run, and the library's [`Answer`] with its two JSON
//! forms.

use c4solver::Bits;
use std::any::Any;
use std::sync::Arc;

use c4solver::Playable;
use serde::Serialize;

pub use c4solver::Answer;

/// What the online solver's `/solve` answers for a column that cannot be played.
pub const FULL_COLUMN: i32 = 100;

/// A position parsed for the server's board, its size erased so that the
/// handlers, the cache and the queue need no `W` and `H`; the solver threads,
/// built for the same board, take the [`Playable`] board back ([`Position::board`]).
#[derive(Clone)]
pub struct Position(Arc<dyn Any + Send + Sync>);

impl Position {
    /// `board`, carried as it is.
    pub fn new<const W: usize, const H: usize, B: Bits>(board: Playable<W, H, B>) -> Position {
        Position(Arc::new(board))
    }

    /// The board, if it is a `W`x`H` one (always, on the server's own board).
    pub fn board<const W: usize, const H: usize, B: Bits>(&self) -> Option<Playable<W, H, B>> {
        self.0.downcast_ref::<Playable<W, H, B>>().copied()
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Position(..)")
    }
}

/// A valid position, as the command line parsed it.
#[derive(Clone, Debug)]
pub struct Parsed {
    /// The move string (spaces around it dropped).
    pub moves: String,
    /// The position's unique key: the cache's key.
    pub key: u128,
    /// The position itself, parsed once: the solver thread searches it.
    pub position: Position,
}

/// One search for a solver thread.
#[derive(Clone, Debug)]
pub struct Task {
    /// The moves, as the answer repeats them.
    pub moves: String,
    /// The position they reach, parsed by [`super::solver::parse`].
    pub position: Position,
    /// Signs only (`weak=1`).
    pub weak: bool,
    /// With a line of best play (`pv=1`).
    pub pv: bool,
}

/// The online solver's answer: `{"pos": MOVES, "score": [...]}`, 100 for a full
/// column.
#[derive(Clone, Debug, Serialize)]
pub struct Solved<'a> {
    /// The moves asked.
    pos: &'a str,
    /// Each column's score.
    score: Vec<i32>,
}

/// `/solve`'s answer for the position written `pos`.
pub fn solve_json<'a>(answer: &Answer, pos: &'a str) -> Solved<'a> {
    let score = answer
        .scores
        .iter()
        .map(|s| s.unwrap_or(FULL_COLUMN))
        .collect();
    Solved { pos, score }
}

/// `/analyze`'s answer: the [`Answer`]'s fields in its order (docs/answer.md),
/// then `cached`.
#[derive(Clone, Debug, Serialize)]
pub struct Analyzed {
    #[serde(flatten)]
    answer: Answer,
    /// The answer came from the cache (`nodes` and `time_us` are then those of
    /// the search that found it).
    cached: bool,
}

/// `/analyze`'s answer for the position written `moves`: a cached answer may
/// have been found for another move order of the same position, whose moves it
/// holds.
pub fn analyze_json(answer: &Answer, moves: &str, cached: bool) -> Analyzed {
    Analyzed {
        answer: Answer {
            moves: moves.to_string(),
            scores: answer.scores.clone(),
            best: answer.best.clone(),
            pv: answer.pv.clone(),
            ..*answer
        },
        cached,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer() -> Answer {
        Answer {
            moves: "2".into(),
            scores: vec![Some(-2), None, Some(3)],
            best: vec![3],
            score: 3,
            book: false,
            nodes: 12,
            time_us: 5,
            pv: Some("31".into()),
        }
    }

    #[test]
    fn solve_json_marks_full_columns_100() {
        let text = serde_json::to_string(&solve_json(&answer(), "2")).unwrap();
        assert_eq!(text, r#"{"pos":"2","score":[-2,100,3]}"#);
    }

    #[test]
    fn analyze_json_is_the_answer_then_cached() {
        let text = serde_json::to_string(&analyze_json(&answer(), "22", true)).unwrap();
        assert_eq!(
            text,
            r#"{"moves":"22","score":3,"scores":[-2,null,3],"best":[3],"book":false,"nodes":12,"time_us":5,"pv":"31","cached":true}"#
        );
        let mut a = answer();
        a.pv = None;
        let text = serde_json::to_string(&analyze_json(&a, "2", false)).unwrap();
        assert!(!text.contains("pv") && text.ends_with(r#""cached":false}"#));
    }

    #[test]
    fn a_position_comes_back_as_its_board() {
        let board = Playable::<7, 6>::parse("4455").unwrap();
        let p = Position::new(board);
        assert_eq!(p.board::<7, 6, u64>(), Some(board));
        assert_eq!(p.board::<6, 5, u64>(), None);
    }
}
