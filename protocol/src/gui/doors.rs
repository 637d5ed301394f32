//! The GUI's input doors as plain calls, for [`crate::doors`] (the fuzz targets): PGN import,
//! the HTTP request head, and the page's JSON commands on a session without engines.

use super::engine_pool::EnginePool;
use super::host::ServerHost;
use super::http::command;
use super::server::parse_head;
use serde_json::Value;
use std::sync::Arc;
use vorpal_client::pgn_text::is_result;
use vorpal_engine::Rules;
use vorpal_page::pgn_io::{export_pgn, import_pgn, ExportGame};
use vorpal_page::session::Shared;

/// What the GUI's PGN import made of a text.
pub struct GuiPgn {
    /// The export of the imported game (the page's *Export PGN*).
    pub exported: String,
    /// The number of moves in the tree, variations included.
    pub moves: usize,
    /// The tags as read, in file order.
    pub tags: Vec<(String, String)>,
}

/// See [`crate::doors::gui_pgn_import`].
pub fn import_pgn_door(text: &str) -> Result<GuiPgn, String> {
    let game = import_pgn(text, Rules::default())?;
    let exported = export_pgn(&ExportGame {
        tree: &game.tree,
        headers: &game.headers,
        players: ["White", "Black"],
        result: game.tag("Result").filter(|r| is_result(r)).unwrap_or("*"),
        termination: None,
        date: "2026.12.02",
    });
    Ok(GuiPgn {
        exported,
        moves: game.tree.preorder().len() - 1,
        tags: game.headers,
    })
}

/// See [`crate::doors::gui_pgn_file`].
pub fn pgn_file_door(text: &str) -> Vec<(String, Result<GuiPgn, String>)> {
    let games = vorpal_page::pgn_file::split_games(text);
    (games.iter().enumerate())
        .map(|(i, g)| (vorpal_page::pgn_file::game_label(i + 1, g), import_pgn_door(g)))
        .collect()
}

/// A request head as the GUI's HTTP server read it.
pub struct HttpHead {
    /// `GET`, `POST`, ...
    pub method: String,
    /// The request target (path and query).
    pub target: String,
    /// The header fields, names in lower case, in order.
    pub headers: Vec<(String, String)>,
    /// The body length that `Content-Length` gives, if any.
    pub content_length: Option<usize>,
}

/// See [`crate::doors::http_head`].
pub fn parse_head_door(bytes: &[u8]) -> Result<HttpHead, u16> {
    let peer = std::net::SocketAddr::from(([127, 0, 0, 1], 9));
    let request = parse_head(bytes, peer).map_err(|(status, _)| status)?;
    let length = request.content_length().map_err(|()| 400u16)?;
    let _ = (request.path(), request.query("sid"), request.keep_alive());
    Ok(HttpHead {
        method: request.method,
        target: request.target,
        headers: request.headers,
        content_length: length,
    })
}

/// See [`crate::doors::gui_commands`].
pub fn gui_command_door(lines: &str) -> (Vec<u16>, String, String) {
    let shared = Shared::new(Arc::new(Vec::new()), ServerHost::new(EnginePool::new(0)));
    let mut statuses = Vec::new();
    for line in lines.lines() {
        let status = match serde_json::from_str::<Value>(line) {
            Ok(cmd) => command(&shared, &cmd).status,
            Err(_) => 400,
        };
        statuses.push(status);
    }
    let s = shared.lock();
    let view = serde_json::to_string(&s.view()).unwrap_or_default();
    let out = (statuses, s.pgn_text(), view);
    drop(s);
    shared.close();
    out
}

/// See [`crate::doors::gui_engine_line`].
pub fn engine_line_door(fen: &str, line: &str) -> Option<(u32, Vec<(String, String)>)> {
    let pos = vorpal_engine::Position::from_fen(fen, Rules::default()).ok()?;
    let mut analysis = vorpal_page::lines::Analysis::default();
    analysis.read(pos, line);
    let _ = vorpal_page::lines::tablebase_verdict(line);
    let parsed = vorpal_page::lines::parse_line(line)?;
    if let Some(score) = parsed.score {
        let _ = vorpal_page::lines::score_text(score, pos.side_to_move());
        let _ = vorpal_page::lines::white_centipawns(score, pos.side_to_move());
    }
    Some((parsed.multipv, vorpal_page::lines::pv_moves(&pos, &parsed.pv)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the fuzz target `gui_pgn` checks, on its committed seeds: every game of each file is
    /// read or refused, carries its numbered label, and what is read exports to PGN that reads
    /// back to the same export (clock and evaluation comments included).
    #[test]
    fn every_game_of_the_gui_pgn_seeds_round_trips() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fuzz/seeds/gui_pgn");
        let mut games = 0;
        for entry in std::fs::read_dir(&dir).expect("the gui_pgn seeds") {
            let path = entry.unwrap().path();
            let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
            for (n, (label, game)) in pgn_file_door(&text).into_iter().enumerate() {
                assert!(
                    label.starts_with(&format!("{}. ", n + 1)),
                    "{}: {label}",
                    path.display()
                );
                let Ok(game) = game else { continue };
                games += 1;
                let again = import_pgn_door(&game.exported).unwrap_or_else(|e| panic!("{e}\n{}", game.exported));
                assert_eq!(again.exported, game.exported, "{}", path.display());
                assert_eq!(again.moves, game.moves);
            }
        }
        assert!(games >= 10, "only {games} games read");
        let file = std::fs::read_to_string(dir.join("issue44-clk-eval.pgn")).unwrap();
        let read = pgn_file_door(&file);
        assert_eq!(read.len(), 2);
        let first = read[0].1.as_ref().unwrap();
        assert!(
            first.exported.contains("{[%eval 0.2] [%clk 0:05:00]}"),
            "{}",
            first.exported
        );
        assert!(
            first.exported.contains("{[%eval #-3] [%clk 0:04:59] a note}"),
            "{}",
            first.exported
        );
        assert!(
            !first.exported.contains("Checkmate"),
            "the page's ending comment is dropped: {}",
            first.exported
        );
        let second = read[1].1.as_ref().unwrap();
        assert!(
            second.exported.contains("{[%clk bad]}"),
            "a malformed clock stays text: {}",
            second.exported
        );
    }
}
