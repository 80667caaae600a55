//! `c4solver book info`: what a book holds.

use c4solver::Size;
use std::io::Write;

use super::super::Exit;
use super::super::args::BookInfoArgs;
use super::super::output;

/// Describes the book.
///
/// # Errors
/// A file that is not a book or shard of the board's size (`--size`), or stdout
/// failing.
pub fn run(args: &BookInfoArgs, size: Size) -> anyhow::Result<Exit> {
    let (name, book) = super::open(size, args.file.as_deref())?;
    let h = book.header();
    let counts = book.by_stones();
    let text = if args.json {
        let mut v = serde_json::json!({
            "book": name,
            "board": format!("{}x{}", h.width, h.height),
            "depth": h.depth,
            "entries": h.entries,
            "bytes": book.file_len(),
            "format_version": book.format().version(),
            "checksum": format!("{:08x}", h.checksum),
            "by_stones": counts,
        });
        if let Some((hash, scores)) = book.bits_per_entry() {
            v["bits_per_entry"] = serde_json::json!({"hash": hash, "scores": scores});
        }
        if book.format() == c4solver::book::Format::CompactShard {
            v["compact_shard"] = true.into();
        }
        if h.shard_count > 1 {
            v["shard"] = format!("{}/{}", h.shard_index, h.shard_count).into();
        }
        format!("{v}\n")
    } else {
        let mut t = format!("book: {name}\nboard: {}x{}\n", h.width, h.height);
        t.push_str(&format!("depth: {}\n", h.depth));
        if h.shard_count > 1 {
            t.push_str(&format!(
                "shard: {} of {} (positions of {} stones only)\n",
                h.shard_index, h.shard_count, h.depth
            ));
        }
        t.push_str(&format!("entries: {} (one per mirror pair)\n", h.entries));
        let layout = match (book.format(), book.bits_per_entry()) {
            (_, Some((hash, scores))) => format!(
                "format 2: {:.2} bits per entry, {hash:.2} of hash and {scores:.2} of score",
                8.0 * book.file_len() as f64 / h.entries.max(1) as f64
            ),
            (c4solver::book::Format::CompactShard, _) => {
                "compact shard: 40-byte header, 1 byte per entry".to_string()
            }
            _ => format!(
                "format 1: 32-byte header, {} bytes per entry",
                book.entry_bytes().unwrap_or_default()
            ),
        };
        t.push_str(&format!("bytes: {} ({layout})\n", book.file_len()));
        t.push_str(&format!("checksum: {:08x} (CRC-32)\n", h.checksum));
        t.push_str(
            "\npositions for the first player (a position and its mirror image count as two):\n\n",
        );
        t.push_str("| stones | won | drawn | lost | total |\n|---:|---:|---:|---:|---:|\n");
        for c in &counts {
            t.push_str(&format!(
                "| {} | {} | {} | {} | {} |\n",
                c.stones,
                c.won,
                c.drawn,
                c.lost,
                c.total()
            ));
        }
        t
    };
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(output::write_error(e)),
        _ => Ok(Exit::Ok),
    }
}
