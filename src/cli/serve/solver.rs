//! Every call of `serve` into the library's solver and book: parsing a position
//! (the command line's own parser, so that its messages are the command line's),
//! building the solver threads' searches, and one analysis. The rest of the
//! server knows only [`Parsed`], [`Task`] and the library's [`Answer`].
//!
//! Every built board size is served: a request names its size (`size=WxH`,
//! the `--size` board by default) and the library's size-erased position and
//! solver carry it. Each solver thread holds one solver, rebuilt (its table
//! allocated anew) when a task asks another size than the thread's last one,
//! so memory stays one table per thread whatever the sizes asked.

use c4solver::Line;
use c4solver::{Book, Config, Mode, Size, Solver, StopFlag};

use super::answer::{Answer, Parsed, Task};
use super::pool::{Failure, Work};
use crate::cli::args::{BookArg, EngineArgs};
use crate::cli::engine;

/// Parses the moves of `pos` on the `size` board as the command line parses a
/// line of `analyze`, with its message on error; a second field (a `solve`
/// line's expected score) has no place in a query ([`Line::parse_pos`], as the
/// page's WebAssembly engine).
///
/// # Errors
/// The command line's message for the line, without its `line N: ` prefix, or
/// for a size this program does not hold.
pub fn parse(size: Size, pos: &[u8]) -> Result<Parsed, String> {
    let size = size.built().map_err(|e| e.to_string())?;
    let q = Line::parse_pos(size, pos).map_err(|e| e.to_string())?;
    Ok(Parsed {
        moves: q.moves.to_string(),
        key: q.position.key(),
        position: q.position,
    })
}

/// One search per solver thread, each with its own solver and table (its share
/// of `--table-mb`) and the book the options choose, built now for the
/// `--size` board so that a table that cannot be had is reported before the
/// server listens.
///
/// # Errors
/// The command line's messages for options, book files and tables.
pub fn workers(engine: &EngineArgs, threads: usize) -> anyhow::Result<Vec<Work>> {
    let make = engine::workers(engine, "serve", false, threads, &StopFlag::new())?;
    let home_book = engine::book_choice(engine)?;
    let books = !engine.no_book && engine.book != Some(BookArg::None);
    (0..threads)
        .map(|i| {
            let solver = make(i)?.state;
            let mut thread = Thread {
                home: engine.size,
                config: *solver.config(),
                joinable: threads > 1,
                home_book: home_book.clone(),
                books,
                solver: Some(solver),
            };
            let work: Work =
                Box::new(move |task: &Task, stop: &StopFlag| thread.analyze(task, stop));
            Ok(work)
        })
        .collect()
}

/// One solver thread's solver, and what it takes to build it for another size.
struct Thread {
    /// The `--size` board.
    home: Size,
    /// The configuration of every solver of the thread.
    config: Config,
    /// Whether the solvers are built joinable, as the first one was.
    joinable: bool,
    /// The book of the `--size` board (`--book FILE` or the built-in one).
    home_book: Option<Book>,
    /// Whether the other sizes answer from their built-in book (none with
    /// `--no-book` or `--book none`).
    books: bool,
    /// The solver of the last size asked; `None` after a failed rebuild.
    solver: Option<Solver>,
}

impl Thread {
    /// The solver of the `size` board: the thread's own if it is of that size,
    /// else a new one (the old one and its table dropped first).
    fn solver(&mut self, size: Size) -> Result<&mut Solver, Failure> {
        if self.solver.as_ref().is_none_or(|s| s.size() != size) {
            self.solver = None;
            let built = if self.joinable {
                Solver::new_joinable(size, self.config)
            } else {
                Solver::new(size, self.config)
            };
            let mut solver = built.map_err(|e| {
                Failure::Failed(format!("cannot build a solver for the {size} board: {e}"))
            })?;
            let book = if size == self.home {
                self.home_book.clone()
            } else {
                Book::builtin(size).filter(|_| self.books)
            };
            solver.set_book(book.as_ref());
            self.solver = Some(solver);
        }
        self.solver
            .as_mut()
            .ok_or_else(|| Failure::Failed("no solver".into()))
    }

    /// The analysis of one task; [`Failure::Stopped`] if `stop` was set before
    /// it ended.
    fn analyze(&mut self, task: &Task, stop: &StopFlag) -> Result<Answer, Failure> {
        let solver = self.solver(task.position.size())?;
        solver.set_stop_flag(stop.clone());
        let mode = if task.weak { Mode::Weak } else { Mode::Strong };
        solver
            .answer(&task.moves, &task.position, mode, task.pv)
            .map_err(|_| Failure::Stopped)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn thread(books: bool) -> Thread {
        let config = Config {
            table_mb: 1,
            ..Config::default()
        };
        Thread {
            home: Size::STANDARD,
            config,
            joinable: false,
            home_book: None,
            books,
            solver: Some(Solver::new(Size::STANDARD, config).unwrap()),
        }
    }

    fn task(size: Size, moves: &str) -> Task {
        let parsed = parse(size, moves.as_bytes()).unwrap();
        Task {
            moves: parsed.moves,
            position: parsed.position,
            weak: false,
            pv: true,
        }
    }

    #[test]
    fn parses_on_the_size_asked() {
        let p = parse(Size::STANDARD, b"4455").unwrap();
        assert_eq!(
            (p.moves.as_str(), p.position.size()),
            ("4455", Size::STANDARD)
        );
        assert_eq!(
            p.key,
            c4solver::Position::parse(Size::STANDARD, "4455")
                .unwrap()
                .key()
        );
        assert_eq!(
            parse(Size::STANDARD, b"8").unwrap_err(),
            "column 8 is out of range (1..=7) at move 1"
        );
        let wide = Size::new(10, 6).unwrap();
        match wide.built() {
            Ok(_) => assert_eq!(parse(wide, b"a").unwrap().position.size(), wide),
            Err(e) => assert_eq!(parse(wide, b"a").unwrap_err(), e.to_string()),
        }
    }

    #[test]
    fn a_thread_answers_every_built_size() {
        let mut t = thread(false);
        let stop = StopFlag::new();
        // 7x6: the opponent wins with their 7th stone: -(22 - 7) = -15.
        let a = t
            .analyze(&task(Size::STANDARD, "44455554221"), &stop)
            .unwrap();
        assert_eq!(a.score, -15);
        assert!(!a.book);
        for &size in Size::BUILT.iter().filter(|s| s.cells() <= 20) {
            // John Tromp's table: 4x4 and 5x4 are draws.
            let a = t.analyze(&task(size, ""), &stop).unwrap();
            assert_eq!((a.score, a.scores.len()), (0, size.width), "{size}");
            assert_eq!(t.solver.as_ref().unwrap().size(), size);
        }
        // Served from another home size, 7x6 answers from its built-in book.
        let mut away = thread(true);
        away.home = Size::new(8, 7).unwrap();
        away.solver = None;
        let a = away.analyze(&task(Size::STANDARD, ""), &stop).unwrap();
        assert_eq!((a.score, a.book), (1, true));
    }
}
