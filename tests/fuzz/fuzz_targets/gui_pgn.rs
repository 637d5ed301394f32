//! The GUI's *Import PGN* (also `{"cmd":"pgn"}` and `restore`): any text is read or refused
//! with a message, and what it reads exports to PGN that imports back to the same export.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(game) = vorpal_protocol::doors::gui_pgn_import(&text) {
        let again = vorpal_protocol::doors::gui_pgn_import(&game.exported)
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
});
