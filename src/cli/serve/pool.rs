//! The solver threads: a fixed number of OS threads (not the async runtime's),
//! each owning its search and table, fed from one bounded queue.
//!
//! A request holds a [`Ticket`] while it waits for its answer; dropping the
//! ticket (the client went away, or the request timed out) sets the task's
//! [`StopFlag`], so a queued task is skipped and a running search stops within
//! a fraction of a millisecond. [`Pool::stop_all`] stops every task at once
//! (the end of a graceful shutdown).
//!
//! The queue is a crossbeam channel: every thread holds its own receiver of the
//! one queue, so no lock is held while a thread waits for work. The channel is
//! unbounded, its memory taken as tasks come (a bounded one allocates every slot
//! at start); [`Pool::submit`] bounds it by the count of tasks waiting.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use anyhow::Context;
use c4solver::StopFlag;
use crossbeam_channel::{Receiver, Sender, unbounded};
use prometheus_client::metrics::counter::Counter;
use tokio::sync::oneshot;

use super::answer::{Answer, Task};

/// One solver thread's search: the answer of a task, or why there is none.
pub type Work = Box<dyn FnMut(&Task, &StopFlag) -> Result<Answer, Failure> + Send>;

/// Why a task has no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// Its flag was set: the server is stopping (a task whose requests are all
    /// gone is stopped too, but no one is left to be told).
    Stopped,
    /// The search itself failed, with what is known of why.
    Failed(String),
}

/// When a task left the queue for a solver thread (unset while it waits).
pub type Started = Arc<OnceLock<Instant>>;

/// A task in the queue, with its flag and where its answer goes.
struct Job {
    task: Task,
    stop: StopFlag,
    started: Started,
    reply: oneshot::Sender<Result<Answer, Failure>>,
}

/// The queue and the threads behind it.
pub struct Pool {
    queue: Sender<Job>,
    capacity: usize,
    threads: usize,
    /// Parent of every task's flag.
    all: StopFlag,
    load: Arc<Load>,
}

/// What the threads are doing.
#[derive(Default)]
struct Load {
    /// Tasks in the queue.
    waiting: AtomicUsize,
    /// Threads searching.
    busy: AtomicUsize,
    /// Searches started (`c4solver_searches_total`).
    searches: Counter,
}

/// The queue holds `capacity` tasks already: come back later.
#[derive(Debug)]
pub struct Full;

/// A submitted task: await [`Ticket::answer`]; dropping the ticket stops the task.
pub struct Ticket {
    reply: oneshot::Receiver<Result<Answer, Failure>>,
    stop: StopFlag,
    started: Started,
}

impl Ticket {
    /// The answer, or why there is none.
    pub async fn answer(&mut self) -> Result<Answer, Failure> {
        (&mut self.reply).await.unwrap_or_else(|_| {
            Err(Failure::Failed(
                "the solver thread ended without an answer".into(),
            ))
        })
    }

    /// When a solver thread took the task (unset while it waits in the queue).
    pub fn started(&self) -> Started {
        self.started.clone()
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        // Harmless once the answer is in; stops the search if it is not.
        self.stop.stop();
    }
}

impl Pool {
    /// Starts one thread per search of `works`, behind a queue of `capacity`
    /// tasks; `searches` counts the searches started.
    ///
    /// # Errors
    /// A thread that cannot be started.
    pub fn start(works: Vec<Work>, capacity: usize, searches: Counter) -> anyhow::Result<Pool> {
        let (queue, jobs) = unbounded::<Job>();
        let load = Arc::new(Load {
            searches,
            ..Load::default()
        });
        let threads = works.len();
        for (i, work) in works.into_iter().enumerate() {
            let (jobs, load) = (jobs.clone(), load.clone());
            std::thread::Builder::new()
                .name(format!("c4solver-search-{i}"))
                .spawn(move || serve_jobs(work, &jobs, &load))
                .with_context(|| format!("cannot start solver thread {}", i + 1))?;
        }
        Ok(Pool {
            queue,
            capacity,
            threads,
            all: StopFlag::new(),
            load,
        })
    }

    /// Queues `task`, or refuses it at once if the queue is full.
    ///
    /// # Errors
    /// [`Full`].
    pub fn submit(&self, task: Task) -> Result<Ticket, Full> {
        let (reply, rx) = oneshot::channel();
        let stop = self.all.child();
        let started = Started::default();
        let job = Job {
            task,
            stop: stop.clone(),
            started: started.clone(),
            reply,
        };
        // Counted before it is sent, so that a thread taking it at once never
        // counts it out first; the count is the queue's bound.
        let waiting = self.load.waiting.fetch_add(1, Ordering::Relaxed);
        if waiting >= self.capacity || self.queue.send(job).is_err() {
            self.load.waiting.fetch_sub(1, Ordering::Relaxed);
            return Err(Full);
        }
        Ok(Ticket {
            reply: rx,
            stop,
            started,
        })
    }

    /// Stops every queued and running task: their requests are answered 503.
    pub fn stop_all(&self) {
        self.all.stop();
    }

    /// Solver threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Tasks the queue can hold.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Threads searching now.
    pub fn busy(&self) -> usize {
        self.load.busy.load(Ordering::Relaxed)
    }

    /// Tasks waiting in the queue now.
    pub fn waiting(&self) -> usize {
        self.load.waiting.load(Ordering::Relaxed)
    }
}

/// One solver thread: takes tasks until the pool is dropped, skipping those
/// whose request is gone. A search that panics is answered as a failure, and
/// the thread goes on (when panics unwind: the release build aborts).
fn serve_jobs(mut work: Work, jobs: &Receiver<Job>, load: &Load) {
    while let Ok(job) = jobs.recv() {
        load.waiting.fetch_sub(1, Ordering::Relaxed);
        if job.reply.is_closed() {
            continue;
        }
        if job.stop.is_stopped() {
            let _ = job.reply.send(Err(Failure::Stopped));
            continue;
        }
        let _ = job.started.set(Instant::now());
        load.searches.inc();
        load.busy.fetch_add(1, Ordering::Relaxed);
        let answer =
            catch_unwind(AssertUnwindSafe(|| work(&job.task, &job.stop))).unwrap_or_else(|panic| {
                let why = panic
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "no message".into());
                Err(Failure::Failed(format!("the search panicked: {why}")))
            });
        load.busy.fetch_sub(1, Ordering::Relaxed);
        let _ = job.reply.send(answer);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn echo() -> Work {
        Box::new(|task: &Task, stop: &StopFlag| {
            while task.moves == "wait" && !stop.is_stopped() {
                std::thread::sleep(Duration::from_millis(1));
            }
            if task.moves == "panic" {
                panic!("asked to");
            }
            (!stop.is_stopped())
                .then(|| Answer {
                    moves: String::new(),
                    scores: vec![Some(task.moves.len() as i32)],
                    best: vec![1],
                    score: 0,
                    nodes: 0,
                    time_us: 0,
                    pv: None,
                    book: false,
                })
                .ok_or(Failure::Stopped)
        })
    }

    fn start(works: Vec<Work>, capacity: usize) -> Pool {
        Pool::start(works, capacity, Counter::default()).unwrap()
    }

    fn task(moves: &str) -> Task {
        Task {
            moves: moves.into(),
            position: super::super::answer::Position::new(c4solver::Size::STANDARD).unwrap(),
            weak: false,
            pv: false,
        }
    }

    #[tokio::test]
    async fn answers_and_refuses_when_full() {
        let pool = start(vec![echo()], 1);
        let mut a = pool.submit(task("abc")).unwrap();
        assert_eq!(a.answer().await.unwrap().scores, vec![Some(3)]);
        // One thread held by a waiting task, one queued: the next is refused.
        let mut waiting = pool.submit(task("wait")).unwrap();
        while pool.busy() == 0 {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        let queued = pool.submit(task("x")).unwrap();
        assert!(pool.submit(task("y")).is_err());
        drop(queued);
        pool.stop_all();
        assert_eq!(waiting.answer().await, Err(Failure::Stopped));
    }

    #[tokio::test]
    async fn every_thread_takes_tasks_from_the_one_queue() {
        let pool = start(vec![echo(), echo(), echo()], 8);
        let waiting: Vec<Ticket> = (0..3).map(|_| pool.submit(task("wait")).unwrap()).collect();
        while pool.busy() < 3 {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        assert_eq!(pool.waiting(), 0);
        // All three threads are held: a fourth task waits in the queue.
        let mut queued = pool.submit(task("abcd")).unwrap();
        assert_eq!(pool.waiting(), 1);
        drop(waiting);
        assert_eq!(queued.answer().await.unwrap().scores, vec![Some(4)]);
        assert_eq!(pool.waiting(), 0);
    }

    #[tokio::test]
    async fn dropping_a_ticket_stops_its_search() {
        let pool = start(vec![echo()], 4);
        let waiting = pool.submit(task("wait")).unwrap();
        while pool.busy() == 0 {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        drop(waiting);
        let mut next = pool.submit(task("ab")).unwrap();
        assert_eq!(next.answer().await.unwrap().scores, vec![Some(2)]);
    }

    #[tokio::test]
    async fn a_search_that_panics_is_a_failure_and_the_thread_goes_on() {
        let searches = Counter::default();
        let pool = Pool::start(vec![echo()], 4, searches.clone()).unwrap();
        let mut bad = pool.submit(task("panic")).unwrap();
        assert_eq!(
            bad.answer().await,
            Err(Failure::Failed("the search panicked: asked to".into()))
        );
        let mut next = pool.submit(task("abc")).unwrap();
        assert_eq!(next.answer().await.unwrap().scores, vec![Some(3)]);
        assert!(next.started().get().is_some(), "taken by a thread");
        assert_eq!(searches.get(), 2);
    }
}
