//! Value parsers the tools' command lines share (clap adds the option's name to their errors).

use std::time::Duration;
use vorpal_engine::Variant;

/// A count of at least 1.
pub fn positive_count(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err("0 is not at least 1".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("'{text}' is not a whole number")),
    }
}

/// A duration in seconds, finite and not negative (`0.5`).
pub fn seconds(text: &str) -> Result<Duration, String> {
    let s: f64 = text
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds"))?;
    Duration::try_from_secs_f64(s).map_err(|_| format!("{text} is not a number of seconds"))
}

/// A duration in seconds, finite and above 0.
pub fn positive_seconds(text: &str) -> Result<Duration, String> {
    seconds(text)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| format!("{text} is not a positive number of seconds"))
}

/// An on/off value: `true`, `on`, `1` or `false`, `off`, `0`.
pub fn switch(text: &str) -> Result<bool, String> {
    match text {
        "true" | "on" | "1" => Ok(true),
        "false" | "off" | "0" => Ok(false),
        _ => Err(format!("'{text}' is not true or false")),
    }
}

/// The help of a `--variant` option: the names it takes, on a line of their own.
pub fn variant_help() -> String {
    let names: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
    format!("Rules refereed and sent as UCI_Variant:\n{}", names.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_checked() {
        assert_eq!(positive_count("3"), Ok(3));
        assert!(positive_count("0").is_err() && positive_count("x").is_err());
        assert_eq!(seconds("0"), Ok(Duration::ZERO));
        assert_eq!(seconds("0.5"), Ok(Duration::from_millis(500)));
        assert!(seconds("-1").is_err() && seconds("inf").is_err());
        assert!(positive_seconds("0").is_err());
        assert_eq!(positive_seconds("0.3"), Ok(Duration::from_millis(300)));
        assert_eq!((switch("on"), switch("0")), (Ok(true), Ok(false)));
        assert!(switch("maybe").is_err());
        assert!(variant_help().contains("lookingglass"));
    }
}
