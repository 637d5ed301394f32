//! Stipulations: what a problem asks (`#3`, `h#2`, `h#2.5`, `s#2`, `=2`, `h=2`).
//!
//! A stipulation has a play (direct, help or self), a goal (mate or stalemate) and a length in
//! moves; a helpmate may add a half move (`h#2.5`: the mating side plays one half move first,
//! see [`Stipulation::plies`]).

use std::fmt;
use std::str::FromStr;

/// Who cooperates with whom.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum Play {
    /// The side to move forces the goal against any defence (`#n`, `=n`).
    Direct,
    /// Both sides cooperate; the last move reaches the goal (`h#n`, `h#n.5`, `h=n`).
    Help,
    /// The side to move forces the other side to reach the goal against it (`s#n`, `s=n`).
    SelfPlay,
}

/// What the final move achieves.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum Goal {
    /// The side to move after the final move is checkmated.
    Mate,
    /// The side to move after the final move is stalemated.
    Stalemate,
}

/// A parsed stipulation.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub struct Stipulation {
    /// Direct, help or self play.
    pub play: Play,
    /// Mate or stalemate.
    pub goal: Goal,
    /// Number of full moves (`n` of `#n`).
    pub moves: u32,
    /// The `.5` of a helpmate: one more half move, played first.
    pub half_move: bool,
}

/// Longest stipulation accepted (in moves); deeper problems are far beyond any exhaustive search.
pub const MAX_MOVES: u32 = 30;

impl Stipulation {
    /// Number of half moves a helpmate line has: `2n`, or `2n + 1` with the half move.
    pub fn plies(&self) -> u32 {
        2 * self.moves + u32::from(self.half_move)
    }
}

impl FromStr for Stipulation {
    type Err = String;

    /// Reads `#n`, `=n`, `h#n`, `h#n.5`, `h=n`, `h=n.5`, `s#n`, `s=n` (case-insensitive).
    fn from_str(text: &str) -> Result<Stipulation, String> {
        let t = text.trim().to_ascii_lowercase();
        let bad = || {
            format!(
                "malformed stipulation '{}' (expected #n, h#n, h#n.5, s#n, =n or h=n)",
                text.trim()
            )
        };
        let (play, rest) = match t.as_bytes().first() {
            Some(b'h') => (Play::Help, &t[1..]),
            Some(b's') => (Play::SelfPlay, &t[1..]),
            _ => (Play::Direct, &t[..]),
        };
        let (goal, number) = match rest.as_bytes().first() {
            Some(b'#') => (Goal::Mate, &rest[1..]),
            Some(b'=') => (Goal::Stalemate, &rest[1..]),
            _ => return Err(bad()),
        };
        let (whole, half_move) = match number.strip_suffix(".5") {
            Some(whole) => (whole, true),
            None => (number, false),
        };
        if whole.is_empty() || !whole.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let moves: u32 = whole.parse().map_err(|_| bad())?;
        if half_move && play != Play::Help {
            return Err(format!("'{}': only helpmates take a half move", text.trim()));
        }
        if moves == 0 && !half_move {
            return Err(format!("'{}': the stipulation needs at least one move", text.trim()));
        }
        if moves > MAX_MOVES {
            return Err(format!("'{}': at most {MAX_MOVES} moves are supported", text.trim()));
        }
        Ok(Stipulation {
            play,
            goal,
            moves,
            half_move,
        })
    }
}

impl fmt::Display for Stipulation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let play = match self.play {
            Play::Direct => "",
            Play::Help => "h",
            Play::SelfPlay => "s",
        };
        let goal = match self.goal {
            Goal::Mate => '#',
            Goal::Stalemate => '=',
        };
        let half = if self.half_move { ".5" } else { "" };
        write!(f, "{play}{goal}{}{half}", self.moves)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_form_and_writes_it_back() {
        for text in ["#2", "#3", "h#2", "h#2.5", "h#0.5", "s#2", "=3", "h=2", "s=1", "h=1.5"] {
            let stip: Stipulation = text.parse().unwrap();
            assert_eq!(stip.to_string(), text);
        }
        let h = "H#2.5".parse::<Stipulation>().unwrap();
        assert_eq!(
            (h.play, h.goal, h.moves, h.half_move, h.plies()),
            (Play::Help, Goal::Mate, 2, true, 5)
        );
        assert_eq!("=4".parse::<Stipulation>().unwrap().goal, Goal::Stalemate);
    }

    #[test]
    fn rejects_malformed_stipulations() {
        for text in [
            "", "#", "h#", "#2.5", "s#1.5", "x#2", "#-1", "#0", "h#2.7", "#31", "ser-h#3", "#2a",
        ] {
            assert!(text.parse::<Stipulation>().is_err(), "{text}");
        }
    }
}
