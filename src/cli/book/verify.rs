//! `c4solver book verify`: a version-2 book's hashes against the enumerated
//! layers, the book's layers against each other, then a random sample of its
//! deepest layer against a book-free solve, one `moves score` line per
//! entry as soon as it is checked and next in order.

use super::super::Exit;
use super::super::args::{BookVerifyArgs, EngineArgs};
use super::super::engine;
use super::super::output::{self, Item};
use super::super::progress;
use super::super::signals::Signals;

/// Verifies the book.
///
/// # Errors
/// A file that is not a book or shard of the board's size, a table that cannot be built, or
/// stdout failing.
pub fn run(
    args: &BookVerifyArgs,
    engine_args: &EngineArgs,
    signals: &Signals,
) -> anyhow::Result<Exit> {
    let book = super::read_any(engine_args.size, &args.file)?;
    book.check_positions()
        .map_err(|e| anyhow::anyhow!("{}: {e}", args.file.display()))?;
    let mut outcome = Exit::Ok;
    if book.require_whole().is_ok() {
        let bad = book.consistency()?;
        for d in &bad {
            eprintln!(
                "c4solver: {:?}: the book says {}, its moves' entries give {}",
                d.moves, d.book, d.other
            );
        }
        eprintln!(
            "c4solver: book verify: {} entries above the deepest layer checked against their \
             moves' entries: {}",
            book.above_deepest(),
            if bad.is_empty() {
                "all agree".to_string()
            } else {
                format!("{} disagree", bad.len())
            }
        );
        if !bad.is_empty() {
            outcome = Exit::BadInput;
        }
    }
    let count = args.sample.map_or(usize::MAX, |k| k as usize);
    let sample = book.sample_deepest(count, args.seed);
    let config = engine::single_config(engine_args, "book verify", false)?;
    let bar = progress::bar(
        sample.len() as u64,
        "{bar:40} {pos}/{len} entries re-solved, {per_sec} [{elapsed_precise}, eta {eta}]",
    );
    let (tx, writer) = output::stdout()?;
    let wrong = std::sync::atomic::AtomicUsize::new(0);
    let checked = std::sync::atomic::AtomicUsize::new(0);
    let stop = signals.stop_flag().clone();
    let result = book.resolve(
        &sample,
        config,
        engine::threads(engine_args),
        signals.stop_flag(),
        &|c| {
            let err = (c.book != c.solved).then(|| {
                wrong.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                format!(
                    "c4solver: {:?}: the book says {}, a book-free solve {}\n",
                    c.moves, c.book, c.solved
                )
            });
            checked.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            if !tx.send(Item {
                seq: c.index as u64,
                out: Some(format!("{} {}\n", c.moves, c.solved)),
                err,
            }) {
                stop.stop();
            }
            bar.inc(1);
        },
    );
    bar.finish_and_clear();
    drop(tx);
    writer.finish()?;
    result?;
    let (wrong, checked) = (wrong.into_inner(), checked.into_inner());
    eprintln!(
        "c4solver: book verify: {checked} of {} entries re-solved without the book: {}",
        sample.len(),
        if wrong == 0 {
            "all agree".to_string()
        } else {
            format!("{wrong} disagree")
        }
    );
    if wrong > 0 {
        outcome = Exit::BadInput;
    }
    Ok(outcome)
}
