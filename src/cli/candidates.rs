//! `generate`'s candidates and their labels: random positions of the stage
//! drawn by the library ([`draws`] from the stage's stones, each at most once),
//! kept if their moves left under perfect play fall in the difficulty's range.
//! The same seed gives the same file. Every board size works the same way, with
//! the stages and difficulties as the same thirds of its cells
//! ([`Stage::stones_on`], [`Difficulty::of_on`]).

use c4solver::bench::{Difficulty, Stage, draws};
use c4solver::sized::Bits;
use c4solver::{Mode, Position, Size, SizeError, SolveError, Solver, with_size};

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
        Difficulty::of(self.stage.longest_game()) >= self.difficulty
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

/// The candidates of `request` on the `size` board, in the order the generator
/// examines them: random positions of the stage ([`draws`] from its stones),
/// each position at most once, with their moves. The same seed gives the same
/// sequence. Endless: the caller stops.
///
/// # Errors
/// [`SizeError`] for a size this build does not hold.
pub fn candidates(
    size: Size,
    request: &Request,
) -> Result<Box<dyn Iterator<Item = (String, Position)> + Send>, SizeError> {
    Ok(with_size!(size.built()?, candidates_of(request)))
}

fn candidates_of<const W: usize, const H: usize, B: Bits>(
    request: &Request,
) -> Box<dyn Iterator<Item = (String, Position)> + Send> {
    let stones = request.stage.stones_on(W * H);
    Box::new(
        draws::<W, H, B>(stones, request.seed)
            .expect("every stage holds a number of stones from 1 to one short of a full board")
            .flatten()
            .map(|(moves, pos)| (moves, pos.into())),
    )
}

/// Whether the strong score of `pos` puts it in `difficulty`, decided by
/// null-window tests at the edges of the bucket's score intervals.
fn in_bucket(
    solver: &mut Solver,
    pos: &Position,
    difficulty: Difficulty,
) -> Result<bool, SolveError> {
    let (cells, n) = (pos.size().cells(), pos.moves_played());
    let wanted = |s: i32| Difficulty::of_score_on(cells, n, s) == difficulty;
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

/// The strong score of `pos` if its moves left under perfect play put it in
/// `difficulty`, `None` if they do not (decided by null-window tests first, so
/// that most candidates that do not fit are never solved in full).
///
/// # Errors
/// [`SolveError::Stopped`] if the solver's stop flag is set,
/// [`SolveError::WrongSize`] for a position of another size.
pub fn label(
    solver: &mut Solver,
    pos: &Position,
    difficulty: Difficulty,
) -> Result<Option<i32>, SolveError> {
    if pos.size() != solver.size() {
        return Err(SolveError::WrongSize {
            solver: solver.size(),
            position: pos.size(),
        });
    }
    if !in_bucket(solver, pos, difficulty)? {
        return Ok(None);
    }
    let score = solver.solve(pos, Mode::Strong)?.score;
    let cells = pos.size().cells();
    debug_assert_eq!(
        Difficulty::of_score_on(cells, pos.moves_played(), score),
        difficulty
    );
    Ok(Some(score))
}

#[cfg(test)]
mod tests {
    use super::*;
    use c4solver::Config;
    use std::collections::HashSet;

    /// Generates `request.count` positions, solving candidates with `solver`: the
    /// first `count` of [`candidates`] that [`label`] keeps, as `generate` does on
    /// its workers. `tick(new, kept, tried)` is called after each candidate
    /// examined, with the position if it was kept. An impossible request returns
    /// nothing instead of searching forever; a stop is an error, checked between
    /// candidates too.
    fn generate(
        request: &Request,
        solver: &mut Solver,
        mut tick: impl FnMut(Option<&Generated>, usize, usize),
    ) -> Result<Vec<Generated>, SolveError> {
        if !request.is_possible() {
            return Ok(Vec::new());
        }
        let mut kept = Vec::new();
        let mut tried = 0;
        let mut candidates = candidates(solver.size(), request).unwrap();
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

    fn solver(config: Config) -> Solver {
        Solver::new(Size::STANDARD, config).unwrap()
    }

    #[test]
    fn deterministic_and_in_bucket() {
        let req = Request {
            stage: Stage::End,
            difficulty: Difficulty::Easy,
            count: 20,
            seed: 7,
        };
        let mut s = solver(Config::reference());
        let a = generate(&req, &mut s, |_, _, _| ()).unwrap();
        let b = generate(&req, &mut s, |_, _, _| ()).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.len(), 20);
        let mut keys = HashSet::new();
        for g in &a {
            let p = Position::parse(Size::STANDARD, &g.moves).unwrap();
            assert_eq!(Stage::of(p.moves_played()), Stage::End);
            assert!(keys.insert(p.key()));
            assert_eq!(s.solve(&p, Mode::Strong).unwrap().score, g.score);
        }
        let c = generate(&Request { seed: 8, ..req }, &mut s, |_, _, _| ()).unwrap();
        assert_ne!(a, c);
    }

    #[test]
    fn candidates_are_the_draws_of_the_stage_and_labels_their_buckets() {
        let request = Request {
            stage: Stage::End,
            difficulty: Difficulty::Easy,
            count: 3,
            seed: 7,
        };
        let s = Size::STANDARD;
        let erased: Vec<(String, Position)> = candidates(s, &request).unwrap().take(20).collect();
        let drawn: Vec<_> = draws::<7, 6, u64>(Stage::End.stones_on(42), 7)
            .unwrap()
            .flatten()
            .take(20)
            .collect();
        assert_eq!(erased.len(), 20);
        let mut solver = solver(Config::default());
        for ((m1, p1), (m2, p2)) in erased.iter().zip(&drawn) {
            assert_eq!((m1, *p1), (m2, Position::from(*p2)));
            let score = solver.solve(p1, Mode::Strong).unwrap().score;
            let kept = Difficulty::of_score_on(42, p1.moves_played(), score) == request.difficulty;
            assert_eq!(
                label(&mut solver, p1, request.difficulty),
                Ok(kept.then_some(score)),
                "{m1}"
            );
        }
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
        let mut s = solver(Config::default());
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
        let mut s = solver(Config::reference());
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
