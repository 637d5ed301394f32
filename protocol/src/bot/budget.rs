//! The time for one move from the site's clocks. The site sends the remaining times in
//! milliseconds but the increments in **seconds**; the engine plans with the remaining time
//! less a safety margin (the delays between the site's clock and the engine: the state's trip
//! to the bot, the move's trip back, the site's own processing), so the margin is never spent
//! thinking, and a cap bounds every move (five minutes unless set). The network's share is
//! measured: each move's round trip (sent to echoed, [`super::overhead`]) is a per-move
//! overhead, and the time of the moves still to come is kept back from the bot's clock
//! (less what their increments give back), so at 1+0 over a slow line the bot plays faster
//! rather than losing on time.

use super::wire::GameState;
use std::time::Duration;
use vorpal_engine::search::{Clock, Limits};
use vorpal_engine::Color;

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

/// Moves of the bot a game is expected to still have (for keeping their overheads back):
/// 40 at the start, then fewer, but never under 10.
pub fn moves_ahead(moves_played: usize) -> u32 {
    40u32.saturating_sub(moves_played as u32).max(10)
}

/// The time kept back for the network at a move: this move's `overhead`, and for each of
/// `ahead` later moves what the overhead takes beyond the increment `inc`.
pub fn network_reserve(overhead: Duration, inc: Duration, ahead: u32) -> Duration {
    overhead + overhead.saturating_sub(inc) * ahead
}

/// The search limits at `state` for `side` (the bot), with `reserve` kept back from its clock
/// for the network ([`network_reserve`]). Each side's time is what the site says less the
/// margin (at least 1 ms, so the engine still answers at once); the engine plans for the side
/// to move.
pub fn move_limits(state: &GameState, settings: TimeSettings, side: Color, reserve: Duration) -> Limits {
    let margin = Duration::from_millis(settings.margin_ms);
    let left = |ms: f64, keep: Duration| {
        Some(
            millis(ms)
                .saturating_sub(margin)
                .saturating_sub(keep)
                .max(Duration::from_millis(1)),
        )
    };
    let keep = |c: Color| if c == side { reserve } else { Duration::ZERO };
    let clock = Clock {
        time: [
            left(state.wtime, keep(Color::White)),
            left(state.btime, keep(Color::Black)),
        ],
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

/// The bot's limits for a move in a game of `plies` plies so far, at `state`'s clocks (with
/// the bot's own clock as it stands), keeping back the network's share for the `overhead`
/// measured: the limits and the time kept back.
pub fn bot_limits(
    state: &GameState,
    settings: TimeSettings,
    side: Color,
    overhead: Duration,
    plies: usize,
) -> (Limits, Duration) {
    let inc = match side {
        Color::White => state.winc,
        Color::Black => state.binc,
    };
    let reserve = network_reserve(overhead, seconds(inc), moves_ahead(plies / 2));
    (move_limits(state, settings, side, reserve), reserve)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;
    use vorpal_engine::search::time::TimeManager;
    use vorpal_engine::search::SearchControl;

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
        let limits = move_limits(
            &state(60_000.0, 61_977.0, 2.0, 3.0),
            TimeSettings::default(),
            Color::White,
            Duration::ZERO,
        );
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
            Color::Black,
            Duration::from_millis(50),
        );
        let clock = capped.clock.unwrap();
        assert_eq!(clock.time, [Some(Duration::from_millis(1)); 2]);
        assert_eq!(clock.inc, [Duration::ZERO; 2]);
        assert_eq!(capped.movetime, Some(Duration::from_millis(300)));
    }

    /// Plays out a game on the bot's side: every move takes the engine's hard limit (the worst
    /// case) plus `delay`, which the bot knows as its measured overhead; the clock must never
    /// run out.
    fn survives(base_ms: f64, inc_s: f64, delay_ms: u64, moves: usize) -> Result<(), String> {
        let mut left = base_ms;
        let delay = Duration::from_millis(delay_ms);
        for n in 0..moves {
            let reserve = network_reserve(delay, Duration::from_secs_f64(inc_s), moves_ahead(n));
            let limits = move_limits(
                &state(left, base_ms, inc_s, inc_s),
                TimeSettings::default(),
                Color::White,
                reserve,
            );
            let used = hard_limit(&limits) + delay;
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
        // A line adding 400 ms each way (about 850 ms a move) at 1+0, for a 30-move game.
        survives(60_000.0, 0.0, 850, 30).unwrap();
    }

    #[test]
    fn the_reserve_counts_the_moves_ahead_less_their_increments() {
        let o = Duration::from_millis(800);
        assert_eq!(network_reserve(o, Duration::ZERO, 40), o * 41);
        assert_eq!(network_reserve(o, Duration::from_secs(2), 40), o);
        assert_eq!(moves_ahead(0), 40);
        assert_eq!(moves_ahead(35), 10);
        let limits = move_limits(
            &state(60_000.0, 60_000.0, 0.0, 0.0),
            TimeSettings::default(),
            Color::Black,
            Duration::from_secs(10),
        );
        let clock = limits.clock.unwrap();
        assert_eq!(
            clock.time,
            [Some(Duration::from_millis(59_500)), Some(Duration::from_millis(49_500))]
        );
    }
}
