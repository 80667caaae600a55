//! [`Solver`]: the search on any board size, the size chosen at run time.
//!
//! A solver holds one generic [`sized::Solver`](crate::sized::Solver) of its size
//! behind [`Core`], a trait object: each call dispatches once, then runs the
//! generic search, compiled for that size with its masks as constants.

use std::any::Any;
use std::fmt::Debug;

use crate::analysis::{Choice, Variation};
use crate::answer::Answer;
use crate::bits::Bits;
use crate::erased::{Analysis, Book, Position};
use crate::moves::center_column;
use crate::position::Playable;
use crate::size::{Size, SizeError};
use crate::solver::{
    Config, Helper, Mode, Solution, SolveError, Solver as SizedSolver, StopFlag, Stopped,
};
use crate::table::{TableError, TableStats};
use crate::with_size;

/// An exact solver of any board size this build holds ([`Size::BUILT`]): the
/// size-erased face of [`sized::Solver`](crate::sized::Solver), as
/// regex-automata's `meta::Regex` is of its engines.
///
/// ```
/// use c4solver::{Config, Mode, Position, Size, Solver};
///
/// let size = Size::STANDARD;
/// let mut solver = Solver::new(size, Config::default())?;
/// let pos = Position::parse(size, "44455554221")?;
/// // The opponent wins with their 7th stone: -(22 - 7) = -15.
/// assert_eq!(solver.solve(&pos, Mode::Strong)?.score, -15);
/// let analysis = solver.analyze(&pos, Mode::Weak)?;
/// assert_eq!((analysis.scores().len(), analysis.score()), (7, -1));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Solver {
    size: Size,
    core: Box<dyn Core>,
}

/// Why a solver could not be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolverError {
    /// The size is not one this build holds.
    #[error(transparent)]
    Size(#[from] SizeError),
    /// The table cannot be had.
    #[error(transparent)]
    Table(#[from] TableError),
}

/// The generic solver's methods, object-safe: one vtable per size.
trait Core: Debug + Send {
    fn solve(&mut self, pos: &Position, mode: Mode) -> Result<Solution, SolveError>;
    fn solve_window(
        &mut self,
        pos: &Position,
        alpha: i32,
        beta: i32,
    ) -> Result<Solution, SolveError>;
    fn analyze(&mut self, pos: &Position, mode: Mode) -> Result<Analysis, SolveError>;
    fn moves_within(
        &mut self,
        pos: &Position,
        mode: Mode,
        margin: i32,
    ) -> Result<Choice, SolveError>;
    fn principal_variation(&mut self, pos: &Position, mode: Mode) -> Result<Variation, SolveError>;
    fn principal_variation_of(&mut self, analysis: &Analysis) -> Result<Variation, Stopped>;
    fn answer(
        &mut self,
        moves: &str,
        pos: &Position,
        mode: Mode,
        pv: bool,
    ) -> Result<Answer, SolveError>;
    fn set_book(&mut self, book: Option<&Book>);
    fn book_depth(&self) -> Option<usize>;
    fn set_stop_flag(&mut self, flag: StopFlag);
    fn stop_flag(&self) -> &StopFlag;
    fn threads(&self) -> usize;
    fn helper(&self) -> Option<Helper>;
    fn config(&self) -> &Config;
    fn clear(&mut self);
    fn last_stats(&self) -> Option<TableStats>;
    fn prefault(&mut self);
    fn try_clone(&self) -> Result<Box<dyn Core>, TableError>;
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

fn playable<const W: usize, const H: usize, B: Bits>(
    pos: &Position,
) -> Result<Playable<W, H, B>, SolveError> {
    Playable::new(pos.board()).ok_or(SolveError::GameOver)
}

impl<const W: usize, const H: usize, B: Bits> Core for SizedSolver<W, H, B> {
    fn solve(&mut self, pos: &Position, mode: Mode) -> Result<Solution, SolveError> {
        Ok(self.solve_playable(&playable(pos)?, mode)?)
    }

    fn solve_window(
        &mut self,
        pos: &Position,
        alpha: i32,
        beta: i32,
    ) -> Result<Solution, SolveError> {
        Ok(self.solve_window_playable(&playable(pos)?, alpha, beta)?)
    }

    fn analyze(&mut self, pos: &Position, mode: Mode) -> Result<Analysis, SolveError> {
        Ok((&self.analyze_playable(&playable(pos)?, mode)?).into())
    }

    fn moves_within(
        &mut self,
        pos: &Position,
        mode: Mode,
        margin: i32,
    ) -> Result<Choice, SolveError> {
        SizedSolver::moves_within(self, &pos.board(), mode, margin)
    }

    fn principal_variation(&mut self, pos: &Position, mode: Mode) -> Result<Variation, SolveError> {
        SizedSolver::principal_variation(self, &pos.board(), mode)
    }

    fn principal_variation_of(&mut self, analysis: &Analysis) -> Result<Variation, Stopped> {
        SizedSolver::principal_variation_of(self, &analysis.sized())
    }

    fn answer(
        &mut self,
        moves: &str,
        pos: &Position,
        mode: Mode,
        pv: bool,
    ) -> Result<Answer, SolveError> {
        Ok(SizedSolver::answer(self, moves, &playable(pos)?, mode, pv)?)
    }

    fn set_book(&mut self, book: Option<&Book>) {
        SizedSolver::set_book(self, book.and_then(|b| b.sized::<W, H, B>()).cloned());
    }

    fn book_depth(&self) -> Option<usize> {
        SizedSolver::book_depth(self)
    }

    fn set_stop_flag(&mut self, flag: StopFlag) {
        SizedSolver::set_stop_flag(self, flag);
    }

    fn stop_flag(&self) -> &StopFlag {
        SizedSolver::stop_flag(self)
    }

    fn threads(&self) -> usize {
        SizedSolver::threads(self)
    }

    fn helper(&self) -> Option<Helper> {
        SizedSolver::helper(self)
    }

    fn config(&self) -> &Config {
        SizedSolver::config(self)
    }

    fn clear(&mut self) {
        SizedSolver::clear(self);
    }

    fn last_stats(&self) -> Option<TableStats> {
        SizedSolver::last_stats(self)
    }

    fn prefault(&mut self) {
        SizedSolver::prefault(self);
    }

    fn try_clone(&self) -> Result<Box<dyn Core>, TableError> {
        Ok(Box::new(SizedSolver::try_clone(self)?))
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

fn core<const W: usize, const H: usize, B: Bits>(
    config: Config,
) -> Result<Box<dyn Core>, TableError> {
    Ok(Box::new(SizedSolver::<W, H, B>::new(config)?))
}

fn joinable_core<const W: usize, const H: usize, B: Bits>(
    config: Config,
) -> Result<Box<dyn Core>, TableError> {
    Ok(Box::new(SizedSolver::<W, H, B>::new_joinable(config)?))
}

impl Solver {
    /// A solver of the `size` board with no book ([`sized::Solver::new`](crate::sized::Solver::new)).
    ///
    /// # Errors
    /// [`SolverError::Size`] for a size this build does not hold,
    /// [`SolverError::Table`] for a table that cannot be had.
    pub fn new(size: Size, config: Config) -> Result<Solver, SolverError> {
        let core = with_size!(size.built()?, core(config))?;
        Ok(Solver { size, core })
    }

    /// A solver whose searches the pool's idle workers can join
    /// ([`Worker::joinable`](crate::batch::Worker::joinable)), starting no
    /// thread of its own: the command line gives each worker one, so that idle
    /// workers can join the last searches of a stream. Configurations that cannot
    /// share their table ([`Config::can_share`]) get the one-thread solver of
    /// [`Solver::new`].
    ///
    /// # Errors
    /// As [`Solver::new`].
    pub fn new_joinable(size: Size, config: Config) -> Result<Solver, SolverError> {
        let core = with_size!(size.built()?, joinable_core(config))?;
        Ok(Solver { size, core })
    }

    /// A solver of the `size` board that answers from the book built in for that
    /// size first (7x6's; the other sizes have none and search every position).
    ///
    /// # Errors
    /// As [`Solver::new`].
    pub fn with_builtin_book(size: Size, config: Config) -> Result<Solver, SolverError> {
        let mut solver = Solver::new(size, config)?;
        solver.set_book(Book::builtin(size).as_ref());
        Ok(solver)
    }

    /// Another solver with the same configuration, book and stop flag, and a table
    /// of its own.
    ///
    /// # Errors
    /// [`TableError`] if the new table cannot be had.
    pub fn try_clone(&self) -> Result<Solver, TableError> {
        Ok(Solver {
            size: self.size,
            core: self.core.try_clone()?,
        })
    }

    /// The board size.
    pub fn size(&self) -> Size {
        self.size
    }

    /// The generic solver inside, if its size is `W`x`H` on word `B`: the tools of
    /// [`sized`](crate::sized) that this type does not carry.
    pub fn sized_mut<const W: usize, const H: usize, B: Bits>(
        &mut self,
    ) -> Option<&mut SizedSolver<W, H, B>> {
        self.core.as_any_mut().downcast_mut()
    }

    fn check(&self, pos: &Position) -> Result<(), SolveError> {
        if pos.size() == self.size {
            Ok(())
        } else {
            Err(SolveError::WrongSize {
                solver: self.size,
                position: pos.size(),
            })
        }
    }

    /// The exact score of `pos` (strong) or its sign (weak), with the nodes and
    /// time ([`sized::Solver::solve`](crate::sized::Solver::solve)).
    ///
    /// # Errors
    /// [`SolveError::GameOver`] when a side holds four in a row,
    /// [`SolveError::Stopped`] when the stop flag was set,
    /// [`SolveError::WrongSize`] for a position of another size.
    pub fn solve(&mut self, pos: &Position, mode: Mode) -> Result<Solution, SolveError> {
        self.check(pos)?;
        self.core.solve(pos, mode)
    }

    /// The score of `pos` within the window `alpha < beta`: exact inside it, else a
    /// bound on the window's side ([`sized::Solver::solve_window`](crate::sized::Solver::solve_window)).
    ///
    /// # Errors
    /// As [`Solver::solve`], and [`SolveError::EmptyWindow`] unless `alpha < beta`.
    pub fn solve_window(
        &mut self,
        pos: &Position,
        alpha: i32,
        beta: i32,
    ) -> Result<Solution, SolveError> {
        self.check(pos)?;
        if alpha >= beta {
            return Err(SolveError::EmptyWindow { alpha, beta });
        }
        self.core.solve_window(pos, alpha, beta)
    }

    /// Every column's score ([`sized::Solver::analyze`](crate::sized::Solver::analyze)).
    ///
    /// # Errors
    /// As [`Solver::solve`].
    pub fn analyze(&mut self, pos: &Position, mode: Mode) -> Result<Analysis, SolveError> {
        self.check(pos)?;
        self.core.analyze(pos, mode)
    }

    /// The columns whose score is within `margin` of the best
    /// ([`sized::Solver::moves_within`](crate::sized::Solver::moves_within)).
    ///
    /// # Errors
    /// As [`Solver::solve`], and [`SolveError::NegativeMargin`] for `margin < 0`.
    pub fn moves_within(
        &mut self,
        pos: &Position,
        mode: Mode,
        margin: i32,
    ) -> Result<Choice, SolveError> {
        self.check(pos)?;
        if margin < 0 {
            return Err(SolveError::NegativeMargin(margin));
        }
        self.core.moves_within(pos, mode, margin)
    }

    /// The columns with the best score.
    ///
    /// # Errors
    /// As [`Solver::solve`].
    pub fn best_moves(&mut self, pos: &Position, mode: Mode) -> Result<Choice, SolveError> {
        self.moves_within(pos, mode, 0)
    }

    /// One best move, the one nearest the centre; `None` on a full board.
    ///
    /// # Errors
    /// As [`Solver::solve`].
    pub fn best_move(&mut self, pos: &Position, mode: Mode) -> Result<Option<usize>, SolveError> {
        let best = self.best_moves(pos, mode)?.columns;
        let width = self.size.width;
        Ok((0..width)
            .map(|i| center_column(width, i))
            .find(|c| best.contains(c)))
    }

    /// A line of best play from `pos` to the end of the game
    /// ([`sized::Solver::principal_variation`](crate::sized::Solver::principal_variation)).
    ///
    /// # Errors
    /// As [`Solver::solve`].
    pub fn principal_variation(
        &mut self,
        pos: &Position,
        mode: Mode,
    ) -> Result<Variation, SolveError> {
        self.check(pos)?;
        self.core.principal_variation(pos, mode)
    }

    /// A line of best play that starts from an analysis already made.
    ///
    /// # Errors
    /// As [`Solver::solve`].
    pub fn principal_variation_of(&mut self, analysis: &Analysis) -> Result<Variation, SolveError> {
        self.check(analysis.position())?;
        Ok(self.core.principal_variation_of(analysis)?)
    }

    /// The [`Answer`] for `pos`, written `moves`: its analysis, and with `pv` a
    /// line of best play; the fields every surface gives.
    ///
    /// # Errors
    /// As [`Solver::solve`].
    pub fn answer(
        &mut self,
        moves: &str,
        pos: &Position,
        mode: Mode,
        pv: bool,
    ) -> Result<Answer, SolveError> {
        self.check(pos)?;
        self.core.answer(moves, pos, mode, pv)
    }

    /// Answers from `book` before searching, or searches every position with
    /// `None`. A book of another size is ignored, as no book.
    pub fn set_book(&mut self, book: Option<&Book>) {
        self.core.set_book(book.filter(|b| b.size() == self.size));
    }

    /// The depth of the book the solver answers from, `None` without one.
    pub fn book_depth(&self) -> Option<usize> {
        self.core.book_depth()
    }

    /// Stops every search of this solver when `flag` is set.
    pub fn set_stop_flag(&mut self, flag: StopFlag) {
        self.core.set_stop_flag(flag);
    }

    /// The flag that stops this solver's searches.
    pub fn stop_flag(&self) -> &StopFlag {
        self.core.stop_flag()
    }

    /// Threads that search each position.
    pub fn threads(&self) -> usize {
        self.core.threads()
    }

    /// A handle through which another thread can join this solver's searches
    /// ([`Helper::help`]), if they run over a shared table.
    pub(crate) fn helper(&self) -> Option<Helper> {
        self.core.helper()
    }

    /// The configuration the solver was made with.
    pub fn config(&self) -> &Config {
        self.core.config()
    }

    /// Empties the table: the next search starts from nothing.
    pub fn clear(&mut self) {
        self.core.clear();
    }

    /// The table's statistics after the last search, if the configuration asked
    /// for them.
    pub fn last_stats(&self) -> Option<TableStats> {
        self.core.last_stats()
    }

    /// Has the kernel map and zero the table's memory now rather than at each
    /// page's first use by a search ([`sized::Solver::prefault`](crate::sized::Solver::prefault)):
    /// a benchmark calls it before its clock starts.
    pub fn prefault(&mut self) {
        self.core.prefault();
    }
}

impl Config {
    /// Whether this configuration can be built on the `size` board
    /// ([`Config::check`] on that size's generic solver).
    ///
    /// # Errors
    /// [`SolverError::Size`] for a size this build does not hold,
    /// [`SolverError::Table`] for a table the design cannot have on this board.
    pub fn check_on(&self, size: Size) -> Result<(), SolverError> {
        Ok(with_size!(size.built()?, check_config(self))?)
    }
}

fn check_config<const W: usize, const H: usize, B: Bits>(
    config: &Config,
) -> Result<(), TableError> {
    config.check::<W, H, B>()
}
