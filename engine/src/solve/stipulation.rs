//! Stipulations: what a problem asks, in Popeye's notation: `#3`, `=2`, `s#2`, `r#2`,
//! `semi-r#2`, `h#2`, `h#2.5`, `hs#2`, `ser-#5`, `ser-h#4`, `ser-s#3`, `ser-=3`, and the proof
//! games `dia10.5` and `a=>b4`.
//!
//! A stipulation has a play (who cooperates with whom), a goal (mate, stalemate, or for proof
//! games the diagram) and a length in moves; help play and proof games may add a half move
//! (`h#2.5`: the mating side plays one half move first, see [`Stipulation::plies`]).

use crate::error::StipulationError;
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
    /// Reflex play (`r#n`): as self play, but the defender must reach the goal whenever it
    /// can in one move, and the attacker must not be able to reach it in one move (it would
    /// have to).
    Reflex,
    /// Semi-reflex play (`semi-r#n`): only the defender's obligation of [`Play::Reflex`].
    SemiReflex,
    /// Help-self play (`hs#n`): both sides cooperate for `n - 1` moves and a half, then the
    /// side that started forces the other to reach the goal in one move (`s#1`).
    HelpSelf,
    /// Series direct play (`ser-#n`, `ser-=n`): the side to move plays `n` moves in a row
    /// (the other side passes), the last reaching the goal; no earlier one may give check.
    SeriesDirect,
    /// Series help play (`ser-h#n`): the side to move plays `n` moves in a row, then the
    /// other side reaches the goal in one move.
    SeriesHelp,
    /// Series self play (`ser-s#n`): the side to move plays `n` moves in a row, then the
    /// other side is forced to reach the goal in one move.
    SeriesSelf,
    /// A proof game from the variant's start position to the diagram (`dia10.5`).
    ProofGame,
    /// A proof game from a given position to the diagram (`a=>b4`).
    AToB,
}

impl Play {
    /// Series play: one side moves, the other passes.
    pub fn is_series(self) -> bool {
        matches!(self, Play::SeriesDirect | Play::SeriesHelp | Play::SeriesSelf)
    }

    /// Proof games (`dia`, `a=>b`).
    pub fn is_proof(self) -> bool {
        matches!(self, Play::ProofGame | Play::AToB)
    }

    /// Plays whose solutions are lines of moves (help, help-self, series, proof games);
    /// the others (direct, self, reflex) have keys.
    pub fn has_lines(self) -> bool {
        !matches!(self, Play::Direct | Play::SelfPlay | Play::Reflex | Play::SemiReflex)
    }
}

/// What the final move achieves.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum Goal {
    /// The side to move after the final move is checkmated.
    Mate,
    /// The side to move after the final move is stalemated.
    Stalemate,
    /// The diagram (proof games): the same pieces on the same squares and boards, the same
    /// side to move.
    Diagram,
}

/// A parsed stipulation.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub struct Stipulation {
    /// Direct, help, self, reflex, series play or a proof game.
    pub play: Play,
    /// Mate, stalemate or the diagram.
    pub goal: Goal,
    /// Number of full moves (`n` of `#n`).
    pub moves: u32,
    /// The `.5` of a help play or a proof game: one more half move.
    pub half_move: bool,
}

/// Longest stipulation accepted (in moves); deeper problems are far beyond any exhaustive search.
pub const MAX_MOVES: u32 = 30;

impl Stipulation {
    /// Number of half moves a help play line or a proof game has: `2n`, or `2n + 1` with the
    /// half move. (Help-self play: the help part and the forcing move, without the forced
    /// reply.)
    pub fn plies(&self) -> u32 {
        match self.play {
            Play::HelpSelf => 2 * self.moves - 1 + u32::from(self.half_move),
            _ => 2 * self.moves + u32::from(self.half_move),
        }
    }
}

impl FromStr for Stipulation {
    type Err = StipulationError;

    /// Reads the forms listed in the module documentation (case-insensitive).
    fn from_str(text: &str) -> Result<Stipulation, StipulationError> {
        Stipulation::parse_text(text).map_err(StipulationError)
    }
}

impl Stipulation {
    fn parse_text(text: &str) -> Result<Stipulation, String> {
        let t = text.trim().to_ascii_lowercase();
        let bad = || {
            format!(
                "malformed stipulation '{}' (expected #n, =n, s#n, r#n, semi-r#n, h#n, h#n.5, hs#n, \
                 ser-#n, ser-h#n, ser-s#n, ser-=n, dian, dian.5 or a=>bn)",
                text.trim()
            )
        };
        let (play, goal, number) = if let Some(n) = t.strip_prefix("dia") {
            (Play::ProofGame, Goal::Diagram, n)
        } else if let Some(n) = t.strip_prefix("a=>b") {
            (Play::AToB, Goal::Diagram, n)
        } else {
            let (play, rest) = if let Some(r) = t.strip_prefix("ser-h") {
                (Play::SeriesHelp, r)
            } else if let Some(r) = t.strip_prefix("ser-s") {
                (Play::SeriesSelf, r)
            } else if let Some(r) = t.strip_prefix("ser-") {
                (Play::SeriesDirect, r)
            } else if let Some(r) = t.strip_prefix("semi-r") {
                (Play::SemiReflex, r)
            } else if let Some(r) = t.strip_prefix("hs") {
                (Play::HelpSelf, r)
            } else if let Some(r) = t.strip_prefix('h') {
                (Play::Help, r)
            } else if let Some(r) = t.strip_prefix('s') {
                (Play::SelfPlay, r)
            } else if let Some(r) = t.strip_prefix('r') {
                (Play::Reflex, r)
            } else {
                (Play::Direct, &t[..])
            };
            match rest.as_bytes().first() {
                Some(b'#') => (play, Goal::Mate, &rest[1..]),
                Some(b'=') => (play, Goal::Stalemate, &rest[1..]),
                _ => return Err(bad()),
            }
        };
        let (whole, half_move) = match number.strip_suffix(".5") {
            Some(whole) => (whole, true),
            None => (number, false),
        };
        if whole.is_empty() || !whole.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let moves: u32 = whole.parse().map_err(|_| bad())?;
        if half_move && !matches!(play, Play::Help | Play::HelpSelf) && !play.is_proof() {
            return Err(format!(
                "'{}': only help play and proof games take a half move",
                text.trim()
            ));
        }
        if moves == 0 && (!half_move || play == Play::HelpSelf) {
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
            Play::Reflex => "r",
            Play::SemiReflex => "semi-r",
            Play::HelpSelf => "hs",
            Play::SeriesDirect => "ser-",
            Play::SeriesHelp => "ser-h",
            Play::SeriesSelf => "ser-s",
            Play::ProofGame => "dia",
            Play::AToB => "a=>b",
        };
        let goal = match self.goal {
            Goal::Mate => "#",
            Goal::Stalemate => "=",
            Goal::Diagram => "",
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
        for text in [
            "#2", "#3", "h#2", "h#2.5", "h#0.5", "s#2", "=3", "h=2", "s=1", "h=1.5", "r#2", "r=3", "semi-r#2", "hs#2",
            "hs#1.5", "ser-#5", "ser-=3", "ser-h#4", "ser-h=2", "ser-s#3", "dia10.5", "dia4", "a=>b3", "a=>b2.5",
        ] {
            let stip: Stipulation = text.parse().unwrap();
            assert_eq!(stip.to_string(), text);
        }
        let h = "H#2.5".parse::<Stipulation>().unwrap();
        assert_eq!(
            (h.play, h.goal, h.moves, h.half_move, h.plies()),
            (Play::Help, Goal::Mate, 2, true, 5)
        );
        assert_eq!("=4".parse::<Stipulation>().unwrap().goal, Goal::Stalemate);
        assert_eq!("hs#3".parse::<Stipulation>().unwrap().plies(), 5);
        let dia = "DIA10.5".parse::<Stipulation>().unwrap();
        assert_eq!((dia.play, dia.goal, dia.plies()), (Play::ProofGame, Goal::Diagram, 21));
        assert_eq!("ser-h#4".parse::<Stipulation>().unwrap().play, Play::SeriesHelp);
    }

    #[test]
    fn rejects_malformed_stipulations() {
        for text in [
            "",
            "#",
            "h#",
            "#2.5",
            "s#1.5",
            "x#2",
            "#-1",
            "#0",
            "h#2.7",
            "#31",
            "ser-h#2.5",
            "#2a",
            "r#1.5",
            "dia",
            "dia2.7",
            "a=>b",
            "hs#0.5",
            "ser-x3",
            "semi-#2",
        ] {
            assert!(text.parse::<Stipulation>().is_err(), "{text}");
        }
    }
}
