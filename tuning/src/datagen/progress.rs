//! The progress line a data generation run prints every few seconds: games, positions, rate
//! and the time still to go.

use std::time::Duration;

/// Counters of a running generation at one moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProgressSnapshot {
    /// Games recorded in the output, earlier runs included.
    pub games_recorded: u64,
    /// Games wanted in total (`--games`); `u64::MAX` = no limit.
    pub games_wanted: u64,
    /// Games played by this run.
    pub games_this_run: u64,
    /// Positions written by this run.
    pub positions_this_run: u64,
    /// Time since this run started.
    pub elapsed: Duration,
    /// Time left of `--max-seconds`, if given.
    pub time_left: Option<Duration>,
}

impl ProgressSnapshot {
    /// Estimated time to the end: the games left at this run's game rate, or the time budget
    /// left if that ends first. None while no game has finished and there is no time budget.
    pub fn eta(&self) -> Option<Duration> {
        let secs = self.elapsed.as_secs_f64();
        let bounded = self.games_wanted != u64::MAX;
        let by_games = (bounded && self.games_this_run > 0 && secs > 0.0).then(|| {
            let left = self.games_wanted.saturating_sub(self.games_recorded) as f64;
            Duration::from_secs_f64(left * secs / self.games_this_run as f64)
        });
        match (by_games, self.time_left) {
            (Some(g), Some(t)) => Some(g.min(t)),
            (g, t) => g.or(t),
        }
    }
}

/// `1h02m03s`, `4m05s` or `6s`.
pub fn format_duration(d: Duration) -> String {
    let s = d.as_secs();
    match (s / 3600, s / 60 % 60, s % 60) {
        (0, 0, sec) => format!("{sec}s"),
        (0, m, sec) => format!("{m}m{sec:02}s"),
        (h, m, sec) => format!("{h}h{m:02}m{sec:02}s"),
    }
}

/// The progress line: `games 12/100, positions 345 (57.5/s), games/s 0.40, ETA 3m40s`
/// (`games 12` without a game limit).
pub fn progress_line(p: &ProgressSnapshot) -> String {
    let secs = p.elapsed.as_secs_f64().max(1e-9);
    let eta = p.eta().map_or_else(|| "unknown".to_string(), format_duration);
    let wanted = if p.games_wanted == u64::MAX {
        String::new()
    } else {
        format!("/{}", p.games_wanted)
    };
    format!(
        "games {}{wanted}, positions {} ({:.1}/s), games/s {:.2}, ETA {eta}",
        p.games_recorded,
        p.positions_this_run,
        p.positions_this_run as f64 / secs,
        p.games_this_run as f64 / secs
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snap(recorded: u64, this_run: u64, secs: u64, left: Option<u64>) -> ProgressSnapshot {
        ProgressSnapshot {
            games_recorded: recorded,
            games_wanted: 100,
            games_this_run: this_run,
            positions_this_run: this_run * 30,
            elapsed: Duration::from_secs(secs),
            time_left: left.map(Duration::from_secs),
        }
    }

    #[test]
    fn eta_is_games_left_over_rate_or_time_left() {
        // 10 games in 20 s, 80 left (10 recorded earlier): 160 s.
        assert_eq!(snap(20, 10, 20, None).eta(), Some(Duration::from_secs(160)));
        // The time budget ends first.
        assert_eq!(snap(20, 10, 20, Some(30)).eta(), Some(Duration::from_secs(30)));
        assert_eq!(snap(0, 0, 5, None).eta(), None);
        assert_eq!(snap(0, 0, 5, Some(55)).eta(), Some(Duration::from_secs(55)));
        let unbounded = ProgressSnapshot {
            games_wanted: u64::MAX,
            ..snap(20, 10, 20, Some(70))
        };
        assert_eq!(unbounded.eta(), Some(Duration::from_secs(70)), "the time left");
        assert!(progress_line(&unbounded).starts_with("games 20, positions"));
    }

    #[test]
    fn line_names_games_positions_rate_and_eta() {
        let line = progress_line(&snap(20, 10, 20, None));
        assert_eq!(line, "games 20/100, positions 300 (15.0/s), games/s 0.50, ETA 2m40s");
        assert!(progress_line(&snap(0, 0, 1, None)).ends_with("ETA unknown"));
        assert_eq!(format_duration(Duration::from_secs(3723)), "1h02m03s");
        assert_eq!(format_duration(Duration::from_secs(6)), "6s");
    }
}
