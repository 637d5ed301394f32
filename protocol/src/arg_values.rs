//! What the command lines of `vorpal` share: the trait of a subcommand's parsed arguments
//! ([`RunCommand`]), number parsers that refuse a value the engine cannot honour (never
//! silently changing it), and the printing of clap's answers (help, version, errors) through
//! the program's own writers, so that a closed output ends the program as everywhere
//! ([`crate::uci::output`]).

use crate::uci::output::{to_stderr, to_stdout};
use clap::error::ErrorKind;
use vorpal_engine::Variant;

/// A subcommand's parsed arguments, ready to run.
pub trait RunCommand {
    /// Runs the subcommand; returns the exit status.
    fn run(self) -> i32;
}

/// A parser of whole numbers in `min..=max`; its errors say what is wrong with the value
/// (clap adds the option's name).
pub fn in_range(min: u64, max: u64) -> impl Fn(&str) -> Result<u64, String> + Clone + Send + Sync + 'static {
    move |text: &str| {
        let n: u64 = text.parse().map_err(|_| format!("'{text}' is not a whole number"))?;
        match (min..=max).contains(&n) {
            true => Ok(n),
            false if max == u64::MAX => Err(format!("{n} is not at least {min}")),
            false => Err(format!("{n} is not in {min}..={max}")),
        }
    }
}

/// A parser of whole numbers of at least 1.
pub fn positive() -> impl Fn(&str) -> Result<u64, String> + Clone + Send + Sync + 'static {
    in_range(1, u64::MAX)
}

/// A parser of counts of at least 1 (threads, solutions).
pub fn positive_count(text: &str) -> Result<usize, String> {
    let n = positive()(text)?;
    usize::try_from(n).map_err(|_| format!("{n} is too large"))
}

/// The help of a `--variant` option: the names it takes, in lines that fit the help's column.
pub fn variant_help() -> String {
    let names: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
    let mut text = String::from("The variant:");
    let mut line = text.len();
    for (i, name) in names.iter().enumerate() {
        let word = if i + 1 < names.len() {
            format!("{name},")
        } else {
            name.to_string()
        };
        if line + 1 + word.len() > 64 {
            text.push('\n');
            line = 0;
        } else {
            text.push(' ');
            line += 1;
        }
        text.push_str(&word);
        line += word.len();
    }
    text
}

/// Prints clap's answer (help and version on stdout, errors on stderr); returns its exit
/// status (0 for help and version, 2 for a command line that cannot be run as written).
pub fn report(answer: &clap::Error) -> i32 {
    let text = answer.render().to_string();
    if answer.use_stderr() {
        to_stderr(&text);
    } else {
        to_stdout(&text);
    }
    answer.exit_code()
}

/// A mistake of the command line that only shows after parsing (two options that do not go
/// together, a directory that does not exist), reported like clap's own: the problem, then the
/// usage of the subcommand `A` (`bin_name`: how it is called, `vorpal gui`).
pub fn usage_error<A: clap::Args>(bin_name: &str, problem: impl std::fmt::Display) -> clap::Error {
    let mut command = A::augment_args(clap::Command::new("vorpal")).bin_name(bin_name);
    command.error(ErrorKind::ValueValidation, problem)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(clap::Args)]
    struct Probe {
        #[arg(long)]
        dir: String,
    }

    #[test]
    fn usage_errors_read_like_clap_errors() {
        let e = usage_error::<Probe>("vorpal tb probe", "no tables");
        assert_eq!(e.exit_code(), 2);
        let text = e.render().to_string();
        assert!(text.starts_with("error: no tables\n"), "{text}");
        assert!(text.contains("Usage: vorpal tb probe --dir <DIR>"), "{text}");
    }

    #[test]
    fn numbers_out_of_range_are_refused_with_the_range() {
        let hash = in_range(1, 65_536);
        assert_eq!(hash("16"), Ok(16));
        assert_eq!(hash("0").unwrap_err(), "0 is not in 1..=65536");
        assert_eq!(hash("x").unwrap_err(), "'x' is not a whole number");
        assert_eq!(positive()("0").unwrap_err(), "0 is not at least 1");
        assert_eq!(positive()(&u64::MAX.to_string()), Ok(u64::MAX));
        assert_eq!(positive_count("3"), Ok(3));
        let help = variant_help();
        assert!(help.lines().all(|l| l.len() <= 64), "{help}");
        assert!(Variant::ALL.iter().all(|v| help.contains(v.name())), "{help}");
        assert!(positive_count("0").is_err());
    }
}
