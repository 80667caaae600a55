//! [`Answer`]: the analysis of one position as every surface gives it, with one
//! meaning per field: `c4solver analyze --json`, the server's `/analyze`, the
//! WebAssembly engine and Python's `Solver.analysis` all serialize this type
//! (docs/answer.md describes its JSON). [`Answer::online_json`] gives the online
//! solver's shorter form, the server's `/solve` and the engine's `solve`.
//!
//! ```
//! use c4solver::{Answer, Config, Mode, sized::Playable, sized::Solver};
//!
//! let mut solver = Solver::<7, 6>::with_builtin_book(Config::default())?;
//! let pos = Playable::parse("4455")?;
//! let answer = solver.answer("4455", &pos, Mode::Strong, false)?;
//! assert_eq!(answer.scores, [Some(-4), Some(-3), Some(18), Some(2), Some(2), Some(18), Some(-3)]);
//! assert_eq!((answer.score, answer.best.as_slice(), answer.book), (18, &[3, 6][..], true));
//! let json = serde_json::to_string(&answer)?;
//! assert!(json.starts_with(r#"{"moves":"4455","score":18,"scores":[-4,-3,18,2,2,18,-3],"best":[3,6],"book":true,"nodes":0,"time_us":"#));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::bits::Bits;
use serde::{Deserialize, Serialize};

use crate::analysis::{Analysis, Variation};
use crate::position::Playable;
use crate::solver::{Mode, Solver, Stopped};

/// The online solver's score for a column that cannot be played (the convention
/// of connect4.gamesolver.org's API, which `/solve` keeps).
const FULL_COLUMN: i32 = 100;

/// The analysis of one position: every field has one meaning on every surface.
/// Serialized (serde), the fields come in this order, `pv` only when a line was
/// asked for.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Answer {
    /// The move string of the position, as given (1-based columns).
    pub moves: String,
    /// The position's score from the side to move: the best column's, 0 on a
    /// full board (in weak mode, its sign).
    pub score: i32,
    /// Each column's score from the side to move, left to right: the score of
    /// the position after that move (see [`Analysis`](crate::Analysis)); `None` (JSON
    /// `null`) for a full column.
    pub scores: Vec<Option<i32>>,
    /// The columns (1-based, left to right) with the top score; empty on a full
    /// board.
    pub best: Vec<usize>,
    /// Every score in `scores` was read from the opening book, with no search
    /// ([`Analysis::book`]): false when a column was searched or wins at once,
    /// and on a full board.
    pub book: bool,
    /// Nodes explored by the searches of the analysis and of `pv` (0 when the
    /// book answered every column and no line was asked for).
    pub nodes: u64,
    /// Microseconds the analysis and `pv` took.
    pub time_us: u64,
    /// A line of best play to the end of the game, as a move string (empty on a
    /// full board), when asked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pv: Option<String>,
}

impl Answer {
    /// The answer of `analysis`, the position written `moves`, with the line of
    /// best play `pv` (built from it) if there is one.
    pub fn new<const W: usize, const H: usize, B: Bits>(
        moves: &str,
        analysis: &Analysis<W, H, B>,
        pv: Option<&Variation>,
    ) -> Answer {
        let time = analysis.time() + pv.map(Variation::time).unwrap_or_default();
        Answer {
            moves: moves.to_string(),
            score: analysis.score(),
            scores: analysis.scores().to_vec(),
            best: analysis.best_moves().iter().map(|c| c + 1).collect(),
            book: analysis.book(),
            nodes: analysis.nodes() + pv.map_or(0, Variation::nodes),
            time_us: u64::try_from(time.as_micros()).unwrap_or(u64::MAX),
            pv: pv.map(Variation::to_string),
        }
    }

    /// The online solver's answer (connect4.gamesolver.org's API), the server's
    /// `GET /solve` and the WebAssembly engine's `solve`:
    /// `{"pos":POS,"score":[...]}`, one score per column, 100 for a full one.
    /// `pos` is the move string as asked (a cached answer may hold another
    /// order's).
    ///
    /// ```
    /// use c4solver::Answer;
    ///
    /// let answer = Answer { scores: vec![Some(-2), None, Some(3)], ..Answer::default() };
    /// assert_eq!(answer.online_json("2"), r#"{"pos":"2","score":[-2,100,3]}"#);
    /// ```
    pub fn online_json(&self, pos: &str) -> String {
        let score = self
            .scores
            .iter()
            .map(|s| s.unwrap_or(FULL_COLUMN))
            .collect();
        serde_json::to_string(&Online { pos, score })
            .expect("a string and integers always serialize")
    }
}

/// [`Answer::online_json`]'s fields, in the online solver's order.
#[derive(Serialize)]
struct Online<'a> {
    pos: &'a str,
    score: Vec<i32>,
}

impl<const W: usize, const H: usize, B: Bits> Solver<W, H, B> {
    /// The [`Answer`] for `pos`, written `moves`, in `mode`: its
    /// [`Solver::analyze`], and with `pv` its [`Solver::principal_variation_of`].
    ///
    /// # Errors
    /// [`Stopped`] if the [`StopFlag`](crate::StopFlag) was set.
    pub fn answer(
        &mut self,
        moves: &str,
        pos: &Playable<W, H, B>,
        mode: Mode,
        pv: bool,
    ) -> Result<Answer, Stopped> {
        let analysis = self.analyze_playable(pos, mode)?;
        let line = if pv {
            Some(self.principal_variation_of(&analysis)?)
        } else {
            None
        };
        Ok(Answer::new(moves, &analysis, line.as_ref()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;
    use crate::solver::Solver7x6;

    fn answer(moves: &str, pv: bool) -> Answer {
        let mut s = Solver7x6::with_builtin_book(Config::default()).unwrap();
        let pos = Playable::parse(moves).unwrap();
        s.answer(moves, &pos, Mode::Strong, pv).unwrap()
    }

    #[test]
    fn a_book_position_is_read_from_the_book() {
        let a = answer("", false);
        assert_eq!(a.scores, [-2, -1, 0, 1, 0, -1, -2].map(Some));
        assert_eq!(
            (a.score, a.best.clone(), a.book, a.nodes),
            (1, vec![4], true, 0)
        );
        // A line of play goes past the book: it searches, the scores stay the book's.
        let with_line = answer("", true);
        assert!(with_line.book && with_line.nodes > 0);
        assert_eq!(with_line.pv.as_deref().map(str::len), Some(41));
    }

    #[test]
    fn a_win_at_once_and_a_deep_position_are_not_the_books() {
        // 6 stones, every child in the book but column 1 wins at once.
        let a = answer("121212", false);
        assert_eq!(
            (a.scores[0], a.best.clone(), a.book),
            (Some(18), vec![1], false)
        );
        // 17 stones: past the book, searched.
        let deep = answer("77777766666633442", false);
        assert!(!deep.book);
        assert_eq!((deep.scores[5], deep.scores[6]), (None, None));
    }

    #[test]
    fn the_json_has_one_order_and_null_for_a_full_column() {
        let mut a = answer("77777766666633442", true);
        a.time_us = 7;
        let json = serde_json::to_string(&a).unwrap();
        let keys: Vec<&str> = [
            "moves", "score", "scores", "best", "book", "nodes", "time_us", "pv",
        ]
        .into_iter()
        .filter(|k| json.contains(&format!("\"{k}\":")))
        .collect();
        assert_eq!(keys.len(), 8, "{json}");
        let at = |k: &str| json.find(&format!("\"{k}\":")).unwrap();
        assert!(keys.windows(2).all(|w| at(w[0]) < at(w[1])), "{json}");
        assert!(json.contains(",null,null]"), "{json}");
        assert_eq!(serde_json::from_str::<Answer>(&json).unwrap(), a);
        a.pv = None;
        assert!(!serde_json::to_string(&a).unwrap().contains("pv"));
    }

    #[test]
    fn the_online_json_gives_100_for_a_full_column() {
        // 17 stones, columns 6 and 7 full: searched, every other column loses.
        let a = answer("77777766666633442", false);
        assert_eq!(
            a.online_json("77777766666633442"),
            r#"{"pos":"77777766666633442","score":[-12,-12,-12,-12,-12,100,100]}"#
        );
        // Each column's score is minus a solve of the position after it.
        let mut s = Solver7x6::new(Config::default()).unwrap();
        for col in 1..=5 {
            let child = Playable::parse(&format!("77777766666633442{col}")).unwrap();
            let score = s.solve(&child, Mode::Strong).unwrap().score;
            assert_eq!(a.scores[col - 1], Some(-score));
        }
        // A book position; `pos` is the text asked, not the answer's own moves.
        let b = answer("4455", false);
        assert_eq!(
            b.online_json("5544"),
            r#"{"pos":"5544","score":[-4,-3,18,2,2,18,-3]}"#
        );
    }
}
