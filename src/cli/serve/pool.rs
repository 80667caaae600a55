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
//! one bounded queue, so no lock is held while a thread waits for work.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::Context;
use c4solver::StopFlag;
use crossbeam_channel::{Receiver, Sender, TrySendError, bounded};
use tokio::sync::oneshot;

use super::answer::{Answer, Task};

/// One solver thread's search: the answer of a task, `None` if its flag stopped
/// it.
pub type Work = Box<dyn FnMut(&Task, &StopFlag) -> Option<Answer> + Send>;

/// A task in the queue, with its flag and where its answer goes.
struct Job {
    task: Task,
    stop: StopFlag,
    reply: oneshot::Sender<Option<Answer>>,
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
}

/// The queue holds `capacity` tasks already: come back later.
#[derive(Debug)]
pub struct Full;

/// A submitted task: await [`Ticket::answer`]; dropping the ticket stops the task.
pub struct Ticket {
    reply: Option<oneshot::Receiver<Option<Answer>>>,
    stop: StopFlag,
}

impl Ticket {
    /// The answer, or `None` if the task was stopped (by [`Pool::stop_all`]).
    pub async fn answer(&mut self) -> Option<Answer> {
        let rx = self.reply.as_mut()?;
        rx.await.ok().flatten()
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        // Harmless once the answer is in; stops the search if it is not.
        self.stop.stop();
    }
}

impl Pool {
    /// Starts one thread per search of `works`, behind a queue of `capacity` tasks.
    ///
    /// # Errors
    /// A thread that cannot be started.
    pub fn start(works: Vec<Work>, capacity: usize) -> anyhow::Result<Pool> {
        let (queue, jobs) = bounded::<Job>(capacity);
        let load = Arc::new(Load::default());
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
        let job = Job {
            task,
            stop: stop.clone(),
            reply,
        };
        // Counted before it is sent, so that a thread taking it at once never
        // counts it out first.
        self.load.waiting.fetch_add(1, Ordering::Relaxed);
        match self.queue.try_send(job) {
            Ok(()) => Ok(Ticket {
                reply: Some(rx),
                stop,
            }),
            Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => {
                self.load.waiting.fetch_sub(1, Ordering::Relaxed);
                Err(Full)
            }
        }
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
/// whose request is gone.
fn serve_jobs(mut work: Work, jobs: &Receiver<Job>, load: &Load) {
    while let Ok(job) = jobs.recv() {
        load.waiting.fetch_sub(1, Ordering::Relaxed);
        if job.stop.is_stopped() || job.reply.is_closed() {
            continue;
        }
        load.busy.fetch_add(1, Ordering::Relaxed);
        let answer = work(&job.task, &job.stop);
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
            (!stop.is_stopped()).then(|| Answer {
                moves: String::new(),
                scores: vec![Some(task.moves.len() as i32)],
                best: vec![1],
                score: 0,
                nodes: 0,
                time_us: 0,
                pv: None,
                book: false,
            })
        })
    }

    fn task(moves: &str) -> Task {
        Task {
            moves: moves.into(),
            position: super::super::answer::Position::new(
                c4solver::Playable::<7, 6>::parse("").unwrap(),
            ),
            weak: false,
            pv: false,
        }
    }

    #[tokio::test]
    async fn answers_and_refuses_when_full() {
        let pool = Pool::start(vec![echo()], 1).unwrap();
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
        assert_eq!(waiting.answer().await, None);
    }

    #[tokio::test]
    async fn every_thread_takes_tasks_from_the_one_queue() {
        let pool = Pool::start(vec![echo(), echo(), echo()], 8).unwrap();
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
        let pool = Pool::start(vec![echo()], 4).unwrap();
        let waiting = pool.submit(task("wait")).unwrap();
        while pool.busy() == 0 {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        drop(waiting);
        let mut next = pool.submit(task("ab")).unwrap();
        assert_eq!(next.answer().await.unwrap().scores, vec![Some(2)]);
    }
}
