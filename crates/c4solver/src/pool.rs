//! A pool of workers that work through a stream of jobs (the command line's
//! `solve` lines, `generate`'s candidates and `analyze`'s positions; the Python
//! package's `solve_many`): each job goes to one worker, results come back in
//! input order, and the run streams with flat memory.
//!
//! * **Jobs** come from an iterator (the command line's input reader, a list),
//!   numbered 0, 1, 2, ... in the order they are taken.
//! * **Workers** are threads, one per worker state (a solver each, with its own
//!   table, so that a job's answer and node count are those of one thread),
//!   started as the jobs come: the first one's state is built before anything
//!   runs (so that a state that cannot be built fails the run at once), then
//!   each job taken starts one more worker while none is spare, up to the number
//!   asked for. One short line asked of 1,024 workers builds two.
//! * **Order and memory.** Results reach `deliver` in job order, one call at a
//!   time, on the worker that finished the job next in order (no thread hand-off
//!   per job: a million easy lines cost no more than on one thread). A worker
//!   takes job `n` only once job `n - WINDOW` is delivered, so at most `WINDOW`
//!   results wait for a slow job before it, whatever the input's length; the job
//!   source's channel is bounded too.
//! * **The end of a stream.** A worker that finds the input exhausted lends its
//!   thread to a search still running ([`Helper::help`]): the one with the fewest
//!   helpers, the oldest first. If the whole input was fewer jobs than workers
//!   (one hard line piped in), it joins at once, and the threads not started yet
//!   start then, one after the other while a search is still running, to join it
//!   too; at the end of a longer stream, only searches that have already run
//!   [`TAIL_JOIN_AFTER`], so that the node counts of a batch's easy last lines
//!   stay those of one thread.
//! * **Stopping.** Workers poll `stop` between jobs and their solvers poll it
//!   inside searches; `deliver` returning false sets it (stdout closed, enough
//!   results). After a stop, the results delivered are those of every job before
//!   the first unfinished one; later results are dropped.
//! * **Failures.** The first worker's state that cannot be built, or a thread
//!   that cannot start, sets `stop` and is the run's error ([`PoolError`]);
//!   nothing panics. A later worker's state that cannot be built (memory for its
//!   table, taken as the jobs come) does not end the run: the workers already
//!   built answer every job, no more are started, and `make` says so if it
//!   matters (the command line prints a note).
//!
//! [`drain`] is the same pool for a list of work with no results to put in order
//! (book generation and verification): no window, and no worker joins another's
//! search, so that each job's node count is one solver's.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, OnceLock};
use std::thread::Scope;
use std::time::Duration;

use crate::erased::Solver;
use crate::solver::StopFlag;
use crate::solver::parallel::{Helper, JOIN_AFTER};
use crate::threads;

/// How often a waiting worker or the deliverer looks at the stop flag.
pub(crate) const POLL: Duration = Duration::from_millis(50);

/// At the end of a long stream, an idle worker joins only searches that have run
/// this long.
pub(crate) const TAIL_JOIN_AFTER: Duration = Duration::from_millis(100);

/// A worker's state and the handle through which idle workers can join its
/// searches (none for [`Worker::new`]).
pub struct Worker<S> {
    /// The state the work function gets (a solver).
    pub state: S,
    /// Joins the state's running search.
    helper: Option<Helper>,
}

impl<S> Worker<S> {
    /// A worker with `state`, whose work no idle worker joins (each job's node
    /// count is then this worker's own).
    pub fn new(state: S) -> Self {
        Worker {
            state,
            helper: None,
        }
    }
}

impl Worker<Solver> {
    /// A worker with `solver`, whose searches the idle workers join at the end of
    /// the input if it runs them over a shared table ([`Solver::new_joinable`],
    /// or a [`Config::is_parallel`](crate::Config::is_parallel) configuration).
    pub fn joinable(solver: Solver) -> Self {
        Worker {
            helper: solver.helper(),
            state: solver,
        }
    }
}

/// Why a run of the pool ended early.
#[derive(Debug, thiserror::Error)]
pub enum PoolError<E> {
    /// A worker's state could not be built (`make`'s error).
    #[error("{0}")]
    Worker(E),
    /// A worker thread could not be started.
    #[error("cannot start worker thread {index} of {count}: {error}")]
    Spawn {
        /// The thread, 1-based.
        index: usize,
        /// The threads asked for.
        count: usize,
        /// What the system said.
        error: std::io::Error,
    },
}

/// What a worker is doing, seen by the idle ones (a hint: read without a lock).
#[derive(Default)]
struct Busy {
    /// The job it is working on, plus one; 0 when idle.
    job: AtomicU64,
    /// Idle workers lent to it now.
    helpers: AtomicUsize,
    /// How to join its searches, once its state is built.
    helper: OnceLock<Option<Helper>>,
}

struct Source<Q> {
    jobs: Q,
    next_seq: u64,
    ended: bool,
}

/// Results waiting for their turn, and the delivery function.
struct Order<R, D> {
    /// The next job to deliver (results delivered, when they have no order).
    next: u64,
    pending: BTreeMap<u64, R>,
    /// False once `deliver` said stop: later results are dropped.
    open: bool,
    /// Workers waiting for the window to move.
    waiting: usize,
    deliver: D,
}

/// One run: what its threads share.
struct Pool<'a, S, Q, R, D, E, M, F> {
    source: Mutex<Source<Q>>,
    order: Mutex<Order<R, D>>,
    order_moved: Condvar,
    busy: Vec<Busy>,
    /// Workers started that may still take jobs.
    working: AtomicUsize,
    /// Set when a later worker's state could not be built: no more are started.
    full: AtomicBool,
    /// Threads started (workers, then lent threads), at most `busy.len()`.
    started: AtomicUsize,
    /// The first failure, which ended the run.
    failure: Mutex<Option<PoolError<E>>>,
    /// The most jobs taken past the next one to deliver; `None`: no bound, and
    /// each result is delivered as soon as it is finished (in any order).
    window: Option<u64>,
    stop: &'a StopFlag,
    make: M,
    work: F,
    _state: std::marker::PhantomData<fn() -> S>,
}

/// What a new thread does.
enum Role<S> {
    /// Take jobs, with this state (or one built by `make` on the new thread).
    Worker(Option<Worker<S>>),
    /// Only join the searches still running at the end of the input.
    Lender,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Runs `work(state, seq, job)` on every job of `jobs` with up to `workers`
/// threads, each with a state that `make(index)` builds (the first on the
/// calling thread, before anything runs; the others on their own threads as the
/// jobs come, and if one of those cannot be built, the run goes on with the
/// workers it has), and `deliver(seq, result)` in job order, one call at a time (on
/// whichever worker finished the job that was next: no hand-off to another
/// thread). `work` returns `None` when `stop` interrupted it; `deliver` returns
/// false to end the run (then `stop` is set).
///
/// `window` bounds the results waiting for an earlier one (at least the number
/// of workers). The jobs are taken one at a time, under a lock: an iterator that
/// waits for its next job (input still to come) must end (`None`) once `stop` is
/// set, so that a stopped run does not wait for it.
///
/// # Errors
/// The first worker's state that `make` could not build, or the first thread
/// that could not start ([`PoolError`]); `stop` is set then, and the results delivered are
/// those of the jobs before the first one left unfinished.
pub fn run<S, J, R, D, E>(
    workers: usize,
    make: impl Fn(usize) -> Result<Worker<S>, E> + Sync,
    jobs: J,
    window: usize,
    stop: &StopFlag,
    work: impl Fn(&mut S, u64, J::Item) -> Option<R> + Sync,
    deliver: D,
) -> Result<(), PoolError<E>>
where
    S: Send,
    J: IntoIterator,
    J::IntoIter: Send,
    J::Item: Send,
    R: Send,
    D: FnMut(u64, R) -> bool + Send,
    E: Send,
{
    let window = Some(window.max(workers.max(1)) as u64);
    let jobs = jobs.into_iter();
    start_pool(workers, make, jobs, window, stop, work, deliver)
}

/// Runs `work(state, seq, item)` on every item of `items` (`seq` is the item's
/// index) with up to `workers` threads, each with a state that `make(index)`
/// builds, started as in [`run`] (the first state built on the calling thread,
/// before anything runs). The items are taken in order, and finish in any order:
/// a slow one holds back no other. `work` returns false when `stop` interrupted
/// it: that worker then takes no more items. No worker joins another's search.
///
/// # Errors
/// As [`run`]: the first state that `make` could not build, or the first thread
/// that could not start; `stop` is set then.
pub(crate) fn drain<S, I, E>(
    workers: usize,
    make: impl Fn(usize) -> Result<S, E> + Sync,
    items: I,
    stop: &StopFlag,
    work: impl Fn(&mut S, u64, I::Item) -> bool + Sync,
) -> Result<(), PoolError<E>>
where
    S: Send,
    I: IntoIterator,
    I::IntoIter: Send,
    I::Item: Send,
    E: Send,
{
    start_pool(
        workers,
        |i| make(i).map(Worker::new),
        items.into_iter(),
        None,
        stop,
        |state, seq, item| work(state, seq, item).then_some(()),
        |_, ()| true,
    )
}

/// [`run`] with its window, or none ([`drain`]).
fn start_pool<S, Q, R, D, E>(
    workers: usize,
    make: impl Fn(usize) -> Result<Worker<S>, E> + Sync,
    jobs: Q,
    window: Option<u64>,
    stop: &StopFlag,
    work: impl Fn(&mut S, u64, Q::Item) -> Option<R> + Sync,
    deliver: D,
) -> Result<(), PoolError<E>>
where
    S: Send,
    Q: Iterator + Send,
    Q::Item: Send,
    R: Send,
    D: FnMut(u64, R) -> bool + Send,
    E: Send,
{
    let n = workers.max(1);
    let first = make(0).map_err(PoolError::Worker)?;
    let pool = Pool {
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
        working: AtomicUsize::new(1),
        full: AtomicBool::new(false),
        started: AtomicUsize::new(1),
        failure: Mutex::new(None),
        window,
        stop,
        make,
        work,
        _state: std::marker::PhantomData,
    };
    std::thread::scope(|scope| pool.start(scope, 0, Role::Worker(Some(first))));
    match pool.failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// How to join the searches of a worker, once its state is built.
fn helper(b: &Busy) -> Option<&Helper> {
    b.helper.get().and_then(Option::as_ref)
}

impl<'a, S, Q, R, D, E, M, F> Pool<'a, S, Q, R, D, E, M, F>
where
    S: Send,
    Q: Iterator + Send,
    Q::Item: Send,
    R: Send,
    D: FnMut(u64, R) -> bool + Send,
    E: Send,
    M: Fn(usize) -> Result<Worker<S>, E> + Sync,
    F: Fn(&mut S, u64, Q::Item) -> Option<R> + Sync,
{
    /// Starts thread `id` (already counted in `started`, and in `working` for a
    /// worker) in `role`; a thread that cannot start ends the run.
    fn start<'scope>(&'scope self, scope: &'scope Scope<'scope, '_>, id: usize, role: Role<S>) {
        let worker = matches!(role, Role::Worker(_));
        // The thread runs before the next one is made (see `threads`).
        let name = format!("c4solver-worker-{}", id + 1);
        let spawned = threads::spawn_scoped(scope, name, move || match role {
            Role::Worker(state) => self.worker(scope, id, state),
            Role::Lender => self.lend(scope),
        });
        match spawned {
            Ok(_) => {}
            Err(error) => {
                if worker {
                    self.working.fetch_sub(1, Ordering::SeqCst);
                }
                self.fail(PoolError::Spawn {
                    index: id + 1,
                    count: self.busy.len(),
                    error,
                });
            }
        }
    }

    /// Records the run's first failure and stops it.
    fn fail(&self, e: PoolError<E>) {
        lock(&self.failure).get_or_insert(e);
        self.stop.stop();
    }

    /// Claims the next thread if fewer than `want` (at most every thread) are
    /// started: its index.
    fn claim(&self, want: usize) -> Option<usize> {
        let want = want.min(self.busy.len());
        let mut started = self.started.load(Ordering::SeqCst);
        while started < want && !self.stop.is_stopped() {
            match self.started.compare_exchange(
                started,
                started + 1,
                Ordering::SeqCst,
                Ordering::SeqCst,
            ) {
                Ok(_) => return Some(started),
                Err(now) => started = now,
            }
        }
        None
    }

    /// A worker thread: builds its state if it has none, takes jobs until the
    /// input is exhausted or the run stops, then lends itself.
    fn worker<'scope>(
        &'scope self,
        scope: &'scope Scope<'scope, '_>,
        id: usize,
        state: Option<Worker<S>>,
    ) {
        let built = state.map_or_else(|| (self.make)(id), Ok);
        let worker = match built {
            Ok(w) => w,
            Err(_) => {
                // Not the first worker (its state was built before the run): the
                // others answer every job; `make` reported the failure.
                self.full.store(true, Ordering::SeqCst);
                self.working.fetch_sub(1, Ordering::SeqCst);
                return;
            }
        };
        let _ = self.busy[id].helper.set(worker.helper);
        let mut state = worker.state;
        while let Some((seq, job)) = self.take() {
            // One worker spare beyond the jobs taken, while there are fewer than
            // asked and the last one could be built.
            let room = !self.full.load(Ordering::SeqCst);
            if let Some(next) = room.then(|| self.claim(seq as usize + 2)).flatten() {
                self.working.fetch_add(1, Ordering::SeqCst);
                self.start(scope, next, Role::Worker(None));
            }
            self.busy[id].job.store(seq + 1, Ordering::Relaxed);
            let result = (self.work)(&mut state, seq, job);
            self.busy[id].job.store(0, Ordering::Relaxed);
            let Some(result) = result else { break };
            if !self.hand_over(seq, result) {
                break;
            }
        }
        self.working.fetch_sub(1, Ordering::SeqCst);
        self.lend(scope);
    }

    /// Adds a finished result and delivers every result that is next in order.
    /// False once the run is over for this worker (`deliver` said stop).
    fn hand_over(&self, seq: u64, result: R) -> bool {
        let mut o = lock(&self.order);
        if !o.open {
            return false;
        }
        let before = o.next;
        // The usual case, one worker or jobs of even length: it is next already
        // (or results have no order).
        let mut ready = if seq == o.next || self.window.is_none() {
            Some(result)
        } else {
            o.pending.insert(seq, result);
            None
        };
        loop {
            let next = o.next;
            let (seq, r) = match ready.take() {
                Some(r) => (seq, r),
                None => match o.pending.remove(&next) {
                    Some(r) => (next, r),
                    None => break,
                },
            };
            o.next += 1;
            if !(o.deliver)(seq, r) {
                o.open = false;
                o.pending.clear();
                self.stop.stop();
                break;
            }
        }
        // Waking costs a system call: only when someone waits for the window.
        if o.next != before && o.waiting > 0 {
            self.order_moved.notify_all();
        }
        o.open
    }

    /// The next job and its number, once it fits the window; `None` when the
    /// input is exhausted or the run stopped.
    fn take(&self) -> Option<(u64, Q::Item)> {
        loop {
            if self.stop.is_stopped() {
                return None;
            }
            let mut src = lock(&self.source);
            if src.ended {
                return None;
            }
            if let Some(window) = self.window {
                let mut o = lock(&self.order);
                if src.next_seq >= o.next + window {
                    drop(src);
                    o.waiting += 1;
                    let mut o = self
                        .order_moved
                        .wait_timeout(o, POLL)
                        .unwrap_or_else(|e| e.into_inner())
                        .0;
                    o.waiting -= 1;
                    continue;
                }
            }
            match src.jobs.next() {
                Some(job) => {
                    let seq = src.next_seq;
                    src.next_seq += 1;
                    return Some((seq, job));
                }
                None => {
                    src.ended = true;
                    return None;
                }
            }
        }
    }

    /// An idle thread at the end of the input: joins the searches still running
    /// until every worker is done.
    fn lend<'scope>(&'scope self, scope: &'scope Scope<'scope, '_>) {
        let n = self.busy.len();
        // The whole input fit in the pool at once: every thread on it, at once.
        let whole = lock(&self.source).next_seq < n as u64;
        let delay = if whole { JOIN_AFTER } else { TAIL_JOIN_AFTER };
        while !self.stop.is_stopped() && self.working.load(Ordering::SeqCst) > 0 {
            let target = self
                .busy
                .iter()
                .enumerate()
                .filter(|(_, b)| helper(b).is_some() && b.job.load(Ordering::Relaxed) != 0)
                .min_by_key(|(_, b)| {
                    (
                        b.helpers.load(Ordering::Relaxed),
                        b.job.load(Ordering::Relaxed),
                    )
                })
                .map(|(i, _)| i);
            let Some(i) = target else {
                // Nothing to join now (a worker between two jobs, or searches that
                // cannot be joined): look again shortly.
                std::thread::sleep(Duration::from_millis(1));
                continue;
            };
            // A search to join, and threads not started yet: one more, which
            // starts the next in turn if the search is still running.
            if let Some(next) = whole.then(|| self.claim(n)).flatten() {
                self.start(scope, next, Role::Lender);
            }
            let busy = &self.busy[i];
            busy.helpers.fetch_add(1, Ordering::Relaxed);
            let helped = helper(busy).is_some_and(|h| h.help(delay));
            busy.helpers.fetch_sub(1, Ordering::Relaxed);
            if !helped {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Workers whose state is their index, none of them joinable.
    fn plain(i: usize) -> Result<Worker<usize>, ()> {
        Ok(Worker::new(i))
    }

    #[test]
    fn a_worker_is_joined_only_when_its_solver_can_be() {
        use crate::{Config, Size, SolverKind};
        let size = Size::STANDARD;
        let config = Config {
            table_mb: 1,
            ..Config::default()
        };
        let joinable = Solver::new_joinable(size, config).unwrap();
        assert!(Worker::joinable(joinable).helper.is_some());
        // The reference search runs over its own table: nobody can join it.
        let config = Config {
            table_mb: 1,
            ..Config::for_solver(SolverKind::Reference)
        };
        let reference = Solver::new(size, config).unwrap();
        assert!(Worker::joinable(reference).helper.is_none());
        assert!(Worker::new(0).helper.is_none());
    }

    #[test]
    fn results_come_in_order_with_many_workers() {
        let stop = StopFlag::new();
        let mut got = Vec::new();
        run(
            4,
            plain,
            0..500u64,
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
        )
        .unwrap();
        assert_eq!(got, (0..500).map(|j| (j, j * 2)).collect::<Vec<_>>());
    }

    #[test]
    fn deliver_can_end_the_run() {
        let stop = StopFlag::new();
        let mut got = 0;
        run(
            3,
            plain,
            0..,
            6,
            &stop,
            |_, _, job: u64| Some(job),
            |_, _| {
                got += 1;
                got < 10
            },
        )
        .unwrap();
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
            3,
            plain,
            0..100u64,
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
        )
        .unwrap();
        assert!(max_seen.load(Ordering::SeqCst) < 5);
    }

    #[test]
    fn a_stop_delivers_every_job_before_the_gap_and_nothing_after() {
        let stop = StopFlag::new();
        let mut got = Vec::new();
        let third_done = std::sync::atomic::AtomicBool::new(false);
        run(
            2,
            plain,
            0..10u64,
            4,
            &stop,
            |_, seq, _| {
                if seq == 2 {
                    // The line being searched when the signal comes: it waits
                    // for the job after it to finish first.
                    while !third_done.load(Ordering::SeqCst) {
                        std::thread::yield_now();
                    }
                    stop.stop();
                    return None;
                }
                if seq == 3 {
                    third_done.store(true, Ordering::SeqCst);
                }
                Some(seq)
            },
            |seq, _| {
                got.push(seq);
                true
            },
        )
        .unwrap();
        assert_eq!(got, vec![0, 1]);
    }

    #[test]
    fn workers_are_built_as_the_jobs_come() {
        // One job asked of 1,024 workers: the first and one spare are built.
        let built = AtomicUsize::new(0);
        let counted = |i| {
            built.fetch_add(1, Ordering::SeqCst);
            plain(i)
        };
        let stop = StopFlag::new();
        let mut got = Vec::new();
        run(
            1024,
            counted,
            0..1u64,
            8,
            &stop,
            |_, _, job| Some(job),
            |_, r| {
                got.push(r);
                true
            },
        )
        .unwrap();
        assert_eq!(got, vec![0]);
        assert_eq!(built.load(Ordering::SeqCst), 2);
        // A long stream builds every worker asked for, no more.
        built.store(0, Ordering::SeqCst);
        run(
            5,
            counted,
            0..1000u64,
            8,
            &stop,
            |_, _, job| Some(job),
            |_, _| true,
        )
        .unwrap();
        assert_eq!(built.load(Ordering::SeqCst), 5);
    }

    #[test]
    fn drain_works_past_a_slow_item_with_a_state_per_worker() {
        // Item 0 waits for every other item: no window holds them back.
        let stop = StopFlag::new();
        let others = AtomicUsize::new(0);
        let seen = Mutex::new(Vec::new());
        drain(
            3,
            |i| Ok::<_, ()>((i, 0usize)),
            (0..100u64).map(|j| j * 10),
            &stop,
            |(worker, count), seq, item| {
                assert_eq!(item, seq * 10);
                *count += 1;
                if seq == 0 {
                    let start = std::time::Instant::now();
                    while others.load(Ordering::SeqCst) < 99 {
                        assert!(start.elapsed() < Duration::from_secs(30), "item 0 waited");
                        std::thread::yield_now();
                    }
                } else {
                    others.fetch_add(1, Ordering::SeqCst);
                }
                lock(&seen).push((seq, *worker));
                true
            },
        )
        .unwrap();
        let mut seen = seen.into_inner().unwrap();
        seen.sort_unstable();
        assert_eq!(
            seen.iter().map(|s| s.0).collect::<Vec<_>>(),
            (0..100).collect::<Vec<_>>()
        );
        assert!(seen.iter().all(|s| s.1 < 3));
        assert!(!stop.is_stopped());
    }

    #[test]
    fn the_first_worker_that_cannot_be_built_ends_the_run_with_its_error() {
        let stop = StopFlag::new();
        // The first one, before anything runs.
        let e = run(
            3,
            |_| Err::<Worker<()>, _>("no memory"),
            0..10u64,
            8,
            &stop,
            |_, _, job| Some(job),
            |_, _| panic!("nothing runs"),
        )
        .unwrap_err();
        assert!(matches!(e, PoolError::Worker("no memory")));
        assert!(!stop.is_stopped());
    }

    #[test]
    fn a_later_worker_that_cannot_be_built_leaves_the_jobs_to_the_others() {
        let stop = StopFlag::new();
        let mut got = Vec::new();
        let mut by = [0; 2];
        run(
            5,
            |i| if i >= 2 { Err(()) } else { plain(i) },
            0..1000u64,
            8,
            &stop,
            |worker: &mut usize, _, job| Some((*worker, job)),
            |_, (worker, job)| {
                by[worker] += 1;
                got.push(job);
                true
            },
        )
        .unwrap();
        assert_eq!(got, (0..1000).collect::<Vec<_>>());
        assert_eq!(by.iter().sum::<usize>(), 1000);
        assert!(!stop.is_stopped());
    }
}
