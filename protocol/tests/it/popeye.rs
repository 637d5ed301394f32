//! `vorpal popeye` against Popeye 4.104's own output: the inputs of `tests/data/popeye/*.inp`
//! were solved by Popeye 4.104 (built from its public source with `make -f makefile.unx`)
//! into the `*.out` fixtures; the text must match line for line, the first line and the
//! times masked and sibling lines (keys and tries, variations, help lines) in any order. Then
//! the binary as Olive starts it (a symlink named `py`, `-maxmem 1024M FILE`, CRLF input) and
//! bad input (an unknown keyword, a broken piece list, a 1 MB line, binary bytes).

use crate::support::harness::{run_cli, vorpal_binary};
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

const LIMIT: Duration = Duration::from_secs(60);

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/popeye")
        .join(name)
}

/// One line and the lines indented deeper under it.
struct Node {
    line: String,
    children: Vec<Node>,
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// Reads lines indented deeper than `depth` into nodes, each with its subtree.
fn forest(lines: &[String], at: &mut usize, depth: Option<usize>) -> Vec<Node> {
    let mut nodes = Vec::new();
    while *at < lines.len() && depth.is_none_or(|d| indent(&lines[*at]) > d) {
        let line = lines[*at].clone();
        *at += 1;
        let children = forest(lines, at, Some(indent(&line)));
        nodes.push(Node { line, children });
    }
    nodes
}

/// A node's text with its children in sorted order.
fn canonical(node: &Node) -> String {
    let mut children: Vec<String> = node.children.iter().map(canonical).collect();
    children.sort();
    let mut text = node.line.clone();
    for child in children {
        text.push('\n');
        text.push_str(&child);
    }
    text
}

/// The page with the first line and the times masked, as paragraphs (the blank lines before
/// each kept as `<n>`), each paragraph's tree in sorted order, help and series lines sorted,
/// and runs of key and try paragraphs (`   1.`) in sorted order.
fn normalised(page: &str) -> Vec<String> {
    let mut paragraphs: Vec<String> = Vec::new();
    let mut current: Vec<String> = Vec::new();
    let mut blanks = 0;
    let flush = |current: &mut Vec<String>, paragraphs: &mut Vec<String>| {
        if current.len() > 1 {
            let mut at = 1;
            let nodes = forest(current, &mut at, None);
            let mut parts: Vec<String> = nodes.iter().map(canonical).collect();
            // Solution lines (help lines, set play defences) in any order, each run of them
            // apart (a notice such as `SetPlay not applicable - ignored` may close one); the
            // header and the diagram as they are.
            let is_solution =
                |n: &Node| n.line.trim_start().starts_with(|c: char| c.is_ascii_digit()) && indent(&n.line) >= 2;
            let mut start = 0;
            while start < nodes.len() {
                let end = start + nodes[start..].iter().take_while(|n| is_solution(n)).count();
                parts[start..end].sort();
                start = end + 1;
            }
            paragraphs.push(format!("{}\n{}", current[0], parts.join("\n")));
        }
        current.clear();
    };
    for line in page.lines().skip(1) {
        let line = match line.find("Time = ") {
            Some(i) => format!("{}Time = _", &line[..i]),
            None => line.trim_end_matches('\r').to_string(),
        };
        if line.trim().is_empty() {
            flush(&mut current, &mut paragraphs);
            blanks += 1;
        } else {
            if current.is_empty() {
                current.push(format!("<{blanks}>"));
                blanks = 0;
            }
            current.push(line);
        }
    }
    flush(&mut current, &mut paragraphs);
    paragraphs.push(format!("<{blanks}>"));
    let is_key = |p: &str| p.lines().nth(1).is_some_and(|l| l.starts_with("   1."));
    let mut out: Vec<String> = Vec::new();
    let mut run: Vec<String> = Vec::new();
    // A run of key paragraphs: the contents sorted, the blank lines before each kept in place.
    let flush_run = |run: &mut Vec<String>, out: &mut Vec<String>| {
        let split = |p: &String| -> (String, String) {
            let (blanks, rest) = p.split_once('\n').unwrap_or((p, ""));
            (blanks.to_string(), rest.to_string())
        };
        let blanks: Vec<String> = run.iter().map(|p| split(p).0).collect();
        let mut contents: Vec<String> = run.iter().map(|p| split(p).1).collect();
        contents.sort();
        out.extend(blanks.into_iter().zip(contents).map(|(b, c)| format!("{b}\n{c}")));
        run.clear();
    };
    for p in paragraphs {
        if is_key(&p) {
            run.push(p);
        } else {
            flush_run(&mut run, &mut out);
            out.push(p);
        }
    }
    flush_run(&mut run, &mut out);
    out
}

fn run_fixture(name: &str) {
    let input = fixture(&format!("{name}.inp"));
    let expected = std::fs::read_to_string(fixture(&format!("{name}.out"))).unwrap();
    let run = run_cli(&["popeye", "-maxmem", "1024M", input.to_str().unwrap()], LIMIT);
    assert_eq!(run.status.code(), Some(0), "{name}: {}", run.stderr);
    let mut page = run.stdout.clone();
    if let Ok(extra) = std::fs::read_to_string(fixture(&format!("{name}.vorpal-only"))) {
        for line in extra.lines() {
            let with_break = format!("{line}\n");
            assert!(
                page.contains(&with_break),
                "{name}: Vorpal's extra line '{line}' is missing"
            );
            page = page.replacen(&with_break, "", 1);
        }
    }
    let (got, want) = (normalised(&page), normalised(&expected));
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g, w, "{name}: paragraph {i} differs\n--- vorpal:\n{}", run.stdout);
    }
    assert_eq!(got.len(), want.len(), "{name}: paragraphs\n--- vorpal:\n{}", run.stdout);
}

#[test]
fn popeye_andernach_examples_match_popeye() {
    run_fixture("andernach");
}

/// Popeye's `Threat N` (`#3/1`): the attacker's moves that neither check nor threaten within
/// N moves are left out, at every move with N or more to follow; otherwise Popeye's notice.
#[test]
fn popeye_threat_matches_popeye() {
    run_fixture("threat");
}

/// Popeye's any-move stipulations (`~2`, `h~2`, `h~1.5`, `ser-~2`, `h~1`): the play up to the
/// first move of the stipulation's side.
#[test]
fn popeye_any_move_matches_popeye() {
    run_fixture("anymove");
}

/// `option maxtime 1` on a direct twelve-mover from the start, which neither solver finishes in a
/// second: `solving interrupted.` closes it, laid out as Popeye lays it out. (A problem
/// solved near the limit would make the test depend on the machine's speed.)
#[test]
fn popeye_maxtime_interruption_matches_popeye() {
    run_fixture("maxtime");
}

/// `PostKeyPlay` in three-movers: the play after the key with its threats' and defences' own
/// play, `refutes.` for the defences that beat the attacker.
#[test]
fn popeye_post_key_play_in_three_movers_matches_popeye() {
    run_fixture("postkey3");
}

/// Variations shorter than the threat are left out, as Popeye's threat enforcer leaves them
/// out: in a three-mover's tree and in `PostKeyPlay` after a "key" that is refuted.
#[test]
fn popeye_short_variations_are_left_out_as_popeye_does() {
    run_fixture("shortvar");
}

/// `SetPlay`, `HalfDuplex` and `Duplex` in series play: the other side's goal at once as the
/// set play (none in `ser-s#n` unless it is forced, none when the position with the other side
/// to move is illegal), Popeye's notice in `ser-#n`, the other side playing the series; and no
/// stalemate mark on a series move before the last.
#[test]
fn popeye_series_set_play_and_duplex_match_popeye() {
    run_fixture("series-options");
}

/// Self-mates whose keys are quiet, with threats: a key that wins sooner than the
/// stipulation threatens only what it has time for, a defence that mates before the last move
/// is not shown after a key (it is in the set play).
#[test]
fn popeye_self_mate_threats_match_popeye() {
    run_fixture("selfthreat");
}

/// `SetPlay`, `HalfDuplex` and `Duplex` in proof games: an empty set play, Black starting
/// from the game array.
#[test]
fn popeye_proof_game_duplex_matches_popeye() {
    run_fixture("proof-duplex");
}

/// `SetPlay` in a three-mover, without and with variations.
#[test]
fn popeye_set_play_in_three_movers_matches_popeye() {
    run_fixture("setplay3");
}

#[test]
fn popeye_stipulation_kinds_match_popeye() {
    run_fixture("kinds");
}

#[test]
fn popeye_options_and_twins_match_popeye() {
    run_fixture("options");
}

/// The Andernach proof game (dia10.5): a few seconds.
#[test]
#[ignore]
fn popeye_andernach_proof_game_matches_popeye() {
    run_fixture("andernach-dia");
}

/// The binary as Olive starts its Popeye: a symlink named `py`, `-maxmem 1024M FILE`, the
/// input as Olive writes it (long keywords, `Option Variation NoBoard`, `Zero`), with CRLF.
#[cfg(unix)]
#[test]
fn popeye_as_olive_starts_it_through_a_py_symlink() {
    let dir = std::env::temp_dir().join(format!("vorpal-py-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let py = dir.join("py");
    let _ = std::fs::remove_file(&py);
    std::os::unix::fs::symlink(vorpal_binary(), &py).unwrap();
    let text = std::fs::read_to_string(fixture("olive.inp")).unwrap();
    let input = dir.join("olive-input");
    std::fs::write(&input, text.replace('\n', "\r\n")).unwrap();
    let output = Command::new(&py)
        .args(["-maxmem", "1024M"])
        .arg(&input)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let expected = std::fs::read_to_string(fixture("olive.out")).unwrap();
    assert_eq!(normalised(&stdout), normalised(&expected), "--- vorpal:\n{stdout}");
}

/// Bad input: each bad problem gets a message on stderr, the good ones are still solved,
/// nothing panics and the status is Popeye's 0.
#[test]
fn popeye_bad_input_is_reported_and_the_rest_solved() {
    let good = "begin\npieces white ka1 qc5 white AliceB rc3 black AliceB ke5 pd2\nstip h#2\ncondition alice\noption noboard\nend\n";
    let long = "x".repeat(1 << 20);
    let bads = [
        "frobnicate 3\n".to_string(),
        "pieces white Kz9 black Ke8\nstip #2\n".to_string(),
        format!("title {long}\npieces white {long}\nstip #2\n"),
        "pieces white Ke1 \u{0}\u{1}\u{7f}\u{fffd} black Ke8\nstip #2\n".to_string(),
    ];
    for bad in &bads {
        let text = good.replace("end\n", &format!("next\n{bad}next\n")) + "";
        let text = text.trim_end_matches("next\n").to_string();
        let text = format!(
            "{}\nnext\npieces white ka1 qc5 white AliceB rc3 black AliceB ke5 pd2\nstip h#2\ncond alice\nend\n",
            text.trim_end()
        );
        let dir = std::env::temp_dir().join(format!("vorpal-pybad-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("bad.inp");
        let mut bytes = text.into_bytes();
        bytes.extend_from_slice(&[0xff, 0xfe, b'\n']);
        std::fs::write(&file, &bytes).unwrap();
        let run = run_cli(&["popeye", file.to_str().unwrap()], LIMIT);
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(run.status.code(), Some(0), "{}", run.stderr);
        assert!(run.stderr.contains("input-error:"), "{}", run.stderr);
        assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
        let solved = run.stdout.matches("1.Ke5-f4A Qc5-f5B   2.d2-d1=SA Rc3-f3A #").count();
        assert_eq!(solved, 2, "both good problems solved:\n{}", run.stdout);
    }
}

/// As in Popeye, an unknown keyword or option is reported on stderr and ignored (an unknown
/// option ends its option list), and the problem is still solved.
#[test]
fn popeye_ignores_unknown_items_and_solves_the_problem() {
    let text = "begin\nfrobnicate\ncondition alice\noption frob noboard\npieces white ka1 qc5 white AliceB rc3 black AliceB ke5 pd2\nstip h#2\nend\n";
    let dir = std::env::temp_dir().join(format!("vorpal-pyignored-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("ignored.inp");
    std::fs::write(&file, text).unwrap();
    let run = run_cli(&["popeye", file.to_str().unwrap()], LIMIT);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(run.status.code(), Some(0), "{}", run.stderr);
    for word in [
        "'frobnicate': unknown keyword",
        "'frob': unknown option",
        "'noboard': unknown keyword",
    ] {
        assert!(run.stderr.contains(word), "{word}: {}", run.stderr);
    }
    assert_eq!(
        run.stdout.matches("1.Ke5-f4A Qc5-f5B   2.d2-d1=SA Rc3-f3A #").count(),
        1,
        "{}",
        run.stdout
    );
    // The `noboard` after the unknown option was not read: the diagram is printed.
    assert!(
        run.stdout.contains("+---a---b---c---d---e---f---g---h---+"),
        "{}",
        run.stdout
    );
}

#[test]
fn popeye_command_line_errors() {
    let run = run_cli(&["popeye", "-frob"], LIMIT);
    assert_eq!(run.status.code(), Some(2));
    assert!(run.stderr.contains("unknown option '-frob'"), "{}", run.stderr);
    let run = run_cli(&["popeye", "/no/such/file.inp"], LIMIT);
    assert_eq!(run.status.code(), Some(1));
    assert!(run.stderr.contains("cannot read"), "{}", run.stderr);
}

/// The fuzz door of `vorpal popeye` (`tests/fuzz`, target `popeye`) on its seeds and on
/// cut, spliced and byte-flipped copies of them: never a panic, every error on the error
/// stream.
#[test]
fn popeye_page_door_survives_cut_and_flipped_seeds() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/fuzz/seeds/popeye");
    let mut seeds: Vec<Vec<u8>> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| std::fs::read(e.unwrap().path()).unwrap())
        .collect();
    seeds.sort();
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for seed in &seeds {
        let body = seed.get(1..).unwrap_or_default();
        let (page, _) = vorpal_protocol::doors::popeye_page(body);
        assert!(!page.contains("panicked"));
        for _ in 0..40 {
            let mut bytes = body.to_vec();
            let cut = (next() as usize) % (bytes.len() + 1);
            match next() % 3 {
                0 => bytes.truncate(cut),
                1 => bytes.insert(cut, (next() & 0xff) as u8),
                _ => {
                    let other = &seeds[(next() as usize) % seeds.len()];
                    let from = (next() as usize) % (other.len() + 1);
                    bytes.truncate(cut);
                    bytes.extend_from_slice(&other[from..]);
                }
            }
            let _ = vorpal_protocol::doors::popeye_page(&bytes);
        }
    }
}

/// `HalfDuplex` (White starts and Black mates, short solutions first) and `Duplex` (both
/// parts) in help play.
#[test]
fn popeye_halfduplex_and_duplex_match_popeye() {
    run_fixture("duplex");
}

/// `SetPlay` in help play (half a move less with the other side first, short solutions
/// included), also in twins.
#[test]
fn popeye_set_play_matches_popeye() {
    run_fixture("setplay");
}

/// Self play: `Variation` trees down to the defender's forced mate, `SetPlay` (s#1, s#2 and
/// s#3, with and without `Variation`).
#[test]
fn popeye_self_play_trees_and_set_play_match_popeye() {
    run_fixture("selfplay");
}

/// Reflex play: `Variation` trees (the defender's forced goal), `SetPlay` (r#1, r#2),
/// semi-reflex play, a try refuted by leaving the attacker a goal it must take (`?!?`); direct
/// play: a refutation or a post-key defence that mates the attacker is marked ` +`.
#[test]
fn popeye_reflex_play_and_the_defenders_mates_match_popeye() {
    run_fixture("reflex");
}

/// `HalfDuplex` and `Duplex` in direct and reflex play: the other side attacks (Black mates
/// White), with tries and variations; reflex play's forced mates as one block.
#[test]
fn popeye_duplex_in_direct_and_reflex_play_matches_popeye() {
    run_fixture("duplex-direct");
}

/// The other stipulations: `ser-=3`, `r#2` (with Popeye's `?!?` moves), `hs#2`, `ser-s#3`,
/// `semi-r#2`, `hs#1.5`.
#[test]
fn popeye_reflex_helpself_and_series_match_popeye() {
    run_fixture("more");
}

/// `Defence N`: tries with up to N refutations, with and without variations.
#[test]
fn popeye_defence_matches_popeye() {
    run_fixture("defence");
}

/// `option maxsolutions 1` stops after one key, closed by Popeye's `Partial solution`.
#[test]
fn popeye_maxsolutions_ends_with_a_partial_solution() {
    let dir = std::env::temp_dir().join(format!("vorpal-pymax-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("max.inp");
    let input = "begin\npieces white Kc6 Pb7 black Ka7 white AliceB Rh1\nstip #2\ncondition alice\noption maxsol 1 noboard\nend\n";
    std::fs::write(&file, input).unwrap();
    let run = run_cli(&["popeye", file.to_str().unwrap()], LIMIT);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(run.status.code(), Some(0), "{}", run.stderr);
    let keys: Vec<&str> = run.stdout.lines().filter(|l| l.ends_with(" !")).collect();
    assert_eq!(keys.len(), 1, "{}", run.stdout);
    assert!(
        ["   1.Rh1-a1A + !", "   1.Rh1-h8A !"].contains(&keys[0]),
        "{}",
        run.stdout
    );
    let tail: Vec<&str> = run.stdout.lines().rev().take(4).collect();
    assert!(tail[2].starts_with("Partial solution Time = "), "{}", run.stdout);
    assert_eq!(tail[3], "", "{}", run.stdout);
}

/// `vorpal solve` reads the same input but refuses what only `vorpal popeye` plays, naming it.
#[test]
fn popeye_only_options_are_refused_by_vorpal_solve() {
    let input = fixture("setplay.inp");
    let run = run_cli(&["solve", input.to_str().unwrap()], LIMIT);
    assert_eq!(run.status.code(), Some(1), "{}", run.stderr);
    assert!(
        run.stderr.contains("option SetPlay: only 'vorpal popeye' reads it"),
        "{}",
        run.stderr
    );
}

/// Without a file the input is standard input; `-regression` prints no times.
#[test]
fn popeye_reads_standard_input() {
    use std::io::Write;
    let mut child = Command::new(vorpal_binary())
        .args(["popeye", "-regression", "-heartbeat", "-maxpos", "100"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let input = "BeginProblem\r\nPieces\r\n  white  Ka1 Qc5\r\n  white AliceB Rc3\r\n  black AliceB Ke5 Pd2\r\nStipulation h#2\r\nOption NoBoard\r\nEndProblem\r\n";
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert!(
        stdout.contains("  1.Ke5-f4A Qc5-f5B   2.d2-d1=SA Rc3-f3A #\n"),
        "{stdout}"
    );
    assert!(stdout.contains("\nsolution finished. Time = 0.000 s\n"), "{stdout}");
}

/// `SetPlay` in direct two-movers (the set mates before the keys), also with tries and
/// variations.
#[test]
fn popeye_direct_set_play_matches_popeye() {
    run_fixture("setplay-direct");
}

/// `PostKeyPlay` in two-movers: the threat and the defences that defeat it, or zugzwang and
/// every defence with `refutes.`.
#[test]
fn popeye_post_key_play_matches_popeye() {
    run_fixture("postkey");
}

/// `WhiteToPlay` in help play: `h#2` solved as `h#1.5` with White first; not applicable to
/// `h#1.5` (Popeye's notice).
#[test]
fn popeye_white_to_play_matches_popeye() {
    run_fixture("whitetoplay");
}
