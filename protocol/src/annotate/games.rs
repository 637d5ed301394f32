//! The games to review: every game of a PGN text (the match runner's reader: tags, comments,
//! SAN with or without `/A`, or UCI moves), its rules from the `Variant`, `AliceEnPassant`,
//! `FEN` and `SetUp` tags (as the GUI's import reads them), and its moves replayed through the
//! rules. A game that cannot be set up or replayed is named with the ply where it fails.

use vorpal_client::pgn::{parse_pgn, PgnGame};
use vorpal_client::variant_tag::rules_from_tags;
use vorpal_engine::{Move, Position, Rules};

/// A game ready for review.
#[derive(Clone, Debug)]
pub struct InputGame {
    /// Its number in the input, from 1.
    pub number: usize,
    /// The game as read (tags and comments, written back around the review).
    pub pgn: PgnGame,
    /// The start position.
    pub start: Position,
    /// The moves, legal.
    pub moves: Vec<Move>,
}

/// A game that cannot be reviewed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameError {
    /// Its number in the input, from 1.
    pub number: usize,
    /// `White - Black` from its tags.
    pub players: String,
    /// The ply of the move that fails (from 1), None when the game fails before its moves.
    pub ply: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for GameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "game {} ({})", self.number, self.players)?;
        if let Some(ply) = self.ply {
            write!(f, ", ply {ply}")?;
        }
        write!(f, ": {}", self.message)
    }
}

/// `White - Black` of a game's tags (`?` for a missing name).
pub fn players(pgn: &PgnGame) -> String {
    let name = |k: &str| pgn.tag(k).filter(|v| !v.is_empty()).unwrap_or("?").to_string();
    format!("{} - {}", name("White"), name("Black"))
}

/// Every game of `text`, each ready or with what is wrong with it. A game without a `Variant`
/// tag is played under `default_rules`.
pub fn read_games(text: &str, default_rules: Rules) -> Vec<Result<InputGame, GameError>> {
    parse_pgn(text)
        .into_iter()
        .enumerate()
        .map(|(i, pgn)| set_up(i + 1, pgn, default_rules))
        .collect()
}

/// Sets one game up: rules, start position, moves.
fn set_up(number: usize, pgn: PgnGame, default_rules: Rules) -> Result<InputGame, GameError> {
    let fail = |ply: Option<usize>, message: String| GameError {
        number,
        players: players(&pgn),
        ply,
        message,
    };
    let rules =
        rules_from_tags(pgn.tag("Variant"), pgn.tag("AliceEnPassant"), default_rules).map_err(|e| fail(None, e))?;
    let start = match pgn.tag("FEN") {
        Some(fen) => Position::from_fen(fen, rules).map_err(|e| fail(None, format!("bad FEN tag '{fen}': {e}")))?,
        None => Position::start(rules),
    };
    let mut pos = start;
    let mut moves = Vec::with_capacity(pgn.moves.len());
    for (i, m) in pgn.moves.iter().enumerate() {
        let mv = pos
            .parse_move(&m.san)
            .map_err(|e| fail(Some(i + 1), format!("{e} (move '{}' in {})", m.san, pos.to_fen())))?;
        pos = pos.after(mv);
        moves.push(mv);
    }
    Ok(InputGame {
        number,
        pgn,
        start,
        moves,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use vorpal_engine::Variant;

    #[test]
    fn a_bad_game_is_named_and_the_others_read() {
        let text = "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Nf3?! *\n\n\
                    [White \"C\"]\n\n1. e4 e5 2. Ke3 Nc6 *\n\n\
                    [Variant \"Mini Alice\"]\n\n*\n\n\
                    [Variant \"Chess\"]\n\n1. e4 *\n";
        let games = read_games(text, Rules::default());
        assert_eq!(games.len(), 4);
        let first = games[0].as_ref().unwrap();
        assert_eq!((first.number, first.moves.len()), (1, 3));
        let e = games[1].as_ref().unwrap_err();
        assert_eq!((e.number, e.ply), (2, Some(3)));
        assert!(e.to_string().starts_with("game 2 (C - ?), ply 3: "), "{e}");
        assert!(e.message.contains("Ke3"), "{e}");
        let mini = games[2].as_ref().unwrap();
        assert_eq!(mini.start.rules().variant, Variant::MiniAlice);
        let e = games[3].as_ref().unwrap_err();
        assert_eq!(e.ply, None);
        assert!(e.message.contains("Chess"), "{e}");
    }

    #[test]
    fn set_up_games_and_uci_moves() {
        let text = "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n\n1. e1g1 Kd7 *";
        let g = read_games(text, Rules::default()).remove(0).unwrap();
        assert_eq!(g.moves.len(), 2);
        assert_eq!(g.start.to_fen(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    }
}
