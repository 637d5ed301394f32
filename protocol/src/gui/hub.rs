//! The sessions of all open pages: created on request up to a limit (further tabs are refused
//! with a clear message), found by their 128-bit random id, and ended with their engines when
//! their page has gone quiet. Only the page's own HTTP requests count as activity (a pending long
//! poll included); the ticker that folds engine output in ten times a second never does. A page
//! that says it closes keeps its session a few seconds more, so a reload can rejoin it.

use super::engine_pool::EnginePool;
use super::host::ServerHost;
use super::secret::{random_hex, SESSION_BITS};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::thread;
use std::time::{Duration, Instant};
use vorpal_client::engine_process::EngineConfig;
use vorpal_page::session::Shared;

/// Pages served at once; each has its own game and engines.
pub const MAX_SESSIONS: usize = 8;
/// A page silent for this long is taken as closed, unless `--session-timeout` says otherwise.
pub const DEFAULT_SESSION_TIMEOUT: Duration = Duration::from_secs(90);
/// How long a session outlives its page's close message (a reload rejoins it meanwhile).
const CLOSE_GRACE: Duration = Duration::from_secs(3);
/// The throttle: engine output reaches the pages at most this often.
const TICK: Duration = Duration::from_millis(100);

/// What the hub knows of a page's traffic.
struct Activity {
    last_request: Instant,
    polls: usize,
    poll_ticket: u64,
    closing: Option<Instant>,
}

struct Entry {
    shared: Arc<Shared>,
    activity: Activity,
}

/// A pending long poll; only the newest one of a session is current.
#[derive(Clone, Debug)]
pub struct Poll {
    id: String,
    ticket: u64,
}

/// All sessions.
pub struct Hub {
    engines: Arc<Vec<EngineConfig>>,
    pool: Arc<EnginePool>,
    timeout: Duration,
    sessions: Mutex<HashMap<String, Entry>>,
}

impl Hub {
    /// A hub for `engines` (at most `pool`'s number running), ending sessions silent for
    /// `timeout`, with its ticker thread.
    pub fn new(engines: Vec<EngineConfig>, pool: Arc<EnginePool>, timeout: Duration) -> Arc<Hub> {
        let hub = Arc::new(Hub {
            engines: Arc::new(engines),
            pool,
            timeout,
            sessions: Mutex::new(HashMap::new()),
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

    fn map(&self) -> MutexGuard<'_, HashMap<String, Entry>> {
        self.sessions.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A new session and its id, or an error when too many pages are open.
    pub fn create(&self) -> Result<(String, Arc<Shared>), String> {
        self.expire();
        if self.map().len() >= MAX_SESSIONS {
            return Err(format!(
                "too many open pages ({MAX_SESSIONS}); close another tab of this GUI and reload"
            ));
        }
        let id = random_hex(SESSION_BITS)?;
        // Made outside the map's lock: it starts an engine.
        let shared = Shared::new(self.engines.clone(), ServerHost::new(self.pool.clone()));
        let mut map = self.map();
        if map.len() >= MAX_SESSIONS {
            drop(map);
            shared.close();
            return Err(format!(
                "too many open pages ({MAX_SESSIONS}); close another tab of this GUI and reload"
            ));
        }
        map.insert(
            id.clone(),
            Entry {
                shared: shared.clone(),
                activity: Activity {
                    last_request: Instant::now(),
                    polls: 0,
                    poll_ticket: 0,
                    closing: None,
                },
            },
        );
        Ok((id, shared))
    }

    /// The session `id`, for a request of its page (which counts as activity).
    pub fn visit(&self, id: &str) -> Option<Arc<Shared>> {
        let mut map = self.map();
        let entry = map.get_mut(id)?;
        entry.activity.last_request = Instant::now();
        entry.activity.closing = None;
        Some(entry.shared.clone())
    }

    /// Session `id` again for a reloaded page: only while its page has said it closes or has no
    /// poll pending (so a duplicated tab, whose original still polls, gets a session of its own).
    pub fn rejoin(&self, id: &str) -> Option<Arc<Shared>> {
        let mut map = self.map();
        let entry = map.get_mut(id)?;
        let a = &mut entry.activity;
        if a.closing.is_none() && a.polls > 0 {
            return None;
        }
        a.last_request = Instant::now();
        a.closing = None;
        Some(entry.shared.clone())
    }

    /// Starts a long poll of session `id`; an older pending poll of it stops being current.
    pub fn begin_poll(&self, id: &str) -> Option<(Arc<Shared>, Poll)> {
        let mut map = self.map();
        let entry = map.get_mut(id)?;
        let a = &mut entry.activity;
        a.last_request = Instant::now();
        a.closing = None;
        a.polls += 1;
        a.poll_ticket += 1;
        let poll = Poll {
            id: id.to_string(),
            ticket: a.poll_ticket,
        };
        Some((entry.shared.clone(), poll))
    }

    /// True while `poll` is its session's newest poll (and the session lives).
    pub fn poll_is_current(&self, poll: &Poll) -> bool {
        self.map()
            .get(&poll.id)
            .is_some_and(|e| e.activity.poll_ticket == poll.ticket)
    }

    /// Ends a long poll (the page was just answered: activity).
    pub fn end_poll(&self, poll: &Poll) {
        if let Some(e) = self.map().get_mut(&poll.id) {
            e.activity.polls = e.activity.polls.saturating_sub(1);
            e.activity.last_request = Instant::now();
        }
    }

    /// The page of session `id` says it closes: the session ends soon unless the page comes
    /// back (a reload). False when there is no such session.
    pub fn close(&self, id: &str) -> bool {
        match self.map().get_mut(id) {
            Some(e) => {
                e.activity.closing = Some(Instant::now());
                true
            }
            None => false,
        }
    }

    /// Ends sessions whose page went away, with their engines.
    fn expire(&self) {
        let gone: Vec<Arc<Shared>> = {
            let mut map = self.map();
            let timeout = self.timeout;
            let old: Vec<String> = map
                .iter()
                .filter(|(_, e)| {
                    let a = &e.activity;
                    a.closing.is_some_and(|t| t.elapsed() > CLOSE_GRACE)
                        || (a.polls == 0 && a.last_request.elapsed() > timeout)
                })
                .map(|(k, _)| k.clone())
                .collect();
            old.iter().filter_map(|k| map.remove(k)).map(|e| e.shared).collect()
        };
        for s in gone {
            s.close();
        }
    }

    fn tick(&self) {
        let all: Vec<Arc<Shared>> = self.map().values().map(|e| e.shared.clone()).collect();
        for s in all {
            s.tick();
        }
        self.expire();
    }
}
