//! A host for the crate's own tests: engines that never run (their reports are delivered by
//! the test, outside the session's lock, as a real host's threads or Worker messages deliver
//! them) and no game report.

use crate::engine_talk::{Event, Job};
use crate::host::{EngineLink, EventSink, PageHost};
use crate::review::ReviewJob;
use std::sync::{Arc, Mutex};
use vorpal_client::engine_process::EngineConfig;
use vorpal_engine::Rules;

/// Engines started so far (their sinks, the newest last) and the jobs sent to them.
#[derive(Default)]
pub struct TestHost {
    sinks: Mutex<Vec<Arc<EventSink>>>,
    jobs: Arc<Mutex<Vec<Job>>>,
    /// The refusal of every engine and report, when set.
    refusal: Option<String>,
}

struct TestLink {
    jobs: Arc<Mutex<Vec<Job>>>,
}

impl EngineLink for TestLink {
    fn send(&self, job: Job) {
        self.jobs.lock().unwrap().push(job);
    }
}

impl TestHost {
    /// A host with no engine started.
    pub fn new() -> Arc<TestHost> {
        Arc::new(TestHost::default())
    }

    /// A host that refuses every engine and report with `why`.
    pub fn refusing(why: &str) -> Arc<TestHost> {
        Arc::new(TestHost {
            refusal: Some(why.to_string()),
            ..TestHost::default()
        })
    }

    /// Delivers `event` as the newest engine's report.
    pub fn deliver(&self, event: Event) {
        let sink = self
            .sinks
            .lock()
            .unwrap()
            .last()
            .cloned()
            .expect("an engine was started");
        sink(event);
    }

    /// The jobs sent to the engines, in order.
    pub fn jobs(&self) -> Vec<Job> {
        self.jobs.lock().unwrap().clone()
    }
}

impl PageHost for TestHost {
    fn start_engine(
        &self,
        _config: EngineConfig,
        _rules: Rules,
        _extra: Vec<(String, String)>,
        on_event: EventSink,
    ) -> Result<Box<dyn EngineLink>, String> {
        if let Some(why) = &self.refusal {
            return Err(why.clone());
        }
        self.sinks.lock().unwrap().push(Arc::new(on_event));
        Ok(Box::new(TestLink {
            jobs: self.jobs.clone(),
        }))
    }

    fn is_closed(&self) -> bool {
        false
    }

    fn start_review(&self, _job: ReviewJob) -> Result<u64, String> {
        Err(self
            .refusal
            .clone()
            .unwrap_or_else(|| "no game report in these tests".into()))
    }
}
