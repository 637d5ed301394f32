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
mod assets;
mod commands;
mod doors;
mod engine_pool;
#[cfg(test)]
mod golden;
mod http;
mod hub;
mod lines;
mod notation;
mod pgn_io;
mod requests;
mod review;
mod review_state;
mod secret;
mod server;
mod session;
mod settings;
mod signals;
mod tree;
mod view;
mod worker;

pub(crate) use doors::{engine_line_door, gui_command_door, import_pgn_door, parse_head_door};
pub use doors::{GuiPgn, HttpHead};

use std::net::SocketAddr;
use std::time::Duration;
use vorpal_client::engine_process::EngineConfig;

const USAGE: &str = "\
usage: vorpal gui [--port N] [--listen ADDR [--allow-host NAME]...] [--open]
                  [--session-timeout S] [--max-engines N] [--tb DIR] [--engine SETTINGS]...

Starts a local web server for playing and analysing Alice chess in the browser and prints its
link, which carries a secret access token: only the browser that opens it can use the server.
The page works offline: everything it needs is inside this program.

  --port N             port to listen on (default: a free port)
  --listen ADDR        address to listen on (default 127.0.0.1). Another interface serves plain
                       HTTP to whoever can reach it; it needs --allow-host
  --allow-host NAME    a name (or address) the browser may use to reach this server when it
                       listens beyond loopback (repeatable)
  --open               open the page in the default browser (xdg-open)
  --session-timeout S  end a page's game and engines S seconds after its last request
                       (default 90)
  --max-engines N      engine processes running at once, all pages together (default 8)
  --tb DIR             the Alice endgame tables in DIR (made by 'vorpal tb generate'): sets
                       AliceTbPath of the default engine, which then answers the positions
                       in them from the tables; the page shows 'Tablebase: mate in N'.
                       Not with --engine: give those engines option.AliceTbPath=DIR
  --engine ...         an engine the page may use, as key=value settings like vorpal-match:
                         cmd=PATH name=N dir=D arg=A option.K=V   (repeatable; the first is the
                         default). Without --engine the engine is this program itself.

The environment variable VORPAL_GUI_TOKEN sets the access token (16 to 256 letters, digits, '-'
or '_') for scripts, which send it as 'Authorization: token TOKEN'. SIGINT or SIGTERM ends the
engines, then the server.";

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

/// The value after option `name`, as a whole number in `range`.
fn number_arg(args: &[&str], i: usize, range: std::ops::RangeInclusive<u64>) -> Result<u64, String> {
    let name = args[i];
    let v = args.get(i + 1).ok_or_else(|| format!("{name} needs a number"))?;
    v.parse::<u64>().ok().filter(|n| range.contains(n)).ok_or_else(|| {
        format!(
            "{name}: '{v}' is not a whole number from {} to {}",
            range.start(),
            range.end()
        )
    })
}

/// Parses the arguments after `gui`.
pub fn parse_args(args: &[&str]) -> Result<GuiConfig, String> {
    let mut port = 0u16;
    let mut listen = "127.0.0.1".to_string();
    let mut open = false;
    let mut engines = Vec::new();
    let mut allowed_hosts = Vec::new();
    let mut session_timeout = hub::DEFAULT_SESSION_TIMEOUT;
    let mut max_engines = engine_pool::DEFAULT_MAX_ENGINES;
    let mut tb = None;
    let mut i = 0;
    while i < args.len() {
        match args[i] {
            "--port" => {
                let v = args.get(i + 1).ok_or("--port needs a number")?;
                port = v.parse().map_err(|_| format!("--port: '{v}' is not a port number"))?;
                i += 2;
            }
            "--listen" => {
                listen = args.get(i + 1).ok_or("--listen needs an address")?.to_string();
                i += 2;
            }
            "--open" => {
                open = true;
                i += 1;
            }
            "--allow-host" => {
                let name = args.get(i + 1).ok_or("--allow-host needs a name")?;
                let ok = |b: u8| b.is_ascii_alphanumeric() || b".-:[]".contains(&b);
                if name.is_empty() || name.len() > 253 || !name.bytes().all(ok) {
                    return Err(format!("--allow-host: '{name}' is not a host name"));
                }
                allowed_hosts.push(name.trim_matches(['[', ']']).to_string());
                i += 2;
            }
            "--session-timeout" => {
                session_timeout = Duration::from_secs(number_arg(args, i, 1..=86_400)?);
                i += 2;
            }
            "--max-engines" => {
                max_engines = number_arg(args, i, 1..=64)? as usize;
                i += 2;
            }
            "--tb" => {
                tb = Some(*args.get(i + 1).ok_or("--tb needs a directory")?);
                i += 2;
            }
            "--engine" => {
                let mut settings = Vec::new();
                i += 1;
                while i < args.len() && !args[i].starts_with("--") {
                    settings.push(args[i].to_string());
                    i += 1;
                }
                engines.push(engine_config(&settings)?);
            }
            other => return Err(format!("unknown argument '{other}'")),
        }
    }
    let ip: std::net::IpAddr = listen
        .trim_matches(['[', ']'])
        .parse()
        .map_err(|_| format!("--listen: '{listen}' is not an IP address"))?;
    if !ip.is_loopback() && allowed_hosts.is_empty() {
        return Err(format!(
            "--listen {listen} serves plain HTTP beyond this machine: name the host the browser \
             will use with --allow-host NAME (see the README's notes on --listen)"
        ));
    }
    let tb_dir = tb.map(tb_directory).transpose()?;
    if engines.is_empty() {
        let mut own = own_engine()?;
        if let Some(dir) = &tb_dir {
            let dir = dir.to_str().ok_or("--tb: the directory's path is not UTF-8")?;
            own.options.push(("AliceTbPath".into(), dir.into()));
        }
        engines.push(own);
    } else if tb_dir.is_some() {
        return Err(
            "--tb sets the tables of the default engine (this program); an --engine \
                    takes them as option.AliceTbPath=DIR"
                .into(),
        );
    }
    Ok(GuiConfig {
        addr: SocketAddr::new(ip, port),
        open,
        engines,
        allowed_hosts,
        session_timeout,
        max_engines,
        tb_dir,
    })
}

/// The `--tb` directory, made absolute (the engines may run elsewhere); it must exist.
fn tb_directory(dir: &str) -> Result<std::path::PathBuf, String> {
    let path = std::fs::canonicalize(dir).map_err(|e| format!("--tb: cannot use '{dir}': {e}"))?;
    if !path.is_dir() {
        return Err(format!("--tb: '{dir}' is not a directory"));
    }
    Ok(path)
}

/// One `--engine`: `key=value` settings; a single word without `=` is taken as `cmd=`.
fn engine_config(settings: &[String]) -> Result<EngineConfig, String> {
    let settings: Vec<String> = match settings {
        [only] if !only.contains('=') => vec![format!("cmd={only}")],
        s => s.to_vec(),
    };
    let mut cfg = EngineConfig::default();
    vorpal_client::engine_settings::engine_settings(&mut cfg, &settings)?;
    if cfg.cmd.is_empty() {
        return Err("--engine needs cmd=PATH".into());
    }
    cfg.cmd = vorpal_client::engine_settings::resolve_cmd(&cfg.cmd);
    if cfg.name.is_empty() {
        cfg.name = std::path::Path::new(&cfg.cmd)
            .file_stem()
            .map_or("engine".into(), |s| s.to_string_lossy().into_owned());
    }
    Ok(cfg)
}

/// This program itself as the engine.
fn own_engine() -> Result<EngineConfig, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
    Ok(EngineConfig {
        name: "Vorpal".into(),
        cmd: exe.to_string_lossy().into_owned(),
        ..EngineConfig::default()
    })
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

/// Runs `vorpal gui ARGS`; returns the exit status.
pub fn run(args: &[&str]) -> i32 {
    if matches!(args, ["--help" | "-h", ..]) {
        say(false, USAGE);
        return 0;
    }
    let config = match parse_args(args) {
        Ok(c) => c,
        Err(e) => {
            say(true, &format!("vorpal gui: {e}\n{USAGE}"));
            return 2;
        }
    };
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments() {
        let c = parse_args(&["--port", "8123", "--engine", "cmd=/bin/true", "name=T", "option.Hash=8"]).unwrap();
        assert_eq!(c.addr.to_string(), "127.0.0.1:8123");
        assert_eq!(c.engines.len(), 1);
        assert_eq!(c.engines[0].name, "T");
        assert_eq!(c.engines[0].options, vec![("Hash".to_string(), "8".to_string())]);
        let c = parse_args(&["--engine", "/usr/bin/fairy-stockfish"]).unwrap();
        assert_eq!(c.engines[0].name, "fairy-stockfish");
        assert_eq!(parse_args(&[]).unwrap().addr.ip().to_string(), "127.0.0.1");
        assert!(parse_args(&["--port", "x"]).is_err());
        assert!(parse_args(&["--listen", "nowhere"]).is_err());
        assert!(parse_args(&["--bogus"]).is_err());
        assert!(parse_args(&["--engine", "name=x"]).is_err());
        assert_eq!(parse_args(&["--listen", "::1"]).unwrap().addr.to_string(), "[::1]:0");
        assert!(parse_args(&["--listen", "0.0.0.0"])
            .unwrap_err()
            .contains("--allow-host"));
        let c = parse_args(&["--listen", "0.0.0.0", "--allow-host", "chess.lan"]).unwrap();
        assert_eq!(c.allowed_hosts, ["chess.lan"]);
        assert!(parse_args(&["--allow-host", "bad/name"]).is_err());
        let c = parse_args(&["--session-timeout", "2", "--max-engines", "3"]).unwrap();
        assert_eq!((c.session_timeout, c.max_engines), (Duration::from_secs(2), 3));
        assert_eq!(parse_args(&[]).unwrap().max_engines, 8);
        assert!(parse_args(&["--session-timeout", "0"]).is_err());
        assert!(parse_args(&["--max-engines", "99999999999999999999"]).is_err());
    }

    #[test]
    fn tables_for_the_default_engine() {
        let dir = std::env::temp_dir();
        let c = parse_args(&["--tb", dir.to_str().unwrap()]).unwrap();
        let abs = std::fs::canonicalize(&dir).unwrap();
        assert_eq!(c.tb_dir.as_deref(), Some(abs.as_path()));
        let tb_path = ("AliceTbPath".to_string(), abs.to_str().unwrap().to_string());
        assert_eq!(c.engines[0].options, vec![tb_path]);
        assert!(parse_args(&[]).unwrap().engines[0].options.is_empty());
        let missing = parse_args(&["--tb", "/nonexistent/vorpal-tables"]).unwrap_err();
        assert!(
            missing.contains("--tb: cannot use '/nonexistent/vorpal-tables'"),
            "{missing}"
        );
        let file = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
        assert!(parse_args(&["--tb", file]).unwrap_err().contains("not a directory"));
        assert!(parse_args(&["--tb"]).is_err());
        let both = parse_args(&["--tb", dir.to_str().unwrap(), "--engine", "cmd=/bin/true"]).unwrap_err();
        assert!(both.contains("option.AliceTbPath=DIR"), "{both}");
    }
}
