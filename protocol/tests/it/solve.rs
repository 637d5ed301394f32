//! `vorpal solve`: every problem of the shared examples solved with exactly Popeye's solution
//! sets (from `solve-examples.tsv` and the Popeye input file end to end), tries and
//! refutations, twins, the text layout, the prunings against the plain search, and bad input.

use crate::support::harness::{run_cli, vorpal_binary};
use std::collections::BTreeMap;
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;
use vorpal_tests::data::{data_file, read_data};

const LIMIT: Duration = Duration::from_secs(120);

/// Just enough JSON to read the solver's output lines.
#[derive(Clone, Debug, PartialEq)]
enum Json {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(BTreeMap<String, Json>),
}

impl Json {
    fn parse(text: &str) -> Json {
        let chars: Vec<char> = text.chars().collect();
        let mut at = 0;
        let value = Json::value(&chars, &mut at);
        assert_eq!(at, chars.len(), "trailing text in {text}");
        value
    }

    fn value(c: &[char], at: &mut usize) -> Json {
        match c[*at] {
            '{' => {
                *at += 1;
                let mut map = BTreeMap::new();
                while c[*at] != '}' {
                    let Json::Str(key) = Json::value(c, at) else {
                        panic!("object key")
                    };
                    assert_eq!(c[*at], ':');
                    *at += 1;
                    map.insert(key, Json::value(c, at));
                    if c[*at] == ',' {
                        *at += 1;
                    }
                }
                *at += 1;
                Json::Obj(map)
            }
            '[' => {
                *at += 1;
                let mut items = Vec::new();
                while c[*at] != ']' {
                    items.push(Json::value(c, at));
                    if c[*at] == ',' {
                        *at += 1;
                    }
                }
                *at += 1;
                Json::Arr(items)
            }
            '"' => {
                *at += 1;
                let mut s = String::new();
                while c[*at] != '"' {
                    if c[*at] == '\\' {
                        *at += 1;
                    }
                    s.push(c[*at]);
                    *at += 1;
                }
                *at += 1;
                Json::Str(s)
            }
            't' => {
                *at += 4;
                Json::Bool(true)
            }
            'f' => {
                *at += 5;
                Json::Bool(false)
            }
            'n' => {
                *at += 4;
                Json::Null
            }
            _ => {
                let start = *at;
                while *at < c.len() && (c[*at].is_ascii_digit() || "-+.eE".contains(c[*at])) {
                    *at += 1;
                }
                Json::Num(c[start..*at].iter().collect::<String>().parse().unwrap())
            }
        }
    }

    fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Obj(map) => map.get(key),
            _ => None,
        }
    }

    fn str(&self) -> &str {
        match self {
            Json::Str(s) => s,
            other => panic!("not a string: {other:?}"),
        }
    }

    fn arr(&self) -> &[Json] {
        match self {
            Json::Arr(items) => items,
            other => panic!("not an array: {other:?}"),
        }
    }

    fn strs(&self) -> Vec<String> {
        self.arr().iter().map(|s| s.str().to_string()).collect()
    }
}

/// The solution set of one JSON result in the tsv's form: sorted keys, or sorted lines
/// (moves joined by spaces) for help play, joined by `|`.
fn solution_set(result: &Json) -> String {
    let mut set: Vec<String> = if let Some(keys) = result.get("keys") {
        keys.strs()
    } else {
        result
            .get("solutions")
            .expect("keys or solutions")
            .arr()
            .iter()
            .map(|line| line.strs().join(" "))
            .collect()
    };
    set.sort();
    set.join("|")
}

/// The tries of a JSON result as `move:refutation,refutation`, sorted.
fn tries(result: &Json) -> Vec<String> {
    let mut list: Vec<String> = result
        .get("tries")
        .expect("tries")
        .arr()
        .iter()
        .map(|t| {
            format!(
                "{}:{}",
                t.get("move").unwrap().str(),
                t.get("refutations").unwrap().strs().join(",")
            )
        })
        .collect();
    list.sort();
    list
}

fn json_lines(stdout: &str) -> Vec<Json> {
    stdout.lines().map(Json::parse).collect()
}

/// The tsv's rows: id, stipulation, FEN, expected solution set.
fn examples() -> Vec<[String; 4]> {
    read_data("solve-examples.tsv")
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            [f[0], f[1], f[2], f[3]].map(str::to_string)
        })
        .collect()
}

fn sort_set(set: &str) -> String {
    let mut parts: Vec<&str> = set.split('|').collect();
    parts.sort();
    parts.join("|")
}

#[test]
fn every_example_of_the_tsv_has_popeyes_solution_set() {
    let rows = examples();
    assert_eq!(rows.len(), 7);
    for [id, stip, fen, expected] in rows {
        let run = run_cli(&["solve", "--fen", &fen, "--stip", &stip, "--json"], LIMIT);
        assert!(run.status.success(), "{id}: {}", run.stderr);
        let results = json_lines(&run.stdout);
        assert_eq!(results.len(), 1, "{id}: {}", run.stdout);
        assert_eq!(results[0].get("stipulation").unwrap().str(), stip);
        assert_eq!(results[0].get("complete"), Some(&Json::Bool(true)));
        assert_eq!(solution_set(&results[0]), sort_set(&expected), "{id}");
    }
}

#[test]
fn the_prunings_agree_with_the_plain_search_on_the_examples() {
    for [id, stip, fen, _] in examples() {
        let pruned = run_cli(&["solve", "--fen", &fen, "--stip", &stip, "--json", "--tries"], LIMIT);
        let plain = run_cli(
            &[
                "solve",
                "--fen",
                &fen,
                "--stip",
                &stip,
                "--json",
                "--tries",
                "--no-pruning",
            ],
            LIMIT,
        );
        let (a, b) = (&json_lines(&pruned.stdout)[0], &json_lines(&plain.stdout)[0]);
        assert_eq!(solution_set(a), solution_set(b), "{id}");
        if a.get("tries").is_some() {
            assert_eq!(tries(a), tries(b), "{id}");
        }
    }
}

/// Popeye 4.104's output for `popeye-alice-examples.inp` (run on this machine), in UCI.
const POPEYE_TRIES_3RD: [&str; 8] = [
    "a8b6:d5b6",
    "a8c7:d5c7",
    "d7a7:b8a7",
    "d7b7:b8b7",
    "d7c7:d5c7",
    "d7c8:b8c8",
    "d7d8:b8b7",
    "d7e8:b8b7",
];
const POPEYE_TRIES_7TH: [&str; 8] = [
    "c6b4:d3c3",
    "c6e5:f6e5",
    "d7c8:h6g4",
    "d7e7:d8c6",
    "d7f5:h6f5",
    "d7g4:h6g4",
    "e6c5:a7c5",
    "e6f4:d3e4",
];

#[test]
fn the_popeye_example_file_is_solved_end_to_end() {
    let file = data_file("popeye-alice-examples.inp");
    // The proof game (problem 1) is solved completely: exactly Popeye's one game.
    let run = run_cli(&["solve", file.to_str().unwrap(), "--json"], LIMIT);
    assert_eq!(run.status.code(), Some(0), "{}", run.stderr);
    let results = json_lines(&run.stdout);
    assert_eq!(results.len(), 8, "{}", run.stdout);
    assert_eq!(results[0].get("stipulation").unwrap().str(), "dia10.5");
    let popeye_game = read_data("solve-proofgame.tsv").split('\t').nth(3).unwrap().to_string();
    assert_eq!(results[0].get("complete"), Some(&Json::Bool(true)));
    assert_eq!(solution_set(&results[0]), popeye_game);
    let expected: BTreeMap<&str, String> = examples()
        .iter()
        .map(|[id, _, _, set]| (leak(id), sort_set(set)))
        .collect();
    let order = [
        ("andernach2", 2, None),
        ("andernach3a", 3, Some("a")),
        ("andernach3b", 3, Some("b")),
        ("andernach4", 4, None),
        ("andernach5", 5, None),
        ("andernach6", 6, None),
        ("andernach7", 7, None),
    ];
    for (result, (id, problem, twin)) in results[1..].iter().zip(order) {
        assert_eq!(result.get("problem"), Some(&Json::Num(problem as f64)), "{id}");
        assert_eq!(result.get("twin").map(|t| t.str()), twin, "{id}");
        assert_eq!(solution_set(result), expected[id], "{id}");
    }
    // `option try vari`: the tries and their refutations, as Popeye lists them.
    assert_eq!(tries(&results[1]), POPEYE_TRIES_3RD);
    assert_eq!(tries(&results[6]), POPEYE_TRIES_7TH);
}

fn leak(s: &str) -> &'static str {
    Box::leak(s.to_string().into_boxed_str())
}

fn solve_text(problem: &str, extra: &[&str]) -> (i32, String, String) {
    let dir = std::env::temp_dir().join(format!("vorpal-solve-{}-{}", std::process::id(), problem.len()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("p{}.inp", problem.bytes().map(u64::from).sum::<u64>()));
    std::fs::write(&path, problem).unwrap();
    let mut args = vec!["solve", path.to_str().unwrap()];
    args.extend_from_slice(extra);
    let run = run_cli(&args, LIMIT);
    let _ = std::fs::remove_file(&path);
    (run.status.code().unwrap_or(-1), run.stdout, run.stderr)
}

#[test]
fn text_output_follows_popeyes_layout() {
    let problem = "begin\nauthor Ralf Kraetschmer\npieces white kd1 qd7 rh4 ba5 pa4d4d5d6e4f2 white AliceB sc6e6 pb3e2\n       black kd3 ra3g8 ba7b1 pb7f6 black AliceB sd8h6 pa6h3\nstipulation #2\noption try vari\nend\n";
    let (code, out, err) = solve_text(problem, &[]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    let key = lines.iter().position(|l| *l == "   1.Qe8 ! threat:").expect(&out);
    assert_eq!(
        lines[key + 1..key + 6],
        [
            "          2.Nf4/A#",
            "      1...Nxc6/A",
            "          2.Qb5/A#",
            "      1...Nxe6/A",
            "          2.Qe3/A#"
        ]
    );
    assert!(out.contains("\n   1.Nb4/A+ ?\n    but\n      1...Kc3 !\n"), "{out}");
    assert!(out.contains("  Ralf Kraetschmer\n"));
    assert!(out.contains("Board A") && out.contains("Board B"));
    assert!(lines.last().unwrap().starts_with("1 solution, "), "{out}");
    // Helpmates: Popeye's numbering, the half move as `1...`.
    let run = run_cli(
        &[
            "solve",
            "--fen",
            "5K2/8/8/8/|R2P4/|b4P2/8/2|rk|r2|B w - - 0 1",
            "--stip",
            "h#2.5",
        ],
        LIMIT,
    );
    assert!(
        run.stdout.contains("\n  1...Be4/A   2.Bb2/A Bd3   3.Bxd4 Rxd4/A#\n"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("\n  1...Re4/A   2.Rf1/A Re2   3.Rxf3 Bxf3/A#\n"),
        "{}",
        run.stdout
    );
}

#[test]
fn self_mates_show_their_tree_with_variations() {
    let problem = "begin\npieces white Kd7 Qc1 Pb4 white AliceB Pd3 black Re2 Ra3 black AliceB Kd8 Bd2 Qe7\nstip s#2\noption vari\nend\n";
    let (code, out, err) = solve_text(problem, &[]);
    assert_eq!(code, 0, "{err}");
    // The key, then the defender's forced mate (without `vari` only the key).
    assert!(out.contains("\n   1.Qc7+ !\n      1...Qxc7/A#\n"), "{out}");
    let (_, plain, _) = solve_text(&problem.replace("option vari\n", ""), &[]);
    assert!(
        plain.contains("\n   1.Qc7+ !\n") && !plain.contains("1...Qxc7/A#"),
        "{plain}"
    );
}

/// The solution set of `--fen` with `stip`, for comparing twins with their positions.
fn fen_set(fen: &str, stip: &str) -> String {
    let run = run_cli(&["solve", "--fen", fen, "--stip", stip, "--json"], LIMIT);
    assert!(run.status.success(), "{}", run.stderr);
    solution_set(&json_lines(&run.stdout)[0])
}

#[test]
fn twins_solve_the_changed_positions() {
    // Caillaud's h#2 and four twins: each must solve as its edited position does.
    let problem = "begin\npieces white ka1 qc5 white AliceB rc3 black AliceB ke5 pd2\nstip h#2\n\
                   twin move a1 a2\ntwin exchange c5 c3\ntwin remove c3 add white AliceB rb3\n\
                   twin cont stipulation h#1.5\nend\n";
    let (code, out, err) = solve_text(problem, &["--json"]);
    assert_eq!(code, 0, "{err}");
    let results = json_lines(&out);
    let twins: Vec<&str> = results.iter().map(|r| r.get("twin").unwrap().str()).collect();
    assert_eq!(twins, ["a", "b", "c", "d", "e"]);
    let expected = [
        fen_set("8/8/8/2Q1|k3/8/2|R5/3|p4/K7 b - - 0 1", "h#2"),
        fen_set("8/8/8/2Q1|k3/8/2|R5/K2|p4/8 b - - 0 1", "h#2"),
        fen_set("8/8/8/2|R1|k3/8/2Q5/3|p4/K7 b - - 0 1", "h#2"),
        fen_set("8/8/8/2Q1|k3/8/1|R6/3|p4/K7 b - - 0 1", "h#2"),
        fen_set("8/8/8/2Q1|k3/8/1|R6/3|p4/K7 w - - 0 1", "h#1.5"),
    ];
    for (i, (result, set)) in results.iter().zip(&expected).enumerate() {
        assert_eq!(&solution_set(result), set, "twin {}", twins[i]);
    }
    assert_eq!(expected[0], "e5e4 c5e5 d2d1b c3e3|e5f4 c5f5 d2d1n c3f3");
    assert_eq!(results[4].get("stipulation").unwrap().str(), "h#1.5");
}

#[test]
fn bad_problems_name_line_and_word_and_the_others_are_solved() {
    let problem = "begin\npieces white ka1 qc5 white AliceB rc3 black AliceB ke5 pd2\nstip h#2\nfrobnicate 3\n\
                   next\npieces white ka1 kb1 black ke8\nstip #1\n\
                   next\npieces white ka1 qc5 white AliceB rc3 black AliceB ke5 pc5\nstip h#2\n\
                   next\npieces white ka1 rh8 black kh1\nstip #1\n\
                   next\npieces white ka1 black kh8\nstip #2.7\n\
                   next\npieces white ka1 qc5 white AliceB rc3 black AliceB ke5 pd2\nstip h#2\nend\n";
    let (code, out, err) = solve_text(problem, &["--json"]);
    assert_eq!(code, 1, "{err}");
    let results = json_lines(&out);
    assert_eq!(results.len(), 6, "{out}");
    let errors: Vec<String> = results[..5]
        .iter()
        .map(|r| r.get("error").unwrap().str().to_string())
        .collect();
    let expected = [
        ("line 4", "'frobnicate'", "unknown keyword"),
        ("line 6", "'kb1'", "second king"),
        ("line 9", "'pc5'", "both boards"),
        ("line 13", "'#1'", "not to move"),
        ("line 16", "'#2.7'", "malformed"),
    ];
    for (error, (line, word, what)) in errors.iter().zip(expected) {
        assert!(
            error.contains(line) && error.contains(word) && error.contains(what),
            "{error}"
        );
    }
    assert_eq!(solution_set(&results[5]), "e5e4 c5e5 d2d1b c3e3|e5f4 c5f5 d2d1n c3f3");
    // Text mode: the errors go to stderr, the good problem to stdout.
    let (code, out, err) = solve_text(problem, &[]);
    assert_eq!(code, 1);
    assert_eq!(err.matches("error: problem").count(), 5, "{err}");
    assert!(out.contains("2 solutions, "), "{out}");
    // Bad command lines and FENs.
    assert_eq!(run_cli(&["solve"], LIMIT).status.code(), Some(2), "a bad command line");
    for args in [
        &["solve", "--fen", "8/8/8/8/8/8/8/K6k w - - 0 1", "--stip", "h#"][..],
        &["solve", "--fen", "8/8/8/8/8/8/8/K6K w - - 0 1", "--stip", "#1"],
        &["solve", "/nonexistent/problem.inp"],
    ] {
        let run = run_cli(args, LIMIT);
        assert_eq!(run.status.code(), Some(1), "{args:?}");
        assert!(run.stderr.contains("error"), "{args:?}: {}", run.stderr);
    }
    let (code, _, err) = solve_text("begin\nend\n", &[]);
    assert_eq!(code, 1);
    assert!(err.contains("holds no problem"), "{err}");
}

#[test]
fn limits_stop_early_and_say_so() {
    let fen = "2|B5/2|b|N2p1/2|p5/2pk2p|K/|p4|B|N|R/3|p2|p1/5p2/r3|n3 b - - 0 1";
    let run = run_cli(
        &["solve", "--fen", fen, "--stip", "h#2", "--maxsolutions", "1", "--json"],
        LIMIT,
    );
    let result = &json_lines(&run.stdout)[0];
    assert_eq!(result.get("solutions").unwrap().arr().len(), 1);
    assert_eq!(result.get("complete"), Some(&Json::Bool(false)));
}

#[test]
fn a_closed_pipe_is_not_a_panic() {
    let file = data_file("popeye-alice-examples.inp");
    let mut child = Command::new(vorpal_binary())
        .args(["solve", file.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let _ = child.stdin.take().map(|mut s| s.flush());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    // The solver stops once nobody reads, with the closed-output status of every command.
    assert_eq!(out.status.code(), Some(141));
}

#[test]
fn max_time_stops_a_long_solve() {
    // A helpmate in six from a crowded position: far beyond one second.
    let fen = "2|B5/2|b|N2p1/2|p5/2pk2p|K/|p4|B|N|R/3|p2|p1/5p2/r3|n3 b - - 0 1";
    let run = run_cli(
        &["solve", "--fen", fen, "--stip", "h#6", "--maxtime", "1", "--json"],
        LIMIT,
    );
    assert!(run.status.success(), "{}", run.stderr);
    let result = &json_lines(&run.stdout)[0];
    assert_eq!(result.get("complete"), Some(&Json::Bool(false)));
    // Without a terminal the progress line needs --progress; with it, it comes once a second.
    // (--no-short: the text of the hundred thousand short lines found in two seconds would
    // take longer to write than the search.)
    let run = run_cli(
        &[
            "solve",
            "--fen",
            fen,
            "--stip",
            "h#6",
            "--maxtime",
            "2",
            "--progress",
            "--no-short",
        ],
        LIMIT,
    );
    assert!(run.stderr.contains("solving problem 1: "), "{}", run.stderr);
    assert!(run.stdout.contains("stopped early"), "{}", run.stdout);
}

#[test]
fn option_enpassant_and_the_ep_mode() {
    // Black has just played d7-d5 (the pawn went to board B); only 1.exd6 e.p. mates.
    let problem = "begin\npieces white Rb8 white AliceB Ke3 Rd2 Pe5 black Rf1 black AliceB Kd8 Pd5\n\
                   stip #1\noption enpassant d7 d6 d5\nend\n";
    let (code, out, err) = solve_text(problem, &["--json"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(solution_set(&json_lines(&out)[0]), "e5d6");
    // `--ep off` overrides the option: no en passant, no mate.
    let (_, out, _) = solve_text(problem, &["--json", "--ep", "off"]);
    assert_eq!(solution_set(&json_lines(&out)[0]), "");
    // The same with a FEN.
    let fen = "1R1|k4/8/8/3|p|P3/8/4|K3/3|R4/5r2 w - d6 0 1";
    assert_eq!(fen_set(fen, "#1"), "");
    let run = run_cli(
        &["solve", "--fen", fen, "--stip", "#1", "--ep", "normal", "--json"],
        LIMIT,
    );
    assert_eq!(solution_set(&json_lines(&run.stdout)[0]), "e5d6");
}

#[test]
fn castling_rights_follow_the_diagram_and_option_nocastling() {
    // King and rook on their start squares of one board may castle: 1.O-O mates on board B.
    let problem = "begin\npieces white Ke1 Rh1 Re3 white AliceB Rg2 black AliceB Kf3\nstip #1\nnext\n\
                   pieces white Ke1 Rh1 Re3 white AliceB Rg2 black AliceB Kf3\nstip #1\noption nocastling h1\nend\n";
    let (code, out, err) = solve_text(problem, &["--json"]);
    assert_eq!(code, 0, "{err}");
    let results = json_lines(&out);
    assert_eq!(solution_set(&results[0]), "e1g1");
    assert_eq!(solution_set(&results[1]), "");
    assert_eq!(fen_set("8/8/8/8/8/4R|k2/6|R1/4K2R w K - 0 1", "#1"), "e1g1");
}

#[test]
fn threads_change_neither_the_solutions_nor_one_thread_node_counts() {
    for [id, stip, fen, expected] in examples() {
        let one = |n: &str| {
            let run = run_cli(
                &["solve", "--fen", &fen, "--stip", &stip, "--json", "--threads", n],
                LIMIT,
            );
            json_lines(&run.stdout).remove(0)
        };
        let (a, b, c) = (one("1"), one("1"), one("3"));
        assert_eq!(solution_set(&a), sort_set(&expected), "{id}");
        assert_eq!(solution_set(&c), sort_set(&expected), "{id}");
        assert_eq!(a.get("nodes"), b.get("nodes"), "{id}: one thread is deterministic");
    }
}
