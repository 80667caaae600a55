//! Solving positions: configurations, modes and results.
//!
//! A [`Solver`] owns one search configuration (the tutorial's [`reference`]
//! search or the [`tuned`] one) with its table, and answers [`Solver::solve`] for one
//! position at a time. Scores follow the tutorial's convention: from the side to
//! move, positive for a win (`22 - stones the winner has played at the end` on 7x6),
//! 0 for a draw, negative for a loss.

pub mod reference;
pub mod tuned;

use std::time::{Duration, Instant};

use crate::position::Board;
use crate::table::{CompactTable, TableError, UpperTable};
use reference::Reference;
use tuned::Tuned;

/// Exact score or only its sign.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// The exact score (window `[-W*H/2, W*H/2]`).
    Strong,
    /// Only win (1), draw (0) or loss (-1) (window `[-1, 1]`).
    Weak,
}

/// Which search to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum SolverKind {
    /// The tutorial's part-7 solver (center-first negamax, upper-bound table).
    Reference,
    /// Pons' final solver and further tuning (null windows, loss anticipation,
    /// threat-sorted moves, compact two-bound table).
    #[default]
    Tuned,
}

impl SolverKind {
    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            SolverKind::Reference => "reference",
            SolverKind::Tuned => "tuned",
        }
    }
}

/// Everything that selects a solver configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Config {
    /// The search.
    pub kind: SolverKind,
    /// Table size in megabytes (2^20 bytes); the table holds the largest prime
    /// number of entries that fits.
    pub table_mb: usize,
    /// Keep the table between positions instead of clearing it before each one.
    pub keep_table: bool,
}

impl Default for Config {
    /// The default configuration: the tuned solver with a 64 MB table, cleared
    /// before each position.
    fn default() -> Self {
        Config {
            kind: SolverKind::Tuned,
            table_mb: 64,
            keep_table: false,
        }
    }
}

/// The result of solving one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The score (strong) or its sign (weak).
    pub score: i32,
    /// Nodes explored (calls of the search function).
    pub nodes: u64,
    /// Search time, not counting the table clear before it.
    pub time: Duration,
}

#[derive(Clone, Debug)]
enum Engine<const W: usize, const H: usize> {
    Reference(Reference<W, H, UpperTable>),
    Tuned(Tuned<W, H>),
}

/// A solver for `W`x`H` boards; see the module documentation.
#[derive(Clone, Debug)]
pub struct Solver<const W: usize, const H: usize> {
    config: Config,
    engine: Engine<W, H>,
}

/// The solver for the standard 7x6 board.
pub type Solver7x6 = Solver<7, 6>;

impl<const W: usize, const H: usize> Solver<W, H> {
    /// Creates a solver, allocating its table.
    pub fn new(config: Config) -> Result<Self, TableError> {
        let engine = match config.kind {
            SolverKind::Reference => Engine::Reference(Reference::new(UpperTable::for_board(
                config.table_mb,
                Board::<W, H>::MIN_SCORE,
            )?)),
            SolverKind::Tuned => Engine::Tuned(Tuned::new(CompactTable::for_board::<W, H>(
                config.table_mb,
            )?)),
        };
        Ok(Solver { config, engine })
    }

    /// The configuration this solver was built with.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        match &mut self.engine {
            Engine::Reference(r) => r.clear(),
            Engine::Tuned(t) => t.clear(),
        }
    }

    /// Solves `pos`, which must not be over (parsing guarantees that).
    ///
    /// The table is cleared first unless the configuration keeps it.
    pub fn solve(&mut self, pos: &Board<W, H>, mode: Mode) -> Solution {
        if !self.config.keep_table {
            self.clear();
        }
        let half = (W * H / 2) as i32;
        let (alpha, beta) = match mode {
            Mode::Strong => (-half, half),
            Mode::Weak => (-1, 1),
        };
        let start = Instant::now();
        let (score, nodes) = match &mut self.engine {
            Engine::Reference(r) => r.search(pos, alpha, beta),
            Engine::Tuned(t) => t.search(pos, alpha, beta),
        };
        Solution {
            score,
            nodes,
            time: start.elapsed(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    fn solve(moves: &str, mode: Mode) -> i32 {
        let config = Config {
            kind: SolverKind::Reference,
            ..Config::default()
        };
        let mut s = Solver::<7, 6>::new(config).unwrap();
        s.solve(&Position::parse(moves).unwrap(), mode).score
    }

    #[test]
    fn readme_examples() {
        // "4455" = 18 takes the reference solver ~10^9 nodes; the tuned solver's
        // tests cover it.
        assert_eq!(solve("44455554221", Mode::Strong), -15);
        assert_eq!(solve("44455554221", Mode::Weak), -1);
    }
}
