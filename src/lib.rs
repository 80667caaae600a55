//! c4solver: an exact Connect Four solver.
//!
//! ```
//! use c4solver::{Config, Mode, Position, Solver7x6};
//!
//! let pos = Position::parse("44455554221").unwrap();
//! let mut solver = Solver7x6::new(Config::default()).unwrap();
//! // The opponent wins with their 7th stone: -(22 - 7) = -15.
//! assert_eq!(solver.solve(&pos, Mode::Strong).score, -15);
//! assert_eq!(solver.solve(&pos, Mode::Weak).score, -1);
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
    Config, DepthKind, Mode, ReplaceKind, Solution, Solver, Solver7x6, SolverKind, TableKind,
};
