//! What a page's session needs from the program that hosts it, and nothing more: engines (a
//! process over pipes driven by a thread in `vorpal gui`, a Web Worker in the browser build),
//! the game report (an in-process search on a server thread, or a refusal), and whether the
//! host is shutting down. The session holds the host as a trait object, so this crate knows no
//! HTTP, thread or process.

use crate::engine_talk::{Event, Job};
use crate::review::ReviewJob;
use vorpal_client::engine_process::EngineConfig;
use vorpal_engine::Rules;

/// Where an engine link's reports go (the session, through its weak handle).
pub type EventSink = Box<dyn Fn(Event) + Send + Sync>;

/// The session's handle on one running engine. Dropping it ends the engine at once (its
/// process is killed, its Worker ended), even in the middle of the handshake.
pub trait EngineLink: Send {
    /// Sends a request; a link that has ended ignores it (it already reported why).
    fn send(&self, job: Job);
}

/// The program hosting page sessions.
pub trait PageHost: Send + Sync {
    /// Starts `config` under `rules` with `extra` options (set after the configured ones);
    /// `on_event` receives everything the engine reports, from any thread. Fails (with the
    /// reason a person reads) when the host runs its most engines.
    fn start_engine(
        &self,
        config: EngineConfig,
        rules: Rules,
        extra: Vec<(String, String)>,
        on_event: EventSink,
    ) -> Result<Box<dyn EngineLink>, String>;

    /// True once the host is shutting down: an engine that ends then has not failed.
    fn is_closed(&self) -> bool;

    /// Starts the game report of `job` in the background; the nodes it searches per position,
    /// or why it cannot run (the host's engine cap, a host without reports).
    fn start_review(&self, job: ReviewJob) -> Result<u64, String>;
}
