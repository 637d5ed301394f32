//! The bot's settings: the config file (TOML, every key optional), then the command-line
//! flags over it, then the token from the environment or its owner-only file. Everything is
//! checked here, before anything connects.

use super::args::{BotArgs, OnStop};
use super::budget::TimeSettings;
use super::log_file::check_log_file;
use super::policy::Policy;
use super::record::check_writable;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// The site the bot plays on unless told otherwise.
pub const DEFAULT_SERVER: &str = "https://www.pychess.org";
/// The environment variable holding the API token.
pub const TOKEN_VAR: &str = "VORPAL_BOT_TOKEN";

/// The config file as written.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FileConfig {
    /// The site's URL.
    pub server: Option<String>,
    /// A file holding the token (owner-only).
    pub token_file: Option<PathBuf>,
    /// Where finished games are appended.
    pub pgn: Option<PathBuf>,
    /// Where the games in progress are kept across restarts.
    pub state_file: Option<PathBuf>,
    /// What SIGINT/SIGTERM does to running games.
    pub on_stop: Option<OnStop>,
    /// The log file (empty or absent: stderr).
    pub log: Option<PathBuf>,
    /// Which challenges are accepted.
    pub policy: Policy,
    /// The engine and the clock.
    pub engine: EngineConfig,
    /// Chat lines.
    pub chat: ChatConfig,
}

/// `[engine]`: the engine that plays and how it spends its time.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EngineConfig {
    /// Search threads per game.
    pub threads: usize,
    /// Hash table per game, in MB.
    pub hash: usize,
    /// The endgame tables' directory (empty: none).
    pub tb: String,
    /// A network file (empty: the built-in network).
    pub network: String,
    /// Milliseconds kept back from the clock at every move.
    pub margin_ms: u64,
    /// The most milliseconds one move may take (0: five minutes).
    pub max_move_ms: u64,
    /// An external UCI engine instead of the built-in one: `cmd=PATH` and `option=value`
    /// settings, as `vorpal gui --engine` takes them (empty: the built-in engine).
    pub command: Vec<String>,
    /// The playing level, 1 (weakest) to 8 (full strength): the engine's `Skill Level`.
    pub level: u8,
    /// A target rating instead (`UCI_LimitStrength`/`UCI_Elo`; 0: not limited).
    pub elo: u32,
    /// Think on the opponent's time (the built-in engine only).
    pub ponder: bool,
}

impl Default for EngineConfig {
    fn default() -> Self {
        let time = TimeSettings::default();
        EngineConfig {
            threads: 1,
            hash: 64,
            tb: String::new(),
            network: String::new(),
            margin_ms: time.margin_ms,
            max_move_ms: time.max_move_ms,
            command: Vec::new(),
            level: 8,
            elo: 0,
            ponder: false,
        }
    }
}

impl EngineConfig {
    /// The time settings.
    pub fn time(&self) -> TimeSettings {
        TimeSettings {
            margin_ms: self.margin_ms,
            max_move_ms: self.max_move_ms,
        }
    }
}

/// `[chat]`: what the bot says in the game's chat (empty: nothing).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ChatConfig {
    /// Said when a game starts.
    pub greeting: String,
    /// Said when a game ends.
    pub goodbye: String,
}

/// Everything the bot runs with.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The site's base URL, without a trailing `/`.
    pub server: String,
    /// The API token.
    pub token: String,
    /// Where finished games are appended.
    pub pgn: PathBuf,
    /// Where the games in progress are kept.
    pub state_file: PathBuf,
    /// What SIGINT/SIGTERM does to running games.
    pub on_stop: OnStop,
    /// The log file (None: stderr).
    pub log: Option<PathBuf>,
    /// Which challenges are accepted.
    pub policy: Policy,
    /// The engine.
    pub engine: EngineConfig,
    /// Chat lines.
    pub chat: ChatConfig,
    /// Only check and describe.
    pub dry_run: bool,
}

/// Reads the config file, if any, and applies the flags; `env_token` is `VORPAL_BOT_TOKEN`.
pub fn settings(args: BotArgs, env_token: Option<String>) -> Result<Settings, String> {
    let file = match &args.config {
        Some(path) => {
            parse_config(&std::fs::read_to_string(path).map_err(|e| format!("config file {}: {e}", path.display()))?)
                .map_err(|e| format!("config file {}: {e}", path.display()))?
        }
        None => FileConfig::default(),
    };
    let mut policy = file.policy;
    if let Some(n) = args.max_games {
        policy.max_games = n;
    }
    check_policy(&policy)?;
    let mut engine = file.engine;
    engine.threads = args.threads.unwrap_or(engine.threads);
    engine.hash = args.hash.unwrap_or(engine.hash);
    engine.tb = args.tb.unwrap_or(engine.tb);
    engine.network = args.network.unwrap_or(engine.network);
    engine.margin_ms = args.margin.unwrap_or(engine.margin_ms);
    engine.max_move_ms = args.max_move_time.unwrap_or(engine.max_move_ms);
    engine.level = args.level.unwrap_or(engine.level);
    engine.elo = args.elo.unwrap_or(engine.elo);
    engine.ponder |= args.ponder;
    if !args.engine.is_empty() {
        engine.command = args.engine;
    }
    check_engine(&engine)?;
    let server = check_server(args.server.or(file.server).as_deref().unwrap_or(DEFAULT_SERVER))?;
    let token_file = args.token_file.or(file.token_file);
    let token = load_token(env_token, token_file.as_deref())?;
    let pgn = args.pgn.or(file.pgn).unwrap_or_else(|| PathBuf::from("vorpal-bot.pgn"));
    let state_file = args
        .state_file
        .or(file.state_file)
        .unwrap_or_else(|| pgn.with_extension("games"));
    Ok(Settings {
        server,
        token,
        pgn,
        state_file,
        on_stop: args.on_stop.or(file.on_stop).unwrap_or_default(),
        log: args.log.or(file.log).filter(|p| !p.as_os_str().is_empty()),
        policy,
        engine,
        chat: file.chat,
        dry_run: args.dry_run,
    })
}

/// The policy's values that cannot work: another variant than alice, none, no game slot, a
/// minimum time above the maximum.
fn check_policy(policy: &Policy) -> Result<(), String> {
    if let Some(other) = policy.variants.iter().find(|v| v.as_str() != "alice") {
        return Err(format!(
            "variant '{other}': Vorpal plays only alice (the policy's variants = [\"alice\"])"
        ));
    }
    if policy.variants.is_empty() {
        return Err("the policy names no variant: variants = [\"alice\"]".into());
    }
    if policy.max_games == 0 {
        return Err("max_games must be at least 1".into());
    }
    if policy.min_base > policy.max_base || policy.min_increment > policy.max_increment {
        return Err("the policy's minimum time is above its maximum".into());
    }
    Ok(())
}

/// The engine's values that cannot work (no thread, no hash).
fn check_engine(engine: &EngineConfig) -> Result<(), String> {
    if engine.threads == 0 || engine.hash == 0 {
        return Err("threads and hash must be at least 1".into());
    }
    Ok(())
}

/// Reads and checks a config file's text as `vorpal bot` does before it applies the flags
/// (the fuzz door): the file's values, or the message that refuses them.
pub fn check_config_text(text: &str) -> Result<FileConfig, String> {
    let file = parse_config(text)?;
    check_policy(&file.policy)?;
    check_engine(&file.engine)?;
    if let Some(server) = &file.server {
        check_server(server)?;
    }
    Ok(file)
}

/// Checks at start that every file the bot writes can be written: the PGN file (appended to),
/// the state file (replaced through a temporary file beside it) and the log file, if any.
pub fn check_outputs(settings: &Settings) -> Result<(), String> {
    if let Some(log) = &settings.log {
        check_log_file(log)?;
    }
    check_writable(&settings.pgn, "PGN file")?;
    check_writable(&settings.state_file, "state file")?;
    let tmp = settings.state_file.with_extension("tmp");
    check_writable(&tmp, "state file's temporary file")?;
    std::fs::remove_file(&tmp).map_err(|e| format!("the state file's temporary file {}: {e}", tmp.display()))
}

/// Parses the text of a config file.
pub fn parse_config(text: &str) -> Result<FileConfig, String> {
    toml::from_str(text).map_err(|e| e.to_string().trim_end().to_string())
}

/// The server URL, checked: `https://HOST[:PORT][/PATH]`, or `http://` for this machine only
/// (the token must not cross a network in clear text).
pub fn check_server(url: &str) -> Result<String, String> {
    let url = url.trim().trim_end_matches('/');
    let (scheme, rest) = url
        .split_once("://")
        .ok_or_else(|| format!("server '{url}': not a URL (https://HOST)"))?;
    let authority = rest.split('/').next().unwrap_or("");
    let host = match authority.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(""),
        None => authority.split(':').next().unwrap_or(""),
    };
    if host.is_empty() || authority.contains('@') || url.contains(char::is_whitespace) {
        return Err(format!("server '{url}': no host name"));
    }
    let loopback = host == "localhost" || host == "::1" || host.starts_with("127.");
    match scheme {
        "https" => Ok(url.to_string()),
        "http" if loopback => Ok(url.to_string()),
        "http" => Err(format!(
            "server '{url}': http:// only for this machine (127.0.0.1, ::1, localhost); use https://"
        )),
        _ => Err(format!(
            "server '{url}': the scheme must be https:// (or http:// on this machine)"
        )),
    }
}

/// The token: `VORPAL_BOT_TOKEN` if set, else the first line of `file`, which must not be
/// readable or writable by anyone but its owner.
pub fn load_token(env_token: Option<String>, file: Option<&Path>) -> Result<String, String> {
    if let Some(token) = env_token.map(|t| t.trim().to_string()).filter(|t| !t.is_empty()) {
        return Ok(token);
    }
    let Some(path) = file else {
        return Err(format!(
            "no API token: set {TOKEN_VAR} or name an owner-only file with token_file (--token-file)"
        ));
    };
    check_owner_only(path)?;
    let text = std::fs::read_to_string(path).map_err(|e| format!("token file {}: {e}", path.display()))?;
    let token = text.lines().next().unwrap_or("").trim().to_string();
    if token.is_empty() {
        return Err(format!("token file {}: empty", path.display()));
    }
    Ok(token)
}

/// Refuses a file that others may read or write.
#[cfg(unix)]
fn check_owner_only(path: &Path) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    let meta = std::fs::metadata(path).map_err(|e| format!("token file {}: {e}", path.display()))?;
    let mode = meta.permissions().mode() & 0o777;
    if mode & 0o077 != 0 {
        return Err(format!(
            "token file {}: readable by others (mode {mode:o}); run chmod 600 {}",
            path.display(),
            path.display()
        ));
    }
    Ok(())
}

/// Other systems: no permission bits to check.
#[cfg(not(unix))]
fn check_owner_only(_path: &Path) -> Result<(), String> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn args(words: &[&str]) -> BotArgs {
        BotArgs::try_parse_from(std::iter::once("vorpal bot").chain(words.iter().copied())).unwrap()
    }

    #[test]
    fn a_full_config_file_parses() {
        let text = r#"
server = "https://www.pychess.org"
pgn = "games.pgn"
on_stop = "abort"
log = "/var/log/vorpal/bot.log"

[policy]
variants = ["alice"]
min_base = 120
max_base = 600
min_increment = 1
max_increment = 10
correspondence = false
rated = true
casual = false
max_games = 3
allow = []
block = ["rude"]

[engine]
threads = 2
hash = 128
tb = "/var/lib/vorpal/tb"
network = ""
margin_ms = 800
max_move_ms = 20000
command = []
level = 3
elo = 0
ponder = true

[chat]
greeting = "Good luck!"
goodbye = "Thanks for the game."
"#;
        let c = parse_config(text).unwrap();
        assert_eq!(c.on_stop, Some(OnStop::Abort));
        assert_eq!(c.log, Some(PathBuf::from("/var/log/vorpal/bot.log")));
        assert_eq!(c.policy.max_games, 3);
        assert!(!c.policy.casual);
        assert_eq!(c.policy.block, ["rude"]);
        assert_eq!(c.engine.threads, 2);
        assert_eq!(c.engine.margin_ms, 800);
        assert!(c.engine.ponder);
        assert_eq!(c.chat.greeting, "Good luck!");
    }

    #[test]
    fn config_text_is_checked_before_the_flags() {
        assert!(check_config_text("").is_ok());
        let refused = [
            ("[policy]\nvariants = [\"alice\", \"standard\"]\n", "only alice"),
            ("[policy]\nmax_games = 0\n", "max_games"),
            ("[engine]\nthreads = 0\n", "threads"),
            ("server = \"http://example.org\"\n", "http"),
            ("[policy\n", "TOML"),
        ];
        for (text, why) in refused {
            let e = check_config_text(text).unwrap_err();
            assert!(
                e.to_lowercase().contains(&why.to_lowercase()) || why == "TOML",
                "{text:?}: {e}"
            );
        }
    }

    #[test]
    fn the_documented_config_file_parses_to_the_defaults() {
        let doc = include_str!("../../../docs/bot.md");
        let start = doc.find("```toml\n").expect("a toml block in docs/bot.md") + 8;
        let text = &doc[start..start + doc[start..].find("```").unwrap()];
        let c = parse_config(text).unwrap();
        assert_eq!(c.policy, Policy::default());
        assert_eq!(c.engine, EngineConfig::default());
        assert_eq!(c.chat, ChatConfig::default());
    }

    #[test]
    fn mistakes_in_the_file_are_reported() {
        assert!(parse_config("[policy]\nmax_gmaes = 2\n")
            .unwrap_err()
            .contains("max_gmaes"));
        assert!(parse_config("on_stop = \"later\"\n").is_err());
        assert!(parse_config("[engine]\nthreads = -1\n").is_err());
        assert!(parse_config("token = \"abc\"\n").is_err());
        let empty = parse_config("").unwrap();
        assert_eq!(empty.policy, Policy::default());
        assert_eq!(empty.engine, EngineConfig::default());
    }

    #[test]
    fn flags_override_the_defaults() {
        let s = settings(
            args(&[
                "--server",
                "http://127.0.0.1:9/",
                "--max-games",
                "2",
                "--threads",
                "3",
                "--margin",
                "700",
            ]),
            Some(" tok ".into()),
        )
        .unwrap();
        assert_eq!(s.server, "http://127.0.0.1:9");
        assert_eq!(s.token, "tok");
        assert_eq!(s.policy.max_games, 2);
        assert_eq!(s.engine.threads, 3);
        assert_eq!(s.engine.time().margin_ms, 700);
        assert_eq!(s.pgn, PathBuf::from("vorpal-bot.pgn"));
        assert_eq!(s.state_file, PathBuf::from("vorpal-bot.games"));
        assert_eq!(s.on_stop, OnStop::Finish);
        let d = settings(args(&[]), Some("t".into())).unwrap();
        assert_eq!(d.server, DEFAULT_SERVER);
        assert!(settings(args(&["--max-games", "0"]), Some("t".into())).is_err());
        assert!(settings(args(&[]), None).unwrap_err().contains(TOKEN_VAR));
        let leveled = settings(args(&["--level", "3"]), Some("t".into())).unwrap();
        assert_eq!(leveled.engine.level, 3);
        assert!(!leveled.engine.ponder);
        assert!(settings(args(&["--ponder"]), Some("t".into())).unwrap().engine.ponder);
        assert_eq!(d.log, None);
        let logged = settings(args(&["--log", "bot.log"]), Some("t".into())).unwrap();
        assert_eq!(logged.log, Some(PathBuf::from("bot.log")));
    }

    #[test]
    fn only_alice_is_played() {
        let dir = std::env::temp_dir().join(format!("vorpal-bot-variants-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("bot.toml");
        std::fs::write(&file, "[policy]\nvariants = [\"alice\", \"standard\"]\n").unwrap();
        let e = settings(args(&["--config", file.to_str().unwrap()]), Some("t".into())).unwrap_err();
        assert!(e.contains("variant 'standard': Vorpal plays only alice"), "{e}");
        std::fs::write(&file, "[policy]\nvariants = []\n").unwrap();
        assert!(settings(args(&["--config", file.to_str().unwrap()]), Some("t".into())).is_err());
        let mut s = settings(args(&[]), Some("t".into())).unwrap();
        s.pgn = dir.join("games.pgn");
        s.state_file = dir.join("games.games");
        assert_eq!(check_outputs(&s), Ok(()));
        s.log = Some(std::path::PathBuf::from("/proc/nonexistent/bot.log"));
        assert!(check_outputs(&s)
            .unwrap_err()
            .starts_with("the log file /proc/nonexistent/bot.log cannot be written"));
        s.log = None;
        s.state_file = std::path::PathBuf::from("/proc/nonexistent/bot.games");
        assert!(check_outputs(&s)
            .unwrap_err()
            .starts_with("the state file /proc/nonexistent/bot.games cannot be written"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn plain_http_only_on_this_machine() {
        assert!(check_server("https://www.pychess.org").is_ok());
        assert!(check_server("http://localhost:8080").is_ok());
        assert!(check_server("http://[::1]:8080/").is_ok());
        assert!(check_server("http://www.pychess.org").is_err());
        assert!(check_server("http://127.0.0.1@evil.example").is_err());
        assert!(check_server("ftp://127.0.0.1").is_err());
        assert!(check_server("www.pychess.org").is_err());
        assert!(check_server("https://").is_err());
    }

    #[test]
    fn the_token_file_must_be_owner_only() {
        let dir = std::env::temp_dir().join(format!("vorpal-bot-token-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("token");
        std::fs::write(&file, "secret\n").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
            assert!(load_token(None, Some(&file)).unwrap_err().contains("chmod 600"));
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
        }
        assert_eq!(load_token(None, Some(&file)).unwrap(), "secret");
        assert_eq!(load_token(Some("env".into()), Some(&file)).unwrap(), "env");
        std::fs::write(&file, "\n").unwrap();
        assert!(load_token(None, Some(&file)).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
