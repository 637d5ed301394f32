//! What the page chooses: the mode (two people, play the engine, analysis, engine against
//! engine), the engines' limits and strength, read from the page's JSON with every field checked.

use serde::Deserialize;
use vorpal_engine::Color;

/// Who moves.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Two people on one screen; no engine.
    Human,
    /// A person plays `human`, the engine the other side.
    Play {
        /// The person's colour.
        human: Color,
    },
    /// Infinite analysis of the shown position; people make the moves.
    Analysis,
    /// Engine against engine.
    Watch,
}

impl Mode {
    /// Name used by the page.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Human => "human",
            Mode::Play { .. } => "play",
            Mode::Analysis => "analysis",
            Mode::Watch => "watch",
        }
    }

    /// True when the mode needs an engine: every mode but two people on one board (a page
    /// between people starts none, so idle tabs do not fill the server's engine cap).
    pub fn needs_engine(self) -> bool {
        self != Mode::Human
    }

    /// True when the engine (not a person) moves for `side`.
    pub fn engine_moves(self, side: Color) -> bool {
        match self {
            Mode::Play { human } => side != human,
            Mode::Watch => true,
            Mode::Human | Mode::Analysis => false,
        }
    }
}

/// How long an engine may think for a move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Limit {
    /// Clocks: base and increment in milliseconds.
    Clock {
        /// Starting time of each side.
        base_ms: u64,
        /// Added after each move.
        inc_ms: u64,
    },
    /// A fixed time per move in milliseconds (no clocks).
    MoveTime(u64),
    /// A fixed depth per move (no clocks).
    Depth(u32),
}

/// Everything the page sets with the `settings` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Who moves.
    pub mode: Mode,
    /// The engines' limit for a move.
    pub limit: Limit,
    /// `Skill Level` (0-20) when the engine has it; None: full strength.
    pub skill: Option<u32>,
    /// `UCI_Elo` with `UCI_LimitStrength` when the engine has it; None: not limited.
    pub elo: Option<u32>,
    /// Lines shown in analysis (1-5).
    pub multipv: u32,
    /// Engine index (into the `--engine` list) for White and for Black (analysis uses White's).
    pub engine: [usize; 2],
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            mode: Mode::Human,
            limit: Limit::Clock {
                base_ms: 180_000,
                inc_ms: 2_000,
            },
            skill: None,
            elo: None,
            multipv: 1,
            engine: [0, 0],
        }
    }
}

/// The fields of the `settings` command (and of the settings a `restore` brings back), as the
/// page sends them: every one may be missing or null (its default), numbers may have a
/// fraction (rounded). Other fields are ignored.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct SettingsFields {
    mode: Option<String>,
    color: Option<String>,
    limit: Option<String>,
    base: Option<f64>,
    inc: Option<f64>,
    movetime: Option<f64>,
    depth: Option<f64>,
    skill: Option<f64>,
    elo: Option<f64>,
    multipv: Option<f64>,
    engine_white: Option<f64>,
    engine_black: Option<f64>,
}

/// The field `key`'s number rounded, checked to lie in `min..=max`; None when not given.
fn number(value: Option<f64>, key: &str, min: u64, max: u64) -> Result<Option<u64>, String> {
    match value {
        None => Ok(None),
        Some(n) => {
            if !(min as f64..=max as f64).contains(&n) {
                return Err(format!("'{key}' must be between {min} and {max}"));
            }
            Ok(Some(n.round() as u64))
        }
    }
}

impl Settings {
    /// Checks the page's settings; `engines` is the number of engines offered.
    pub fn from_fields(v: &SettingsFields, engines: usize) -> Result<Settings, String> {
        let mut s = Settings::default();
        let color = |c: Option<&str>| match c {
            Some("black") => Ok(Color::Black),
            Some("white") | None => Ok(Color::White),
            Some(o) => Err(format!("unknown colour '{o}'")),
        };
        s.mode = match v.mode.as_deref().unwrap_or("human") {
            "human" => Mode::Human,
            "play" => Mode::Play {
                human: color(v.color.as_deref())?,
            },
            "analysis" => Mode::Analysis,
            "watch" => Mode::Watch,
            o => return Err(format!("unknown mode '{o}'")),
        };
        s.limit = match v.limit.as_deref().unwrap_or("clock") {
            "clock" => {
                let base = number(v.base, "base", 1, 36_000_000)?.unwrap_or(180_000);
                let inc = number(v.inc, "inc", 0, 600_000)?.unwrap_or(0);
                Limit::Clock {
                    base_ms: base,
                    inc_ms: inc,
                }
            }
            "movetime" => Limit::MoveTime(number(v.movetime, "movetime", 10, 3_600_000)?.unwrap_or(1000)),
            "depth" => Limit::Depth(number(v.depth, "depth", 1, 99)?.unwrap_or(8) as u32),
            o => return Err(format!("unknown limit '{o}'")),
        };
        s.skill = number(v.skill, "skill", 0, 20)?.map(|n| n as u32);
        s.elo = number(v.elo, "elo", 100, 4000)?.map(|n| n as u32);
        s.multipv = number(v.multipv, "multipv", 1, 5)?.unwrap_or(1) as u32;
        let last = engines.saturating_sub(1) as u64;
        let white = number(v.engine_white, "engineWhite", 0, last)?.unwrap_or(0) as usize;
        let black = number(v.engine_black, "engineBlack", 0, last)?.unwrap_or(white as u64) as usize;
        s.engine = [white, black];
        Ok(s)
    }

    /// The UCI options these settings ask of an engine that lists them (`has`).
    pub fn engine_options(&self, has: impl Fn(&str) -> bool) -> Vec<(String, String)> {
        let mut out = Vec::new();
        if has("MultiPV") {
            let pv = if self.mode == Mode::Analysis { self.multipv } else { 1 };
            out.push(("MultiPV".into(), pv.to_string()));
        }
        if has("UCI_AnalyseMode") {
            out.push(("UCI_AnalyseMode".into(), (self.mode == Mode::Analysis).to_string()));
        }
        if let Some(skill) = self.skill.filter(|_| has("Skill Level")) {
            out.push(("Skill Level".into(), skill.to_string()));
        }
        if let Some(elo) = self.elo.filter(|_| has("UCI_Elo")) {
            out.push(("UCI_LimitStrength".into(), "true".into()));
            out.push(("UCI_Elo".into(), elo.to_string()));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Settings from the page's JSON text.
    fn read(json: &str, engines: usize) -> Result<Settings, String> {
        let fields: SettingsFields = serde_json::from_str(json).map_err(|e| e.to_string())?;
        Settings::from_fields(&fields, engines)
    }

    #[test]
    fn reads_and_checks_settings() {
        let s = read(
            r#"{"mode": "play", "color": "black", "limit": "clock", "base": 60000, "inc": 1000, "skill": 5}"#,
            1,
        )
        .unwrap();
        assert_eq!(s.mode, Mode::Play { human: Color::Black });
        assert!(s.mode.engine_moves(Color::White) && !s.mode.engine_moves(Color::Black));
        assert_eq!(
            s.limit,
            Limit::Clock {
                base_ms: 60000,
                inc_ms: 1000
            }
        );
        let opts = s.engine_options(|_| true);
        assert!(opts.contains(&("Skill Level".into(), "5".into())));
        assert!(opts.contains(&("MultiPV".into(), "1".into())));
        let a = read(r#"{"mode": "analysis", "multipv": 3}"#, 1).unwrap();
        assert!(a.engine_options(|_| true).contains(&("MultiPV".into(), "3".into())));
        assert!(a.engine_options(|_| false).is_empty());
        assert!(read(r#"{"mode": "fly"}"#, 1).is_err());
        assert!(read(r#"{"multipv": 9}"#, 1).is_err());
        assert!(read(r#"{"engineWhite": 1}"#, 1).is_err());
        assert!(read(r#"{"depth": "deep", "limit": "depth"}"#, 1).is_err());
        // Null is a missing field; a fraction is rounded; other fields are ignored.
        let d = read(
            r#"{"limit": "depth", "depth": 7.6, "skill": null, "cmd": "settings"}"#,
            1,
        )
        .unwrap();
        assert_eq!((d.limit, d.skill), (Limit::Depth(8), None));
    }
}
