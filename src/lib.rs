//! c4solver: an exact Connect Four solver.
//!
//! Positions are written as the columns played, 1-based, from the empty board
//! (`"4453"`). Scores are from the side to move: positive for a win (`22 - the
//! stones the winner has played at the end`, on 7x6), 0 for a draw, negative for a
//! loss. Strong mode gives the exact score, weak mode only its sign.
//!
//! ```
//! use c4solver::{Config, Mode, Position, Solver7x6};
//!
//! let pos = Position::parse("44455554221")?;
//! let mut solver = Solver7x6::new(Config::default())?;
//! // The opponent wins with their 7th stone: -(22 - 7) = -15.
//! assert_eq!(solver.solve(&pos, Mode::Strong)?.score, -15);
//! assert_eq!(solver.solve(&pos, Mode::Weak)?.score, -1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A long search can be stopped from another thread through a [`StopFlag`]:
//!
//! ```
//! use c4solver::{Config, Mode, Position, SolveError, Solver7x6, StopFlag};
//!
//! let mut solver = Solver7x6::new(Config::default())?;
//! let stop = StopFlag::new();
//! solver.set_stop_flag(stop.clone());
//! stop.stop(); // e.g. from a Ctrl-C handler
//! assert_eq!(solver.solve(&Position::new(), Mode::Strong), Err(SolveError::Stopped));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod generate;
pub mod harness;
pub mod input;
pub mod moves;
pub mod position;
pub mod solver;
pub mod table;
pub mod testset;

pub use position::{Board, MoveError, Position};
pub use solver::{
    Config, DepthKind, Mode, ReplaceKind, Solution, SolveError, Solver, Solver7x6, SolverKind,
    StopFlag, TableKind,
};
