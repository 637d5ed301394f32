//! The games the bot is playing, kept in memory and in a small file (one game id per line) so
//! that a restarted bot picks them up again: the site re-sends `gameStart` only to a bot whose
//! old game stream it has already seen close, which may take it several seconds.

use super::http::is_id;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The running games.
pub struct Registry {
    path: PathBuf,
    ids: Mutex<BTreeSet<String>>,
}

impl Registry {
    /// An empty registry saved to `path`.
    pub fn new(path: &Path) -> Registry {
        Registry {
            path: path.to_path_buf(),
            ids: Mutex::new(BTreeSet::new()),
        }
    }

    /// The ids the file lists (a missing file lists none; other lines are skipped).
    pub fn saved(&self) -> Vec<String> {
        std::fs::read_to_string(&self.path)
            .unwrap_or_default()
            .lines()
            .map(str::trim)
            .filter(|id| is_id(id))
            .map(String::from)
            .collect()
    }

    /// Adds `id`; false when it is already there.
    pub fn insert(&self, id: &str) -> bool {
        let mut ids = self.ids.lock().unwrap_or_else(|e| e.into_inner());
        let added = ids.insert(id.to_string());
        if added {
            self.save(&ids);
        }
        added
    }

    /// Removes `id`.
    pub fn remove(&self, id: &str) {
        let mut ids = self.ids.lock().unwrap_or_else(|e| e.into_inner());
        if ids.remove(id) {
            self.save(&ids);
        }
    }

    /// True while `id` is running.
    pub fn contains(&self, id: &str) -> bool {
        self.ids.lock().unwrap_or_else(|e| e.into_inner()).contains(id)
    }

    /// How many games are running.
    pub fn len(&self) -> usize {
        self.ids.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// Writes the file whole (through a temporary file, so a crash leaves the old or the new
    /// list); a failure is logged and the games go on.
    fn save(&self, ids: &BTreeSet<String>) {
        let text: String = ids.iter().map(|id| format!("{id}\n")).collect();
        let tmp = self.path.with_extension("tmp");
        if let Err(e) = std::fs::write(&tmp, text).and_then(|()| std::fs::rename(&tmp, &self.path)) {
            log::warn!("cannot save the running games to {}: {e}", self.path.display());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_follows_the_games() {
        let dir = std::env::temp_dir().join(format!("vorpal-bot-registry-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("bot.games");
        std::fs::write(&path, "abcd1234\n../evil\n\nzzzz9999\n").unwrap();
        let r = Registry::new(&path);
        assert_eq!(r.saved(), ["abcd1234", "zzzz9999"]);
        assert_eq!(r.len(), 0);
        assert!(r.insert("abcd1234"));
        assert!(!r.insert("abcd1234"));
        assert!(r.insert("qqqq0000"));
        assert!(r.contains("qqqq0000"));
        assert_eq!(Registry::new(&path).saved(), ["abcd1234", "qqqq0000"]);
        r.remove("abcd1234");
        assert_eq!(Registry::new(&path).saved(), ["qqqq0000"]);
        assert_eq!(r.len(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
