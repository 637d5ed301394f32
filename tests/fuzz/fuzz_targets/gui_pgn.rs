//! The GUI's *Import PGN* (also `{"cmd":"pgn"}` and `restore`): any text is read or refused
//! with a message, and what it reads exports to PGN that imports back to the same export. The
//! whole-file reader too: every game of the file (split where tags follow movetext) is read or
//! refused the same way, each with its picker label.
#![no_main]
use libfuzzer_sys::fuzz_target;
use vorpal_protocol::doors::{gui_pgn_file, gui_pgn_import, GuiPgn};

fn round_trip(game: &GuiPgn) {
    let again = gui_pgn_import(&game.exported)
        .unwrap_or_else(|e| panic!("the export of an imported game is refused: {e}\n{}", game.exported));
    assert_eq!(again.moves, game.moves, "moves lost in\n{}", game.exported);
    assert_eq!(again.exported, game.exported, "export -> import -> export differs");
    for (i, (name, value)) in game.tags.iter().enumerate() {
        // The first of tags of one name is the one kept.
        let first = game.tags.iter().position(|(n, _)| n == name) == Some(i);
        if first && !["Result", "Variant", "SetUp", "FEN", "AliceEnPassant"].contains(&name.as_str()) {
            assert!(
                again.tags.iter().any(|(n, v)| n == name && v == value) || name.is_empty(),
                "tag {name} = {value:?} lost in\n{}",
                game.exported
            );
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(game) = gui_pgn_import(&text) {
        round_trip(&game);
    }
    for (n, (label, game)) in gui_pgn_file(&text).iter().enumerate() {
        assert!(
            label.starts_with(&format!("{}. ", n + 1)),
            "label {label:?} of game {}",
            n + 1
        );
        if let Ok(game) = game {
            round_trip(game);
        }
    }
});
