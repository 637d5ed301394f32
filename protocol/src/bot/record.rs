//! Finished games appended to a PGN file: Alice SAN with the landing-board suffix (the shared
//! PGN writer's), the site's game id and URL, the players, the result where it is known and
//! the reason in a final comment.

use super::ending::Ending;
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use vorpal_client::pgn::{today, PgnGame, PgnMove};
use vorpal_client::variant_tag::variant_tag;
use vorpal_engine::Game;

/// One finished game.
pub struct Finished<'a> {
    /// The site's base URL.
    pub server: &'a str,
    /// The game id.
    pub id: &'a str,
    /// White's name.
    pub white: &'a str,
    /// Black's name.
    pub black: &'a str,
    /// The site's start FEN (`""`: the usual start).
    pub initial_fen: &'a str,
    /// The time control as `base+increment` in seconds, when known.
    pub time_control: Option<String>,
    /// The moves (None: the game was never seen).
    pub game: Option<&'a Game>,
    /// How it ended.
    pub ending: &'a Ending,
}

/// The PGN of `f`.
pub fn pgn(f: &Finished) -> PgnGame {
    let mut g = PgnGame::default();
    g.set_tag("Event", "pychess-variants BOT game");
    g.set_tag("Site", format!("{}/{}", f.server, f.id));
    g.set_tag("Date", today());
    g.set_tag("Round", "-");
    g.set_tag("White", f.white);
    g.set_tag("Black", f.black);
    g.set_tag("Result", f.ending.result);
    g.set_tag("GameId", f.id);
    if let Some(game) = f.game {
        g.set_tag("Variant", variant_tag(game.start().rules()));
        if !f.initial_fen.trim().is_empty() {
            g.set_tag("SetUp", "1");
            g.set_tag("FEN", game.start().to_fen());
        }
        let mut pos = *game.start();
        for &mv in game.moves() {
            g.moves.push(PgnMove {
                san: pos.move_to_san(mv),
                comment: None,
            });
            pos = pos.after(mv);
        }
    }
    if let Some(tc) = &f.time_control {
        g.set_tag("TimeControl", tc.clone());
    }
    g.set_tag("Termination", f.ending.reason.clone());
    g.final_comment = Some(f.ending.reason.clone());
    g.result = Some(f.ending.result.to_string());
    g
}

/// Appends games to one file, one writer at a time, each game once: the ids already in the
/// file (from earlier runs too) are never appended again, whatever the reconnects.
pub struct Recorder {
    path: PathBuf,
    recorded: Mutex<HashSet<String>>,
}

/// The `GameId` tags of a PGN text.
fn recorded_ids(text: &str) -> HashSet<String> {
    text.lines()
        .filter_map(|line| {
            line.trim()
                .strip_prefix("[GameId \"")?
                .strip_suffix("\"]")
                .map(String::from)
        })
        .collect()
}

impl Recorder {
    /// A recorder appending to `path` (the games already there are read).
    pub fn new(path: &Path) -> Recorder {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        Recorder {
            path: path.to_path_buf(),
            recorded: Mutex::new(recorded_ids(&text)),
        }
    }

    /// Appends `f` (the writer ends each game with an empty line); `Ok(false)` when the game
    /// is in the file already.
    pub fn append(&self, f: &Finished) -> Result<bool, String> {
        let mut recorded = self.recorded.lock().unwrap_or_else(|e| e.into_inner());
        if recorded.contains(f.id) {
            return Ok(false);
        }
        let text = pgn(f).to_text();
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)
            .and_then(|mut file| file.write_all(text.as_bytes()))
            .map_err(|e| format!("cannot append the game to {}: {e}", self.path.display()))?;
        recorded.insert(f.id.to_string());
        Ok(true)
    }
}

/// Checks at start that `path` can be appended to (created if missing), so that no finished
/// game is lost later.
pub fn check_writable(path: &Path, what: &str) -> Result<(), String> {
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map(drop)
        .map_err(|e| format!("the {what} {} cannot be written: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::replay::{alice_rules, replay};
    use vorpal_client::pgn::parse_pgn;

    #[test]
    fn a_game_reads_back_with_its_tags_and_moves() {
        let game = replay("", &["e2e4", "e7e5", "d1h5", "g8f6", "h5e5"]).unwrap();
        let ending = Ending {
            result: "1-0",
            reason: "checkmate".into(),
        };
        let f = Finished {
            server: "http://127.0.0.1:8080",
            id: "iqSgPqOc",
            white: "Vorpal",
            black: "tester",
            initial_fen: "",
            time_control: Some("60+2".into()),
            game: Some(&game),
            ending: &ending,
        };
        let dir = std::env::temp_dir().join(format!("vorpal-bot-record-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.pgn");
        let r = Recorder::new(&path);
        assert_eq!(r.append(&f), Ok(true));
        assert_eq!(r.append(&f), Ok(false));
        // A second run (a restart) does not record it again either; another game goes in.
        assert_eq!(Recorder::new(&path).append(&f), Ok(false));
        let other = Finished { id: "zzzz0000", ..f };
        assert_eq!(Recorder::new(&path).append(&other), Ok(true));
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(check_writable(&path, "PGN file").is_ok());
        let bad = check_writable(Path::new("/proc/nonexistent/x.pgn"), "PGN file").unwrap_err();
        assert!(
            bad.starts_with("the PGN file /proc/nonexistent/x.pgn cannot be written"),
            "{bad}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(text.contains("Qxe5/A#"), "{text}");
        let games = parse_pgn(&text);
        assert_eq!(games.len(), 2);
        let g = &games[0];
        assert_eq!(g.tag("Site"), Some("http://127.0.0.1:8080/iqSgPqOc"));
        assert_eq!(g.tag("White"), Some("Vorpal"));
        assert_eq!(g.tag("TimeControl"), Some("60+2"));
        assert_eq!(g.result.as_deref(), Some("1-0"));
        let (_, moves) = g.replay(alice_rules()).unwrap();
        assert_eq!(moves, game.moves());
    }
}
