//! The sessions of all open pages: created on request up to a limit (further tabs are refused
//! with a clear message), found by their id, dropped (with their engines) when their page has
//! not asked for anything for a while, and ticked ten times a second.

use super::session::Shared;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use std::thread;
use std::time::Duration;
use vorpal_tuning::arena::engine_process::EngineConfig;

/// Pages served at once; each has its own game and engines.
pub const MAX_SESSIONS: usize = 8;
/// A page silent for this long is taken as closed.
const IDLE: Duration = Duration::from_secs(90);
/// The throttle: engine output reaches the pages at most this often.
const TICK: Duration = Duration::from_millis(100);

/// All sessions.
pub struct Hub {
    engines: Arc<Vec<EngineConfig>>,
    sessions: Mutex<HashMap<String, Arc<Shared>>>,
    counter: Mutex<u64>,
}

impl Hub {
    /// A hub for `engines`, with its ticker thread.
    pub fn new(engines: Vec<EngineConfig>) -> Arc<Hub> {
        let hub = Arc::new(Hub {
            engines: Arc::new(engines),
            sessions: Mutex::new(HashMap::new()),
            counter: Mutex::new(0),
        });
        let weak: Weak<Hub> = Arc::downgrade(&hub);
        let spawned = thread::Builder::new().name("gui-ticker".into()).spawn(move || {
            while let Some(hub) = weak.upgrade() {
                hub.tick();
                drop(hub);
                thread::sleep(TICK);
            }
        });
        if let Err(e) = spawned {
            log::error!("cannot start the ticker thread: {e}");
        }
        hub
    }

    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Shared>>> {
        self.sessions.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A new session and its id, or an error when too many pages are open.
    pub fn create(&self) -> Result<(String, Arc<Shared>), String> {
        self.expire();
        let mut map = self.map();
        if map.len() >= MAX_SESSIONS {
            return Err(format!(
                "too many open pages ({MAX_SESSIONS}); close another tab of this GUI and reload"
            ));
        }
        let id = {
            let mut c = self.counter.lock().unwrap_or_else(|p| p.into_inner());
            *c += 1;
            // Unguessable enough for a loopback server: a counter mixed with the clock.
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64);
            format!("{:x}{:x}", *c, nanos.wrapping_mul(0x9E37_79B9_7F4A_7C15))
        };
        let shared = Shared::new(self.engines.clone());
        map.insert(id.clone(), shared.clone());
        Ok((id, shared))
    }

    /// The session `id`.
    pub fn get(&self, id: &str) -> Option<Arc<Shared>> {
        self.map().get(id).cloned()
    }

    /// Ends session `id` (its page closed).
    pub fn close(&self, id: &str) -> bool {
        let gone = self.map().remove(id);
        gone.map(|s| s.close()).is_some()
    }

    /// Drops sessions whose page went away.
    fn expire(&self) {
        let gone: Vec<Arc<Shared>> = {
            let mut map = self.map();
            let old: Vec<String> = map
                .iter()
                .filter(|(_, s)| s.lock().last_seen.elapsed() > IDLE)
                .map(|(k, _)| k.clone())
                .collect();
            old.iter().filter_map(|k| map.remove(k)).collect()
        };
        for s in gone {
            s.close();
        }
    }

    fn tick(&self) {
        let all: Vec<Arc<Shared>> = self.map().values().cloned().collect();
        for s in all {
            s.tick();
        }
        self.expire();
    }
}
