//! The page's commands on the game itself: moves (from the boards as wide UCI, typed as SAN or
//! UCI), stepping through the tree, promoting and deleting variations, comments, PGN import
//! and export, restoring a game the page kept (after a reload or a server restart), and the
//! "show engine" switch of play mode. Each field is checked; a refusal changes nothing.

use super::pgn_file::{game_label, split_games, too_large};
use super::pgn_io::{export_pgn, import_pgn, today, ExportGame};
use super::requests::Command;
use super::session::{Ending, PageSession, Shared};
use super::settings::{Mode, Settings, SettingsFields};
use super::view::View;
use serde::Serialize;
use serde_json::Value;
use std::sync::Arc;
use vorpal_engine::clock::entropy;
use vorpal_engine::Position;

/// Longest comment kept.
const MAX_COMMENT: usize = 2000;

/// The answer of a command: `{"ok":true,"state":...}`, or the refusal with the state after
/// it (whose `message` is the refusal too).
#[derive(Serialize)]
#[serde(untagged)]
enum CommandAnswer<'a> {
    Done {
        ok: bool,
        state: View<'a>,
        /// A PGN file's games (the picker's labels, file order), for a file of several games
        /// read without a game number.
        #[serde(skip_serializing_if = "Option::is_none")]
        games: Option<Vec<String>>,
    },
    Refused {
        error: String,
        state: View<'a>,
    },
}

/// Runs one command of the page (its JSON body) on its session; returns whether it was done
/// and the answer's JSON text. Every host of the page runs its commands here (`vorpal gui`'s
/// `/api/cmd`, the browser build's page module).
pub fn page_command(shared: &Arc<Shared>, body: &Value) -> (bool, String) {
    shared.update(|s, shared| {
        let result = Command::read(body).and_then(|command| match command {
            Command::Pgn { text, game } => {
                s.message = None;
                s.import_file(shared, &text, game)
            }
            command => run_command(s, shared, command).map(|()| None),
        });
        let (done, answer) = match result {
            Ok(games) => (
                true,
                CommandAnswer::Done {
                    ok: true,
                    state: s.view(),
                    games,
                },
            ),
            Err(e) => {
                s.message = Some(e.clone());
                s.version += 1;
                let state = s.view();
                (false, CommandAnswer::Refused { error: e, state })
            }
        };
        // Never fails: the answers are derived structs of texts, numbers and lists.
        let text = serde_json::to_string(&answer)
            .unwrap_or_else(|e| format!("{{\"error\":\"cannot write the answer: {e}\"}}"));
        (done, text)
    })
}

fn run_command(s: &mut PageSession, shared: &Arc<Shared>, command: Command) -> Result<(), String> {
    if !matches!(command, Command::Goto { .. }) {
        s.message = None;
    }
    match command {
        Command::Undo => s.take_back(),
        Command::New {
            variant,
            chess960,
            en_passant,
            number,
        } => {
            let rules = s.rules_from(
                &variant,
                chess960.unwrap_or(false),
                en_passant.as_deref().unwrap_or("off"),
            )?;
            if let Some(n) = number.filter(|n| *n > 959) {
                return Err(format!("Chess960 position numbers run from 0 to 959, not {n}"));
            }
            // Chess960 without a number: a random one of the 960 start positions.
            // (The clock's bits, spread by a multiplication, pick it: no secret here.)
            let number = number.or_else(|| {
                let spread = entropy().wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32;
                rules.is_chess960().then_some(spread % 960)
            });
            let start = match number.filter(|_| rules.is_chess960()) {
                Some(n) => {
                    let fen = rules
                        .variant
                        .chess960_fen(n as u32)
                        .ok_or_else(|| format!("Chess960 position numbers run from 0 to 959, not {n}"))?;
                    Position::from_fen(&fen, rules).map_err(|e| e.to_string())?
                }
                None => Position::start(rules),
            };
            let players = s.players.clone();
            s.new_game(shared, start, &[], players);
            Ok(())
        }
        Command::Fen { fen } => {
            let text = fen.trim();
            if text.len() > 400 {
                return Err("bad FEN: too long".into());
            }
            let pos = Position::from_game_fen(text, s.rules()).map_err(|e| format!("bad FEN, game unchanged: {e}"))?;
            let players = s.players.clone();
            s.new_game(shared, pos, &[], players);
            Ok(())
        }
        Command::Settings(fields) => {
            let settings = Settings::from_fields(&fields, s.engines.len())?;
            s.check_elo(&settings)?;
            s.apply_settings(shared, settings);
            Ok(())
        }
        Command::Stop => {
            s.stop_engines();
            Ok(())
        }
        Command::Restart => {
            s.restart_engines(shared);
            Ok(())
        }
        Command::Review => s.start_review(shared),
        other => s.game_command(shared, other),
    }
}

impl PageSession {
    /// Runs a command on the game itself; errors name the problem and leave the game as it
    /// was. (The other commands are the server's: see `http`.)
    pub fn game_command(&mut self, shared: &Arc<Shared>, command: Command) -> Result<(), String> {
        match command {
            Command::Move { uci, san } => {
                let text = uci.or(san).ok_or("missing text field 'uci'")?;
                if text.len() > 20 {
                    return Err("a move is at most 20 characters".into());
                }
                self.person_move(&text)
            }
            Command::Goto { node, ply } => {
                self.message = None;
                match (node, ply) {
                    (Some(n), _) if self.tree.contains(n as usize) => self.goto_node(n as usize),
                    (Some(n), _) => return Err(format!("there is no move number {n} in this game")),
                    (None, Some(p)) => self.goto(p as usize),
                    _ => return Err("goto needs a node or ply number".into()),
                }
                Ok(())
            }
            Command::Promote { node } => {
                let node = node as usize;
                if !self.tree.contains(node) || !self.tree.promote(node) {
                    return Err("that move is on the main line already".into());
                }
                self.bump();
                Ok(())
            }
            Command::Delete { node } => {
                let node = node as usize;
                if node == 0 || !self.tree.contains(node) {
                    return Err("there is no such move to delete".into());
                }
                let parent = self.tree.delete(node).unwrap_or(0);
                if self.tree.is_under(self.cursor, node) || !self.tree.contains(self.cursor) {
                    self.set_cursor(parent);
                }
                self.stop_search();
                self.bump();
                self.kick();
                Ok(())
            }
            Command::Comment { node, text } => {
                let node = node as usize;
                if text.len() > MAX_COMMENT || !self.tree.contains(node) {
                    return Err(format!(
                        "a comment is at most {MAX_COMMENT} characters, on a move of the game"
                    ));
                }
                self.tree.set_comment(node, &text);
                self.bump();
                Ok(())
            }
            Command::Abort => self.declare(Ending::Abort),
            Command::Resign => self.declare(Ending::Resign),
            Command::OfferDraw => self.declare(Ending::OfferDraw),
            Command::Mark { node, nag } => {
                let node = node as usize;
                if node == 0 || !self.tree.contains(node) || nag.is_some_and(|n| !(1..=6).contains(&n)) {
                    return Err("a mark is a NAG from 1 (!) to 6 (?!) on a move of the game".into());
                }
                self.tree.set_mark(node, nag);
                self.bump();
                Ok(())
            }
            Command::Pgn { text, game } => self.import_file(shared, &text, game).map(|_| ()),
            Command::Restore {
                pgn,
                settings,
                path,
                show_engine,
            } => self.restore(shared, &pgn, settings.as_ref(), &path.unwrap_or_default(), show_engine),
            Command::ShowEngine { on } => {
                self.show_engine = on.unwrap_or(false);
                self.bump();
                Ok(())
            }
            _ => Err("not a command on the game".into()),
        }
    }

    /// Reads game `game` (from 0; the first when None) of a PGN file. Returns the labels of the
    /// file's games when it holds several and no game was named (the page's picker).
    fn import_file(
        &mut self,
        shared: &Arc<Shared>,
        text: &str,
        game: Option<u32>,
    ) -> Result<Option<Vec<String>>, String> {
        if let Some(why) = too_large(text.len()) {
            return Err(format!("bad PGN, game unchanged: {why}"));
        }
        let games = split_games(text);
        let index = game.unwrap_or(0) as usize;
        let Some(chosen) = games.get(index).copied().or(games.is_empty().then_some(text)) else {
            return Err(format!(
                "bad PGN, game unchanged: the file has {} games, not {}",
                games.len(),
                index + 1
            ));
        };
        let read = import_pgn(chosen, self.rules()).map_err(|e| {
            if games.len() > 1 {
                format!("bad PGN, game unchanged: game {}: {e}", index + 1)
            } else {
                format!("bad PGN, game unchanged: {e}")
            }
        })?;
        if self.settings.mode != Mode::Analysis {
            self.stop_engines();
        }
        let players = [
            read.tag("White").unwrap_or("?").to_string(),
            read.tag("Black").unwrap_or("?").to_string(),
        ];
        self.set_game(shared, read.tree, read.headers, players);
        let labels = (games.len() > 1 && game.is_none())
            .then(|| games.iter().enumerate().map(|(i, g)| game_label(i + 1, g)).collect());
        Ok(labels)
    }

    /// Takes back a game the page kept: its PGN, the moves to the shown position (wide UCI)
    /// and the settings. A game that no longer reads (say, after an update of the rules) is
    /// refused and the page starts afresh.
    fn restore(
        &mut self,
        shared: &Arc<Shared>,
        pgn: &str,
        settings: Option<&SettingsFields>,
        path: &[String],
        show_engine: Option<bool>,
    ) -> Result<(), String> {
        let game = import_pgn(pgn, self.rules()).map_err(|e| format!("cannot restore the game: {e}"))?;
        if let Some(fields) = settings {
            let settings = Settings::from_fields(fields, self.engines.len())?;
            self.apply_settings(shared, settings);
        }
        let players = [
            game.tag("White").unwrap_or("White").to_string(),
            game.tag("Black").unwrap_or("Black").to_string(),
        ];
        self.set_game(shared, game.tree, game.headers, players);
        let mut at = 0;
        for uci in path {
            let next = self
                .tree
                .node(at)
                .children
                .iter()
                .copied()
                .find(|&c| *uci == self.tree.node(c).uci);
            match next {
                Some(c) => at = c,
                None => break,
            }
        }
        self.show_engine = show_engine.unwrap_or(false);
        self.goto_node(at);
        Ok(())
    }

    /// The game as PGN: its tags, moves, variations and comments, as it is now.
    pub fn pgn_text(&self) -> String {
        let (result, termination) = self.game_result();
        export_pgn(&ExportGame {
            tree: &self.tree,
            headers: &self.headers,
            players: [&self.players[0], &self.players[1]],
            result: &result,
            termination: termination.as_deref(),
            date: &today(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::page_command;
    use crate::session::Shared;
    use crate::test_host::TestHost;
    use std::sync::Arc;

    #[test]
    fn a_position_no_game_reaches_is_refused_with_the_reason_and_the_game_kept() {
        let shared = Shared::new(Arc::new(Vec::new()), TestHost::new());
        let fen_now = || serde_json::to_value(shared.lock().view()).unwrap()["fen"].clone();
        let before = fen_now();
        let fen = "rnbqkbnr/pppppppp/pppppppp/8/8/PPPPPPPP/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let (done, body) = page_command(&shared, &serde_json::json!({"cmd": "fen", "fen": fen}));
        assert!(!done, "{body}");
        let reason = "bad FEN, game unchanged: White has 24 men; a game of alice has at most 16 a side";
        assert!(body.contains(reason), "{body}");
        assert_eq!(fen_now(), before);
        // A set-up with nine pawns (the set-up board sends its FEN the same way).
        let (done, body) = page_command(
            &shared,
            &serde_json::json!({"cmd": "fen", "fen": "4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1"}),
        );
        assert!(!done && body.contains("White has 9 pawns"), "{body}");
    }

    /// The file of two games from `../shared/data/pgn`, with clock and evaluation comments
    /// added to the second game.
    fn two_games() -> String {
        let text = include_str!("../../../../shared/data/pgn/engine-games.pgn");
        let second = text.rfind("[Event").unwrap();
        let (one, two) = text.split_at(second);
        let two = two.replacen('{', "{[%eval 0.31] [%clk 0:03:12] ", 1);
        format!("{one}{two}")
    }

    #[test]
    fn a_two_game_file_gives_the_labels_and_loads_the_chosen_game() {
        let shared = Shared::new(Arc::new(Vec::new()), TestHost::new());
        let file = two_games();
        let (done, body) = page_command(&shared, &serde_json::json!({"cmd": "pgn", "text": file}));
        assert!(done, "{body}");
        let answer: serde_json::Value = serde_json::from_str(&body).unwrap();
        let labels = answer["games"].as_array().expect("labels");
        assert_eq!(labels.len(), 2);
        assert!(labels[1].as_str().unwrap().starts_with("2. "), "{labels:?}");
        let (done, body) = page_command(&shared, &serde_json::json!({"cmd": "pgn", "text": file, "game": 1}));
        assert!(done, "{body}");
        let answer: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert!(answer.get("games").is_none(), "labels only for the first reading");
        let state = &answer["state"];
        let first = state["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|n| n["ply"] == 1)
            .unwrap()
            .clone();
        assert_eq!(first["clock"], "3:12");
        assert_eq!(first["eval"], "0.31");
        assert_eq!(first["evalCp"], 31);
        let comment = first["comment"].as_str().unwrap();
        assert!(!comment.contains('%') && !comment.is_empty(), "{comment}");
        let pgn = state["pgn"].as_str().unwrap();
        assert!(
            pgn.contains(&format!("{{[%eval 0.31] [%clk 0:03:12] {comment}}}")),
            "{pgn}"
        );
        // Game 3 does not exist.
        let (done, body) = page_command(&shared, &serde_json::json!({"cmd": "pgn", "text": file, "game": 2}));
        assert!(!done && body.contains("the file has 2 games, not 3"), "{body}");
    }

    #[test]
    fn the_page_s_ending_comment_is_not_read_back_and_a_big_file_is_refused() {
        let shared = Shared::new(Arc::new(Vec::new()), TestHost::new());
        for uci in ["e2m4", "d7l5", "f1m2", "l5e4", "m2b5"] {
            assert!(page_command(&shared, &serde_json::json!({"cmd": "move", "uci": uci})).0);
        }
        let pgn = serde_json::to_value(shared.lock().view()).unwrap()["pgn"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(pgn.contains("3. Bb5/A# {Checkmate: White wins} 1-0"), "{pgn}");
        let (done, body) = page_command(&shared, &serde_json::json!({"cmd": "pgn", "text": pgn}));
        assert!(done, "{body}");
        let state: serde_json::Value = serde_json::from_str::<serde_json::Value>(&body).unwrap()["state"].clone();
        assert!(
            state["nodes"]
                .as_array()
                .unwrap()
                .iter()
                .all(|n| n["comment"].is_null()),
            "{body}"
        );
        assert_eq!(
            state["pgn"]
                .as_str()
                .unwrap()
                .matches("{Checkmate: White wins}")
                .count(),
            1
        );
        let big = "1. e4 *\n".repeat((8 << 20) / 8 + 1);
        let (done, body) = page_command(&shared, &serde_json::json!({"cmd": "pgn", "text": big}));
        assert!(!done && body.contains("the page reads files of up to 8 MiB"), "{body}");
    }
}
