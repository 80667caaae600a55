//! Recent answers, least recently used dropped first, so that a position asked
//! again costs a lookup (bounded memory: `--cache` answers of at most a few
//! hundred bytes each), its memory taken as answers come: an empty cache holds
//! none, whatever `--cache` says.

use std::sync::{Arc, Mutex};

use lru::LruCache;

use c4solver::Size;

use super::answer::Answer;

/// An answer's key: the board size, the position's unique key on that board,
/// weak, with a line of play (a key is unique on one board only).
pub type Key = (Size, u128, bool, bool);

/// The cache (shared by every request; a lookup holds the lock for a hash probe).
pub struct Cache {
    map: Option<Mutex<LruCache<Key, Arc<Answer>>>>,
    capacity: usize,
}

impl Cache {
    /// A cache of at most `capacity` answers (0: no cache).
    pub fn new(capacity: usize) -> Cache {
        // Unbounded, bounded by `put`: `LruCache::new` reserves every entry at once.
        Cache {
            map: (capacity > 0).then(|| Mutex::new(LruCache::unbounded())),
            capacity,
        }
    }

    fn lock(&self) -> Option<std::sync::MutexGuard<'_, LruCache<Key, Arc<Answer>>>> {
        // A panic while holding the lock leaves a consistent map: keep using it.
        Some(self.map.as_ref()?.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// The answer kept for `key`, if any (it becomes the most recent); shared,
    /// so that a hit copies nothing.
    pub fn get(&self, key: &Key) -> Option<Arc<Answer>> {
        self.lock()?.get(key).cloned()
    }

    /// Keeps `answer` for `key`.
    pub fn put(&self, key: Key, answer: Arc<Answer>) {
        if let Some(mut map) = self.lock() {
            if map.len() >= self.capacity && !map.contains(&key) {
                map.pop_lru();
            }
            map.put(key, answer);
        }
    }

    /// Answers kept.
    pub fn len(&self) -> usize {
        self.lock().map_or(0, |m| m.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(score: i32) -> Answer {
        Answer {
            moves: String::new(),
            scores: vec![Some(score)],
            best: vec![1],
            score,
            nodes: 0,
            time_us: 0,
            pv: None,
            book: false,
        }
    }

    const S: Size = Size::STANDARD;

    #[test]
    fn keeps_the_most_recent() {
        let cache = Cache::new(2);
        cache.put((S, 1, false, false), Arc::new(answer(1)));
        cache.put((S, 2, false, false), Arc::new(answer(2)));
        assert_eq!(cache.get(&(S, 1, false, false)).unwrap().score, 1);
        cache.put((S, 3, false, false), Arc::new(answer(3)));
        assert!(
            cache.get(&(S, 2, false, false)).is_none(),
            "least recent dropped"
        );
        assert_eq!(cache.len(), 2);
        // Again an answer kept: nothing dropped.
        cache.put((S, 3, false, false), Arc::new(answer(5)));
        assert_eq!(cache.len(), 2);
        assert_eq!(cache.get(&(S, 1, false, false)).unwrap().score, 1);
        cache.put((S, 2, false, false), Arc::new(answer(4)));
        assert!(
            cache.get(&(S, 3, false, false)).is_none(),
            "3 was the least recent"
        );
        assert_eq!(cache.get(&(S, 1, false, false)).unwrap().score, 1);
        assert_eq!(cache.len(), 2);
        let none = Cache::new(0);
        none.put((S, 1, false, false), Arc::new(answer(1)));
        assert!(none.get(&(S, 1, false, false)).is_none());
    }

    #[test]
    fn one_key_on_two_boards_is_two_answers() {
        let cache = Cache::new(4);
        let other = Size::new(8, 7).unwrap();
        cache.put((S, 1, false, false), Arc::new(answer(1)));
        cache.put((other, 1, false, false), Arc::new(answer(2)));
        assert_eq!(cache.get(&(S, 1, false, false)).unwrap().score, 1);
        assert_eq!(cache.get(&(other, 1, false, false)).unwrap().score, 2);
    }
}
