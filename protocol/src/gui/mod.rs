//! `vorpal gui`: play and analyse Alice chess in the browser.
//!
//! A local web server (loopback only unless `--listen` says otherwise) serves a page whose every
//! asset is compiled into the binary. The page shows the boards side by side; the server keeps
//! the game, decides legality, SAN and game end with the engine library, and drives engines as
//! UCI child processes over pipes (the match runner's client), exactly as any GUI would.
//!
//! The server is safe to leave running: a secret token in the printed link (then a cookie),
//! cross-site requests refused, bounded connections, sessions and engines, and a clean shutdown
//! on SIGINT/SIGTERM (see `access`, `server`, `hub`, `engine_pool` and `signals`).

mod access;
mod args;
mod doors;
mod engine_pool;
mod host;
mod http;
mod hub;
mod review;
mod secret;
mod server;
mod signals;
mod worker;

pub use args::GuiArgs;
pub(crate) use doors::{engine_line_door, gui_command_door, import_pgn_door, parse_head_door, pgn_file_door};
pub use doors::{GuiPgn, HttpHead};

use std::net::SocketAddr;
use std::time::Duration;
use vorpal_client::engine_process::EngineConfig;

/// Command-line settings of `vorpal gui`.
#[derive(Debug, Clone)]
pub struct GuiConfig {
    /// Address and port to bind (port 0: any free port).
    pub addr: SocketAddr,
    /// Open the page in a browser after starting.
    pub open: bool,
    /// Engines the page offers, the default first.
    pub engines: Vec<EngineConfig>,
    /// Names the `Host` header may carry besides loopback names (`--allow-host`).
    pub allowed_hosts: Vec<String>,
    /// A page silent this long loses its session and engines.
    pub session_timeout: Duration,
    /// Engine processes running at once.
    pub max_engines: usize,
    /// The endgame tables' directory (`--tb`), made absolute.
    pub tb_dir: Option<std::path::PathBuf>,
}

/// Prints a line to stdout (`to_stderr` false) or stderr; a closed pipe is not an error here.
pub fn say(to_stderr: bool, text: &str) {
    use std::io::Write;
    let _ = if to_stderr {
        writeln!(std::io::stderr(), "{text}")
    } else {
        writeln!(std::io::stdout(), "{text}").and_then(|_| std::io::stdout().flush())
    };
}

/// Runs `vorpal gui` with the settings of its command line; returns the exit status.
pub fn run(config: GuiConfig) -> i32 {
    if let Some(dir) = &config.tb_dir {
        let found = vorpal_engine::tablebase::Tablebases::open(dir).map_or(0, |tb| tb.available().len());
        let note = match found {
            0 => format!(
                "no endgame tables in {} yet (make them with 'vorpal tb generate --all 3 --dir DIR')",
                dir.display()
            ),
            n => format!("{n} endgame tables in {}", dir.display()),
        };
        say(true, &format!("vorpal gui: {note}"));
    }
    let token = match secret::access_token(std::env::var(secret::TOKEN_VARIABLE).ok()) {
        Ok(t) => t,
        Err(e) => {
            say(true, &format!("vorpal gui: {e}"));
            return 2;
        }
    };
    match http::serve(config, token) {
        Ok(()) => 0,
        Err(e) => {
            say(true, &format!("vorpal gui: {e}"));
            1
        }
    }
}
