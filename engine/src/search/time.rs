//! Time management: a soft limit (don't start another iteration) scaled by how settled the
//! search is, and a hard limit (abort now), both derived from the clock or a fixed time.

use crate::clock::Instant;
use crate::search::{Limits, SearchControl};
use crate::types::Color;
use std::time::Duration;

/// Time limits of one search.
#[derive(Clone, Debug)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
    /// A fixed time per move (`movetime` without a clock): it is used whole, not scaled.
    fixed: bool,
    /// When a slice of a sliced search pauses (time since the start); None in a whole search.
    pause: Option<Duration>,
}

impl TimeManager {
    /// Limits for `side` to move under `limits`, keeping `overhead` in reserve per move.
    pub fn new(limits: &Limits, side: Color, overhead: Duration, start: Instant) -> TimeManager {
        let mut soft = None;
        let mut hard = None;
        if let Some(mt) = limits.movetime {
            let t = mt.saturating_sub(overhead).max(Duration::from_millis(1));
            soft = Some(t);
            hard = Some(t);
        }
        if let Some(clock) = &limits.clock {
            if let Some(time) = clock.time[side.index()] {
                let inc = clock.inc[side.index()];
                // Keep the overhead and a safety margin; never plan with more than remains.
                let usable = time.saturating_sub(overhead).saturating_sub(Duration::from_millis(5));
                let moves_left = clock.moves_to_go.unwrap_or(30).clamp(1, 50);
                let base = usable / moves_left + inc * 3 / 4;
                let s = base.mul_f64(0.6).min(usable / 2);
                let h = (base * 3).min(usable.mul_f64(if moves_left == 1 { 0.9 } else { 0.6 }));
                soft = Some(soft.map_or(s, |x: Duration| x.min(s)).max(Duration::from_millis(1)));
                hard = Some(hard.map_or(h, |x: Duration| x.min(h)).max(Duration::from_millis(1)));
            }
        }
        let fixed = limits.movetime.is_some() && limits.clock.is_none();
        TimeManager {
            start,
            soft,
            hard,
            fixed,
            pause: None,
        }
    }

    /// Pauses the search (a slice of a sliced search ends) once `at` has passed since the start.
    pub(crate) fn set_pause(&mut self, at: Option<Duration>) {
        self.pause = at;
    }

    /// True when the slice's pause is due.
    pub(crate) fn pause_due(&self) -> bool {
        self.pause.is_some_and(|p| self.elapsed() >= p)
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// True when the hard limit has passed (never while pondering).
    pub fn hard_limit_reached(&self, control: &SearchControl) -> bool {
        !control.is_pondering() && self.hard.is_some_and(|h| self.elapsed() >= h)
    }

    /// True when no new iteration should start: the soft limit scaled by `scale` has passed.
    /// `scale` grows when the best move changes or the score drops and shrinks when stable;
    /// a fixed time per move ignores it.
    pub fn soft_limit_reached(&self, control: &SearchControl, scale: f64) -> bool {
        if control.is_pondering() {
            return false;
        }
        let scale = if self.fixed { 1.0 } else { scale };
        match (self.soft, self.hard) {
            (Some(s), Some(h)) => self.elapsed() >= s.mul_f64(scale).min(h),
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Clock;

    fn manager(time_ms: u64, inc_ms: u64, mtg: Option<u32>) -> TimeManager {
        let limits = Limits {
            clock: Some(Clock {
                time: [
                    Some(Duration::from_millis(time_ms)),
                    Some(Duration::from_millis(time_ms)),
                ],
                inc: [Duration::from_millis(inc_ms); 2],
                moves_to_go: mtg,
            }),
            ..Limits::default()
        };
        TimeManager::new(&limits, Color::White, Duration::from_millis(10), Instant::now())
    }

    #[test]
    fn hard_limit_never_exceeds_remaining_time() {
        for (t, inc, mtg) in [
            (1000, 10, None),
            (50, 0, None),
            (10_000, 100, Some(1)),
            (20, 1000, Some(3)),
        ] {
            let m = manager(t, inc, mtg);
            assert!(m.hard.unwrap() <= Duration::from_millis(t), "{t} {inc} {mtg:?}");
        }
    }

    #[test]
    fn soft_limit_is_within_the_hard_limit() {
        for t in [20, 100, 1000, 10_000, 600_000] {
            for inc in [0, 10, 100, 5000] {
                for mtg in [None, Some(1), Some(2), Some(40)] {
                    let m = manager(t, inc, mtg);
                    let (soft, hard) = (m.soft.unwrap(), m.hard.unwrap());
                    assert!(soft <= hard, "{t} {inc} {mtg:?}: soft {soft:?} > hard {hard:?}");
                    assert!(soft >= Duration::from_millis(1), "{t} {inc} {mtg:?}");
                }
            }
        }
    }

    #[test]
    fn more_time_or_increment_plans_longer() {
        let soft = |t, inc| manager(t, inc, None).soft.unwrap();
        assert!(soft(60_000, 0) > soft(10_000, 0));
        assert!(soft(10_000, 1000) > soft(10_000, 0));
        // With one move to the control, most of the clock may go into it.
        assert!(manager(10_000, 0, Some(1)).hard.unwrap() > manager(10_000, 0, Some(30)).hard.unwrap());
    }

    #[test]
    fn soft_limit_scales_and_the_hard_limit_caps_it() {
        // 100 s, no increment: soft 2 s, hard about 10 s. The start lies in the past, so the
        // outcome does not depend on how fast the test runs (margins of seconds).
        let limits = Limits {
            clock: Some(Clock {
                time: [Some(Duration::from_secs(100)); 2],
                inc: [Duration::ZERO; 2],
                moves_to_go: None,
            }),
            ..Limits::default()
        };
        let since = |ms| Instant::now().checked_sub(Duration::from_millis(ms)).unwrap();
        let control = SearchControl::new();
        let m = TimeManager::new(&limits, Color::White, Duration::ZERO, since(2500));
        let soft = m.soft.unwrap();
        assert!(
            soft > Duration::from_millis(1990) && soft <= Duration::from_secs(2),
            "{soft:?}"
        );
        assert!(m.soft_limit_reached(&control, 1.0));
        assert!(!m.soft_limit_reached(&control, 2.0));
        assert!(!m.hard_limit_reached(&control));
        let late = TimeManager::new(&limits, Color::White, Duration::ZERO, since(20_000));
        assert!(
            late.soft_limit_reached(&control, 50.0),
            "the hard limit caps the scaled soft limit"
        );
        assert!(late.hard_limit_reached(&control));
        control.reset(true);
        assert!(!late.soft_limit_reached(&control, 1.0) && !late.hard_limit_reached(&control));
    }

    #[test]
    fn movetime_keeps_overhead() {
        let limits = Limits::movetime(Duration::from_millis(500));
        let m = TimeManager::new(&limits, Color::Black, Duration::from_millis(30), Instant::now());
        assert_eq!(m.hard, Some(Duration::from_millis(470)));
        // The whole time is used: a settled search (scale below 1) does not stop early.
        let since = Instant::now().checked_sub(Duration::from_millis(400)).unwrap();
        let m = TimeManager::new(&limits, Color::Black, Duration::from_millis(30), since);
        assert!(!m.soft_limit_reached(&SearchControl::new(), 0.5));
    }
}
