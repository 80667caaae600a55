//! The enumerated layers against independent oracles: the published numbers of
//! positions per ply, the built-in book's layers, and John Tromp's 8-ply database
//! (the book's other oracles, through the public API: tests/integration/book.rs).

use crate::books::{Book7x6, Format, layers};
use crate::position::Position as Position7x6;

fn builtin() -> Book7x6 {
    Book7x6::builtin().expect("the built-in book checks out")
}

/// OEIS A212693, "Number of legal 7 X 6 Connect-Four positions after n plies"
/// (John Tromp): legal positions include those where the last move just made
/// four in a row, which the book leaves out (the game is over, there is no score).
const LEGAL_AFTER_PLIES: [u64; 13] = [
    1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275, 558186, 1662623, 4568683, 12236101,
];

/// A position and its mirror image count as two.
fn weight(p: &Position7x6) -> u64 {
    if p.mirror().key() == p.key() { 1 } else { 2 }
}

#[test]
fn layers_count_the_published_positions_per_ply() {
    // Enumerated independently of the book's scores: the positions of each ply,
    // plus those a winning move just ended, are the published legal positions.
    let ls = layers::<7, 6, u64>(12);
    for (plies, want) in LEGAL_AFTER_PLIES.iter().enumerate() {
        let open: u64 = ls[plies]
            .iter()
            .map(|&k| weight(&Position7x6::from_key(k).unwrap()))
            .sum();
        let mut ended = std::collections::HashSet::with_capacity(ls[plies].len() / 2);
        if plies > 0 {
            for &k in &ls[plies - 1] {
                let p = Position7x6::from_key(k).unwrap();
                for col in (0..7).filter(|&c| p.can_play(c) && p.is_winning_move(c)) {
                    let mut q = p;
                    q.play_col(col);
                    ended.insert(q.key());
                    ended.insert(q.mirror().key());
                }
            }
        }
        assert_eq!(open + ended.len() as u64, *want, "{plies} plies");
    }
}

#[test]
fn the_book_holds_every_layer_position() {
    let book = builtin();
    let ls = layers::<7, 6, u64>(book.depth());
    let counts = book.by_stones();
    assert_eq!(counts.len(), book.depth() + 1);
    let mut entries = 0;
    for (stones, layer) in ls.iter().enumerate() {
        let want: u64 = layer
            .iter()
            .map(|&k| weight(&Position7x6::from_key(k).unwrap()))
            .sum();
        assert_eq!(counts[stones].total(), want, "{stones} stones");
        assert!(layer.iter().all(|&k| book.score_of_key(k).is_some()));
        entries += layer.len();
    }
    assert_eq!(book.len(), entries);
    // Version 2: every position of every layer has a slot of its own in its
    // layer's hash, and a score it can have.
    assert_eq!(book.format(), Format::V2);
    book.check_positions().unwrap();
    // The empty board: a first-player win.
    assert_eq!((counts[0].won, counts[0].drawn, counts[0].lost), (1, 0, 0));
}

/// John Tromp's 8-ply database (the UCI "Connect-4" data set) holds the 8-stone
/// positions, one per mirror pair, in which neither player has won and the next
/// move is not forced: the first player, to move, cannot win at once and the
/// second player has no winning cell the first must fill. 67,557 positions:
/// 44,473 won, 16,635 lost and 6,449 drawn for the first player.
#[test]
fn tromps_8_ply_database() {
    let ls = layers::<7, 6, u64>(8);
    let subset: Vec<Position7x6> = ls[8]
        .iter()
        .map(|&k| Position7x6::from_key(k).unwrap())
        .filter(|p| !p.can_win_next() && p.opponent_winning_position() & p.possible() == 0)
        .collect();
    assert_eq!(subset.len(), 67_557);
    let book = builtin();
    assert!(book.depth() >= 8, "the outcomes need a book of 8 stones");
    let (mut won, mut drawn, mut lost) = (0, 0, 0);
    for p in &subset {
        match book.score(p).expect("in the book").signum() {
            1 => won += 1,
            0 => drawn += 1,
            _ => lost += 1,
        }
    }
    assert_eq!((won, lost, drawn), (44_473, 16_635, 6_449));
}

/// The 4x4 layers up to 5 stones, one entry per mirror pair: the counts the
/// command line's `book verify` test (tests/integration/user_edges.rs) states.
#[test]
fn the_4x4_layers_hold_the_counted_positions() {
    let counts: Vec<usize> = layers::<4, 4, u64>(5).iter().map(Vec::len).collect();
    assert_eq!(counts, [1, 2, 8, 26, 82, 218]);
}
