//! The page's commands on the game itself: moves (from the boards as wide UCI, typed as SAN or
//! UCI), stepping through the tree, promoting and deleting variations, comments, PGN import
//! and export, restoring a game the page kept (after a reload or a server restart), and the
//! "show engine" switch of play mode. Each field is checked; a refusal changes nothing.

use super::pgn_io::{export_pgn, import_pgn, today, ExportGame};
use super::requests::Command;
use super::session::{Ending, PageSession, Shared};
use super::settings::{Mode, Settings, SettingsFields};
use std::sync::Arc;

/// Longest comment kept.
const MAX_COMMENT: usize = 2000;

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
            Command::Pgn { text } => {
                let game = import_pgn(&text, self.rules()).map_err(|e| format!("bad PGN, game unchanged: {e}"))?;
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
