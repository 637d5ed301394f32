//! The rules of a match as PGN tags and engine options: the `[Variant]` tag names the Alice
//! variant (with ` 960` for Chess960 castling) and `[AliceEnPassant]` the en passant option
//! when it is not the default; reading accepts those names and the UCI names (`ladyalice`).

use vorpal_engine::{EnPassant, Rules, Variant};

/// The PGN name of a variant.
pub fn variant_title(variant: Variant) -> &'static str {
    match variant {
        Variant::Alice => "Alice",
        Variant::LookingGlass => "Looking-glass Alice",
        Variant::LadyAlice => "Lady Alice",
        Variant::ODonohue => "O'Donohue Alice",
        Variant::Duo => "Duo",
        Variant::MiniAlice => "Mini Alice",
        Variant::Alice3 => "Three-board Alice",
    }
}

/// The `[Variant]` tag value of `rules`.
pub fn variant_tag(rules: Rules) -> String {
    let title = variant_title(rules.variant);
    if rules.is_chess960() {
        format!("{title} 960")
    } else {
        title.to_string()
    }
}

/// The `[AliceEnPassant]` tag value, when the option differs from the default.
pub fn en_passant_tag(rules: Rules) -> Option<&'static str> {
    (rules.ep_mode() != EnPassant::Off).then(|| rules.ep_mode().name())
}

/// Letters and digits only, lower case: `O'Donohue Alice` and `odonohue alice` compare equal.
fn squash(s: &str) -> String {
    s.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// The variant and Chess960 flag named by a `[Variant]` tag value (title or UCI name).
pub fn parse_variant_tag(tag: &str) -> Option<(Variant, bool)> {
    let key = squash(tag);
    let (key, chess960) = match key.strip_suffix("960") {
        Some(k) => (k.to_string(), true),
        None => (key, false),
    };
    Variant::ALL
        .into_iter()
        .find(|&v| squash(variant_title(v)) == key || squash(v.name()) == key)
        .map(|v| (v, chess960))
}

/// Checks that the tags of a game (`variant`, `en_passant`) agree with the `rules` it is read
/// under; a game without tags is taken to be played under `rules`.
pub fn check_tags(variant: Option<&str>, en_passant: Option<&str>, rules: Rules) -> Result<(), String> {
    if let Some(tag) = variant {
        let (v, chess960) =
            parse_variant_tag(tag).ok_or_else(|| format!("unknown variant '{tag}' in the Variant tag"))?;
        if v != rules.variant || chess960 != rules.is_chess960() {
            return Err(format!(
                "game of variant '{tag}', but the rules are '{}'",
                variant_tag(rules)
            ));
        }
    }
    let mode = match en_passant {
        Some(m) => m.parse::<EnPassant>()?,
        None => EnPassant::Off,
    };
    if mode != rules.ep_mode() {
        return Err(format!(
            "game with en passant '{}', but the rules have '{}'",
            mode.name(),
            rules.ep_mode().name()
        ));
    }
    Ok(())
}

/// The rules a game's tags name (`variant`, `en_passant`: the `[Variant]` and
/// `[AliceEnPassant]` values): without a `[Variant]` tag the game is played under `current`
/// (with its en passant option unless `[AliceEnPassant]` names one); with one, under that
/// variant and en passant off unless `[AliceEnPassant]` says otherwise.
pub fn rules_from_tags(variant: Option<&str>, en_passant: Option<&str>, current: Rules) -> Result<Rules, String> {
    let mut rules = current;
    if let Some(tag) = variant {
        let (variant, chess960) =
            parse_variant_tag(tag).ok_or_else(|| format!("unknown variant '{tag}' in the Variant tag"))?;
        rules = Rules::for_variant(variant).with_chess960(chess960);
    }
    if let Some(ep) = en_passant {
        rules = rules.with_ep(ep.parse::<EnPassant>()?);
    } else if variant.is_some() {
        rules = rules.with_ep(EnPassant::Off);
    }
    Ok(rules)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_tag_reads_back() {
        for v in Variant::ALL {
            for chess960 in [false, true] {
                let rules = Rules::for_variant(v).with_chess960(chess960);
                let tag = variant_tag(rules);
                assert_eq!(parse_variant_tag(&tag), Some((v, rules.is_chess960())), "{tag}");
                assert_eq!(parse_variant_tag(v.name()), Some((v, false)));
                assert!(check_tags(Some(&tag), en_passant_tag(rules), rules).is_ok());
            }
        }
        assert_eq!(parse_variant_tag("Chess"), None);
    }

    #[test]
    fn rules_come_from_the_tags() {
        let lady = Rules::for_variant(Variant::LadyAlice).with_ep(EnPassant::Normal);
        assert_eq!(rules_from_tags(None, None, lady), Ok(lady));
        assert_eq!(rules_from_tags(Some("Alice"), None, lady), Ok(Rules::default()));
        let mini = rules_from_tags(Some("Mini Alice 960"), Some("double"), lady).unwrap();
        assert_eq!(
            mini,
            Rules::for_variant(Variant::MiniAlice)
                .with_chess960(true)
                .with_ep(EnPassant::Double)
        );
        assert!(rules_from_tags(Some("Crazyhouse"), None, lady)
            .unwrap_err()
            .contains("Crazyhouse"));
        assert!(rules_from_tags(None, Some("sometimes"), lady).is_err());
    }

    #[test]
    fn mismatched_tags_are_refused() {
        let lady = Rules::for_variant(Variant::LadyAlice);
        assert!(check_tags(Some("Alice"), None, lady).is_err());
        assert!(check_tags(Some("Lady Alice"), Some("normal"), lady).is_err());
        assert!(check_tags(Some("lady alice"), None, lady).is_ok());
        let ep = Rules::default().with_ep(EnPassant::Double);
        assert_eq!(en_passant_tag(ep), Some("double"));
        assert!(check_tags(Some("Alice"), Some("double"), ep).is_ok());
        assert!(check_tags(Some("Alice"), None, ep).is_err());
    }
}
