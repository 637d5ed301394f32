//! Packed training data (`vorpal-datagen --format packed`): any bytes are read record by
//! record; a record that decodes packs back to the same position, score and result, and so
//! does its text line (`vorpal-datagen dump`, then `convert`): packed -> text -> packed.
#![no_main]
use libfuzzer_sys::fuzz_target;
use vorpal_engine::GameResult;
use vorpal_tuning::datagen::packed::{header, PackedReader, PackedRecord};
use vorpal_tuning::datagen::tools::pack_line;
use vorpal_tuning::nnue::data::Sample;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let mut bytes = Vec::new();
    if mode & 1 == 1 {
        bytes.extend_from_slice(&header());
    }
    bytes.extend_from_slice(rest);
    let Ok(reader) = PackedReader::new(&bytes[..]) else {
        return;
    };
    for record in reader.take(64) {
        let Ok(record) = record else { break };
        let _ = Sample::from_record(&record);
        if let Ok((pos, score, result)) = record.decode() {
            vorpal_fuzz_targets::check_position(&pos, "packed record");
            let again = PackedRecord::encode(&pos, i32::from(score), result)
                .unwrap_or_else(|e| panic!("a decoded record does not pack again: {e:?} {}", pos.to_fen()));
            assert_eq!(
                again.decode().ok(),
                Some((pos, score, result)),
                "pack -> decode differs"
            );
            let list = record.pieces().expect("a decoded record has its pieces");
            let white = match list.result {
                GameResult::WhiteWins => "1.0",
                GameResult::Draw => "0.5",
                GameResult::BlackWins => "0.0",
            };
            let line = format!("{} | {} | {white}", list.to_fen(), list.score);
            let packed = pack_line(&line).unwrap_or_else(|e| panic!("the dump line {line} does not pack: {e}"));
            assert_eq!(
                packed.decode().ok(),
                Some((pos, score, result)),
                "packed -> text -> packed: {line}"
            );
        }
    }
});
