//! [`Analysis`]: every column's score of one [`Position`] on any board size.

use std::time::Duration;

use crate::analysis::{Analysis as SizedAnalysis, best_column, best_columns, top_score};
use crate::bits::Bits;
use crate::erased::Position;
use crate::position::Playable;
use crate::solver::Mode;

/// The score of every column of one position, on any board size: the
/// size-erased face of [`sized::Analysis`](crate::sized::Analysis), from
/// [`Solver::analyze`](crate::Solver::analyze).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    position: Position,
    mode: Mode,
    scores: Vec<Option<i32>>,
    book: bool,
    nodes: u64,
    time: Duration,
}

impl<const W: usize, const H: usize, B: Bits> From<&SizedAnalysis<W, H, B>> for Analysis {
    fn from(a: &SizedAnalysis<W, H, B>) -> Self {
        Analysis {
            position: (*a.position()).into(),
            mode: a.mode(),
            scores: a.scores().to_vec(),
            book: a.book(),
            nodes: a.nodes(),
            time: a.time(),
        }
    }
}

impl Analysis {
    /// The generic analysis again, on the position's own size (the caller
    /// dispatched on it).
    pub(crate) fn sized<const W: usize, const H: usize, B: Bits>(&self) -> SizedAnalysis<W, H, B> {
        let board = self.position.board::<W, H, B>();
        let position = Playable::new(board).expect("an analysed position is playable");
        let scores = std::array::from_fn(|c| self.scores[c]);
        SizedAnalysis::from_parts(
            position,
            self.mode,
            scores,
            (self.book, self.nodes, self.time),
        )
    }

    /// The position analysed.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The mode of the scores: exact ([`Mode::Strong`]) or signs ([`Mode::Weak`]).
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// Each column's score (0-based index, one per column of the board), `None`
    /// for a full column.
    pub fn scores(&self) -> &[Option<i32>] {
        &self.scores
    }

    /// The position's score: the best column's score, or 0 (a draw) on a full board.
    pub fn score(&self) -> i32 {
        top_score(&self.scores)
    }

    /// Every column (0-based, left to right) with the top score; empty on a full
    /// board.
    pub fn best_moves(&self) -> Vec<usize> {
        best_columns(&self.scores)
    }

    /// One best move: of the columns with the top score, the one nearest the
    /// centre, the left one of two equally near; `None` on a full board.
    pub fn best_move(&self) -> Option<usize> {
        best_column(&self.scores)
    }

    /// Whether every column's score was read from the opening book with no search.
    pub fn book(&self) -> bool {
        self.book
    }

    /// Nodes explored by every search of the analysis.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Time of the analysis, not counting the table clear before it.
    pub fn time(&self) -> Duration {
        self.time
    }
}
