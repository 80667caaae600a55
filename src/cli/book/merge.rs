//! `c4solver book merge`: the K shards of one generation into a book.

use c4solver::Bits;
use c4solver::book::{merge, write_atomically};
use c4solver::sized::Book;

use super::super::Outcome;
use super::super::args::BookMergeArgs;

/// Merges the shards.
///
/// # Errors
/// A shard that cannot be read, a missing, repeated or foreign shard, or an
/// I/O error writing the book.
pub fn run<const W: usize, const H: usize, B: Bits>(
    args: &BookMergeArgs,
) -> anyhow::Result<Outcome> {
    let mut shards = Vec::with_capacity(args.shards.len());
    for path in &args.shards {
        shards.push(Book::<W, H, B>::read_any(path).map_err(|e| match e {
            c4solver::BookError::Io { .. } => anyhow::Error::new(e),
            e => anyhow::anyhow!("{}: {e}", path.display()),
        })?);
    }
    let bytes = merge(&shards)?;
    write_atomically(&args.out, &bytes)?;
    let book = Book::<W, H, B>::from_bytes(bytes)?;
    eprintln!(
        "c4solver: wrote {}: depth {}, {} entries, {} bytes",
        args.out.display(),
        book.depth(),
        book.len(),
        book.bytes().len()
    );
    Ok(Outcome::Ok)
}
