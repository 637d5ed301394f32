//! Time controls and the clocks the match runner keeps for each side.
//!
//! A time control is parsed from the cutechess-like forms `10+0.1` (base seconds + increment),
//! `40/60+0` (moves per period / seconds + increment), `st=0.5` (seconds per move),
//! `movetime=500` (milliseconds per move), `nodes=5000` and `depth=8`; several may be combined
//! with commas or given as separate `key=value` tokens (`tc=10+0.1 nodes=100000`). The clocks are
//! measured by the runner, never taken from the engines.

use std::fmt;
use std::time::Duration;

/// A clocked time control: base time per period, increment per move, moves per period.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockSpec {
    /// Time at the start of the game (and added at every new period).
    pub base: Duration,
    /// Added after every move.
    pub increment: Duration,
    /// Moves per period (`40/60`): the base time is added again after that many moves.
    pub moves_per_period: Option<u32>,
}

/// What limits an engine's search for each move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeControl {
    /// Game clock.
    pub clock: Option<ClockSpec>,
    /// Fixed time per move.
    pub movetime: Option<Duration>,
    /// Fixed nodes per move.
    pub nodes: Option<u64>,
    /// Fixed depth per move.
    pub depth: Option<u32>,
}

fn parse_seconds(text: &str) -> Result<Duration, String> {
    let v: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("bad number of seconds '{text}'"))?;
    if !v.is_finite() || v < 0.0 {
        return Err(format!("bad number of seconds '{text}'"));
    }
    Ok(Duration::from_secs_f64(v))
}

/// Parses a base time written as seconds or `minutes:seconds`.
fn parse_base(text: &str) -> Result<Duration, String> {
    match text.split_once(':') {
        Some((m, s)) => {
            let minutes: u64 = m.parse().map_err(|_| format!("bad minutes '{m}'"))?;
            Ok(Duration::from_secs(minutes * 60) + parse_seconds(s)?)
        }
        None => parse_seconds(text),
    }
}

impl ClockSpec {
    /// Parses `base+inc`, `moves/base+inc`, `base` (no increment) or `moves/base`.
    pub fn parse(text: &str) -> Result<ClockSpec, String> {
        let (moves, rest) = match text.split_once('/') {
            Some((m, r)) => {
                let moves: u32 = m
                    .parse()
                    .map_err(|_| format!("bad moves per period '{m}' in '{text}'"))?;
                if moves == 0 {
                    return Err(format!("moves per period must be positive in '{text}'"));
                }
                (Some(moves), r)
            }
            None => (None, text),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (parse_base(b)?, parse_seconds(i)?),
            None => (parse_base(rest)?, Duration::ZERO),
        };
        if base.is_zero() && inc.is_zero() {
            return Err(format!("time control '{text}' gives no time"));
        }
        Ok(ClockSpec {
            base,
            increment: inc,
            moves_per_period: moves,
        })
    }
}

impl fmt::Display for ClockSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(m) = self.moves_per_period {
            write!(f, "{m}/")?;
        }
        write!(f, "{}", secs(self.base))?;
        if !self.increment.is_zero() || self.moves_per_period.is_none() {
            write!(f, "+{}", secs(self.increment))?;
        }
        Ok(())
    }
}

/// Seconds without trailing zeros (`10`, `0.1`).
fn secs(d: Duration) -> String {
    let s = format!("{:.3}", d.as_secs_f64());
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

impl TimeControl {
    /// True when no limit at all is set.
    pub fn is_empty(&self) -> bool {
        *self == TimeControl::default()
    }

    /// Applies one `key=value` setting (`tc`, `st`, `movetime`, `nodes`, `depth`); a bare value
    /// is read as `tc`. Returns an error for unknown keys or bad values.
    pub fn apply(&mut self, key: &str, value: &str) -> Result<(), String> {
        match key {
            "tc" => {
                for part in value.split(',') {
                    match part.split_once('=') {
                        Some((k, v)) => self.apply(k, v)?,
                        None if part == "inf" || part == "infinite" => self.clock = None,
                        None => self.clock = Some(ClockSpec::parse(part)?),
                    }
                }
            }
            "st" => self.movetime = Some(parse_seconds(value)?),
            "movetime" => {
                let ms: u64 = value
                    .parse()
                    .map_err(|_| format!("bad movetime '{value}' (milliseconds)"))?;
                self.movetime = Some(Duration::from_millis(ms));
            }
            "nodes" => self.nodes = Some(value.parse().map_err(|_| format!("bad node count '{value}'"))?),
            "depth" => self.depth = Some(value.parse().map_err(|_| format!("bad depth '{value}'"))?),
            _ => return Err(format!("unknown time control key '{key}'")),
        }
        if self.movetime.is_some_and(|t| t.is_zero()) || self.nodes == Some(0) || self.depth == Some(0) {
            return Err(format!("'{key}={value}' must be positive"));
        }
        Ok(())
    }

    /// Parses a whole specification such as `10+0.1`, `st=1`, `nodes=5000,depth=10`.
    pub fn parse(text: &str) -> Result<TimeControl, String> {
        let mut tc = TimeControl::default();
        tc.apply("tc", text)?;
        Ok(tc)
    }

    /// Text for the PGN `TimeControl` tag and the logs (`10+0.1`, `nodes=5000`).
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(c) = self.clock {
            parts.push(c.to_string());
        }
        if let Some(t) = self.movetime {
            parts.push(format!("movetime={}", t.as_millis()));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes={n}"));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth={d}"));
        }
        if parts.is_empty() {
            "inf".into()
        } else {
            parts.join(",")
        }
    }
}

/// One side's clock during a game.
#[derive(Clone, Copy, Debug)]
pub struct SideClock {
    spec: Option<ClockSpec>,
    remaining: Duration,
    moves_in_period: u32,
}

impl SideClock {
    /// A fresh clock for `tc` (no clock when `tc` has none).
    pub fn new(tc: &TimeControl) -> SideClock {
        SideClock {
            spec: tc.clock,
            remaining: tc.clock.map_or(Duration::ZERO, |c| c.base),
            moves_in_period: 0,
        }
    }

    /// True when this side plays with a clock.
    pub fn is_timed(&self) -> bool {
        self.spec.is_some()
    }

    /// Time left on the clock.
    pub fn remaining(&self) -> Duration {
        self.remaining
    }

    /// Increment per move.
    pub fn increment(&self) -> Duration {
        self.spec.map_or(Duration::ZERO, |c| c.increment)
    }

    /// Moves left until the next period, when moves per period are set.
    pub fn moves_to_go(&self) -> Option<u32> {
        self.spec
            .and_then(|c| c.moves_per_period)
            .map(|m| m - self.moves_in_period)
    }

    /// Charges a move that took `used`; returns false (leaving the clock at zero) when the time
    /// ran out beyond `margin`. Adds the increment and, at the end of a period, the base time.
    pub fn charge(&mut self, used: Duration, margin: Duration) -> bool {
        let Some(spec) = self.spec else { return true };
        if used > self.remaining + margin {
            self.remaining = Duration::ZERO;
            return false;
        }
        self.remaining = self.remaining.saturating_sub(used) + spec.increment;
        if let Some(m) = spec.moves_per_period {
            self.moves_in_period += 1;
            if self.moves_in_period == m {
                self.moves_in_period = 0;
                self.remaining += spec.base;
            }
        }
        true
    }
}

/// The `go` command for the side to move: `white`/`black` are the two clocks, `tc` the mover's
/// time control.
pub fn go_command(tc: &TimeControl, white: &SideClock, black: &SideClock, white_to_move: bool) -> String {
    let mut go = String::from("go");
    let mover = if white_to_move { white } else { black };
    if mover.is_timed() {
        let ms = |c: &SideClock| c.remaining().as_millis().max(1);
        go += &format!(
            " wtime {} btime {} winc {} binc {}",
            if white.is_timed() { ms(white) } else { ms(mover) },
            if black.is_timed() { ms(black) } else { ms(mover) },
            white.increment().as_millis(),
            black.increment().as_millis()
        );
        if let Some(m) = mover.moves_to_go() {
            go += &format!(" movestogo {m}");
        }
    }
    if let Some(t) = tc.movetime {
        go += &format!(" movetime {}", t.as_millis());
    }
    if let Some(n) = tc.nodes {
        go += &format!(" nodes {n}");
    }
    if let Some(d) = tc.depth {
        go += &format!(" depth {d}");
    }
    if go == "go" {
        go += " infinite";
    }
    go
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_forms() {
        let tc = TimeControl::parse("10+0.1").unwrap();
        assert_eq!(
            tc.clock,
            Some(ClockSpec {
                base: Duration::from_secs(10),
                increment: Duration::from_millis(100),
                moves_per_period: None
            })
        );
        assert_eq!(tc.describe(), "10+0.1");
        let tc = TimeControl::parse("40/60+0").unwrap();
        assert_eq!(tc.clock.unwrap().moves_per_period, Some(40));
        assert_eq!(tc.describe(), "40/60");
        let tc = TimeControl::parse("1:30+1").unwrap();
        assert_eq!(tc.clock.unwrap().base, Duration::from_secs(90));
        let tc = TimeControl::parse("st=0.5").unwrap();
        assert_eq!(tc.movetime, Some(Duration::from_millis(500)));
        let tc = TimeControl::parse("nodes=5000,depth=7").unwrap();
        assert_eq!((tc.nodes, tc.depth), (Some(5000), Some(7)));
        assert_eq!(tc.describe(), "nodes=5000,depth=7");
        assert!(TimeControl::parse("0+0").is_err());
        assert!(TimeControl::parse("x+1").is_err());
        assert!(TimeControl::parse("nodes=0").is_err());
        assert!(TimeControl::parse("foo=1").is_err());
    }

    #[test]
    fn clock_charges_increment_and_periods() {
        let tc = TimeControl::parse("2/10+1").unwrap();
        let mut c = SideClock::new(&tc);
        assert_eq!(c.moves_to_go(), Some(2));
        assert!(c.charge(Duration::from_secs(3), Duration::ZERO));
        assert_eq!(c.remaining(), Duration::from_secs(8));
        assert_eq!(c.moves_to_go(), Some(1));
        assert!(c.charge(Duration::from_secs(4), Duration::ZERO));
        assert_eq!(c.remaining(), Duration::from_secs(15));
        assert_eq!(c.moves_to_go(), Some(2));
        // Overrun within the margin is tolerated, beyond it is a loss.
        assert!(c.charge(Duration::from_millis(15_050), Duration::from_millis(100)));
        assert!(!c.charge(Duration::from_secs(100), Duration::from_millis(100)));
    }

    #[test]
    fn go_commands() {
        let tc = TimeControl::parse("10+0.1").unwrap();
        let (w, b) = (SideClock::new(&tc), SideClock::new(&tc));
        assert_eq!(
            go_command(&tc, &w, &b, true),
            "go wtime 10000 btime 10000 winc 100 binc 100"
        );
        let tc = TimeControl::parse("nodes=1000").unwrap();
        let (w, b) = (SideClock::new(&tc), SideClock::new(&tc));
        assert_eq!(go_command(&tc, &w, &b, false), "go nodes 1000");
        let tc = TimeControl::parse("movetime=250").unwrap();
        assert_eq!(go_command(&tc, &w, &b, false), "go movetime 250");
    }
}
