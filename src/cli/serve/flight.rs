//! One search per answer at a time: requests for an answer that a search is
//! already finding wait for that search instead of starting their own.
//!
//! A search is a [`Shared`] future over the solver thread's [`Ticket`]: every
//! request waiting for it holds a clone, any of them drives it, and the search
//! goes on while at least one is held. When the last one is dropped (every
//! client hung up or timed out), the future is dropped with its ticket, which
//! stops the search. The answer is put in the cache by the shared future
//! itself, once, whoever is still waiting.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use futures_util::FutureExt;
use futures_util::future::{BoxFuture, Shared, WeakShared};

use super::answer::Answer;
use super::cache::{Cache, Key};
use super::pool::{Failure, Full, Started, Ticket};

/// A search's outcome, as every request waiting for it sees it.
pub type Searched = Result<Arc<Answer>, Failure>;

/// A search that requests share.
pub type Search = Shared<BoxFuture<'static, Searched>>;

/// One request's part in a search.
pub struct Flight {
    /// The search: await a clone of it.
    pub search: Search,
    /// When a solver thread took it.
    pub started: Started,
    /// Whether this request started it (false: it joined one under way).
    pub led: bool,
}

/// A search under way: its number, the search, and its start.
type Entry = (u64, WeakShared<BoxFuture<'static, Searched>>, Started);

/// The searches under way, by answer.
#[derive(Default)]
pub struct Flights {
    map: Mutex<HashMap<Key, Entry>>,
    next: AtomicU64,
}

/// Takes a finished or abandoned search out of the map (if it is still the
/// one there) when its future is dropped.
struct Leave {
    flights: Arc<Flights>,
    key: Key,
    id: u64,
}

impl Drop for Leave {
    fn drop(&mut self) {
        let mut map = self.flights.lock();
        if map.get(&self.key).is_some_and(|e| e.0 == self.id) {
            map.remove(&self.key);
        }
    }
}

/// The answer from the cache, or the search that will find it.
pub enum Found {
    /// Cached.
    Cached(Arc<Answer>),
    /// Being searched.
    Searching(Flight),
}

impl Flights {
    fn lock(&self) -> MutexGuard<'_, HashMap<Key, Entry>> {
        // The map stays consistent if a holder panicked: keep using it.
        self.map.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Searches under way.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// The search for `key`: the one under way, or the answer if the cache got
    /// it meanwhile, or a new one from `submit`, whose answer goes to `cache`.
    ///
    /// # Errors
    /// [`Full`] from `submit`.
    pub fn join(
        self: &Arc<Self>,
        key: Key,
        cache: &Arc<Cache>,
        submit: impl FnOnce() -> Result<Ticket, Full>,
    ) -> Result<Found, Full> {
        let mut map = self.lock();
        if let Some((_, weak, started)) = map.get(&key)
            && let Some(search) = weak.upgrade()
        {
            let started = started.clone();
            return Ok(Found::Searching(Flight {
                search,
                started,
                led: false,
            }));
        }
        // A search that ended between the caller's look in the cache and now
        // left its answer there.
        if let Some(answer) = cache.get(&key) {
            return Ok(Found::Cached(answer));
        }
        let mut ticket = submit()?;
        let started = ticket.started();
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let leave = Leave {
            flights: self.clone(),
            key,
            id,
        };
        let cache = cache.clone();
        let search = async move {
            // Dropped last: the answer is in the cache before the search
            // leaves the map.
            let _leave = leave;
            let outcome = ticket.answer().await.map(Arc::new);
            if let Ok(answer) = &outcome {
                cache.put(key, answer.clone());
            }
            outcome
        }
        .boxed()
        .shared();
        // Always there: a search not yet polled has not ended.
        if let Some(weak) = search.downgrade() {
            map.insert(key, (id, weak, started.clone()));
        }
        Ok(Found::Searching(Flight {
            search,
            started,
            led: true,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::serve::answer::{Position, Task};
    use crate::cli::serve::pool::{Pool, Work};
    use c4solver::StopFlag;
    use prometheus_client::metrics::counter::Counter;
    use std::sync::atomic::AtomicBool;
    use std::time::Duration;

    /// A search that runs until `go` is set (then answers) or its flag stops it.
    fn work(go: Arc<AtomicBool>) -> Work {
        Box::new(move |_: &Task, stop: &StopFlag| {
            while !go.load(Ordering::Relaxed) && !stop.is_stopped() {
                std::thread::sleep(Duration::from_millis(1));
            }
            if stop.is_stopped() {
                return Err(Failure::Stopped);
            }
            Ok(Answer {
                moves: String::new(),
                scores: vec![Some(7)],
                best: vec![1],
                score: 7,
                nodes: 1,
                time_us: 0,
                pv: None,
                book: false,
            })
        })
    }

    fn task() -> Task {
        Task {
            moves: String::new(),
            position: Position::new(c4solver::Size::STANDARD).unwrap(),
            weak: false,
            pv: false,
        }
    }

    /// Waits until `done` holds, at most 30 s.
    async fn until(done: impl Fn() -> bool) {
        for _ in 0..30_000 {
            if done() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        panic!("never happened");
    }

    fn searching(found: Found) -> Flight {
        match found {
            Found::Searching(flight) => flight,
            Found::Cached(_) => panic!("cached"),
        }
    }

    #[tokio::test]
    async fn a_search_outlives_its_first_request_and_stops_with_its_last() {
        let go = Arc::new(AtomicBool::new(false));
        let searches = Counter::default();
        let pool = Pool::start(vec![work(go.clone())], 4, searches.clone()).unwrap();
        let (flights, cache) = (Arc::new(Flights::default()), Arc::new(Cache::new(8)));
        let key = (c4solver::Size::STANDARD, 1, false, false);
        let join = || searching(flights.join(key, &cache, || pool.submit(task())).unwrap());
        let (first, second) = (join(), join());
        assert!(first.led && !second.led);
        assert_eq!(flights.len(), 1);
        drop(first);
        go.store(true, Ordering::Relaxed);
        assert_eq!(second.search.await.unwrap().score, 7);
        assert_eq!(cache.get(&key).unwrap().score, 7, "the search kept it");
        assert_eq!(flights.len(), 0);
        assert!(matches!(
            flights.join(key, &cache, || pool.submit(task())),
            Ok(Found::Cached(_))
        ));
        // Another answer, whose every request goes away: its search stops.
        go.store(false, Ordering::Relaxed);
        let other = (c4solver::Size::STANDARD, 2, false, false);
        let a = searching(flights.join(other, &cache, || pool.submit(task())).unwrap());
        let b = searching(flights.join(other, &cache, || pool.submit(task())).unwrap());
        until(|| pool.busy() == 1).await;
        drop((a, b));
        assert_eq!(flights.len(), 0);
        until(|| pool.busy() == 0).await;
        assert!(cache.get(&other).is_none(), "stopped, not answered");
        assert_eq!(searches.get(), 2);
    }
}
