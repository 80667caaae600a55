//! What goes between the handlers, the cache and the solver threads: a parsed
//! position, a search to run, and its answer with its two JSON forms.

use serde_json::{Value, json};

/// What the online solver's `/solve` answers for a column that cannot be played.
pub const FULL_COLUMN: i32 = 100;

/// A valid position, as the command line parsed it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    /// The move string (spaces around it dropped).
    pub moves: String,
    /// The position's unique key: the cache's key.
    pub key: u64,
}

/// One search for a solver thread.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Task {
    /// The moves, already checked by [`super::solver::parse`].
    pub moves: String,
    /// Signs only (`weak=1`).
    pub weak: bool,
    /// With a line of best play (`pv=1`).
    pub pv: bool,
}

/// The analysis of one position, as `analyze --json` reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// Each column's score from the side to move, `None` for a full column.
    pub scores: Vec<Option<i32>>,
    /// The columns (1-based) with the top score.
    pub best: Vec<usize>,
    /// The position's score (the best column's; 0 on a full board).
    pub score: i32,
    /// Nodes the search explored (0 when the book answered).
    pub nodes: u64,
    /// Microseconds the search took.
    pub time_us: u64,
    /// The line of best play, when asked.
    pub pv: Option<String>,
    /// Whether the opening book scored every column (no search).
    pub book: bool,
}

impl Answer {
    /// The online solver's answer: `{"pos": MOVES, "score": [...]}`, 100 for a
    /// full column.
    pub fn solve_json(&self, pos: &str) -> Value {
        let score: Vec<i32> = self
            .scores
            .iter()
            .map(|s| s.unwrap_or(FULL_COLUMN))
            .collect();
        json!({ "pos": pos, "score": score })
    }

    /// `analyze --json`'s fields (but the line number and the expected score of
    /// a file's line), with `book` and `cached`.
    pub fn analyze_json(&self, moves: &str, cached: bool) -> Value {
        let mut v = json!({
            "moves": moves,
            "scores": self.scores,
            "best": self.best,
            "score": self.score,
            "nodes": self.nodes,
            "time_us": self.time_us,
            "book": self.book,
            "cached": cached,
        });
        if let Some(pv) = &self.pv {
            v["pv"] = pv.clone().into();
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer() -> Answer {
        Answer {
            scores: vec![Some(-2), None, Some(3)],
            best: vec![3],
            score: 3,
            nodes: 12,
            time_us: 5,
            pv: Some("31".into()),
            book: false,
        }
    }

    #[test]
    fn solve_json_marks_full_columns_100() {
        let v = answer().solve_json("2");
        assert_eq!(v.to_string(), r#"{"pos":"2","score":[-2,100,3]}"#);
    }

    #[test]
    fn analyze_json_has_the_command_lines_fields() {
        let v = answer().analyze_json("2", true);
        assert_eq!(v["scores"], json!([-2, null, 3]));
        assert_eq!(v["best"], json!([3]));
        assert_eq!(v["pv"], "31");
        assert_eq!(v["cached"], true);
        let mut a = answer();
        a.pv = None;
        assert!(a.analyze_json("2", false).get("pv").is_none());
    }
}
