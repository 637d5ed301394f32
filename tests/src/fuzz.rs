//! The seeded random-input fuzzer that libFuzzer cannot replace: the process-level target
//! `uci` ([`PROCESS_TARGETS`]) feeds long random command streams to the real `vorpal` binary
//! over pipes ([`uci`], [`uci_run`]) and checks every answer against a model of the session.
//! The in-process parsers (FEN, moves, make/undo, PGN, ...) are fuzzed coverage-guided by
//! `tests/fuzz` (cargo fuzz).

pub mod uci;
pub mod uci_run;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::path::Path;
/// FENs the mutator splices in (the `position fen` lines of the UCI streams).
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
