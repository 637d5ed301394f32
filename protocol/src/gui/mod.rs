//! `vorpal gui`: play and analyse Alice chess in the browser.
//!
//! A local web server (loopback only unless `--listen` says otherwise) serves a page whose every
//! asset is compiled into the binary. The page shows the boards side by side; the server keeps
//! the game, decides legality, SAN and game end with the engine library, and drives engines as
//! UCI child processes over pipes (the match runner's client), exactly as any GUI would.

mod assets;
mod http;
mod hub;
mod lines;
mod pgn_io;
mod session;
mod settings;
mod view;
mod worker;

use std::net::SocketAddr;
use vorpal_tuning::arena::engine_process::EngineConfig;

const USAGE: &str = "\
usage: vorpal gui [--port N] [--listen ADDR] [--open] [--engine SETTINGS]...

Starts a local web server for playing and analysing Alice chess in the browser and prints its
URL. The page works offline: everything it needs is inside this program.

  --port N          port to listen on (default: a free port)
  --listen ADDR     address to listen on (default 127.0.0.1; other interfaces only when given)
  --open            open the page in the default browser (xdg-open)
  --engine ...      an engine the page may use, as key=value settings like vorpal-match:
                      cmd=PATH name=N dir=D arg=A option.K=V   (repeatable; the first is the
                      default). Without --engine the engine is this program itself.";

/// Command-line settings of `vorpal gui`.
#[derive(Debug, Clone)]
pub struct GuiConfig {
    /// Address and port to bind (port 0: any free port).
    pub addr: SocketAddr,
    /// Open the page in a browser after starting.
    pub open: bool,
    /// Engines the page offers, the default first.
    pub engines: Vec<EngineConfig>,
}

/// Parses the arguments after `gui`.
pub fn parse_args(args: &[&str]) -> Result<GuiConfig, String> {
    let mut port = 0u16;
    let mut listen = "127.0.0.1".to_string();
    let mut open = false;
    let mut engines = Vec::new();
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
    let ip = listen
        .trim_matches(['[', ']'])
        .parse()
        .map_err(|_| format!("--listen: '{listen}' is not an IP address"))?;
    if engines.is_empty() {
        engines.push(own_engine()?);
    }
    Ok(GuiConfig {
        addr: SocketAddr::new(ip, port),
        open,
        engines,
    })
}

/// One `--engine`: `key=value` settings; a single word without `=` is taken as `cmd=`.
fn engine_config(settings: &[String]) -> Result<EngineConfig, String> {
    let settings: Vec<String> = match settings {
        [only] if !only.contains('=') => vec![format!("cmd={only}")],
        s => s.to_vec(),
    };
    let mut cfg = EngineConfig::default();
    vorpal_tuning::arena::engine_settings::engine_settings(&mut cfg, &settings)?;
    if cfg.cmd.is_empty() {
        return Err("--engine needs cmd=PATH".into());
    }
    cfg.cmd = vorpal_tuning::arena::engine_settings::resolve_cmd(&cfg.cmd);
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
    match http::serve(config) {
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
    }
}
