//! Waiting before a reconnection: exponential growth from one second to a minute, with random
//! jitter (so that many bots cut off together do not all return at the same moment), never
//! shorter than the server's `Retry-After`.

use rand::Rng;
use std::time::Duration;

/// The first wait.
const FIRST: Duration = Duration::from_secs(1);
/// The longest wait.
const LONGEST: Duration = Duration::from_secs(60);

/// The reconnection delays of one stream.
#[derive(Debug)]
pub struct Backoff {
    first: Duration,
    longest: Duration,
    failures: u32,
}

/// The longest wait of a game's stream: a running game cannot wait a minute.
const GAME_LONGEST: Duration = Duration::from_secs(5);

impl Backoff {
    /// A fresh backoff (the next wait is about a second).
    pub fn new() -> Backoff {
        Backoff::starting_at(FIRST)
    }

    /// A backoff whose first wait is `first` (tests).
    pub fn starting_at(first: Duration) -> Backoff {
        Backoff {
            first,
            longest: LONGEST,
            failures: 0,
        }
    }

    /// The backoff of a game's stream: from a second up to five.
    pub fn for_game() -> Backoff {
        Backoff {
            longest: GAME_LONGEST,
            ..Backoff::new()
        }
    }

    /// The wait before the next attempt: the first wait times `2^failures`, capped at a
    /// minute (five seconds for a game), of which a random half to all is taken, but at least `at_least` (a server's
    /// `Retry-After`).
    pub fn next_wait(&mut self, at_least: Option<Duration>) -> Duration {
        let full = self.first.saturating_mul(1 << self.failures.min(10)).min(self.longest);
        self.failures = self.failures.saturating_add(1);
        let jittered = full.mul_f64(rand::thread_rng().gen_range(0.5..=1.0));
        jittered.max(at_least.unwrap_or(Duration::ZERO))
    }

    /// The stream works again: the next wait starts from a second.
    pub fn reset(&mut self) {
        self.failures = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grows_with_jitter_up_to_a_minute() {
        let mut b = Backoff::new();
        let waits: Vec<Duration> = (0..12).map(|_| b.next_wait(None)).collect();
        for (i, w) in waits.iter().enumerate() {
            let full = FIRST.saturating_mul(1 << i.min(10)).min(LONGEST);
            assert!(*w >= full / 2 && *w <= full, "wait {i}: {w:?}");
        }
        assert!(waits[11] >= Duration::from_secs(30));
        b.reset();
        assert!(b.next_wait(None) <= FIRST);
    }

    #[test]
    fn a_game_waits_five_seconds_at_most() {
        let mut b = Backoff::for_game();
        let longest = (0..10).map(|_| b.next_wait(None)).max().unwrap();
        assert!(longest <= GAME_LONGEST && longest >= GAME_LONGEST / 2, "{longest:?}");
    }

    #[test]
    fn honours_retry_after() {
        let mut b = Backoff::new();
        assert_eq!(b.next_wait(Some(Duration::from_secs(42))), Duration::from_secs(42));
    }
}
