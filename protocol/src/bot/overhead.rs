//! The network's cost of one move, measured: the time from sending a move to its echo on the
//! game's stream (the move's trip to the site, the site's work, the state's trip back), which
//! is what the site's clock charges the bot beyond its thinking. The estimate is a high
//! percentile of the latest round trips of every game, so one slow moment weighs in at once
//! and an old one is forgotten; before any move it is the round trip of the login.

use std::collections::VecDeque;
use std::sync::Mutex;
use std::time::Duration;

/// Round trips remembered.
const WINDOW: usize = 40;
/// The percentile taken.
const PERCENTILE: f64 = 0.9;

/// The rolling estimate, shared by the games.
#[derive(Debug)]
pub struct Overhead {
    samples: Mutex<VecDeque<Duration>>,
}

impl Overhead {
    /// An estimate starting from one round trip measured otherwise (the login).
    pub fn new(first: Duration) -> Overhead {
        Overhead {
            samples: Mutex::new(VecDeque::from([first])),
        }
    }

    /// Adds one move's round trip.
    pub fn record(&self, trip: Duration) {
        let mut samples = self.samples.lock().unwrap_or_else(|e| e.into_inner());
        if samples.len() == WINDOW {
            samples.pop_front();
        }
        samples.push_back(trip);
    }

    /// The per-move overhead: the 90th percentile of the remembered round trips.
    pub fn estimate(&self) -> Duration {
        let samples = self.samples.lock().unwrap_or_else(|e| e.into_inner());
        let mut sorted: Vec<Duration> = samples.iter().copied().collect();
        sorted.sort();
        let index = ((sorted.len() as f64 * PERCENTILE).ceil() as usize).clamp(1, sorted.len().max(1)) - 1;
        sorted.get(index).copied().unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_high_percentile_of_the_latest_trips() {
        let o = Overhead::new(Duration::from_millis(30));
        assert_eq!(o.estimate(), Duration::from_millis(30));
        for ms in 1..=10 {
            o.record(Duration::from_millis(ms * 100));
        }
        // 11 samples: 30, 100 .. 1000; the 90th percentile is the 10th smallest.
        assert_eq!(o.estimate(), Duration::from_millis(900));
        for _ in 0..WINDOW {
            o.record(Duration::from_millis(50));
        }
        assert_eq!(o.estimate(), Duration::from_millis(50));
        for _ in 0..5 {
            o.record(Duration::from_millis(5000));
        }
        assert_eq!(o.estimate(), Duration::from_millis(5000));
    }
}
