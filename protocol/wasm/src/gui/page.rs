//! One page's game in the browser build: a session like `vorpal gui`'s, whose engines are
//! Web Workers. The page's JavaScript sends it the same command objects it sends the server
//! (`/api/cmd`) and gets the same answers and views; it carries the requests of
//! [`EnginePool::take_requests`] to the Workers and their lines back.

use super::engine_pool::{EnginePool, Request};
use super::worker::BrowserHost;
use std::sync::Arc;
use vorpal_client::engine_process::EngineConfig;
use vorpal_page::commands::page_command;
use vorpal_page::session::Shared;

/// The engine the page offers: Vorpal in a Worker (the command is the package's Worker
/// script, started by the page's JavaScript).
fn worker_engine() -> EngineConfig {
    EngineConfig {
        name: "Vorpal".into(),
        cmd: "vorpal-worker.js".into(),
        ..EngineConfig::default()
    }
}

/// A page's session and its engines.
pub struct Page {
    shared: Arc<Shared>,
    pool: Arc<EnginePool>,
}

impl Default for Page {
    fn default() -> Page {
        Page::new()
    }
}

impl Page {
    /// A new game at the standard start position, between people (no engine yet).
    pub fn new() -> Page {
        let pool = EnginePool::new();
        Page {
            shared: Shared::new(Arc::new(vec![worker_engine()]), BrowserHost::new(pool.clone())),
            pool,
        }
    }

    /// Runs one command (the JSON text the page sends `vorpal gui`): whether it was done,
    /// and the answer's JSON text (`{"ok":true,"state":…}` or `{"error":…,"state":…}`).
    pub fn command(&self, body: &str) -> (bool, String) {
        match serde_json::from_str::<serde_json::Value>(body) {
            Ok(value) => page_command(&self.shared, &value),
            Err(e) => (
                false,
                serde_json::json!({ "error": format!("bad JSON: {e}") }).to_string(),
            ),
        }
    }

    /// The view of the game (the state `vorpal gui` sends the page), as JSON text.
    pub fn view(&self) -> String {
        let session = self.shared.lock();
        serde_json::to_string(&session.view()).unwrap_or_default()
    }

    /// The view's version: it changes with every update the page should show.
    pub fn version(&self) -> u64 {
        self.shared.lock().version()
    }

    /// The game as PGN.
    pub fn pgn(&self) -> String {
        self.shared.lock().pgn_text()
    }

    /// The periodic work (call it about ten times a second): flag falls, and the engine's
    /// lines folded into the view.
    pub fn tick(&self) {
        self.shared.tick();
    }

    /// A line that engine link `link`'s Worker printed.
    pub fn engine_line(&self, link: u32, line: &str) {
        self.pool.line(link, line);
    }

    /// Engine link `link`'s Worker failed with `why`.
    pub fn engine_failed(&self, link: u32, why: &str) {
        self.pool.failed(link, why);
    }

    /// What the page's JavaScript is to do with the Workers, in order.
    pub fn take_requests(&self) -> Vec<Request> {
        self.pool.take_requests()
    }
}

#[cfg(test)]
mod tests;
