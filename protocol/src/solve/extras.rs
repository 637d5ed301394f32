//! Popeye's options beyond those `vorpal solve` reads itself: the ones that only change the
//! display or the speed (accepted and ignored), and those that change what is solved
//! (`SetPlay`, `Defence N`, `HalfDuplex`, ...), recorded for `vorpal popeye`.

/// What follows an option word.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Argument {
    /// Nothing.
    None,
    /// A positive number.
    Number,
    /// A number, 0 included.
    Count,
    /// A number, or nothing.
    OptionalNumber,
}

/// One of Popeye's options that `vorpal solve` does not read itself.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ExtraOption {
    /// `SetPlay`: also the set play (the defender's moves before the key).
    SetPlay,
    /// `Defence N`: in direct play, how many moves the defender may make (longer play).
    Defence,
    /// `PostKeyPlay`: the play after the key only.
    PostKeyPlay,
    /// `Threat N`: in direct, self and reflex play, only the attacker's moves that check or
    /// threaten to win within N moves.
    Threat,
    /// `HalfDuplex`: the other side plays the part of the stipulation.
    HalfDuplex,
    /// `Duplex`: solved as given and with the sides' roles exchanged.
    Duplex,
    /// A display or speed option that leaves the solutions as they are (`Intelligent`,
    /// `MoveNumbers`, `Beep`, `NoShortVariations` ...).
    Display(&'static str),
}

/// Options that change only the display or the speed of Popeye, not the solution set.
const DISPLAY: [(&str, Argument); 10] = [
    ("intelligent", Argument::OptionalNumber),
    ("movenumbers", Argument::None),
    ("beep", Argument::None),
    ("suppressgrid", Argument::None),
    ("writegrid", Argument::None),
    ("keepmatingpiece", Argument::None),
    ("startmovenumber", Argument::Number),
    ("upto", Argument::None),
    ("nologging", Argument::None),
    ("nowk", Argument::None),
];

/// True when `word` is `full` or one of its shortenings of at least three letters.
pub(super) fn abbreviates(word: &str, full: &str) -> bool {
    let w = word.to_ascii_lowercase();
    w == full || (w.len() >= 3 && full.starts_with(&w))
}

impl ExtraOption {
    /// The option named by `word` (case-insensitive, shortened to three letters or more).
    pub fn parse(word: &str) -> Option<ExtraOption> {
        let named = [
            ("setplay", ExtraOption::SetPlay),
            ("defence", ExtraOption::Defence),
            ("postkeyplay", ExtraOption::PostKeyPlay),
            ("threat", ExtraOption::Threat),
            ("halfduplex", ExtraOption::HalfDuplex),
            ("duplex", ExtraOption::Duplex),
        ];
        // `duplex` must not catch `dup` meant for nothing else; exact names first.
        if let Some(&(_, o)) = named.iter().find(|(n, _)| word.eq_ignore_ascii_case(n)) {
            return Some(o);
        }
        if let Some(&(_, o)) = named.iter().find(|(n, _)| abbreviates(word, n)) {
            return Some(o);
        }
        DISPLAY
            .iter()
            .find(|(n, _)| abbreviates(word, n))
            .map(|&(n, _)| ExtraOption::Display(n))
    }

    /// What the option takes after its word.
    pub fn argument(self) -> Argument {
        match self {
            ExtraOption::Defence => Argument::Number,
            // `Threat 0`: only checking moves.
            ExtraOption::Threat => Argument::Count,
            ExtraOption::Display(name) => DISPLAY
                .iter()
                .find(|(n, _)| *n == name)
                .map_or(Argument::None, |&(_, a)| a),
            _ => Argument::None,
        }
    }
}

/// The extra options of a problem.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ExtraOptions {
    /// `SetPlay`.
    pub set_play: bool,
    /// `Defence N`.
    pub defence: Option<u64>,
    /// `PostKeyPlay`.
    pub post_key_play: bool,
    /// `Threat N`.
    pub threat: Option<u64>,
    /// `HalfDuplex`.
    pub half_duplex: bool,
    /// `Duplex`.
    pub duplex: bool,
    /// The display and speed options given (Popeye's names).
    pub display: Vec<&'static str>,
}

impl ExtraOptions {
    /// Records `option` with its number.
    pub fn set(&mut self, option: ExtraOption, number: Option<u64>) {
        match option {
            ExtraOption::SetPlay => self.set_play = true,
            ExtraOption::Defence => self.defence = number,
            ExtraOption::PostKeyPlay => self.post_key_play = true,
            ExtraOption::Threat => self.threat = number,
            ExtraOption::HalfDuplex => self.half_duplex = true,
            ExtraOption::Duplex => self.duplex = true,
            ExtraOption::Display(name) => self.display.push(name),
        }
    }

    /// `Threat N` as the solver takes it.
    pub fn max_threat(&self) -> Option<u32> {
        self.threat.map(|t| u32::try_from(t).unwrap_or(u32::MAX))
    }

    /// The first option given that changes the solutions and that no solver mode here plays
    /// yet (Popeye's name), or None. (`HalfDuplex` and `Duplex` are played by `vorpal popeye`
    /// in help play; `Threat N` by both solvers.)
    pub fn unsupported(&self) -> Option<&'static str> {
        [
            (self.set_play, "SetPlay"),
            (self.defence.is_some(), "Defence"),
            (self.post_key_play, "PostKeyPlay"),
        ]
        .iter()
        .find(|(given, _)| *given)
        .map(|&(_, name)| name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_words() {
        assert_eq!(ExtraOption::parse("SetPlay"), Some(ExtraOption::SetPlay));
        assert_eq!(ExtraOption::parse("Duplex"), Some(ExtraOption::Duplex));
        assert_eq!(ExtraOption::parse("HalfDuplex"), Some(ExtraOption::HalfDuplex));
        assert_eq!(ExtraOption::parse("intel"), Some(ExtraOption::Display("intelligent")));
        assert_eq!(ExtraOption::Defence.argument(), Argument::Number);
        assert_eq!(ExtraOption::parse("nosuchoption"), None);
        let mut o = ExtraOptions::default();
        o.set(ExtraOption::Defence, Some(2));
        assert_eq!(o.unsupported(), Some("Defence"));
    }
}
