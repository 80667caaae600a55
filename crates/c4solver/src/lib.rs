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
//! A [`Solver::new`] is the search alone. The opening book sits beside it: a
//! solver built with [`Solver::with_builtin_book`] answers every position with at
//! most the book's depth stones at once, with no search ([`Solver::set_book`]
//! gives another book; any [`KnownScores`] can take its place):
//!
//! ```
//! use c4solver::{Book7x6, Config, Mode, Position, Solver7x6};
//!
//! let mut solver = Solver7x6::with_builtin_book(Config::default())?;
//! let empty = solver.solve(&Position::new(), Mode::Strong)?;
//! // The first player wins with their last stone (22 - 21 = 1), found in the book.
//! assert_eq!((empty.score, empty.nodes), (1, 0));
//!
//! let book = Book7x6::builtin().expect("7x6 has a built-in book");
//! println!("{} positions of up to {} stones", book.len(), book.depth());
//! // Another book: `Book7x6::read(path)?`; no book at all, the search alone:
//! let mut searching = Solver7x6::new(Config::default())?;
//! let p = Position::parse("44455554221")?; // 11 stones: searched either way
//! assert_eq!(searching.solve(&p, Mode::Strong)?.score, -15);
//! solver.set_book(Some(book));
//! assert_eq!(solver.solve(&p, Mode::Strong)?.score, -15);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Every move's score, the best move and a line of best play ([`Analysis`]):
//!
//! ```
//! use c4solver::{Config, Mode, Position, Solver7x6};
//!
//! let mut solver = Solver7x6::new(Config::default())?;
//! let pos = Position::parse("33772344")?;
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
//! use c4solver::{Config, Mode, Position, SolveError, Solver7x6, StopFlag};
//!
//! let mut solver = Solver7x6::new(Config::default())?;
//! let stop = StopFlag::new();
//! solver.set_stop_flag(stop.clone());
//! stop.stop(); // e.g. from a Ctrl-C handler
//! assert_eq!(solver.solve(&Position::new(), Mode::Strong), Err(SolveError::Stopped));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

//! Several threads can search one position together over one shared table
//! ([`Config::threads`]); the score is the same, the nodes are those of all the
//! threads:
//!
//! ```
//! use c4solver::{Config, Mode, Position, Solver7x6};
//!
//! let mut solver = Solver7x6::new(Config { threads: 2, ..Config::default() })?;
//! assert_eq!(solver.threads(), 2);
//! let pos = Position::parse("32164625")?; // Begin-Easy
//! assert_eq!(solver.solve(&pos, Mode::Strong)?.score, 11);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

//! Other board sizes: every type takes the board's width and height as const
//! parameters, and [`Size`] with [`with_size!`] picks one at run time (see
//! [`Size`]); any board whose `W * (H + 1)` bits fit in 64 works, and a board of
//! up to 128 bits on the 128-bit word (`Board<W, H, u128>`, `Solver<W, H, u128>`):
//!
//! ```
//! use c4solver::{Board, Config, Mode, Size, Solver, with_size};
//!
//! let mut solver = Solver::<5, 4>::new(Config::default())?;
//! // John Tromp's table: 5x4 is a draw.
//! assert_eq!(solver.solve(&Board::<5, 4>::new(), Mode::Strong)?.score, 0);
//!
//! fn quickest_win<const W: usize, const H: usize, B: c4solver::Bits>() -> i32 {
//!     Board::<W, H, B>::MAX_SCORE
//! }
//! let size: Size = "8x7".parse()?;
//! // `with_size!` holds 8x7 only with the `all-sizes` feature.
//! match size.built() {
//!     Ok(size) => assert_eq!(with_size!(size, quickest_win()), 25), // (56 + 1 - 6) / 2
//!     Err(e) => assert!(e.to_string().contains("all-sizes")),
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs, unreachable_pub)]

// The crate's README (what crates.io shows) runs as a doctest, so it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

mod analysis;
mod answer;
mod bits;
pub mod book;
mod cpu;
mod generate;
mod harness;
mod input;
mod moves;
mod pool;
mod position;
mod size;
mod solver;
mod table;
mod testset;
mod threads;

pub use analysis::{Analysis, Choice, Variation};
pub use answer::Answer;
pub use bits::Bits;
pub use book::{Book, Book7x6, BookError};
pub use cpu::unsupported as unsupported_cpu;
pub use input::{
    LineError, LineReader, MAX_LINE, PosError, Query, excerpt, parse_line, parse_pos, quoted,
};
pub use moves::center_first;
pub use position::{Board, MoveError, Playable, Position, StonesError, column_symbol};
pub use size::{Size, SizeError};
pub use solver::{
    Config, KnownScores, Mode, Research, Solution, SolveError, Solver, Solver7x6, SolverKind,
    StopFlag, Stopped,
};
pub use table::{TableError, TableStats};

/// Test sets: reading them ([`TestSet`](bench::TestSet)), running them with every
/// score checked (`c4solver bench`), and generating new ones from random games.
pub mod bench {
    pub use crate::generate::{Generated, Request, candidates, drawable, draws, generate, label};
    pub use crate::harness::{
        Mismatch, Report, Row, Setup, bucket_name, compare_markdown, expected, format_time,
        markdown, mode_name, run, run_threads, sig4, solver_name,
    };
    pub use crate::testset::{
        Difficulty, Entry, Stage, TestSet, TestSetError, moves_left, moves_left_on,
    };
}

/// Work on several threads: the pool of workers the command line's batches, the
/// Python package's and the book's tools run on, and the thread start that is
/// safe when memory runs out.
pub mod batch {
    pub use crate::pool::{FromIter, Jobs, Next, POLL, PoolError, TAIL_JOIN_AFTER, Worker, run};
    pub use crate::solver::Helper;
    pub use crate::threads::{ROOM, Running, Started, handshake, room};
}

/// The internals the research tools measure (with the `research` feature): every
/// table design, replacement policy and depth measure, and the searches' parts.
#[cfg(feature = "research")]
pub mod research {
    pub use crate::solver::{DepthKind, ReplaceKind, TableKind, TeamSearch, Tuned};
    pub use crate::table::{CompactTable, Layout, Narrow, SharedTable, Wide};
}
