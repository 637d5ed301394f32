//! The client crate's PGN reader (`vorpal annotate` and the match runner): any text gives games (possibly
//! none); each game's text reads back to the same moves, and its replay never panics.
#![no_main]
use libfuzzer_sys::fuzz_target;
use vorpal_client::pgn::parse_pgn;
use vorpal_engine::Rules;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for game in parse_pgn(&text).iter().take(8) {
        let written = game.to_text();
        let back = parse_pgn(&written);
        assert!(!back.is_empty(), "a written game reads as nothing:\n{written}");
        let sans = |g: &vorpal_client::pgn::PgnGame| g.moves.iter().map(|m| m.san.clone()).collect::<Vec<_>>();
        assert_eq!(
            sans(&back[0]),
            sans(game),
            "moves change when written and read:\n{written}"
        );
        if let Ok((start, moves)) = game.replay(Rules::default()) {
            let mut pos = start;
            for mv in moves {
                assert!(pos.is_legal(mv), "replay gave an illegal move");
                pos.make_move(mv);
            }
            vorpal_fuzz_targets::check_position(&pos, "replayed game");
        }
    }
});
