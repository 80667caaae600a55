//! The benchmark and generation tools on a board size chosen at run time:
//! [`TestSets`] (files read and run by the harness), [`candidates_on`] and
//! [`label_on`] (the positions `c4solver generate` draws and labels). Each
//! dispatches once on the size to the generic tools of [`bench`](crate::bench).

use std::any::Any;
use std::path::Path;

use crate::bits::Bits;
use crate::erased::{Book, Position, Solver};
use crate::generate::{self, Request};
use crate::harness::{self, Report, Setup};
use crate::size::{Size, SizeError};
use crate::solver::{Mode, SolveError, StopFlag};
use crate::table::TableError;
use crate::testset::{Difficulty, TestSet, TestSetError};
use crate::with_size;

/// Test sets of one board size, read from their files: the size-erased face of
/// a list of [`TestSet`]s.
///
/// ```
/// use c4solver::Size;
/// use c4solver::bench::TestSets;
///
/// let mut sets = TestSets::new(Size::STANDARD)?;
/// let dir = std::env::temp_dir().join(format!("c4-testsets-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let path = dir.join("two");
/// std::fs::write(&path, "4455 -2\n8 0\n")?;
/// let bad = sets.push_file(&path)?;
/// assert_eq!((sets.lens(), bad.len()), (vec![1], 1), "column 8 is off the board");
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct TestSets {
    size: Size,
    /// A `Vec<TestSet<W, H, B>>` of the size.
    inner: Box<dyn Any + Send + Sync>,
}

impl std::fmt::Debug for TestSets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TestSets")
            .field("size", &self.size)
            .field("lens", &self.lens())
            .finish()
    }
}

impl TestSets {
    /// No set yet, of the `size` board.
    ///
    /// # Errors
    /// [`SizeError`] for a size this build does not hold.
    pub fn new(size: Size) -> Result<TestSets, SizeError> {
        Ok(with_size!(size.built()?, empty_sets()))
    }

    /// The board size.
    pub fn size(&self) -> Size {
        self.size
    }

    /// Reads the set at `path` ([`TestSet::read_valid`]) and adds its valid
    /// lines; returns the errors of its other lines.
    ///
    /// # Errors
    /// A file that cannot be read.
    pub fn push_file(&mut self, path: &Path) -> Result<Vec<TestSetError>, TestSetError> {
        with_size!(self.size, push_on(self, path))
    }

    /// Positions of each set, in the order they were added.
    pub fn lens(&self) -> Vec<usize> {
        with_size!(self.size, lens_on(self))
    }

    /// Runs every set through every setup in every mode with `threads` workers
    /// per set, `book` answering
    /// for the setups that ask for it (the built-in one if `None`; a book of
    /// another size counts as none).
    ///
    /// # Errors
    /// A table that cannot be had.
    #[allow(clippy::too_many_arguments)]
    pub fn run_threads(
        &self,
        setups: &[Setup],
        book: Option<&Book>,
        modes: &[Mode],
        limit: Option<usize>,
        stop: &StopFlag,
        threads: usize,
        tick: impl FnMut() + Send,
    ) -> Result<Report, TableError> {
        let tick: Box<dyn FnMut() + Send + '_> = Box::new(tick);
        let run = Run {
            setups,
            book,
            modes,
            limit,
            stop,
            threads,
        };
        with_size!(self.size, run_on(self, &run, tick))
    }
}

/// The arguments of [`TestSets::run_threads`] but the sets and the tick.
struct Run<'a> {
    setups: &'a [Setup],
    book: Option<&'a Book>,
    modes: &'a [Mode],
    limit: Option<usize>,
    stop: &'a StopFlag,
    threads: usize,
}

fn sets_of<const W: usize, const H: usize, B: Bits>(sets: &TestSets) -> &Vec<TestSet<W, H, B>> {
    sets.inner
        .downcast_ref()
        .expect("dispatched on the sets' own size")
}

fn empty_sets<const W: usize, const H: usize, B: Bits>() -> TestSets {
    TestSets {
        size: Size {
            width: W,
            height: H,
        },
        inner: Box::new(Vec::<TestSet<W, H, B>>::new()),
    }
}

fn push_on<const W: usize, const H: usize, B: Bits>(
    sets: &mut TestSets,
    path: &Path,
) -> Result<Vec<TestSetError>, TestSetError> {
    let (set, bad) = TestSet::<W, H, B>::read_valid(path)?;
    sets.inner
        .downcast_mut::<Vec<TestSet<W, H, B>>>()
        .expect("dispatched on the sets' own size")
        .push(set);
    Ok(bad)
}

fn lens_on<const W: usize, const H: usize, B: Bits>(sets: &TestSets) -> Vec<usize> {
    sets_of::<W, H, B>(sets)
        .iter()
        .map(|s| s.entries.len())
        .collect()
}

fn run_on<const W: usize, const H: usize, B: Bits>(
    sets: &TestSets,
    run: &Run<'_>,
    tick: Box<dyn FnMut() + Send + '_>,
) -> Result<Report, TableError> {
    harness::run_threads(
        run.setups,
        run.book.and_then(|b| b.sized::<W, H, B>()),
        run.modes,
        sets_of::<W, H, B>(sets),
        run.limit,
        run.stop,
        run.threads,
        tick,
    )
}

/// The candidate positions of `request` on the `size` board, with their moves
/// (the generic candidates of its size): the same positions in the same
/// order as the generic tool's.
///
/// # Errors
/// [`SizeError`] for a size this build does not hold.
pub fn candidates_on(
    size: Size,
    request: &Request,
) -> Result<Box<dyn Iterator<Item = (String, Position)> + Send>, SizeError> {
    Ok(with_size!(size.built()?, candidates_of(request)))
}

fn candidates_of<const W: usize, const H: usize, B: Bits>(
    request: &Request,
) -> Box<dyn Iterator<Item = (String, Position)> + Send> {
    Box::new(generate::candidates::<W, H, B>(request).map(|(moves, pos)| (moves, pos.into())))
}

/// The strong score of `pos` if its moves left under perfect play put it in
/// `difficulty`, `None` if not.
///
/// # Errors
/// As [`Solver::solve`](crate::Solver::solve): a stop, a position of another size.
pub fn label_on(
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
    with_size!(solver.size(), label_of(solver, pos, difficulty))
}

fn label_of<const W: usize, const H: usize, B: Bits>(
    solver: &mut Solver,
    pos: &Position,
    difficulty: Difficulty,
) -> Result<Option<i32>, SolveError> {
    let sized = solver
        .sized_mut::<W, H, B>()
        .expect("dispatched on the solver's own size");
    generate::label(sized, &pos.board::<W, H, B>(), difficulty)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::{Config, Solver as SizedSolver};
    use crate::testset::Stage;

    #[test]
    fn candidates_and_labels_are_the_generic_ones() {
        let request = Request {
            stage: Stage::End,
            difficulty: Difficulty::Easy,
            count: 3,
            seed: 7,
        };
        let s = Size::STANDARD;
        let erased: Vec<(String, Position)> =
            candidates_on(s, &request).unwrap().take(20).collect();
        let generic: Vec<_> = generate::candidates::<7, 6, u64>(&request)
            .take(20)
            .collect();
        assert_eq!(erased.len(), 20);
        let mut solver = Solver::new(s, Config::default()).unwrap();
        let mut sized = SizedSolver::<7, 6>::new(Config::default()).unwrap();
        for ((m1, p1), (m2, p2)) in erased.iter().zip(&generic) {
            assert_eq!((m1, *p1), (m2, Position::from(*p2)));
            assert_eq!(
                label_on(&mut solver, p1, request.difficulty),
                generate::label(&mut sized, p2, request.difficulty),
                "{m1}"
            );
        }
    }

    #[test]
    fn sets_run_as_the_generic_harness() {
        let dir = std::env::temp_dir().join(format!("c4-testsets-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("end");
        std::fs::write(&path, "2252576253462244111563365343671351441 -1\n4455 x\n").unwrap();
        let mut sets = TestSets::new(Size::STANDARD).unwrap();
        assert_eq!(sets.push_file(&path).unwrap().len(), 1, "the bad score");
        assert_eq!(sets.lens(), vec![1]);
        assert!(sets.push_file(&dir.join("none")).is_err());
        let setups = [Setup::from(Config::default())];
        let report = sets
            .run_threads(
                &setups,
                None,
                &[Mode::Strong],
                None,
                &StopFlag::new(),
                1,
                || {},
            )
            .unwrap();
        let generic_set = TestSet::<7, 6, u64>::read_valid(&path).unwrap().0;
        let generic = harness::run_threads(
            &setups,
            None,
            &[Mode::Strong],
            &[generic_set],
            None,
            &StopFlag::new(),
            1,
            || {},
        )
        .unwrap();
        assert!(report.mismatches.is_empty());
        assert_eq!(report.rows.len(), 1);
        assert_eq!(report.rows[0].total_nodes, generic.rows[0].total_nodes);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
