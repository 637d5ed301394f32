//! The command line of `vorpal bot`. The token is deliberately not an argument (the command
//! lines of running programs are visible to every user of the machine): it comes from
//! `VORPAL_BOT_TOKEN` or a file only its owner can read.

use clap::Parser;
use std::path::PathBuf;

/// What to do with running games on SIGINT/SIGTERM.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OnStop {
    /// Play them to the end, then exit.
    #[default]
    Finish,
    /// Abort them (the site allows a BOT to abort at any move), then exit.
    Abort,
}

/// Play Alice as a BOT on pychess-variants (www.pychess.org).
#[derive(Debug, Parser)]
#[command(
    after_help = "The API token comes from the environment variable VORPAL_BOT_TOKEN or from \
                  the file named by token_file (--token-file) that only its owner can read; \
                  never from the command line. docs/bot.md describes the account, the config \
                  file and every setting."
)]
pub struct BotArgs {
    /// The site (default https://www.pychess.org; http:// only for 127.0.0.1, ::1 or localhost).
    #[arg(long, value_name = "URL")]
    pub server: Option<String>,
    /// A TOML config file (docs/bot.md lists its keys); flags override it.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Games at once, at most (the policy's max_games).
    #[arg(long, value_name = "N")]
    pub max_games: Option<usize>,
    /// A file holding the token, readable by its owner only.
    #[arg(long, value_name = "FILE")]
    pub token_file: Option<PathBuf>,
    /// Finished games are appended here (default vorpal-bot.pgn).
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// The games in progress, for picking them up after a restart (default: the PGN file's
    /// name with `.games` instead of `.pgn`).
    #[arg(long, value_name = "FILE")]
    pub state_file: Option<PathBuf>,
    /// The log goes to this file (appended, owner-only, rotated to FILE.1 past 32 MB; errors
    /// also on stderr) instead of stderr.
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
    /// Search threads per game.
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Hash table per game, in MB.
    #[arg(long, value_name = "MB")]
    pub hash: Option<usize>,
    /// The directory of the Alice endgame tables (vorpal tb generate).
    #[arg(long, value_name = "DIR")]
    pub tb: Option<String>,
    /// A network file to evaluate with instead of the built-in one.
    #[arg(long, value_name = "FILE")]
    pub network: Option<String>,
    /// Play with an external UCI engine instead: cmd=PATH, then option=value settings as for
    /// `vorpal gui --engine` (repeat the flag for each).
    #[arg(long = "engine", value_name = "KEY=VALUE")]
    pub engine: Vec<String>,
    /// Milliseconds kept back from the clock at every move for network delays.
    #[arg(long, value_name = "MS")]
    pub margin: Option<u64>,
    /// The most milliseconds one move may take (0: five minutes).
    #[arg(long, value_name = "MS")]
    pub max_move_time: Option<u64>,
    /// The playing level: 1 (weakest) to 8 (full strength, the default).
    #[arg(long, value_name = "1..8")]
    pub level: Option<u8>,
    /// Play at about this rating instead (600 to 2800; 0: not limited).
    #[arg(long, value_name = "ELO")]
    pub elo: Option<u32>,
    /// Think on the opponent's time (the expected reply searched until the opponent moves).
    #[arg(long)]
    pub ponder: bool,
    /// On SIGINT/SIGTERM: finish the running games or abort them.
    #[arg(long, value_enum, value_name = "WHAT")]
    pub on_stop: Option<OnStop>,
    /// Check the token and the event stream, print what would be accepted, and exit.
    #[arg(long)]
    pub dry_run: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_arguments_parse() {
        BotArgs::command().debug_assert();
        let a = BotArgs::try_parse_from([
            "vorpal bot",
            "--server",
            "http://127.0.0.1:8080",
            "--max-games",
            "2",
            "--engine",
            "cmd=/bin/engine",
            "--engine",
            "Hash=32",
            "--on-stop",
            "abort",
            "--dry-run",
        ])
        .unwrap();
        assert_eq!(a.server.as_deref(), Some("http://127.0.0.1:8080"));
        assert_eq!(a.max_games, Some(2));
        assert_eq!(a.engine, ["cmd=/bin/engine", "Hash=32"]);
        assert_eq!(a.on_stop, Some(OnStop::Abort));
        assert!(a.dry_run);
        assert!(BotArgs::try_parse_from(["vorpal bot", "--token", "x"]).is_err());
        assert!(BotArgs::try_parse_from(["vorpal bot", "--max-games", "many"]).is_err());
    }
}
