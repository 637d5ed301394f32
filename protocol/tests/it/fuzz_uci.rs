//! The `uci` fuzz target in the test suite: a short fixed-seed run of random command streams
//! through the `vorpal` binary (the long runs use `vorpal-fuzz uci`), and a check that the
//! generator produces what the target is meant to cover.

use crate::support::harness::vorpal_binary;
use rand::rngs::StdRng;
use rand::SeedableRng;
use vorpal_tests::fuzz::uci::{go_words, uci_stream, words_of, Model, Step, MAX_LINE};
use vorpal_tests::fuzz::uci_run::{run_stream, Ending};
use vorpal_tests::fuzz::{run_process, PROCESS_TARGETS};

#[test]
#[ignore = "full tier: a seeded stream of random UCI sessions against the binary (cargo fuzz covers the door in CI)"]
fn uci_fuzz_short_run() {
    let engine = vorpal_binary();
    for (name, target) in PROCESS_TARGETS {
        assert_eq!(run_process(target, &engine, 8, 40), 40, "{name}");
    }
}

/// What 300 generated streams contain, as the model reads them.
#[derive(Default, Debug)]
struct Coverage {
    streams: usize,
    quits: usize,
    gos: usize,
    gos_on_known_games: usize,
    infinite: usize,
    ponder: usize,
    isready: usize,
    invalid_utf8: usize,
    nul: usize,
    empty: usize,
    huge_numbers: usize,
    negative_numbers: usize,
    over_max_line: usize,
    setoptions: usize,
    positions: usize,
    pauses: usize,
    searchmoves: usize,
}

#[test]
fn uci_generator_covers_the_protocol() {
    let mut rng = StdRng::seed_from_u64(1);
    let mut c = Coverage::default();
    for _ in 0..300 {
        let steps = uci_stream(&mut rng);
        let mut model = Model::default();
        c.streams += 1;
        for step in &steps {
            let Step::Line(line) = step else {
                c.pauses += 1;
                continue;
            };
            assert!(!line.contains(&b'\n'), "a line holds a newline");
            model.feed(line);
            let words = words_of(line);
            let first = words.first().map(|w| w.to_ascii_lowercase()).unwrap_or_default();
            c.invalid_utf8 += usize::from(std::str::from_utf8(line).is_err());
            c.nul += usize::from(line.contains(&0));
            c.empty += usize::from(words.is_empty());
            c.over_max_line += usize::from(line.len() > MAX_LINE);
            c.huge_numbers += usize::from(
                words
                    .iter()
                    .any(|w| w.len() >= 19 && w.bytes().all(|b| b.is_ascii_digit())),
            );
            c.negative_numbers += usize::from(words.iter().any(|w| w.starts_with('-') && w.len() > 1));
            c.setoptions += usize::from(first == "setoption");
            c.positions += usize::from(first == "position");
            if first == "go" {
                let go = go_words(&words);
                c.infinite += usize::from(go.infinite);
                c.ponder += usize::from(go.ponder);
            }
            // Unsafe commands never reach the engine.
            assert!(first != "xboard", "{first}");
            if matches!(first.as_str(), "perft" | "bench") {
                assert!(words[1].parse::<u32>().is_ok_and(|d| d <= 3), "{words:?}");
            }
            if first == "go" {
                assert!(!words.iter().any(|w| w.eq_ignore_ascii_case("perft")), "{words:?}");
            }
        }
        c.quits += usize::from(model.quit);
        c.isready += model.isready;
        c.gos += model.gos.len();
        c.gos_on_known_games += model.gos.iter().filter(|g| g.game.is_some()).count();
        c.searchmoves += model.gos.iter().filter(|g| !g.search_moves.is_empty()).count();
    }
    println!("{c:?}");
    assert!(c.gos > 600 && c.gos_on_known_games * 10 > c.gos * 7, "{c:?}");
    for (what, n) in [
        ("quit", c.quits),
        ("infinite", c.infinite),
        ("ponder", c.ponder),
        ("isready", c.isready),
        ("invalid UTF-8", c.invalid_utf8),
        ("NUL", c.nul),
        ("empty lines", c.empty),
        ("huge numbers", c.huge_numbers),
        ("negative numbers", c.negative_numbers),
        ("lines over 1 MiB", c.over_max_line),
        ("setoption", c.setoptions),
        ("position", c.positions),
        ("pauses", c.pauses),
        ("legal searchmoves", c.searchmoves),
    ] {
        assert!(n >= 3, "too few {what}: {c:?}");
    }
}

/// The checks themselves: a stream that ends while `go infinite` waits, closed input with a
/// search running, and a `quit` in the middle of the stream.
#[test]
fn uci_driver_endings() {
    let engine = vorpal_binary();
    let line = |s: &str| Step::Line(s.as_bytes().to_vec());
    let streams = [
        vec![
            line("position startpos moves e2e4"),
            line("go infinite"),
            Step::Pause(50),
        ],
        vec![
            line("go depth 3"),
            line("isready"),
            line("go ponder"),
            line("ponderhit"),
        ],
        vec![line("go infinite"), Step::Pause(20), line("quit"), line("go depth 1")],
    ];
    for steps in &streams {
        for ending in [Ending::Quit, Ending::CloseInput] {
            let counts = run_stream(&engine, steps, ending);
            assert!(counts.gos >= 1, "{counts:?}");
        }
    }
}
