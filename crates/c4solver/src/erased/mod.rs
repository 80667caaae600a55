//! The size-erased API: [`Position`], [`Solver`], [`Analysis`] and [`Book`] take
//! the board's [`Size`](crate::Size) at run time and dispatch once to the generic
//! core of that size (the types of [`sized`](crate::sized)), compiled with its
//! masks as constants. Every front end (the command line, the server, Python and
//! WebAssembly) uses these.

mod analysis;
mod book;
mod books;
mod input;
mod position;
mod solver;

pub use analysis::Analysis;
pub use book::Book;
pub use books::BookGeneration;
pub use input::Line;
pub use position::{Position, PositionError};
pub use solver::{Solver, SolverError};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bits::Bits;
    use crate::position::{Board, MoveError};
    use crate::size::{Size, SizeError};
    use crate::solver::{Config, Mode, SolveError, Solver as SizedSolver};
    use crate::with_size;

    /// Positions of a few stones on any board: every column in turn, then the
    /// centre, as far as the board takes them without a win.
    fn positions(size: Size) -> Vec<String> {
        let mut out = vec![String::new()];
        let mut moves = String::new();
        for i in 0..(size.width * 2).min(size.cells() - 1) {
            let col = (i * 3 + 1) % size.width;
            moves.push(crate::position::column_symbol(col));
            if Position::parse(size, &moves).is_err() {
                break;
            }
            out.push(moves.clone());
        }
        out
    }

    /// The generic solver's answers for `moves`: the score, each column's score
    /// and the line of best play.
    fn generic<const W: usize, const H: usize, B: Bits>(
        moves: &str,
    ) -> (i32, Vec<Option<i32>>, String) {
        let mut s = SizedSolver::<W, H, B>::new(Config::default()).unwrap();
        let pos = Board::<W, H, B>::parse(moves).unwrap();
        let a = s.analyze(&pos, Mode::Strong).unwrap();
        let pv = s.principal_variation_of(&a).unwrap().to_string();
        (
            s.solve(&pos, Mode::Strong).unwrap().score,
            a.scores().to_vec(),
            pv,
        )
    }

    #[test]
    fn the_erased_solver_answers_as_the_generic_one() {
        // The small boards solve at once from any position; the others from
        // positions deep enough (7x6 with 8 stones and more).
        for &size in Size::BUILT
            .iter()
            .filter(|s| s.cells() <= 30 || **s == Size::STANDARD)
        {
            let mut solver = Solver::new(size, Config::default()).unwrap();
            for moves in positions(size)
                .iter()
                .filter(|m| size.cells() <= 30 || m.len() >= 8)
            {
                let pos = Position::parse(size, moves).unwrap();
                let a = solver.analyze(&pos, Mode::Strong).unwrap();
                let pv = solver.principal_variation_of(&a).unwrap().to_string();
                let score = solver.solve(&pos, Mode::Strong).unwrap().score;
                let want = with_size!(size, generic(moves));
                assert_eq!((score, a.scores().to_vec(), pv), want, "{size} {moves}");
                let answer = solver.answer(moves, &pos, Mode::Strong, false).unwrap();
                assert_eq!(
                    (answer.score, answer.scores),
                    (want.0, want.1),
                    "{size} {moves}"
                );
                assert_eq!(a.scores().len(), size.width);
            }
        }
    }

    #[test]
    fn bad_input_gets_the_command_lines_errors() {
        let s = Size::STANDARD;
        assert_eq!(
            Position::parse(s, "8").unwrap_err().to_string(),
            "column 8 is out of range (1..=7) at move 1"
        );
        assert_eq!(
            Position::parse(s, "1111111").unwrap_err(),
            PositionError::Move(MoveError::ColumnFull {
                index: 7,
                column: 1
            })
        );
        let mut p = Position::parse(s, "444").unwrap();
        assert_eq!(
            p.play(7).unwrap_err().to_string(),
            "column 8 is out of range (1..=7) at move 4"
        );
        assert_eq!(p, Position::parse(s, "444").unwrap(), "left as it was");
        let wide = Size::new(10, 6).unwrap();
        if wide.built().is_err() {
            assert!(matches!(
                Position::parse(wide, ""),
                Err(PositionError::Size(SizeError::NotBuilt(_)))
            ));
            assert!(
                Solver::new(wide, Config::default())
                    .unwrap_err()
                    .to_string()
                    .contains("all-sizes")
            );
        }
        let mut solver = Solver::new(s, Config::default()).unwrap();
        if let Some(&other) = Size::BUILT.iter().find(|&&o| o != s) {
            let pos = Position::new(other).unwrap();
            assert_eq!(
                solver.solve(&pos, Mode::Strong),
                Err(SolveError::WrongSize {
                    solver: s,
                    position: other
                })
            );
        }
        let pos = Position::parse(s, "4455").unwrap();
        assert_eq!(
            solver.solve_window(&pos, 2, 2),
            Err(SolveError::EmptyWindow { alpha: 2, beta: 2 })
        );
        assert_eq!(
            solver.moves_within(&pos, Mode::Weak, -1),
            Err(SolveError::NegativeMargin(-1))
        );
        let mut won = Position::parse(s, "121212").unwrap();
        won.play(0).unwrap();
        assert!(won.has_four());
        assert_eq!(solver.solve(&won, Mode::Strong), Err(SolveError::GameOver));
        assert!(won.play(2).is_err(), "no move after a win");
    }

    #[test]
    fn books_answer_through_the_erased_solver() {
        let s = Size::STANDARD;
        let book = Book::builtin(s).unwrap();
        let mut solver = Solver::new(s, Config::default()).unwrap();
        solver.set_book(Some(&book));
        assert_eq!(solver.book_depth(), Some(book.depth()));
        let empty = Position::new(s).unwrap();
        let sol = solver.solve(&empty, Mode::Strong).unwrap();
        assert_eq!((sol.score, sol.nodes), (1, 0));
        assert_eq!(book.score(&empty), Some(1));
        assert!(Book::from_bytes(s, vec![1, 2, 3]).is_err());
    }
}
