//! A pool of workers that work through a stream of jobs (the command line's
//! `solve` lines, `generate`'s candidates and `analyze`'s positions; the Python
//! package's `solve_many`): each job goes to one worker, results come back in
//! input order, and the run streams with flat memory.
//!
//! * **Jobs** come from a [`Jobs`] source (the command line's input reader, any
//!   channel, or any iterator), numbered 0, 1, 2, ... in the order they are taken.
//! * **Workers** are threads, one per worker state (a solver each, with its own
//!   table, so that a job's answer and node count are those of one thread).
//! * **Order and memory.** Results reach `deliver` in job order, one call at a
//!   time, on the worker that finished the job next in order (no thread hand-off
//!   per job: a million easy lines cost no more than on one thread). A worker
//!   takes job `n` only once job `n - WINDOW` is delivered, so at most `WINDOW`
//!   results wait for a slow job before it, whatever the input's length; the job
//!   source's channel is bounded too.
//! * **The end of a stream.** A worker that finds the input exhausted lends its
//!   thread to a search still running ([`Helper::help`]): the one with the fewest
//!   helpers, the oldest first. If the whole input was fewer jobs than workers
//!   (one hard line piped in), it joins at once; at the end of a longer stream,
//!   only searches that have already run [`TAIL_JOIN_AFTER`], so that the node
//!   counts of a batch's easy last lines stay those of one thread.
//! * **Stopping.** Workers poll `stop` between jobs and their solvers poll it
//!   inside searches; `deliver` returning false sets it (stdout closed, enough
//!   results). After a stop, results that came after an unfinished job are
//!   returned, in order, for the caller to write or drop.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Duration;

use crate::solver::StopFlag;
use crate::solver::parallel::{Helper, JOIN_AFTER};

/// How often a waiting worker or the deliverer looks at the stop flag.
pub const POLL: Duration = Duration::from_millis(50);

/// At the end of a long stream, an idle worker joins only searches that have run
/// this long.
pub const TAIL_JOIN_AFTER: Duration = Duration::from_millis(100);

/// What a job source gives.
pub enum Next<J> {
    /// The next job.
    Job(J),
    /// Nothing yet (ask again).
    Wait,
    /// No more jobs.
    End,
}

/// A source of jobs, asked by one worker at a time.
pub trait Jobs: Send {
    /// A job.
    type Job: Send;
    /// The next job, waiting at most `timeout` for it.
    fn next(&mut self, timeout: Duration) -> Next<Self::Job>;
}

impl<J> Next<J> {
    /// What a channel's `recv_timeout` answered, as a job source's answer.
    pub fn from_recv(received: Result<J, RecvTimeoutError>) -> Self {
        match received {
            Ok(j) => Next::Job(j),
            Err(RecvTimeoutError::Timeout) => Next::Wait,
            Err(RecvTimeoutError::Disconnected) => Next::End,
        }
    }
}

impl<J: Send> Jobs for Receiver<J> {
    type Job = J;
    fn next(&mut self, timeout: Duration) -> Next<J> {
        Next::from_recv(self.recv_timeout(timeout))
    }
}

/// Jobs from an iterator.
pub struct FromIter<I>(pub I);

impl<I> Jobs for FromIter<I>
where
    I: Iterator + Send,
    I::Item: Send,
{
    type Job = I::Item;
    fn next(&mut self, _timeout: Duration) -> Next<I::Item> {
        self.0.next().map_or(Next::End, Next::Job)
    }
}

/// A worker's state and the handle through which idle workers can join its
/// searches (`None` if they cannot, e.g. the reference search).
pub struct Worker<S> {
    /// The state the work function gets (a solver).
    pub state: S,
    /// Joins the state's running search.
    pub helper: Option<Helper>,
}

/// What a worker is doing, seen by the idle ones (a hint: read without a lock).
#[derive(Default)]
struct Busy {
    /// The job it is working on, plus one; 0 when idle.
    job: AtomicU64,
    /// Idle workers lent to it now.
    helpers: AtomicUsize,
}

struct Source<Q> {
    jobs: Q,
    next_seq: u64,
    ended: bool,
}

/// Results waiting for their turn, and the delivery function.
struct Order<R, D> {
    /// The next job to deliver.
    next: u64,
    pending: BTreeMap<u64, R>,
    /// False once `deliver` said stop: later results are dropped.
    open: bool,
    /// Workers waiting for the window to move.
    waiting: usize,
    deliver: D,
}

struct Shared<Q, R, D> {
    source: Mutex<Source<Q>>,
    order: Mutex<Order<R, D>>,
    order_moved: Condvar,
    busy: Vec<Busy>,
    /// Workers still taking jobs.
    working: AtomicUsize,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Runs `work(state, seq, job)` on every job of `jobs` with one thread per worker,
/// and `deliver(seq, result)` in job order, one call at a time (on whichever
/// worker finished the job that was next: no hand-off to another thread). `work`
/// returns `None` when `stop` interrupted it; `deliver` returns false to end the
/// run (then `stop` is set). Returns the results left after a gap when the run
/// was stopped (empty otherwise, and after `deliver` said stop).
///
/// `window` bounds the results waiting for an earlier one (at least the number
/// of workers).
pub fn run<S, Q, R, D>(
    workers: Vec<Worker<S>>,
    jobs: Q,
    window: usize,
    stop: &StopFlag,
    work: impl Fn(&mut S, u64, Q::Job) -> Option<R> + Sync,
    deliver: D,
) -> Vec<(u64, R)>
where
    S: Send,
    Q: Jobs,
    R: Send,
    D: FnMut(u64, R) -> bool + Send,
{
    let n = workers.len();
    let window = window.max(n) as u64;
    let shared = Shared {
        source: Mutex::new(Source {
            jobs,
            next_seq: 0,
            ended: false,
        }),
        order: Mutex::new(Order {
            next: 0,
            pending: BTreeMap::new(),
            open: true,
            waiting: 0,
            deliver,
        }),
        order_moved: Condvar::new(),
        busy: (0..n).map(|_| Busy::default()).collect(),
        working: AtomicUsize::new(n),
    };
    let helpers: Vec<Option<Helper>> = workers.iter().map(|w| w.helper.clone()).collect();
    std::thread::scope(|scope| {
        for (id, worker) in workers.into_iter().enumerate() {
            let (shared, helpers, work) = (&shared, &helpers, &work);
            scope.spawn(move || {
                let mut state = worker.state;
                while let Some((seq, job)) = take(shared, window, stop) {
                    shared.busy[id].job.store(seq + 1, Ordering::Relaxed);
                    let result = work(&mut state, seq, job);
                    shared.busy[id].job.store(0, Ordering::Relaxed);
                    let Some(result) = result else { break };
                    if !hand_over(shared, seq, result, stop) {
                        break;
                    }
                }
                shared.working.fetch_sub(1, Ordering::SeqCst);
                lend(shared, helpers, n, stop);
            });
        }
    });
    let order = shared.order.into_inner().unwrap_or_else(|e| e.into_inner());
    order.pending.into_iter().collect()
}

/// Adds a finished result and delivers every result that is next in order.
/// False once the run is over for this worker (`deliver` said stop).
fn hand_over<Q, R, D>(shared: &Shared<Q, R, D>, seq: u64, result: R, stop: &StopFlag) -> bool
where
    D: FnMut(u64, R) -> bool,
{
    let mut o = lock(&shared.order);
    if !o.open {
        return false;
    }
    let before = o.next;
    // The usual case, one worker or jobs of even length: it is next already.
    let mut ready = if seq == o.next {
        Some(result)
    } else {
        o.pending.insert(seq, result);
        None
    };
    loop {
        let next = o.next;
        let Some(r) = ready.take().or_else(|| o.pending.remove(&next)) else {
            break;
        };
        o.next += 1;
        if !(o.deliver)(next, r) {
            o.open = false;
            o.pending.clear();
            stop.stop();
            break;
        }
    }
    // Waking costs a system call: only when someone waits for the window.
    if o.next != before && o.waiting > 0 {
        shared.order_moved.notify_all();
    }
    o.open
}

/// The next job and its number, once it fits the window; `None` when the input
/// is exhausted or the run stopped.
fn take<Q: Jobs, R, D>(
    shared: &Shared<Q, R, D>,
    window: u64,
    stop: &StopFlag,
) -> Option<(u64, Q::Job)> {
    loop {
        if stop.is_stopped() {
            return None;
        }
        let mut src = lock(&shared.source);
        if src.ended {
            return None;
        }
        {
            let mut o = lock(&shared.order);
            if src.next_seq >= o.next + window {
                drop(src);
                o.waiting += 1;
                let mut o = shared
                    .order_moved
                    .wait_timeout(o, POLL)
                    .unwrap_or_else(|e| e.into_inner())
                    .0;
                o.waiting -= 1;
                continue;
            }
        }
        match src.jobs.next(POLL) {
            Next::Job(job) => {
                let seq = src.next_seq;
                src.next_seq += 1;
                return Some((seq, job));
            }
            Next::Wait => {}
            Next::End => {
                src.ended = true;
                return None;
            }
        }
    }
}

/// An idle worker at the end of the input: joins the searches still running
/// until every worker is done.
fn lend<Q: Jobs, R, D>(
    shared: &Shared<Q, R, D>,
    helpers: &[Option<Helper>],
    n: usize,
    stop: &StopFlag,
) {
    // The whole input fit in the pool at once: every thread on it, at once.
    let delay = if lock(&shared.source).next_seq < n as u64 {
        JOIN_AFTER
    } else {
        TAIL_JOIN_AFTER
    };
    while !stop.is_stopped() && shared.working.load(Ordering::SeqCst) > 0 {
        let target = shared
            .busy
            .iter()
            .enumerate()
            .filter(|(i, b)| helpers[*i].is_some() && b.job.load(Ordering::Relaxed) != 0)
            .min_by_key(|(_, b)| {
                (
                    b.helpers.load(Ordering::Relaxed),
                    b.job.load(Ordering::Relaxed),
                )
            })
            .map(|(i, _)| i);
        if let Some(i) = target {
            shared.busy[i].helpers.fetch_add(1, Ordering::Relaxed);
        }
        let Some(i) = target else {
            // Nothing to join now (a worker between two jobs, or searches that
            // cannot be joined): look again shortly.
            std::thread::sleep(Duration::from_millis(1));
            continue;
        };
        let helped = helpers[i].as_ref().is_some_and(|h| h.help(delay));
        shared.busy[i].helpers.fetch_sub(1, Ordering::Relaxed);
        if !helped {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn workers(n: usize) -> Vec<Worker<usize>> {
        (0..n)
            .map(|i| Worker {
                state: i,
                helper: None,
            })
            .collect()
    }

    #[test]
    fn results_come_in_order_with_many_workers() {
        let stop = StopFlag::new();
        let mut got = Vec::new();
        let stranded = run(
            workers(4),
            FromIter(0..500u64),
            8,
            &stop,
            |_, seq, job| {
                assert_eq!(seq, job);
                // Uneven work, so that results finish out of order.
                std::thread::sleep(Duration::from_micros((job * 37) % 300));
                Some(job * 2)
            },
            |seq, r| {
                got.push((seq, r));
                true
            },
        );
        assert!(stranded.is_empty());
        assert_eq!(got, (0..500).map(|j| (j, j * 2)).collect::<Vec<_>>());
    }

    #[test]
    fn deliver_can_end_the_run() {
        let stop = StopFlag::new();
        let mut got = 0;
        run(
            workers(3),
            FromIter(0..),
            6,
            &stop,
            |_, _, job: u64| Some(job),
            |_, _| {
                got += 1;
                got < 10
            },
        );
        assert_eq!(got, 10);
        assert!(stop.is_stopped());
    }

    #[test]
    fn the_window_bounds_the_jobs_in_flight() {
        // Job 0 is slow: no worker may take job 0 + window before it is delivered.
        let stop = StopFlag::new();
        let max_seen = AtomicUsize::new(0);
        let first_done = std::sync::atomic::AtomicBool::new(false);
        run(
            workers(3),
            FromIter(0..100u64),
            5,
            &stop,
            |_, seq, _| {
                if seq == 0 {
                    std::thread::sleep(Duration::from_millis(50));
                    first_done.store(true, Ordering::SeqCst);
                } else if !first_done.load(Ordering::SeqCst) {
                    max_seen.fetch_max(seq as usize, Ordering::SeqCst);
                }
                Some(())
            },
            |_, ()| true,
        );
        assert!(max_seen.load(Ordering::SeqCst) < 5);
    }

    #[test]
    fn a_stop_returns_what_came_after_the_gap() {
        let stop = StopFlag::new();
        let mut got = Vec::new();
        let stranded = run(
            workers(2),
            FromIter(0..10u64),
            4,
            &stop,
            |_, seq, _| {
                if seq == 2 {
                    // The line being searched when the signal comes.
                    stop.stop();
                    return None;
                }
                if seq == 3 {
                    return Some(seq);
                }
                std::thread::sleep(Duration::from_millis(if seq < 2 { 0 } else { 30 }));
                Some(seq)
            },
            |seq, _| {
                got.push(seq);
                true
            },
        );
        assert_eq!(got, vec![0, 1]);
        assert!(stranded.iter().all(|(s, _)| *s > 2));
    }
}
