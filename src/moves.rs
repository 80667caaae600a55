//! Move ordering.
//!
//! The reference solver explores columns center first, because central cells take
//! part in more lines of four and so are more often the best move. For 7 columns
//! the order is 4, 3, 5, 2, 6, 1, 7 (1-based): the tutorial's formula
//! `W/2 + (1 - 2*(i%2)) * (i+1) / 2` gives this, left before right, although the
//! comment beside it in the tutorial's code says `{3, 4, 2, 5, 1, 6, 0}`. Only the
//! left-first order reproduces the published node counts (92.84 and 207,942 mean
//! nodes on End-Easy and Middle-Easy; the right-first order gives 94.46 and 59,231).

/// Columns (0-based) of a `W`-wide board, center first, by the tutorial's formula:
/// `[3, 2, 4, 1, 5, 0, 6]` for `W = 7`, `[2, 1, 3, 0]` for `W = 4`.
pub const fn center_first<const W: usize>() -> [usize; W] {
    let mut order = [0; W];
    let mut i = 0;
    while i < W {
        let sign = 1 - 2 * (i as i64 % 2);
        // Rust's `/` truncates toward zero like C's, as the formula expects.
        order[i] = (W as i64 / 2 + sign * (i as i64 + 1) / 2) as usize;
        i += 1;
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

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
