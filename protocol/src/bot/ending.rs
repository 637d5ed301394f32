//! How a game ended, as far as the bot can know. The site's `gameEnd` carries no result, and
//! the opponent's last move is not sent when it ends the game, so the end is worked out from
//! what is known: the bot's abort, the position (a mate or a draw the bot's own move made),
//! the clocks, and otherwise an honest "unknown" with the possibilities.

use vorpal_engine::{Color, Game, GameResult, Move};

/// What is known when the game's end arrives.
pub struct EndFacts<'a> {
    /// The game as last replayed (None: the game was never seen).
    pub game: Option<&'a Game>,
    /// The bot's colour.
    pub me: Color,
    /// The bot's move sent but not yet echoed back, if any.
    pub pending: Option<Move>,
    /// The clocks of the last state (ms) and how long ago it arrived (ms).
    pub clocks_ms: Option<([f64; 2], u128)>,
    /// The bot aborted the game, and why.
    pub aborted: Option<&'a str>,
    /// The bot stopped following the game without an end from the site, and why.
    pub gave_up: Option<&'a str>,
}

/// The end: the PGN result (`1-0`, `0-1`, `1/2-1/2`, or `*` when unknown) and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ending {
    /// The PGN result.
    pub result: &'static str,
    /// A sentence for the log and the PGN's final comment.
    pub reason: String,
}

fn known(result: GameResult, reason: String) -> Ending {
    Ending {
        result: result.pgn(),
        reason,
    }
}

fn unknown(reason: String) -> Ending {
    Ending { result: "*", reason }
}

fn name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The game's end from `facts`.
pub fn conclude(facts: &EndFacts) -> Ending {
    if let Some(why) = facts.aborted {
        return unknown(format!("aborted by the bot: {why}"));
    }
    let Some(seen) = facts.game else {
        return unknown("the game ended before the bot could follow it".into());
    };
    let mut game = seen.clone();
    if let Some(mv) = facts.pending {
        game.play(mv);
    }
    let pos = *game.position();
    if let Some((result, reason)) = game.outcome().filter(|_| pos.count_legal() == 0) {
        return known(result, reason.text().to_string());
    }
    let mover = pos.side_to_move();
    if let Some((clocks, age)) = facts.clocks_ms {
        if game.moves().len() >= 2 && clocks[mover.index()] - (age as f64) < 0.0 {
            return known(
                GameResult::win_for(mover.flip()),
                format!("{} ran out of time", name(mover)),
            );
        }
    }
    if let Some(why) = facts.gave_up {
        return unknown(format!("no end from the site: {why}"));
    }
    if game.moves().len() < 2 {
        return unknown("ended before both sides had moved (aborted)".into());
    }
    if mover == facts.me {
        return unknown(format!(
            "ended on the bot's turn: {} resigned or aborted (the site sends no result)",
            name(facts.me.flip())
        ));
    }
    let mates: Vec<String> = pos
        .legal_moves()
        .into_iter()
        .filter(|&mv| {
            let next = pos.after(mv);
            next.in_check() && next.count_legal() == 0
        })
        .map(|mv| pos.move_to_san(mv))
        .collect();
    if mates.is_empty() {
        unknown(format!(
            "ended on {}'s turn: a resignation, an abort or a draw (the site sends no result)",
            name(mover)
        ))
    } else {
        unknown(format!(
            "ended on {}'s turn, who had a mate in one ({}): the site does not send the mating move; or a resignation or abort",
            name(mover),
            mates.join(", ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::replay::replay;

    fn facts<'a>(game: &'a Game, me: Color) -> EndFacts<'a> {
        EndFacts {
            game: Some(game),
            me,
            pending: None,
            clocks_ms: None,
            aborted: None,
            gave_up: None,
        }
    }

    // The README's Alice mate: 1. e4 e5 2. Qh5 Nf6 3. Qxe5#.
    const MATE: [&str; 5] = ["e2e4", "e7e5", "d1h5", "g8f6", "h5e5"];

    #[test]
    fn a_mate_on_the_board_is_a_result() {
        let game = replay("", &MATE).unwrap();
        assert_eq!(
            conclude(&facts(&game, Color::White)),
            Ending {
                result: "1-0",
                reason: "checkmate".into()
            }
        );
        // The bot's own mating move, sent and not echoed before the end.
        let before = replay("", &MATE[..4]).unwrap();
        let mv = before.position().parse_uci("h5e5").unwrap();
        let f = EndFacts {
            pending: Some(mv),
            ..facts(&before, Color::White)
        };
        assert_eq!(conclude(&f).result, "1-0");
    }

    #[test]
    fn the_opponents_unsent_mate_is_named_but_not_assumed() {
        let before = replay("", &MATE[..4]).unwrap();
        let end = conclude(&facts(&before, Color::Black));
        assert_eq!(end.result, "*");
        assert!(end.reason.contains("mate in one (Qxe5/A#"), "{}", end.reason);
    }

    #[test]
    fn clocks_aborts_and_early_ends() {
        let game = replay("", &MATE[..4]).unwrap();
        let flagged = EndFacts {
            clocks_ms: Some(([1500.0, 30_000.0], 2_000)),
            ..facts(&game, Color::Black)
        };
        assert_eq!(
            conclude(&flagged),
            Ending {
                result: "0-1",
                reason: "White ran out of time".into()
            }
        );
        let aborted = EndFacts {
            aborted: Some("moves do not replay"),
            ..facts(&game, Color::Black)
        };
        assert_eq!(conclude(&aborted).result, "*");
        assert!(conclude(&aborted).reason.contains("moves do not replay"));
        let short = replay("", &["e2e4"]).unwrap();
        assert!(conclude(&facts(&short, Color::White)).reason.contains("aborted"));
        let mine = conclude(&facts(&game, Color::White));
        assert!(mine.reason.contains("bot's turn"), "{}", mine.reason);
        let never = EndFacts {
            game: None,
            ..facts(&game, Color::White)
        };
        assert_eq!(conclude(&never).result, "*");
    }
}
