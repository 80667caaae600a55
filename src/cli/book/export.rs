//! `c4solver book export`: a book's positions with their exact scores, one
//! `MOVES SCORE` line each (a data set for training, which `c4solver` reads back
//! and checks).

use std::io::{BufWriter, ErrorKind, Write};

use anyhow::Context;

use c4solver::Board;

use super::super::Outcome;
use super::super::args::BookExportArgs;
use super::super::output;

/// Prints the book's positions (of `--stones` only, mirrors too with `--mirrors`).
///
/// # Errors
/// A book that cannot be opened ([`super::open`]), an entry that is no position
/// of the board, or stdout failing (but a closed pipe, which ends the output).
pub fn run<const W: usize, const H: usize>(args: &BookExportArgs) -> anyhow::Result<Outcome> {
    let (name, book) = super::open::<W, H>(args.file.as_deref())?;
    let mut out = BufWriter::new(std::io::stdout().lock());
    let written = (|| -> std::io::Result<anyhow::Result<()>> {
        for (key, score) in book.entries() {
            let Some(pos) = Board::<W, H>::from_key(key) else {
                return Ok(Err(anyhow::anyhow!(
                    "{name}: entry {key:#x} is no {W}x{H} position"
                )));
            };
            if args
                .stones
                .is_some_and(|k| k != pos.moves_played() as usize)
            {
                continue;
            }
            let moves = c4solver::book::moves_to::<W, H>(key)
                .with_context(|| format!("{name}: no move order reaches entry {key:#x}"));
            let moves = match moves {
                Ok(m) => m,
                Err(e) => return Ok(Err(e)),
            };
            writeln!(out, "{moves} {score}")?;
            if args.mirrors && pos.mirror() != pos {
                writeln!(out, "{} {score}", mirrored::<W>(&moves))?;
            }
        }
        out.flush()?;
        Ok(Ok(()))
    })();
    match written {
        Ok(result) => result.map(|()| Outcome::Ok),
        Err(e) if e.kind() == ErrorKind::BrokenPipe => Ok(Outcome::Ok),
        Err(e) => Err(output::write_error(e)),
    }
}

/// The moves of the mirror image: column `c` played as column `W + 1 - c`.
fn mirrored<const W: usize>(moves: &str) -> String {
    moves
        .chars()
        .map(|ch| {
            let col = (0..W).position(|c| c4solver::column_symbol(c) == ch);
            col.map_or(ch, |c| c4solver::column_symbol(W - 1 - c))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirrored_moves_play_the_mirror_image() {
        assert_eq!(mirrored::<7>("4453"), "4435");
        assert_eq!(mirrored::<12>("5abc1"), "8321c");
        let pos = c4solver::Position::parse("44531").unwrap();
        assert_eq!(
            c4solver::Position::parse(&mirrored::<7>("44531")).unwrap(),
            pos.mirror()
        );
    }
}
