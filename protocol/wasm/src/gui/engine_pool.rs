//! The engines of a page in the browser build: each is a link to a Web Worker that the page's
//! JavaScript owns. The module never talks to a Worker itself; it queues [`Request`]s (start
//! a Worker, send it a line, end it) that the page takes with [`EnginePool::take_requests`],
//! and the page hands each line the Worker prints back with [`EnginePool::line`]. A link's
//! handshake and searches are run by [`Link`].

use super::link::Link;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};
use vorpal_page::engine_talk::Event;

/// Engines a page may run at once (two in the engine-against-engine mode).
pub const MAX_ENGINES: usize = 2;

/// What the page's JavaScript is asked to do with the Workers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase", tag = "do")]
pub enum Request {
    /// Start a Worker for link `link`.
    Start {
        /// The link's number.
        link: u32,
    },
    /// Post `line` to link `link`'s Worker.
    Send {
        /// The link's number.
        link: u32,
        /// One UCI command.
        line: String,
    },
    /// End link `link`'s Worker.
    End {
        /// The link's number.
        link: u32,
    },
}

/// Reports a link makes, delivered to the session outside the pool's lock.
pub(super) type Listener = Arc<dyn Fn(Event) + Send + Sync>;

#[derive(Default)]
struct Links {
    next: u32,
    live: BTreeMap<u32, (Link, Listener)>,
    requests: Vec<Request>,
}

/// The page's engine links and the requests for its JavaScript.
#[derive(Default)]
pub struct EnginePool {
    links: Mutex<Links>,
}

impl EnginePool {
    /// An empty pool.
    pub fn new() -> Arc<EnginePool> {
        Arc::new(EnginePool::default())
    }

    fn lock(&self) -> MutexGuard<'_, Links> {
        self.links.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Never closing: a page's engines end with the page.
    pub fn is_closed(&self) -> bool {
        false
    }

    /// Opens a link run by `link` (it has queued its first lines); its reports go to
    /// `listener`. Fails when the page has [`MAX_ENGINES`] already.
    pub(super) fn open(&self, link: Link, listener: Listener) -> Result<u32, String> {
        let mut links = self.lock();
        if links.live.len() >= MAX_ENGINES {
            return Err(format!("a page runs at most {MAX_ENGINES} engines"));
        }
        links.next += 1;
        let id = links.next;
        links.requests.push(Request::Start { link: id });
        let mut link = link;
        let lines = link.take_lines();
        links
            .requests
            .extend(lines.into_iter().map(|line| Request::Send { link: id, line }));
        links.live.insert(id, (link, listener));
        Ok(id)
    }

    /// Runs `f` on link `id` (if it lives), queues what it sends and delivers what it
    /// reports.
    pub(super) fn with_link(&self, id: u32, f: impl FnOnce(&mut Link) -> Vec<Event>) {
        let (events, listener) = {
            let mut links = self.lock();
            let Some((link, listener)) = links.live.get_mut(&id) else {
                return;
            };
            let events = f(link);
            let lines = link.take_lines();
            let listener = listener.clone();
            links
                .requests
                .extend(lines.into_iter().map(|line| Request::Send { link: id, line }));
            (events, listener)
        };
        for event in events {
            listener(event);
        }
    }

    /// Ends link `id`: its Worker is to be ended; what it says later is dropped.
    pub(super) fn close(&self, id: u32) {
        let mut links = self.lock();
        if links.live.remove(&id).is_some() {
            links.requests.push(Request::End { link: id });
        }
    }

    /// A line link `id`'s Worker printed.
    pub fn line(&self, id: u32, line: &str) {
        self.with_link(id, |link| link.read(line));
    }

    /// Link `id`'s Worker failed (it could not start, or it threw): the link ends and the
    /// session is told why.
    pub fn failed(&self, id: u32, why: &str) {
        self.with_link(id, |link| vec![link.failure(why)]);
        self.close(id);
    }

    /// The requests queued since the last call, in order.
    pub fn take_requests(&self) -> Vec<Request> {
        std::mem::take(&mut self.lock().requests)
    }

    /// True when no request waits.
    #[cfg(test)]
    pub(super) fn lock_is_quiet(&self) -> bool {
        self.lock().requests.is_empty()
    }
}
