//! SIGINT and SIGTERM (and SIGHUP) for the bot: counted, not obeyed at once. The runner reads
//! the count: the first signal stops new games and lets the running ones end as configured;
//! the second aborts them. (The same signal-hook iterator `vorpal gui` stops its engines with.)

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// How many termination signals arrived.
#[derive(Clone, Default)]
pub struct Termination(Arc<AtomicUsize>);

impl Termination {
    /// The count so far.
    pub fn count(&self) -> usize {
        self.0.load(Ordering::SeqCst)
    }

    /// Counts one (the signal thread; tests).
    pub fn note(&self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

/// Starts the thread that counts termination signals.
#[cfg(unix)]
pub fn watch() -> Result<Termination, String> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])
        .map_err(|e| format!("cannot catch signals: {e}"))?;
    let count = Termination::default();
    let seen = count.clone();
    std::thread::Builder::new()
        .name("bot-signals".into())
        .spawn(move || {
            for signal in signals.forever() {
                log::info!("signal {signal} received");
                seen.note();
            }
        })
        .map_err(|e| format!("cannot start the signal thread: {e}"))?;
    Ok(count)
}

/// Other systems: the default handling (the program ends at once).
#[cfg(not(unix))]
pub fn watch() -> Result<Termination, String> {
    Ok(Termination::default())
}
