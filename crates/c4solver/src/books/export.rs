//! A book's positions as a data set: each position's moves from the empty board
//! and its exact score, one layer (number of stones) at a time, one position per
//! mirror pair or both.

use super::{Book, Store, layers};
use crate::bits::Bits;
use crate::position::{Board, column_symbol};

/// A book entry that no game reaches: no order of its stones plays it from the
/// empty board without a four in a row first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("entry {key:#x} is no position a game reaches")]
pub struct Unreachable {
    /// The entry's canonical key (widened to 128 bits).
    pub key: u128,
}

impl<const W: usize, const H: usize, B: Bits> Book<W, H, B> {
    /// The entries of `stones` stones (canonical key and score), in ascending
    /// key order; empty outside the book's range of stones. A version-2 book
    /// stores no keys: the layers up to `stones` are enumerated (once, then
    /// kept), about 4 s for the 12 stones of the built-in book.
    pub fn layer(&self, stones: usize) -> Vec<(B, i32)> {
        let h = self.header();
        if stones < h.lowest as usize || stones > h.depth as usize {
            return Vec::new();
        }
        let mut out: Vec<(B, i32)> = match &self.raw.store {
            Store::V1 { .. } => self
                .entries()
                .filter(|&(key, _)| {
                    Board::<W, H, B>::from_key(key).is_some_and(|p| p.moves_played() == stones)
                })
                .collect(),
            Store::V2(hashed) => {
                let keys = layers::cached::<W, H, B>(stones);
                // A key the hash does not place is left out (`check_positions`
                // reports it).
                keys[stones]
                    .iter()
                    .filter_map(|&k| hashed[stones].score(&self.raw.bytes, k).map(|s| (k, s)))
                    .collect()
            }
        };
        out.sort_unstable();
        out
    }

    /// The positions of `stones` stones as a data set's rows: the moves that
    /// reach each from the empty board and its exact
    /// score, in [`Book::layer`]'s order; with `mirrors`, each position's
    /// mirror image (when it differs) right after it, the moves mirrored. The
    /// empty board's moves are the empty string.
    pub fn rows(
        &self,
        stones: usize,
        mirrors: bool,
    ) -> impl Iterator<Item = Result<(String, i32), Unreachable>> + use<W, H, B> {
        self.layer(stones)
            .into_iter()
            .flat_map(move |(key, score)| {
                let Some(moves) = layers::moves_to::<W, H, B>(key) else {
                    return vec![Err(Unreachable { key: key.to_u128() })];
                };
                let symmetric =
                    Board::<W, H, B>::from_key(key).is_some_and(|p| p.mirror().key() == key);
                if mirrors && !symmetric {
                    let image = mirrored::<W>(&moves);
                    vec![Ok((moves, score)), Ok((image, score))]
                } else {
                    vec![Ok((moves, score))]
                }
            })
    }
}

/// The moves of the mirror image: column `c` played as column `W + 1 - c`.
fn mirrored<const W: usize>(moves: &str) -> String {
    moves
        .chars()
        .map(|ch| {
            let col = (0..W).position(|c| column_symbol(c) == ch);
            col.map_or(ch, |c| column_symbol(W - 1 - c))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    #[test]
    fn mirrored_moves_play_the_mirror_image() {
        assert_eq!(mirrored::<7>("4453"), "4435");
        assert_eq!(mirrored::<12>("5abc1"), "8321c");
        let pos = Position::parse("44531").unwrap();
        assert_eq!(
            Position::parse(&mirrored::<7>("44531")).unwrap(),
            pos.mirror()
        );
    }

    #[test]
    fn rows_of_the_builtin_book_are_its_layer_with_the_scores_it_gives() {
        let book = Book::<7, 6>::builtin().unwrap();
        let empty: Vec<_> = book.rows(0, true).map(Result::unwrap).collect();
        assert_eq!(empty, [(String::new(), 1)]);
        for stones in [1, 3] {
            let pairs: Vec<_> = book.rows(stones, false).map(Result::unwrap).collect();
            let both: Vec<_> = book.rows(stones, true).map(Result::unwrap).collect();
            assert_eq!(pairs.len(), book.layer(stones).len());
            let mut seen = std::collections::HashSet::new();
            for (moves, score) in &both {
                let pos = Position::parse(moves).unwrap();
                assert_eq!(pos.moves_played(), stones, "{moves}");
                assert!(seen.insert(pos.key()), "twice: {moves}");
                assert_eq!(book.score(&pos), Some(*score), "{moves}");
            }
            assert!(pairs.len() < both.len() && both.len() <= 2 * pairs.len());
        }
        assert!(book.rows(book.depth() + 1, false).next().is_none());
    }
}
