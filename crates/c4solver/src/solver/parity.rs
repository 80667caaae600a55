//! Allis' zugzwang rules as score bounds, each with its proof.
//!
//! Connect Four is decided by zugzwang: near the end, the side that must move may
//! have to play under a cell the other side needs. L. V. Allis (*A Knowledge-based
//! Approach of Connect-Four*, 1988) turned this into strategies that one side can
//! follow whatever the other does, and into rules that say when they are enough.
//! Here they give bounds of the exact score, used by the tuned search
//! ([`super::tuned`]) to cut nodes:
//!
//! * [`claimeven_bound`]: the opponent of the player to move answers every move in
//!   the same column (pairing the odd columns); if the player's cells then hold no
//!   four, the player cannot win, and the opponent's groups of sure cells win
//!   (*aftereven*, which includes the *even threats*), also when the player's fours
//!   all lie above such a group;
//! * [`odd_threat_bound`]: the player to move has a winning cell on one of their
//!   rows and the mirror strategy makes the opponent play under it;
//! * [`claimeven_move`] and [`odd_threat_refuted_with`]: the same bounds seen one ply up,
//!   for every move of the other side.
//!
//! Every bound is checked against the reference search (which uses none of them)
//! on random positions by the tests below.

use crate::bits::Bits;
use crate::position::Board;

/// Rows `r` (`0..=h`) whose bit is set in the result when `(h - r) % 2 == parity`:
/// a one-column pattern, to be multiplied by the bottom mask.
const fn rows_with_parity(h: usize, parity: usize) -> u128 {
    let mut m = 0;
    let mut r = 0;
    while r <= h {
        if (h - r) % 2 == parity {
            m |= 1 << r;
        }
        r += 1;
    }
    m
}

/// An upper bound of the score of the player to move from the opponent's
/// *claimeven* strategy (Allis), generalised to columns of odd height, when it
/// applies, or `None`.
///
/// It applies when the number of empty cells is even, that is when an even number
/// of columns hold an odd number of empty cells ("odd columns"). Call the rows at
/// an odd distance below the top row the player's rows (rows 0, 2, 4 on 7x6) and
/// the others the opponent's rows. The opponent's strategy:
///
/// * a move in an even column (it lands on a player's row) is answered just above
///   it, on an opponent's row;
/// * a move in an odd column (its lowest empty cell is on an opponent's row) is
///   answered at the lowest empty cell of another odd column (there is one: their
///   number was even), also an opponent's row; both columns are even afterwards,
///   and the number of odd columns stays even.
///
/// Whatever the player does, they get only their own stones, empty cells on the
/// player's rows, and the lowest empty cell of each column that is odd now (each
/// pair of them gives one to each side, but the player chooses which). If those
/// hold no four in a row, the player can never win: the score is at most 0. The
/// opponent surely gets every other empty cell, and once the player cannot win the
/// board fills up: if the opponent's stones and those cells hold a four, the
/// opponent wins and the score is at most -1 (or less: `aftereven_bound` says
/// when they win at the latest). Even when the player's cells hold fours, a group
/// of the opponent's sure cells below all of them wins (`aftereven_bound`).
#[inline]
pub(crate) fn claimeven_bound<const W: usize, const H: usize, B: Bits>(
    pos: &Board<W, H, B>,
) -> Option<i32> {
    if !(W * H - pos.moves_played()).is_multiple_of(2) {
        return None;
    }
    let mask = pos.mask();
    let empty = Board::<W, H, B>::board() & !mask;
    // The lowest empty cell of each odd column: either side may get it.
    let contested = odd_column_bottoms::<W, H, B>(pos);
    let own = pos.current() | (empty & player_rows::<W, H, B>());
    claimeven_verdict::<W, H, B>(own, contested, pos.current() ^ mask, empty)
}

/// [`claimeven_bound`] from the sets it is made of: `own`, the player's stones and
/// the empty cells of the player's rows; `contested`, the lowest cells of the odd
/// columns; `their_stones`, the opponent's stones; and `empty`, the empty cells.
#[inline]
fn claimeven_verdict<const W: usize, const H: usize, B: Bits>(
    own: B,
    contested: B,
    their_stones: B,
    empty: B,
) -> Option<i32> {
    // The opponent's sure cells: their stones and the empty cells of their rows
    // that are not contested.
    let theirs = their_stones | (empty & !player_rows::<W, H, B>() & !contested);
    if may_align_with_half::<W, H, B>(own, contested) {
        return aftereven_bound::<W, H, B>(own, contested, theirs, empty, true);
    }
    // The player never wins; the opponent's groups may tell when they win.
    Some(aftereven_bound::<W, H, B>(own, contested, theirs, empty, false).unwrap_or(0))
}

/// Allis' *aftereven* within [`claimeven_bound`]: a group of the opponent (a four
/// of `theirs`, their stones and the empty cells they surely get under claimeven)
/// whose empty cells the player's fours all lie above. Returns the lowest bound
/// such a group gives, or `None`.
///
/// Let `G` be a four of `theirs` with at least one empty cell (none would mean the
/// opponent has won), and for each column `j` holding empty cells of `G`, `t_j` the
/// highest of them and `A_j` the cells of column `j` above `t_j`. Under claimeven
/// the opponent plays every empty cell of `G` when it is filled, and the board
/// fills up unless someone wins, so `G` is completed at the latest when every
/// `t_j` is filled: the opponent then wins with their stone, while the `A_j` of
/// the last `t_j` filled are still empty, so at least `a = min_j |A_j|` cells are
/// left and the score is at most `-(2 + a) / 2`. Unless the player wins first: a
/// four `F` of the player's (from `own` and their half of `contested`) is
/// completed only when its cells are filled, and if `F` has a cell in every `A_j`,
/// every `t_j` was filled before it, so `G` was completed first and the game was
/// over. Hence `G` wins if every four the player may get meets every `A_j`
/// ([`every_four_meets`], one pairing of the contested cells for all `j`).
/// With `player_may_align` false the player has no four at all (claimeven holds)
/// and every group wins.
///
/// A group with one empty cell is an *even threat* (the opponent's winning cell on
/// one of their rows). No group is vertical: the empty cells of a vertical four
/// are consecutive, so with all of them on the opponent's rows it has one, the
/// lowest empty cell of its column, which is then an odd column's, contested.
#[inline]
fn aftereven_bound<const W: usize, const H: usize, B: Bits>(
    own: B,
    contested: B,
    theirs: B,
    empty: B,
    player_may_align: bool,
) -> Option<i32> {
    let h = H;
    let group_cells = empty & four_cells::<W, H, B>(theirs);
    if group_cells == B::ZERO {
        return None;
    }
    // A four of the player's that avoids every cell above a group's empty cell
    // survives every group: the usual case, decided by one test.
    if player_may_align && Board::<W, H, B>::alignment(own & !cells_above::<W, H, B>(group_cells)) {
        return None;
    }
    let mut best: Option<i32> = None;
    for s in [h + 1, h, h + 2] {
        let m = theirs & (theirs >> s);
        let mut starts = m & (m >> (2 * s));
        while starts != B::ZERO {
            let b = starts & starts.wrapping_neg();
            starts &= starts - B::ONE;
            let mut cells = empty & (b | (b << s) | (b << (2 * s)) | (b << (3 * s)));
            if cells == B::ZERO {
                continue;
            }
            // `A_j` for each column (one empty cell per column: the group is not
            // vertical).
            let mut aboves = [B::ZERO; 4];
            let mut k = 0;
            let mut a = u32::MAX;
            while cells != B::ZERO {
                let t = cells & cells.wrapping_neg();
                cells &= cells - B::ONE;
                aboves[k] = cells_above::<W, H, B>(t);
                a = a.min(aboves[k].count_ones());
                k += 1;
            }
            let bound = -(2 + a as i32) / 2;
            if best.is_some_and(|b| b <= bound) {
                continue;
            }
            if !player_may_align || every_four_meets::<W, H, B>(own, contested, &aboves[..k]) {
                best = Some(bound);
            }
        }
    }
    best
}

/// Whether the other side can pair the `contested` cells in advance (a perfect
/// matching; exact up to four cells, beyond which all of them are given to the
/// owner of `base`) so that, whichever cell of each pair the owner takes, every
/// four of theirs meets every set of `aboves`.
#[inline]
fn every_four_meets<const W: usize, const H: usize, B: Bits>(
    base: B,
    contested: B,
    aboves: &[B],
) -> bool {
    let meets = |cells: B| {
        aboves
            .iter()
            .all(|&above| !Board::<W, H, B>::alignment(cells & !above))
    };
    match contested.count_ones() {
        0 => meets(base),
        2 => {
            let a = contested & contested.wrapping_neg();
            meets(base | a) && meets(base | (contested ^ a))
        }
        4 => {
            let a = contested & contested.wrapping_neg();
            let rest = contested ^ a;
            // `a`'s partner is each of the three others in turn.
            let mut others = rest;
            while others != B::ZERO {
                let partner = others & others.wrapping_neg();
                others &= others - B::ONE;
                let pair = rest ^ partner;
                let c = pair & pair.wrapping_neg();
                let d = pair ^ c;
                if meets(base | a | c)
                    && meets(base | a | d)
                    && meets(base | partner | c)
                    && meets(base | partner | d)
                {
                    return true;
                }
            }
            false
        }
        _ => meets(base | contested),
    }
}

/// Every cell of every horizontal or diagonal four in `cells` (the opponent's
/// groups in [`claimeven_bound`] are never vertical, see `aftereven_bound`).
#[inline]
fn four_cells<const W: usize, const H: usize, B: Bits>(cells: B) -> B {
    let h = H;
    let shifts = [h + 1, h, h + 2];
    let mut all = B::ZERO;
    let mut k = 0;
    while k < 3 {
        let s = shifts[k];
        let m = cells & (cells >> s);
        let starts = m & (m >> (2 * s));
        all |= starts | (starts << s) | (starts << (2 * s)) | (starts << (3 * s));
        k += 1;
    }
    all
}

/// The cells strictly above some cell of `cells`, in the same column.
///
/// With every column's sentinel bit set, subtracting one from each column's field
/// borrows only inside the field, up to its lowest set bit: `x ^ (x - 1)` then
/// holds that bit and those below it, and its complement the cells above.
#[inline]
fn cells_above<const W: usize, const H: usize, B: Bits>(cells: B) -> B {
    let bottom = Board::<W, H, B>::bottom();
    let x = (cells & Board::<W, H, B>::board()) | (bottom << H);
    !(x ^ (x - bottom)) & Board::<W, H, B>::board()
}

/// Whether the stones `base` and half of the cells `contested` may hold a four,
/// when every move into a contested cell is answered in another one: the other
/// side fixes the pairs in advance (a perfect matching of `contested`), the owner
/// of `base` then gets one cell of each pair, their choice. Exact for up to four
/// contested cells (every matching is tried); beyond, an over-approximation (all
/// of them).
#[inline]
fn may_align_with_half<const W: usize, const H: usize, B: Bits>(base: B, contested: B) -> bool {
    // `base` alone holds a four (the usual case when the bounds fail).
    if Board::<W, H, B>::alignment(base) {
        return true;
    }
    if !Board::<W, H, B>::alignment(base | contested) {
        return false;
    }
    match contested.count_ones() {
        2 => {
            let a = contested & contested.wrapping_neg();
            Board::<W, H, B>::alignment(base | a)
                || Board::<W, H, B>::alignment(base | (contested ^ a))
        }
        4 => {
            let a = contested & contested.wrapping_neg();
            let rest = contested ^ a;
            // `a`'s partner is each of the three others in turn.
            let mut others = rest;
            while others != B::ZERO {
                let partner = others & others.wrapping_neg();
                others &= others - B::ONE;
                let pair = rest ^ partner;
                let c = pair & pair.wrapping_neg();
                let d = pair ^ c;
                if !(Board::<W, H, B>::alignment(base | a | c)
                    || Board::<W, H, B>::alignment(base | a | d)
                    || Board::<W, H, B>::alignment(base | partner | c)
                    || Board::<W, H, B>::alignment(base | partner | d))
                {
                    return false;
                }
            }
            true
        }
        _ => true,
    }
}

/// The cells of the rows at an odd distance below the top row (rows 0, 2, 4 on
/// 7x6): the first player's rows in the [`claimeven_bound`] strategies.
#[inline]
pub(crate) fn player_rows<const W: usize, const H: usize, B: Bits>() -> B {
    Board::<W, H, B>::bottom() * B::from_u128(rows_with_parity(H, 0))
}

/// The lowest empty cell of each column that holds an odd number of empty cells
/// ("odd columns"): a column with `h` stones has `H - h` empty cells and its lowest
/// empty cell on row `h`, which is one of the player's rows (see [`player_rows`])
/// exactly when `H - h` is even. So the odd columns' lowest cells are the playable
/// cells off the player's rows.
#[inline]
fn odd_column_bottoms<const W: usize, const H: usize, B: Bits>(pos: &Board<W, H, B>) -> B {
    pos.possible() & !player_rows::<W, H, B>()
}

/// A lower bound (a win) for the player to move from their *odd threat*
/// (Allis' zugzwang rule for the first player), when it applies, or `None`.
///
/// It applies when the number of empty cells is even and the player has a winning
/// cell `t` on one of the player's rows (see [`claimeven_bound`]), in a column `c`.
/// The player's strategy makes the number of empty cells below `t` odd and the
/// number of other odd columns even with their first move: the lowest cell of `c`
/// if `c` has an even number of empty cells (that cell is on a player's row, below
/// `t`), else the lowest cell of another odd column (there is one: their number is
/// even). From then on the player answers a move in an even column or in `c` just
/// above it, and a move in another odd column at the lowest cell of yet another odd
/// column other than `c` (there is one: their number was even before the move).
/// The opponent thus starts every column and, in `c`, plays every other cell from
/// the lowest: the last cell below `t` is theirs, and the player then plays `t`. If
/// the opponent avoids `c`, the other columns fill up first, and then they must
/// enter it.
///
/// The opponent gets only their stones, cells of the player's rows outside `c`,
/// the lowest cell of the odd columns other than `c`, and the other rows of `c`
/// below `t`. If those hold no four, the opponent never wins before the player
/// plays `t`: the player wins, at the latest when every other cell is filled, and
/// the score is at least `(2 + a) / 2` with `a` cells above `t`. Returns the
/// highest such bound, or `None`.
#[inline]
pub(crate) fn odd_threat_bound<const W: usize, const H: usize, B: Bits>(
    pos: &Board<W, H, B>,
) -> Option<i32> {
    odd_threat_bound_with(pos, pos.winning_position())
}

/// [`odd_threat_bound`] given the player's winning cells `our_wins`
/// (`pos.winning_position()`, `debug_assert!`ed).
#[inline]
pub(crate) fn odd_threat_bound_with<const W: usize, const H: usize, B: Bits>(
    pos: &Board<W, H, B>,
    our_wins: B,
) -> Option<i32> {
    debug_assert_eq!(our_wins, pos.winning_position());
    if !(W * H - pos.moves_played()).is_multiple_of(2) {
        return None;
    }
    let mask = pos.mask();
    let player_rows = player_rows::<W, H, B>();
    let threats = our_wins & player_rows;
    if threats == B::ZERO {
        return None;
    }
    let empty = Board::<W, H, B>::board() & !mask;
    let opponent = pos.current() ^ mask;
    let bottoms = odd_column_bottoms::<W, H, B>(pos);
    let mut best = None;
    for (t, col) in lowest_per_column::<W, H, B>(threats) {
        let theirs =
            opponent | (empty & player_rows & !col) | (empty & col & (t - B::ONE) & !player_rows);
        let contested = bottoms & !col;
        let wins = if col & bottoms == B::ZERO {
            // Our first move is the lowest cell of `c`; the opponent gets half of
            // the other odd columns' lowest cells.
            !may_align_with_half::<W, H, B>(theirs, contested)
        } else {
            // Our first move takes one of the other odd columns' lowest cells (our
            // choice), the opponent gets half of the rest.
            let mut rest = contested;
            let mut found = false;
            while rest != B::ZERO && !found {
                let first = rest & rest.wrapping_neg();
                rest &= rest - B::ONE;
                found = !may_align_with_half::<W, H, B>(theirs, contested ^ first);
            }
            found
        };
        if wins {
            let bound = (2 + (col & !(t | (t - B::ONE))).count_ones() as i32) / 2;
            if best.is_none_or(|b| bound > b) {
                best = Some(bound);
            }
        }
    }
    best
}

/// The best score one of `moves` surely reaches by the opponent's
/// [`claimeven_bound`] after it (the negation of their bound), with that move, or
/// `None`. Only boards with an odd number of empty cells have such moves.
#[inline]
#[cfg(test)]
pub(crate) fn claimeven_move<const W: usize, const H: usize, B: Bits>(
    pos: &Board<W, H, B>,
    moves: B,
) -> Option<(B, i32)> {
    claimeven_move_with(pos, moves, &mut [None; W])
}

/// [`claimeven_move`]; on boards with an odd number of empty cells it also writes
/// the child's [`claimeven_bound`] into `bounds[c]` for the column `c` of every
/// move.
#[inline]
pub(crate) fn claimeven_move_with<const W: usize, const H: usize, B: Bits>(
    pos: &Board<W, H, B>,
    moves: B,
    bounds: &mut [Option<i32>; W],
) -> Option<(B, i32)> {
    if (W * H - pos.moves_played()).is_multiple_of(2) {
        return None;
    }
    // The child's sets of `claimeven_bound` follow from ours: after our move `mv`
    // the opponent is to move, `mv` is no longer empty, and the cell above it (if
    // any) becomes the lowest of its column.
    let player_rows = player_rows::<W, H, B>();
    let mask = pos.mask();
    let empty = Board::<W, H, B>::board() & !mask;
    let base = (pos.current() ^ mask) | (empty & player_rows);
    let bottoms = odd_column_bottoms::<W, H, B>(pos);
    // After any of our moves, our sure cells (see `claimeven_verdict`) are among our
    // stones, `moves` and the empty cells off the player's rows, so the empty
    // cells of our groups are among those of the fours there. A four of the
    // opponent's that avoids `moves` and every cell above those survives after
    // every move, claimeven and every group of ours alike: no child has a bound.
    let our_sure = pos.current() | moves | (empty & !player_rows);
    let group_cells = empty & four_cells::<W, H, B>(our_sure);
    if Board::<W, H, B>::alignment(base & !moves & !cells_above::<W, H, B>(group_cells)) {
        for (mv, _) in children(pos, moves) {
            bounds[column::<W, H, B>(mv)] = None;
            debug_assert!({
                let mut child = *pos;
                child.play_move_unchecked(mv);
                claimeven_bound(&child).is_none()
            });
        }
        return None;
    }
    let mut best: Option<(B, i32)> = None;
    let mut rest = moves;
    while rest != B::ZERO {
        let mv = rest & rest.wrapping_neg();
        rest &= rest - B::ONE;
        let col = column::<W, H, B>(mv);
        let above = (mv << 1) & Board::<W, H, B>::board();
        let contested = (bottoms & !mv) | (above & !player_rows);
        bounds[col] =
            claimeven_verdict::<W, H, B>(base & !mv, contested, pos.current() | mv, empty & !mv);
        debug_assert!({
            let mut child = *pos;
            child.play_move_unchecked(mv);
            bounds[col] == claimeven_bound(&child)
        });
        if let Some(b) = bounds[col]
            && best.is_none_or(|(_, s)| -b > s)
        {
            best = Some((mv, -b));
        }
    }
    best
}

/// The 0-based column of the single-bit cell `cell`.
#[inline]
pub(crate) fn column<const W: usize, const H: usize, B: Bits>(cell: B) -> usize {
    debug_assert!(cell.count_ones() == 1);
    cell.trailing_zeros() as usize / (H + 1)
}

/// The lowest cell of `cells` in each column that has one, with that column's mask,
/// first column first.
#[inline]
pub(crate) fn lowest_per_column<const W: usize, const H: usize, B: Bits>(
    mut cells: B,
) -> impl Iterator<Item = (B, B)> {
    std::iter::from_fn(move || {
        if cells == B::ZERO {
            return None;
        }
        let t = cells & cells.wrapping_neg();
        let col = Board::<W, H, B>::column_mask(t.trailing_zeros() as usize / (H + 1));
        cells &= !col;
        Some((t, col))
    })
}

/// Each single-bit move of `moves` with the position after it.
#[inline]
pub(crate) fn children<const W: usize, const H: usize, B: Bits>(
    pos: &Board<W, H, B>,
    moves: B,
) -> impl Iterator<Item = (B, Board<W, H, B>)> {
    let pos = *pos;
    let mut rest = moves;
    std::iter::from_fn(move || {
        if rest == B::ZERO {
            return None;
        }
        let mv = rest & rest.wrapping_neg();
        rest &= rest - B::ONE;
        let mut child = pos;
        child.play_move_unchecked(mv);
        Some((mv, child))
    })
}

/// [`odd_threat_refuted_with`] given the opponent's winning cells `their_wins`
/// (`pos.opponent_winning_position()`, `debug_assert!`ed). A move only takes its
/// own cell from them, so after a move `mv` they are `their_wins & !mv`. On boards
/// with an odd number of empty cells it also writes the child's
/// [`odd_threat_bound`] into `bounds[c]` for the column `c` of every move.
#[inline]
pub(crate) fn odd_threat_refuted_with<const W: usize, const H: usize, B: Bits>(
    pos: &Board<W, H, B>,
    moves: B,
    alpha: i32,
    their_wins: B,
    bounds: &mut [Option<i32>; W],
) -> (B, i32) {
    debug_assert_eq!(their_wins, pos.opponent_winning_position());
    let mut refuted = B::ZERO;
    let mut best = i32::MIN;
    // Our move cannot give the opponent a winning cell: without one on the player's
    // rows now, they have none after it either.
    if (W * H - pos.moves_played()).is_multiple_of(2) {
        return (refuted, best);
    }
    if their_wins & player_rows::<W, H, B>() == B::ZERO {
        for (mv, _) in children(pos, moves) {
            bounds[column::<W, H, B>(mv)] = None;
        }
        return (refuted, best);
    }
    for (mv, child) in children(pos, moves) {
        let bound = odd_threat_bound_with(&child, their_wins & !mv);
        bounds[column::<W, H, B>(mv)] = bound;
        if let Some(b) = bound
            && -b <= alpha
        {
            refuted |= mv;
            best = best.max(-b);
        }
    }
    (refuted, best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;
    use crate::solver::tuned::non_losing_moves;

    #[test]
    fn cells_above_and_four_cells() {
        let col = |c: usize| Board::<7, 6>::column_mask(c);
        let cell = |c: usize, r: usize| 1u64 << (c * 7 + r);
        assert_eq!(cells_above::<7, 6, u64>(0), 0);
        assert_eq!(cells_above::<7, 6, u64>(cell(0, 0)), col(0) & !cell(0, 0));
        // the lowest cell of each column counts; the top row has nothing above
        assert_eq!(
            cells_above::<7, 6, u64>(cell(2, 3) | cell(2, 5) | cell(6, 5) | cell(4, 1)),
            cell(2, 4) | cell(2, 5) | cell(4, 2) | cell(4, 3) | cell(4, 4) | cell(4, 5)
        );
        let row = |r: usize| (0..7).fold(0, |m, c| m | cell(c, r));
        assert_eq!(four_cells::<7, 6, u64>(row(2) & !cell(3, 2)), 0);
        assert_eq!(
            four_cells::<7, 6, u64>(row(2) & !cell(4, 2)),
            row(2) & !cell(4, 2) & !cell(5, 2) & !cell(6, 2)
        );
        let diag = cell(1, 0) | cell(2, 1) | cell(3, 2) | cell(4, 3);
        assert_eq!(four_cells::<7, 6, u64>(diag | cell(6, 5)), diag);
        // vertical fours are not groups
        assert_eq!(four_cells::<7, 6, u64>(col(3)), 0);
    }

    #[test]
    fn claimeven_bound_cases() {
        assert_eq!(rows_with_parity(6, 0), 0b1010101);
        assert_eq!(rows_with_parity(6, 1), 0b0101010);
        // An odd column: the opponent cannot follow up everywhere.
        assert_eq!(claimeven_bound(&Position::parse("4").unwrap()), None);
        // The empty board: the first player's cells (rows 1, 3, 5) hold fours.
        assert_eq!(claimeven_bound(&Position::parse("").unwrap()), None);
    }

    /// The bounds never lie: checked against the reference search (which uses
    /// none of them) on random positions where they apply.
    #[test]
    fn claimeven_aftereven_and_odd_threat_bounds_hold_against_the_reference_search() {
        use crate::solver::reference::Reference;
        use crate::table::UpperTable;
        use rand::{RngExt, SeedableRng};

        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut reference =
            Reference::<7, 6, u64, UpperTable>::new(UpperTable::with_megabytes(8).unwrap());
        let (mut zero, mut negative, mut exact, mut moves_checked) = (0, 0, 0, 0);
        let (mut odd_threats, mut afterevens) = (0, 0);
        // C4_PARITY_GAMES=40000 for a longer run.
        let games = std::env::var("C4_PARITY_GAMES")
            .ok()
            .and_then(|g| g.parse().ok())
            .unwrap_or(3000);
        for _ in 0..games {
            let mut pos = Position::new();
            // Random games of moves that do not lose at once, so that they last.
            while pos.moves_played() < 40 && !pos.can_win_next() {
                let safe = non_losing_moves(&pos);
                let cols: Vec<usize> = (0..7)
                    .filter(|&c| safe & Board::<7, 6>::column_mask(c) != 0)
                    .collect();
                if cols.is_empty() {
                    break;
                }
                pos.play_col(cols[rng.random_range(0..cols.len())]);
                if pos.moves_played() >= 24
                    && !pos.can_win_next()
                    && let Some(bound) = claimeven_bound(&pos)
                {
                    reference.clear();
                    let (score, _) = reference.search(&pos, -21, 21);
                    assert!(score <= bound, "score {score} above bound {bound}");
                    // Aftereven proper: the player's cells hold fours, and no even
                    // threat of the opponent's decides (a group of two or more
                    // empty cells does).
                    let empty = Board::<7, 6>::BOARD_MASK & !pos.mask();
                    let own = pos.current() | (empty & player_rows::<7, 6, u64>());
                    let contested = odd_column_bottoms(&pos);
                    let threats =
                        pos.opponent_winning_position() & !player_rows::<7, 6, u64>() & !contested;
                    if may_align_with_half::<7, 6, u64>(own, contested) && threats == 0 {
                        afterevens += 1;
                    }
                    if bound == 0 {
                        zero += 1;
                    } else {
                        negative += 1;
                    }
                    exact += usize::from(score == bound);
                }
                if pos.moves_played() >= 24
                    && !pos.can_win_next()
                    && let Some(bound) = odd_threat_bound(&pos)
                {
                    reference.clear();
                    let (score, _) = reference.search(&pos, -21, 21);
                    assert!(score >= bound, "score {score} below bound {bound}");
                    odd_threats += 1;
                }
                // The parent's view: the move into the one odd column.
                if pos.moves_played() >= 23
                    && !pos.can_win_next()
                    && let Some((mv, guaranteed)) = claimeven_move(&pos, non_losing_moves(&pos))
                {
                    let mut child = pos;
                    child.play_move_unchecked(mv);
                    reference.clear();
                    let (score, _) = reference.search(&child, -21, 21);
                    assert!(-score >= guaranteed, "move worth {} < {guaranteed}", -score);
                    moves_checked += 1;
                }
            }
        }
        // Both kinds of bound occurred, and some were the true score.
        assert!(
            zero > 0 && negative > 0 && exact > 0,
            "{zero} {negative} {exact}"
        );
        assert!(moves_checked > 0);
        assert!(odd_threats > 0);
        assert!(afterevens > 0);
    }
}
