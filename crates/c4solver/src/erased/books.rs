//! The book tools on a board size chosen at run time: reading shards, what a
//! book holds ([`Book::header`], [`Book::by_stones`], [`Book::rows`]), its
//! checks ([`Book::consistency`], [`Book::resolve`]), [`Book::merge`] and
//! [`BookGeneration`]. Each dispatches once on the size to the generic tools
//! of [`book`](crate::books).

use std::path::Path;

use crate::bits::Bits;
use crate::books::verify::{self, Checked, Disagreement};
use crate::books::{
    Book as SizedBook, BookError, Format, GenerateError, Generation, Header, Options, Outcome,
    StoneCounts, Unreachable, entry_bytes, merge, write_atomically,
};
use crate::erased::Book;
use crate::size::Size;
use crate::solver::{Config, StopFlag};
use crate::with_size;

/// The rows of [`Book::rows`]: each position's moves and exact score.
type Rows = Box<dyn Iterator<Item = Result<(String, i32), Unreachable>> + Send>;

fn sized<const W: usize, const H: usize, B: Bits>(book: &Book) -> &SizedBook<W, H, B> {
    book.sized().expect("dispatched on the book's own size")
}

impl Book {
    /// Reads and checks a book or a shard file of the `size` board
    /// ([`sized::Book::read_any`](crate::sized::Book::read_any)).
    ///
    /// # Errors
    /// As [`Book::read`], but a shard is accepted.
    pub fn read_any(size: Size, path: &Path) -> Result<Book, BookError> {
        Ok(with_size!(size.built()?, read_any_of(path))?)
    }

    /// The header's fields.
    pub fn header(&self) -> Header {
        with_size!(self.size(), header_of(self))
    }

    /// Won, drawn and lost positions of each layer, for the first player.
    pub fn by_stones(&self) -> Vec<StoneCounts> {
        with_size!(self.size(), by_stones_of(self))
    }

    /// The file's format.
    pub fn format(&self) -> Format {
        with_size!(self.size(), format_of(self))
    }

    /// The file's length in bytes.
    pub fn file_len(&self) -> usize {
        with_size!(self.size(), file_len_of(self))
    }

    /// A version-2 book's bits per entry of hash and of score; `None` for the
    /// other formats.
    pub fn bits_per_entry(&self) -> Option<(f64, f64)> {
        with_size!(self.size(), bits_of(self))
    }

    /// A version-1 book's bytes per entry (its key's `W * (H + 1)` bits and its
    /// score's, rounded up to bytes); `None` for the other formats.
    pub fn entry_bytes(&self) -> Option<usize> {
        let size = self.size();
        (self.format() == Format::V1).then(|| entry_bytes(size.width, size.height))
    }

    /// Writes the file's bytes to `out` through a temporary file beside it, synced
    /// and then renamed: a reader never sees half a book, and a failed write
    /// leaves nothing.
    ///
    /// # Errors
    /// [`GenerateError::Io`], naming the file that could not be written or renamed.
    pub fn write(&self, out: &Path) -> Result<(), GenerateError> {
        write_atomically(out, self.bytes())
    }

    /// The file's bytes.
    pub fn bytes(&self) -> &[u8] {
        with_size!(self.size(), bytes_of(self))
    }

    /// Refuses a shard: only a whole book answers every position of its layers.
    ///
    /// # Errors
    /// [`BookError::Shard`] for a shard.
    pub fn require_whole(&self) -> Result<(), BookError> {
        with_size!(self.size(), whole_of(self))
    }

    /// Checks that every stored entry is a position a game reaches
    /// ([`sized::Book::check_positions`](crate::sized::Book::check_positions)).
    ///
    /// # Errors
    /// The first entry that is not.
    pub fn check_positions(&self) -> Result<(), BookError> {
        with_size!(self.size(), positions_of(self))
    }

    /// The entries of `stones` stones (canonical key and score) in ascending
    /// key order ([`sized::Book::layer`](crate::sized::Book::layer)).
    pub fn layer(&self, stones: usize) -> Vec<(u128, i32)> {
        with_size!(self.size(), layer_of(self, stones))
    }

    /// The positions of `stones` stones as a data set's rows, mirrors too with
    /// `mirrors` ([`sized::Book::rows`](crate::sized::Book::rows)).
    pub fn rows(
        &self,
        stones: usize,
        mirrors: bool,
    ) -> Box<dyn Iterator<Item = Result<(String, i32), Unreachable>> + Send> {
        with_size!(self.size(), rows_of(self, stones, mirrors))
    }

    /// The entries above the deepest layer whose score disagrees with their
    /// moves' entries (the best of the children's scores), keys widened to
    /// `u128`.
    ///
    /// # Errors
    /// [`BookError::Shard`] for a shard.
    pub fn consistency(&self) -> Result<Vec<Disagreement<u128>>, BookError> {
        with_size!(self.size(), consistency_of(self))
    }

    /// Entries above the deepest layer: those [`Book::consistency`] checks.
    pub fn above_deepest(&self) -> usize {
        with_size!(self.size(), above_of(self))
    }

    /// `count` distinct entries of the deepest layer drawn at random (all of
    /// them if `count` is larger), the same for the same `seed`, keys widened to
    /// `u128`.
    pub fn sample_deepest(&self, count: usize, seed: u64) -> Vec<(u128, i32)> {
        with_size!(self.size(), sample_of(self, count, seed))
    }

    /// Solves `entries` (of this book's board) again without a book on
    /// `threads` workers with a solver of `config` each, and reports each answer
    /// to `each` as soon as it is known (in any order); stops early when `stop`
    /// is set.
    ///
    /// # Errors
    /// A key that is no position of this board, a table that cannot be built,
    /// or threads that cannot start.
    pub fn resolve(
        &self,
        entries: &[(u128, i32)],
        config: Config,
        threads: usize,
        stop: &StopFlag,
        each: &(dyn Fn(Checked) + Sync),
    ) -> Result<(), GenerateError> {
        let job = Resolve {
            config,
            threads,
            stop,
            each,
        };
        with_size!(self.size(), resolve_of(entries, &job))
    }

    /// Merges the `K` shards of one generation into a book's bytes: every shard
    /// of `1..=K` once, each holding exactly its share of the deepest layer;
    /// then fills the shallower layers. The result is byte for byte the book a
    /// single run writes (version 2); a single whole book (of either version) is
    /// written again as version 2.
    ///
    /// # Errors
    /// [`GenerateError::Merge`] for no shard, shards of several sizes, or a
    /// shard missing, repeated or foreign.
    pub fn merge(shards: &[Book]) -> Result<Vec<u8>, GenerateError> {
        let Some(first) = shards.first() else {
            return Err(GenerateError::Merge("no shard to merge".to_string()));
        };
        let size = first.size();
        if let Some(other) = shards.iter().find(|b| b.size() != size) {
            return Err(GenerateError::Merge(format!(
                "a {} shard and a {} one cannot be merged",
                size,
                other.size()
            )));
        }
        with_size!(size, merge_of(shards))
    }
}

fn read_any_of<const W: usize, const H: usize, B: Bits>(path: &Path) -> Result<Book, BookError> {
    SizedBook::<W, H, B>::read_any(path).map(Book::of)
}

fn header_of<const W: usize, const H: usize, B: Bits>(book: &Book) -> Header {
    *sized::<W, H, B>(book).header()
}

fn by_stones_of<const W: usize, const H: usize, B: Bits>(book: &Book) -> Vec<StoneCounts> {
    sized::<W, H, B>(book).by_stones()
}

fn format_of<const W: usize, const H: usize, B: Bits>(book: &Book) -> Format {
    sized::<W, H, B>(book).format()
}

fn file_len_of<const W: usize, const H: usize, B: Bits>(book: &Book) -> usize {
    sized::<W, H, B>(book).file_len()
}

fn bits_of<const W: usize, const H: usize, B: Bits>(book: &Book) -> Option<(f64, f64)> {
    sized::<W, H, B>(book).bits_per_entry()
}

fn bytes_of<const W: usize, const H: usize, B: Bits>(book: &Book) -> &[u8] {
    sized::<W, H, B>(book).bytes()
}

fn whole_of<const W: usize, const H: usize, B: Bits>(book: &Book) -> Result<(), BookError> {
    sized::<W, H, B>(book).require_whole()
}

fn positions_of<const W: usize, const H: usize, B: Bits>(book: &Book) -> Result<(), BookError> {
    sized::<W, H, B>(book).check_positions()
}

fn layer_of<const W: usize, const H: usize, B: Bits>(
    book: &Book,
    stones: usize,
) -> Vec<(u128, i32)> {
    let layer = sized::<W, H, B>(book).layer(stones);
    layer.into_iter().map(|(k, s)| (k.to_u128(), s)).collect()
}

fn rows_of<const W: usize, const H: usize, B: Bits>(
    book: &Book,
    stones: usize,
    mirrors: bool,
) -> Rows {
    Box::new(sized::<W, H, B>(book).rows(stones, mirrors))
}

fn consistency_of<const W: usize, const H: usize, B: Bits>(
    book: &Book,
) -> Result<Vec<Disagreement<u128>>, BookError> {
    let bad = verify::consistency(sized::<W, H, B>(book))?;
    Ok(bad
        .into_iter()
        .map(|d| Disagreement {
            key: d.key.to_u128(),
            moves: d.moves,
            book: d.book,
            other: d.other,
        })
        .collect())
}

fn above_of<const W: usize, const H: usize, B: Bits>(book: &Book) -> usize {
    verify::above_deepest(sized::<W, H, B>(book))
}

fn sample_of<const W: usize, const H: usize, B: Bits>(
    book: &Book,
    count: usize,
    seed: u64,
) -> Vec<(u128, i32)> {
    let sample = verify::sample_deepest(sized::<W, H, B>(book), count, seed);
    sample.into_iter().map(|(k, s)| (k.to_u128(), s)).collect()
}

/// The arguments of [`Book::resolve`] but the entries.
struct Resolve<'a> {
    config: Config,
    threads: usize,
    stop: &'a StopFlag,
    each: &'a (dyn Fn(Checked) + Sync),
}

fn resolve_of<const W: usize, const H: usize, B: Bits>(
    entries: &[(u128, i32)],
    job: &Resolve<'_>,
) -> Result<(), GenerateError> {
    let bits = W * (H + 1);
    if let Some(&(key, _)) = entries.iter().find(|(k, _)| bits < 128 && k >> bits != 0) {
        return Err(GenerateError::Merge(format!(
            "{key:#x} is not the key of a position on the {W}x{H} board"
        )));
    }
    let entries: Vec<(B, i32)> = entries.iter().map(|&(k, s)| (B::from_u128(k), s)).collect();
    verify::resolve::<W, H, B>(&entries, job.config, job.threads, job.stop, job.each)
}

fn merge_of<const W: usize, const H: usize, B: Bits>(
    shards: &[Book],
) -> Result<Vec<u8>, GenerateError> {
    let shards: Vec<SizedBook<W, H, B>> =
        shards.iter().map(|b| sized::<W, H, B>(b).clone()).collect();
    merge(&shards)
}

/// A book generation of any built board size, ready to run: it solves the
/// deepest layer (or a shard's share of it) resumably, keeping what it has
/// solved in a checkpoint beside the output, then writes the book.
pub struct BookGeneration {
    size: Size,
    core: Box<dyn GenerationCore>,
}

impl std::fmt::Debug for BookGeneration {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BookGeneration")
            .field("size", &self.size)
            .field("done", &self.done())
            .field("total", &self.total())
            .finish()
    }
}

/// The generic generation's methods, object-safe.
trait GenerationCore {
    fn is_written(&self) -> bool;
    fn total(&self) -> usize;
    fn done(&self) -> usize;
    fn dropped(&self) -> usize;
    fn checkpoint(&self) -> &Path;
    fn run(
        &mut self,
        stop: &StopFlag,
        progress: &(dyn Fn(usize, usize) + Sync),
    ) -> Result<Outcome, GenerateError>;
}

impl<const W: usize, const H: usize, B: Bits> GenerationCore for Generation<W, H, B> {
    fn is_written(&self) -> bool {
        Generation::is_written(self)
    }
    fn total(&self) -> usize {
        Generation::total(self)
    }
    fn done(&self) -> usize {
        Generation::done(self)
    }
    fn dropped(&self) -> usize {
        Generation::dropped(self)
    }
    fn checkpoint(&self) -> &Path {
        Generation::checkpoint(self)
    }
    fn run(
        &mut self,
        stop: &StopFlag,
        progress: &(dyn Fn(usize, usize) + Sync),
    ) -> Result<Outcome, GenerateError> {
        Generation::run(self, stop, progress)
    }
}

fn open_of<const W: usize, const H: usize, B: Bits>(
    options: Options,
    out: &Path,
) -> Result<Box<dyn GenerationCore>, GenerateError> {
    Ok(Box::new(Generation::<W, H, B>::open(options, out)?))
}

impl BookGeneration {
    /// Enumerates the layers of the `size` board and opens (or creates) the
    /// checkpoint of `out`.
    ///
    /// # Errors
    /// [`GenerateError::Size`] for a size this build does not hold, a depth the
    /// board cannot hold, an `out` that exists with no checkpoint and is not the
    /// book these options make ([`GenerateError::Exists`]; the same book is no
    /// error: [`BookGeneration::is_written`]), a checkpoint made with other
    /// arguments or damaged beyond its last record, or an I/O error.
    pub fn open(size: Size, options: Options, out: &Path) -> Result<BookGeneration, GenerateError> {
        let core = with_size!(size.built()?, open_of(options, out))?;
        Ok(BookGeneration { size, core })
    }

    /// The board size.
    pub fn size(&self) -> Size {
        self.size
    }

    /// Whether the output already holds this book: nothing to solve.
    pub fn is_written(&self) -> bool {
        self.core.is_written()
    }

    /// Positions of the deepest layer to solve (this shard's share).
    pub fn total(&self) -> usize {
        self.core.total()
    }

    /// Of them, those the checkpoint already holds.
    pub fn done(&self) -> usize {
        self.core.done()
    }

    /// Torn records dropped from the checkpoint's end.
    pub fn dropped(&self) -> usize {
        self.core.dropped()
    }

    /// The checkpoint file.
    pub fn checkpoint(&self) -> &Path {
        self.core.checkpoint()
    }

    /// Solves every position of the shard that the checkpoint does not hold
    /// yet, on `options.threads` workers, calling `progress(done, total)` after
    /// each; then writes the book (or shard), and removes the checkpoint of a
    /// whole book.
    ///
    /// # Errors
    /// A table that cannot be built, threads that cannot start, or an I/O error.
    pub fn run(
        &mut self,
        stop: &StopFlag,
        progress: &(dyn Fn(usize, usize) + Sync),
    ) -> Result<Outcome, GenerateError> {
        self.core.run(stop, progress)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::books::Shard;
    use crate::erased::Position;

    #[test]
    fn the_builtin_book_through_the_erased_tools() {
        let s = Size::STANDARD;
        let book = Book::builtin(s).unwrap();
        let generic = SizedBook::<7, 6>::builtin().unwrap();
        assert_eq!(book.header(), *generic.header());
        assert_eq!(book.file_len(), generic.file_len());
        assert_eq!(book.format(), generic.format());
        assert_eq!(book.bytes(), generic.bytes());
        assert!(book.require_whole().is_ok());
        let rows: Vec<_> = book.rows(2, true).map(Result::unwrap).collect();
        let want: Vec<_> = generic.rows(2, true).map(Result::unwrap).collect();
        assert_eq!(rows, want);
        assert_eq!(rows.len(), 49, "every two-stone position, mirrors too");
        for (moves, score) in &rows {
            assert_eq!(
                book.score(&Position::parse(s, moves).unwrap()),
                Some(*score)
            );
        }
        assert_eq!(
            book.layer(1).len(),
            4,
            "columns 1 to 4, mirrors counted once"
        );
        let bad = book.resolve(
            &[(1 << 60, 0)],
            Config::default(),
            1,
            &StopFlag::new(),
            &|_| {},
        );
        assert!(
            bad.unwrap_err()
                .to_string()
                .contains("is not the key of a position on the 7x6 board")
        );
        assert!(Book::merge(&[]).is_err());
    }

    fn options(depth: usize, shard: Shard) -> Options {
        Options {
            depth,
            shard,
            threads: 1,
            config: Config {
                table_mb: 1,
                ..Config::default()
            },
        }
    }

    /// The whole path on 5x4 (built with `all-sizes`): two shards generated,
    /// merged and checked; without it, a stopped 7x6 generation.
    #[test]
    fn a_small_book_generated_merged_and_checked() {
        let dir = std::env::temp_dir().join(format!("c4-erased-books-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let Ok(s) = Size::new(5, 4).unwrap().built() else {
            let stop = StopFlag::new();
            stop.stop();
            let out = dir.join("7x6");
            let mut g =
                BookGeneration::open(Size::STANDARD, options(3, Shard::WHOLE), &out).unwrap();
            let total = Generation::<7, 6>::open(options(3, Shard::WHOLE), &out)
                .unwrap()
                .total();
            assert_eq!((g.size(), g.total(), g.done()), (Size::STANDARD, total, 0));
            assert!(matches!(
                g.run(&stop, &|_, _| {}),
                Ok(Outcome::Stopped { done: 0, .. })
            ));
            std::fs::remove_dir_all(&dir).unwrap();
            return;
        };
        let mut shards = Vec::new();
        for index in [1, 2] {
            let shard = Shard { index, count: 2 };
            let out = dir.join(format!("{index}of2"));
            let mut g = BookGeneration::open(s, options(6, shard), &out).unwrap();
            assert!(!g.is_written());
            assert!(matches!(
                g.run(&StopFlag::new(), &|_, _| {}),
                Ok(Outcome::Finished(_))
            ));
            shards.push(Book::read_any(s, &out).unwrap());
        }
        assert!(shards[0].require_whole().is_err());
        let book = Book::from_bytes(s, Book::merge(&shards).unwrap()).unwrap();
        let generic = SizedBook::<5, 4>::from_bytes(book.bytes().to_vec()).unwrap();
        assert_eq!(book.depth(), 6);
        assert_eq!(book.by_stones(), generic.by_stones());
        assert!(book.consistency().unwrap().is_empty());
        assert_eq!(book.above_deepest(), book.len() - book.layer(6).len());
        let sample = book.sample_deepest(5, 1);
        assert_eq!(sample.len(), 5);
        let checked = std::sync::Mutex::new(Vec::new());
        book.resolve(
            &sample,
            options(6, Shard::WHOLE).config,
            1,
            &StopFlag::new(),
            &|c| {
                checked.lock().unwrap().push((c.book, c.solved));
            },
        )
        .unwrap();
        let checked = checked.into_inner().unwrap();
        assert_eq!(checked.len(), 5);
        assert!(checked.iter().all(|(b, s)| b == s), "{checked:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
