//! The `--engine` option of the front ends' command lines (`vorpal gui`, `vorpal-match`):
//! repeatable, each occurrence an engine given by the `key=value` settings that follow it up
//! to the next option ([`crate::engine_settings`] reads them). clap's derive flattens a
//! repeated multi-value option into one list; this type keeps one list per occurrence.

use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};

/// The argument's id and long name.
const ID: &str = "engine";

/// The settings of every `--engine`, one list per occurrence, in command-line order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EngineGroups(pub Vec<Vec<String>>);

impl FromArgMatches for EngineGroups {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let groups = matches
            .get_occurrences::<String>(ID)
            .map(|each| each.map(|group| group.cloned().collect()).collect())
            .unwrap_or_default();
        Ok(EngineGroups(groups))
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl Args for EngineGroups {
    fn augment_args(cmd: Command) -> Command {
        cmd.arg(
            Arg::new(ID)
                .long(ID)
                .value_name("SETTING")
                .num_args(1..)
                .action(ArgAction::Append)
                .help("An engine: cmd=PATH [name=N] [dir=D] [arg=A]... [option.K=V]...\n(repeatable)"),
        )
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(clap::Parser)]
    struct Line {
        #[command(flatten)]
        engines: EngineGroups,
        #[arg(long)]
        quiet: bool,
    }

    fn parse(words: &[&str]) -> Result<Line, clap::Error> {
        use clap::Parser;
        Line::try_parse_from(std::iter::once("x").chain(words.iter().copied()))
    }

    #[test]
    fn each_occurrence_keeps_its_settings() {
        let line = parse(&[
            "--engine",
            "cmd=a",
            "arg=-x",
            "--quiet",
            "--engine=cmd=b",
            "--engine",
            "c",
        ])
        .unwrap();
        let groups = vec![
            vec!["cmd=a".to_string(), "arg=-x".into()],
            vec!["cmd=b".into()],
            vec!["c".into()],
        ];
        assert_eq!(line.engines, EngineGroups(groups));
        assert!(line.quiet);
        assert_eq!(parse(&[]).unwrap().engines, EngineGroups::default());
        let missing = parse(&["--engine"]).err().expect("a value is needed");
        assert!(missing.to_string().contains("--engine"), "{missing}");
    }
}
