//! Checks the simple reference generator (`vorpal_tests::reference`) against the shared reference
//! data: exact legal-move lists, perft counts (default rules) and en passant perft in all modes.

use vorpal_tests::reference::{perft, EpMode, RefPosition};

/// A reference data file (`shared/data`, or the copy in `tests/data`), kept for the whole run.
fn data(name: &str) -> &'static str {
    Box::leak(vorpal_tests::data::read_data(name).into_boxed_str())
}

/// Perft lines with more nodes than this are skipped (they are the engine's job).
const MAX_NODES: u64 = 2_000_000;
/// The simple generator is slow: the default tier checks counts up to this many leaves, the full
/// tier the counts above it, up to `MAX_NODES`.
const QUICK_NODES: u64 = 200_000;

/// Whether a count of `nodes` leaves is checked in the default tier (`quick`) or the full tier.
fn in_tier(nodes: u64, quick: bool) -> bool {
    nodes <= MAX_NODES && (nodes <= QUICK_NODES) == quick
}

fn parse(fen: &str) -> RefPosition {
    RefPosition::from_fen(fen).unwrap_or_else(|err| panic!("cannot parse {fen:?}: {err}"))
}

fn parse_mode(text: &str) -> EpMode {
    match text {
        "off" => EpMode::Off,
        "normal" => EpMode::Normal,
        "double" => EpMode::Double,
        other => panic!("unknown en passant mode {other:?}"),
    }
}

/// Data lines of a TSV file with a header, split into fields.
fn tsv_rows(text: &str) -> Vec<Vec<&str>> {
    text.lines()
        .skip(1)
        .filter(|line| !line.trim().is_empty())
        .map(|line| line.split('\t').collect())
        .collect()
}

/// (fen, [(depth, nodes)]) for every position in perft.epd.
fn epd_rows() -> Vec<(&'static str, Vec<(u32, u64)>)> {
    data("perft.epd")
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let mut parts = line.split(';');
            let fen = parts.next().expect("a FEN").trim();
            let counts = parts
                .map(|part| {
                    let (depth, nodes) = part.trim().split_once(' ').expect("`D<n> <nodes>`");
                    let depth = depth.trim_start_matches('D').parse().expect("a depth");
                    (depth, nodes.parse().expect("a node count"))
                })
                .collect();
            (fen, counts)
        })
        .collect()
}

#[test]
fn legal_move_lists_match_exactly() {
    let rows = tsv_rows(data("legal.tsv"));
    assert!(rows.len() >= 17, "legal.tsv has {} rows", rows.len());
    let mut failures = Vec::new();
    for row in &rows {
        let (name, fen, count) = (row[0], row[1], row[2].parse::<usize>().expect("a count"));
        let expected: Vec<&str> = row[3].split_whitespace().collect();
        assert_eq!(expected.len(), count, "{name}: data count and list disagree");
        let got = parse(fen).legal_moves(EpMode::Off);
        if got != expected {
            failures.push(format!("{name}: expected {expected:?}\n    got {got:?}"));
        }
    }
    assert!(failures.is_empty(), "legal move lists differ:\n{}", failures.join("\n"));
}

/// Checks the perft.epd counts of one tier; returns how many it checked.
fn perft_counts(quick: bool) -> usize {
    let rows = epd_rows();
    assert_eq!(rows.len(), 22);
    let mut checked = 0;
    let mut failures = Vec::new();
    for (fen, counts) in &rows {
        let pos = parse(fen);
        for &(depth, nodes) in counts.iter().filter(|(_, nodes)| in_tier(*nodes, quick)) {
            checked += 1;
            let got = perft(&pos, depth, EpMode::Off);
            if got != nodes {
                failures.push(format!("{fen} D{depth}: expected {nodes}, got {got}"));
            }
        }
    }
    assert!(failures.is_empty(), "perft differs:\n{}", failures.join("\n"));
    checked
}

#[test]
fn perft_counts_match() {
    let checked = perft_counts(true);
    assert!(checked >= 80, "only {checked} perft counts checked");
}

#[test]
#[ignore = "full tier: the simple generator is slow on the larger counts"]
fn perft_counts_match_larger_counts() {
    let checked = perft_counts(false);
    assert!(checked >= 15, "only {checked} perft counts checked");
}

/// Checks the perft-ep.tsv counts of one tier; returns how many it checked.
fn en_passant_perft_counts(quick: bool) -> usize {
    let rows = tsv_rows(data("perft-ep.tsv"));
    assert_eq!(rows.len(), 303);
    let mut checked = 0;
    let mut failures = Vec::new();
    for row in rows
        .iter()
        .filter(|row| in_tier(row[4].parse::<u64>().expect("nodes"), quick))
    {
        let (name, fen, mode) = (row[0], row[1], parse_mode(row[2]));
        let depth: u32 = row[3].parse().expect("a depth");
        let nodes: u64 = row[4].parse().expect("a node count");
        checked += 1;
        let got = perft(&parse(fen), depth, mode);
        if got != nodes {
            failures.push(format!("{name} {mode:?} D{depth}: expected {nodes}, got {got}"));
        }
    }
    assert!(
        failures.is_empty(),
        "en passant perft differs:\n{}",
        failures.join("\n")
    );
    checked
}

#[test]
fn en_passant_perft_counts_match() {
    let checked = en_passant_perft_counts(true);
    assert!(checked >= 210, "only {checked} en passant counts checked");
}

#[test]
#[ignore = "full tier: the simple generator is slow on the larger counts"]
fn en_passant_perft_counts_match_larger_counts() {
    let checked = en_passant_perft_counts(false);
    assert!(checked >= 40, "only {checked} en passant counts checked");
}

#[test]
fn fen_round_trips() {
    let fens = tsv_rows(data("legal.tsv"))
        .iter()
        .map(|row| row[1])
        .chain(epd_rows().iter().map(|(fen, _)| *fen))
        .chain(tsv_rows(data("perft-ep.tsv")).iter().map(|row| row[1]))
        .collect::<Vec<_>>();
    for fen in fens {
        assert_eq!(parse(fen).to_fen(), fen);
    }
}

#[test]
fn double_step_writes_the_en_passant_field() {
    let start = parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    let after = start.play("e2e4", EpMode::Off).expect("legal");
    assert_eq!(
        after.to_fen(),
        "rnbqkbnr/pppppppp/8/8/4|P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    );
    let after = after.play("g8f6", EpMode::Off).expect("legal");
    assert_eq!(
        after.to_fen(),
        "rnbqkb1r/pppppppp/5|n2/8/4|P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2"
    );
}

#[test]
fn en_passant_takes_the_passed_pawn_and_transfers() {
    // White pawn e4 (board B) double-stepped; the black pawn d4 on B takes it, landing on e3 of A.
    let pos = parse("4k3/8/8/8/3|p|P3/8/8/4K3 b - e3 0 1");
    assert!(!pos.legal_moves(EpMode::Off).contains(&"d4e3".to_string()));
    let after = pos.play("d4e3", EpMode::Normal).expect("en passant is legal");
    assert_eq!(after.to_fen(), "4k3/8/8/8/8/4p3/8/4K3 w - - 0 2");
    // Double mode: a white knight on e3 of B is taken together with the passed pawn.
    let pos = parse("4k3/8/8/8/3|p|P3/4|N3/8/4K3 b - e3 0 1");
    let normal = pos.play("d4e3", EpMode::Normal).expect("ordinary capture");
    assert_eq!(normal.to_fen(), "4k3/8/8/8/4|P3/4p3/8/4K3 w - - 0 2");
    let double = pos.play("d4e3", EpMode::Double).expect("double capture");
    assert_eq!(double.to_fen(), "4k3/8/8/8/8/4p3/8/4K3 w - - 0 2");
}

#[test]
fn rejects_bad_input() {
    let start = parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert!(start.play("e2e5", EpMode::Off).is_err());
    assert!(start.play("e1g1", EpMode::Off).is_err());
    for bad in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
        "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",
        "P3k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1",
    ] {
        assert!(RefPosition::from_fen(bad).is_err(), "accepted {bad:?}");
    }
}

/// Behaviour the data files do not pin down, taken from the rules text: castling from board B
/// (docs/rules.md §1 "on the same board", §3.2) and a double step by a pawn standing on board B.
#[test]
fn rules_not_covered_by_the_data() {
    let pos = parse("4k3/8/8/8/8/8/8/4|K2|R w K - 0 1");
    let after = pos.play("e1g1", EpMode::Off).expect("castling on board B");
    assert_eq!(after.to_fen(), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
    let pos = parse("4k3/8/8/8/8/8/4|P3/4K3 w - - 0 1");
    let after = pos.play("e2e4", EpMode::Off).expect("double step from board B");
    assert_eq!(after.to_fen(), "4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1");
    // The passed-over square must be empty on the pawn's board only.
    let pos = parse("4k3/8/8/8/8/4n3/4|P3/4K3 w - - 0 1");
    assert!(pos.legal_moves(EpMode::Off).contains(&"e2e4".to_string()));
    let pos = parse("4k3/8/8/8/8/4|n3/4|P3/4K3 w - - 0 1");
    assert!(!pos.legal_moves(EpMode::Off).contains(&"e2e4".to_string()));
}
