//! The session's handle on one engine of a page in the browser build ([`EngineWorker`]: the
//! native build's name; dropping it ends the engine's Worker), and the browser as the page's
//! host ([`BrowserHost`]): engines are links of the page's [`EnginePool`], and the game report is
//! not offered (`vorpal gui` runs it on a server thread with the engine in process; here the
//! page's own thread would freeze for its minutes).

use super::engine_pool::{EnginePool, Listener};
use super::link::Link;
use std::sync::Arc;
use vorpal_client::engine_process::EngineConfig;
use vorpal_engine::Rules;
use vorpal_page::engine_talk::{with_extra, Job};
use vorpal_page::host::{EngineLink, EventSink, PageHost};
use vorpal_page::review::ReviewJob;

/// The session's handle on an engine. Dropping it ends the engine's Worker.
pub struct EngineWorker {
    link: u32,
    pool: Arc<EnginePool>,
}

impl EngineWorker {
    /// Starts `config` under `rules` with `extra` options (set after the configured ones);
    /// `on_event` receives everything it reports. Fails when the page runs its most engines.
    pub fn spawn(
        pool: &Arc<EnginePool>,
        config: EngineConfig,
        rules: Rules,
        extra: Vec<(String, String)>,
        on_event: EventSink,
    ) -> Result<EngineWorker, String> {
        let config = with_extra(config, extra);
        let listener: Listener = Arc::from(on_event);
        let link = pool.open(Link::new(&config, rules), listener)?;
        Ok(EngineWorker {
            link,
            pool: pool.clone(),
        })
    }

    /// Sends a request (it makes no report at once: those come with the engine's lines).
    pub fn send(&self, job: Job) {
        self.pool.with_link(self.link, |link| {
            link.job(job);
            Vec::new()
        });
    }
}

impl Drop for EngineWorker {
    fn drop(&mut self) {
        self.pool.close(self.link);
    }
}

impl EngineLink for EngineWorker {
    fn send(&self, job: Job) {
        EngineWorker::send(self, job);
    }
}

/// The browser as the host of a page's session.
pub struct BrowserHost {
    pool: Arc<EnginePool>,
}

impl BrowserHost {
    /// The host of a session whose engines are links of `pool`.
    pub fn new(pool: Arc<EnginePool>) -> Arc<BrowserHost> {
        Arc::new(BrowserHost { pool })
    }
}

impl PageHost for BrowserHost {
    fn start_engine(
        &self,
        config: EngineConfig,
        rules: Rules,
        extra: Vec<(String, String)>,
        on_event: EventSink,
    ) -> Result<Box<dyn EngineLink>, String> {
        Ok(Box::new(EngineWorker::spawn(
            &self.pool, config, rules, extra, on_event,
        )?))
    }

    fn is_closed(&self) -> bool {
        self.pool.is_closed()
    }

    fn start_review(&self, _job: ReviewJob) -> Result<u64, String> {
        Err("the game report is not in the browser build yet: it runs in `vorpal gui`".into())
    }
}
