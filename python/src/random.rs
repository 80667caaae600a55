//! `random_positions`: random positions drawn as `c4solver generate` draws its
//! candidates (the library's `generate::draws`), for data sets.

use c4solver::Size;
use c4solver::bench as generate;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::position::Position;

/// Draws in a row that give no new position before a range counts as run out.
const STALL: usize = 1_000_000;

/// random_positions(n, stones=(1, 41), seed=None) -> list[Position]
///
/// `n` different positions, each with a number of stones drawn uniformly from
/// `stones` (lo, hi) and reached by uniformly random legal moves; a game won
/// before its last stone is drawn again, as is the empty board, and a position
/// drawn before. The same distribution as `c4solver generate` draws its
/// candidates: random_positions(n, (29, 42), seed=s) gives the positions of
/// `c4solver generate --stage end --difficulty easy --count n --seed s`, in
/// order (every End position is Easy). With seed=None, a random seed.
///
/// Raises ValueError for n < 0, for stones outside 0 <= lo <= hi <= 42 or
/// with no position to draw (the empty and the full board are never drawn), and
/// when the range runs out of positions (a million draws in a row gave none
/// new: fewer than n positions exist, or the last ones are too rare to find).
#[pyfunction]
#[pyo3(signature = (n, stones = (1, 41), seed = None), text_signature = "(n, stones=(1, 41), seed=None)")]
pub fn random_positions(
    py: Python<'_>,
    n: i64,
    stones: (i64, i64),
    seed: Option<u64>,
) -> PyResult<Vec<Position>> {
    let n = usize::try_from(n)
        .map_err(|_| PyValueError::new_err(format!("n must be 0 or more, not {n}")))?;
    let (lo, hi) = stones;
    let cells = Size::STANDARD.cells() as i64;
    if !(0 <= lo && lo <= hi && hi <= cells) {
        return Err(PyValueError::new_err(format!(
            "stones must be (lo, hi) with 0 <= lo <= hi <= {cells}, not ({lo}, {hi})"
        )));
    }
    let range = lo as usize..=hi as usize;
    let seed = seed.unwrap_or_else(rand::random);
    let Some(draws) = generate::draws::<7, 6, u64>(range, seed) else {
        return Err(PyValueError::new_err(format!(
            "no position to draw with {lo} to {hi} stones: the empty and the full board are never drawn"
        )));
    };
    let drawn = py.detach(|| {
        let mut out = Vec::with_capacity(n.min(1 << 20));
        let mut stall = 0;
        for draw in draws {
            if out.len() == n {
                return Ok(out);
            }
            match draw {
                Some((moves, _)) => {
                    out.push(moves);
                    stall = 0;
                }
                None if stall == STALL => return Err(out.len()),
                None => stall += 1,
            }
        }
        unreachable!("draws never end")
    });
    match drawn {
        Ok(moves) => Ok(moves
            .iter()
            .map(|m| Position::parse(Size::STANDARD, m).expect("a drawn game is legal"))
            .collect()),
        Err(found) => Err(PyValueError::new_err(format!(
            "only {found} different positions with {lo} to {hi} stones turned up in \
             {STALL} draws in a row: ask for fewer than {n}"
        ))),
    }
}
