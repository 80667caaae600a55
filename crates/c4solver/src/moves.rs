//! Move ordering.
//!
//! The reference solver explores columns center first, because central cells take
//! part in more lines of four and so are more often the best move. For 7 columns
//! the order is 4, 3, 5, 2, 6, 1, 7 (1-based): the tutorial's formula
//! `W/2 + (1 - 2*(i%2)) * (i+1) / 2` gives this, left before right, although the
//! comment beside it in the tutorial's code says `{3, 4, 2, 5, 1, 6, 0}`. Only the
//! left-first order reproduces the published node counts (92.84 and 207,942 mean
//! nodes on End-Easy and Middle-Easy; the right-first order gives 94.46 and 59,231).

use crate::bits::Bits;

/// Columns (0-based) of a `W`-wide board, center first, by the tutorial's formula:
/// `[3, 2, 4, 1, 5, 0, 6]` for `W = 7`, `[2, 1, 3, 0]` for `W = 4`.
pub(crate) const fn center_first<const W: usize>() -> [usize; W] {
    let mut order = [0; W];
    let mut i = 0;
    while i < W {
        order[i] = center_column(W, i);
        i += 1;
    }
    order
}

/// The `i`-th column of a `width`-wide board in [`center_first`]'s order, for a
/// width known at run time only.
pub(crate) const fn center_column(width: usize, i: usize) -> usize {
    let sign = 1 - 2 * (i as i64 % 2);
    // Rust's `/` truncates toward zero like C's, as the formula expects.
    (width as i64 / 2 + sign * (i as i64 + 1) / 2) as usize
}

/// A fixed-size move sorter: at most `N` moves, each a one-bit cell mask with a
/// score, handed out best score first (the mask in the board's word `B`).
///
/// Insertion sort into a fixed array: with at most 7 moves, usually added in an
/// order that is already nearly sorted (center-first order breaks ties), it does a
/// handful of comparisons, needs no allocation, and is stable in the useful
/// direction: among equal scores the move added **last** comes out first, so adding
/// columns in reverse preference order keeps the preference for ties.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MoveSorter<const N: usize, B = u64> {
    len: usize,
    /// `(move, score)`, sorted by increasing score; the next move is the last one.
    entries: [(B, u32); N],
}

impl<const N: usize, B: Bits> MoveSorter<N, B> {
    /// An empty sorter.
    #[inline]
    pub(crate) const fn new() -> Self {
        MoveSorter {
            len: 0,
            entries: [(B::ZERO, 0); N],
        }
    }

    /// Adds `mv` with `score`.
    ///
    /// Precondition: fewer than `N` moves are held (`debug_assert!`ed).
    #[inline]
    pub(crate) fn add(&mut self, mv: B, score: u32) {
        debug_assert!(self.len < N, "move sorter is full");
        let mut i = self.len;
        self.len += 1;
        // Shift higher scores up; equal scores stay below the newcomer.
        while i > 0 && self.entries[i - 1].1 > score {
            self.entries[i] = self.entries[i - 1];
            i -= 1;
        }
        self.entries[i] = (mv, score);
    }

    /// Moves `mv` to the front, to be handed out next, keeping the order of the
    /// others; does nothing if `mv` is not among the moves not handed out yet.
    #[inline]
    pub(crate) fn promote(&mut self, mv: B) {
        if let Some(i) = self.index_of(mv) {
            self.entries[i..self.len].rotate_left(1);
        }
    }

    /// Where `mv` is among the moves not handed out yet, if it is.
    #[inline]
    fn index_of(&self, mv: B) -> Option<usize> {
        self.entries[..self.len].iter().position(|e| e.0 == mv)
    }

    /// Moves `mv` to the front like [`Self::promote`], but only if its score is
    /// the best of the moves not handed out yet (it then only breaks a tie).
    #[inline]
    pub(crate) fn promote_among_best(&mut self, mv: B) {
        if let Some(i) = self.index_of(mv)
            && self.entries[i].1 >= self.entries[self.len - 1].1
        {
            self.entries[i..self.len].rotate_left(1);
        }
    }

    /// Number of moves not handed out yet.
    #[inline]
    #[cfg(test)]
    pub(crate) const fn len(&self) -> usize {
        self.len
    }

    /// Whether every move has been handed out.
    #[inline]
    #[cfg(test)]
    pub(crate) const fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl<const N: usize, B: Bits> Default for MoveSorter<N, B> {
    fn default() -> Self {
        Self::new()
    }
}

/// Hands out the moves, highest score first (last added first among ties).
impl<const N: usize, B: Bits> Iterator for MoveSorter<N, B> {
    type Item = B;

    #[inline]
    fn next(&mut self) -> Option<B> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        Some(self.entries[self.len].0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorter_gives_best_first_and_last_added_among_ties() {
        let mut s = MoveSorter::<7>::new();
        assert!(s.is_empty());
        for (mv, score) in [(1, 2), (2, 0), (4, 2), (8, 5), (16, 0), (32, 1), (64, 2)] {
            s.add(mv, score);
        }
        assert_eq!(s.len(), 7);
        let order: Vec<u64> = s.collect();
        assert_eq!(order, vec![8, 64, 4, 1, 32, 16, 2]);
    }

    #[test]
    fn promote_moves_one_to_the_front() {
        let mut s = MoveSorter::<7>::new();
        for (mv, score) in [(1, 2), (2, 0), (4, 2), (8, 5)] {
            s.add(mv, score);
        }
        s.promote(2);
        s.promote(16); // not there: nothing changes
        let order: Vec<u64> = s.collect();
        assert_eq!(order, vec![2, 8, 4, 1]);
        let mut s = MoveSorter::<7>::new();
        s.add(1, 0);
        s.add(2, 1);
        s.promote(2); // already first
        assert_eq!(s.collect::<Vec<_>>(), vec![2, 1]);
    }

    #[test]
    fn promote_among_best_only_breaks_ties_at_the_top() {
        let mut s = MoveSorter::<7>::new();
        for (mv, score) in [(1, 2), (2, 0), (4, 2), (8, 5), (16, 5)] {
            s.add(mv, score);
        }
        s.promote_among_best(1); // below the best score left: stays
        s.promote_among_best(8); // tied with the best: goes first
        s.promote_among_best(32); // not there: nothing changes
        assert_eq!(s.next(), Some(8));
        assert_eq!(s.next(), Some(16));
        s.promote_among_best(1); // now tied with 4 at the top
        let order: Vec<u64> = s.collect();
        assert_eq!(order, vec![1, 4, 2]);
        let mut s = MoveSorter::<3>::new();
        s.promote_among_best(1); // empty: nothing to do
        assert!(s.is_empty());
    }

    #[test]
    fn sorter_holds_moves_above_bit_64() {
        let mut s = MoveSorter::<3, u128>::new();
        s.add(1 << 70, 2);
        s.add(1 << 63, 5);
        s.add(1, 2);
        s.promote_among_best(1 << 70);
        assert_eq!(s.collect::<Vec<u128>>(), [1 << 63, 1, 1 << 70]);
    }

    #[test]
    fn sorter_single_and_empty() {
        let mut s = MoveSorter::<3>::default();
        assert_eq!(s.next(), None);
        s.add(7, 0);
        assert_eq!(s.next(), Some(7));
        assert_eq!(s.next(), None);
    }

    #[test]
    fn center_first_orders() {
        assert_eq!(center_first::<7>(), [3, 2, 4, 1, 5, 0, 6]);
        assert_eq!(center_first::<4>(), [2, 1, 3, 0]);
        assert_eq!(center_first::<5>(), [2, 1, 3, 0, 4]);
        assert_eq!(center_first::<6>(), [3, 2, 4, 1, 5, 0]);
        // the tutorial's formula, for every width
        fn formula<const W: usize>() -> Vec<usize> {
            (0..W as i64)
                .map(|i| (W as i64 / 2 + (1 - 2 * (i % 2)) * (i + 1) / 2) as usize)
                .collect()
        }
        assert_eq!(center_first::<7>().to_vec(), formula::<7>());
        assert_eq!(center_first::<6>().to_vec(), formula::<6>());
        assert_eq!(center_first::<5>().to_vec(), formula::<5>());
        assert_eq!(center_first::<4>().to_vec(), formula::<4>());
        assert_eq!(center_first::<1>(), [0]);
    }
}
