//! The page's commands on the game itself: moves (from the boards as wide UCI, typed as SAN or
//! UCI), stepping through the tree, promoting and deleting variations, comments, PGN import
//! and export, restoring a game the page kept (after a reload or a server restart), and the
//! "show engine" switch of play mode. Each field is checked; a refusal changes nothing.

use super::pgn_io::{export_pgn, import_pgn, today, ExportGame};
use super::session::{PageSession, Shared};
use super::settings::{Mode, Settings};
use serde_json::Value;
use std::sync::Arc;

/// Longest comment kept.
const MAX_COMMENT: usize = 2000;

fn node_field(cmd: &Value) -> Result<usize, String> {
    cmd.get("node")
        .and_then(Value::as_u64)
        .map(|n| n as usize)
        .ok_or_else(|| "missing node number 'node'".to_string())
}

fn text_field<'a>(cmd: &'a Value, key: &str) -> Result<&'a str, String> {
    cmd.get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("missing text field '{key}'"))
}

impl PageSession {
    /// Runs game command `name`; errors name the problem and leave the game as it was.
    pub fn game_command(&mut self, shared: &Arc<Shared>, name: &str, cmd: &Value) -> Result<(), String> {
        match name {
            "move" => {
                let text = cmd
                    .get("uci")
                    .or_else(|| cmd.get("san"))
                    .and_then(Value::as_str)
                    .ok_or("missing text field 'uci'")?;
                if text.len() > 20 {
                    return Err("a move is at most 20 characters".into());
                }
                self.person_move(text)
            }
            "goto" => {
                self.message = None;
                match (
                    cmd.get("node").and_then(Value::as_u64),
                    cmd.get("ply").and_then(Value::as_u64),
                ) {
                    (Some(n), _) if self.tree.contains(n as usize) => self.goto_node(n as usize),
                    (Some(n), _) => return Err(format!("there is no move number {n} in this game")),
                    (None, Some(p)) => self.goto(p as usize),
                    _ => return Err("goto needs a node or ply number".into()),
                }
                Ok(())
            }
            "promote" => {
                let node = node_field(cmd)?;
                if !self.tree.contains(node) || !self.tree.promote(node) {
                    return Err("that move is on the main line already".into());
                }
                self.bump();
                Ok(())
            }
            "delete" => {
                let node = node_field(cmd)?;
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
            "comment" => {
                let node = node_field(cmd)?;
                let text = text_field(cmd, "text")?;
                if text.len() > MAX_COMMENT || !self.tree.contains(node) {
                    return Err(format!(
                        "a comment is at most {MAX_COMMENT} characters, on a move of the game"
                    ));
                }
                self.tree.set_comment(node, text);
                self.bump();
                Ok(())
            }
            "pgn" => {
                let game = import_pgn(text_field(cmd, "text")?, self.rules())
                    .map_err(|e| format!("bad PGN, game unchanged: {e}"))?;
                if self.settings.mode != Mode::Analysis {
                    self.stop_engines();
                }
                let players = [
                    game.tag("White").unwrap_or("?").to_string(),
                    game.tag("Black").unwrap_or("?").to_string(),
                ];
                self.set_game(shared, game.tree, game.headers, players);
                Ok(())
            }
            "restore" => self.restore(shared, cmd),
            "showEngine" => {
                self.show_engine = cmd.get("on").and_then(Value::as_bool).unwrap_or(false);
                self.bump();
                Ok(())
            }
            other => Err(format!("unknown command '{other}'")),
        }
    }

    /// Takes back a game the page kept: its PGN, the moves to the shown position (wide UCI)
    /// and the settings. A game that no longer reads (say, after an update of the rules) is
    /// refused and the page starts afresh.
    fn restore(&mut self, shared: &Arc<Shared>, cmd: &Value) -> Result<(), String> {
        let game =
            import_pgn(text_field(cmd, "pgn")?, self.rules()).map_err(|e| format!("cannot restore the game: {e}"))?;
        if let Some(s) = cmd.get("settings").filter(|s| s.is_object()) {
            let settings = Settings::from_json(s, self.engines.len())?;
            self.apply_settings(shared, settings);
        }
        let players = [
            game.tag("White").unwrap_or("White").to_string(),
            game.tag("Black").unwrap_or("Black").to_string(),
        ];
        self.set_game(shared, game.tree, game.headers, players);
        let mut at = 0;
        for uci in cmd.get("path").and_then(Value::as_array).into_iter().flatten() {
            let next = self
                .tree
                .node(at)
                .children
                .iter()
                .copied()
                .find(|&c| uci.as_str() == Some(self.tree.node(c).uci.as_str()));
            match next {
                Some(c) => at = c,
                None => break,
            }
        }
        self.show_engine = cmd.get("showEngine").and_then(Value::as_bool).unwrap_or(false);
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
