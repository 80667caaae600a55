//! Analysis: the score of every move, the best moves, and a line of best play.
//!
//! The solver answers "what is this position worth?"; this module answers the
//! next questions: what is each move worth, which one should I play, and what
//! happens then? Its methods are methods of [`Solver`] (defined here, so that the
//! solver knows nothing of them) and use its configuration, its table and its
//! [`StopFlag`](crate::StopFlag).
//!
//! ```
//! use c4solver::{Config, Mode, sized::Board, sized::Solver};
//!
//! type Position = Board<7, 6>;
//! let mut solver = Solver::<7, 6>::new(Config::default())?;
//! // 36 stones; columns 4, 5 and 6 are full.
//! let pos = Position::parse("357764656655524426657442143123337712")?;
//! let analysis = solver.analyze(&pos, Mode::Strong)?;
//! assert_eq!(
//!     analysis.scores(),
//!     [Some(-3), Some(-3), Some(-3), None, None, None, Some(0)]
//! );
//! // Column 7 (0-based 6) draws; every other move loses.
//! assert_eq!(analysis.score(), 0);
//! assert_eq!(analysis.best_moves(), vec![6]);
//! assert_eq!(analysis.best_move(), Some(6));
//! // Both sides' best play from there fills the board with no four.
//! let line = solver.principal_variation_of(&analysis)?;
//! assert_eq!(line.to_string(), "732111");
//!
//! // The side to move loses with the opponent's 7th stone (22 - 15) at the
//! // latest: play 4, and the opponent completes four in column 3.
//! let pos = Position::parse("44455554221")?;
//! let line = solver.principal_variation(&pos, Mode::Strong)?;
//! assert_eq!((line.score(), line.to_string().as_str()), (-15, "43"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Scores
//!
//! A move's score is the score of the position after it, from the side that
//! played it: `-solve(child)`, or, for a move that completes four at once, the
//! score of that win, `(W * H + 1 - stones) / 2` (the tutorial's convention: the
//! mover wins with their next stone). In [`Mode::Weak`] every score is only its
//! sign (1 win, 0 draw, -1 loss), an immediate win included. The position's score
//! is the best move's score.
//!
//! # Cost
//!
//! An analysis clears the table once (as [`Solver::solve`] does, unless the
//! configuration keeps it), then searches the children with the table shared, so
//! that what one child's search proves serves the others. Each child's search
//! starts from what is already known of its score: the range its number of stones
//! allows, narrowed by the searches before it. The columns of a position that is
//! its own mirror image are searched once per mirror pair. Asking only for the best
//! moves ([`Solver::best_moves`]) or for a line of play
//! ([`Solver::principal_variation`]) searches only what they need: one child in
//! full, then a null-window test per other child ("is it better than the best so
//! far?"), and exact scores only for the moves that are.

use crate::bits::Bits;
use std::fmt;
use std::time::Duration;
// `std::time::Instant` panics on wasm32-unknown-unknown; web-time is std's elsewhere.
use web_time::Instant;

use crate::moves::{center_column, center_first};
use crate::position::{Board, Playable};
use crate::solver::{Mode, SolveError, Solver, Stopped, playable};

/// The score of every column of one position; see the module documentation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Analysis<const W: usize, const H: usize, B: Bits> {
    position: Playable<W, H, B>,
    mode: Mode,
    scores: [Option<i32>; W],
    book: bool,
    nodes: u64,
    time: Duration,
}

impl<const W: usize, const H: usize, B: Bits> Analysis<W, H, B> {
    /// The analysis of these fields (a size-erased analysis's own).
    pub(crate) fn from_parts(
        position: Playable<W, H, B>,
        mode: Mode,
        scores: [Option<i32>; W],
        (book, nodes, time): (bool, u64, Duration),
    ) -> Self {
        Analysis {
            position,
            mode,
            scores,
            book,
            nodes,
            time,
        }
    }

    /// The position analysed.
    pub fn position(&self) -> &Board<W, H, B> {
        self.position.board()
    }

    /// The mode of the scores: exact ([`Mode::Strong`]) or signs ([`Mode::Weak`]).
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// Each column's score (0-based index), `None` for a full column.
    pub fn scores(&self) -> [Option<i32>; W] {
        self.scores
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
    /// centre, the left one of two equally near (the order the searches prefer);
    /// `None` on a full board.
    pub fn best_move(&self) -> Option<usize> {
        best_column(&self.scores)
    }

    /// Whether every column's score was read from the solver's
    /// [`KnownScores`](crate::sized::KnownScores) (its opening book) with no search. A
    /// move that wins at once is scored by the rules, not the book: a position
    /// with one is `false`, and so is a full board (no score at all).
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

/// The best of the columns' `scores`, or 0 (a draw) when every column is full:
/// the score of an analysis, generic or size-erased.
pub(crate) fn top_score(scores: &[Option<i32>]) -> i32 {
    scores.iter().flatten().copied().max().unwrap_or(0)
}

/// The columns (0-based, left to right) with the top score.
pub(crate) fn best_columns(scores: &[Option<i32>]) -> Vec<usize> {
    let top = top_score(scores);
    (0..scores.len())
        .filter(|&c| scores[c] == Some(top))
        .collect()
}

/// Of the columns with the top score, the one first in [`center_first`]'s order.
pub(crate) fn best_column(scores: &[Option<i32>]) -> Option<usize> {
    let top = top_score(scores);
    (0..scores.len())
        .map(|i| center_column(scores.len(), i))
        .find(|&c| scores[c] == Some(top))
}

/// Moves whose score is within some margin of the best, as
/// [`Solver::moves_within`] proves them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The position's score (the best move's), or 0 on a full board.
    pub score: i32,
    /// Columns (0-based, left to right) scoring at least `score - margin`.
    pub columns: Vec<usize>,
    /// Nodes explored.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
}

/// A line of play from a position to the end of the game: every move in it is a
/// best move of the side that plays it; see [`Solver::principal_variation`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variation {
    moves: Vec<usize>,
    score: i32,
    nodes: u64,
    time: Duration,
}

impl Variation {
    /// The columns played (0-based), in order.
    pub fn moves(&self) -> &[usize] {
        &self.moves
    }

    /// The score of the position the line starts from (exact or its sign, by the
    /// mode it was built in).
    pub fn score(&self) -> i32 {
        self.score
    }

    /// Nodes explored to build the line (and, from [`Solver::principal_variation`],
    /// to solve its first position).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Time taken to build the line.
    pub fn time(&self) -> Duration {
        self.time
    }
}

/// The moves in the move notation (`"6333"`; columns past the 9th as `a`, `b`,
/// ...); an empty line (from a full board) is the empty string.
impl fmt::Display for Variation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for &c in &self.moves {
            write!(f, "{}", crate::position::column_symbol(c))?;
        }
        Ok(())
    }
}

/// What is known of the score of each move of one position while searches narrow
/// it: `lo[c] <= score(c) <= hi[c]`, equal once known. Scores are from the side to
/// move at this position; in weak mode they are signs.
struct Root<'s, const W: usize, const H: usize, B: Bits> {
    solver: &'s mut Solver<W, H, B>,
    weak: bool,
    /// The position after each column, for the moves that need a search.
    child: [Option<Playable<W, H, B>>; W],
    playable: [bool; W],
    lo: [i32; W],
    hi: [i32; W],
    /// The column whose score stands for this one's: itself, or in a position that
    /// is its own mirror image, the left one of the mirror pair.
    rep: [usize; W],
    /// Columns (by `rep`) whose child the known scores answered at least once.
    read: [bool; W],
    /// Columns (by `rep`) whose child went to the search at least once.
    searched: [bool; W],
    nodes: u64,
}

impl<'s, const W: usize, const H: usize, B: Bits> Root<'s, W, H, B> {
    /// Bounds from the number of stones alone, and the exact score of the moves
    /// that need no search (a win at once, the last cell of the board).
    fn new(solver: &'s mut Solver<W, H, B>, pos: &Playable<W, H, B>, mode: Mode) -> Self {
        let weak = mode == Mode::Weak;
        let squash = |v: i32| if weak { v.signum() } else { v };
        let mut root = Root {
            solver,
            weak,
            child: [None; W],
            playable: [false; W],
            lo: [0; W],
            hi: [0; W],
            rep: std::array::from_fn(|c| c),
            read: [false; W],
            searched: [false; W],
            nodes: 0,
        };
        if pos.mirror() == *pos.board() {
            root.rep = std::array::from_fn(|c| c.min(W - 1 - c));
        }
        for c in 0..W {
            if !pos.can_play(c) {
                continue;
            }
            root.playable[c] = true;
            if pos.is_winning_move(c) {
                root.lo[c] = squash(pos.win_next_score());
                root.hi[c] = root.lo[c];
                continue;
            }
            let mut child = *pos.board();
            child.play_col(c);
            // The child's score s lies in its range, and this move's score is -s.
            let (min, max) = child.score_range();
            root.lo[c] = squash(-max);
            root.hi[c] = squash(-min);
            // Not a winning move: the child holds no four.
            root.child[c] = Some(Playable::trusted(child));
        }
        root
    }

    /// `v`, or its sign in weak mode.
    fn squash(&self, v: i32) -> i32 {
        if self.weak { v.signum() } else { v }
    }

    /// Column `c`'s score if it is known.
    fn known(&self, c: usize) -> Option<i32> {
        let c = self.rep[c];
        (self.lo[c] == self.hi[c]).then_some(self.lo[c])
    }

    /// The score of column `c`'s child in the window `[alpha, beta]`, as the
    /// solver answers it (exact inside, a bound at or beyond either end), with the
    /// table kept; notes whether the known scores answered it or a search did.
    fn search(
        &mut self,
        c: usize,
        child: &Playable<W, H, B>,
        alpha: i32,
        beta: i32,
    ) -> Result<i32, Stopped> {
        // Asked here rather than by the solver, to tell a book answer from a
        // search.
        let known = self
            .solver
            .known_scores()
            .and_then(|k| k.known_score(child));
        if let Some(score) = known {
            self.read[c] = true;
            return Ok(score.clamp(alpha, beta));
        }
        self.searched[c] = true;
        let s = self.solver.search(child, alpha, beta)?;
        self.nodes += s.nodes;
        Ok(s.score)
    }

    /// Whether every playable column's score was read from the known scores,
    /// none searched nor scored by the rules (false with no playable column).
    fn all_read(&self) -> bool {
        let mut playable = (0..W).filter(|&c| self.playable[c]).peekable();
        playable.peek().is_some()
            && playable.all(|c| self.read[self.rep[c]] && !self.searched[self.rep[c]])
    }

    /// Whether column `c` scores at least `v`, narrowing its bounds.
    ///
    /// Precondition: `c` is playable.
    fn at_least(&mut self, c: usize, v: i32) -> Result<bool, Stopped> {
        debug_assert!(self.playable[c]);
        let c = self.rep[c];
        if self.lo[c] >= v {
            return Ok(true);
        }
        if self.hi[c] < v {
            return Ok(false);
        }
        let child = self.child[c].expect("a move with unknown score has a child");
        // score(c) = -s, so score(c) >= v exactly when s <= -v: one null window.
        let r = self.search(c, &child, -v, -v + 1)?;
        if r <= -v {
            // s <= r: score(c) >= -r.
            self.lo[c] = self.lo[c].max(self.squash(-r));
            Ok(true)
        } else {
            // s >= r: score(c) <= -r.
            self.hi[c] = self.hi[c].min(self.squash(-r));
            Ok(false)
        }
    }

    /// Column `c`'s exact score (its sign in weak mode).
    ///
    /// Precondition: `c` is playable.
    fn exact(&mut self, c: usize) -> Result<i32, Stopped> {
        debug_assert!(self.playable[c]);
        let c = self.rep[c];
        if self.lo[c] < self.hi[c] {
            let child = self.child[c].expect("a move with unknown score has a child");
            // The child's score lies in [alpha, beta]: an answer at either end is
            // that end (a fail-low answer is an upper bound, and the lower bound is
            // known), inside it is exact.
            let (alpha, beta) = (-self.hi[c], -self.lo[c]);
            let r = self.search(c, &child, alpha, beta)?.clamp(alpha, beta);
            self.lo[c] = self.squash(-r);
            self.hi[c] = self.lo[c];
        }
        Ok(self.lo[c])
    }

    /// Every column's exact score.
    fn all_exact(&mut self) -> Result<[Option<i32>; W], Stopped> {
        for c in center_first::<W>() {
            if self.playable[c] {
                self.exact(c)?;
            }
        }
        Ok(std::array::from_fn(|c| {
            self.playable[c].then(|| self.known(c).expect("every score is exact"))
        }))
    }

    /// The best score and the columns scoring at least `best - margin`, with as
    /// little search as that takes: the known scores first, then one child in full,
    /// then a null-window test per other child, and an exact score only for a move
    /// that beats the best so far. `None` on a full board.
    fn within(&mut self, margin: i32) -> Result<Option<(i32, Vec<usize>)>, Stopped> {
        let playable: Vec<usize> = center_first::<W>()
            .into_iter()
            .filter(|&c| self.playable[c])
            .collect();
        let mut best = playable.iter().filter_map(|&c| self.known(c)).max();
        for &c in &playable {
            match best {
                None => best = Some(self.exact(c)?),
                Some(b) => {
                    if self.at_least(c, b + 1)? {
                        best = Some(self.exact(c)?);
                    }
                }
            }
        }
        let Some(best) = best else {
            return Ok(None);
        };
        let mut columns = Vec::new();
        for c in 0..W {
            if self.playable[c] && self.at_least(c, best - margin)? {
                columns.push(c);
            }
        }
        Ok(Some((best, columns)))
    }
}

impl<const W: usize, const H: usize, B: Bits> Solver<W, H, B> {
    /// The score of every column of `pos` in `mode` (see the
    /// module documentation): exact in [`Mode::Strong`], signs
    /// in [`Mode::Weak`], `None` for a full column.
    ///
    /// The table is cleared first (unless the configuration keeps it), then shared
    /// by the searches of the children.
    ///
    /// # Errors
    /// [`SolveError::GameOver`] if a side already holds four in a row,
    /// [`SolveError::Stopped`] if the [`StopFlag`](crate::StopFlag) was set.
    pub fn analyze(
        &mut self,
        pos: &Board<W, H, B>,
        mode: Mode,
    ) -> Result<Analysis<W, H, B>, SolveError> {
        let pos = playable(pos)?;
        Ok(self.analyze_playable(&pos, mode)?)
    }

    /// [`Solver::analyze`] of a position known to be playable.
    ///
    /// # Errors
    /// [`Stopped`] if the [`StopFlag`](crate::StopFlag) was set.
    pub(crate) fn analyze_playable(
        &mut self,
        pos: &Playable<W, H, B>,
        mode: Mode,
    ) -> Result<Analysis<W, H, B>, Stopped> {
        self.begin_position();
        let start = Instant::now();
        let mut root = Root::new(self, pos, mode);
        let scores = root.all_exact()?;
        Ok(Analysis {
            position: *pos,
            mode,
            scores,
            book: root.all_read(),
            nodes: root.nodes,
            time: start.elapsed(),
        })
    }

    /// The position's score and the columns (0-based, left to right) whose score
    /// is at least that minus `margin`, searching no more than that takes (see the
    /// module documentation); a margin of 0 gives the best moves.
    /// On a full board: score 0 and no column.
    ///
    /// The table is cleared first unless the configuration keeps it.
    ///
    /// # Panics
    /// In debug builds, if `margin` is negative.
    ///
    /// # Errors
    /// As [`Solver::analyze`].
    pub fn moves_within(
        &mut self,
        pos: &Board<W, H, B>,
        mode: Mode,
        margin: i32,
    ) -> Result<Choice, SolveError> {
        debug_assert!(margin >= 0);
        let pos = playable(pos)?;
        self.begin_position();
        let start = Instant::now();
        let mut root = Root::new(self, &pos, mode);
        let (score, columns) = root.within(margin)?.unwrap_or((0, Vec::new()));
        Ok(Choice {
            score,
            columns,
            nodes: root.nodes,
            time: start.elapsed(),
        })
    }

    /// Every column (0-based, left to right) with the top score in `mode`, and that
    /// score: [`Solver::moves_within`] with a margin of 0, cheaper than a full
    /// [`Solver::analyze`].
    ///
    /// # Errors
    /// As [`Solver::analyze`].
    pub fn best_moves(&mut self, pos: &Board<W, H, B>, mode: Mode) -> Result<Choice, SolveError> {
        self.moves_within(pos, mode, 0)
    }

    /// One best move in `mode`: of the columns with the top score, the one nearest
    /// the centre, the left one of two equally near (as [`Analysis::best_move`]);
    /// `None` on a full board.
    ///
    /// # Errors
    /// As [`Solver::analyze`].
    pub fn best_move(
        &mut self,
        pos: &Board<W, H, B>,
        mode: Mode,
    ) -> Result<Option<usize>, SolveError> {
        let best = self.best_moves(pos, mode)?.columns;
        Ok(center_first::<W>().into_iter().find(|c| best.contains(c)))
    }

    /// A line of best play for both sides from `pos` to the end of the game.
    ///
    /// Played from `pos`, every move is legal and a best move of the side that
    /// plays it in `mode` (the nearest the centre of the best, as
    /// [`Analysis::best_move`]), and the game ends as the score says: in
    /// [`Mode::Strong`], the winner completes four with their stone number
    /// `(W * H / 2 + 1) - |score|` (`22 - |score|` on 7x6), and a score of 0 fills
    /// the board with no four; in [`Mode::Weak`], the side the sign names wins
    /// (not necessarily as fast as it could), or the board fills.
    ///
    /// The table is cleared first (unless the configuration keeps it), then shared
    /// by every ply: each move costs a null-window test per column before it.
    ///
    /// # Errors
    /// As [`Solver::analyze`].
    pub fn principal_variation(
        &mut self,
        pos: &Board<W, H, B>,
        mode: Mode,
    ) -> Result<Variation, SolveError> {
        let pos = playable(pos)?;
        self.begin_position();
        let start = Instant::now();
        let half = (W * H / 2) as i32;
        let (alpha, beta) = match mode {
            Mode::Strong => (-half, half),
            Mode::Weak => (-1, 1),
        };
        let root = self.search_window_playable(&pos, alpha, beta)?;
        let score = match mode {
            Mode::Strong => root.score,
            Mode::Weak => root.score.signum(),
        };
        let (moves, nodes) = self.line(&pos, mode, score)?;
        Ok(Variation {
            moves,
            score,
            nodes: root.nodes + nodes,
            time: start.elapsed(),
        })
    }

    /// [`Solver::principal_variation`] of an analysed position, in the analysis's
    /// mode, with the table the analysis filled (not cleared) and the score it
    /// found: cheaper than starting afresh.
    ///
    /// # Errors
    /// [`Stopped`] if the [`StopFlag`](crate::StopFlag) was set.
    pub fn principal_variation_of(
        &mut self,
        analysis: &Analysis<W, H, B>,
    ) -> Result<Variation, Stopped> {
        let start = Instant::now();
        let score = analysis.score();
        let (moves, nodes) = self.line(&analysis.position, analysis.mode, score)?;
        Ok(Variation {
            moves,
            score,
            nodes,
            time: start.elapsed(),
        })
    }

    /// The moves of a line of best play from `pos`, whose score in `mode` is
    /// `score`, and the nodes it took; the table is kept.
    fn line(
        &mut self,
        pos: &Playable<W, H, B>,
        mode: Mode,
        score: i32,
    ) -> Result<(Vec<usize>, u64), Stopped> {
        let mut pos = *pos;
        let mut score = score;
        let mut moves = Vec::with_capacity(W * H - pos.moves_played());
        let mut nodes = 0;
        while !pos.is_full() {
            let mut root = Root::new(self, &pos, mode);
            // Every move scores at most `score`: the first (center first) that
            // scores at least as much is a best move.
            let mut best = None;
            for c in center_first::<W>() {
                if root.playable[c] && root.at_least(c, score)? {
                    best = Some(c);
                    break;
                }
            }
            nodes += root.nodes;
            let Some(c) = best else {
                debug_assert!(false, "no move of {pos:?} reaches its score {score}");
                break;
            };
            moves.push(c);
            if pos.is_winning_move(c) {
                break;
            }
            // Not a winning move: the position stays playable.
            let mut next = *pos.board();
            next.play_col(c);
            pos = Playable::trusted(next);
            score = -score;
        }
        Ok((moves, nodes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;
    use crate::position::Position;
    use crate::solver::Solver7x6;

    fn solver() -> Solver7x6 {
        Solver7x6::new(Config::default()).unwrap()
    }

    #[test]
    fn an_immediate_win_scores_as_in_the_tutorial() {
        // 121212: the first player wins in column 1 with their 4th stone.
        let pos = Position::parse("121212").unwrap();
        let mut s = solver();
        let a = s.analyze(&pos, Mode::Strong).unwrap();
        assert_eq!(a.scores()[0], Some(18));
        assert_eq!(a.best_moves(), vec![0]);
        let w = s.analyze(&pos, Mode::Weak).unwrap();
        assert_eq!(w.scores()[0], Some(1));
    }

    #[test]
    fn finished_games_are_refused() {
        let mut won = Position::parse("121212").unwrap();
        won.play_col(0);
        let mut s = solver();
        assert_eq!(s.analyze(&won, Mode::Strong), Err(SolveError::GameOver));
        assert_eq!(
            s.principal_variation(&won, Mode::Strong),
            Err(SolveError::GameOver)
        );
        assert_eq!(s.best_moves(&won, Mode::Weak), Err(SolveError::GameOver));
    }
}
