//! c4solver: an exact Connect Four solver.
//!
//! Positions are written as the columns played, 1-based, from the empty board
//! (`"4453"`). Scores are from the side to move: positive for a win (`22 - the
//! stones the winner has played at the end`, on 7x6), 0 for a draw, negative for a
//! loss. Strong mode gives the exact score, weak mode only its sign.
//!
//! The board's [`Size`] is chosen at run time: [`Position`], [`Solver`],
//! [`Analysis`] and [`Book`] take it and dispatch once to the generic core of that
//! size ([`sized`]). The default build holds the standard 7x6 board; the
//! `all-sizes` feature holds every size of [`Size::BUILT`].
//!
//! ```
//! use c4solver::{Config, Mode, Position, Size, Solver};
//!
//! let size = Size::STANDARD;
//! let pos = Position::parse(size, "44455554221")?;
//! let mut solver = Solver::new(size, Config::default())?;
//! // The opponent wins with their 7th stone: -(22 - 7) = -15.
//! assert_eq!(solver.solve(&pos, Mode::Strong)?.score, -15);
//! assert_eq!(solver.solve(&pos, Mode::Weak)?.score, -1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A [`Solver::new`] is the search alone. The opening book sits beside it: a
//! solver built with [`Solver::with_builtin_book`] answers every position with at
//! most the book's depth stones at once, with no search ([`Solver::set_book`]
//! gives another book, [`Book::read`] reads one):
//!
//! ```
//! use c4solver::{Book, Config, Mode, Position, Size, Solver};
//!
//! let size = Size::STANDARD;
//! let mut solver = Solver::with_builtin_book(size, Config::default())?;
//! let empty = solver.solve(&Position::new(size)?, Mode::Strong)?;
//! // The first player wins with their last stone (22 - 21 = 1), found in the book.
//! assert_eq!((empty.score, empty.nodes), (1, 0));
//!
//! let book = Book::builtin(size).expect("7x6 has a built-in book");
//! println!("{} positions of up to {} stones", book.len(), book.depth());
//! let p = Position::parse(size, "44455554221")?; // 11 stones: searched
//! assert_eq!(solver.solve(&p, Mode::Strong)?.score, -15);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Every move's score, the best move and a line of best play ([`Analysis`]):
//!
//! ```
//! use c4solver::{Config, Mode, Position, Size, Solver};
//!
//! let mut solver = Solver::new(Size::STANDARD, Config::default())?;
//! let pos = Position::parse(Size::STANDARD, "33772344")?;
//! let analysis = solver.analyze(&pos, Mode::Strong)?;
//! // Columns 1 and 5 (0-based 0 and 4) complete four at once: (43 - 8) / 2 = 17.
//! assert_eq!(analysis.best_moves(), vec![0, 4]);
//! assert_eq!(analysis.best_move(), Some(4), "the one nearest the centre");
//! assert_eq!(solver.principal_variation_of(&analysis)?.to_string(), "5");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A long search can be stopped from another thread through a [`StopFlag`]:
//!
//! ```
//! use c4solver::{Config, Mode, Position, Size, SolveError, Solver, StopFlag};
//!
//! let mut solver = Solver::new(Size::STANDARD, Config::default())?;
//! let stop = StopFlag::new();
//! solver.set_stop_flag(stop.clone());
//! stop.stop(); // e.g. from a Ctrl-C handler
//! let empty = Position::new(Size::STANDARD)?;
//! assert_eq!(solver.solve(&empty, Mode::Strong), Err(SolveError::Stopped));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Several threads can search one position together over one shared table
//! ([`Config::threads`]); the score is the same, the nodes are those of all the
//! threads:
//!
//! ```
//! use c4solver::{Config, Mode, Position, Size, Solver};
//!
//! let mut solver = Solver::new(Size::STANDARD, Config { threads: 2, ..Config::default() })?;
//! assert_eq!(solver.threads(), 2);
//! let pos = Position::parse(Size::STANDARD, "32164625")?; // Begin-Easy
//! assert_eq!(solver.solve(&pos, Mode::Strong)?.score, 11);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Other board sizes, with the `all-sizes` feature (without it, a size other
//! than 7x6 is refused with a message that says how to build it):
//!
//! ```
//! use c4solver::{Config, Mode, Position, Size, Solver};
//!
//! let size: Size = "5x4".parse()?;
//! match Solver::new(size, Config::default()) {
//!     Ok(mut solver) => {
//!         // John Tromp's table: 5x4 is a draw.
//!         let empty = Position::new(size)?;
//!         assert_eq!(solver.solve(&empty, Mode::Strong)?.score, 0);
//!     }
//!     Err(e) => assert!(e.to_string().contains("all-sizes")),
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The generic engines themselves ([`sized::Solver`], [`sized::Board`]) take
//! the size as const parameters, for programs written for one size; a board of
//! up to 128 bits uses the 128-bit word (`Board<W, H, u128>`).

#![warn(missing_docs, unreachable_pub)]
// Internals are `pub` for `research`'s re-exports: that build checks `unreachable_pub`.
#![cfg_attr(not(feature = "research"), allow(unreachable_pub))]

// The crate's README (what crates.io shows) runs as a doctest, so it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

mod analysis;
mod answer;
mod bits;
mod books;
mod cpu;
mod erased;
mod generate;
mod input;
mod moves;
mod pool;
mod position;
mod size;
mod solver;
mod table;
mod testset;
mod threads;

pub use analysis::{Choice, Variation};
pub use answer::Answer;
pub use books::BookError;
pub use cpu::unsupported as unsupported_cpu;
pub use erased::{
    Analysis, Book, BookGeneration, Line, Position, PositionError, Solver, SolverError,
};
pub use input::LineError;
pub use position::{MoveError, StonesError};
pub use size::{Size, SizeError};
pub use solver::{Config, Mode, Research, Solution, SolveError, SolverKind, StopFlag};
pub use table::{TableError, TableStats};

/// The types of the book tools ([`Book`]'s header, format and counts, its rows'
/// error and checks, and [`BookGeneration`]'s options, shards and outcome). The
/// book itself is [`Book`] (or [`sized::Book`] for one size); its error is
/// [`BookError`].
pub mod book {
    pub use crate::books::verify::{Checked, Disagreement};
    pub use crate::books::{
        Format, GenerateError, Header, Options, Outcome, Shard, StoneCounts, Summary, Unreachable,
    };
}

/// The generic engines under the size-erased API: each type takes the board's
/// width and height as const parameters, and its bitboard word (`u64` up to 64
/// bits, `u128` above), so that each size is compiled with its masks as
/// constants. [`with_size!`](crate::with_size) calls a generic function with the
/// parameters of a [`Size`] chosen at run time.
pub mod sized {
    pub use crate::analysis::Analysis;
    pub use crate::bits::Bits;
    pub use crate::books::Book;
    pub use crate::input::Query;
    pub use crate::position::{Board, Playable};
    pub use crate::solver::{KnownScores, Solver, Stopped};
}

/// Reading positions a line at a time, as the command line reads them: lines of
/// at most [`MAX_LINE`](lines::MAX_LINE) bytes, a longer one cut there, and
/// excerpts of bad input for messages, cut as the library's own messages cut them.
pub mod lines {
    pub use crate::input::{LineReader, MAX_LINE, excerpt, quoted};
}

/// Test sets: reading them ([`TestSet`](bench::TestSet), with the buckets of
/// Pons' benchmark sets, [`Stage`](bench::Stage) and
/// [`Difficulty`](bench::Difficulty)), and drawing random positions as
/// `c4solver generate` draws its candidates ([`draws`](bench::draws)). Running
/// them through configurations and labelling new ones are the command line's.
pub mod bench {
    pub use crate::generate::draws;
    pub use crate::testset::{Difficulty, Entry, Stage, TestSet, TestSetError};
}

/// Work on several threads: the pool of workers the command line's batches, the
/// Python package's and the book's tools run on ([`run`](batch::run), each
/// [`Worker`](batch::Worker) with its state), and the thread start that is safe
/// when memory runs out.
pub mod batch {
    pub use crate::pool::{PoolError, Worker, run};
    pub use crate::threads::spawn_scoped;
}

/// The internals the research tools measure (with the `research` feature): every
/// table design, replacement policy and depth measure, and the searches' parts.
#[cfg(feature = "research")]
pub mod research {
    pub use crate::solver::{DepthKind, ReplaceKind, TableKind, TeamSearch, Tuned};
    pub use crate::table::{CompactTable, Layout, Narrow, SharedTable, Wide};
}
