//! What an engine says between `uci` and `uciok` (its name and options), and the commands
//! that set it up for a game's rules: the handshake of every UCI client Vorpal has, the one
//! that drives a process over pipes ([`crate::engine_process`]) and the browser build's,
//! which drives a Web Worker.

use vorpal_engine::{EnPassant, Rules};

/// The engine's answers to `uci`, read line by line until `uciok`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UciHello {
    id_name: Option<String>,
    /// Option names, in the order listed.
    options: Vec<String>,
    /// Each `option name …` line without its `option name ` prefix.
    specs: Vec<String>,
}

impl UciHello {
    /// Takes in one line of the handshake; true on `uciok` (the handshake's end).
    pub fn read(&mut self, line: &str) -> bool {
        let line = line.trim();
        if line == "uciok" {
            return true;
        }
        if let Some(rest) = line.strip_prefix("id name ") {
            self.id_name = Some(rest.trim().to_string());
        } else if let Some(rest) = line.strip_prefix("option name ") {
            let name = rest.split(" type ").next().unwrap_or(rest).trim();
            self.options.push(name.to_string());
            self.specs.push(rest.trim().to_string());
        }
        false
    }

    /// The `setoption` commands after `uciok`: the rules' options the engine lists
    /// (`UCI_Variant`, `UCI_Chess960`, `AliceEnPassant`) unless `configured`, then every
    /// `configured` option (name, value) in order (with the names of those the engine does not
    /// list, for a warning).
    pub fn setup(&self, configured: &[(String, String)], rules: Rules) -> (Vec<String>, Vec<String>) {
        let mut rule_options = vec![("UCI_Variant", rules.variant.name().to_string())];
        if rules.is_chess960() {
            rule_options.push(("UCI_Chess960", "true".into()));
        }
        if rules.ep_mode() != EnPassant::Off {
            rule_options.push(("AliceEnPassant", rules.ep_mode().name().into()));
        }
        let mut commands = Vec::new();
        for (name, value) in rule_options {
            let set = configured.iter().any(|(k, _)| k.eq_ignore_ascii_case(name));
            if !set && self.has_option(name) {
                commands.push(format!("setoption name {name} value {value}"));
            }
        }
        let mut unlisted = Vec::new();
        for (k, v) in configured {
            if !self.has_option(k) {
                unlisted.push(k.clone());
            }
            commands.push(format!("setoption name {k} value {v}"));
        }
        (commands, unlisted)
    }

    /// The engine's own name (`id name`), if it sent one.
    pub fn id_name(&self) -> Option<&str> {
        self.id_name.as_deref()
    }

    /// True when the engine listed the option `name` (case-insensitive).
    pub fn has_option(&self, name: &str) -> bool {
        self.options.iter().any(|o| o.eq_ignore_ascii_case(name))
    }

    fn spec(&self, name: &str) -> Option<&String> {
        self.specs.iter().find(|s| {
            s.split(" type ")
                .next()
                .is_some_and(|n| n.trim().eq_ignore_ascii_case(name))
        })
    }

    /// The `min` and `max` of the spin option `name`, when the engine lists it as a spin.
    pub fn spin_range(&self, name: &str) -> Option<(i64, i64)> {
        let spec = self.spec(name)?;
        if !spec.contains(" type spin") {
            return None;
        }
        let words: Vec<&str> = spec.split_whitespace().collect();
        let value = |key: &str| words.windows(2).find(|w| w[0] == key).and_then(|w| w[1].parse().ok());
        Some((value("min")?, value("max")?))
    }

    /// The values of the combo option `name` (`var` entries of its `option` line), empty when
    /// the engine does not list it as a combo.
    pub fn combo_values(&self, name: &str) -> Vec<String> {
        let Some(spec) = self.spec(name) else {
            return Vec::new();
        };
        if !spec.contains(" type combo") {
            return Vec::new();
        }
        let words: Vec<&str> = spec.split_whitespace().collect();
        words
            .windows(2)
            .filter(|w| w[0] == "var")
            .map(|w| w[1].to_string())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_handshake_read_and_the_rules_set() {
        let mut hello = UciHello::default();
        for line in [
            "id name Vorpal 0.1",
            "option name UCI_Variant type combo default alice var alice var minialice",
            "option name UCI_Elo type spin default 1500 min 600 max 2800",
            "option name AliceEnPassant type combo default off var off var normal",
        ] {
            assert!(!hello.read(line));
        }
        assert!(hello.read("uciok"));
        assert_eq!(hello.id_name(), Some("Vorpal 0.1"));
        assert_eq!(hello.combo_values("uci_variant"), ["alice", "minialice"]);
        assert_eq!(hello.spin_range("UCI_Elo"), Some((600, 2800)));
        assert_eq!(hello.spin_range("UCI_Variant"), None);
        let configured = [("Hash".to_string(), "16".to_string())];
        let rules = Rules {
            variant: vorpal_engine::Variant::Alice,
            en_passant: EnPassant::Normal,
            chess960: false,
        };
        let (commands, unlisted) = hello.setup(&configured, rules);
        assert_eq!(
            commands,
            [
                "setoption name UCI_Variant value alice",
                "setoption name AliceEnPassant value normal",
                "setoption name Hash value 16"
            ]
        );
        assert_eq!(unlisted, ["Hash"]);
    }
}
