//! PGN for the page, with variations and comments: export writes every tag the game came with
//! (the Seven Tag Roster first), the `Variant` tag (and `FEN`/`SetUp` for a set-up start), the
//! move tree with its variations in parentheses and its comments in braces; import reads the
//! same back, takes the rules from the tags, replays every move of every variation through the
//! rules core, and refuses a move after the end of the game (mate, stalemate, fifty moves,
//! repetition, bare kings) or an illegal one, naming it in move-number SAN (`41... Kd7`).

use super::notation::{numbered, refusal};
use super::pgn_file::{is_generated_ending, take_commands};
use super::tree::GameTree;
use vorpal_client::pgn_text::{
    comment, is_result, mark_nag, move_text, nag_text, split_mark, tag_line, tokenize, wrap, PgnToken,
};
use vorpal_client::variant_tag::{en_passant_tag, rules_from_tags, variant_tag};
use vorpal_engine::{Position, Rules};

/// A game read from PGN.
#[derive(Debug, Clone)]
pub struct ImportedGame {
    /// The moves and variations from the start position (with the rules named by the tags, or
    /// the current rules where the tags say nothing).
    pub tree: GameTree,
    /// Every tag, in file order.
    pub headers: Vec<(String, String)>,
}

impl ImportedGame {
    /// Value of tag `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        tag(&self.headers, name)
    }
}

fn tag<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
}

/// The tokens of the first game of `text` (a tag after the movetext starts the next game,
/// which is not read).
fn first_game(text: &str) -> Vec<PgnToken> {
    let mut toks = tokenize(text);
    let next = toks
        .iter()
        .position(|t| !matches!(t, PgnToken::Tag(..)))
        .and_then(|first| {
            toks[first..]
                .iter()
                .position(|t| matches!(t, PgnToken::Tag(..)))
                .map(|n| first + n)
        });
    if let Some(cut) = next {
        toks.truncate(cut);
    }
    toks
}

/// Reads the first game of `text`; `current` gives the rules when the tags name none.
pub fn import_pgn(text: &str, current: Rules) -> Result<ImportedGame, String> {
    let toks = first_game(text);
    let headers: Vec<(String, String)> = toks
        .iter()
        .filter_map(|t| match t {
            PgnToken::Tag(k, v) => Some((k.clone(), v.clone())),
            _ => None,
        })
        .collect();
    let has_moves = toks.iter().any(|t| matches!(t, PgnToken::Word(w) if !is_result(w)));
    if headers.is_empty() && !has_moves {
        return Err("the PGN text has no tags and no moves".into());
    }
    let rules = rules_from_tags(tag(&headers, "Variant"), tag(&headers, "AliceEnPassant"), current)?;
    let start = match tag(&headers, "FEN") {
        Some(fen) => Position::from_game_fen(fen, rules).map_err(|e| format!("bad FEN tag '{fen}': {e}"))?,
        None => Position::start(rules),
    };
    let mut tree = GameTree::new(start);
    // `at` is the node the next move is played from; a variation replaces the move just read,
    // so it starts from that move's parent.
    let mut at = 0;
    let mut stack: Vec<usize> = Vec::new();
    // The page's own comment on how the game ended comes after the last move (and its
    // variations): it is dropped below when it is all of the last move's comment.
    // (Only moves count: other words, say junk after the result, are not written back.)
    let last_word = toks
        .iter()
        .rposition(|t| matches!(t, PgnToken::Word(w) if move_text(w).is_some()));
    let last_comment = toks.iter().rposition(|t| matches!(t, PgnToken::Comment(_)));
    let ending_comment = last_comment.is_some_and(|c| last_word.is_none_or(|w| c > w));
    for t in toks {
        match t {
            PgnToken::Tag(..) => {}
            PgnToken::Comment(c) => {
                let (rest, clk, eval) = take_commands(&c);
                tree.set_commands(at, clk, eval);
                tree.append_comment(at, &rest);
            }
            PgnToken::Open => {
                stack.push(at);
                at = tree.node(at).parent.ok_or("a variation '(' comes before any move")?;
            }
            PgnToken::Close => at = stack.pop().ok_or("a ')' closes no variation")?,
            PgnToken::Word(w) => {
                // A NAG word (`$1`) or a mark standing alone (`!?`) belongs to the move before.
                if let Some(nag) = mark_nag(&w) {
                    if at != 0 {
                        tree.add_nag(at, nag);
                    }
                    continue;
                }
                let Some(text) = move_text(&w) else { continue };
                let (text, mark) = split_mark(text);
                let pos = tree.node(at).position;
                if let Some((_, reason)) = tree.outcome_at(at) {
                    let last = tree.node(at);
                    let ended = tree.node(last.parent.unwrap_or(0)).position;
                    return Err(format!(
                        "{} comes after the end of the game: {} ended it by {}",
                        numbered(&pos, text),
                        numbered(&ended, &last.san),
                        reason.text()
                    ));
                }
                let mv = pos.parse_move(text).map_err(|_| refusal(&pos, text))?;
                at = tree.add(at, mv);
                if let Some(nag) = mark {
                    tree.add_nag(at, nag);
                }
            }
        }
    }
    let end = tree.line_end(0);
    if ending_comment && end != 0 && tree.node(end).comment.as_deref().is_some_and(is_generated_ending) {
        tree.set_comment(end, "");
    }
    Ok(ImportedGame { tree, headers })
}

/// What the export needs to know about a game.
pub struct ExportGame<'a> {
    /// The moves and variations.
    pub tree: &'a GameTree,
    /// The tags the game came with (an imported game's, in file order); the others are filled
    /// in: Event, Site, Date (`date`), Round, White and Black (`players`).
    pub headers: &'a [(String, String)],
    /// White's and Black's names, where the headers name none.
    pub players: [&'a str; 2],
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: &'a str,
    /// Why the game ended, written as a comment at the end when the last move has none.
    pub termination: Option<&'a str>,
    /// The date tag value (`YYYY.MM.DD`) where the headers name none.
    pub date: &'a str,
}

/// The order of the Seven Tag Roster.
const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// The tags of an export: the roster, then the game's other tags, then the rules' tags.
fn export_tags(g: &ExportGame) -> Vec<(String, String)> {
    let rules = g.tree.start().rules();
    let defaults = [
        ("Event", "vorpal gui"),
        ("Site", "?"),
        ("Date", g.date),
        ("Round", "-"),
        ("White", g.players[0]),
        ("Black", g.players[1]),
        ("Result", g.result),
    ];
    let mut tags: Vec<(String, String)> = defaults
        .iter()
        .map(|(k, d)| {
            let v = if *k == "Result" {
                g.result
            } else {
                tag(g.headers, k).unwrap_or(d)
            };
            (k.to_string(), v.to_string())
        })
        .collect();
    let own = ["Variant", "AliceEnPassant", "SetUp", "FEN"];
    for (k, v) in g.headers {
        if !ROSTER.contains(&k.as_str()) && !own.contains(&k.as_str()) {
            tags.push((k.clone(), v.clone()));
        }
    }
    tags.push(("Variant".into(), variant_tag(rules).to_string()));
    if let Some(ep) = en_passant_tag(rules) {
        tags.push(("AliceEnPassant".into(), ep.to_string()));
    }
    if *g.tree.start() != Position::start(rules) {
        tags.push(("SetUp".into(), "1".into()));
        tags.push(("FEN".into(), g.tree.start().to_fen()));
    }
    tags
}

/// Writes the moves after node `at`: its continuation, then the other continuations as
/// variations, then the rest of the line. `number` forces a move number on the first move.
fn write_after(tree: &GameTree, at: usize, mut number: bool, out: &mut Vec<String>) {
    let mut at = at;
    loop {
        let children = &tree.node(at).children;
        let Some(&main) = children.first() else { return };
        write_move(tree, main, number, out);
        for &v in &children[1..] {
            out.push("(".into());
            write_move(tree, v, true, out);
            write_after(tree, v, tree.node(v).comment.is_some(), out);
            out.push(")".into());
        }
        number = children.len() > 1 || tree.node(main).comment.is_some();
        at = main;
    }
}

fn write_move(tree: &GameTree, id: usize, number: bool, out: &mut Vec<String>) {
    let node = tree.node(id);
    let before = tree.node(node.parent.unwrap_or(0)).position;
    let text = numbered(&before, &node.san);
    let white = before.side_to_move() == vorpal_engine::Color::White;
    // The move mark is written on the move (`d4!`), any other NAG after it (`$14`).
    let mark = node
        .nags
        .iter()
        .find(|n| (1..=6).contains(*n))
        .map(|&n| nag_text(n))
        .unwrap_or_default();
    if white || number {
        out.push(format!("{text}{mark}"));
    } else {
        out.push(format!("{}{mark}", node.san));
    }
    for &nag in node.nags.iter().filter(|n| !(1..=6).contains(*n)) {
        out.push(nag_text(nag));
    }
    let commands = [("eval", &node.eval), ("clk", &node.clk)]
        .iter()
        .filter_map(|(name, v)| v.as_ref().map(|v| format!("[%{name} {v}]")))
        .collect::<Vec<_>>();
    let text = commands
        .into_iter()
        .chain(node.comment.clone())
        .collect::<Vec<_>>()
        .join(" ");
    if !text.is_empty() {
        out.push(comment(&text));
    }
}

/// The PGN text of a game.
pub fn export_pgn(g: &ExportGame) -> String {
    let mut text = String::new();
    for (k, v) in export_tags(g) {
        text += &tag_line(&k, &v);
    }
    text.push('\n');
    let mut words = Vec::new();
    if let Some(c) = &g.tree.node(0).comment {
        words.push(comment(c));
    }
    write_after(g.tree, 0, true, &mut words);
    let end = g.tree.line_end(0);
    if let Some(t) = g.termination.filter(|_| g.tree.node(end).comment.is_none() || end == 0) {
        words.push(comment(t));
    }
    words.push(g.result.to_string());
    text += &wrap(words);
    text
}

/// Today's date as a PGN tag value (UTC), as the match runner writes it.
pub use vorpal_client::pgn::today;

#[cfg(test)]
mod tests {
    use super::*;
    use vorpal_engine::Variant;

    const YEAROUT: &str = include_str!("../../../tests/gui/yearout-jelliss-1996.pgn");

    fn export(tree: &GameTree, headers: &[(String, String)]) -> String {
        export_pgn(&ExportGame {
            tree,
            headers,
            players: ["White", "Black"],
            result: "*",
            termination: None,
            date: "2026.12.01",
        })
    }

    fn main_sans(tree: &GameTree) -> Vec<String> {
        tree.main_line().iter().map(|&n| tree.node(n).san.clone()).collect()
    }

    #[test]
    fn headers_and_comments_survive_a_round_trip() {
        let game = import_pgn(YEAROUT, Rules::for_variant(Variant::MiniAlice)).unwrap();
        assert_eq!(game.tree.start().rules(), Rules::default());
        assert_eq!(main_sans(&game.tree), ["Nf3", "e6", "Ne5/A", "Bc5", "Nxf7", "Bg1/A"]);
        let text = export(&game.tree, &game.headers);
        for t in [
            "[Event \"Alice chess, illustrative game\"]",
            "[Date \"1996.??.??\"]",
            "[Round \"?\"]",
            "[White \"Yearout\"]",
            "[Black \"Jelliss\"]",
            "[Variant \"Alice\"]",
            "{Opening of the sample game",
            "1. Nf3 e6 2. Ne5/A Bc5 3. Nxf7 Bg1/A *",
        ] {
            assert!(text.contains(t), "{t} missing from\n{text}");
        }
        let back = import_pgn(&text, Rules::default()).unwrap();
        assert_eq!(back.headers, export_tags_of(&text));
        assert_eq!(export(&back.tree, &back.headers), text);
    }

    fn export_tags_of(text: &str) -> Vec<(String, String)> {
        import_pgn(text, Rules::default()).unwrap().headers
    }

    #[test]
    fn variations_are_written_and_read_back() {
        let text = "[Event \"x\"]\n[Custom \"kept\"]\n\n{start} 1. e4 {king's pawn} e5 (1... d5 2. Be2 (2. d3) dxe4 {take}) 2. Nf3 *";
        let game = import_pgn(text, Rules::default()).unwrap();
        assert_eq!(main_sans(&game.tree), ["e4", "e5", "Nf3"]);
        assert_eq!(game.tree.len(), 7);
        assert_eq!(game.tag("Custom"), Some("kept"));
        let out = export(&game.tree, &game.headers);
        assert!(out.contains("[Custom \"kept\"]"), "{out}");
        let flat = out.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            flat.contains("{start} 1. e4 {king's pawn} 1... e5 (1... d5 2. Be2 (2. d3) 2... dxe4/A {take}) 2. Nf3 *"),
            "{out}"
        );
        let back = import_pgn(&out, Rules::default()).unwrap();
        assert_eq!(export(&back.tree, &back.headers), out);
        assert_eq!(back.tree.node(0).comment.as_deref(), Some("start"));
    }

    #[test]
    fn move_marks_and_nags_are_kept() {
        let text = "1. d4! d5?? 2. c4!? $14 e6 ! (2... c6?! $10) 3. Nc3 *";
        let game = import_pgn(text, Rules::default()).unwrap();
        let nags: Vec<Vec<u8>> = game
            .tree
            .line(game.tree.line_end(0))
            .iter()
            .skip(1)
            .map(|&n| game.tree.node(n).nags.clone())
            .collect();
        assert_eq!(nags, [vec![1], vec![4], vec![5, 14], vec![1], vec![]]);
        let out = export(&game.tree, &game.headers);
        let flat = out.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            flat.contains("1. d4! d5?? 2. c4!? $14 e6! (2... c6?! $10) 3. Nc3 *"),
            "{out}"
        );
        let back = import_pgn(&out, Rules::default()).unwrap();
        assert_eq!(export(&back.tree, &back.headers), out);
    }

    #[test]
    fn bad_pgn_is_named_in_move_number_san() {
        let e = import_pgn("1. e4 e5 2. Ke3 *", Rules::default()).unwrap_err();
        assert_eq!(e, "2. Ke3 is illegal: no white king can go to e3");
        let e = import_pgn("1. e4 e5 (1... Ke7) *", Rules::default()).unwrap_err();
        assert!(e.starts_with("1... Ke7 is illegal"), "{e}");
        assert!(import_pgn("", Rules::default()).is_err());
        let e = import_pgn("[Variant \"Crazyhouse\"]\n\n1. e4 *", Rules::default()).unwrap_err();
        assert!(e.contains("Crazyhouse"), "{e}");
        assert!(import_pgn(") 1. e4", Rules::default()).is_err());
        assert!(import_pgn("( 1. e4", Rules::default()).is_err());
        assert_eq!(today().len(), 10);
    }

    #[test]
    fn moves_after_the_end_of_the_game_are_refused() {
        let e = import_pgn("1. e4 d5 2. Be2 dxe4 3. Bb5# Kd7 *", Rules::default()).unwrap_err();
        assert_eq!(
            e,
            "3... Kd7 comes after the end of the game: 3. Bb5/A# ended it by checkmate"
        );
        // The mate itself, and a variation from before it, are fine.
        let g = import_pgn("1. e4 d5 2. Be2 dxe4 3. Bb5# (3. Bf3) 1-0", Rules::default()).unwrap();
        assert_eq!(g.tree.len(), 6);
        // Repetition: knights out and back twice; a move after the third occurrence is refused.
        let e = import_pgn("1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. e4 *", Rules::default()).unwrap_err();
        assert!(e.starts_with("5. e4 comes after the end of the game"), "{e}");
        assert!(e.ends_with("threefold repetition"), "{e}");
    }

    /// Regression (issue 32): a `]` inside a tag value, or a stray `]` or `}` in the movetext,
    /// made the tokenizer push empty words forever until the server ran out of memory.
    #[test]
    fn brackets_in_tags_and_stray_closers_are_read() {
        let text = "[Event \"Casual game [Alice]\"]\n[White \"Player {A}\"]\n\n1. e4 d5 *";
        let game = import_pgn(text, Rules::default()).unwrap();
        assert_eq!(game.tag("Event"), Some("Casual game [Alice]"));
        assert_eq!(game.tag("White"), Some("Player {A}"));
        assert_eq!(main_sans(&game.tree), ["e4", "d5"]);
        let out = export(&game.tree, &game.headers);
        assert!(out.contains("[Event \"Casual game [Alice]\"]"), "{out}");
        assert!(out.contains("[White \"Player {A}\"]"), "{out}");
        for (text, moves) in [
            ("1. e4 ]", &["e4"][..]),
            ("1. e4 e5 }", &["e4", "e5"]),
            ("1. e4 ] e5 *", &["e4", "e5"]),
            ("1. e4 e5 } 2. Nf3 *", &["e4", "e5", "Nf3"]),
        ] {
            let game = import_pgn(text, Rules::default()).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(main_sans(&game.tree), moves, "{text}");
        }
        for text in ["]", "}", "]]]}}}", "[", "{", "\u{feff}"] {
            assert!(import_pgn(text, Rules::default()).is_err(), "{text:?}");
        }
        for text in ["[Event", "[Event \"x", "[Event \"x\\\n1. e4 *"] {
            let game = import_pgn(text, Rules::default()).unwrap();
            assert_eq!(game.headers.len(), 1, "{text:?}");
        }
    }

    /// Found by the `gui_pgn` fuzz target: an empty comment `{}` came back as `{ }`, so a
    /// second export differed from the first.
    #[test]
    fn empty_comments_are_dropped() {
        let game = import_pgn("1. d4 {} e5 { } {x} *", Rules::default()).unwrap();
        let out = export(&game.tree, &game.headers);
        assert!(out.contains("1. d4 e5 {x} *"), "{out}");
        let back = import_pgn(&out, Rules::default()).unwrap();
        assert_eq!(export(&back.tree, &back.headers), out);
    }

    #[test]
    fn a_byte_order_mark_and_crlf_are_read() {
        let text = "\u{feff}[Event \"x\"]\r\n[Variant \"Alice\"]\r\n\r\n1. e4 d5 2. Be2 dxe4 3. Bb5# 1-0\r\n";
        let game = import_pgn(text, Rules::default()).unwrap();
        assert_eq!(game.tag("Event"), Some("x"));
        assert_eq!(main_sans(&game.tree).len(), 5);
    }

    /// The GUI and `annotate` (the client's `parse_pgn`) read the same files to the same main
    /// line with the same tags: the shared PGN files and the project's own.
    #[test]
    fn the_gui_and_annotate_read_the_same_games() {
        // The workspace root, from this crate or the browser build's (protocol/wasm).
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .ancestors()
            .find(|p| p.join("docs/examples/blunder.pgn").is_file())
            .expect("the workspace root");
        let mut files: Vec<_> = std::fs::read_dir(root.join("../shared/data/pgn"))
            .map(|d| d.map(|e| e.unwrap().path()).collect())
            .unwrap_or_default();
        files.push(root.join("tests/gui/yearout-jelliss-1996.pgn"));
        files.push(root.join("docs/examples/blunder.pgn"));
        assert!(files.len() >= 2);
        for path in files {
            let text = std::fs::read_to_string(&path).unwrap();
            let gui = import_pgn(&text, Rules::default()).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let games = vorpal_client::pgn::parse_pgn(&text);
            let (start, moves) = games[0].replay(Rules::default()).unwrap();
            assert_eq!(*gui.tree.start(), start, "{}", path.display());
            let gui_moves: Vec<_> = gui
                .tree
                .main_line()
                .iter()
                .filter_map(|&n| gui.tree.node(n).mv)
                .collect();
            assert_eq!(gui_moves, moves, "{}", path.display());
            assert_eq!(gui.headers, games[0].tags, "{}", path.display());
        }
    }
}
