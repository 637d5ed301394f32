//! Every engine process of the server, whatever page it serves: a global cap (`--max-engines`),
//! a handle to end each one at once (a restart, a closed page), and the shutdown that ends them
//! all (`quit` first, then a kill for those that ignore it).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use vorpal_client::engine_child::ChildHandle;

/// Engines that may run at once unless `--max-engines` says otherwise.
pub const DEFAULT_MAX_ENGINES: usize = 8;

/// The engines of one server.
pub struct EnginePool {
    max: usize,
    next: AtomicU64,
    closed: AtomicBool,
    live: Mutex<HashMap<u64, Arc<ChildHandle>>>,
}

/// One engine's place in the pool; dropping it kills the engine at once and frees the place.
pub struct EngineSlot {
    id: u64,
    pool: Arc<EnginePool>,
    /// The engine's process (killed through this from any thread).
    pub child: Arc<ChildHandle>,
}

impl Drop for EngineSlot {
    fn drop(&mut self) {
        self.child.kill();
        // A start that the kill cancelled keeps its place until its process is gone (the next
        // `reserve` drops it then), so the cap bounds processes, not only handles.
        let mut live = self.pool.map();
        if !self.child.is_running() {
            live.remove(&self.id);
        }
    }
}

/// How long `reserve` waits, at most, for cancelled starts to end their processes when only
/// they fill the cap (they end within milliseconds; a burst of restarts meets them).
const CANCELLED_START_WAIT: Duration = Duration::from_secs(2);

impl EnginePool {
    /// A pool for at most `max` engines.
    pub fn new(max: usize) -> Arc<EnginePool> {
        Arc::new(EnginePool {
            max,
            next: AtomicU64::new(1),
            closed: AtomicBool::new(false),
            live: Mutex::new(HashMap::new()),
        })
    }

    fn map(&self) -> MutexGuard<'_, HashMap<u64, Arc<ChildHandle>>> {
        self.live.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A place for one more engine, or why there is none. The engine it starts dies with the
    /// thread that starts it, so start it from the thread that drives it.
    pub fn reserve(self: &Arc<Self>) -> Result<EngineSlot, String> {
        let deadline = Instant::now() + CANCELLED_START_WAIT;
        let mut live = loop {
            if self.closed.load(Ordering::SeqCst) {
                return Err("the server is shutting down".into());
            }
            let mut live = self.map();
            live.retain(|_, child| child.is_running());
            if live.len() < self.max {
                break live;
            }
            let ending = live.values().any(|child| child.is_ending());
            drop(live);
            if !ending || Instant::now() >= deadline {
                return Err(format!(
                    "too many engines running ({} at most; `vorpal gui --max-engines N` allows \
                     more). Close another page of this GUI, then press Restart engine",
                    self.max
                ));
            }
            std::thread::sleep(Duration::from_millis(2));
        };
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let child = ChildHandle::ending_with_thread();
        live.insert(id, child.clone());
        Ok(EngineSlot {
            id,
            pool: self.clone(),
            child,
        })
    }

    /// Engines running (or starting) now.
    #[cfg(test)]
    pub fn running(&self) -> usize {
        let mut live = self.map();
        live.retain(|_, child| child.is_running());
        live.len()
    }

    /// True once the server is stopping (its engines end because it asked them to).
    pub fn is_closed(&self) -> bool {
        self.closed.load(Ordering::SeqCst)
    }

    /// Ends every engine: `quit` to each, up to `wait` for them to exit, then kills the rest.
    /// No engine starts afterwards.
    pub fn shutdown(&self, wait: Duration) {
        self.closed.store(true, Ordering::SeqCst);
        let all: Vec<Arc<ChildHandle>> = self.map().values().cloned().collect();
        for child in &all {
            child.try_quit();
        }
        let deadline = Instant::now() + wait;
        while Instant::now() < deadline && all.iter().any(|c| c.try_wait().is_none() && c.is_running()) {
            std::thread::sleep(Duration::from_millis(10));
        }
        for child in &all {
            child.kill();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_counts_live_engines_only() {
        let pool = EnginePool::new(2);
        let a = pool.reserve().unwrap();
        let b = pool.reserve().unwrap();
        let refused = pool.reserve().err().unwrap();
        assert!(refused.contains("--max-engines"), "{refused}");
        drop(a);
        let c = pool.reserve().unwrap();
        assert_eq!(pool.running(), 2);
        b.child.kill();
        assert_eq!(pool.running(), 1, "a killed engine frees its place at once");
        pool.shutdown(Duration::from_millis(10));
        assert!(pool.reserve().is_err());
        drop(c);
        assert_eq!(pool.running(), 0);
    }
}
