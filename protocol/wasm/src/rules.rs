//! The rules of Alice chess for a page, as a library like ffish gives them: every answer is
//! plain text so the JavaScript side only splits lines.
//!
//! A query is lines: the operation, the variant's name (empty: standard Alice), a FEN (any
//! form Vorpal reads; `startpos` for the variant's start), then the operation's arguments.
//! The answer's first line is `ok` or `error`; an error's second line says why.
//!
//! | operation | arguments | answer after `ok` |
//! |---|---|---|
//! | `moves` | | one `<uci> <san>` line per legal move, sorted |
//! | `san` | a move (UCI or SAN) | its SAN (with the landing board, `/A`) |
//! | `uci` | a move (UCI or SAN) | its UCI |
//! | `fen` | moves played from the FEN, one a line (none: the FEN checked) | the position reached, in the pipe form |
//! | `end` | moves played from the FEN, one a line | `* ongoing`, or `<result> <reason>` |
//! | `perft` | a depth (0..=7) | the leaf count |

use vorpal_engine::{perft, Game, Position, Rules, Variant};

/// The deepest `perft` a query may ask for (it runs on the page's thread).
pub const MAX_PERFT: u32 = 7;

/// The answer to one query (see the module's documentation).
pub fn query(request: &str) -> String {
    match answer(request) {
        Ok(text) if text.is_empty() => "ok".to_string(),
        Ok(text) => format!("ok\n{text}"),
        Err(e) => format!("error\n{}", vorpal_uci_text::format::one_line(&e)),
    }
}

fn answer(request: &str) -> Result<String, String> {
    let mut lines = request.lines();
    let op = lines.next().unwrap_or_default().trim();
    let variant = variant(lines.next().unwrap_or_default())?;
    let fen = lines.next().unwrap_or_default().trim();
    let args: Vec<&str> = lines.map(str::trim).filter(|l| !l.is_empty()).collect();
    let rules = Rules::for_variant(variant);
    let pos = if fen.is_empty() || fen == "startpos" {
        Position::from_fen(variant.start_fen(), rules).map_err(|e| e.to_string())?
    } else {
        Position::from_fen(fen, rules).map_err(|e| format!("bad FEN: {e}"))?
    };
    let one_move = || -> Result<vorpal_engine::Move, String> {
        let [text] = args[..] else {
            return Err(format!("{op}: expected one move"));
        };
        pos.parse_move(text).map_err(|e| e.to_string())
    };
    match op {
        "moves" => {
            let mut moves: Vec<String> = pos
                .legal_moves()
                .iter()
                .map(|&mv| format!("{} {}", pos.move_to_uci(mv), pos.move_to_san(mv)))
                .collect();
            moves.sort();
            Ok(moves.join("\n"))
        }
        "san" => Ok(pos.move_to_san(one_move()?)),
        "uci" => Ok(pos.move_to_uci(one_move()?)),
        "fen" => Ok(play(pos, &args)?.position().to_fen()),
        "end" => {
            let game = play(pos, &args)?;
            Ok(match game.outcome() {
                Some((result, reason)) => format!("{} {}", result.pgn(), reason.text()),
                None => "* ongoing".to_string(),
            })
        }
        "perft" => {
            let depth = match args[..] {
                [d] => d.parse::<u32>().ok().filter(|d| *d <= MAX_PERFT),
                _ => None,
            }
            .ok_or_else(|| format!("perft: expected a depth in 0..={MAX_PERFT}"))?;
            Ok(perft::perft(&pos, depth).to_string())
        }
        _ => Err(format!("unknown operation '{op}' (moves, san, uci, fen, end, perft)")),
    }
}

/// The game of `moves` (UCI or SAN) played from `pos`.
fn play(pos: Position, moves: &[&str]) -> Result<Game, String> {
    let mut game = Game::new(pos);
    for (i, text) in moves.iter().enumerate() {
        let mv = game
            .position()
            .parse_move(text)
            .map_err(|e| format!("move {}: {e}", i + 1))?;
        if !game.play(mv) {
            return Err(format!("move {}: '{text}' is not legal", i + 1));
        }
    }
    Ok(game)
}

/// The variant of a name (empty: standard Alice).
fn variant(name: &str) -> Result<Variant, String> {
    let name = name.trim();
    if name.is_empty() {
        return Ok(Variant::default());
    }
    Variant::ALL
        .into_iter()
        .find(|v| v.name().eq_ignore_ascii_case(name))
        .ok_or_else(|| format!("unknown variant '{name}'"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perft_from_the_start() {
        assert_eq!(query("perft\n\nstartpos\n4"), "ok\n219236");
        let three = perft::perft(&Position::startpos(), 3);
        assert_eq!(query("perft\nalice\nstartpos\n3"), format!("ok\n{three}"));
        assert!(query("perft\n\nstartpos\n99").starts_with("error\nperft: expected a depth"));
    }

    #[test]
    fn moves_and_their_two_notations() {
        let moves = query("moves\n\nstartpos");
        assert_eq!(moves.lines().count(), 21);
        assert!(moves.contains("\ne2e4 e4\n"), "{moves}");
        // A move that lands on board B has no suffix; one that lands on A has `/A`.
        assert_eq!(query("san\n\nstartpos\ng1f3"), "ok\nNf3");
        assert_eq!(query("uci\n\nstartpos\nNf3"), "ok\ng1f3");
        assert!(query("uci\n\nstartpos\nNf6").starts_with("error\n"));
        let mut pos = Position::startpos();
        for mv in ["g1f3", "e7e6"] {
            pos = pos.after(pos.parse_move(mv).unwrap());
        }
        let fen = pos.to_fen();
        assert_eq!(query("fen\n\nstartpos\nNf3\ne7e6"), format!("ok\n{fen}"));
        assert_eq!(query(&format!("san\n\n{fen}\nf3e5")), "ok\nNe5/A");
        assert_eq!(query(&format!("uci\n\n{fen}\nNe5/A")), "ok\nf3e5");
        assert!(query(&format!("moves\n\n{fen}")).contains("\nf3e5 Ne5/A\n"));
    }

    #[test]
    fn a_bad_fen_is_refused_with_its_reason() {
        let answer = query("fen\n\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1");
        assert!(answer.starts_with("error\nbad FEN: "), "{answer}");
        assert!(answer.lines().nth(1).unwrap().len() > "bad FEN: ".len());
        assert!(query("fen\nno-such-variant\nstartpos").starts_with("error\nunknown variant"));
    }

    #[test]
    fn game_end_by_mate_and_by_repetition() {
        let mated = "rnbqkbnr/ppp1pppp/8/1B6/4p3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 3";
        assert_eq!(query(&format!("end\n\n{mated}")), "ok\n1-0 checkmate");
        assert_eq!(query("end\n\nstartpos\ne2e4"), "ok\n* ongoing");
        let shuffle = "g1f3\ng8f6\nf3g1\nf6g8\ng1f3\ng8f6\nf3g1\nf6g8";
        assert_eq!(
            query(&format!("end\n\nstartpos\n{shuffle}")),
            "ok\n1/2-1/2 threefold repetition"
        );
        assert!(query("end\n\nstartpos\ne2e5").starts_with("error\nmove 1"));
    }
}
