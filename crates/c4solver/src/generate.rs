//! Random positions as `c4solver generate` draws its candidates: for each draw,
//! a ply is drawn uniformly in a range of stones and a game is played with
//! uniformly random legal moves up to that ply; a game that is won before it gets
//! there gives nothing. The same seed gives the same positions (ChaCha8 from
//! `rand_chacha`). The command line labels them with the solver and keeps those of
//! the difficulty asked for; Python's `random_positions` gives them as they are.

use crate::bits::Bits;
use std::collections::HashSet;
use std::ops::RangeInclusive;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::position::Board;

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

/// Whether [`draws`] can draw anything from `stones` on a board of `cells`
/// cells: a range that holds a number from 1 to one short of a full board.
pub(crate) fn drawable(cells: usize, stones: &RangeInclusive<usize>) -> bool {
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
/// Endless; `None` instead if nothing can be drawn from `stones` (no number
/// from 1 to one short of a full board: the empty and the full board are never
/// drawn).
pub fn draws<const W: usize, const H: usize, B: Bits>(
    stones: RangeInclusive<usize>,
    seed: u64,
) -> Option<impl Iterator<Item = Option<(String, Board<W, H, B>)>> + Send + use<W, H, B>> {
    if !drawable(W * H, &stones) {
        return None;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut seen = HashSet::new();
    Some(std::iter::from_fn(move || {
        let drawn = random_position::<W, H, B>(&mut rng, &stones);
        Some(drawn.filter(|(_, pos)| seen.insert(pos.key())))
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_range_runs_out() {
        // One stone: seven positions, each drawn once; the rest are `None`.
        let drawn: Vec<_> = draws::<7, 6, u64>(1..=1, 3)
            .unwrap()
            .take(500)
            .flatten()
            .collect();
        assert_eq!(drawn.len(), 7);
        assert!(!drawable(42, &(0..=0)) && !drawable(42, &(42..=42)));
        assert!(drawable(42, &(0..=1)) && drawable(42, &(29..=42)));
        assert!(draws::<7, 6, u64>(42..=42, 3).is_none());
    }
}
