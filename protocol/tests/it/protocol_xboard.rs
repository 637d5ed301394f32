//! CECP (XBoard protocol 2) over real pipes: `vorpal xboard` and `xboard` in the UCI loop. A
//! full XBoard dialogue (features, new, variant with its `setup`, user moves, engine moves,
//! force, undo/remove, analyze/exit, ping/pong, hint, result, quit); every engine move is
//! checked legal with the rules core after translating XBoard's cells (and multi-leg captures
//! and castling) back to the wide notation read by `Position::parse_uci`.

use crate::support::harness::{Engine, SOON};
use vorpal_engine::{BoardId, FenStyle, Game, Move, Position, Rules, Square, Variant};

/// The variants XBoard can draw (at most 16 files).
fn offered() -> Vec<Variant> {
    Variant::ALL
        .into_iter()
        .filter(|v| v.files() as usize * v.boards() <= 16)
        .collect()
}

/// An XBoard cell (`g4`; Mini Alice files e-h are board B) as (square, board).
fn cell(variant: Variant, text: &str) -> (Square, BoardId) {
    let b = text.as_bytes();
    let f = b[0] - b'a';
    let files = variant.files();
    (
        Square::from_coords(f % files, b[1] - b'1'),
        BoardId::from_index((f / files) as usize),
    )
}

/// The rules core's wide cell name (files a-h = A, i-p = B, q-x = C).
fn engine_cell((sq, board): (Square, BoardId)) -> String {
    format!(
        "{}{}",
        (b'a' + 8 * board.index() as u8 + sq.file()) as char,
        sq.rank() + 1
    )
}

/// The legal move an XBoard move text names: one leg (`e2m4`, `e7m8q`), a capture through the
/// victim's cell (`d5e6,e6m6`), or castling as the rook's legs through the king's cell
/// (`h1e1,e1n1`). Panics (with the position) when the move is not legal.
fn xboard_move(pos: &Position, text: &str) -> Move {
    let variant = pos.rules().variant;
    let legs: Vec<&str> = text.split(',').collect();
    let first = legs[0];
    let last = legs[legs.len() - 1];
    let from = cell(variant, &first[..2]);
    if legs.len() == 2 {
        assert_eq!(&first[2..4], &last[..2], "legs of {text} do not meet");
        let mid = cell(variant, &first[2..4]);
        let king = pos.piece_on(mid.1, mid.0);
        if king.is_some_and(|p| p.color() == pos.side_to_move() && p.letter().eq_ignore_ascii_case(&'k')) {
            return pos
                .legal_moves()
                .into_iter()
                .find(|m| m.is_castle() && (m.from(), m.from_board()) == mid && (m.to(), m.from_board()) == from)
                .unwrap_or_else(|| panic!("castling {text} is not legal in {}", pos.to_fen()));
        }
    } else {
        assert_eq!(legs.len(), 1, "{text}");
    }
    let wide = format!(
        "{}{}{}",
        engine_cell(from),
        engine_cell(cell(variant, &last[2..4])),
        &last[4..]
    );
    pos.parse_uci(&wide)
        .unwrap_or_else(|e| panic!("engine move {text} ({wide}) is not legal in {}: {e}", pos.to_fen()))
}

/// Reads up to the engine's `move` line; checks every thinking line (`ply score time nodes
/// pv`); returns the move played (applied to `game`) and the lines.
fn engine_move(e: &mut Engine, game: &mut Game) -> (Move, Vec<String>) {
    let lines = e.read_until(SOON * 6, |l| l.starts_with("move "));
    for line in lines.iter().filter(|l| l.starts_with(|c: char| c.is_ascii_digit())) {
        check_thinking(line);
    }
    let text = lines.last().unwrap().strip_prefix("move ").unwrap();
    let mv = xboard_move(game.position(), text);
    assert!(game.play(mv));
    (mv, lines)
}

/// `ply score time nodes pv...`: four integers, then the PV in wide cells.
fn check_thinking(line: &str) {
    let w: Vec<&str> = line.split_whitespace().collect();
    assert!(w.len() >= 4, "thinking line {line}");
    for n in &w[..4] {
        assert!(n.parse::<i64>().is_ok(), "thinking line {line}");
    }
    for mv in &w[4..] {
        let mv = mv.trim_end_matches(['?', '!']);
        assert!(mv.len() >= 4 && mv.is_ascii(), "PV move {mv} in {line}");
    }
}

/// Sends a user move in the single-leg wide form and plays it on `game`.
fn user_move(e: &mut Engine, game: &mut Game, mv: Move) {
    e.send(&format!("usermove {}", game.position().move_to_wide(mv)));
    assert!(game.play(mv));
}

/// A move for the user: a pawn move if one is safe, else another safe move, where safe means
/// the opponent has no mate in one after it (so these short games go on).
fn pick(game: &Game) -> Move {
    let pos = game.position();
    let mut moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
    moves.sort_by_key(|&m| {
        !pos.moved_piece(m)
            .is_some_and(|p| p.letter().eq_ignore_ascii_case(&'p'))
    });
    let mates = |after: &Position| {
        after.legal_moves().iter().any(|&r| {
            let next = after.after(r);
            next.in_check() && next.count_legal() == 0
        })
    };
    let safe = moves.iter().copied().find(|&m| !mates(&pos.after(m)));
    safe.or(moves.first().copied())
        .unwrap_or_else(|| panic!("no legal move in {}", pos.to_fen()))
}

/// `ping n`; returns the lines before `pong n`.
fn ping(e: &mut Engine, n: u32) -> Vec<String> {
    e.send(&format!("ping {n}"));
    let mut lines = e.read_until(SOON * 6, |l| l == format!("pong {n}"));
    lines.pop();
    lines
}

/// `xboard`, `protover 2`, the features up to `done=1` (every one accepted), `new`.
fn handshake(e: &mut Engine) -> Vec<String> {
    e.send("xboard");
    e.send("protover 2");
    let features = e.until_prefix("feature done=1");
    for f in &features {
        assert!(f.starts_with("feature "), "{f}");
    }
    e.send("accepted done");
    e.send("accepted myname");
    e.send("new");
    assert!(ping(e, 99).is_empty(), "{}", e.dump());
    features
}

/// `variant NAME`: the `setup` line, then the `piece` lines.
fn variant(e: &mut Engine, variant: Variant) -> (String, Vec<String>) {
    e.send(&format!("variant {}", variant.name()));
    let lines = ping(e, 98);
    let setup = lines[0].clone();
    (setup, lines[1..].to_vec())
}

#[test]
fn handshake_announces_the_features_and_the_variants() {
    let mut e = Engine::start_xboard();
    let features = handshake(&mut e);
    let all = features.join(" ");
    assert_eq!(features[0], "feature done=0");
    let names: Vec<&str> = offered().iter().map(|v| v.name()).collect();
    assert!(all.contains("myname=\"Vorpal "), "{all}");
    assert!(all.contains(&format!("variants=\"{}\"", names.join(","))), "{all}");
    for f in [
        "setboard=1",
        "usermove=1",
        "ping=1",
        "memory=1",
        "smp=1",
        "sigint=0",
        "sigterm=0",
        "highlight=1",
        "colors=0",
        "analyze=1",
        "playother=1",
    ] {
        assert!(all.split_whitespace().any(|w| w == f), "{f} missing: {all}");
    }
    for option in [
        "option=\"Skill Level -spin 20 0 20\"",
        "option=\"Clear Hash -button\"",
        "option=\"AliceEnPassant -combo *off /// normal /// double\"",
        "option=\"UCI_Chess960 -check 0\"",
    ] {
        assert!(
            features.contains(&format!("feature {option}")),
            "{option}: {features:?}"
        );
    }
    e.send("option Skill Level=10");
    e.send("option UCI_Chess960=0");
    e.send("option Clear Hash");
    e.send("memory 32");
    e.send("cores 1");
    assert!(ping(&mut e, 1).is_empty(), "{}", e.dump());
    e.finish();
}

#[test]
fn every_variant_is_set_up_side_by_side_and_played_legally() {
    let mut e = Engine::start_xboard();
    handshake(&mut e);
    for v in offered() {
        let rules = Rules::for_variant(v);
        let start = Position::from_fen(v.start_fen(), rules).unwrap();
        let (setup, pieces) = variant(&mut e, v);
        let width = v.files() as usize * v.boards();
        assert_eq!(
            setup,
            format!(
                "setup (PNBRQKpnbrqk) {width}x8+0_berolina {}",
                start.to_fen_style(FenStyle::Wide)
            )
        );
        assert!(pieces.contains(&"piece K& KiK".to_string()), "{pieces:?}");
        // The engine plays both sides for four plies at depth 2.
        let mut game = Game::new(start);
        e.send("sd 2");
        e.send("go");
        engine_move(&mut e, &mut game);
        e.send("force");
        e.send("go");
        engine_move(&mut e, &mut game);
        e.send("force");
        assert!(ping(&mut e, 3).is_empty(), "{}: {}", v.name(), e.dump());
    }
    e.send("variant alice3");
    let lines = ping(&mut e, 4);
    assert!(
        lines[0].starts_with("setup (PNBRQKpnbrqk) 24x8+0_berolina "),
        "{lines:?}"
    );
    e.finish();
}

#[test]
fn a_full_game_dialogue() {
    let mut e = Engine::start_xboard();
    handshake(&mut e);
    let (setup, _) = variant(&mut e, Variant::Alice);
    assert_eq!(
        setup,
        "setup (PNBRQKpnbrqk) 16x8+0_berolina rnbqkbnr8/pppppppp8/16/16/16/16/PPPPPPPP8/RNBQKBNR8 w KQkq - 0 1"
    );
    e.send("post");
    e.send("level 40 0:30 0");
    e.send("sd 4");
    e.send("time 3000");
    e.send("otim 3000");
    let mut game = Game::new(Position::startpos());
    // The user plays White, the engine Black (after `new`).
    e.send("usermove e2m4");
    assert!(game.play(game.position().parse_uci("e2e4").unwrap()));
    let (_, lines) = engine_move(&mut e, &mut game);
    assert!(
        lines.iter().any(|l| l.starts_with("4 ")),
        "thinking output up to ply 4: {lines:?}"
    );
    assert!(ping(&mut e, 1).is_empty(), "{}", e.dump());
    for _ in 0..3 {
        let mv = pick(&game);
        user_move(&mut e, &mut game, mv);
        engine_move(&mut e, &mut game);
    }
    // An illegal move is refused with the reason on a comment line; nothing changes.
    e.send("usermove a1a5");
    let refused = ping(&mut e, 2);
    assert_eq!(refused[0], "Illegal move: a1a5", "{refused:?}");
    assert!(refused[1].starts_with("# a1a5: "), "{refused:?}");
    // Force mode: both sides' moves are taken, no answer.
    e.send("force");
    for _ in 0..2 {
        let mv = pick(&game);
        user_move(&mut e, &mut game, mv);
    }
    assert!(ping(&mut e, 3).is_empty(), "{}", e.dump());
    // undo one ply, remove two: the engine then moves in the same position as `game`.
    e.send("undo");
    assert!(game.undo());
    e.send("remove");
    assert!(game.undo() && game.undo());
    e.send("nopost");
    e.send("go");
    let (_, lines) = engine_move(&mut e, &mut game);
    assert_eq!(lines.len(), 1, "no thinking output after nopost: {lines:?}");
    // The engine keeps playing that colour; `playother` switches it.
    let mv = pick(&game);
    user_move(&mut e, &mut game, mv);
    engine_move(&mut e, &mut game);
    // `playother`: the engine plays the side not on move, and answers the user's move.
    e.send("playother");
    assert!(ping(&mut e, 4).is_empty(), "{}", e.dump());
    let mv = pick(&game);
    user_move(&mut e, &mut game, mv);
    engine_move(&mut e, &mut game);
    e.send("force");
    assert!(ping(&mut e, 5).is_empty(), "{}", e.dump());
    // hint: a legal move.
    e.send("hint");
    let hint = e.until_prefix("Hint: ");
    xboard_move(game.position(), hint.last().unwrap().strip_prefix("Hint: ").unwrap());
    // Analyse: thinking lines, `.` answered by stat01, moves and undo go on analysing, `exit`
    // ends it; no `move` is ever printed.
    e.send("post");
    e.send("analyze");
    let first = e.read_until(SOON, |l| l.starts_with("1 "));
    check_thinking(first.last().unwrap());
    e.send(".");
    e.until_prefix("stat01: ");
    let mv = pick(&game);
    user_move(&mut e, &mut game, mv);
    e.send("undo");
    assert!(game.undo());
    e.send("exit");
    let rest = ping(&mut e, 6);
    assert!(rest.iter().all(|l| !l.starts_with("move ")), "{rest:?}");
    let rest = ping(&mut e, 7);
    assert!(rest.is_empty(), "analysis went on after exit: {rest:?}");
    e.send("result 1/2-1/2 {Game drawn by agreement}");
    assert!(ping(&mut e, 8).is_empty(), "{}", e.dump());
    e.finish();
}

#[test]
fn captures_castling_and_the_end_of_the_game() {
    let mut e = Engine::start_xboard();
    handshake(&mut e);
    variant(&mut e, Variant::Alice);
    // Mate in one (tests/data/mates.tsv): the bishop on e2 of board B goes to b5 of board A.
    let pos = Position::from_fen(
        "rnbqkbnr/ppp1pppp/8/8/4p3/8/PPPP|BPPP/RNBQK1NR w KQkq - 0 3",
        Rules::default(),
    )
    .unwrap();
    e.send(&format!("setboard {}", pos.to_fen_style(FenStyle::Wide)));
    e.send("sd 3");
    e.send("go");
    let mut game = Game::new(pos);
    let (_, lines) = engine_move(&mut e, &mut game);
    assert_eq!(lines.last().unwrap(), "move m2b5", "{lines:?}");
    assert_eq!(e.recv(SOON).unwrap(), "1-0 {White mates}");
    assert!(ping(&mut e, 1).is_empty(), "{}", e.dump());
    // The user mates: the result is announced after the user's move.
    e.send("new");
    variant(&mut e, Variant::Alice);
    e.send(&format!("setboard {}", pos.to_fen_style(FenStyle::Wide)));
    e.send("usermove m2b5");
    assert_eq!(ping(&mut e, 2), vec!["1-0 {White mates}".to_string()]);
    // Captures go through the victim's cell; castling as the rook's legs through the king.
    e.send("new");
    variant(&mut e, Variant::Alice);
    e.send("force");
    e.send("setboard 4k11/16/4p11/3P12/16/16/16/4K2R8 w K - 0 1");
    e.send("lift d5");
    e.send("lift h1");
    e.send("put e1");
    e.send("lift e1");
    let marks = ping(&mut e, 3);
    assert_eq!(
        marks,
        vec![
            "highlight 16/16/4C6Y4/16/16/16/16/16",
            "highlight 15Y/15Y/15Y/15Y/15Y/15Y/15Y/4C8YY1",
            "highlight 16/16/16/16/16/16/16/13Y2",
            "highlight 16/16/16/16/16/16/16/13Y2",
        ],
        "{}",
        e.dump()
    );
    e.send("usermove h1e1,e1n1");
    e.send("usermove e8l8");
    e.send("usermove d5e6,e6m6");
    assert!(ping(&mut e, 4).is_empty(), "{}", e.dump());
    e.finish();
}

#[test]
fn bad_input_is_answered_and_the_engine_keeps_serving() {
    let mut e = Engine::start_xboard();
    handshake(&mut e);
    e.send("frobnicate now");
    e.send("variant chess");
    e.send("level 40 x 0");
    e.send("sd deep");
    e.send("option NoSuchOption=3");
    let lines = ping(&mut e, 1);
    assert_eq!(lines[0], "Error (unknown command): frobnicate now");
    assert_eq!(lines[1], "Error (unsupported variant): variant chess");
    assert_eq!(lines[2], "Error (bad time control): level 40 x 0");
    assert_eq!(lines[3], "Error (bad depth): sd deep");
    assert_eq!(lines[4], "Error (bad option): option NoSuchOption=3");
    e.send("setboard 8/8/8/8 w - - 0 1");
    let lines = ping(&mut e, 2);
    assert!(lines[0].starts_with("tellusererror Illegal position: "), "{lines:?}");
    e.send("setboard 4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1");
    let lines = ping(&mut e, 21);
    assert_eq!(
        lines[0],
        "tellusererror Illegal position: White has 9 pawns; a game of alice has at most 8 a side"
    );
    e.send("usermove e2m4");
    let lines = ping(&mut e, 3);
    assert_eq!(lines[0], "Illegal move: e2m4");
    // A new game is playable again; `e2e4` (landing on board A) is refused with the reason.
    e.send("new");
    variant(&mut e, Variant::Alice);
    e.send("usermove e2e4");
    let lines = ping(&mut e, 4);
    assert_eq!(lines[0], "Illegal move: e2e4");
    assert!(lines[1].contains("lands on the other board"), "{lines:?}");
    e.finish();
}

#[test]
fn the_uci_loop_switches_to_cecp_on_xboard() {
    let mut e = Engine::start();
    e.send("isready");
    e.until_prefix("readyok");
    handshake(&mut e);
    let (setup, _) = variant(&mut e, Variant::LookingGlass);
    assert!(
        setup.starts_with("setup (PNBRQKpnbrqk) 16x8+0_berolina 8rnbqkbnr/8pppppppp/"),
        "{setup}"
    );
    e.finish();
}
