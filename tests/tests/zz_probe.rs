use vorpal_engine::{EnPassant, FenStyle, Position, Rules};
use vorpal_tests::data::{perft_cases, tsv_rows};
#[test]
fn probe() {
    let mut fens: Vec<(String, Rules)> = perft_cases().into_iter().map(|c| (c.fen, Rules::default())).collect();
    for f in ["legal.tsv", "mates.tsv"] {
        for r in tsv_rows(f) {
            fens.push((r["fen"].clone(), Rules::default()));
        }
    }
    for r in tsv_rows("perft-ep.tsv") {
        let m: EnPassant = r["mode"].parse().unwrap();
        fens.push((r["fen"].clone(), Rules::with_en_passant(m)));
    }
    let (mut wide_bad, mut split_bad, mut split_ok) = (0, 0, 0);
    for (f, r) in &fens {
        let p = Position::from_fen(f, *r).unwrap();
        let w = Position::from_fen(&p.to_fen_style(FenStyle::Wide), *r);
        if w.map(|x| x != p).unwrap_or(true) {
            wide_bad += 1;
        }
        match Position::from_fen(&p.to_fen_style(FenStyle::Split), *r) {
            Ok(x) if x == p => split_ok += 1,
            _ => {
                split_bad += 1;
                assert!(!p.castling().is_empty());
            }
        }
    }
    println!("wide_bad {wide_bad} split_bad {split_bad} (all with castling rights) split_ok {split_ok}");
}
