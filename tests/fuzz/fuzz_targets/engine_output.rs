//! An engine's output as the clients read it: lines cut and decoded by the match runner's
//! reader, each read as an `info` line by the match runner and by the GUI's analysis panel
//! (whose variations must replay legally).
#![no_main]
use libfuzzer_sys::fuzz_target;
use vorpal_client::engine_output::{read_lines, MAX_LINE};
use vorpal_client::engine_process::{parse_info, SearchReply};

fuzz_target!(|data: &[u8]| {
    let Some((&fen, rest)) = data.split_first() else { return };
    let fen = vorpal_fuzz_targets::FENS[usize::from(fen) % vorpal_fuzz_targets::FENS.len()];
    let mut reply = SearchReply::default();
    read_lines(rest, |line| {
        assert!(line.text.len() <= 3 * MAX_LINE, "line longer than the cap");
        parse_info(&line.text, &mut reply);
        if let Some((_, moves)) = vorpal_protocol::doors::gui_engine_line(fen, &line.text) {
            let mut pos = vorpal_engine::Position::from_fen(fen, Default::default()).expect("FEN");
            for (_, wide) in moves {
                let mv = pos.parse_move(&wide).expect("a replayed move parses again");
                pos.make_move(mv);
            }
        }
        true
    });
});
