//! Popeye's command line: `[-maxmem N[K|M|G]] [-maxtime S] [-maxpos N] [-heartbeat [N]]
//! [-regression] [FILE]`. Options start with one dash; the first other word is the input
//! file (none: standard input).

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Cmdline {
    /// `-maxmem`: the memory bound in bytes.
    pub max_mem: Option<u64>,
    /// `-maxtime`: seconds per problem.
    pub max_time: Option<u64>,
    /// `-regression`: no times in the output (Popeye's regression-test mode).
    pub regression: bool,
    /// The input file; None reads standard input.
    pub file: Option<String>,
    /// `-h` / `-help` (or `--help`).
    pub help: bool,
}

/// Reads `N`, `NK`, `NM` or `NG` (Popeye's default unit is kilobytes).
fn memory(text: &str) -> Option<u64> {
    let (digits, unit) = match text.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => text.split_at(i),
        None => (text, ""),
    };
    let n: u64 = digits.parse().ok()?;
    let scale: u64 = match unit.to_ascii_uppercase().as_str() {
        "" | "K" => 1 << 10,
        "M" => 1 << 20,
        "G" => 1 << 30,
        _ => return None,
    };
    n.checked_mul(scale)
}

/// Parses `args` (without the program name); Err is the message for stderr.
pub fn parse(args: &[String]) -> Result<Cmdline, String> {
    let mut cmd = Cmdline::default();
    let mut words = args.iter().peekable();
    while let Some(word) = words.next() {
        let number = |value: Option<&String>, name: &str| -> Result<u64, String> {
            value
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| format!("{name} needs a whole number"))
        };
        // A GNU-style `--name` is read as Popeye's `-name` (`--help` as `-help`).
        let option = word.strip_prefix('-').filter(|w| w.starts_with('-')).unwrap_or(word);
        match option {
            "-h" | "-help" => cmd.help = true,
            "-maxmem" => {
                let value = words.next();
                cmd.max_mem = Some(
                    value
                        .and_then(|v| memory(v))
                        .ok_or("-maxmem needs a size: N, NK, NM or NG")?,
                );
            }
            "-maxtime" => cmd.max_time = Some(number(words.next(), "-maxtime")?),
            "-maxpos" => {
                number(words.next(), "-maxpos")?;
            }
            "-heartbeat" => {
                if words.peek().is_some_and(|w| w.parse::<u64>().is_ok()) {
                    words.next();
                }
            }
            "-regression" => cmd.regression = true,
            w if w.starts_with('-') && w.len() > 1 => return Err(format!("unknown option '{w}'")),
            w => {
                if cmd.file.is_some() {
                    return Err(format!("one input file only ('{w}')"));
                }
                cmd.file = Some(w.to_string());
            }
        }
    }
    Ok(cmd)
}

/// The usage text (`-h`).
pub const USAGE: &str = "\
usage: vorpal popeye [-maxmem N[K|M|G]] [-maxtime S] [-maxpos N] [-heartbeat [N]] [-regression] [FILE]
       (also as 'py', 'popeye' or 'pywin64.exe': a symlink or copy of vorpal by that name)
Reads Popeye input (FILE, or standard input) and prints the solutions in Popeye's layout; see
docs/popeye.md.";

#[cfg(test)]
mod tests {
    use super::*;

    fn args(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn olive_command_line() {
        let cmd = parse(&args(&["-maxmem", "1024M", "/tmp/x"])).unwrap();
        assert_eq!(cmd.max_mem, Some(1 << 30));
        assert_eq!(cmd.file.as_deref(), Some("/tmp/x"));
        let cmd = parse(&args(&["-heartbeat", "-maxtime", "5", "-regression"])).unwrap();
        assert_eq!((cmd.max_time, cmd.regression, cmd.file), (Some(5), true, None));
        assert!(parse(&args(&["-maxmem", "12Q"])).is_err());
        assert!(parse(&args(&["-x"])).is_err());
        assert_eq!(memory("2G"), Some(2 << 30));
        assert_eq!(memory("100"), Some(100 << 10));
    }

    #[test]
    fn double_dash_spellings_are_popeye_options() {
        assert!(parse(&args(&["--help"])).unwrap().help);
        let cmd = parse(&args(&["--maxmem", "1G", "--regression", "p.inp"])).unwrap();
        assert_eq!((cmd.max_mem, cmd.regression), (Some(1 << 30), true));
        assert_eq!(cmd.file.as_deref(), Some("p.inp"));
        assert!(parse(&args(&["--x"])).is_err());
    }
}
