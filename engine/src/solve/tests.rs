//! Solver tests on problems whose complete solution sets are written out, and the exact
//! prunings checked against the plain full-width search.

use super::*;
use crate::types::Move;
use crate::Rules;

fn position(fen: &str) -> Position {
    Position::from_fen(fen, Rules::default()).unwrap()
}

fn run(fen: &str, stip: &str, options: &SolveOptions) -> Solved {
    let pos = position(fen);
    solve(&pos, &stip.parse().unwrap(), options, &SolveControl::new(None))
}

/// The solution set in UCI: sorted keys, or sorted helpmate lines joined by spaces.
fn uci_set(fen: &str, solved: &Solved) -> Vec<String> {
    let pos = position(fen);
    let mut set: Vec<String> = match &solved.solution {
        Solution::Direct(d) => d.keys.iter().map(|k| pos.move_to_uci(k.mv)).collect(),
        Solution::Help(h) => h
            .lines
            .iter()
            .map(|line| {
                let mut p = pos;
                let mut words = Vec::new();
                for &m in line {
                    words.push(p.move_to_uci(m));
                    p = p.after(m);
                }
                words.join(" ")
            })
            .collect(),
    };
    set.sort();
    set
}

fn solutions(fen: &str, stip: &str) -> Vec<String> {
    let solved = run(fen, stip, &SolveOptions::default());
    assert!(solved.complete);
    uci_set(fen, &solved)
}

#[test]
fn helpmate_with_two_promotions() {
    // Caillaud, Andernach 2025, 5th place: two solutions, bishop and knight promotions.
    let fen = "8/8/8/2Q1|k3/8/2|R5/3|p4/K7 b - - 0 1";
    assert_eq!(solutions(fen, "h#2"), ["e5e4 c5e5 d2d1b c3e3", "e5f4 c5f5 d2d1n c3f3"]);
}

#[test]
fn direct_mate_in_two_with_one_key() {
    // Kratschmer, Pachl, Rittirsch, Andernach 2025, 7th place.
    let fen = "3|n2r1/bp1Q4/|p1|NP|Np1|n/B2P4/P2PP2R/r|P1k3|p/4|PP2/1b1K4 w - - 0 1";
    assert_eq!(solutions(fen, "#2"), ["d7e8"]);
}

/// Problems for the pruning comparison (the Andernach 2025 examples, and a stalemate).
const CASES: [(&str, &str); 7] = [
    (
        "|Nk6/|b2|Qp3/1|p2P1|p1/1|P1nK3/|r2p|p|P1|B/2|PP|P3/b1P5/8 w - - 0 1",
        "#3",
    ),
    ("5|k2/4r|Bb1/4P1P1/3b4/6p1/3p2P1/3r2R1/7K b - - 0 1", "h#2"),
    (
        "2|B5/2|b|N2p1/2|p5/2pk2p|K/|p4|B|N|R/3|p2|p1/5p2/r3|n3 b - - 0 1",
        "h#2",
    ),
    ("5K2/8/8/8/|R2P4/|b4P2/8/2|rk|r2|B w - - 0 1", "h#2.5"),
    (
        "3|n2r1/bp1Q4/|p1|NP|Np1|n/B2P4/P2PP2R/r|P1k3|p/4|PP2/1b1K4 w - - 0 1",
        "#2",
    ),
    ("8/8/8/2Q1|k3/8/2|R5/3|p4/K7 b - - 0 1", "h=2"),
    ("k7/8/8/8/8/8/8/1Q2K3 w - - 0 1", "=1"),
];

#[test]
fn the_prunings_lose_no_solution() {
    let plain = SolveOptions {
        pruning: false,
        tries: true,
        ..SolveOptions::default()
    };
    let pruned = SolveOptions {
        tries: true,
        ..SolveOptions::default()
    };
    for (fen, stip) in CASES {
        let with = run(fen, stip, &pruned);
        let without = run(fen, stip, &plain);
        assert_eq!(with.solution, without.solution, "{stip} {fen}");
        assert!(
            with.nodes <= without.nodes,
            "{stip}: {} > {}",
            with.nodes,
            without.nodes
        );
    }
}

#[test]
fn tries_and_refutations_of_the_mate_in_two() {
    let fen = CASES[4].0;
    let pos = position(fen);
    let options = SolveOptions {
        tries: true,
        ..SolveOptions::default()
    };
    let Solution::Direct(direct) = run(fen, "#2", &options).solution else {
        panic!("a #2 has keys")
    };
    let mut tries: Vec<String> = direct
        .tries
        .iter()
        .map(|t| {
            let refutations: Vec<String> = t.refutations.iter().map(|&r| pos.after(t.mv).move_to_uci(r)).collect();
            format!("{} {}", pos.move_to_uci(t.mv), refutations.join(","))
        })
        .collect();
    tries.sort();
    // Popeye 4.104's tries for this problem.
    assert_eq!(
        tries,
        [
            "c6b4 d3c3",
            "c6e5 f6e5",
            "d7c8 h6g4",
            "d7e7 d8c6",
            "d7f5 h6f5",
            "d7g4 h6g4",
            "e6c5 a7c5",
            "e6f4 d3e4"
        ]
    );
}

/// Checks keys of `=n`/`#n` with `n = 1` against the definition: after a key the defender has
/// no move and is (for `#`) or is not (for `=`) in check; after every other move it has one.
#[test]
fn one_movers_match_the_definition() {
    for (fen, stip) in [
        (CASES[6].0, "=1"),
        (CASES[0].0, "#1"),
        ("k7/8/8/8/8/8/8/1Q2K3 w - - 0 1", "#1"),
    ] {
        let pos = position(fen);
        let goal_mate = stip.starts_with('#');
        let expected: Vec<String> = pos
            .legal_moves()
            .into_iter()
            .filter(|&m| {
                let q = pos.after(m);
                q.legal_moves().is_empty() && q.in_check() == goal_mate
            })
            .map(|m| pos.move_to_uci(m))
            .collect();
        let mut expected = expected;
        expected.sort();
        assert_eq!(solutions(fen, stip), expected, "{stip} {fen}");
    }
    assert_eq!(solutions(CASES[6].0, "=1"), ["b1b6", "b1b7", "b1b8"]);
}

/// Self mates against the definition, by a plain recursive check written from it.
#[test]
fn self_mates_match_the_definition() {
    fn forced(pos: &Position, n: u32) -> bool {
        // White to move makes Black mate White within n moves.
        pos.legal_moves().into_iter().any(|m| black_must_mate(&pos.after(m), n))
    }
    fn black_must_mate(q: &Position, n: u32) -> bool {
        let replies = q.legal_moves();
        !replies.is_empty()
            && replies.into_iter().all(|d| {
                let r = q.after(d);
                (r.in_check() && r.legal_moves().is_empty()) || (n > 1 && forced(&r, n - 1))
            })
    }
    let fens = [
        // Found by a scan of random positions (each has one key).
        "8/3q4/r7/3|Q4/4P3/5|p|R1/k|K6/8 w - - 0 1",
        "5|n2/1P6/1q6/8/7|n/8/k5|Q1/1|K|N5 w - - 0 1",
        "3b4/N7/|N|K6/6q|Q/2k5/8/8/|B7 w - - 0 1",
        CASES[3].0,
    ];
    let mut found = 0;
    for fen in fens {
        let pos = position(fen);
        let expected: Vec<String> = {
            let mut v: Vec<String> = pos
                .legal_moves()
                .into_iter()
                .filter(|&m| black_must_mate(&pos.after(m), 1))
                .map(|m| pos.move_to_uci(m))
                .collect();
            v.sort();
            v
        };
        found += expected.len();
        assert_eq!(solutions(fen, "s#1"), expected, "{fen}");
        assert_eq!(forced(&pos, 1), !expected.is_empty());
    }
    assert_eq!(found, 3);
}

/// Help play against a plain enumeration written from the definition: every sequence of the
/// stipulated number of legal moves whose last move leaves the opponent mated (stalemated).
#[test]
fn helpmates_match_a_plain_enumeration() {
    fn lines(pos: &Position, plies: u32, mate: bool, line: &mut Vec<String>, out: &mut Vec<String>) {
        for m in pos.legal_moves() {
            let next = pos.after(m);
            line.push(pos.move_to_uci(m));
            if plies == 1 {
                if next.legal_moves().is_empty() && next.in_check() == mate {
                    out.push(line.join(" "));
                }
            } else {
                lines(&next, plies - 1, mate, line, out);
            }
            line.pop();
        }
    }
    // The solver's lines of `stip` in `fen` against the plain enumeration; returns their count.
    let check = |fen: &str, stip: &str| {
        let s: Stipulation = stip.parse().unwrap();
        let mut expected = Vec::new();
        lines(
            &position(fen),
            s.plies(),
            s.goal == Goal::Mate,
            &mut Vec::new(),
            &mut expected,
        );
        expected.sort();
        assert_eq!(solutions(fen, stip), expected, "{stip} {fen}");
        expected.len()
    };
    let mut total = 0;
    for (fen, _) in &CASES[..6] {
        for stip in ["h#1", "h#1.5", "h=1", "h=1.5"] {
            total += check(fen, stip);
        }
    }
    // Four plies in the small position: its two h#2 solutions and its h=2 lines.
    for stip in ["h#2", "h=2"] {
        total += check(CASES[5].0, stip);
    }
    assert!(total > 10, "only {total} lines in all");
}

/// Direct mates and their tries against a plain search written from the definition.
#[test]
fn direct_mates_and_tries_match_a_plain_search() {
    fn wins(pos: &Position, n: u32) -> bool {
        n > 0 && pos.legal_moves().into_iter().any(|m| loses(&pos.after(m), n))
    }
    fn loses(q: &Position, n: u32) -> bool {
        let replies = q.legal_moves();
        if replies.is_empty() {
            return q.in_check();
        }
        replies.into_iter().all(|d| wins(&q.after(d), n - 1))
    }
    let options = SolveOptions {
        tries: true,
        ..SolveOptions::default()
    };
    for fen in [CASES[0].0, CASES[4].0, CASES[6].0] {
        let pos = position(fen);
        for n in 1..=2 {
            let mut keys = Vec::new();
            let mut tries = Vec::new();
            for m in pos.legal_moves() {
                let q = pos.after(m);
                if loses(&q, n) {
                    keys.push(pos.move_to_uci(m));
                    continue;
                }
                let refutations: Vec<String> = q
                    .legal_moves()
                    .into_iter()
                    .filter(|&d| !wins(&q.after(d), n - 1))
                    .map(|d| q.move_to_uci(d))
                    .collect();
                if refutations.len() == 1 {
                    tries.push(format!("{} {}", pos.move_to_uci(m), refutations[0]));
                }
            }
            keys.sort();
            tries.sort();
            let stip = format!("#{n}");
            let Solution::Direct(found) = run(fen, &stip, &options).solution else {
                panic!("direct play")
            };
            let mut found_keys: Vec<String> = found.keys.iter().map(|k| pos.move_to_uci(k.mv)).collect();
            found_keys.sort();
            let mut found_tries: Vec<String> = found
                .tries
                .iter()
                .map(|t| {
                    format!(
                        "{} {}",
                        pos.move_to_uci(t.mv),
                        pos.after(t.mv).move_to_uci(t.refutations[0])
                    )
                })
                .collect();
            found_tries.sort();
            assert_eq!(found_keys, keys, "{stip} {fen}");
            assert_eq!(found_tries, tries, "{stip} {fen}");
        }
    }
}

/// The lines (or keys) of a solution as sorted UCI strings, short solutions marked `short:`;
/// series lines are played with the other side passing between the series moves.
fn full_set(fen: &str, stip: &str, solved: &Solved) -> Vec<String> {
    let pos = position(fen);
    let stipulation: Stipulation = stip.parse().unwrap();
    let text = |line: &Vec<Move>| {
        line_positions(&pos, &stipulation, line)
            .iter()
            .zip(line)
            .map(|(p, &m)| p.move_to_uci(m))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut set: Vec<String> = match &solved.solution {
        Solution::Direct(d) => d
            .keys
            .iter()
            .map(|k| pos.move_to_uci(k.mv))
            .chain(d.forced.iter().map(|&m| format!("forced:{}", pos.move_to_uci(m))))
            .collect(),
        Solution::Help(h) => h
            .lines
            .iter()
            .map(text)
            .chain(h.short.iter().map(|l| format!("short:{}", text(l))))
            .collect(),
    };
    set.sort();
    set
}

/// Positions and stipulations of the new plays, whose solution sets are not empty (the series
/// and reflex ones are Popeye 4.104's, see `tests/data/solve-popeye-more.tsv`).
const NEW_PLAYS: [(&str, &str); 8] = [
    ("7k/8/5K2/4r3/8/8/5Q2/8 w - - 0 1", "ser-#3"),
    ("8/8/6p1/8/8/8/1|Q5|K/k7 w - - 0 1", "ser-=3"),
    ("8/8/8/2Q1|k3/8/2|R5/3|p4/K7 b - - 0 1", "ser-h#2"),
    ("8/8/8/2Q1|k3/8/2|R5/3|p4/K7 b - - 0 1", "h#2"),
    ("8/8/8/2Q1|k3/8/2|R5/3|p4/K7 w - - 0 1", "hs#2"),
    ("8/8/8/2Q1|k3/8/2|R5/3|p4/K7 w - - 0 1", "r#2"),
    ("8/8/8/8/8/R6R/4|K3/6|k1 w - - 0 1", "r#2"),
    ("8/8/8/2Q1|k3/8/2|R5/3|p4/K7 w - - 0 1", "semi-r#2"),
];

#[test]
fn the_new_plays_agree_with_the_plain_search() {
    let plain = SolveOptions {
        pruning: false,
        ..SolveOptions::default()
    };
    for (fen, stip) in NEW_PLAYS {
        let with = run(fen, stip, &SolveOptions::default());
        let without = run(fen, stip, &plain);
        assert!(with.complete && without.complete);
        assert_eq!(
            full_set(fen, stip, &with),
            full_set(fen, stip, &without),
            "{stip} {fen}"
        );
    }
    // The reflex mate whose attacker can mate at once has no key, only its forced mates.
    let (fen, stip) = NEW_PLAYS[6];
    let set = full_set(fen, stip, &run(fen, stip, &SolveOptions::default()));
    assert_eq!(set, ["forced:a3g3"]);
}

#[test]
fn short_solutions_are_the_shorter_lines_of_the_same_play() {
    // Caillaud's h#2 as h#3: its short solutions are exactly the h#2 and h#1 lines.
    let fen = "8/8/8/2Q1|k3/8/2|R5/3|p4/K7 b - - 0 1";
    let no_short = SolveOptions {
        short: false,
        ..SolveOptions::default()
    };
    let Solution::Help(h3) = run(fen, "h#3", &SolveOptions::default()).solution else {
        panic!("help play has lines")
    };
    let mut shorter = Vec::new();
    for stip in ["h#1", "h#2"] {
        let Solution::Help(h) = run(fen, stip, &no_short).solution else {
            panic!("help play has lines")
        };
        shorter.extend(h.lines);
    }
    let key = |lines: &[Vec<Move>]| {
        let mut v: Vec<String> = lines.iter().map(|l| format!("{l:?}")).collect();
        v.sort();
        v
    };
    assert_eq!(key(&h3.short), key(&shorter));
    assert_eq!(h3.short.len(), 2);
    // Without short solutions only the full-length lines remain.
    let Solution::Help(plain) = run(fen, "h#3", &no_short).solution else {
        panic!("help play has lines")
    };
    assert_eq!(key(&plain.lines), key(&h3.lines));
    assert!(plain.short.is_empty());
    // Series: ser-#3 lists the ser-#1 and ser-#2 lines as short solutions.
    let fen = NEW_PLAYS[0].0;
    let Solution::Help(s3) = run(fen, "ser-#3", &SolveOptions::default()).solution else {
        panic!("series play has lines")
    };
    let mut shorter = Vec::new();
    for stip in ["ser-#1", "ser-#2"] {
        let Solution::Help(h) = run(fen, stip, &no_short).solution else {
            panic!("series play has lines")
        };
        shorter.extend(h.lines);
    }
    assert_eq!(key(&s3.short), key(&shorter));
}

/// The position after `moves` (UCI) from the start position.
fn after_moves(moves: &[&str]) -> Position {
    let mut p = Position::start(Rules::default());
    for m in moves {
        p = p.after(p.parse_uci(m).unwrap());
    }
    p
}

#[test]
fn proof_games_agree_with_the_plain_search() {
    // Short games whose diagrams can be reached by several move orders and piece routes.
    for (moves, stip) in [
        (&["e2e4", "d7d5", "f1b5"][..], "dia1.5"),
        (&["g1f3", "b8c6", "f3g1", "c6b8"][..], "dia2"),
        (&["e2e4", "e7e5", "d1h5", "e8e7"][..], "dia2"),
    ] {
        let target = after_moves(moves);
        let stipulation: Stipulation = stip.parse().unwrap();
        let solve_with = |pruning| {
            let options = SolveOptions {
                pruning,
                ..SolveOptions::default()
            };
            let solved = solve(&target, &stipulation, &options, &SolveControl::new(None));
            let Solution::Help(h) = solved.solution else {
                panic!("proof games have lines")
            };
            let start = Position::start(Rules::default());
            let mut lines: Vec<String> = h
                .lines
                .iter()
                .chain(&h.short)
                .map(|l| {
                    let mut p = start;
                    l.iter()
                        .map(|&m| {
                            let t = p.move_to_uci(m);
                            p = p.after(m);
                            t
                        })
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect();
            lines.sort();
            (lines, solved.nodes)
        };
        let (pruned, pruned_nodes) = solve_with(true);
        let (plain, plain_nodes) = solve_with(false);
        assert_eq!(pruned, plain, "{moves:?}");
        assert!(pruned.contains(&moves.join(" ")), "{pruned:?}");
        assert!(pruned_nodes < plain_nodes);
    }
    // The start position as the diagram of dia2: the knights' round trips (two moves bring
    // a piece back to its board), and the empty game as the short solution of length 0.
    let start = Position::start(Rules::default());
    let solved = solve(
        &start,
        &"dia2".parse().unwrap(),
        &SolveOptions::default(),
        &SolveControl::new(None),
    );
    let Solution::Help(h) = solved.solution else {
        panic!("proof games have lines")
    };
    assert_eq!(h.short, vec![Vec::<Move>::new()]);
    assert!(!h.lines.is_empty());
    for line in &h.lines {
        assert_eq!(line.len(), 4);
    }
}

#[test]
fn threat_option_keeps_only_checks_and_short_threats() {
    // Popeye's `Threat t` (its own output in tests/data/popeye/threat.out): with t = 0 or 1 the
    // zugzwang key Rh8 of this two-mover goes and the checking key Ra1 stays; with t = 2 no
    // move has two moves after it, so nothing is left out.
    let fen = "8/kP6/2K5/8/8/8/8/7|R w - - 0 1";
    let keys = |t: Option<u32>| {
        let options = SolveOptions {
            max_threat: t,
            ..SolveOptions::default()
        };
        uci_set(fen, &run(fen, "#2", &options))
    };
    assert_eq!(keys(None), ["h1a1", "h1h8"]);
    assert_eq!(keys(Some(0)), ["h1a1"]);
    assert_eq!(keys(Some(1)), ["h1a1"]);
    assert_eq!(keys(Some(2)), ["h1a1", "h1h8"]);
}
