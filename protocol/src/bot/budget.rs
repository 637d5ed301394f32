//! The time for one move from the site's clocks. The site sends the remaining times in
//! milliseconds but the increments in **seconds**; the engine plans with the remaining time
//! less a safety margin (the delays between the site's clock and the engine: the state's trip
//! to the bot, the move's trip back, the site's own processing), so the margin is never spent
//! thinking, and a cap bounds every move (five minutes unless set).

use super::wire::GameState;
use std::time::Duration;
use vorpal_engine::search::{Clock, Limits};

/// The time settings (`[engine]` in the config file).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeSettings {
    /// Kept back from the remaining time at every move, in milliseconds.
    pub margin_ms: u64,
    /// The most time one move may take, in milliseconds (0: [`CEILING`]).
    pub max_move_ms: u64,
}

impl Default for TimeSettings {
    fn default() -> Self {
        TimeSettings {
            margin_ms: 500,
            max_move_ms: 0,
        }
    }
}

/// The longest any move may take when no cap is set: a correspondence clock counts in days,
/// and a move is not worth more than this.
pub const CEILING: Duration = Duration::from_secs(300);

/// A clock value of the site (milliseconds, maybe a decimal or negative) as a duration.
fn millis(ms: f64) -> Duration {
    Duration::from_millis(if ms.is_finite() && ms > 0.0 { ms as u64 } else { 0 })
}

/// An increment of the site (seconds) as a duration.
fn seconds(s: f64) -> Duration {
    if s.is_finite() && s > 0.0 {
        Duration::from_secs_f64(s.min(86_400.0))
    } else {
        Duration::ZERO
    }
}

/// The search limits at `state`. Each side's time is what the site says less the margin (at
/// least 1 ms, so the engine still answers at once); the engine plans for the side to move.
pub fn move_limits(state: &GameState, settings: TimeSettings) -> Limits {
    let margin = Duration::from_millis(settings.margin_ms);
    let left = |ms: f64| Some(millis(ms).saturating_sub(margin).max(Duration::from_millis(1)));
    let clock = Clock {
        time: [left(state.wtime), left(state.btime)],
        inc: [seconds(state.winc), seconds(state.binc)],
        moves_to_go: None,
    };
    Limits {
        clock: Some(clock),
        movetime: Some(match settings.max_move_ms {
            0 => CEILING,
            ms => Duration::from_millis(ms),
        }),
        ..Limits::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;
    use vorpal_engine::search::time::TimeManager;
    use vorpal_engine::search::SearchControl;
    use vorpal_engine::Color;

    fn state(wtime: f64, btime: f64, winc: f64, binc: f64) -> GameState {
        GameState {
            moves: String::new(),
            wtime,
            btime,
            winc,
            binc,
            status: "started".into(),
        }
    }

    /// The longest White may think under `limits` (the engine's hard limit, with the default
    /// move overhead), found by asking its time manager about searches started earlier.
    fn hard_limit(limits: &Limits) -> Duration {
        let reached = |elapsed: Duration| {
            let start = Instant::now()
                .checked_sub(elapsed)
                .expect("the machine has been up a minute");
            TimeManager::new(limits, Color::White, Duration::from_millis(10), start)
                .hard_limit_reached(&SearchControl::new())
        };
        let (mut lo, mut hi) = (Duration::ZERO, Duration::from_secs(60));
        assert!(reached(hi));
        while hi - lo > Duration::from_millis(1) {
            let mid = (lo + hi) / 2;
            if reached(mid) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        hi
    }

    #[test]
    fn increments_are_seconds_and_times_milliseconds() {
        let limits = move_limits(&state(60_000.0, 61_977.0, 2.0, 3.0), TimeSettings::default());
        let clock = limits.clock.unwrap();
        assert_eq!(clock.time[0], Some(Duration::from_millis(59_500)));
        assert_eq!(clock.time[1], Some(Duration::from_millis(61_477)));
        assert_eq!(clock.inc, [Duration::from_secs(2), Duration::from_secs(3)]);
        assert_eq!(limits.movetime, Some(CEILING));
        let capped = move_limits(
            &state(100.0, -5.0, f64::NAN, 0.0),
            TimeSettings {
                margin_ms: 500,
                max_move_ms: 300,
            },
        );
        let clock = capped.clock.unwrap();
        assert_eq!(clock.time, [Some(Duration::from_millis(1)); 2]);
        assert_eq!(clock.inc, [Duration::ZERO; 2]);
        assert_eq!(capped.movetime, Some(Duration::from_millis(300)));
    }

    /// Plays out a game on the bot's side: every move takes the engine's hard limit (the worst
    /// case) plus `delay`; the clock must never run out.
    fn survives(base_ms: f64, inc_s: f64, delay_ms: u64, moves: usize) -> Result<(), String> {
        let mut left = base_ms;
        for n in 0..moves {
            let limits = move_limits(&state(left, base_ms, inc_s, inc_s), TimeSettings::default());
            let used = hard_limit(&limits) + Duration::from_millis(delay_ms);
            left -= used.as_millis() as f64;
            if left <= 0.0 {
                return Err(format!("flagged at move {} ({base_ms} ms + {inc_s} s)", n + 1));
            }
            left += inc_s * 1000.0;
        }
        Ok(())
    }

    #[test]
    fn never_loses_on_time_at_one_plus_zero_or_three_plus_two() {
        survives(60_000.0, 0.0, 20, 60).unwrap();
        survives(60_000.0, 2.0, 300, 150).unwrap();
        survives(180_000.0, 2.0, 300, 200).unwrap();
        survives(180_000.0, 2.0, 1000, 100).unwrap();
    }
}
