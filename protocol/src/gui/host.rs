//! `vorpal gui` as the host of its pages' sessions: engines are child processes driven by
//! threads ([`EngineWorker`]), each holding a place of the server's engine cap
//! ([`EnginePool`]); the game report runs on a server thread ([`super::review`]).

use super::engine_pool::EnginePool;
use super::worker::EngineWorker;
use std::sync::Arc;
use vorpal_client::engine_process::EngineConfig;
use vorpal_engine::Rules;
use vorpal_page::engine_talk::Job;
use vorpal_page::host::{EngineLink, EventSink, PageHost};
use vorpal_page::review::ReviewJob;

/// The server's side of every session: its engine cap.
pub struct ServerHost {
    pool: Arc<EnginePool>,
}

impl ServerHost {
    /// The host of sessions whose engines and reports share `pool`.
    pub fn new(pool: Arc<EnginePool>) -> Arc<ServerHost> {
        Arc::new(ServerHost { pool })
    }
}

impl EngineLink for EngineWorker {
    fn send(&self, job: Job) {
        EngineWorker::send(self, job);
    }
}

impl PageHost for ServerHost {
    fn start_engine(
        &self,
        config: EngineConfig,
        rules: Rules,
        extra: Vec<(String, String)>,
        on_event: EventSink,
    ) -> Result<Box<dyn EngineLink>, String> {
        let worker = EngineWorker::spawn(&self.pool, config, rules, extra, on_event)?;
        Ok(Box::new(worker))
    }

    fn is_closed(&self) -> bool {
        self.pool.is_closed()
    }

    fn start_review(&self, job: ReviewJob) -> Result<u64, String> {
        super::review::start(&self.pool, job)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};
    use vorpal_page::session::Shared;
    use vorpal_page::settings::{Mode, Settings};

    /// Ending the engines on purpose (analysis, then a mode between people) is no failure:
    /// the killed process's last word belongs to an older generation.
    #[test]
    fn engines_ended_by_a_mode_change_are_not_failures() {
        let script = "while read l; do case $l in uci) echo uciok;; isready) echo readyok;; quit) exit 0;; esac; done";
        let engines = vec![EngineConfig {
            name: "silent".into(),
            cmd: "sh".into(),
            args: vec!["-c".into(), script.into()],
            ..EngineConfig::default()
        }];
        let shared = Shared::new(Arc::new(engines), ServerHost::new(EnginePool::new(2)));
        let analysis = Settings {
            mode: Mode::Analysis,
            ..Settings::default()
        };
        shared.update(|s, shared| s.apply_settings(shared, analysis));
        let deadline = Instant::now() + Duration::from_secs(10);
        while !shared.lock().engine_state(0).ready {
            assert!(Instant::now() < deadline, "the engine did not start");
            std::thread::sleep(Duration::from_millis(20));
        }
        shared.update(|s, shared| s.apply_settings(shared, Settings::default()));
        // The killed engine's thread reports its end within a poll or two.
        std::thread::sleep(Duration::from_millis(500));
        let s = shared.lock();
        assert_eq!((s.alert(), s.engine_state(0).failed.as_deref()), (None, None));
    }
}
