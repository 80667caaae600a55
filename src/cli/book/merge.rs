//! `c4solver book merge`: the K shards of one generation into a book.

use c4solver::{Book, Size};

use super::super::Exit;
use super::super::args::BookMergeArgs;

/// Merges the shards.
///
/// # Errors
/// A shard that cannot be read, a missing, repeated or foreign shard, or an
/// I/O error writing the book.
pub fn run(args: &BookMergeArgs, size: Size) -> anyhow::Result<Exit> {
    let mut shards = Vec::with_capacity(args.shards.len());
    for path in &args.shards {
        shards.push(super::read_any(size, path)?);
    }
    let book = Book::from_bytes(size, Book::merge(&shards)?)?;
    book.write(&args.out)?;
    eprintln!(
        "c4solver: wrote {}: depth {}, {} entries, {} bytes",
        args.out.display(),
        book.depth(),
        book.len(),
        book.bytes().len()
    );
    Ok(Exit::Ok)
}
