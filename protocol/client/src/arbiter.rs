//! The referee of a game: every move an engine sends is checked against the project's own
//! rules core before it is relayed, and the end of the game (checkmate, stalemate, board-aware
//! threefold repetition, fifty moves, bare kings) is decided here, not by the engines.

use std::fmt;
use vorpal_engine::game::Game;
use vorpal_engine::{Color, EndReason, GameResult, Move, PieceKind, Position};

/// An engine's move that was not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// The text the engine sent.
    pub text: String,
    /// The position (pipe FEN) in which it was sent.
    pub fen: String,
    /// Why it was rejected.
    pub why: String,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move '{}' ({}) in {}", self.text, self.why, self.fen)
    }
}

/// A game under refereeing: the start position, the moves played and their UCI texts.
#[derive(Clone, Debug)]
pub struct Arbiter {
    game: Game,
    uci: Vec<String>,
}

impl Arbiter {
    /// A game from `start`.
    pub fn new(start: Position) -> Arbiter {
        Arbiter {
            game: Game::new(start),
            uci: Vec::new(),
        }
    }

    /// The game so far.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.position().side_to_move()
    }

    /// Moves played so far.
    pub fn moves(&self) -> &[Move] {
        self.game.moves()
    }

    /// Checks an engine's move text in the current position: plain UCI squares (`g1f3`,
    /// `e7e8q`, castling `e1g1` or king-takes-rook `e1h1`) or the wide cell form (`e2m4`).
    /// SAN and null moves are not accepted from engines.
    pub fn check(&self, text: &str) -> Result<Move, IllegalMove> {
        let pos = self.position();
        let reject = |why: &str| IllegalMove {
            text: text.to_string(),
            fen: pos.to_fen(),
            why: why.to_string(),
        };
        let t = text.trim();
        if t.is_empty() || t == "(none)" || t == "0000" || t == "null" {
            return Err(reject("no move"));
        }
        match pos.parse_uci(t) {
            Ok(mv) if pos.is_legal(mv) => Ok(mv),
            Ok(_) => Err(reject("not legal")),
            Err(vorpal_engine::MoveParseError::Unparsable(_)) => Err(reject("not a UCI move")),
            Err(_) => Err(reject("not legal")),
        }
    }

    /// Plays a move already known to be legal (from [`Arbiter::check`] or the legal list).
    ///
    /// # Panics
    /// If the move is illegal: the caller must have checked it.
    pub fn play(&mut self, mv: Move) {
        let text = self.position().move_to_uci(mv);
        assert!(self.game.play(mv), "Arbiter::play: illegal move {text}");
        self.uci.push(text);
    }

    /// Checks and plays a move text; returns the move.
    pub fn play_text(&mut self, text: &str) -> Result<Move, IllegalMove> {
        let mv = self.check(text)?;
        self.play(mv);
        Ok(mv)
    }

    /// The result if the game is over by the rules.
    pub fn outcome(&self) -> Option<(GameResult, EndReason)> {
        self.game.outcome()
    }

    /// The canonical UCI texts of the moves played.
    pub fn uci_moves(&self) -> &[String] {
        &self.uci
    }

    /// The UCI `position` command for the current position: `position startpos moves ...` when
    /// the game started from the variant's start position, otherwise `position fen <pipe FEN> moves ...`.
    pub fn position_command(&self) -> String {
        let start = self.game.start();
        let mut cmd = if *start == Position::start(start.rules()) {
            "position startpos".to_string()
        } else {
            format!("position fen {}", start.to_fen())
        };
        if !self.uci.is_empty() {
            cmd.push_str(" moves");
            for m in &self.uci {
                cmd.push(' ');
                cmd.push_str(m);
            }
        }
        cmd
    }

    /// Every move text (plain UCI, all from-to-promotion combinations) the arbiter accepts in
    /// the current position, sorted. Used to prove the arbiter agrees with the rules.
    pub fn accepted_moves(&self) -> Vec<String> {
        let files = "abcdefgh";
        let mut out = Vec::new();
        for from in 0..64 {
            for to in 0..64 {
                let sq = |i: usize| format!("{}{}", &files[i % 8..i % 8 + 1], i / 8 + 1);
                let base = format!("{}{}", sq(from), sq(to));
                for promo in ["", "q", "r", "b", "n"] {
                    let text = format!("{base}{promo}");
                    if let Ok(mv) = self.check(&text) {
                        // Castling is also accepted as king-takes-rook; list the king's move.
                        let canonical = self.position().move_to_uci(mv);
                        if canonical == text {
                            out.push(text);
                        }
                    }
                }
            }
        }
        out.sort();
        out
    }
}

/// True when `color` has nothing but its king, so it cannot win (the one insufficient
/// material proven for Alice); a loss on time against such a side is a draw.
pub fn bare_king(pos: &Position, color: Color) -> bool {
    PieceKind::ALL
        .iter()
        .filter(|&&k| k != PieceKind::King)
        .all(|&k| pos.pieces_both(color, k).is_empty())
}

/// PGN result and explanation for a game won by `winner` for `why` ("loses on time").
pub fn loss_text(loser: Color, why: &str) -> (GameResult, String) {
    (
        GameResult::win_for(loser.flip()),
        format!("{} {why}", color_name(loser)),
    )
}

/// "White" or "Black".
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The explanation of a rules ending, as in cutechess (`White mates`, `Draw by stalemate`).
pub fn end_text(pos: &Position, result: GameResult, reason: EndReason) -> String {
    match (reason, result) {
        (EndReason::Checkmate, _) => format!("{} mates", color_name(pos.side_to_move().flip())),
        (r, _) => format!("Draw by {}", r.text()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vorpal_engine::Rules;

    #[test]
    fn checks_and_relays_moves() {
        let mut a = Arbiter::new(Position::startpos());
        assert_eq!(a.position_command(), "position startpos");
        a.play_text("e2e4").unwrap();
        let err = a.check("e2e4").unwrap_err();
        assert_eq!(err.why, "not legal");
        assert!(err.fen.starts_with("rnbqkbnr/pppppppp/8/8/4|P3/8/PPPP1PPP/RNBQKBNR b"));
        assert_eq!(a.check("xyz").unwrap_err().why, "not a UCI move");
        assert_eq!(a.check("0000").unwrap_err().why, "no move");
        a.play_text("d7d5").unwrap();
        a.play_text("f1e2").unwrap();
        a.play_text("d5e4").unwrap();
        a.play_text("e2b5").unwrap();
        assert_eq!(a.position_command(), "position startpos moves e2e4 d7d5 f1e2 d5e4 e2b5");
        let (result, reason) = a.outcome().unwrap();
        assert_eq!((result, reason), (GameResult::WhiteWins, EndReason::Checkmate));
        assert_eq!(end_text(a.position(), result, reason), "White mates");
    }

    #[test]
    fn fen_start_and_accepted_moves() {
        let fen = "rnbqk1nr/pppp1|Npp/4|p3/2|b5/8/8/PPPPPPPP/RNBQKB1R b KQkq - 0 3";
        let a = Arbiter::new(Position::from_fen(fen, Rules::default()).unwrap());
        assert_eq!(a.position_command(), format!("position fen {fen}"));
        assert_eq!(a.accepted_moves().len(), 32);
        assert!(bare_king(
            &Position::from_fen("8/8/8/8/8/8/8/K1k5 w - - 0 1", Rules::default()).unwrap(),
            Color::White
        ));
        assert!(!bare_king(a.position(), Color::White));
    }
}
