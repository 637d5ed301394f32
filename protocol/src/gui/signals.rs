//! Stopping the server cleanly: on SIGINT (Ctrl-C), SIGTERM or SIGHUP every engine gets `quit`,
//! a moment to obey, then a kill; the program exits with status 0. (Engines also die with the
//! server when it is killed outright: see `vorpal_client::engine_child`.)

use super::engine_pool::EnginePool;
use std::sync::Arc;
use std::time::Duration;

/// Starts the thread that waits for a termination signal and then ends `pool`'s engines
/// (waiting `grace` for them to quit) and the program.
#[cfg(unix)]
pub fn end_engines_on_termination(pool: Arc<EnginePool>, grace: Duration) -> Result<(), String> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])
        .map_err(|e| format!("cannot catch signals: {e}"))?;
    std::thread::Builder::new()
        .name("gui-signals".into())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                log::info!("signal {signal}: ending the engines");
                pool.shutdown(grace);
                super::say(true, "vorpal gui: stopped");
                std::process::exit(0);
            }
        })
        .map_err(|e| format!("cannot start the signal thread: {e}"))?;
    Ok(())
}

/// Other systems: the default handling (the engines see the end of their input).
#[cfg(not(unix))]
pub fn end_engines_on_termination(_pool: Arc<EnginePool>, _grace: Duration) -> Result<(), String> {
    Ok(())
}
