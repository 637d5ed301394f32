//! Seeded random-input fuzzers for the parsers and the make/undo machinery. Each target takes
//! a seeded generator and runs one case; a case "fails" by panicking, which the driver
//! (`vorpal-fuzz`, or the short runs in the test suite) reports with the input that caused it.
//!
//! Targets: FEN parsing in every form, move parsing (UCI, wide, SAN), and move encodings fed
//! through `is_legal` then `make_move`, each under standard Alice and every variant. The process-level target `uci` ([`PROCESS_TARGETS`])
//! feeds random command streams to the `vorpal` binary over pipes ([`uci`], [`uci_run`]).

pub mod uci;
pub mod uci_run;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::path::Path;
use vorpal_engine::{BoardId, EnPassant, FenStyle, Move, MoveKind, Position, Rules, Square, Variant};

/// FENs the mutators start from.
const SEEDS: [&str; 6] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqk1nr/pppp1|Npp/4|p3/2|b5/8/8/PPPPPPPP/RNBQKB1R b KQkq - 0 3",
    "r2|Qk2r/pppppppp/8/8/8/8/PPPPPPPP/R|N2K|b1R w KQkq - 0 1",
    "4k3/8/8/8/3|p|P3/8/8/4K3 b - e3 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 8/8/8/8/8/8/8/8 w - - 0 1",
    "rnbqkbnr8/pppppppp8/16/16/16/16/PPPPPPPP8/RNBQKBNR8 w KQkq - 0 1",
];

const ALPHABET: &[u8] = b"pnbrqkPNBRQK12345678|/ -wbKQkqabcdefgh0123456789\t:;#x+=";

/// Mutates `text` with random byte edits, token swaps and splices.
pub fn mutate(rng: &mut StdRng, text: &str) -> Vec<u8> {
    let mut bytes = text.as_bytes().to_vec();
    for _ in 0..rng.gen_range(1..6) {
        let len = bytes.len();
        match rng.gen_range(0..7) {
            0 if len > 0 => {
                bytes.remove(rng.gen_range(0..len));
            }
            1 => bytes.insert(rng.gen_range(0..=len), ALPHABET[rng.gen_range(0..ALPHABET.len())]),
            2 if len > 0 => bytes[rng.gen_range(0..len)] = ALPHABET[rng.gen_range(0..ALPHABET.len())],
            3 if len > 0 => bytes[rng.gen_range(0..len)] = rng.gen(),
            4 => {
                let other = SEEDS[rng.gen_range(0..SEEDS.len())].as_bytes();
                let cut = rng.gen_range(0..=len);
                let from = rng.gen_range(0..=other.len());
                bytes.truncate(cut);
                bytes.extend_from_slice(&other[from..]);
            }
            5 => {
                let fields: Vec<&[u8]> = bytes.split(|&b| b == b' ').collect();
                if fields.len() > 1 {
                    let mut f: Vec<Vec<u8>> = fields.iter().map(|x| x.to_vec()).collect();
                    let (a, b) = (rng.gen_range(0..f.len()), rng.gen_range(0..f.len()));
                    f.swap(a, b);
                    bytes = f.join(&b' ');
                }
            }
            _ => {
                let n = rng.gen_range(0..4);
                for _ in 0..n {
                    bytes.push(rng.gen());
                }
            }
        }
    }
    bytes
}

/// Standard Alice with any en passant option half of the time, else any variant, sometimes
/// with Chess960 castling.
fn rules(rng: &mut StdRng) -> Rules {
    let ep = [EnPassant::Off, EnPassant::Normal, EnPassant::Double][rng.gen_range(0..3)];
    if rng.gen_bool(0.5) {
        return Rules::with_en_passant(ep);
    }
    let variant = Variant::ALL[rng.gen_range(0..Variant::ALL.len())];
    Rules::for_variant(variant).with_ep(ep).with_chess960(rng.gen_bool(0.2))
}

/// A start position under `rules`: a seed FEN for standard Alice, else the variant's start
/// or one of its Chess960 arrays.
fn start_position(rng: &mut StdRng, rules: Rules) -> Position {
    if rules == Rules::with_en_passant(rules.en_passant) {
        return Position::from_fen(SEEDS[rng.gen_range(0..4)], rules).expect("seed FEN");
    }
    let fen = match rules.variant.chess960_fen(rng.gen_range(0..960)) {
        Some(fen) if rules.chess960 => fen,
        _ => rules.variant.start_fen().to_string(),
    };
    Position::from_fen(&fen, rules).unwrap_or_else(|e| panic!("start FEN {fen} under {rules:?}: {e}"))
}

/// One FEN-parser case; `input_out` receives the case before it runs.
pub fn fen_case(rng: &mut StdRng, input_out: &mut String) {
    let (base, rules) = if rng.gen_bool(0.5) {
        (SEEDS[rng.gen_range(0..SEEDS.len())].to_string(), rules(rng))
    } else {
        // A position of any variant, written in any form.
        let pos = random_position(rng);
        let style = [FenStyle::Pipe, FenStyle::Wide, FenStyle::Split, FenStyle::Joined][rng.gen_range(0..4)];
        (pos.to_fen_style(style), pos.rules())
    };
    let input = String::from_utf8_lossy(&mutate(rng, &base)).into_owned();
    *input_out = format!("{input:?} ({rules:?})");
    if let Ok(pos) = Position::from_fen(&input, rules) {
        pos.check_consistency()
            .unwrap_or_else(|e| panic!("accepted FEN gives an inconsistent position ({e}): {input}"));
        let again =
            Position::from_fen(&pos.to_fen(), rules).unwrap_or_else(|e| panic!("round trip of {input} failed: {e}"));
        assert_eq!(again.key(), pos.key(), "round trip key of {input}");
        let _ = pos.legal_moves();
    }
}

/// A position reached by a short random walk from a start position of random rules.
pub fn random_position(rng: &mut StdRng) -> Position {
    let rules = rules(rng);
    let mut pos = start_position(rng, rules);
    for _ in 0..rng.gen_range(0..60) {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.make_move(moves[rng.gen_range(0..moves.len())]);
    }
    pos
}

/// One move-parser case; `input` receives the case before it runs.
pub fn move_text_case(rng: &mut StdRng, input: &mut String) {
    let pos = random_position(rng);
    let moves = pos.legal_moves();
    let text = if !moves.is_empty() && rng.gen_bool(0.5) {
        let mv = moves[rng.gen_range(0..moves.len())];
        let base = match rng.gen_range(0..3) {
            0 => pos.move_to_uci(mv),
            1 => pos.move_to_wide(mv),
            _ => pos.move_to_san(mv),
        };
        String::from_utf8_lossy(&mutate(rng, &base)).into_owned()
    } else {
        let n = rng.gen_range(0..9);
        (0..n)
            .map(|_| ALPHABET[rng.gen_range(0..ALPHABET.len())] as char)
            .collect()
    };
    *input = format!("{text:?} in {}", pos.to_fen());
    for mv in [pos.parse_uci(&text), pos.parse_san(&text), pos.parse_move(&text)]
        .into_iter()
        .flatten()
    {
        assert!(
            pos.is_legal(mv),
            "parser returned an illegal move for {text:?} in {}",
            pos.to_fen()
        );
        assert_eq!(
            pos.parse_san(&pos.move_to_san(mv)),
            Ok(mv),
            "SAN round trip for {text:?} in {}",
            pos.to_fen()
        );
    }
}

/// One make/undo case: random encodings go through `is_legal`, legal ones are made and the
/// position re-checked; the result must match membership in the generated list.
pub fn make_undo_case(rng: &mut StdRng, input: &mut String) {
    let mut pos = random_position(rng);
    *input = pos.to_fen();
    for _ in 0..40 {
        let legal = pos.legal_moves();
        let kinds = [
            MoveKind::Normal,
            MoveKind::DoublePush,
            MoveKind::Castle,
            MoveKind::EnPassant,
            MoveKind::PromoKnight,
            MoveKind::PromoQueen,
            MoveKind::Null,
        ];
        let boards = &BoardId::ALL[..pos.rules().boards()];
        let board = |r: &mut StdRng| boards[r.gen_range(0..boards.len())];
        let mv = Move::new(
            Square::new(rng.gen_range(0..64)),
            board(rng),
            Square::new(rng.gen_range(0..64)),
            board(rng),
            kinds[rng.gen_range(0..kinds.len())],
            rng.gen_bool(0.5),
        );
        let mv = if !legal.is_empty() && rng.gen_bool(0.3) {
            legal[rng.gen_range(0..legal.len())]
        } else {
            mv
        };
        assert_eq!(
            pos.is_legal(mv),
            legal.contains(&mv),
            "is_legal({mv:?}) disagrees with the generator in {}",
            pos.to_fen()
        );
        if pos.is_legal(mv) {
            let before = pos;
            pos.make_move(mv);
            pos.check_consistency()
                .unwrap_or_else(|e| panic!("after {mv:?} from {}: {e}", before.to_fen()));
            if rng.gen_bool(0.2) {
                pos = before; // undo
            }
        }
    }
}

/// A named fuzz target.
pub type Target = fn(&mut StdRng, &mut String);

/// Every target by name.
pub const TARGETS: [(&str, Target); 3] = [
    ("fen", fen_case),
    ("moves", move_text_case),
    ("makeundo", make_undo_case),
];

/// Runs `target` for `cases` cases from `seed`; returns the number of executions.
pub fn run(target: Target, seed: u64, cases: u64) -> u64 {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut input = String::new();
    for _ in 0..cases {
        target(&mut rng, &mut input);
    }
    cases
}

/// A named target that drives the `vorpal` binary at the given path.
pub type ProcessTarget = fn(&Path, &mut StdRng, &mut String);

/// Every process-level target by name.
pub const PROCESS_TARGETS: [(&str, ProcessTarget); 1] = [("uci", uci_run::uci_case)];

/// Runs the process target `target` against `engine` for `cases` cases from `seed`; returns
/// the number of executions.
pub fn run_process(target: ProcessTarget, engine: &Path, seed: u64, cases: u64) -> u64 {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut input = String::new();
    for _ in 0..cases {
        target(engine, &mut rng, &mut input);
    }
    cases
}
