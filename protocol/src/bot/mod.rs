//! `vorpal bot`: Vorpal plays Alice as a BOT on pychess-variants (or any server with its BOT
//! API), with the engine in the process.
//!
//! [`args`] and [`config`] make the settings (flags over a TOML file; the token from the
//! environment or an owner-only file); [`http`] is the site's API and [`ndjson`] reads its
//! streams into the [`wire`] types; [`runner`] keeps the event stream open and answers
//! challenges by the [`policy`]; [`game`] plays each game on its own thread, with [`replay`]
//! (Alice rules, the duplicate-move rule), [`budget`] (the clock), [`engine`] (the player),
//! [`ending`] (the result the site does not send) and [`record`] (the PGN file); [`registry`]
//! remembers the running games across restarts, [`backoff`] spaces reconnections, and
//! [`signals`] turns SIGINT/SIGTERM into a clean stop. docs/bot.md is the user's guide.

mod args;
mod backoff;
mod budget;
mod config;
mod ending;
mod engine;
mod game;
mod http;
mod ndjson;
mod policy;
mod record;
mod registry;
mod replay;
mod runner;
mod signals;
#[cfg(test)]
mod test_server;
mod wire;

use crate::output::{to_stderr, to_stdout};
use crate::status;
use clap::Parser;

/// Runs `vorpal bot` with the words after `bot`; returns the exit status.
pub fn run(words: &[&str]) -> i32 {
    let args = match args::BotArgs::try_parse_from(std::iter::once("vorpal bot").chain(words.iter().copied())) {
        Ok(args) => args,
        Err(e) => {
            let text = e.to_string();
            return match e.kind() {
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => {
                    to_stdout(&text);
                    status::SUCCESS
                }
                _ => {
                    to_stderr(&text);
                    status::USAGE
                }
            };
        }
    };
    let token = std::env::var(config::TOKEN_VAR).ok();
    match config::settings(args, token) {
        Ok(settings) => runner::run(settings),
        Err(e) => {
            to_stderr(&format!("vorpal bot: {e}\n"));
            status::USAGE
        }
    }
}
