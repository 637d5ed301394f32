//! PGN and FEN for the page, with the match runner's PGN reader and writer: export with the
//! `Variant` tag (and `FEN`/`SetUp` for a set-up start), import that takes the rules from the
//! tags and replays every move through the rules core, naming the first problem it meets.

use vorpal_engine::{EnPassant, Move, Position, Rules};
use vorpal_tuning::arena::pgn::{parse_pgn, PgnGame, PgnMove};
use vorpal_tuning::arena::variant_tag::{en_passant_tag, parse_variant_tag, variant_tag};

/// A game read from PGN.
#[derive(Debug, Clone)]
pub struct ImportedGame {
    /// The start position (with the rules named by the tags, or the current rules where the
    /// tags say nothing).
    pub start: Position,
    /// The moves.
    pub moves: Vec<Move>,
    /// White's and Black's names from the tags.
    pub players: [String; 2],
}

/// Reads the first game of `text`; `current` gives the rules when the tags name none.
pub fn import_pgn(text: &str, current: Rules) -> Result<ImportedGame, String> {
    let games = parse_pgn(text);
    let game = games.first().ok_or("no game found in the PGN text")?;
    if game.moves.is_empty() && game.tags.is_empty() {
        return Err("the PGN text has no tags and no moves".into());
    }
    let mut rules = current;
    if let Some(tag) = game.tag("Variant") {
        let (variant, chess960) =
            parse_variant_tag(tag).ok_or_else(|| format!("unknown variant '{tag}' in the Variant tag"))?;
        rules = Rules::for_variant(variant).with_chess960(chess960);
    }
    if let Some(ep) = game.tag("AliceEnPassant") {
        rules = rules.with_ep(ep.parse::<EnPassant>()?);
    } else if game.tag("Variant").is_some() {
        rules = rules.with_ep(EnPassant::Off);
    }
    let (start, moves) = game.replay(rules)?;
    let name = |k: &str| game.tag(k).unwrap_or("?").to_string();
    Ok(ImportedGame {
        start,
        moves,
        players: [name("White"), name("Black")],
    })
}

/// What the export needs to know about a game.
pub struct ExportGame<'a> {
    /// The start position.
    pub start: &'a Position,
    /// The moves.
    pub moves: &'a [Move],
    /// White's and Black's names.
    pub players: [&'a str; 2],
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: &'a str,
    /// Why the game ended, if it did.
    pub termination: Option<&'a str>,
    /// The date tag value (`YYYY.MM.DD`).
    pub date: &'a str,
}

/// The PGN text of a game.
pub fn export_pgn(g: &ExportGame) -> String {
    let rules = g.start.rules();
    let mut pgn = PgnGame::default();
    pgn.set_tag("Event", "vorpal gui");
    pgn.set_tag("Site", "?");
    pgn.set_tag("Date", g.date);
    pgn.set_tag("Round", "-");
    pgn.set_tag("White", g.players[0]);
    pgn.set_tag("Black", g.players[1]);
    pgn.set_tag("Result", g.result);
    pgn.set_tag("Variant", variant_tag(rules));
    if let Some(ep) = en_passant_tag(rules) {
        pgn.set_tag("AliceEnPassant", ep);
    }
    if *g.start != Position::start(rules) {
        pgn.set_tag("SetUp", "1");
        pgn.set_tag("FEN", g.start.to_fen());
    }
    let mut pos = *g.start;
    for &mv in g.moves {
        pgn.moves.push(PgnMove {
            san: pos.move_to_san(mv),
            comment: None,
        });
        pos = pos.after(mv);
    }
    pgn.final_comment = g.termination.map(str::to_string);
    pgn.result = Some(g.result.to_string());
    pgn.to_text()
}

/// Today's date as a PGN tag value (UTC), as the match runner writes it.
pub use vorpal_tuning::arena::pgn::today;

#[cfg(test)]
mod tests {
    use super::*;
    use vorpal_engine::Variant;

    #[test]
    fn export_then_import_round_trips() {
        let mut pos = Position::startpos();
        let mut moves = Vec::new();
        for san in ["Nf3", "e6", "Ne5/A", "Bc5", "Nxf7", "Bg1/A"] {
            let mv = pos.parse_san(san).unwrap();
            moves.push(mv);
            pos = pos.after(mv);
        }
        let text = export_pgn(&ExportGame {
            start: &Position::startpos(),
            moves: &moves,
            players: ["Yearout", "Jelliss"],
            result: "*",
            termination: None,
            date: "1996.??.??",
        });
        assert!(text.contains("[Variant \"Alice\"]"));
        assert!(text.contains("2. Ne5/A Bc5 3. Nxf7 Bg1/A"));
        let back = import_pgn(&text, Rules::for_variant(Variant::MiniAlice)).unwrap();
        assert_eq!(back.start.rules(), Rules::default());
        assert_eq!(back.moves, moves);
        assert_eq!(back.players, ["Yearout".to_string(), "Jelliss".to_string()]);
    }

    #[test]
    fn bad_pgn_is_named() {
        let e = import_pgn("1. e4 e5 2. Ke3 *", Rules::default()).unwrap_err();
        assert!(e.contains("ply 3"), "{e}");
        assert!(import_pgn("", Rules::default()).is_err());
        let e = import_pgn("[Variant \"Crazyhouse\"]\n\n1. e4 *", Rules::default()).unwrap_err();
        assert!(e.contains("Crazyhouse"), "{e}");
        assert_eq!(today().len(), 10);
    }
}
