//! `vorpal bot`: Vorpal plays Alice as a BOT on pychess-variants (or any server with its BOT
//! API), with the engine in the process.
//!
//! [`args`] and [`config`] make the settings (flags over a TOML file; the token from the
//! environment or an owner-only file); [`http`] is the site's API and [`ndjson`] reads its
//! streams into the [`wire`] types; [`runner`] keeps the event stream open and answers
//! challenges by the [`policy`]; [`game`] plays each game on its own thread, with [`replay`]
//! (Alice rules, the duplicate-move rule), [`budget`] (the clock), [`engine`] (the player),
//! [`ending`] (the result the site does not send) and [`record`] (the PGN file); [`registry`]
//! remembers the running games across restarts, [`backoff`] spaces reconnections,
//! [`signals`] turns SIGINT/SIGTERM into a clean stop, and [`log_file`] sends the log to stderr
//! or a file. docs/bot.md is the user's guide.

mod args;
mod backoff;
mod budget;
pub(crate) mod config;
mod ending;
mod engine;
mod game;
mod game_end;
mod game_stream;
mod game_wait;
mod http;
mod log_file;
mod ndjson;
mod overhead;
mod policy;
mod ponder;
mod record;
mod registry;
mod replay;
mod runner;
mod signals;
pub(crate) mod site_page;
#[cfg(test)]
mod test_server;
mod wire;

pub use args::BotArgs;

use crate::arg_values::RunCommand;
use crate::status;
use crate::uci::output::to_stderr;

impl RunCommand for BotArgs {
    fn run(self) -> i32 {
        let token = std::env::var(config::TOKEN_VAR).ok();
        match config::settings(self, token).and_then(|s| config::check_outputs(&s).map(|()| s)) {
            Ok(settings) => {
                log_file::init(settings.log.as_deref());
                runner::run(settings)
            }
            Err(e) => {
                to_stderr(&format!("vorpal bot: {e}\n"));
                status::USAGE
            }
        }
    }
}
