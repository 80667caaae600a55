//! The positions of a book, layer by layer, and how the deepest layer is cut into
//! shards.
//!
//! Layer `s` holds every position with `s` stones that can arise in a game (no
//! four in a row on the board), one per mirror pair, under its
//! [`Board::canonical_key`]. A layer is listed in the order its positions are first
//! reached from the previous layer's, in that layer's order, columns left to
//! right: the children of one position come together, and the children of
//! neighbours next to them, so that a solver keeping its table from one position
//! to the next finds much of the next subtree already there.
//!
//! The deepest layer is cut into blocks of consecutive positions ([`block_len`]:
//! a quarter of a shard's share, from 64 to 4,096 positions); shard `I` of `K`
//! takes blocks `I - 1`, `I - 1 + K`, `I - 1 + 2K`, ...: every shard gets long
//! runs of neighbours together (a kept table then finds much of the next subtree
//! already there) and a fair share of the easy and the hard parts of the layer,
//! and the cut depends on nothing but the board, the depth and `K`.

use std::any::Any;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::{Arc, Mutex};

use crate::bits::Bits;
use crate::position::Board;

/// The fewest positions of a block.
pub(super) const MIN_BLOCK: usize = 64;
/// The most positions of a block.
pub(super) const MAX_BLOCK: usize = 4096;

/// Positions per block when `len` positions are cut among `parts` shards or
/// workers: a quarter of a share, from [`MIN_BLOCK`] to [`MAX_BLOCK`]. Long runs
/// of neighbours save work (a table kept from one position to the next finds
/// their shared subtrees); four blocks a share keep the shares fair.
pub(super) fn block_len(len: usize, parts: usize) -> usize {
    (len / (4 * parts.max(1))).clamp(MIN_BLOCK, MAX_BLOCK)
}

/// Every layer from the empty board (index 0) to `depth` stones.
///
/// # Panics
/// If `depth >= W * H` (a full board has no move to look up).
pub(crate) fn layers<const W: usize, const H: usize, B: Bits>(depth: usize) -> Vec<Vec<B>> {
    assert!(
        depth < W * H,
        "depth {depth} leaves no move on a {W}x{H} board"
    );
    let mut out = vec![vec![Board::<W, H, B>::new().canonical_key()]];
    for _ in 0..depth {
        let previous = out.last().expect("layer 0");
        let mut seen = HashSet::with_capacity(previous.len() * 4);
        let mut next = Vec::with_capacity(previous.len() * 4);
        for &key in previous {
            let pos = Board::<W, H, B>::from_key(key).expect("a layer holds keys");
            for col in 0..W {
                if pos.can_play(col) && !pos.is_winning_move(col) {
                    let mut child = pos;
                    child.play_col(col);
                    let k = child.canonical_key();
                    if seen.insert(k) {
                        next.push(k);
                    }
                }
            }
        }
        out.push(next);
    }
    out
}

/// [`layers`] of `depth`, enumerated once per process for the last board and
/// depth asked (reading many shards of one book, or a book and its shards,
/// enumerates its layers once).
pub(crate) fn cached<const W: usize, const H: usize, B: Bits>(depth: usize) -> Arc<Vec<Vec<B>>> {
    // One cache for every board and word (a static is shared by every
    // instantiation): the layers are held untyped and typed again by the word.
    type Cache = Mutex<Option<((usize, usize, usize, usize), Arc<dyn Any + Send + Sync>)>>;
    static CACHE: Cache = Mutex::new(None);
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    let id = (W, H, B::BITS, depth);
    if let Some((k, l)) = &*cache
        && *k == id
        && let Ok(l) = l.clone().downcast::<Vec<Vec<B>>>()
    {
        return l;
    }
    let l = Arc::new(layers::<W, H, B>(depth));
    *cache = Some((id, l.clone()));
    l
}

/// One share of the deepest layer: shard `index` (1-based) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    /// 1-based index.
    pub index: u16,
    /// Number of shards.
    pub count: u16,
}

impl Shard {
    /// The whole layer.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Whether this shard is the whole layer.
    pub fn is_whole(&self) -> bool {
        self.count == 1
    }

    /// The positions of `layer` in this shard, in layer order.
    pub fn select<B: Copy>(&self, layer: &[B]) -> Vec<B> {
        layer
            .chunks(block_len(layer.len(), self.count as usize))
            .enumerate()
            .filter(|(b, _)| b % self.count as usize == self.index as usize - 1)
            .flat_map(|(_, block)| block.iter().copied())
            .collect()
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Fills the layers above the deepest from its scores, one ply of look-up each:
/// a position's score is the best of its moves, a move that wins at once scoring
/// [`Board::win_next_score`] and any other the negated score of the position it
/// leads to. Returns every layer's (canonical key, score) pairs, in ascending key
/// order.
///
/// # Panics
/// If a position of the deepest layer has no score in `deepest` (the caller
/// checks completeness first).
pub(super) fn fill<const W: usize, const H: usize, B: Bits>(
    layers: &[Vec<B>],
    deepest: &HashMap<B, i32>,
) -> Vec<(B, i32)> {
    let depth = layers.len() - 1;
    let mut below: HashMap<B, i32> = layers[depth].iter().map(|k| (*k, deepest[k])).collect();
    let mut all: Vec<(B, i32)> = below.iter().map(|(&k, &s)| (k, s)).collect();
    for layer in layers[..depth].iter().rev() {
        let mut here = HashMap::with_capacity(layer.len());
        for &key in layer {
            let pos = Board::<W, H, B>::from_key(key).expect("a layer holds keys");
            let best = (0..W)
                .filter(|&col| pos.can_play(col))
                .map(|col| {
                    if pos.is_winning_move(col) {
                        pos.win_next_score()
                    } else {
                        let mut child = pos;
                        child.play_col(col);
                        -below[&child.canonical_key()]
                    }
                })
                .max()
                .expect("a position below the full board has a move");
            here.insert(key, best);
        }
        all.extend(here.iter().map(|(&k, &s)| (k, s)));
        below = here;
    }
    all.sort_unstable();
    all
}

/// A move string (1-based columns) that reaches the position of `key` from the
/// empty board, if one does: found by taking back, depth first, a top stone of
/// the player who moved last.
pub(crate) fn moves_to<const W: usize, const H: usize, B: Bits>(key: B) -> Option<String> {
    fn back<const W: usize, const H: usize, B: Bits>(
        pos: Board<W, H, B>,
        out: &mut Vec<u8>,
    ) -> bool {
        if pos.moves_played() == 0 {
            return true;
        }
        // The player who moved last owns the stones that are not the mover's.
        let last = pos.current() ^ pos.mask();
        for col in 0..W {
            let column = pos.mask() & Board::<W, H, B>::column_mask(col);
            if column == B::ZERO {
                continue;
            }
            let top = B::ONE << (B::BITS - 1 - column.leading_zeros() as usize);
            if last & top == B::ZERO {
                continue;
            }
            // Take the stone back: the last mover becomes the player to move.
            let parent_key = (last ^ top) + (pos.mask() ^ top);
            let Some(parent) = Board::<W, H, B>::from_key(parent_key) else {
                continue;
            };
            if back(parent, out) {
                out.push(Board::<W, H, B>::column_symbol(col) as u8);
                return true;
            }
        }
        false
    }
    let pos = Board::<W, H, B>::from_key(key)?;
    if pos.has_four() {
        return None;
    }
    let mut out = Vec::with_capacity(pos.moves_played());
    back(pos, &mut out).then(|| String::from_utf8(out).expect("digits"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    #[test]
    fn small_layers_match_a_count_by_move_strings() {
        // Every move string of up to 4 moves with no four, as canonical keys.
        let mut by_strings: Vec<HashSet<u64>> = vec![HashSet::new(); 5];
        let mut stack = vec![String::new()];
        while let Some(m) = stack.pop() {
            let p = Position::parse(&m).unwrap();
            by_strings[m.len()].insert(p.canonical_key());
            if m.len() < 4 {
                for c in '1'..='7' {
                    let next = format!("{m}{c}");
                    if Position::parse(&next).is_ok() {
                        stack.push(next);
                    }
                }
            }
        }
        let layers = layers::<7, 6, u64>(4);
        for (s, layer) in layers.iter().enumerate() {
            let set: HashSet<u64> = layer.iter().copied().collect();
            assert_eq!(set.len(), layer.len(), "layer {s} has duplicates");
            assert_eq!(set, by_strings[s], "layer {s}");
        }
        // A position and its mirror image count as two, a symmetric one as one:
        // the published numbers of positions after 0 to 4 plies.
        let counted: Vec<usize> = layers
            .iter()
            .map(|layer| {
                layer
                    .iter()
                    .map(|&k| {
                        let p = Position::from_key(k).unwrap();
                        if p.mirror().key() == k { 1 } else { 2 }
                    })
                    .sum()
            })
            .collect();
        assert_eq!(counted, [1, 7, 49, 238, 1120]);
    }

    #[test]
    fn shards_partition_the_layer() {
        let layer: Vec<u64> = (0..1000).collect();
        for count in [1u16, 2, 3, 7, 40] {
            let mut all: Vec<u64> = (1..=count)
                .flat_map(|i| Shard { index: i, count }.select(&layer))
                .collect();
            all.sort_unstable();
            assert_eq!(all, layer, "{count} shards");
        }
        let first = Shard { index: 1, count: 2 }.select(&layer);
        assert_eq!(&first[..3], &[0, 1, 2]);
        // Blocks of a quarter of a share (125 here): the first shard's second
        // block is the layer's third.
        let block = block_len(layer.len(), 2);
        assert_eq!(block, 125);
        assert_eq!(first[block], 2 * block as u64);
        // A long layer: blocks of a quarter of a share, at most MAX_BLOCK.
        assert_eq!(block_len(100_000, 5), 5_000.min(MAX_BLOCK));
        assert_eq!(block_len(40_000, 5), 2_000);
        assert_eq!(block_len(1_000, 5), MIN_BLOCK);
    }

    #[test]
    fn moves_reach_their_positions() {
        for layer in layers::<7, 6, u64>(5) {
            for key in layer {
                let m = moves_to::<7, 6, u64>(key).unwrap();
                assert_eq!(Position::parse(&m).unwrap().canonical_key(), key, "{m}");
            }
        }
        // two stones in one column, the second player's under the first's
        assert_eq!(moves_to::<7, 6, u64>(0b101), None);
    }
}
