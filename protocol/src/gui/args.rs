//! The command line of `vorpal gui` ([`GuiArgs`], parsed by clap) and the server settings it
//! gives ([`GuiConfig`]): the addresses, the engines (this program unless `--engine` names
//! others), the tables.

use super::{engine_pool, hub, GuiConfig};
use crate::arg_values::{in_range, report, usage_error, RunCommand};
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;
use vorpal_client::engine_args::EngineGroups;
use vorpal_client::engine_process::EngineConfig;

const AFTER_HELP: &str = "\
Starts a local web server for playing and analysing Alice chess in the browser and prints its
link, which carries a secret access token: only the browser that opens it can use the server.
The page works offline: everything it needs is inside this program.

--engine takes key=value settings like vorpal-match: cmd=PATH name=N dir=D arg=A option.K=V
(a single word is the command). The first engine is the default; without --engine the engine
is this program itself.

The environment variable VORPAL_GUI_TOKEN sets the access token (16 to 256 letters, digits, '-'
or '_') for scripts, which send it as 'Authorization: token TOKEN'. SIGINT or SIGTERM ends the
engines, then the server.";

/// Play and analyse in the browser
#[derive(clap::Args, Debug)]
#[command(after_help = AFTER_HELP, args_override_self = true)]
pub struct GuiArgs {
    /// Port to listen on [default: a free port]
    #[arg(long, value_name = "N", default_value_t = 0, hide_default_value = true)]
    port: u16,
    /// Address to listen on; another interface than loopback serves plain
    /// HTTP to whoever can reach it; needs --allow-host
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1", value_parser = ip_address, verbatim_doc_comment)]
    listen: IpAddr,
    /// A name (or address) the browser may use to reach this server when it
    /// listens beyond loopback (repeatable)
    #[arg(long, value_name = "NAME", value_parser = host_name, verbatim_doc_comment)]
    allow_host: Vec<String>,
    /// Open the page in the default browser (xdg-open)
    #[arg(long)]
    open: bool,
    /// End a page's game and engines S seconds after its last request
    /// (1..=86400) [default: 90]
    #[arg(long, value_name = "S", value_parser = in_range(1, 86_400), verbatim_doc_comment)]
    session_timeout: Option<u64>,
    /// Engine processes running at once, all pages together (1..=64)
    /// [default: 8]
    #[arg(long, value_name = "N", value_parser = in_range(1, 64), verbatim_doc_comment)]
    max_engines: Option<u64>,
    /// The Alice endgame tables in DIR (made by 'vorpal tb generate') for the
    /// default engine, which then answers the positions in them from the
    /// tables; not with --engine (give those engines option.AliceTbPath=DIR)
    #[arg(long, value_name = "DIR", verbatim_doc_comment)]
    tb: Option<String>,
    #[command(flatten)]
    engines: EngineGroups,
}

impl GuiArgs {
    /// The server's settings, or why the command line cannot be run.
    pub fn config(self) -> Result<GuiConfig, String> {
        if !self.listen.is_loopback() && self.allow_host.is_empty() {
            return Err(format!(
                "--listen {} serves plain HTTP beyond this machine: name the host the browser \
                 will use with --allow-host NAME (see the README's notes on --listen)",
                self.listen
            ));
        }
        let tb_dir = self.tb.as_deref().map(tb_directory).transpose()?;
        let mut engines = self
            .engines
            .0
            .iter()
            .map(|settings| engine_config(settings))
            .collect::<Result<Vec<_>, _>>()?;
        if engines.is_empty() {
            let mut own = own_engine()?;
            if let Some(dir) = &tb_dir {
                let dir = dir.to_str().ok_or("--tb: the directory's path is not UTF-8")?;
                own.options.push(("AliceTbPath".into(), dir.into()));
            }
            engines.push(own);
        } else if tb_dir.is_some() {
            return Err(
                "--tb sets the tables of the default engine (this program); an --engine takes them as \
                 option.AliceTbPath=DIR"
                    .into(),
            );
        }
        Ok(GuiConfig {
            addr: SocketAddr::new(self.listen, self.port),
            open: self.open,
            engines,
            allowed_hosts: self.allow_host,
            session_timeout: self
                .session_timeout
                .map_or(hub::DEFAULT_SESSION_TIMEOUT, Duration::from_secs),
            max_engines: self
                .max_engines
                .map_or(engine_pool::DEFAULT_MAX_ENGINES, |n| n as usize),
            tb_dir,
        })
    }
}

impl RunCommand for GuiArgs {
    fn run(self) -> i32 {
        match self.config() {
            Ok(config) => super::run(config),
            Err(e) => report(&usage_error::<GuiArgs>("vorpal gui", e)),
        }
    }
}

/// An IP address, in brackets or not (`[::1]`).
fn ip_address(text: &str) -> Result<IpAddr, String> {
    text.trim_matches(['[', ']'])
        .parse()
        .map_err(|_| format!("'{text}' is not an IP address"))
}

/// A host name or address for `--allow-host` (brackets of an IPv6 address removed).
fn host_name(text: &str) -> Result<String, String> {
    let ok = |b: u8| b.is_ascii_alphanumeric() || b".-:[]".contains(&b);
    if text.is_empty() || text.len() > 253 || !text.bytes().all(ok) {
        return Err(format!("'{text}' is not a host name"));
    }
    Ok(text.trim_matches(['[', ']']).to_string())
}

/// The `--tb` directory, made absolute (the engines may run elsewhere); it must exist.
fn tb_directory(dir: &str) -> Result<PathBuf, String> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(clap::Parser)]
    struct Line {
        #[command(flatten)]
        args: GuiArgs,
    }

    /// The settings of the words after `gui`, or the error (clap's or the settings').
    fn parse_args(words: &[&str]) -> Result<GuiConfig, String> {
        let line = Line::try_parse_from(std::iter::once("gui").chain(words.iter().copied()));
        line.map_err(|e| e.to_string())?.args.config()
    }

    #[test]
    fn arguments() {
        let c = parse_args(&["--port", "8123", "--engine", "cmd=/bin/true", "name=T", "option.Hash=8"]).unwrap();
        assert_eq!(c.addr.to_string(), "127.0.0.1:8123");
        assert_eq!(c.engines.len(), 1);
        assert_eq!(c.engines[0].name, "T");
        assert_eq!(c.engines[0].options, vec![("Hash".to_string(), "8".to_string())]);
        let c = parse_args(&["--engine", "/usr/bin/fairy-stockfish"]).unwrap();
        assert_eq!(c.engines[0].name, "fairy-stockfish");
        let c = parse_args(&["--engine", "cmd=/bin/a", "--port=9", "--engine", "cmd=/bin/b", "arg=x"]).unwrap();
        let names: Vec<&str> = c.engines.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(
            (names, c.engines[1].args.clone(), c.addr.port()),
            (vec!["a", "b"], vec!["x".to_string()], 9)
        );
        assert_eq!(parse_args(&[]).unwrap().addr.ip().to_string(), "127.0.0.1");
        assert!(parse_args(&["--port", "x"]).unwrap_err().contains("--port"));
        assert!(parse_args(&["--listen", "nowhere"])
            .unwrap_err()
            .contains("'nowhere' is not an IP address"));
        assert!(parse_args(&["--bogus"]).is_err());
        assert!(parse_args(&["--engine", "name=x"]).unwrap_err().contains("cmd=PATH"));
        assert_eq!(parse_args(&["--listen", "::1"]).unwrap().addr.to_string(), "[::1]:0");
        assert!(parse_args(&["--listen", "0.0.0.0"])
            .unwrap_err()
            .contains("--allow-host"));
        let c = parse_args(&["--listen", "0.0.0.0", "--allow-host", "chess.lan", "--allow-host=[::1]"]).unwrap();
        assert_eq!(c.allowed_hosts, ["chess.lan", "::1"]);
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
