//! FEN (docs/rules.md §2): every FEN of the reference data prints back unchanged; the split form
//! `<FEN of A> | <FEN of B>` and the 16-file wide form parse to the same position as the pipe
//! form and are printed so that they parse back; one rejection test per rule of §2, each checking
//! that the error message names the problem; and a seeded fuzz test (random strings and
//! mutations of valid FENs) in which the parser, and the move generator on every FEN the parser
//! accepts, must never panic.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use vorpal_engine::{CastleSide, Color, EnPassant, FenStyle, Position, Rules};
use vorpal_tests::data::{perft_cases, tsv_rows};

/// Every FEN of the data files with the rules it is used under.
fn data_fens() -> Vec<(String, Rules)> {
    let mut fens: Vec<(String, Rules)> = perft_cases().into_iter().map(|c| (c.fen, Rules::default())).collect();
    for file in ["legal.tsv", "mates.tsv"] {
        fens.extend(tsv_rows(file).into_iter().map(|r| (r["fen"].clone(), Rules::default())));
    }
    for row in tsv_rows("perft-ep.tsv") {
        let mode: EnPassant = row["mode"].parse().expect("mode");
        fens.push((row["fen"].clone(), Rules::with_en_passant(mode)));
    }
    fens.sort_by(|a, b| a.0.cmp(&b.0));
    fens.dedup();
    fens
}

/// A data FEN as the engine writes it back: the en passant field is kept only where it changes
/// the legal moves or what they do under the row's option (always `-` with the option off, as
/// Fairy-Stockfish and the playing sites write it).
fn written_form(fen: &str, rules: Rules) -> String {
    let mut fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.get(3).is_some_and(|ep| *ep != "-") {
        // Each legal move with the position it leads to (`d4e3` may take one piece or two).
        let moves = |text: &str| {
            let p = parse(text, rules);
            let mut list: Vec<String> = p
                .legal_moves()
                .iter()
                .map(|&m| format!("{} {}", p.move_to_uci(m), p.after(m).to_fen_style(FenStyle::Wide)))
                .collect();
            list.sort();
            list
        };
        let with_field = moves(fen);
        fields[3] = "-";
        if moves(&fields.join(" ")) != with_field {
            return fen.to_string();
        }
    }
    fields.join(" ")
}

fn parse(fen: &str, rules: Rules) -> Position {
    Position::from_fen(fen, rules).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Asserts that `fen` is rejected under the default rules with a message containing every
/// keyword (case-insensitive).
fn assert_rejected(fen: &str, keywords: &[&str]) {
    match Position::from_fen(fen, Rules::default()) {
        Ok(p) => panic!("accepted {fen:?} as {}", p.to_fen()),
        Err(e) => {
            let msg = e.to_string().to_lowercase();
            for k in keywords {
                assert!(
                    msg.contains(&k.to_lowercase()),
                    "{fen:?}: message {msg:?} does not mention {k:?}"
                );
            }
        }
    }
}

const SAMPLE: &str = "rnbqk1nr/pppp1|Npp/4|p3/2|b5/8/8/PPPPPPPP/RNBQKB1R b KQkq - 0 3";

#[test]
fn every_data_fen_round_trips() {
    let fens = data_fens();
    assert!(fens.len() >= 80, "only {} FENs", fens.len());
    for (fen, rules) in &fens {
        let p = parse(fen, *rules);
        assert_eq!(p.to_fen(), written_form(fen, *rules));
        assert_eq!(p.to_fen_style(FenStyle::Pipe), written_form(fen, *rules));
        assert_eq!(parse(&p.to_fen(), *rules), p);
        assert_eq!(p.check_consistency(), Ok(()));
    }
}

#[test]
fn split_and_wide_forms_parse_to_the_same_position() {
    // Written by hand from §2: wide = files 1-8 board A, 9-16 board B (two-digit empty counts).
    let wide = "rnbqk1nr8/pppp2pp5N2/12p3/10b5/16/16/PPPPPPPP8/RNBQKB1R8 b KQkq - 0 3";
    let split = "rnbqk1nr/pppp2pp/8/8/8/8/PPPPPPPP/RNBQKB1R b KQkq - 0 3 | 8/5N2/4p3/2b5/8/8/8/8 b - - 0 3";
    let pipe = parse(SAMPLE, Rules::default());
    for text in [wide, split] {
        let p = parse(text, Rules::default());
        assert_eq!((p.to_fen(), p.key()), (SAMPLE.to_string(), pipe.key()), "{text}");
        assert_eq!(p, pipe);
    }
    assert_eq!(pipe.to_fen_style(FenStyle::Wide), wide);
}

#[test]
fn split_form_takes_side_and_clocks_from_a_and_the_union_of_castling_rights() {
    let p = parse(
        "r3k2r/8/8/8/8/8/8/R3K2R w KQ - 3 7 | 8/8/8/8/8/8/8/8 b kq - 0 1",
        Rules::default(),
    );
    assert_eq!(p.to_fen(), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 3 7");
    assert!(p.castling().has(Color::Black, CastleSide::Queen));
    // A right named in both halves is in the union once (the split output names it twice).
    let p = parse(
        "r3k2r/8/8/8/8/8/8/R3K2R w KQ - 3 7 | 8/8/8/8/8/8/8/8 w KQk - 3 7",
        Rules::default(),
    );
    assert_eq!(p.to_fen(), "r3k2r/8/8/8/8/8/8/R3K2R w KQk - 3 7");
}

#[test]
fn wide_and_split_output_parses_back() {
    // Every data FEN, printed in the other two forms, parses back to the same position.
    for (fen, rules) in data_fens() {
        let p = parse(&fen, rules);
        for style in [FenStyle::Wide, FenStyle::Split] {
            let text = p.to_fen_style(style);
            let back = parse(&text, rules);
            assert_eq!(
                (back.to_fen(), back.key()),
                (written_form(&fen, rules), p.key()),
                "{text}"
            );
            assert_eq!(back, p, "{text}");
            assert_eq!(back.to_fen_style(style), text);
        }
        assert!(!p.to_fen_style(FenStyle::Wide).contains('|'));
    }
}

#[test]
fn rejects_wrong_field_count() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
    for fen in [
        start.to_string(),
        format!("{start} w"),
        format!("{start} w KQkq"),
        format!("{start} w KQkq - 0"),
        format!("{start} w KQkq - 0 1 extra"),
        format!("{start} w KQkq - 0 1 | 8/8/8/8/8/8/8/8"),
    ] {
        assert_rejected(&fen, &["field"]);
    }
    assert_rejected("", &["empty"]);
    assert_rejected(&format!("{start} w KQkq - 0 1 |"), &["split"]);
}

#[test]
fn rejects_bad_piece_letter() {
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKB|XR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN| w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/3*4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN|| w KQkq - 0 1",
    ] {
        assert_rejected(fen, &["piece letter"]);
    }
}

#[test]
fn rejects_rank_of_wrong_length() {
    for fen in [
        "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp1/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/7/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR|P w KQkq - 0 1",
        // Wide form with a 15-file rank, and 8-file ranks mixed with 16-file ones.
        "rnbqkbnr8/pppppppp8/16/15/16/16/PPPPPPPP8/RNBQKBNR8 w KQkq - 0 1",
        "rnbqkbnr8/pppppppp8/8/16/16/16/PPPPPPPP8/RNBQKBNR8 w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR8 w KQkq - 0 1",
    ] {
        assert_rejected(fen, &["files"]);
    }
}

#[test]
fn rejects_wrong_number_of_ranks() {
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1",
    ] {
        assert_rejected(fen, &["ranks"]);
    }
}

#[test]
fn rejects_square_occupied_on_both_boards() {
    // A knight on f3 of A and one on f3 of B, in the split and in the wide form.
    assert_rejected(
        "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 1 | 8/8/8/8/8/5n2/8/8 w - - 0 1",
        &["f3", "both boards"],
    );
    assert_rejected(
        "rnbqkbnr8/pppppppp8/16/16/16/5N7n2/PPPPPPPP8/RNBQKB1R8 w KQkq - 0 1",
        &["f3", "both boards"],
    );
    // The wide form takes no pipes (a pipe would name the board twice).
    assert_rejected("4k11/16/16/16/16/16/16/4K2|N8 w - - 0 1", &["wide"]);
}

#[test]
fn rejects_not_exactly_one_king_per_side() {
    assert_rejected("8/8/8/8/8/8/8/4K3 w - - 0 1", &["black", "0 kings"]);
    assert_rejected("4k3/8/8/8/8/8/8/8 w - - 0 1", &["white", "0 kings"]);
    assert_rejected("4k3/8/8/8/8/8/8/4K|K2 w - - 0 1", &["white", "2 kings"]);
    assert_rejected("4k2k/8/8/8/8/8/8/4K3 w - - 0 1", &["black", "2 kings"]);
    assert_rejected(
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 | 8/8/8/3K4/8/8/8/8 w - - 0 1",
        &["white", "2 kings"],
    );
}

#[test]
fn rejects_pawn_on_first_or_last_rank() {
    for (fen, square) in [
        ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "a1"),
        ("4k2p/8/8/8/8/8/8/4K3 w - - 0 1", "h8"),
        ("4k3/8/8/8/8/8/8/4K2|p w - - 0 1", "h1"),
        ("|P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "a8"),
    ] {
        assert_rejected(fen, &["pawn", square, "rank"]);
    }
}

#[test]
fn rejects_side_not_to_move_in_check() {
    assert_rejected("4k3/8/8/8/8/8/8/K3R3 w - - 0 1", &["not to move", "check"]);
    // The check on board B.
    assert_rejected("4|k3/8/8/8/8/8/8/K3|R3 w - - 0 1", &["not to move", "check"]);
    assert_rejected("4k3/8/8/8/8/8/8/8 b - - 0 1 | 8/8/8/8/8/8/8/r3K3 b - - 0 1", &["check"]);
    // Rook and king on different boards: no check, accepted.
    assert!(Position::from_fen("4|k3/8/8/8/8/8/8/K3R3 w - - 0 1", Rules::default()).is_ok());
    assert!(Position::from_fen("4k3/8/8/8/8/8/8/K3|R3 w - - 0 1", Rules::default()).is_ok());
}

#[test]
fn rejects_castling_right_whose_king_or_rook_is_not_on_its_square() {
    assert_rejected("4k3/8/8/8/8/8/8/R3K3 w K - 0 1", &["castling", "rook", "h1"]);
    assert_rejected("4k3/8/8/8/8/8/8/4K2R w Q - 0 1", &["castling", "rook", "a1"]);
    assert_rejected("4k3/8/8/8/8/8/8/R2K3R w KQ - 0 1", &["castling", "king", "e1"]);
    assert_rejected("4k3/8/8/8/8/8/8/R3K2R w KQkq - 0 1", &["castling", "rook", "h8"]);
    assert_rejected("r3k2r/8/8/8/8/8/8/4K2n w K - 0 1", &["castling", "rook", "h1"]);
    assert_rejected("r4k1r/8/8/8/8/8/8/4K3 w q - 0 1", &["castling", "king", "e8"]);
}

#[test]
fn rejects_bad_side_to_move_letter() {
    for side in ["x", "white", "-", "1"] {
        assert_rejected(&format!("4k3/8/8/8/8/8/8/4K3 {side} - - 0 1"), &["side to move"]);
    }
}

#[test]
fn rejects_bad_en_passant_square() {
    for (fen, keyword) in [
        ("4k3/8/8/8/8/8/8/4K3 w - e9 0 1", "e9"),
        ("4k3/8/8/8/8/8/8/4K3 w - z6 0 1", "z6"),
        ("4k3/8/8/8/8/8/8/4K3 w - e66 0 1", "e66"),
        // Wrong rank for the side that just moved.
        ("4k3/8/8/8/4P3/8/8/4K3 w - e3 0 1", "e3"),
        ("4k3/8/8/4p3/8/8/8/4K3 b - e6 0 1", "e6"),
        ("4k3/8/8/8/8/8/8/4K3 w - e4 0 1", "e4"),
        // No pawn of the side that just moved beyond the square (on either board).
        ("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", "e6"),
        ("4k3/8/8/8/3|P4/8/8/4K3 b - e3 0 1", "e3"),
    ] {
        assert_rejected(fen, &["en passant", keyword]);
    }
}

#[test]
fn rejects_en_passant_square_on_first_or_last_rank() {
    // These first panicked in `Square::offset` (debug builds) instead of being rejected.
    for fen in [
        "4k3/8/8/8/8/8/8/4K3 w - e1 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - a8 0 1",
        "4k3/8/8/8/8/8/8/4K3 b - e8 0 1",
        "4k3/8/8/8/8/8/8/4K3 b - h1 0 1",
    ] {
        assert_rejected(fen, &["en passant"]);
    }
}

#[test]
fn huge_halfmove_clock_is_rejected_or_playable() {
    // A FEN the parser accepts must be playable: 65535 plies overflowed the u16 clock in make.
    for clock in [9_999, 65_534, 65_535] {
        let fen = format!("4k3/8/8/8/8/8/8/R3K3 w - - {clock} 80");
        if let Ok(p) = Position::from_fen(&fen, Rules::default()) {
            for mv in p.legal_moves() {
                assert!(p.after(mv).halfmove_clock() >= p.halfmove_clock(), "{fen}: {mv:?}");
            }
        }
    }
}

#[test]
fn rejects_bad_castling_letters_and_clocks() {
    assert_rejected("4k3/8/8/8/8/8/8/R3K2R w KX - 0 1", &["castling"]);
    assert_rejected("4k3/8/8/8/8/8/8/R3K2R w KK - 0 1", &["castling", "twice"]);
    assert_rejected("4k3/8/8/8/8/8/8/4K3 w - - x 1", &["halfmove"]);
    assert_rejected("4k3/8/8/8/8/8/8/4K3 w - - -1 1", &["halfmove"]);
    assert_rejected("4k3/8/8/8/8/8/8/4K3 w - - 0 70000", &["fullmove"]);
}

// ---------------------------------------------------------------- fuzz

const ALPHABET: &[u8] = b"pnbrqkPNBRQKx|/ 0123456789wb-abcdefghKQkq";
const TOKENS: &[&str] = &[
    "w", "b", "-", "|", "KQkq", "Kq", "kQ", "e3", "e6", "d3", "d6", "a1", "h8", "e1", "e8", "a9", "0", "1", "99",
    "100", "65535", "65536", "-1", "16", "8", "12p3", "/", "//", "x",
];

/// Prints the input if the parser or the generator panics on it.
struct Reporter<'a>(&'a str);

impl Drop for Reporter<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("panic on FEN input {:?}", self.0);
        }
    }
}

fn random_string(rng: &mut StdRng) -> String {
    let len = rng.gen_range(0..90);
    (0..len)
        .map(|_| ALPHABET[rng.gen_range(0..ALPHABET.len())] as char)
        .collect()
}

fn mutate(rng: &mut StdRng, fen: &str) -> String {
    let mut s: Vec<u8> = fen.bytes().collect();
    let edits = if rng.gen_bool(0.6) { 1 } else { rng.gen_range(2..=3) };
    for _ in 0..edits {
        let at = rng.gen_range(0..=s.len());
        let byte = ALPHABET[rng.gen_range(0..ALPHABET.len())];
        match rng.gen_range(0..7) {
            0 if at < s.len() => s[at] = byte,
            1 if at < s.len() => {
                s.remove(at);
            }
            2 => s.insert(at, byte),
            3 if at + 1 < s.len() => s.swap(at, at + 1),
            4 => s.truncate(at),
            5 => {
                // Replace one whitespace-separated field by a field-like token.
                let text = String::from_utf8_lossy(&s).into_owned();
                let mut fields: Vec<String> = text.split(' ').map(str::to_string).collect();
                let i = rng.gen_range(0..fields.len());
                fields[i] = TOKENS[rng.gen_range(0..TOKENS.len())].to_string();
                s = fields.join(" ").into_bytes();
            }
            _ => {
                // Toggle the board of a piece.
                let letters: Vec<usize> = (0..s.len()).filter(|&i| s[i].is_ascii_alphabetic()).collect();
                if let Some(&i) = letters.get(rng.gen_range(0..letters.len().max(1))) {
                    if i > 0 && s[i - 1] == b'|' {
                        s.remove(i - 1);
                    } else {
                        s.insert(i, b'|');
                    }
                }
            }
        }
    }
    String::from_utf8_lossy(&s).into_owned()
}

/// Parses `text`; when accepted, the position must be consistent, print back to itself, and
/// every legal move must be playable. Returns whether it was accepted.
fn exercise(text: &str, rules: Rules) -> bool {
    let _guard = Reporter(text);
    let Ok(p) = Position::from_fen(text, rules) else {
        return false;
    };
    assert_eq!(p.check_consistency(), Ok(()), "{text}");
    let back = Position::from_fen(&p.to_fen(), rules).unwrap_or_else(|e| panic!("{text} -> {}: {e}", p.to_fen()));
    assert_eq!(back, p, "{text}");
    for mv in p.legal_moves() {
        assert!(p.is_legal(mv));
        assert_eq!(p.after(mv).check_consistency(), Ok(()), "{text}: {mv:?}");
    }
    true
}

#[test]
fn fuzzed_fens_never_panic() {
    let mut rng = StdRng::seed_from_u64(0xA11C_EF3E);
    let mut seeds: Vec<(String, Rules)> = data_fens();
    for (fen, rules) in data_fens() {
        let p = parse(&fen, rules);
        seeds.push((p.to_fen_style(FenStyle::Wide), rules));
        seeds.push((p.to_fen_style(FenStyle::Split), rules));
    }
    let (mut total, mut accepted) = (0, 0);
    for i in 0..20_000 {
        let rules = Rules::with_en_passant(EnPassant::ALL[rng.gen_range(0..3)]);
        let text = if i % 4 == 0 {
            random_string(&mut rng)
        } else {
            let (fen, _) = &seeds[rng.gen_range(0..seeds.len())];
            mutate(&mut rng, fen)
        };
        total += 1;
        if exercise(&text, rules) {
            accepted += 1;
        }
    }
    assert_eq!(total, 20_000);
    assert!(accepted > 800, "only {accepted} of the fuzzed FENs were valid");
}
