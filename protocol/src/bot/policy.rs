//! Which challenges the bot accepts: variants, time controls, rated or casual, how many games
//! at once, and who may (or may not) challenge. A refusal carries one of the reasons the site
//! knows (lichess's keys), which the challenger sees as a sentence.

use super::wire::{Challenge, TimeControl};
use serde::Deserialize;

/// The challenge policy (`[policy]` in the config file).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Policy {
    /// The site's variant names accepted.
    pub variants: Vec<String>,
    /// The shortest base time accepted, in seconds.
    pub min_base: u64,
    /// The longest base time accepted, in seconds.
    pub max_base: u64,
    /// The smallest increment accepted, in seconds.
    pub min_increment: u64,
    /// The largest increment accepted, in seconds.
    pub max_increment: u64,
    /// Correspondence games (days per move) accepted.
    pub correspondence: bool,
    /// Rated games accepted.
    pub rated: bool,
    /// Casual games accepted.
    pub casual: bool,
    /// Games played at once, at most.
    pub max_games: usize,
    /// When not empty, only these users may challenge (names compare without case).
    pub allow: Vec<String>,
    /// These users may not challenge.
    pub block: Vec<String>,
}

impl Default for Policy {
    /// Alice from 1+0 to 30+30, rated or casual, one game at a time, anyone.
    fn default() -> Self {
        Policy {
            variants: vec!["alice".into()],
            min_base: 60,
            max_base: 30 * 60,
            min_increment: 0,
            max_increment: 30,
            correspondence: false,
            rated: true,
            casual: true,
            max_games: 1,
            allow: Vec::new(),
            block: Vec::new(),
        }
    }
}

/// Why a challenge is declined: the site's reason keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decline {
    /// "I'm not accepting challenges at the moment." (a blocked or not allowed user)
    Generic,
    /// "This is not the right time for me, please ask again later." (too many games)
    Later,
    /// The clock is faster than the policy allows.
    TooFast,
    /// The clock is slower than the policy allows.
    TooSlow,
    /// Correspondence or no clock, when not accepted.
    TimeControl,
    /// A casual challenge when only rated games are accepted.
    Rated,
    /// A rated challenge when only casual games are accepted.
    Casual,
    /// A variant not played.
    Variant,
    /// Shutting down.
    Shutdown,
}

impl Decline {
    /// The key the site's decline call takes (`reason=...`).
    pub fn key(self) -> &'static str {
        match self {
            Decline::Generic => "generic",
            Decline::Later | Decline::Shutdown => "later",
            Decline::TooFast => "tooFast",
            Decline::TooSlow => "tooSlow",
            Decline::TimeControl => "timeControl",
            Decline::Rated => "rated",
            Decline::Casual => "casual",
            Decline::Variant => "variant",
        }
    }
}

impl Policy {
    /// Accept (`Ok`) or decline `challenge` while `playing` games are running or starting.
    pub fn decide(&self, challenge: &Challenge, playing: usize) -> Result<(), Decline> {
        let name = challenge.challenger.name.to_lowercase();
        let listed = |list: &[String]| list.iter().any(|u| u.to_lowercase() == name);
        if listed(&self.block) || (!self.allow.is_empty() && !listed(&self.allow)) {
            return Err(Decline::Generic);
        }
        if challenge.chess960 || !self.variants.contains(&challenge.variant.key) {
            return Err(Decline::Variant);
        }
        match challenge.time_control {
            TimeControl::Clock { limit, increment } => {
                let (base, inc) = (limit.max(0.0), increment.max(0.0));
                if base < self.min_base as f64 || inc < self.min_increment as f64 {
                    return Err(Decline::TooFast);
                }
                if base > self.max_base as f64 || inc > self.max_increment as f64 {
                    return Err(Decline::TooSlow);
                }
            }
            TimeControl::Correspondence { .. } if self.correspondence => {}
            TimeControl::Correspondence { .. } | TimeControl::Unlimited => return Err(Decline::TimeControl),
        }
        if challenge.rated && !self.rated {
            return Err(Decline::Casual);
        }
        if !challenge.rated && !self.casual {
            return Err(Decline::Rated);
        }
        if playing >= self.max_games {
            return Err(Decline::Later);
        }
        Ok(())
    }

    /// One line describing what is accepted (`--dry-run`, the start-up log): only what the
    /// site can send a BOT, which is casual challenges (it rates no BOT game).
    pub fn describe(&self) -> String {
        let mut text =
            format!(
            "{} challenges in {} with a base of {}..={} s and an increment of {}..={} s{}, at most {} game{} at once (rematches included)",
            if self.casual { "casual" } else { "no (casual = false, and the site sends a BOT only casual)" },
            self.variants.join(", "),
            self.min_base,
            self.max_base,
            self.min_increment,
            self.max_increment,
            if self.correspondence { ", or correspondence" } else { "" },
            self.max_games,
            if self.max_games == 1 { "" } else { "s" }
        );
        if !self.allow.is_empty() {
            text += &format!("; only from {}", self.allow.join(", "));
        }
        if !self.block.is_empty() {
            text += &format!("; never from {}", self.block.join(", "));
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::wire::{Player, VariantKey};

    fn challenge(variant: &str, tc: TimeControl, rated: bool, from: &str) -> Challenge {
        Challenge {
            id: "abcdefgh".into(),
            challenger: Player {
                name: from.into(),
                title: None,
            },
            variant: VariantKey { key: variant.into() },
            rated,
            time_control: tc,
            chess960: false,
            color: "white".into(),
        }
    }

    fn clock(minutes: f64, inc: f64) -> TimeControl {
        TimeControl::Clock {
            limit: minutes * 60.0,
            increment: inc,
        }
    }

    #[test]
    fn the_default_accepts_alice_from_one_plus_zero_to_thirty_plus_thirty() {
        let p = Policy::default();
        for (m, i) in [(1.0, 0.0), (1.0, 2.0), (3.0, 2.0), (5.0, 3.0), (30.0, 30.0)] {
            assert_eq!(
                p.decide(&challenge("alice", clock(m, i), false, "x"), 0),
                Ok(()),
                "{m}+{i}"
            );
            assert_eq!(
                p.decide(&challenge("alice", clock(m, i), true, "x"), 0),
                Ok(()),
                "{m}+{i} rated"
            );
        }
        assert_eq!(
            p.decide(&challenge("alice", clock(0.5, 0.0), false, "x"), 0),
            Err(Decline::TooFast)
        );
        assert_eq!(
            p.decide(&challenge("alice", clock(45.0, 0.0), false, "x"), 0),
            Err(Decline::TooSlow)
        );
        assert_eq!(
            p.decide(&challenge("alice", clock(5.0, 45.0), false, "x"), 0),
            Err(Decline::TooSlow)
        );
        assert_eq!(
            p.decide(&challenge("chess", clock(5.0, 3.0), false, "x"), 0),
            Err(Decline::Variant)
        );
        let corr = TimeControl::Correspondence {
            days_per_turn: Some(2.0),
        };
        assert_eq!(
            p.decide(&challenge("alice", corr, false, "x"), 0),
            Err(Decline::TimeControl)
        );
        assert_eq!(
            p.decide(&challenge("alice", TimeControl::Unlimited, false, "x"), 0),
            Err(Decline::TimeControl)
        );
        assert_eq!(
            p.decide(&challenge("alice", clock(1.0, 2.0), false, "x"), 1),
            Err(Decline::Later)
        );
    }

    #[test]
    fn chess960_is_another_variant() {
        let mut c = challenge("alice", clock(3.0, 2.0), false, "x");
        c.chess960 = true;
        assert_eq!(Policy::default().decide(&c, 0), Err(Decline::Variant));
    }

    #[test]
    fn users_rated_casual_and_increments() {
        let p = Policy {
            rated: false,
            min_increment: 1,
            allow: vec!["Alice".into(), "Bob".into()],
            block: vec!["bob".into()],
            max_games: 3,
            correspondence: true,
            ..Policy::default()
        };
        assert_eq!(
            p.decide(&challenge("alice", clock(3.0, 2.0), false, "ALICE"), 2),
            Ok(())
        );
        assert_eq!(
            p.decide(&challenge("alice", clock(3.0, 2.0), false, "bob"), 0),
            Err(Decline::Generic)
        );
        assert_eq!(
            p.decide(&challenge("alice", clock(3.0, 2.0), false, "carol"), 0),
            Err(Decline::Generic)
        );
        assert_eq!(
            p.decide(&challenge("alice", clock(3.0, 2.0), true, "alice"), 0),
            Err(Decline::Casual)
        );
        assert_eq!(
            p.decide(&challenge("alice", clock(3.0, 0.0), false, "alice"), 0),
            Err(Decline::TooFast)
        );
        let corr = TimeControl::Correspondence { days_per_turn: None };
        assert_eq!(p.decide(&challenge("alice", corr, false, "alice"), 0), Ok(()));
        let casual_only = Policy {
            casual: false,
            ..Policy::default()
        };
        assert_eq!(
            casual_only.decide(&challenge("alice", clock(3.0, 2.0), false, "x"), 0),
            Err(Decline::Rated)
        );
    }

    #[test]
    fn reasons_are_the_sites_keys() {
        let keys: Vec<&str> = [
            Decline::Generic,
            Decline::Later,
            Decline::TooFast,
            Decline::TooSlow,
            Decline::TimeControl,
            Decline::Rated,
            Decline::Casual,
            Decline::Variant,
            Decline::Shutdown,
        ]
        .iter()
        .map(|d| d.key())
        .collect();
        assert_eq!(
            keys,
            [
                "generic",
                "later",
                "tooFast",
                "tooSlow",
                "timeControl",
                "rated",
                "casual",
                "variant",
                "later"
            ]
        );
        assert!(Policy::default()
            .describe()
            .contains("alice with a base of 60..=1800 s"));
    }
}
