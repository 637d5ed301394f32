//! `vorpal-match` end to end with the scripted fake engine (`vorpal-fake-engine`): normal
//! matches, every kind of misbehaviour (illegal move, crash, hang, time loss, no handshake),
//! adjudication, resume after the runner is killed, shards and merge, SPRT stopping, opening
//! generation. Each match's PGN is read back and replayed, and its results file must agree
//! with the PGN and with the printed summary (recomputed here with `vorpal_tuning::matches::stats`).

use crate::common::{args, check_summary, fake, load, run, run_and_kill_after, Scratch, MATCH};
use std::path::Path;
use std::process::Command;
use vorpal_engine::{GameResult, Rules};
use vorpal_tuning::matches::results::{GameSummary, Termination};
use vorpal_tuning::matches::stats::{EloModel, Sprt};

#[test]
fn random_engines_play_a_full_match_from_a_mixed_book() {
    let dir = Scratch::new("full");
    let book = "rnbqk1nr/pppp1|Npp/4|p3/2|b5/8/8/PPPPPPPP/RNBQKB1R b KQkq - 0 3\n\
                rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 8/8/8/8/8/8/8/8 w - - 0 1\n\
                1. e4 d5 2. Be2\n\
                r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - bm O-O; id \"castles\";\n";
    std::fs::write(dir.path("book.epd"), book).unwrap();
    let a = args(
        &[&fake("A", &["--seed=1"]), &fake("B", &["--seed=2"])],
        &format!(
            "--tc 10+0.1 --games 40 --concurrency 2 --openings {} --order random --seed 9 --pgn {} \
             --sprt elo0=-20 elo1=20",
            dir.arg("book.epd"),
            dir.arg("m.pgn")
        ),
    );
    let out = run(&a);
    assert!(out.status.success());
    let (games, header, lines) = load(&dir.path("m.pgn"));
    assert_eq!(header.engines, vec!["A", "B"]);
    assert_eq!((header.total_games, lines.len()), (40, 40));
    let sprt = Sprt::new(-20.0, 20.0, 0.05, 0.05, EloModel::Normalized).unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let tally = check_summary(&stdout, ["A", "B"], &lines, Some(&sprt));
    assert_eq!(tally.pentanomial("A", "B").pairs(), 20);
    // Pairs share the opening with colours swapped; every opening was used.
    for pair in lines.chunks(2) {
        assert_eq!(pair[0].opening, pair[1].opening);
        assert_eq!((pair[0].white.as_str(), pair[1].white.as_str()), ("A", "B"));
    }
    let used: std::collections::BTreeSet<usize> = lines.iter().map(|l| l.opening).collect();
    assert_eq!(used.len(), 4);
    // The move-list opening is played as book moves from the start position.
    let from_moves = games.iter().find(|g| g.tag("OpeningId") == Some("2")).unwrap();
    assert_eq!(from_moves.tag("FEN"), None);
    assert!(from_moves.moves[..3]
        .iter()
        .all(|m| m.comment.as_deref() == Some("book")));
    assert!(games.iter().any(|g| g.tag("FEN").is_some_and(|f| f.contains('|'))));
    // Clock comments on engine moves.
    let m = &games[0]
        .moves
        .iter()
        .find(|m| m.comment.as_deref() != Some("book"))
        .unwrap();
    assert!(m.comment.as_ref().unwrap().starts_with("+0.00/1 0.0"), "{m:?}");
}

#[test]
fn illegal_moves_lose_and_are_logged_with_the_position() {
    let dir = Scratch::new("illegal");
    let out = run(&args(
        &[&fake("A", &[]), &fake("B", &["--illegal-at=3"])],
        &format!("--tc 5+0.1 --games 4 --pgn {}", dir.arg("m.pgn")),
    ));
    assert!(out.status.success());
    let (_, _, lines) = load(&dir.path("m.pgn"));
    assert_eq!(lines.len(), 4);
    for l in &lines {
        assert_eq!(l.termination, Termination::IllegalMove);
        assert_eq!(l.loser(), Some("B"));
        assert!(
            l.reason.contains("makes an illegal move") && l.reason.contains(" in "),
            "{}",
            l.reason
        );
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("illegal move"), "the illegal move is logged");
    assert!(String::from_utf8_lossy(&out.stdout).contains("Illegal moves: 4 (A 0, B 4)"));
}

#[test]
fn crashing_engine_loses_every_game_and_is_restarted() {
    let dir = Scratch::new("crash");
    let out = run(&args(
        &[&fake("A", &[]), &fake("B", &["--crash-at=3"])],
        &format!("--tc nodes=1 --games 4 --pgn {}", dir.arg("m.pgn")),
    ));
    assert!(out.status.success());
    let (_, _, lines) = load(&dir.path("m.pgn"));
    assert!(lines
        .iter()
        .all(|l| l.termination == Termination::Crash && l.loser() == Some("B")));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("Crashes: 4 (A 0, B 4)"), "{stdout}");
    assert!(stdout.contains("engine processes started: A 1, B 4"), "{stdout}");
}

#[test]
fn one_crash_one_hang_and_one_time_loss_do_not_stop_the_match() {
    let dir = Scratch::new("faults");
    let cases: [(&str, &str, Termination, &str); 4] = [
        ("--crash-at=2", "nodes=1", Termination::Crash, "B 2"),
        ("--hang-at=2", "nodes=1", Termination::Stall, "B 2"),
        ("--hang-at=2", "1+0.1", Termination::TimeForfeit, "B 2"),
        ("--slow-at=2", "0.5+0.05", Termination::TimeForfeit, "B 1"),
    ];
    for (i, (fault, tc, termination, starts)) in cases.into_iter().enumerate() {
        let once = format!("--once={}", dir.arg(&format!("fired{i}")));
        let pgn = dir.arg(&format!("m{i}.pgn"));
        let out = run(&args(
            &[&fake("A", &[]), &fake("B", &[fault, &once])],
            &format!("--tc {tc} --games 4 --move-timeout 1 --pgn {pgn}"),
        ));
        assert!(out.status.success(), "{fault} {tc}");
        let (_, _, lines) = load(Path::new(&pgn));
        assert_eq!(lines.len(), 4);
        let faulty: Vec<&GameSummary> = lines.iter().filter(|l| l.termination != Termination::Normal).collect();
        assert_eq!(faulty.len(), 1, "{fault} {tc}: {lines:?}");
        assert_eq!((faulty[0].termination, faulty[0].loser()), (termination, Some("B")));
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            stdout.contains(&format!("started: A 1, {starts}")),
            "{fault} {tc}: {stdout}"
        );
        if tc == "1+0.1" {
            assert!(faulty[0].reason.contains("restarted"), "{}", faulty[0].reason);
        }
    }
}

#[test]
fn engines_that_cannot_start_stop_the_match() {
    let dir = Scratch::new("nostart");
    // Not even once: the match does not begin.
    let out = run(&args(
        &[&fake("A", &[]), &fake("B", &["--no-uciok"])],
        &format!(
            "--tc nodes=1 --games 10 --startup-timeout 0.3 --pgn {}",
            dir.arg("n.pgn")
        ),
    ));
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("engine B: timed out: no 'uciok'"));
    assert_eq!(crate::common::games_in(&dir.path("n.results")), 0);
    // The outputs of a match that never began do not block the next one.
    let out = run(&args(
        &[&fake("A", &[]), &fake("B", &[])],
        &format!("--tc nodes=1 --games 2 --pgn {}", dir.arg("n.pgn")),
    ));
    assert!(out.status.success());
    assert_eq!(crate::common::games_in(&dir.path("n.results")), 2);
    let mut missing = fake("A", &[]);
    missing[1] = "cmd=/nonexistent/engine".into();
    let out = run(&args(&[&missing, &fake("B", &[])], "--tc nodes=1"));
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("engine A: cannot start: /nonexistent/engine"));
    // Starts once (the check before the match), then never again: three games are lost, then
    // the match stops with them recorded.
    let starts = format!("--max-starts={}:1", dir.arg("starts"));
    let out = run(&args(
        &[&fake("A", &[]), &fake("B", &[&starts])],
        &format!(
            "--tc nodes=1 --games 10 --startup-timeout 0.3 --pgn {}",
            dir.arg("m.pgn")
        ),
    ));
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("failed to start 3 times in a row"));
    let (_, _, lines) = load(&dir.path("m.pgn"));
    assert_eq!(lines.len(), 3);
    assert!(lines
        .iter()
        .all(|l| l.termination == Termination::Crash && l.loser() == Some("B")));
}

#[test]
fn adjudication_by_score_and_length() {
    let dir = Scratch::new("adjudicate");
    let run_with = |name: &str, a: &[&str], b: &[&str], rule: &str| -> Vec<GameSummary> {
        let pgn = dir.arg(name);
        let out = run(&args(
            &[&fake("A", a), &fake("B", b)],
            &format!("--tc nodes=1 --games 2 {rule} --pgn {pgn}"),
        ));
        assert!(out.status.success());
        load(Path::new(&pgn)).2
    };
    // Both engines agree A is winning: A wins both games after 3 moves each.
    let lines = run_with(
        "resign.pgn",
        &["--score=700"],
        &["--score=-700"],
        "--resign movecount=3 score=600",
    );
    for l in &lines {
        assert_eq!(
            (l.termination, l.loser(), l.plies),
            (Termination::Adjudication, Some("B"), 6)
        );
    }
    let lines = run_with("draw.pgn", &[], &[], "--draw movenumber=5 movecount=2 score=10");
    for l in &lines {
        assert_eq!(
            (l.termination, l.result, l.plies),
            (Termination::Adjudication, GameResult::Draw, 12)
        );
    }
    let lines = run_with("max.pgn", &[], &[], "--maxmoves 7");
    assert!(lines.iter().all(|l| l.plies == 14 && l.reason.contains("maximum")));
}

#[test]
fn resume_after_the_runner_is_killed() {
    let dir = Scratch::new("resume");
    let pgn = dir.arg("m.pgn");
    let a = args(
        &[&fake("A", &["--delay=8", "--mode=greedy"]), &fake("B", &["--delay=8"])],
        &format!("--tc 10+0.1 --games 16 --concurrency 2 --pgn {pgn} --quiet"),
    );
    let results = dir.path("m.results");
    let before = run_and_kill_after(&a, &results, 4);
    assert!(before < 16, "killed too late to test anything ({before} games)");
    // As if the kill had cut both files mid-write.
    let append = |p: &Path, s: &str| {
        use std::io::Write;
        std::fs::OpenOptions::new()
            .append(true)
            .open(p)
            .unwrap()
            .write_all(s.as_bytes())
            .unwrap();
    };
    append(Path::new(&pgn), "[Event \"vorpal-match\"]\n[Site \"?\"]\n\n1. e4 {+0.1");
    append(&results, "15\t7\tB\tA\t1-0");
    // Without --resume the outputs are protected.
    assert_eq!(run(&a).status.code(), Some(2));
    let mut resumed = a.clone();
    resumed.push("--resume".into());
    let out = run(&resumed);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("games already played"));
    let (_, _, lines) = load(Path::new(&pgn));
    assert_eq!(
        lines.iter().map(|l| l.id).collect::<Vec<_>>(),
        (0..16).collect::<Vec<_>>()
    );
    check_summary(&String::from_utf8_lossy(&out.stdout), ["A", "B"], &lines, None);
    // The same games as an uninterrupted match (the fake engines are deterministic).
    let full = dir.arg("full.pgn");
    let uninterrupted: Vec<String> = a
        .iter()
        .map(|x| if *x == pgn { full.clone() } else { x.clone() })
        .collect();
    assert!(run(&uninterrupted).status.success());
    assert_eq!(load(Path::new(&full)).2, lines);
    // Resuming a finished match plays nothing.
    let out = run(&resumed);
    assert!(String::from_utf8_lossy(&out.stdout).contains("Played 16 of 16"));
    assert_eq!(load(Path::new(&pgn)).2.len(), 16);
}

#[test]
fn shards_merge_into_the_same_match() {
    let dir = Scratch::new("shards");
    let engines = [fake("A", &["--mode=greedy", "--seed=3"]), fake("B", &["--seed=4"])];
    let base = "--tc nodes=1 --games 12 --order random --seed 4 --quiet";
    let full = run(&args(
        &[&engines[0], &engines[1]],
        &format!("{base} --pgn {}", dir.arg("full.pgn")),
    ));
    assert!(full.status.success());
    for i in 0..3 {
        let out = run(&args(
            &[&engines[0], &engines[1]],
            &format!("{base} --shard {i}/3 --pgn {}", dir.arg(&format!("s{i}.pgn"))),
        ));
        assert!(out.status.success());
        let (_, h, lines) = load(&dir.path(&format!("s{i}.pgn")));
        assert_eq!((h.shard, lines.len()), ((i, 3), 4));
        assert!(lines.iter().all(|l| l.pair % 3 == i as u64));
    }
    let merged = Command::new(MATCH)
        .args([
            "merge",
            "--pgn",
            &dir.arg("all.pgn"),
            &dir.arg("s0.pgn"),
            &dir.arg("s1.results"),
        ])
        .arg(dir.arg("s2.pgn"))
        .output()
        .unwrap();
    assert!(merged.status.success(), "{}", String::from_utf8_lossy(&merged.stderr));
    let (_, header, merged_lines) = load(&dir.path("all.pgn"));
    let (_, _, full_lines) = load(&dir.path("full.pgn"));
    assert_eq!(header.shard, (0, 1));
    assert_eq!(
        merged_lines, full_lines,
        "deterministic engines give the same games in shards"
    );
    let summary = |o: &[u8]| {
        let s = String::from_utf8_lossy(o).into_owned();
        s.lines()
            .filter(|l| l.starts_with("Elo") || l.starts_with("Ptnml"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(summary(&merged.stdout), summary(&full.stdout));
}

#[test]
fn sprt_stops_the_match_at_a_bound() {
    let dir = Scratch::new("sprt");
    let out = run(&args(
        &[&fake("A", &["--mode=greedy"]), &fake("B", &[])],
        &format!(
            "--tc nodes=1 --games 400 --sprt elo0=0 elo1=50 alpha=0.05 beta=0.05 model=logistic --pgn {}",
            dir.arg("m.pgn")
        ),
    ));
    assert!(out.status.success());
    let (_, _, lines) = load(&dir.path("m.pgn"));
    assert!(lines.len() < 100, "{} games", lines.len());
    let sprt = Sprt::new(0.0, 50.0, 0.05, 0.05, EloModel::Logistic).unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let tally = check_summary(&stdout, ["A", "B"], &lines, Some(&sprt));
    let llr = sprt.llr(&tally.pentanomial("A", "B"));
    assert!(llr >= sprt.upper_bound(), "{llr}");
    assert!(stdout.contains("H1 accepted"));
    assert!(String::from_utf8_lossy(&out.stderr).contains("SPRT: AcceptH1"));
}

#[test]
#[ignore = "full tier: three 12-game matches"]
fn the_schedule_is_deterministic_by_seed() {
    let dir = Scratch::new("determinism");
    let book: String = ["1. e4", "1. d4", "1. c4", "1. Nf3", "1. g3", "1. b3"].join("\n");
    std::fs::write(dir.path("book.txt"), book).unwrap();
    let engines = [fake("A", &["--seed=5"]), fake("B", &["--seed=6"])];
    let play = |name: &str, seed: u64, concurrency: u32| -> Vec<GameSummary> {
        let pgn = dir.arg(name);
        let rest = format!(
            "--tc nodes=1 --games 12 --openings {} --order random --seed {seed} --concurrency {concurrency} --pgn {pgn} --quiet",
            dir.arg("book.txt")
        );
        assert!(run(&args(&[&engines[0], &engines[1]], &rest)).status.success());
        load(Path::new(&pgn)).2
    };
    let a = play("a.pgn", 1, 1);
    let b = play("b.pgn", 1, 2);
    let c = play("c.pgn", 2, 1);
    assert_eq!(a, b);
    let order = |g: &[GameSummary]| g.iter().map(|l| l.opening).collect::<Vec<_>>();
    assert_ne!(order(&a), order(&c));
}

#[test]
fn generated_openings_are_unique_balanced_and_deterministic() {
    let dir = Scratch::new("openings");
    let gen = |name: &str, threads: u32| {
        let out = Command::new(MATCH)
            .args([
                "openings", "--count", "40", "--plies", "6", "--seed", "3", "--nodes", "500", "--window", "150",
            ])
            .args(["--threads", &threads.to_string(), "--out", &dir.arg(name)])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        std::fs::read_to_string(dir.path(name)).unwrap()
    };
    let one = gen("one.epd", 1);
    assert_eq!(one, gen("two.epd", 2));
    let book = vorpal_tuning::matches::openings::parse_openings(&one, Rules::default()).unwrap();
    assert_eq!(book.len(), 40);
    for (i, a) in book.iter().enumerate() {
        assert_eq!(a.start.fullmove_number(), 4);
        for b in &book[..i] {
            assert!(!vorpal_engine::game::same_position(&a.start, &b.start));
        }
    }
    // The book is usable by a match.
    let out = run(&args(
        &[&fake("A", &[]), &fake("B", &[])],
        &format!(
            "--tc nodes=1 --games 4 --openings {} --pgn {}",
            dir.arg("one.epd"),
            dir.arg("m.pgn")
        ),
    ));
    assert!(out.status.success());
    assert_eq!(load(&dir.path("m.pgn")).2.len(), 4);
}
