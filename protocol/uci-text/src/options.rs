//! The UCI options: their listing for `uci`, and the parsing and checking of `setoption`.
//!
//! Parsing never changes anything: it turns a `setoption` line into a checked [`Change`] (or an
//! error message), and the UCI loop applies it.

use vorpal_engine::search::{SearchOptions, SearchParams, ELO_RANGE};
use vorpal_engine::{EnPassant, Rules, Variant};

/// Lowest `UCI_Elo` (the engine's strength model's range).
pub const ELO_MIN: u32 = ELO_RANGE.0;
/// Highest `UCI_Elo`.
pub const ELO_MAX: u32 = ELO_RANGE.1;
/// Default `UCI_Elo`: the middle of the range.
pub const ELO_DEFAULT: u32 = (ELO_MIN + ELO_MAX) / 2;
/// Largest `Hash` in MB (the engine may still fail to allocate less; that is reported).
pub const HASH_MAX: i64 = 65_536;
/// Most search threads.
pub const THREADS_MAX: i64 = 1024;
/// Most principal variations.
pub const MULTIPV_MAX: i64 = 256;
/// The `EvalFile` value naming the network built into the binary.
pub const EMBEDDED_NET: &str = "<embedded>";
/// Largest `Move Overhead` in ms.
pub const OVERHEAD_MAX: i64 = 5000;

/// The type and range of one option, as listed by `uci`.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Kind {
    Check(bool),
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Combo {
        default: &'static str,
        vars: Vec<&'static str>,
    },
    Button,
    /// A string with its default as listed (`<empty>` for none).
    Str(&'static str),
}

/// Identifies an option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Id {
    DebugLogFile,
    Threads,
    Hash,
    ClearHash,
    Ponder,
    MultiPv,
    SkillLevel,
    MoveOverhead,
    Chess960,
    Variant,
    AnalyseMode,
    LimitStrength,
    Elo,
    ShowWdl,
    AliceEnPassant,
    EvalFile,
    UseNnue,
    AliceTbPath,
    /// A search parameter (index into `SearchParams::SPECS`); listed only in the `tune` build.
    #[cfg_attr(not(feature = "tune"), allow(dead_code))]
    SearchParam(usize),
}

struct OptionDef {
    id: Id,
    name: &'static str,
    kind: Kind,
}

fn definitions() -> Vec<OptionDef> {
    let d = SearchOptions::default();
    let spin = |default: i64, min: i64, max: i64| Kind::Spin { default, min, max };
    let def = |id, name, kind| OptionDef { id, name, kind };
    #[cfg_attr(not(feature = "tune"), allow(unused_mut))]
    let mut defs = vec![
        def(Id::DebugLogFile, "Debug Log File", Kind::Str("<empty>")),
        def(Id::Threads, "Threads", spin(d.threads as i64, 1, THREADS_MAX)),
        def(Id::Hash, "Hash", spin(d.hash_mb as i64, 1, HASH_MAX)),
        def(Id::ClearHash, "Clear Hash", Kind::Button),
        def(Id::Ponder, "Ponder", Kind::Check(false)),
        def(Id::MultiPv, "MultiPV", spin(d.multipv as i64, 1, MULTIPV_MAX)),
        def(Id::SkillLevel, "Skill Level", spin(d.skill_level as i64, 0, 20)),
        def(
            Id::MoveOverhead,
            "Move Overhead",
            spin(d.move_overhead_ms as i64, 0, OVERHEAD_MAX),
        ),
        def(Id::Chess960, "UCI_Chess960", Kind::Check(false)),
        def(
            Id::Variant,
            "UCI_Variant",
            Kind::Combo {
                default: Variant::default().name(),
                vars: Variant::ALL.iter().map(|v| v.name()).collect(),
            },
        ),
        def(Id::AnalyseMode, "UCI_AnalyseMode", Kind::Check(false)),
        def(Id::LimitStrength, "UCI_LimitStrength", Kind::Check(false)),
        def(
            Id::Elo,
            "UCI_Elo",
            spin(ELO_DEFAULT as i64, ELO_MIN as i64, ELO_MAX as i64),
        ),
        def(Id::ShowWdl, "UCI_ShowWDL", Kind::Check(false)),
        def(
            Id::AliceEnPassant,
            "AliceEnPassant",
            Kind::Combo {
                default: EnPassant::default().name(),
                vars: EnPassant::ALL.iter().map(|m| m.name()).collect(),
            },
        ),
        def(Id::EvalFile, "EvalFile", Kind::Str(EMBEDDED_NET)),
        def(Id::UseNnue, "UseNNUE", Kind::Check(true)),
        def(Id::AliceTbPath, "AliceTbPath", Kind::Str("<empty>")),
    ];
    // The `tune` build exposes every search parameter as a spin option for SPSA.
    #[cfg(feature = "tune")]
    defs.extend(SearchParams::SPECS.iter().enumerate().map(|(i, p)| OptionDef {
        id: Id::SearchParam(i),
        name: p.name,
        kind: spin(p.default as i64, p.min as i64, p.max as i64),
    }));
    defs
}

/// The `option name ...` lines printed by `uci`, in Stockfish's format.
pub fn option_lines() -> Vec<String> {
    definitions()
        .into_iter()
        .map(|o| {
            let kind = match &o.kind {
                Kind::Check(default) => format!("type check default {default}"),
                Kind::Spin { default, min, max } => format!("type spin default {default} min {min} max {max}"),
                Kind::Combo { default, vars } => {
                    let vars: Vec<String> = vars.iter().map(|v| format!("var {v}")).collect();
                    format!("type combo default {default} {}", vars.join(" "))
                }
                Kind::Button => "type button".to_string(),
                Kind::Str(default) => format!("type string default {default}"),
            };
            format!("option name {} {kind}", o.name)
        })
        .collect()
}

/// Options CECP sets with commands of its own (`cores`, `memory`, `hard`/`easy`, `variant`,
/// `analyze`) or that mean nothing there (`UCI_ShowWDL`): not offered as `feature option`.
const NOT_IN_CECP: [Id; 6] = [
    Id::Threads,
    Id::Hash,
    Id::Ponder,
    Id::Variant,
    Id::AnalyseMode,
    Id::ShowWdl,
];

/// The `feature option="..."` lines of CECP (protocol 2) mirroring the UCI options, with
/// their defaults: `-check 0|1`, `-spin D MIN MAX`, `-combo *D /// V2 ...`, `-button`, and
/// `-file` for the debug log.
pub fn cecp_option_features() -> Vec<String> {
    definitions()
        .into_iter()
        .filter(|o| !NOT_IN_CECP.contains(&o.id))
        .map(|o| {
            let kind = match &o.kind {
                Kind::Check(default) => format!("-check {}", u8::from(*default)),
                Kind::Spin { default, min, max } => format!("-spin {default} {min} {max}"),
                Kind::Combo { default, vars } => {
                    let vars: Vec<String> = vars
                        .iter()
                        .map(|v| if v == default { format!("*{v}") } else { v.to_string() })
                        .collect();
                    format!("-combo {}", vars.join(" /// "))
                }
                Kind::Button => "-button".to_string(),
                Kind::Str(default) => format!("-file {}", if *default == "<empty>" { "" } else { default }),
            };
            format!("feature option=\"{} {kind}\"", o.name)
        })
        .collect()
}

/// Parses the text after CECP `option`: `NAME=VALUE` or `NAME` (buttons), with the names of
/// [`cecp_option_features`] (case-insensitive) and `0`/`1` for checks.
pub fn parse_cecp_option(text: &str) -> Result<Change, String> {
    let (name, value) = match text.split_once('=') {
        Some((name, value)) => (name.trim(), Some(value.trim())),
        None => (text.trim(), None),
    };
    let Some(def) = definitions()
        .into_iter()
        .find(|o| o.name.eq_ignore_ascii_case(name) && !NOT_IN_CECP.contains(&o.id))
    else {
        return Err(format!("unknown option '{name}'"));
    };
    let value = match (&def.kind, value) {
        (Kind::Check(_), Some("1")) => Some("true"),
        (Kind::Check(_), Some("0")) => Some("false"),
        (_, value) => value,
    };
    let line = match value {
        Some(v) if def.kind != Kind::Button => format!("setoption name {} value {v}", def.name),
        _ => format!("setoption name {}", def.name),
    };
    let words: Vec<&str> = line.split_whitespace().collect();
    parse_setoption(&words[1..], &line)
}

/// A checked option change, ready to apply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// `Debug Log File` (empty: stop logging).
    DebugLogFile(String),
    /// `Threads`.
    Threads(usize),
    /// `Hash` in MB.
    Hash(usize),
    /// `Clear Hash` pressed.
    ClearHash,
    /// `Ponder`.
    Ponder(bool),
    /// `MultiPV`.
    MultiPv(usize),
    /// `Skill Level`.
    SkillLevel(u32),
    /// `Move Overhead` in ms.
    MoveOverhead(u64),
    /// `UCI_Chess960`.
    Chess960(bool),
    /// `UCI_Variant`.
    Variant(Variant),
    /// `UCI_AnalyseMode`.
    AnalyseMode(bool),
    /// `UCI_LimitStrength`.
    LimitStrength(bool),
    /// `UCI_Elo`.
    Elo(u32),
    /// `UCI_ShowWDL`.
    ShowWdl(bool),
    /// `AliceEnPassant`.
    EnPassant(EnPassant),
    /// `EvalFile`: a network file to load, or `<embedded>` for the built-in one.
    EvalFile(String),
    /// `UseNNUE`: evaluate with the network where one exists for the variant.
    UseNnue(bool),
    /// `AliceTbPath`: the directory of the endgame tables (empty: none).
    AliceTbPath(String),
    /// A search parameter (`tune` build): its name and value.
    SearchParam(&'static str, i32),
}

/// Parses the words after `setoption` (`name <id> [value <x>]`), names case-insensitive.
/// `raw` is the whole input line: a string value is taken from it verbatim (inner spaces kept).
pub fn parse_setoption(words: &[&str], raw: &str) -> Result<Change, String> {
    let ["name", rest @ ..] = words else {
        return Err("setoption: expected 'setoption name <id> [value <x>]'".into());
    };
    let split = rest.iter().position(|w| w.eq_ignore_ascii_case("value"));
    let (name_words, value_words) = match split {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    let name = name_words.join(" ");
    if name.is_empty() {
        return Err("setoption: missing option name".into());
    }
    let defs = definitions();
    let Some(def) = defs.iter().find(|d| d.name.eq_ignore_ascii_case(&name)) else {
        return Err(format!("setoption: unknown option '{name}'"));
    };
    let value = value_words.map(|w| w.join(" ")).unwrap_or_default();
    let missing = || format!("setoption: option '{}' needs a value", def.name);
    let number = |v: &str, min: i64, max: i64| -> Result<i64, String> {
        match v.parse::<i64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(n),
            _ => Err(format!(
                "setoption: value '{v}' for '{}' is not an integer in {min}..={max}; unchanged",
                def.name
            )),
        }
    };
    let change = match &def.kind {
        Kind::Button => {
            return Ok(match def.id {
                Id::ClearHash => Change::ClearHash,
                _ => unreachable!("only Clear Hash is a button"),
            })
        }
        Kind::Str(_) if def.id == Id::EvalFile => {
            let text = raw_value(raw).unwrap_or_default();
            if text.is_empty() {
                return Err(missing());
            }
            Change::EvalFile(text)
        }
        Kind::Str(_) => {
            let text = raw_value(raw).unwrap_or_default();
            let text = if text == "<empty>" { String::new() } else { text };
            if def.id == Id::AliceTbPath {
                Change::AliceTbPath(text)
            } else {
                Change::DebugLogFile(text)
            }
        }
        _ if value_words.is_none() || value.is_empty() => return Err(missing()),
        Kind::Check(_) => {
            let on = match value.to_ascii_lowercase().as_str() {
                "true" => true,
                "false" => false,
                _ => {
                    return Err(format!(
                        "setoption: value '{value}' for '{}' must be true or false; unchanged",
                        def.name
                    ))
                }
            };
            match def.id {
                Id::Ponder => Change::Ponder(on),
                Id::Chess960 => Change::Chess960(on),
                Id::AnalyseMode => Change::AnalyseMode(on),
                Id::LimitStrength => Change::LimitStrength(on),
                Id::UseNnue => Change::UseNnue(on),
                _ => Change::ShowWdl(on),
            }
        }
        Kind::Spin { min, max, .. } => {
            let n = number(&value, *min, *max)?;
            match def.id {
                Id::Threads => Change::Threads(n as usize),
                Id::Hash => Change::Hash(n as usize),
                Id::MultiPv => Change::MultiPv(n as usize),
                Id::SkillLevel => Change::SkillLevel(n as u32),
                Id::MoveOverhead => Change::MoveOverhead(n as u64),
                Id::SearchParam(i) => Change::SearchParam(SearchParams::SPECS[i].name, n as i32),
                _ => Change::Elo(n as u32),
            }
        }
        Kind::Combo { vars, .. } => {
            let Some(var) = vars.iter().find(|v| v.eq_ignore_ascii_case(&value)) else {
                return Err(format!(
                    "setoption: value '{value}' for '{}' is not one of: {}; unchanged",
                    def.name,
                    vars.join(", ")
                ));
            };
            match def.id {
                Id::Variant => Change::Variant(var.parse()?),
                _ => Change::EnPassant(var.parse()?),
            }
        }
    };
    Ok(change)
}

/// The text after the first ` value ` of a raw `setoption` line, spaces inside kept.
fn raw_value(raw: &str) -> Option<String> {
    // ASCII lower-casing keeps byte offsets, so positions found in `lower` index `raw`.
    let lower = raw.to_ascii_lowercase();
    let bytes = lower.as_bytes();
    let mut i = lower.find("name")? + 4;
    while let Some(off) = lower[i..].find("value") {
        let at = i + off;
        let before = bytes[at - 1].is_ascii_whitespace();
        let after = at + 5 == bytes.len() || bytes[at + 5].is_ascii_whitespace();
        if before && after {
            return Some(raw.get(at + 5..)?.trim().to_string());
        }
        i = at + 5;
    }
    None
}

/// Memory the system can still give, in MB, where it is known (Linux `MemAvailable`). A
/// `Hash` larger than this is refused instead of letting the process be killed while the
/// table is filled.
pub fn available_memory_mb() -> Option<usize> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

/// The values of every option (the engine's own settings live in `search`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Options passed to the searcher.
    pub search: SearchOptions,
    /// `Ponder` (informational: the GUI decides when to ponder).
    pub ponder: bool,
    /// `UCI_AnalyseMode`.
    pub analyse_mode: bool,
    /// `UCI_ShowWDL`.
    pub show_wdl: bool,
    /// `UCI_LimitStrength`.
    pub limit_strength: bool,
    /// `UCI_Elo`.
    pub elo: u32,
    /// `UCI_Variant`.
    pub variant: Variant,
    /// `UCI_Chess960`.
    pub chess960: bool,
    /// `AliceEnPassant`.
    pub en_passant: EnPassant,
    /// `Debug Log File` (empty: none).
    pub debug_log: String,
    /// `EvalFile`: the network in use (`<embedded>`: the built-in one).
    pub eval_file: String,
    /// `UseNNUE`.
    pub use_nnue: bool,
    /// `AliceTbPath` (empty: no tables).
    pub tb_path: String,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            search: SearchOptions::default(),
            ponder: false,
            analyse_mode: false,
            show_wdl: false,
            limit_strength: false,
            elo: ELO_DEFAULT,
            variant: Variant::default(),
            chess960: false,
            en_passant: EnPassant::default(),
            debug_log: String::new(),
            eval_file: EMBEDDED_NET.to_string(),
            use_nnue: true,
            tb_path: String::new(),
        }
    }
}

impl Settings {
    /// The rules positions are set up under.
    pub fn rules(&self) -> Rules {
        Rules::for_variant(self.variant)
            .with_ep(self.en_passant)
            .with_chess960(self.chess960)
    }

    /// The searcher options implied by these settings (`UCI_Elo` applies only while
    /// `UCI_LimitStrength` is on).
    pub fn search_options(&self) -> SearchOptions {
        SearchOptions {
            limit_elo: self.limit_strength.then_some(self.elo),
            ..self.search.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Result<Change, String> {
        let words: Vec<&str> = line.split_whitespace().collect();
        parse_setoption(&words[1..], line)
    }

    #[test]
    fn listing_has_every_option_and_no_trailing_space() {
        let lines = option_lines();
        assert_eq!(lines.len(), 18);
        assert!(lines.iter().all(|l| !l.ends_with(' ')));
        assert!(lines.contains(&"option name AliceTbPath type string default <empty>".to_string()));
        assert!(lines.contains(&"option name EvalFile type string default <embedded>".to_string()));
        assert!(lines.contains(&"option name UseNNUE type check default true".to_string()));
        assert!(lines.contains(&"option name Clear Hash type button".to_string()));
        assert!(lines
            .iter()
            .any(|l| l.starts_with("option name UCI_Variant type combo default alice var alice var ")));
        assert!(lines
            .contains(&"option name AliceEnPassant type combo default off var off var normal var double".to_string()));
    }

    #[test]
    fn names_are_case_insensitive_and_values_checked() {
        assert_eq!(parse("setoption name hash value 64"), Ok(Change::Hash(64)));
        assert_eq!(
            parse("setoption name MOVE overhead value 30"),
            Ok(Change::MoveOverhead(30))
        );
        assert_eq!(parse("setoption name Clear Hash"), Ok(Change::ClearHash));
        assert_eq!(
            parse("setoption name EvalFile value /nets/my net.nnue"),
            Ok(Change::EvalFile("/nets/my net.nnue".into()))
        );
        assert!(parse("setoption name EvalFile value").is_err());
        assert_eq!(parse("setoption name usennue value false"), Ok(Change::UseNnue(false)));
        assert_eq!(
            parse("setoption name UCI_ShowWDL value TRUE"),
            Ok(Change::ShowWdl(true))
        );
        assert_eq!(
            parse("setoption name AliceEnPassant value Double"),
            Ok(Change::EnPassant(EnPassant::Double))
        );
        assert!(parse("setoption name Hash value 0").is_err());
        assert!(parse("setoption name Hash value lots").is_err());
        assert!(parse("setoption name Hash").is_err());
        assert!(parse("setoption name Ponder value maybe").is_err());
        assert!(parse("setoption name UCI_Variant value crazyhouse").is_err());
        assert!(parse("setoption name NoSuchOption value 1").is_err());
        assert!(parse("setoption Hash 1").is_err());
    }

    #[test]
    fn cecp_features_and_option_commands() {
        let features = cecp_option_features();
        assert!(features.contains(&"feature option=\"Clear Hash -button\"".to_string()));
        assert!(features.contains(&"feature option=\"AliceEnPassant -combo *off /// normal /// double\"".to_string()));
        assert!(features.contains(&"feature option=\"Skill Level -spin 20 0 20\"".to_string()));
        assert!(!features
            .iter()
            .any(|f| f.contains("Hash -spin") || f.contains("UCI_Variant")));
        assert_eq!(parse_cecp_option("Skill Level=5"), Ok(Change::SkillLevel(5)));
        assert_eq!(parse_cecp_option("UCI_Chess960=1"), Ok(Change::Chess960(true)));
        assert_eq!(parse_cecp_option("clear hash"), Ok(Change::ClearHash));
        assert_eq!(
            parse_cecp_option("AliceEnPassant=normal"),
            Ok(Change::EnPassant(EnPassant::Normal))
        );
        assert!(parse_cecp_option("Hash=64").is_err());
        assert!(parse_cecp_option("Skill Level=99").is_err());
    }

    #[test]
    fn string_values_keep_their_spaces() {
        assert_eq!(
            parse("setoption name Debug Log File value /tmp/my  log.txt"),
            Ok(Change::DebugLogFile("/tmp/my  log.txt".into()))
        );
        assert_eq!(
            parse("setoption name Debug Log File value <empty>"),
            Ok(Change::DebugLogFile(String::new()))
        );
    }
}
