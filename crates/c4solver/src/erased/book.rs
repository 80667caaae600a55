//! [`Book`]: an opening book of any board size.

use std::any::Any;
use std::path::Path;
use std::sync::Arc;

use crate::bits::Bits;
use crate::books::{Book as SizedBook, BookError};
use crate::erased::Position;
use crate::size::Size;
use crate::with_size;

/// An opening book of any board size this build holds: the size-erased face of
/// [`sized::Book`](crate::sized::Book). Cloning it shares its bytes.
///
/// ```
/// use c4solver::{Book, Position, Size};
///
/// let book = Book::builtin(Size::STANDARD).expect("7x6 has a built-in book");
/// assert_eq!(book.score(&Position::new(Size::STANDARD)?), Some(1));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Book {
    size: Size,
    inner: Arc<dyn Any + Send + Sync>,
}

impl Book {
    pub(crate) fn of<const W: usize, const H: usize, B: Bits>(book: SizedBook<W, H, B>) -> Book {
        Book {
            size: Size {
                width: W,
                height: H,
            },
            inner: Arc::new(book),
        }
    }

    /// The generic book, if it is of size `W`x`H` on word `B`.
    pub fn sized<const W: usize, const H: usize, B: Bits>(&self) -> Option<&SizedBook<W, H, B>> {
        self.inner.downcast_ref()
    }

    /// The book built into the library for `size`: the 7x6 board's, `None` for
    /// every other size.
    pub fn builtin(size: Size) -> Option<Book> {
        with_size!(size.built().ok()?, builtin_of())
    }

    /// Reads and checks a whole book file of the `size` board
    /// ([`sized::Book::read`](crate::sized::Book::read)).
    ///
    /// # Errors
    /// [`BookError::Size`] for a size not built; the book's own error for a
    /// file that cannot be read or is not a whole book of this size.
    pub fn read(size: Size, path: &Path) -> Result<Book, BookError> {
        Ok(with_size!(size.built()?, read_of(path))?)
    }

    /// Checks `bytes` (a whole book of the `size` board) and takes them over.
    ///
    /// # Errors
    /// As [`Book::read`].
    pub fn from_bytes(size: Size, bytes: Vec<u8>) -> Result<Book, BookError> {
        Ok(with_size!(size.built()?, bytes_of(bytes))?)
    }

    /// The board size.
    pub fn size(&self) -> Size {
        self.size
    }

    /// The most stones of the book's positions: every position of at most that
    /// many stones is in it.
    pub fn depth(&self) -> usize {
        with_size!(self.size, depth_of(self))
    }

    /// Number of positions stored.
    pub fn len(&self) -> usize {
        with_size!(self.size, len_of(self))
    }

    /// Whether the book stores no position.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The exact score of `pos`, if the book holds it (`None` also for a position
    /// of another size).
    pub fn score(&self, pos: &Position) -> Option<i32> {
        if pos.size() != self.size {
            return None;
        }
        with_size!(self.size, score_of(self, pos))
    }
}

fn builtin_of<const W: usize, const H: usize, B: Bits>() -> Option<Book> {
    SizedBook::<W, H, B>::builtin().map(Book::of)
}

fn read_of<const W: usize, const H: usize, B: Bits>(path: &Path) -> Result<Book, BookError> {
    SizedBook::<W, H, B>::read(path).map(Book::of)
}

fn bytes_of<const W: usize, const H: usize, B: Bits>(bytes: Vec<u8>) -> Result<Book, BookError> {
    let book = SizedBook::<W, H, B>::from_bytes(bytes)?;
    book.require_whole()?;
    Ok(Book::of(book))
}

fn sized_of<const W: usize, const H: usize, B: Bits>(book: &Book) -> &SizedBook<W, H, B> {
    book.sized().expect("dispatched on the book's own size")
}

fn depth_of<const W: usize, const H: usize, B: Bits>(book: &Book) -> usize {
    sized_of::<W, H, B>(book).depth()
}

fn len_of<const W: usize, const H: usize, B: Bits>(book: &Book) -> usize {
    sized_of::<W, H, B>(book).len()
}

fn score_of<const W: usize, const H: usize, B: Bits>(book: &Book, pos: &Position) -> Option<i32> {
    sized_of::<W, H, B>(book).score(&pos.board())
}
