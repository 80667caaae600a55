//! What goes between the handlers, the cache and the solver threads: a parsed
//! position, a search to run, and the library's [`Answer`] with `/analyze`'s
//! JSON form (`/solve`'s is the library's [`Answer::online_json`]).

use serde::Serialize;

pub use c4solver::{Answer, Position};

/// A valid position, as the command line parsed it.
#[derive(Clone, Debug)]
pub struct Parsed {
    /// The move string (spaces around it dropped).
    pub moves: String,
    /// The position's unique key on its board: with the size, the cache's key.
    pub key: u128,
    /// The position itself (the library's, which carries its board size),
    /// parsed once: the solver thread searches it.
    pub position: Position,
}

/// One search for a solver thread.
#[derive(Clone, Debug)]
pub struct Task {
    /// The moves, as the answer repeats them.
    pub moves: String,
    /// The position they reach, parsed by [`super::solver::parse`], on the
    /// board the request asked for.
    pub position: Position,
    /// Signs only (`weak=1`).
    pub weak: bool,
    /// With a line of best play (`pv=1`).
    pub pv: bool,
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
}
