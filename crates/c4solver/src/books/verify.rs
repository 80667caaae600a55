//! Checking a book against independent answers: its own layers against each
//! other (every entry above the deepest layer is the best of its moves), and a
//! random sample of entries against a book-free solve.

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use super::generate::GenerateError;
use super::{Book, layers};
use crate::bits::Bits;
use crate::pool;
use crate::position::{Board, Playable};
use crate::solver::{Config, Mode, Solver, StopFlag, Stopped};

/// An entry whose score disagrees with another answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disagreement<B = u64> {
    /// Canonical key.
    pub key: B,
    /// A move string that reaches the position.
    pub moves: String,
    /// The book's score.
    pub book: i32,
    /// The other answer.
    pub other: i32,
}

/// Every entry with fewer stones than the book's depth whose score is not the
/// best of its moves according to the book's own entries (a move that wins at
/// once scores [`Board::win_next_score`]); empty for a sound book. Takes no
/// search: one look-up per move.
///
/// # Errors
/// [`super::BookError::Shard`] for a shard (it has one layer only).
pub(crate) fn consistency<const W: usize, const H: usize, B: Bits>(
    book: &Book<W, H, B>,
) -> Result<Vec<Disagreement<B>>, super::BookError> {
    book.require_whole()?;
    let depth = book.depth();
    let mut out = Vec::new();
    for (key, score) in book.entries() {
        let pos = Board::<W, H, B>::from_key(key).expect("a checked book holds keys");
        if pos.moves_played() == depth {
            continue;
        }
        let best = (0..W)
            .filter(|&c| pos.can_play(c))
            .map(|c| {
                if pos.is_winning_move(c) {
                    Some(pos.win_next_score())
                } else {
                    let mut child = pos;
                    child.play_col(c);
                    book.score(&child).map(|s| -s)
                }
            })
            .try_fold(i32::MIN, |m, s| s.map(|s| m.max(s)));
        if best != Some(score) {
            out.push(Disagreement {
                key,
                moves: layers::moves_to::<W, H, B>(key).unwrap_or_default(),
                book: score,
                // A missing child shows as the lowest score.
                other: best.unwrap_or(i32::MIN),
            });
        }
    }
    Ok(out)
}

/// The number of entries [`consistency`] checks: those with fewer stones than
/// the book's depth (the deepest layer has no moves' entries to compare with).
pub(crate) fn above_deepest<const W: usize, const H: usize, B: Bits>(
    book: &Book<W, H, B>,
) -> usize {
    let depth = book.depth();
    book.entries()
        .filter(|&(key, _)| {
            Board::<W, H, B>::from_key(key).is_some_and(|pos| pos.moves_played() < depth)
        })
        .count()
}

/// `count` distinct entries of the deepest layer drawn at random (all of them if
/// `count` is larger), the same for the same `seed`: (canonical key, score) pairs
/// in draw order. A book-free solve checks these in reasonable time (the layers
/// above are checked by [`consistency`]).
pub(crate) fn sample_deepest<const W: usize, const H: usize, B: Bits>(
    book: &Book<W, H, B>,
    count: usize,
    seed: u64,
) -> Vec<(B, i32)> {
    let depth = book.depth();
    let mut deepest: Vec<(B, i32)> = book
        .entries()
        .filter(|&(key, _)| {
            Board::<W, H, B>::from_key(key).is_some_and(|p| p.moves_played() == depth)
        })
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    deepest.shuffle(&mut rng);
    deepest.truncate(count);
    deepest
}

/// The answer of one re-solved entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    /// Its index in the list of entries given to solve again.
    pub index: usize,
    /// A move string that reaches the position.
    pub moves: String,
    /// The book's score.
    pub book: i32,
    /// The book-free solver's score.
    pub solved: i32,
    /// Nodes of the search.
    pub nodes: u64,
}

/// Solves every (key, book score) pair of `entries` again, without any book, on
/// `threads` workers with their own solver of `config` each, and hands each
/// answer to `each` as soon as it is known (in any order). Stops early when
/// `stop` is set.
///
/// # Errors
/// A table that cannot be built, or threads that cannot start.
pub(crate) fn resolve<const W: usize, const H: usize, B: Bits>(
    entries: &[(B, i32)],
    config: Config,
    threads: usize,
    stop: &StopFlag,
    each: &(dyn Fn(Checked) + Sync),
) -> Result<(), GenerateError> {
    config.check::<W, H, B>()?;
    let make = |_| -> Result<_, GenerateError> {
        let mut solver = Solver::<W, H, B>::new(config)?;
        solver.set_stop_flag(stop.clone());
        Ok(solver)
    };
    pool::drain(
        threads,
        make,
        entries,
        stop,
        |solver, index, &(key, book)| {
            // A book is checked whole when read: its keys are of playable positions.
            let pos =
                Playable::<W, H, B>::from_key(key).expect("a checked book holds playable keys");
            match solver.solve_playable(&pos, Mode::Strong) {
                Ok(s) => {
                    each(Checked {
                        index: index as usize,
                        moves: layers::moves_to::<W, H, B>(key).unwrap_or_default(),
                        book,
                        solved: s.score,
                        nodes: s.nodes,
                    });
                    true
                }
                Err(Stopped) => false,
            }
        },
    )?;
    Ok(())
}
