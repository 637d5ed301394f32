//! Hostile input and resource limits over real pipes (issue 8): 1 MiB lines, invalid UTF-8,
//! NUL bytes, `Hash` beyond the machine's memory, `Threads` at its maximum, a 10,000-ply
//! `position`, `go` with every parameter at 0 and at its maximum, `stop`/`quit` during
//! `go infinite` with 8 threads, and the input closed during a search. Every `bestmove` is
//! checked with the rules core.

use crate::support::harness::{assert_legal, game_of, Engine, SOON};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::time::{Duration, Instant};
use vorpal_engine::{Game, PieceKind, Position};
use vorpal_tests::fuzz::uci::GO_NUMBER_PARAMETERS;

/// Longest line the engine reads (`protocol/src/uci/input.rs`).
const MAX_LINE: usize = 1 << 20;
/// "Promptly": the engine answers `stop`, `quit` and the end of input within tens of
/// milliseconds (the tests print the times they saw); the bound is generous enough to hold on a
/// machine loaded four times over, so the tests check the behaviour, not the machine's speed.
const PROMPT: Duration = Duration::from_secs(3);

/// Checks that the engine is at `game`'s position and plays a legal move there.
fn plays_legal_move(e: &mut Engine, game: &Game) {
    e.send("fen");
    assert_eq!(e.recv(SOON).unwrap(), game.position().to_fen(), "{}", e.dump());
    e.send("go depth 2");
    let (_, mv) = e.bestmove(SOON);
    assert_legal(game, &mv);
}

/// Sends `bytes` as one line and returns what it caused (up to the next `readyok`), checking
/// that the answer is printable text.
fn answer(e: &mut Engine, bytes: &[u8]) -> Vec<String> {
    e.send_bytes(bytes);
    let lines = e.sync();
    for line in &lines {
        assert!(
            !line.chars().any(|c| c.is_control() || c == char::REPLACEMENT_CHARACTER),
            "unprintable answer {line:?}"
        );
        assert!(line.len() < 1000, "answer of {} bytes", line.len());
    }
    lines
}

/// One `info string error` line and nothing else.
fn one_error(e: &mut Engine, bytes: &[u8]) -> String {
    let lines = answer(e, bytes);
    assert!(
        lines.len() == 1 && lines[0].starts_with("info string error "),
        "{:?}\n{}",
        String::from_utf8_lossy(&bytes[..bytes.len().min(100)]),
        e.dump()
    );
    lines[0].clone()
}

#[test]
fn one_mebibyte_line_is_read_and_one_byte_more_is_dropped() {
    let mut e = Engine::start();
    let mut line = b"position startpos moves e2e4 ".to_vec();
    line.resize(MAX_LINE - 4, b' ');
    line.extend_from_slice(b"e7e5");
    assert_eq!(line.len(), MAX_LINE);
    assert!(answer(&mut e, &line).is_empty(), "{}", e.dump());
    let both = game_of("position startpos moves e2e4 e7e5");
    plays_legal_move(&mut e, &both);

    let mut longer = b"position startpos moves d2d4 ".to_vec();
    longer.resize(MAX_LINE + 1, b' ');
    let msg = one_error(&mut e, &longer);
    assert!(msg.contains(&format!("{} bytes", MAX_LINE + 1)), "{msg}");
    plays_legal_move(&mut e, &both);

    // A whole mebibyte of one word: one short error line quoting the start of it.
    let msg = one_error(&mut e, &vec![b'x'; MAX_LINE]);
    assert!(msg.contains("unknown command 'xxxx"), "{msg}");
    plays_legal_move(&mut e, &both);

    // A mebibyte of real moves: 209,708 plies of knights going back and forth (the halfmove
    // clock and move number saturate at 65535).
    let mut moves = String::from("position startpos moves");
    while moves.len() + 20 <= MAX_LINE {
        moves.push_str(" g1f3 g8f6 f3g1 f6g8");
    }
    let start = Instant::now();
    assert!(answer(&mut e, moves.as_bytes()).is_empty(), "{}", e.dump());
    println!(
        "position with {} plies: answered in {:?}",
        (moves.len() - 23) / 5,
        start.elapsed()
    );
    assert!(start.elapsed() < SOON);
    plays_legal_move(&mut e, &game_of(&moves));
    e.finish();
}

/// Found while writing these tests: one `go` line of a mebibyte of bad `searchmoves` was
/// answered by 340,000 error lines (21 MB); now by at most 9.
#[test]
fn a_mebibyte_of_bad_searchmoves_gets_few_error_lines() {
    let mut e = Engine::start();
    let mut line = String::from("go depth 2 searchmoves d2d4");
    while line.len() + 3 <= MAX_LINE {
        line.push_str(" zz");
    }
    e.send(&line);
    let (lines, mv) = e.bestmove(SOON);
    let errors = lines.iter().filter(|l| l.starts_with("info string error")).count();
    assert_eq!(errors, 9, "{}", e.dump());
    assert!(
        lines.iter().any(|l| l.contains("more problems in this line")),
        "{}",
        e.dump()
    );
    assert_eq!(mv, "d2d4", "searchmoves still apply");
    e.finish();
}

#[test]
fn invalid_utf8_is_replaced_and_answered() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e4");
    let after = game_of("position startpos moves e2e4");
    for bytes in [
        &b"isready\xff"[..],
        b"\xff\xfe\xfd",
        b"\xc3\x28 \xa0\xa1",
        b"\xed\xa0\x80isready",
        b"\xf0\x28\x8c\xbc go depth 1",
        b"setoption name Hash value 1\xf0\x28\x8c\xbc",
        b"setoption name \xe2\x82 value 3",
    ] {
        let msg = one_error(&mut e, bytes);
        assert!(msg.contains('?'), "the bad bytes are shown as '?': {msg}");
    }
    // A bad move keeps the moves before it.
    let msg = one_error(&mut e, b"position startpos moves e2e4 e7\xffe5");
    assert!(msg.contains("move 2"), "{msg}");
    plays_legal_move(&mut e, &after);
    // A bad FEN keeps the previous position.
    one_error(
        &mut e,
        b"position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN\xc0 w KQkq - 0 1",
    );
    plays_legal_move(&mut e, &after);
    // A position no game can reach (48 men) is refused with the reason; the previous one stays.
    let msg = one_error(
        &mut e,
        b"position fen rnbqkbnr/pppppppp/pppppppp/8/8/PPPPPPPP/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    );
    assert!(
        msg.contains("White has 24 men; a game of alice has at most 16 a side"),
        "{msg}"
    );
    plays_legal_move(&mut e, &after);
    // Unknown `go` parameters are reported; the search runs.
    e.send_go_bytes(b"go depth 1 \xed\xa0\x80");
    let (lines, mv) = e.bestmove(SOON);
    assert_eq!(lines.iter().filter(|l| l.starts_with("info string error")).count(), 1);
    assert_legal(&after, &mv);
    e.finish();
}

#[test]
fn nul_bytes_are_answered() {
    let mut e = Engine::start();
    for bytes in [
        &b"\0"[..],
        b"\0\0\0\0",
        b"isready\0",
        b"\0isready",
        b"go\0depth 1",
        b"stop\0",
        b"quit\0",
    ] {
        let msg = one_error(&mut e, bytes);
        assert!(msg.contains('?') && !msg.contains('\0'), "{msg}");
    }
    // NUL inside a move list: the move is bad, the position stops before it.
    let msg = one_error(&mut e, b"position startpos moves e2e4\0e7e5");
    assert!(msg.contains("move 1"), "{msg}");
    plays_legal_move(&mut e, &game_of("position startpos"));
    let msg = one_error(&mut e, b"position startpos moves e2e4 \0");
    assert!(msg.contains("move 2"), "{msg}");
    plays_legal_move(&mut e, &game_of("position startpos moves e2e4"));
    e.finish();
}

/// The node count of the last `info ... nodes N` line of a search.
fn nodes_of(lines: &[String]) -> u64 {
    let line = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth") && l.contains(" nodes "))
        .expect("an info line");
    let words: Vec<&str> = line.split_whitespace().collect();
    let i = words.iter().position(|w| *w == "nodes").unwrap();
    words[i + 1].parse().unwrap()
}

/// MemAvailable of this machine in MB.
fn available_mb() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    Some(line.split_whitespace().nth(1)?.parse::<u64>().ok()? / 1024)
}

#[test]
fn hash_beyond_the_machine_is_refused_and_the_table_kept() {
    let mut e = Engine::start();
    let position = "position startpos moves e2e4 e7e5 g1f3 b8c6";
    let game = game_of(position);
    let search = |e: &mut Engine| {
        e.send("go depth 8");
        let (lines, mv) = e.bestmove(SOON);
        assert_legal(&game, &mv);
        nodes_of(&lines)
    };
    e.send("ucinewgame");
    e.send(position);
    let fresh = search(&mut e);
    // 64 GB: more than this machine can give (skipped where it could).
    if available_mb().is_some_and(|mb| mb < 60_000) {
        let msg = one_error(&mut e, b"setoption name Hash value 65536");
        assert!(msg.contains("Hash 65536 MB") && msg.contains("unchanged"), "{msg}");
    }
    for too_big in ["65537", "18446744073709551615", "9223372036854775807", "-1"] {
        let msg = one_error(&mut e, format!("setoption name Hash value {too_big}").as_bytes());
        assert!(msg.contains("unchanged"), "{msg}");
    }
    // The table of the first search was kept: the same search now needs fewer nodes.
    let again = search(&mut e);
    println!("go depth 8: {fresh} nodes on an empty table, {again} after the refused Hash change");
    assert!(again < fresh, "the table was lost: {again} nodes after, {fresh} before");
    // Emptied on purpose, the search does what it did at first.
    e.send("setoption name Clear Hash");
    assert_eq!(search(&mut e), fresh, "{}", e.dump());
    e.finish();
}

/// Searches with `threads` threads: a fixed depth, then `go infinite` stopped after 300 ms;
/// returns the time from `stop` to `bestmove`.
fn search_and_stop(e: &mut Engine, threads: usize) -> Duration {
    e.send(&format!("setoption name Threads value {threads}"));
    assert!(e.sync().is_empty(), "{}", e.dump());
    let game = game_of("position startpos moves d2d4");
    e.send("position startpos moves d2d4");
    e.send("go depth 5");
    let (_, mv) = e.bestmove(SOON);
    assert_legal(&game, &mv);
    e.send("go infinite");
    e.collect_for(Duration::from_millis(300));
    let start = Instant::now();
    e.send("stop");
    let (_, mv) = e.bestmove(SOON);
    let took = start.elapsed();
    assert_legal(&game, &mv);
    took
}

#[test]
fn threads_at_the_maximum_search_and_stop() {
    let mut e = Engine::start();
    let took = search_and_stop(&mut e, 1024);
    println!("stop with 1024 threads: {took:?}");
    assert!(took < SOON, "stop with 1024 threads took {took:?}");
    let msg = one_error(&mut e, b"setoption name Threads value 1025");
    assert!(msg.contains("1..=1024"), "{msg}");
    let took = search_and_stop(&mut e, 1);
    assert!(took < PROMPT, "{took:?}");
    e.finish();
}

/// Resident memory of process `pid` in MB.
fn rss_mb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
        .map_or(0, |kb| kb / 1024)
}

/// `ucinewgame` (which GUIs send before every game) with `Threads` at its maximum must stay
/// responsive and within reason, game after game. Found while writing these tests: every
/// thread owned a 10.6 MB continuation history (engine/src/search/history.rs) and
/// `Searcher::clear` zeroed all of them, so with 1024 threads `ucinewgame` touched ~11 GB and
/// kept `isready` waiting for over 30 s. Reallocating the tables instead helps only the first
/// time: later allocations of that size come from the heap and are zeroed by hand. The test
/// kills the engine once it passes 2 GB.
#[test]
fn ucinewgame_with_threads_at_the_maximum_stays_responsive() {
    let mut e = Engine::start();
    e.send("setoption name Threads value 1024");
    assert!(e.sync().is_empty(), "{}", e.dump());
    let mut peak = 0;
    for game in 1..=3 {
        let start = Instant::now();
        e.send("ucinewgame");
        e.send("isready");
        loop {
            peak = peak.max(rss_mb(e.pid()));
            assert!(
                peak < 2048,
                "ucinewgame {game} with 1024 threads: {peak} MB resident after {:?}",
                start.elapsed()
            );
            match e.recv(Duration::from_millis(50)) {
                Some(line) if line == "readyok" => break,
                Some(_) => {}
                None => assert!(
                    start.elapsed() < SOON,
                    "ucinewgame {game}: no readyok after {:?} ({peak} MB)",
                    start.elapsed()
                ),
            }
        }
        println!(
            "ucinewgame {game} with 1024 threads: readyok after {:?}, peak {peak} MB",
            start.elapsed()
        );
        e.send("position startpos");
        e.send("go depth 4");
        let (_, mv) = e.bestmove(SOON);
        assert_legal(&game_of("position startpos"), &mv);
    }
    e.finish();
}

/// A legal game of `plies` plies that never ends by mate: knights and kings move without
/// capturing or giving check, so the fifty-move and threefold rules apply throughout.
fn shuffling_game(plies: usize) -> (Game, String) {
    let mut rng = StdRng::seed_from_u64(10_000);
    let mut game = Game::new(Position::startpos());
    let mut text = String::from("position startpos moves");
    for _ in 0..plies {
        let pos = *game.position();
        let quiet: Vec<_> = pos
            .legal_moves()
            .into_iter()
            .filter(|&m| {
                let kind = pos.moved_piece(m).map(|p| p.kind());
                matches!(kind, Some(PieceKind::Knight | PieceKind::King))
                    && !m.is_capture()
                    && !m.is_castle()
                    && !pos.gives_check(m)
            })
            .collect();
        let mv = quiet[rng.gen_range(0..quiet.len())];
        text.push(' ');
        text.push_str(&pos.move_to_uci(mv));
        assert!(game.play(mv));
    }
    (game, text)
}

#[test]
fn position_with_ten_thousand_moves() {
    let (game, line) = shuffling_game(10_000);
    assert!(
        game.outcome().is_some(),
        "the game is drawn by rule long before its end"
    );
    let mut e = Engine::start();
    let start = Instant::now();
    e.send(&line);
    assert!(e.sync().is_empty(), "{}", e.dump());
    let took = start.elapsed();
    println!("position with 10,000 plies: answered in {took:?}");
    assert!(took < SOON, "10,000 plies took {took:?}");
    e.send("fen");
    assert_eq!(e.recv(SOON).unwrap(), game.position().to_fen());
    let start = Instant::now();
    e.send("go depth 4");
    let (_, mv) = e.bestmove(SOON);
    assert_legal(&game, &mv);
    assert!(start.elapsed() < SOON, "search took {:?}", start.elapsed());
    e.send("go movetime 200");
    let (_, mv) = e.bestmove(SOON);
    assert_legal(&game, &mv);
    e.finish();
}

/// Every `go` parameter that takes a number (the list the UCI fuzz target uses).
const PARAMETERS: &[&str] = GO_NUMBER_PARAMETERS;

/// Sends `go`, lets it run up to `own` on its own, then stops it; checks the move and that
/// `stop` was obeyed promptly. Returns whether the search ended by itself and its lines.
fn go_then_stop(e: &mut Engine, game: &Game, go: &str, own: Duration) -> (bool, Vec<String>) {
    e.send(go);
    let deadline = Instant::now() + own;
    let mut lines = Vec::new();
    while let Some(line) = e.recv(deadline.saturating_duration_since(Instant::now())) {
        let done = line.starts_with("bestmove");
        lines.push(line);
        if done {
            break;
        }
    }
    let by_itself = lines.iter().any(|l| l.starts_with("bestmove"));
    if !by_itself {
        let start = Instant::now();
        e.send("stop");
        let (rest, _) = e.bestmove(SOON);
        assert!(start.elapsed() < PROMPT, "'{go}': stop took {:?}", start.elapsed());
        lines.extend(rest);
    }
    let best = lines.iter().find(|l| l.starts_with("bestmove")).unwrap();
    assert_legal(game, best.split_whitespace().nth(1).unwrap());
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove")).count(),
        1,
        "{}",
        e.dump()
    );
    (by_itself, lines)
}

fn errors(lines: &[String]) -> usize {
    lines.iter().filter(|l| l.starts_with("info string error")).count()
}

#[test]
fn go_with_every_parameter_at_zero() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e4");
    let game = game_of("position startpos moves e2e4");
    let all: Vec<String> = PARAMETERS.iter().map(|p| format!("{p} 0")).collect();
    let go = format!("go {}", all.join(" "));
    let (by_itself, lines) = go_then_stop(&mut e, &game, &go, SOON);
    assert!(by_itself, "'{go}' has no time: it must answer at once\n{}", e.dump());
    // movestogo, depth, nodes and mate must be at least 1: one error each.
    assert_eq!(errors(&lines), 4, "{}", e.dump());
    for &p in PARAMETERS {
        let go = format!("go {p} 0");
        let (by_itself, lines) = go_then_stop(&mut e, &game, &go, Duration::from_secs(1));
        // Black to move: `btime 0` (and `movetime 0`, depth and nodes 1) end the search.
        if matches!(p, "btime" | "movetime" | "depth" | "nodes") {
            assert!(by_itself, "'{go}' must end by itself\n{}", e.dump());
        }
        let expected = usize::from(matches!(p, "movestogo" | "depth" | "nodes" | "mate"));
        assert_eq!(errors(&lines), expected, "'{go}'\n{}", e.dump());
    }
    e.finish();
}

#[test]
fn go_with_every_parameter_at_its_maximum() {
    let mut e = Engine::start();
    e.send("setoption name Threads value 2");
    e.send("position startpos moves e2e4 d7d5");
    let game = game_of("position startpos moves e2e4 d7d5");
    for max in [i64::MAX.to_string(), u64::MAX.to_string()] {
        let all: Vec<String> = PARAMETERS.iter().map(|p| format!("{p} {max}")).collect();
        let (_, lines) = go_then_stop(
            &mut e,
            &game,
            &format!("go {}", all.join(" ")),
            Duration::from_millis(300),
        );
        // i64::MAX: depth and mate are clamped; u64::MAX: every value is out of range.
        let expected = if max == i64::MAX.to_string() { 2 } else { 9 };
        assert_eq!(errors(&lines), expected, "{}", e.dump());
        for &p in PARAMETERS {
            let (_, lines) = go_then_stop(&mut e, &game, &format!("go {p} {max}"), Duration::from_millis(200));
            let clamped = matches!(p, "depth" | "mate") || max == u64::MAX.to_string();
            assert_eq!(errors(&lines), usize::from(clamped), "go {p} {max}\n{}", e.dump());
        }
    }
    // Large clocks with increments and a far time control still give a move in time.
    let (by_itself, _) = go_then_stop(
        &mut e,
        &game,
        &format!("go wtime 100 btime 100 winc {0} binc {0} movestogo {0}", i64::MAX),
        SOON,
    );
    assert!(by_itself, "{}", e.dump());
    e.finish();
}

#[test]
fn stop_and_quit_during_go_infinite_with_eight_threads() {
    let mut e = Engine::start();
    let took = search_and_stop(&mut e, 8);
    println!("stop with 8 threads: {took:?}");
    assert!(took < PROMPT, "stop with 8 threads took {took:?}");
    e.send("go infinite");
    e.collect_for(Duration::from_millis(300));
    let start = Instant::now();
    e.send("quit");
    let (status, rest) = e.wait_exit(SOON);
    let took = start.elapsed();
    assert!(status.success(), "{status}");
    println!("quit with 8 threads: {took:?}");
    assert!(took < PROMPT, "quit with 8 threads took {took:?}");
    let best = rest
        .iter()
        .find(|l| l.starts_with("bestmove"))
        .expect("the search's bestmove");
    assert_legal(
        &game_of("position startpos moves d2d4"),
        best.split_whitespace().nth(1).unwrap(),
    );
}

#[test]
fn input_closed_during_a_search_exits_zero_promptly() {
    for go in ["go infinite", "go depth 127", "go ponder wtime 100000 btime 100000"] {
        let mut e = Engine::start();
        e.send("setoption name Threads value 8");
        e.send("position startpos moves g1f3");
        e.send(go);
        e.collect_for(Duration::from_millis(300));
        let start = Instant::now();
        e.close_input();
        let (status, rest) = e.wait_exit(SOON);
        let took = start.elapsed();
        assert!(status.success(), "{go}: {status}");
        println!("{go}, input closed: exit after {took:?}");
        assert!(took < PROMPT, "{go}: exit took {took:?}");
        let best = rest
            .iter()
            .find(|l| l.starts_with("bestmove"))
            .expect("the search's bestmove");
        assert_legal(
            &game_of("position startpos moves g1f3"),
            best.split_whitespace().nth(1).unwrap(),
        );
    }
}
