//! `c4solver book export`: a book's positions with their exact scores, one
//! `MOVES SCORE` line each (a data set for training, which `c4solver` reads back
//! and checks).

use c4solver::Size;
use std::io::{BufWriter, ErrorKind, Write};

use super::super::Exit;
use super::super::args::BookExportArgs;
use super::super::output;

/// Prints the book's positions (of `--stones` only, mirrors too with
/// `--mirrors`), layer by layer, each in ascending key order; never the empty
/// board, whose line would have no moves to read back.
///
/// # Errors
/// A book that cannot be opened ([`super::open`]), `--stones` outside the
/// book's layers or 0, an entry that no game reaches, or stdout failing (but a
/// closed pipe, which ends the output).
pub fn run(args: &BookExportArgs, size: Size) -> anyhow::Result<Exit> {
    let (name, book) = super::open(size, args.file.as_deref())?;
    let (lowest, depth) = (book.header().lowest as usize, book.depth());
    let layers = match args.stones {
        Some(k) if k < lowest || k > depth => {
            anyhow::bail!(
                "book export: {name} holds positions of {lowest} to {depth} stones, not {k}"
            )
        }
        Some(0) => anyhow::bail!(
            "book export: the empty board (0 stones) has no moves to write on a \
             `MOVES SCORE` line (an empty line reads as the empty board, with no \
             score); its score in {name}: {}",
            book.layer(0)
                .first()
                .map_or("none".to_string(), |e| e.1.to_string())
        ),
        Some(k) => k..=k,
        None => lowest.max(1)..=depth,
    };
    let mut out = BufWriter::new(std::io::stdout().lock());
    let written = (|| -> std::io::Result<anyhow::Result<()>> {
        for stones in layers {
            for row in book.rows(stones, args.mirrors) {
                match row {
                    Ok((moves, score)) => writeln!(out, "{moves} {score}")?,
                    Err(e) => return Ok(Err(anyhow::anyhow!("{name}: {e}"))),
                }
            }
        }
        out.flush()?;
        Ok(Ok(()))
    })();
    match written {
        Ok(result) => result.map(|()| Exit::Ok),
        Err(e) if e.kind() == ErrorKind::BrokenPipe => Ok(Exit::Ok),
        Err(e) => Err(output::write_error(e)),
    }
}
