//! `c4solver book generate`: solve the deepest layer (or a shard of it) on every
//! core, resumably, then write the book.

use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use c4solver::BookGeneration;
use c4solver::book::{Options, Outcome as Ended, Shard};

use super::super::Exit;
use super::super::args::{BookGenerateArgs, EngineArgs};
use super::super::engine;
use super::super::progress;
use super::super::signals::Signals;

/// Generates the book or shard.
///
/// # Errors
/// A checkpoint made with other arguments, a table that cannot be built, or an
/// I/O error.
pub fn run(
    args: &BookGenerateArgs,
    engine_args: &EngineArgs,
    signals: &Signals,
) -> anyhow::Result<Exit> {
    let config = engine::single_config(engine_args, "book generate", false)?;
    let options = Options {
        depth: args.depth as usize,
        shard: args.shard.unwrap_or(Shard::WHOLE),
        threads: engine::threads(engine_args),
        config,
    };
    let mut generation = BookGeneration::open(engine_args.size, options, &args.out)?;
    if generation.is_written() {
        // Nothing to solve: no plan to announce, no bar.
        let ended = generation.run(signals.stop_flag(), &|_, _| {})?;
        report(&ended, args, &options, &generation, 0);
        return Ok(Exit::Ok);
    }
    let (done, total) = (generation.done(), generation.total());
    eprintln!(
        "c4solver: book generate: depth {}, shard {}: {total} positions of {} stones to solve \
         on {} thread(s); {done} already in {}{}",
        options.depth,
        options.shard,
        options.depth,
        options.threads,
        generation.checkpoint().display(),
        match generation.dropped() {
            0 => String::new(),
            n => format!(" ({n} torn record(s) dropped)"),
        }
    );
    let bar = progress::bar(
        total as u64,
        "{bar:40} {pos}/{len} positions, {per_sec} [{elapsed_precise}, eta {eta}]",
    );
    bar.set_position(done as u64);
    bar.reset_eta();
    // No terminal (a batch job's log): a line a minute instead of the bar.
    let log = Log::new(done, total, !std::io::stderr().is_terminal());
    let ended = generation.run(signals.stop_flag(), &|done, _| {
        bar.set_position(done as u64);
        log.tick(done);
    });
    bar.finish_and_clear();
    report(&ended?, args, &options, &generation, total);
    Ok(Exit::Ok)
}

/// Says on stderr how the generation of `total` positions ended.
fn report(
    ended: &Ended,
    args: &BookGenerateArgs,
    options: &Options,
    generation: &BookGeneration,
    total: usize,
) {
    let out = args.out.display();
    match ended {
        Ended::Finished(s) => eprintln!(
            "c4solver: wrote {out}: {} entries, {} bytes; the {total} positions of {} stones took \
             {} nodes and {:.1} CPU seconds ({:.3} CPU hours), earlier runs included",
            s.entries,
            s.bytes,
            options.depth,
            s.nodes,
            s.cpu_seconds,
            s.cpu_seconds / 3600.0
        ),
        Ended::Written { entries, bytes } => eprintln!(
            "c4solver: {out} already holds this book (depth {}, shard {}: {entries} entries, \
             {bytes} bytes), written by an earlier run: nothing to do (remove it to make it \
             again)",
            options.depth, options.shard
        ),
        Ended::Stopped { done, total } => eprintln!(
            "c4solver: stopped with {done} of {total} positions solved, kept in {}: run the \
             same command again to go on",
            generation.checkpoint().display()
        ),
    }
}

/// Progress lines on stderr, at most one a minute, when no bar is drawn.
struct Log {
    on: bool,
    start: Instant,
    first: usize,
    total: usize,
    last: Mutex<Instant>,
}

impl Log {
    const EVERY: Duration = Duration::from_secs(60);

    fn new(first: usize, total: usize, on: bool) -> Self {
        let now = Instant::now();
        Log {
            on,
            start: now,
            first,
            total,
            last: Mutex::new(now),
        }
    }

    fn tick(&self, done: usize) {
        if !self.on {
            return;
        }
        let mut last = self.last.lock().expect("no panic while logging");
        if last.elapsed() < Self::EVERY {
            return;
        }
        *last = Instant::now();
        let secs = self.start.elapsed().as_secs_f64();
        let rate = (done - self.first) as f64 / secs;
        let left = (self.total - done) as f64 / rate.max(1e-9);
        eprintln!(
            "c4solver: {done} of {} positions solved, {rate:.2}/s, about {:.0} min left",
            self.total,
            left / 60.0
        );
    }
}
