//! The test-set generator: random legal games, labelled by the strong solver.
//!
//! For each candidate, a ply is drawn uniformly in the stage's range of stones and a
//! game is played with uniformly random legal moves up to that ply; a game that is
//! won before it gets there is dropped. The position is solved strongly and kept if
//! its moves left under perfect play fall in the difficulty's range and it was not
//! kept before. The same seed gives the same file (ChaCha8 from `rand_chacha`).
//!
//! Every board size works the same way, with the stages and difficulties as the
//! same thirds of its cells ([`Stage::stones_on`], [`Difficulty::of_on`]).

use crate::bits::Bits;
use std::collections::HashSet;
use std::ops::RangeInclusive;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::position::Board;
use crate::solver::{Mode, SolveError, Solver};
use crate::testset::{Difficulty, Stage, moves_left_on};

/// What to generate.
#[derive(Clone, Copy, Debug)]
pub struct Request {
    /// Stones on the board.
    pub stage: Stage,
    /// Moves left under perfect play.
    pub difficulty: Difficulty,
    /// Positions to keep.
    pub count: usize,
    /// Seed of the random games.
    pub seed: u64,
}

impl Request {
    /// Whether positions of this stage can have this difficulty: a position with `s`
    /// stones ends within `42 - s` moves, so End positions are always Easy and
    /// Middle ones never Hard.
    pub fn is_possible(&self) -> bool {
        Difficulty::of(self.longest_game()) >= self.difficulty
    }

    /// The most moves left in a position of the stage.
    pub fn longest_game(&self) -> usize {
        self.stage.longest_game()
    }
}

/// One generated position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    /// The move string.
    pub moves: String,
    /// Its strong score.
    pub score: i32,
}

/// A random position with a number of stones drawn uniformly in `stones` (at
/// most one short of a full board), or `None` if the random game was won before
/// it or the draw was the empty board.
fn random_position<const W: usize, const H: usize, B: Bits>(
    rng: &mut ChaCha8Rng,
    stones: &RangeInclusive<usize>,
) -> Option<(String, Board<W, H, B>)> {
    // A full board has no move to make: stop one short of it.
    let ply = rng.random_range(*stones.start()..=(*stones.end()).min(W * H - 1));
    // Never the empty board: everyone knows it (score 1), and one solve of it takes
    // minutes, more than a whole Begin set should. Skipping it after the draw keeps
    // every other candidate, and so every seed's output, as it was.
    if ply == 0 {
        return None;
    }
    let mut pos = Board::<W, H, B>::new();
    let mut moves = String::with_capacity(ply);
    for _ in 0..ply {
        let playable: Vec<usize> = (0..W).filter(|&c| pos.can_play(c)).collect();
        let col = playable[rng.random_range(0..playable.len())];
        if pos.is_winning_move(col) {
            return None;
        }
        pos.play_col(col);
        moves.push(Board::<W, H, B>::column_symbol(col));
    }
    Some((moves, pos))
}

/// Whether [`draws`] can draw anything from `stones`: a range that holds a
/// number from 1 to one short of a full board.
pub fn drawable(cells: usize, stones: &RangeInclusive<usize>) -> bool {
    let (lo, hi) = (
        *stones.start(),
        (*stones.end()).min(cells.saturating_sub(1)),
    );
    lo <= hi && hi >= 1
}

/// Random positions with `stones` stones, as the generator draws its candidates
/// (see the module documentation), each position at most once: one item per draw,
/// `None` for a draw that gave no new position (a game won before its last stone,
/// the empty board, or a position drawn before), so that a caller can tell a
/// range that has run out of positions. The same seed gives the same sequence.
/// Endless.
///
/// # Panics
/// If `stones` is not [`drawable`].
pub fn draws<const W: usize, const H: usize, B: Bits>(
    stones: RangeInclusive<usize>,
    seed: u64,
) -> impl Iterator<Item = Option<(String, Board<W, H, B>)>> + Send + use<W, H, B> {
    assert!(
        drawable(W * H, &stones),
        "no position to draw from {stones:?} stones"
    );
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut seen = HashSet::new();
    std::iter::from_fn(move || {
        let drawn = random_position::<W, H, B>(&mut rng, &stones);
        Some(drawn.filter(|(_, pos)| seen.insert(pos.key())))
    })
}

/// Whether the strong score of `pos` puts it in `difficulty`, decided by
/// null-window tests at the edges of the bucket's score intervals.
fn in_bucket<const W: usize, const H: usize, B: Bits>(
    solver: &mut Solver<W, H, B>,
    pos: &Board<W, H, B>,
    difficulty: Difficulty,
) -> Result<bool, SolveError> {
    let n = pos.moves_played();
    let wanted = |s: i32| Difficulty::of_on(W * H, moves_left_on(W * H, n, s)) == difficulty;
    // The score lies in [lo, hi] (at best a win, at worst a loss, with the next
    // stone); narrow it until the bucket is decided.
    let (mut lo, mut hi) = pos.score_range();
    loop {
        let first = wanted(lo);
        // the first score in (lo, hi] whose membership differs from lo's
        let Some(edge) = (lo + 1..=hi).find(|&s| wanted(s) != first) else {
            return Ok(first);
        };
        // is the score at least `edge`?
        if solver.solve_window(pos, edge - 1, edge)?.score >= edge {
            lo = edge;
        } else {
            hi = edge - 1;
        }
    }
}

/// The candidates of `request`, in the order the generator examines them: random
/// positions of the stage ([`draws`] from its stones), each position at most
/// once. The same seed gives the same sequence. Endless: the caller stops (see
/// [`generate`]).
pub(crate) fn candidates<const W: usize, const H: usize, B: Bits>(
    request: &Request,
) -> impl Iterator<Item = (String, Board<W, H, B>)> + Send + use<W, H, B> {
    draws::<W, H, B>(request.stage.stones_on(W * H), request.seed).flatten()
}

/// The strong score of `pos` if its moves left under perfect play put it in
/// `difficulty`, `None` if they do not (decided by null-window tests first, so
/// that most candidates that do not fit are never solved in full).
///
/// # Errors
/// [`SolveError::Stopped`] if the solver's stop flag is set.
pub(crate) fn label<const W: usize, const H: usize, B: Bits>(
    solver: &mut Solver<W, H, B>,
    pos: &Board<W, H, B>,
    difficulty: Difficulty,
) -> Result<Option<i32>, SolveError> {
    if !in_bucket(solver, pos, difficulty)? {
        return Ok(None);
    }
    let score = solver.solve(pos, Mode::Strong)?.score;
    debug_assert_eq!(
        Difficulty::of_on(W * H, moves_left_on(W * H, pos.moves_played(), score)),
        difficulty
    );
    Ok(Some(score))
}

/// Generates `request.count` positions, solving candidates with `solver`: the
/// first `count` of [`candidates`] that [`label`] keeps. The command line runs
/// the same on the pool (`candidates_on`, `label_on`); the tests check it here.
///
/// `tick(new, kept, tried)` is called after each candidate examined, with the
/// position if it was kept. An impossible request (see [`Request::is_possible`])
/// returns nothing instead of searching forever.
///
/// # Errors
/// [`SolveError::Stopped`] as soon as the solver's stop flag is set (checked
/// between candidates too); the positions kept before were passed to `tick`.
#[cfg(test)]
fn generate<const W: usize, const H: usize, B: Bits>(
    request: &Request,
    solver: &mut Solver<W, H, B>,
    mut tick: impl FnMut(Option<&Generated>, usize, usize),
) -> Result<Vec<Generated>, SolveError> {
    if !request.is_possible() {
        return Ok(Vec::new());
    }
    // Grows as needed: a huge count must not be allocated up front.
    let mut kept = Vec::with_capacity(request.count.min(1 << 16));
    let mut tried = 0;
    let mut candidates = candidates::<W, H, B>(request);
    while kept.len() < request.count {
        if solver.stop_flag().is_stopped() {
            return Err(SolveError::Stopped);
        }
        let (moves, pos) = candidates.next().expect("candidates never end");
        tried += 1;
        if let Some(score) = label(solver, &pos, request.difficulty)? {
            kept.push(Generated { moves, score });
            tick(kept.last(), kept.len(), tried);
        } else {
            tick(None, kept.len(), tried);
        }
    }
    Ok(kept)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;
    use crate::solver::{Config, Solver7x6};
    use crate::testset::Stage;

    #[test]
    fn deterministic_and_in_bucket() {
        let req = Request {
            stage: Stage::End,
            difficulty: Difficulty::Easy,
            count: 20,
            seed: 7,
        };
        let mut s = Solver7x6::new(Config::reference()).unwrap();
        let a = generate(&req, &mut s, |_, _, _| ()).unwrap();
        let b = generate(&req, &mut s, |_, _, _| ()).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.len(), 20);
        let mut keys = HashSet::new();
        for g in &a {
            let p = Position::parse(&g.moves).unwrap();
            assert_eq!(Stage::of(p.moves_played()), Stage::End);
            assert!(keys.insert(p.key()));
            assert_eq!(s.solve(&p, Mode::Strong).unwrap().score, g.score);
        }
        let c = generate(&Request { seed: 8, ..req }, &mut s, |_, _, _| ()).unwrap();
        assert_ne!(a, c);
    }

    #[test]
    fn a_small_range_runs_out() {
        // One stone: seven positions, each drawn once; the rest are `None`.
        let drawn: Vec<_> = draws::<7, 6, u64>(1..=1, 3).take(500).flatten().collect();
        assert_eq!(drawn.len(), 7);
        assert!(!drawable(42, &(0..=0)) && !drawable(42, &(42..=42)));
        assert!(drawable(42, &(0..=1)) && drawable(42, &(29..=42)));
    }

    #[test]
    fn a_stop_ends_the_retry_loop() {
        // Begin x Hard candidates are rare and slow: the stop flag must end the run
        // between candidates as well as inside a search.
        let req = Request {
            stage: Stage::Begin,
            difficulty: Difficulty::Hard,
            count: 1000,
            seed: 1,
        };
        let mut s = Solver7x6::new(Config::default()).unwrap();
        s.stop_flag().stop();
        let mut ticks = 0;
        assert_eq!(
            generate(&req, &mut s, |_, _, _| ticks += 1),
            Err(SolveError::Stopped)
        );
        assert_eq!(ticks, 0);
    }

    #[test]
    fn impossible_requests_end_at_once() {
        // Regression: End x Medium searched forever (an End position ends within
        // 13 moves).
        let mut s = Solver7x6::new(Config::reference()).unwrap();
        for (stage, difficulty, possible) in [
            (Stage::End, Difficulty::Easy, true),
            (Stage::End, Difficulty::Medium, false),
            (Stage::End, Difficulty::Hard, false),
            (Stage::Middle, Difficulty::Medium, true),
            (Stage::Middle, Difficulty::Hard, false),
            (Stage::Begin, Difficulty::Hard, true),
        ] {
            let req = Request {
                stage,
                difficulty,
                count: 1,
                seed: 1,
            };
            assert_eq!(req.is_possible(), possible, "{stage} {difficulty}");
            if !possible {
                assert!(generate(&req, &mut s, |_, _, _| ()).unwrap().is_empty());
            }
        }
    }
}
