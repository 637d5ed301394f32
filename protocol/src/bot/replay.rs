//! The site's move lists under Alice rules: every `moves` list is replayed from `initialFen`
//! (the site sends no position), and a list that does not replay stops the bot from moving in
//! that game. Also the duplicate-move rule: the site silently drops a move whose text equals
//! the opponent's previous move (in Alice that can be legal, the same squares on the other
//! board), so such a move is never sent.

use std::fmt;
use vorpal_engine::{Game, Move, Position, Rules, Variant};

/// The rules of the site's `alice`: Vorpal's default Alice rules (no en passant).
pub fn alice_rules() -> Rules {
    Rules::for_variant(Variant::Alice)
}

/// Why a game's moves cannot be followed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplayError(pub String);

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The start position: the Alice start for `""` (the site's way of saying so), else the FEN
/// (Vorpal reads the site's form, `|` before a piece on board B).
pub fn start_position(initial_fen: &str) -> Result<Position, ReplayError> {
    let fen = initial_fen.trim();
    if fen.is_empty() || fen == "startpos" {
        return Ok(Position::start(alice_rules()));
    }
    Position::from_fen(fen, alice_rules()).map_err(|e| ReplayError(format!("initial FEN '{fen}': {e}")))
}

/// The game after `moves` (UCI texts) from `initial_fen`, or where and why it stops.
pub fn replay(initial_fen: &str, moves: &[&str]) -> Result<Game, ReplayError> {
    let mut game = Game::new(start_position(initial_fen)?);
    for (i, text) in moves.iter().enumerate() {
        let pos = *game.position();
        let mv = pos.parse_uci(text).map_err(|e| {
            ReplayError(format!(
                "move {} ({text}) cannot be played in {}: {e}",
                i + 1,
                pos.to_fen()
            ))
        })?;
        game.play(mv);
    }
    Ok(game)
}

/// The legal moves of `pos` split into those that may be sent and those the site would drop
/// because their text equals `previous`, the opponent's last move.
pub fn sendable_moves(pos: &Position, previous: Option<&str>) -> (Vec<Move>, Vec<Move>) {
    pos.legal_moves()
        .into_iter()
        .partition(|&mv| previous != Some(pos.move_to_uci(mv).as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replays_the_captured_game_and_refuses_a_broken_list() {
        let game = replay("", &["e2e4", "e7e5", "d1h5", "g8f6"]).unwrap();
        assert_eq!(game.moves().len(), 4);
        let err = replay("", &["e2e4", "e2e4"]).unwrap_err();
        assert!(err.0.starts_with("move 2 (e2e4)"), "{err}");
        assert!(replay("", &["e2e5"]).is_err());
        assert!(replay("", &["xyz"]).is_err());
        assert!(replay("not a fen", &[]).is_err());
    }

    #[test]
    fn reads_the_sites_fen_form() {
        // The site's looking-glass start: Black's pieces on board B, marked with `|`.
        let fen = "|r|n|b|q|k|b|n|r/|p|p|p|p|p|p|p|p/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1";
        let game = replay(fen, &["e2e4"]).unwrap();
        assert_eq!(game.position().legal_moves().len(), 20);
    }

    #[test]
    fn a_legal_move_with_the_opponents_text_is_held_back() {
        // Whatever the opponent's last move was, White's queen on d5 may play the text it
        // had, "d5d4", which the site would drop.
        let pos = start_position("4k3/8/8/3Q4/8/8/8/4K3 w - - 0 1").unwrap();
        let mirror = pos.parse_uci("d5d4").unwrap();
        let (ok, held) = sendable_moves(&pos, Some("d5d4"));
        assert_eq!(held, vec![mirror]);
        assert!(!ok.is_empty() && !ok.contains(&mirror));
        assert_eq!(ok.len() + 1, pos.legal_moves().len());
        let (all, none) = sendable_moves(&pos, None);
        assert!(none.is_empty());
        assert_eq!(all.len(), pos.legal_moves().len());
    }
}
