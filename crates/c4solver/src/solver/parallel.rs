//! Several threads on one position (Lazy SMP): the tuned search over a [shared
//! table](crate::table::shared), every thread searching the same root.
//!
//! * **Who searches.** The calling thread (the *owner*) publishes the root and
//!   searches it with [`Tuned::search`] over its handle on the shared table; every
//!   *helper* runs the same search of the same root over its own handle on
//!   the same table ([`Share::share`]). They are the solver's own threads
//!   ([`TeamSearch::new`] with `helpers > 0`) or any other thread lent through a
//!   [`Helper`] (the command line lends its idle workers at the end of a stream).
//!   A helper joins a root once it has been searched for a while (`delay`), so
//!   that easy positions never pay for waking threads.
//! * **How the work is split.** Through the table, and the marks of the nodes
//!   being searched ([`Busy`]): in the first plies below the root, each thread
//!   marks the nodes it is in and searches last the children another thread is
//!   in, so the threads spread over different subtrees, and each finds in the
//!   table what the others finished. At the root, the threads share the bounds
//!   of the score they prove ([`RootBounds`]): one helper asks the window after
//!   0 while the others ask at 0, and a window another thread's answer settled
//!   is given up. On the AMD EPYC host two threads explore 1.02-1.07x the one
//!   thread's nodes on the empty board (`docs/threads.md`, with the designs
//!   that lost: a skewed move order per helper, skewed windows, a split of the
//!   root's moves).
//! * **Exact.** Every thread runs the whole exact search; whichever finishes
//!   first gives the answer and stops the others. Every entry any thread reads is
//!   a true bound, so every thread's answer is the exact one.
//! * **Counted.** The nodes reported are the sum over the threads, up to the
//!   moment each of them stopped.
//! * **Stopped.** Every thread polls a child of the owner's [`StopFlag`]: the
//!   caller's stop reaches them all, and the end of the search stops the helpers
//!   without touching the caller's flag. The owner returns only after every helper
//!   has left the search, so the table can be cleared and the next root searched.

use crate::bits::Bits;
use std::fmt::Debug;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;
// `std::time::Instant` panics on wasm32-unknown-unknown; web-time is std's elsewhere.
use web_time::Instant;

use crate::position::Board;
use crate::solver::busy::Busy;
use crate::solver::root::RootBounds;
use crate::solver::stop::StopFlag;
use crate::solver::tuned::Tuned;
use crate::table::{Share, TableError};
use crate::threads;

/// How long the solver's own helpers let a search run alone before they join it:
/// long enough that an easy position (microseconds) never wakes them, short next
/// to a hard one.
pub(crate) const JOIN_AFTER: Duration = Duration::from_millis(1);

/// The root being searched.
#[derive(Clone, Debug)]
struct Job<const W: usize, const H: usize, B: Bits> {
    pos: Board<W, H, B>,
    alpha: i32,
    beta: i32,
    started: Instant,
    /// Set when the search is over (or the caller stopped it).
    flag: StopFlag,
}

#[derive(Debug)]
struct State<const W: usize, const H: usize, B: Bits> {
    job: Option<Job<W, H, B>>,
    /// Helpers searching the job now.
    active: usize,
    /// Nodes of each helper that left the job, in the order they left.
    nodes: Vec<u64>,
    /// The first finished answer.
    result: Option<i32>,
    shutdown: bool,
}

/// What the owner and its helpers share.
#[derive(Debug)]
struct Team<const W: usize, const H: usize, B: Bits, T> {
    /// A handle on the shared table, cloned for each helper.
    handle: T,
    /// The marks of the nodes the threads are searching.
    busy: Arc<Busy>,
    /// The bounds of the root's score the threads have proved.
    root: Arc<RootBounds>,
    /// Searches of helpers that left, kept for the next join: a helper reuses one
    /// instead of allocating a near table (2 MB) per join.
    spares: Mutex<Vec<Tuned<W, H, B, T>>>,
    state: Mutex<State<W, H, B>>,
    changed: Condvar,
}

impl<const W: usize, const H: usize, B: Bits, T> Team<W, H, B, T>
where
    T: Share + Debug + Send + Sync + 'static,
{
    fn lock(&self) -> MutexGuard<'_, State<W, H, B>> {
        // A helper that panicked cannot leave the state inconsistent: each change
        // is made whole under the lock.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// One more thread's search over the shared table, with a near table of its own.
    fn searcher(&self) -> Result<Tuned<W, H, B, T>, TableError> {
        let mut t = Tuned::<W, H, B, T>::new(self.handle.share())?;
        t.set_busy(self.busy.clone());
        t.set_root(self.root.clone(), true);
        Ok(t)
    }

    /// Joins the running search once it is `delay` old (waiting for that unless it
    /// ends first) and searches with it until it ends; with `wait`, first waits for
    /// a search to start. Returns false if there was nothing to join (or the team
    /// shuts down).
    fn help(&self, delay: Duration, wait: bool) -> bool {
        let mut st = self.lock();
        let job = loop {
            if st.shutdown {
                return false;
            }
            match &st.job {
                Some(job) if !job.flag.is_stopped() => {
                    let age = job.started.elapsed();
                    if age >= delay {
                        break job.clone();
                    }
                    st = self
                        .changed
                        .wait_timeout(st, delay - age)
                        .unwrap_or_else(|e| e.into_inner())
                        .0;
                }
                _ if wait => st = self.changed.wait(st).unwrap_or_else(|e| e.into_inner()),
                _ => return false,
            }
        };
        st.active += 1;
        drop(st);
        let spare = self.spares.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let Some(mut tuned) = spare.or_else(|| self.searcher().ok()) else {
            // No memory for this thread's near table: it does not join, and the
            // threads searching go on (same answer, one helper fewer).
            self.lock().active -= 1;
            self.changed.notify_all();
            return false;
        };
        // A new root: nothing of the last one's deepest nodes is kept (they would
        // be true bounds still, but each root starts from empty tables).
        tuned.clear_near();
        tuned.set_stop_flag(job.flag.clone());
        self.busy.join();
        let (score, nodes) = tuned.search(&job.pos, job.alpha, job.beta);
        self.busy.part();
        let finished = !tuned.stopped();
        self.spares
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(tuned);
        let mut st = self.lock();
        st.active -= 1;
        st.nodes.push(nodes);
        if finished && st.result.is_none() {
            st.result = Some(score);
            // The answer is known: the owner and the other helpers stop.
            job.flag.stop();
        }
        drop(st);
        self.changed.notify_all();
        true
    }
}

/// A thread's way into a solver's searches, from any thread: see
/// [`Solver::helper`](crate::Solver::helper) (the pool's idle workers join
/// searches with it).
#[derive(Clone)]
pub(crate) struct Helper {
    team: Arc<dyn Join>,
}

impl Debug for Helper {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Helper")
    }
}

/// [`Team::help`] without the board size and table type.
trait Join: Send + Sync {
    fn help(&self, delay: Duration, wait: bool) -> bool;
}

impl<const W: usize, const H: usize, B: Bits, T> Join for Team<W, H, B, T>
where
    T: Share + Debug + Send + Sync + 'static,
{
    fn help(&self, delay: Duration, wait: bool) -> bool {
        Team::help(self, delay, wait)
    }
}

impl Helper {
    /// Joins the search its solver is running now, once that search has run for
    /// `delay` (waiting for that, unless it ends first), and searches with it on the
    /// calling thread until it ends; the solver's answer then counts this thread's
    /// nodes too. Returns at once, false, if the solver is not searching.
    pub(crate) fn help(&self, delay: Duration) -> bool {
        self.team.help(delay, false)
    }
}

/// The tuned search of one root by the calling thread and its helpers over one
/// shared table `T` (a [`SharedTable`](crate::table::SharedTable)).
#[derive(Debug)]
pub struct TeamSearch<const W: usize, const H: usize, B: Bits, T>
where
    T: Share + Debug + Send + Sync + 'static,
{
    team: Arc<Team<W, H, B, T>>,
    own: Tuned<W, H, B, T>,
    /// The caller's flag; each search polls a child of it.
    user: StopFlag,
    threads: Vec<JoinHandle<()>>,
    stopped: bool,
    /// Nodes of each thread in the last search, the caller's first.
    last_nodes: Vec<u64>,
}

impl<const W: usize, const H: usize, B: Bits, T> TeamSearch<W, H, B, T>
where
    T: Share + Debug + Send + Sync + 'static,
{
    /// A search over `handle`'s table with `helpers` threads of its own, which
    /// join each search after `delay` (`JOIN_AFTER` is the solver's choice).
    /// Other threads of the library (its batch pool) can join it too.
    ///
    /// # Errors
    /// [`TableError::Threads`] if the helper threads cannot all be started (those
    /// that were are stopped and joined before it returns), or
    /// [`TableError::OutOfMemory`] if the marks of the nodes being searched
    /// cannot be allocated.
    pub fn new(handle: T, helpers: usize, delay: Duration) -> Result<Self, TableError> {
        let team = Arc::new(Team {
            handle: handle.share(),
            busy: Arc::new(Busy::new()?),
            root: Arc::new(RootBounds::new()),
            spares: Mutex::new(Vec::new()),
            state: Mutex::new(State {
                job: None,
                active: 0,
                nodes: Vec::new(),
                result: None,
                shutdown: false,
            }),
            changed: Condvar::new(),
        });
        let mut own = Tuned::new(handle)?;
        own.set_busy(team.busy.clone());
        own.set_root(team.root.clone(), false);
        let mut search = TeamSearch {
            team,
            own,
            user: StopFlag::new(),
            threads: Vec::with_capacity(helpers),
            stopped: false,
            last_nodes: Vec::new(),
        };
        for _ in 0..helpers {
            let team = search.team.clone();
            let (started, running) = threads::handshake();
            let spawned = threads::room().and_then(|()| {
                std::thread::Builder::new()
                    .name("c4solver-helper".into())
                    .spawn(move || {
                        started.now();
                        while team.help(delay, true) {}
                    })
            });
            match spawned {
                Ok(handle) => {
                    running.wait();
                    search.threads.push(handle);
                }
                // Dropping the search shuts down and joins the helpers started.
                Err(e) => {
                    return Err(TableError::Threads {
                        count: helpers,
                        reason: e.to_string(),
                    });
                }
            }
        }
        Ok(search)
    }

    /// The nodes of each thread that took part in the last search: the calling
    /// thread's first, then each helper's (their sum is the search's count).
    #[cfg(any(test, feature = "research"))]
    pub fn thread_nodes(&self) -> &[u64] {
        &self.last_nodes
    }

    /// Threads that search each root: the caller and the search's own helpers.
    pub fn threads(&self) -> usize {
        1 + self.threads.len()
    }

    /// A handle through which another thread can join this search's roots.
    pub(crate) fn helper(&self) -> Helper {
        Helper {
            team: self.team.clone(),
        }
    }

    /// Makes every thread of later searches poll `flag` (through a child of it).
    pub fn set_stop_flag(&mut self, flag: StopFlag) {
        self.user = flag;
    }

    /// Whether the last search was stopped by the caller's flag before any thread
    /// found the answer.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Empties the table (no search is running: [`TeamSearch::search`] returns
    /// only once every helper has left).
    pub fn clear(&mut self) {
        self.own.clear();
    }

    /// Faults the shared table and this thread's near table in now
    /// (`Table::prefault`; the helpers' near
    /// tables are faulted as they are used). No search is running, as for
    /// [`TeamSearch::clear`].
    pub fn prefault(&mut self) {
        self.own.prefault();
    }

    /// The table handle of the calling thread.
    #[cfg(feature = "research")]
    pub fn table(&self) -> &T {
        self.own.table()
    }

    /// Searches `pos` in `[alpha, beta]` with every thread that joins, and returns
    /// the score ([`Tuned::search`]'s) with the nodes of all threads.
    pub fn search(&mut self, pos: &Board<W, H, B>, alpha: i32, beta: i32) -> (i32, u64) {
        let flag = self.user.child();
        self.own.set_stop_flag(flag.clone());
        {
            let mut st = self.team.lock();
            // No helper is on the last root any more (`search` waited for them).
            self.team.root.reset();
            st.job = Some(Job {
                pos: *pos,
                alpha,
                beta,
                started: Instant::now(),
                flag: flag.clone(),
            });
            st.result = None;
            st.nodes.clear();
        }
        self.team.changed.notify_all();
        let (score, nodes) = self.own.search(pos, alpha, beta);
        let finished = !self.own.stopped();
        flag.stop();
        let mut st = self.team.lock();
        if finished && st.result.is_none() {
            st.result = Some(score);
        }
        while st.active > 0 {
            st = self
                .team
                .changed
                .wait(st)
                .unwrap_or_else(|e| e.into_inner());
        }
        let result = st.result;
        self.last_nodes.clear();
        self.last_nodes.push(nodes);
        self.last_nodes.extend_from_slice(&st.nodes);
        let total = self.last_nodes.iter().sum();
        st.job = None;
        drop(st);
        self.team.changed.notify_all();
        self.stopped = result.is_none();
        (result.unwrap_or(0), total)
    }
}

impl<const W: usize, const H: usize, B: Bits, T> Drop for TeamSearch<W, H, B, T>
where
    T: Share + Debug + Send + Sync + 'static,
{
    fn drop(&mut self) {
        self.team.lock().shutdown = true;
        self.team.changed.notify_all();
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;
    use crate::table::{Narrow, SharedTable, Wide};

    fn team(mb: usize, helpers: usize) -> TeamSearch<7, 6, u64, SharedTable<Narrow>> {
        let table = SharedTable::for_board::<7, 6>(mb).unwrap();
        TeamSearch::new(table, helpers, Duration::ZERO).unwrap()
    }

    #[test]
    fn a_team_gives_the_exact_scores() {
        let mut t = team(64, 3);
        assert_eq!(t.threads(), 4);
        for (moves, score) in [
            ("44455554221", -15),
            ("4455", 18),
            ("274552224131661", 0),
            ("32164625", 11),
        ] {
            let p = Position::parse(moves).unwrap();
            t.clear();
            assert_eq!(t.search(&p, -21, 21).0, score, "{moves}");
            assert!(!t.stopped());
        }
    }

    #[test]
    fn the_callers_flag_stops_every_thread() {
        let mut t = team(64, 2);
        let flag = StopFlag::new();
        t.set_stop_flag(flag.clone());
        flag.stop();
        let (_, nodes) = t.search(&Position::new(), -21, 21);
        assert!(t.stopped());
        assert!(nodes < 3 * 2 * crate::solver::stop::POLL_INTERVAL);
        flag.reset();
        let p = Position::parse("44455554221").unwrap();
        assert_eq!(t.search(&p, -21, 21).0, -15);
        assert!(!t.stopped());
    }

    #[test]
    fn a_lent_thread_joins_and_its_nodes_count() {
        use std::sync::atomic::{AtomicBool, Ordering};
        let table = SharedTable::<Wide>::for_board::<7, 6>(4).unwrap();
        let mut t = TeamSearch::<7, 6, u64, _>::new(table, 0, Duration::ZERO).unwrap();
        let helper = t.helper();
        assert!(!helper.help(Duration::ZERO), "nothing to join");
        // A Begin-Easy position: millions of nodes, time for the lent thread to join.
        let p = Position::parse("6146").unwrap();
        let done = AtomicBool::new(false);
        let joined = std::thread::scope(|s| {
            let lent = s.spawn(|| {
                let mut joined = false;
                while !joined && !done.load(Ordering::SeqCst) {
                    joined = helper.help(Duration::ZERO);
                }
                joined
            });
            assert_eq!(t.search(&p, -21, 21).0, 18);
            done.store(true, Ordering::SeqCst);
            lent.join().unwrap()
        });
        let per_thread = t.thread_nodes();
        assert_eq!(per_thread.len(), if joined { 2 } else { 1 });
        assert!(per_thread.iter().all(|&n| n > 0) || !joined);
    }
}
