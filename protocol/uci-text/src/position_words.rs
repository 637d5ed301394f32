//! The words of `position startpos|fen <FEN> [moves ...]` as a game.

use crate::format::one_line;
use vorpal_engine::{Game, Position, Rules};

/// The game the words after `position` set up from `start_position` (for `startpos`) under
/// `rules`, with the error of a move that could not be played (the game then ends at the
/// last legal move); Err for a bad FEN or keyword, when the previous position stays.
pub fn parse_position(
    words: &[&str],
    start_position: Position,
    rules: Rules,
) -> Result<(Game, Option<String>), String> {
    let (start, rest) = match words {
        ["startpos", rest @ ..] => (start_position, rest),
        ["fen", rest @ ..] => {
            let end = rest.iter().position(|w| *w == "moves").unwrap_or(rest.len());
            let fen = rest[..end].join(" ");
            match Position::from_game_fen(&fen, rules) {
                Ok(pos) => (pos, &rest[end..]),
                Err(e) => {
                    return Err(format!(
                        "position: bad FEN '{}': {e}; the previous position is kept",
                        one_line(&fen)
                    ))
                }
            }
        }
        _ => {
            return Err(format!(
                "position: expected 'startpos' or 'fen <FEN>', found '{}'; the previous position is kept",
                one_line(&words.join(" "))
            ))
        }
    };
    let moves = match rest {
        ["moves", moves @ ..] => moves,
        [] => &[],
        [other, ..] => {
            return Err(format!(
                "position: expected 'moves', found '{}'; the previous position is kept",
                one_line(other)
            ))
        }
    };
    let mut game = Game::new(start);
    for (i, text) in moves.iter().enumerate() {
        let played = game.position().parse_move(text).map(|mv| game.play(mv));
        if !matches!(played, Ok(true)) {
            let why = match played {
                Err(e) => e.to_string(),
                _ => format!("illegal move '{text}'"),
            };
            let problem = format!(
                "position: {} at move {} of the list; the position is set up to the last legal move (after {i} moves)",
                one_line(&why),
                i + 1
            );
            return Ok((game, Some(problem)));
        }
    }
    Ok((game, None))
}
