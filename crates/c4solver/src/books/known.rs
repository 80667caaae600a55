//! The book beside the search: [`Book`] answers the solver's
//! [`KnownScores`] questions, and a solver with a book is built here, so that the
//! search never imports the book.

use std::sync::Arc;

use super::Book;
use crate::bits::Bits;
use crate::position::Board;
use crate::solver::{Config, KnownScores, Solver};
use crate::table::TableError;

impl<const W: usize, const H: usize, B: Bits> KnownScores<W, H, B> for Book<W, H, B> {
    fn known_score(&self, pos: &Board<W, H, B>) -> Option<i32> {
        self.score(pos)
    }

    fn depth(&self) -> Option<usize> {
        Some(Book::depth(self))
    }
}

impl<const W: usize, const H: usize, B: Bits> Solver<W, H, B> {
    /// A solver of `config` that answers from the board's built-in opening book
    /// ([`Book::builtin`]; 7x6 only, none on the other sizes) before it searches:
    /// what the command line, the Python package and the server use by default.
    /// [`Solver::new`] is the search alone.
    ///
    /// # Errors
    /// As [`Solver::new`].
    pub fn with_builtin_book(config: Config) -> Result<Self, TableError> {
        let mut solver = Self::new(config)?;
        solver.set_book(Book::builtin());
        Ok(solver)
    }

    /// Answers from `book` (a whole book: see [`Book::read`]) before searching, or
    /// from no book at all with `None`.
    pub fn set_book(&mut self, book: Option<Book<W, H, B>>) {
        self.set_known_scores(book.map(|b| Arc::new(b) as Arc<dyn KnownScores<W, H, B>>));
    }

    /// The depth of the opening book the solver answers from
    /// ([`KnownScores::depth`]): every position of at most that many stones is
    /// answered with no search. `None` without a book.
    pub fn book_depth(&self) -> Option<usize> {
        self.known_scores()?.depth()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;
    use crate::solver::Mode;

    #[test]
    fn the_book_answers_beside_the_search() {
        let empty = Position::new();
        let mut pure = Solver::<7, 6>::new(Config::default()).unwrap();
        assert!(pure.book_depth().is_none());
        let mut booked = Solver::<7, 6>::with_builtin_book(Config::default()).unwrap();
        assert_eq!(
            booked.book_depth(),
            Book::<7, 6>::builtin().map(|b| b.depth())
        );
        let known = booked.known_scores().expect("7x6 has a built-in book");
        assert_eq!(known.known_score(&empty), Some(1));
        // The book answers the empty board and a 12-stone position at once; a
        // 13-stone position, deeper than the book, is searched by both, with the
        // same nodes.
        assert_eq!(booked.solve(&empty, Mode::Weak).unwrap().nodes, 0);
        let twelve = Position::parse("371253262754").unwrap();
        assert_eq!(booked.solve(&twelve, Mode::Strong).unwrap().nodes, 0);
        let p = Position::parse("1616621455211").unwrap();
        let (a, b) = (
            pure.solve(&p, Mode::Weak).unwrap(),
            booked.solve(&p, Mode::Weak).unwrap(),
        );
        assert_eq!((a.score, a.nodes), (b.score, b.nodes));
        assert!(a.nodes > 0);
        booked.set_book(None);
        assert!(booked.book_depth().is_none());
        // Other sizes have no built-in book: the solver is the search alone.
        let small = Solver::<5, 4>::with_builtin_book(Config::default()).unwrap();
        assert!(small.book_depth().is_none());
    }
}
