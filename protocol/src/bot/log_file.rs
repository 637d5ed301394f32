//! The bot's log: stderr (the journal under systemd), or the file named by `log` (`--log`).
//! The file is appended to, created owner-only (mode 600, as the token file must be: the log
//! names every opponent and game), checked at the start like every output, and bounded: past
//! [`LOG_LIMIT`] bytes it becomes `FILE.1` (replacing the previous one) and a new file starts.
//! It is opened for each line, so an operator may also move it away at any time (the next line
//! starts a new file). Errors go to stderr too, so that a supervisor still sees the faults; a
//! line the file cannot take goes to stderr instead.

use crate::uci::output::StdStream;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The size past which the log file is rotated (one old generation is kept).
pub const LOG_LIMIT: u64 = 32 * 1024 * 1024;

/// The default filter: warnings and errors, and the bot's events (`RUST_LOG` overrides it).
const FILTER: &str = "warn,vorpal_protocol::bot=info";

/// Opens `path` for appending, created with mode 600.
fn open_owner_only(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = OpenOptions::new();
    options.create(true).append(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    options.open(path)
}

/// Checks at start that the log file can be written (creating it when missing) and makes an
/// existing one owner-only.
pub fn check_log_file(path: &Path) -> Result<(), String> {
    let file = open_owner_only(path).map_err(|e| format!("the log file {} cannot be written: {e}", path.display()))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = file
            .metadata()
            .map_err(|e| format!("the log file {}: {e}", path.display()))?
            .permissions()
            .mode();
        if mode & 0o077 != 0 {
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600)).map_err(|e| {
                format!(
                    "the log file {} is readable by others (mode {:o}) and cannot be made owner-only: {e}",
                    path.display(),
                    mode & 0o777
                )
            })?;
        }
    }
    drop(file);
    Ok(())
}

/// The log file as env_logger's output: each formatted line appended on its own.
pub struct LogFile {
    path: PathBuf,
    limit: u64,
}

impl LogFile {
    /// The log file at `path`, rotated past `limit` bytes.
    pub fn new(path: &Path, limit: u64) -> LogFile {
        LogFile {
            path: path.to_path_buf(),
            limit,
        }
    }

    /// The name of the previous generation: `FILE.1`.
    pub fn rotated(&self) -> PathBuf {
        let mut name = self.path.clone().into_os_string();
        name.push(".1");
        PathBuf::from(name)
    }

    /// Appends `line`, rotating first when the file has grown past the limit.
    fn append(&self, line: &[u8]) -> std::io::Result<()> {
        if std::fs::metadata(&self.path).is_ok_and(|m| m.len() >= self.limit) {
            std::fs::rename(&self.path, self.rotated())?;
        }
        open_owner_only(&self.path)?.write_all(line)
    }
}

impl Write for LogFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if let Err(e) = self.append(buf) {
            let mut err = std::io::stderr();
            let _ = write!(
                err,
                "vorpal bot: the log file {} cannot be written ({e}): ",
                self.path.display()
            );
            let _ = err.write_all(buf);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The file's logger with errors also on stderr.
struct Tee {
    file: env_logger::Logger,
    stderr: env_logger::Logger,
}

impl log::Log for Tee {
    fn enabled(&self, metadata: &log::Metadata) -> bool {
        self.file.enabled(metadata) || (metadata.level() == log::Level::Error && self.stderr.enabled(metadata))
    }

    fn log(&self, record: &log::Record) {
        self.file.log(record);
        if record.level() == log::Level::Error {
            self.stderr.log(record);
        }
    }

    fn flush(&self) {
        self.file.flush();
        self.stderr.flush();
    }
}

/// Starts the bot's logging: to stderr (`None`), or to the file with its errors on stderr too.
pub fn init(path: Option<&Path>) {
    let builder = || env_logger::Builder::from_env(env_logger::Env::default().default_filter_or(FILTER));
    let stderr = builder()
        .target(env_logger::Target::Pipe(Box::new(StdStream(std::io::stderr()))))
        .build();
    let Some(path) = path else {
        let max = stderr.filter();
        if log::set_boxed_logger(Box::new(stderr)).is_ok() {
            log::set_max_level(max);
        }
        return;
    };
    let file = builder()
        .target(env_logger::Target::Pipe(Box::new(LogFile::new(path, LOG_LIMIT))))
        .build();
    let max = file.filter().max(stderr.filter());
    if log::set_boxed_logger(Box::new(Tee { file, stderr })).is_ok() {
        log::set_max_level(max);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_file_is_owner_only_appended_and_rotated() {
        let dir = std::env::temp_dir().join(format!("vorpal-bot-log-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("bot.log");
        std::fs::write(&path, "an earlier run\n").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
            assert_eq!(check_log_file(&path), Ok(()));
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let mut log = LogFile::new(&path, 40);
        log.write_all(b"line one\n").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "an earlier run\nline one\n");
        log.write_all(b"line two, long enough to pass the limit\n").unwrap();
        log.write_all(b"line three\n").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "line three\n");
        assert_eq!(
            std::fs::read_to_string(log.rotated()).unwrap(),
            "an earlier run\nline one\nline two, long enough to pass the limit\n"
        );
        // Moved away by the operator: the next line starts a new file, owner-only.
        std::fs::rename(&path, dir.join("old.log")).unwrap();
        log.write_all(b"line four\n").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "line four\n");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let bad = check_log_file(Path::new("/proc/nonexistent/bot.log")).unwrap_err();
        assert!(
            bad.starts_with("the log file /proc/nonexistent/bot.log cannot be written"),
            "{bad}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
