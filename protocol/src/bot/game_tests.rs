//! The game loop on recorded stream lines, against a fake site that records what the bot does.

use super::*;
use crate::bot::config::EngineConfig;
use crate::bot::site_page::SiteGame;
use std::sync::Mutex;

/// Records every call; its game page is `record` (none: the page cannot be read).
#[derive(Default)]
struct FakeSite {
    calls: Mutex<Vec<String>>,
    record: Mutex<Option<SiteGame>>,
}

impl FakeSite {
    fn calls(&self) -> Vec<String> {
        self.calls.lock().unwrap().clone()
    }
}

impl GameSite for FakeSite {
    fn send_move(&self, id: &str, uci: &str) -> Result<(), ApiError> {
        self.calls.lock().unwrap().push(format!("move {id} {uci}"));
        Ok(())
    }

    fn abort(&self, id: &str) -> Result<(), ApiError> {
        self.calls.lock().unwrap().push(format!("abort {id}"));
        Ok(())
    }

    fn chat(&self, id: &str, text: &str) -> Result<(), ApiError> {
        self.calls.lock().unwrap().push(format!("chat {id} {text}"));
        Ok(())
    }

    fn page(&self, _id: &str) -> Result<Option<SiteGame>, ApiError> {
        match &*self.record.lock().unwrap() {
            Some(record) => Ok(Some(record.clone())),
            None => Err(ApiError::Network("no page in this test".into())),
        }
    }
}

/// The site's record of a game between `white` and `black`.
fn record(status: i32, result: &str, moves: &[&str], white: &str, black: &str) -> SiteGame {
    SiteGame {
        status,
        result: result.into(),
        moves: moves.iter().map(|m| m.to_string()).collect(),
        white: white.into(),
        black: black.into(),
        initial_fen: String::new(),
    }
}

/// A context for the bot `Vorpal` with a small, quick engine, writing its PGN under a
/// private temporary name.
fn context(site: Arc<FakeSite>, tag: &str) -> (Arc<GameContext>, std::path::PathBuf) {
    context_with(site, tag, false)
}

/// [`context`], pondering or not.
fn context_with(site: Arc<FakeSite>, tag: &str, ponder: bool) -> (Arc<GameContext>, std::path::PathBuf) {
    let pgn = std::env::temp_dir().join(format!("vorpal-bot-game-{tag}-{}.pgn", std::process::id()));
    let _ = std::fs::remove_file(&pgn);
    let engine = EngineSpec::load(&EngineConfig {
        hash: 1,
        ponder,
        ..EngineConfig::default()
    })
    .unwrap();
    let ctx = GameContext {
        site,
        server: "http://127.0.0.1:8080".into(),
        me: "Vorpal".into(),
        engine: Arc::new(engine),
        time: TimeSettings {
            margin_ms: 500,
            max_move_ms: 50,
        },
        overhead: Arc::new(Overhead::new(Duration::from_millis(5))),
        chat: ChatConfig {
            greeting: "Good luck".into(),
            goodbye: String::new(),
        },
        recorder: Arc::new(Recorder::new(&pgn)),
        abort_all: Arc::new(AtomicBool::new(false)),
    };
    (Arc::new(ctx), pgn)
}

/// Runs the game loop on `lines` (then the end of the stream) and returns the PGN written.
fn run_lines(site: &Arc<FakeSite>, tag: &str, lines: &[&str]) -> String {
    let (ctx, pgn) = context(site.clone(), tag);
    let (tx, rx) = mpsc::channel();
    for line in lines {
        tx.send(Msg::Event(Box::new(serde_json::from_str(line).unwrap())))
            .unwrap();
    }
    drop(tx);
    let mut run = GameRun::new(ctx, "iqSgPqOc");
    let ended = run.follow(&rx);
    run.finish(ended);
    let text = std::fs::read_to_string(&pgn).unwrap();
    std::fs::remove_file(&pgn).unwrap();
    text
}

const FULL_BLACK: &str = r#"{"type":"gameFull","id":"iqSgPqOc","variant":{"name":"alice"},"white":{"name":"tester"},"black":{"name":"Vorpal"},"initialFen":"","createdAt":1796195750,"state":{"type":"gameState","moves":"","wtime":60000,"btime":60000,"winc":2,"binc":2,"wdraw":false,"bdraw":false,"wtakeback":false,"btakeback":false,"status":"started"}}"#;

fn state(moves: &str) -> String {
    format!(
        r#"{{"type":"gameState","moves":"{moves}","wtime":60000,"btime":61977,"winc":2,"binc":2,"wdraw":false,"bdraw":false,"wtakeback":false,"btakeback":false,"status":"started"}}"#
    )
}

#[test]
fn a_move_list_that_does_not_replay_is_aborted_not_played() {
    let site = Arc::new(FakeSite::default());
    // e4e5 cannot be played: after 1. e4 e5 the pawns block each other on board B.
    let bad = state("e2e4 e7e5 e4e5");
    let end = r#"{"type":"gameEnd","game":{"id":"iqSgPqOc"}}"#;
    let pgn = run_lines(&site, "bad", &[FULL_BLACK, &state("e2e4"), &bad, end]);
    let calls = site.calls();
    // The bot answered 1. e4 (its turn), then aborted at the broken list and sent nothing more.
    assert_eq!(
        calls[0],
        "chat iqSgPqOc Good luck (Vorpal at level 8 of 8, full strength)"
    );
    assert!(calls[1].starts_with("move iqSgPqOc "), "{calls:?}");
    assert_eq!(calls[2..], ["abort iqSgPqOc"]);
    assert!(pgn.contains("[Result \"*\"]"), "{pgn}");
    assert!(
        pgn.contains("aborted by the bot: the moves do not replay (move 3 (e4e5)"),
        "{pgn}"
    );
}

#[test]
fn a_broken_start_position_is_aborted_at_once() {
    let site = Arc::new(FakeSite::default());
    let full = FULL_BLACK.replace(r#""initialFen":"""#, r#""initialFen":"8/8/8 w - - 0 1""#);
    run_lines(&site, "fen", &[&full]);
    assert_eq!(site.calls(), ["abort iqSgPqOc"]);
}

#[test]
fn the_bot_moves_on_its_turn_only_and_records_the_mate() {
    let site = Arc::new(FakeSite::default());
    // The bot is Black. It moves after 1. e4 and after 2. Qh5 (whatever it chose, the site's
    // states below are what counts), not after its own echoed moves.
    let lines = [
        FULL_BLACK.to_string(),
        state("e2e4"),
        state("e2e4 e7e5"),
        state("e2e4 e7e5 d1h5"),
        state("e2e4 e7e5 d1h5 g8f6"),
        state("e2e4 e7e5 d1h5 g8f6 h5e5"),
        r#"{"type":"gameEnd","game":{"id":"iqSgPqOc"}}"#.to_string(),
    ];
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    let pgn = run_lines(&site, "mate", &refs);
    let moves: Vec<String> = site.calls().into_iter().filter(|c| c.starts_with("move")).collect();
    assert_eq!(moves.len(), 2, "{moves:?}");
    assert!(pgn.contains("[Result \"1-0\"]") && pgn.contains("Qxe5/A#"), "{pgn}");
    assert!(
        pgn.contains("{checkmate (the bot's own reading: the site gave no result)}"),
        "{pgn}"
    );
    assert!(
        pgn.contains("[White \"tester\"]") && pgn.contains("[Black \"Vorpal\"]"),
        "{pgn}"
    );
    assert!(pgn.contains("[TimeControl \"60+2\"]"), "{pgn}");
}

#[test]
fn the_bots_unechoed_mating_move_is_recorded() {
    let site = Arc::new(FakeSite::default());
    let full = FULL_BLACK.replace(r#""black":{"name":"Vorpal"}"#, r#""black":{"name":"tester"}"#);
    let full = full.replace(r#""white":{"name":"tester"}"#, r#""white":{"name":"Vorpal"}"#);
    // The bot (White) is to move with a mate in one; the site answers its move with gameEnd.
    let lines = [
        full.as_str(),
        &state("e2e4 e7e5 d1h5 g8f6"),
        r#"{"type":"gameEnd","game":{"id":"iqSgPqOc"}}"#,
    ];
    let pgn = run_lines(&site, "unechoed", &lines);
    assert!(
        site.calls().contains(&"move iqSgPqOc h5e5".to_string()),
        "{:?}",
        site.calls()
    );
    assert!(pgn.contains("Qxe5/A#\n{checkmate (the bot's own reading"), "{pgn}");
}

#[test]
fn another_variant_is_aborted() {
    let site = Arc::new(FakeSite::default());
    let full = FULL_BLACK.replace(r#"{"name":"alice"}"#, r#"{"name":"chess"}"#);
    run_lines(&site, "variant", &[&full]);
    assert_eq!(site.calls(), ["abort iqSgPqOc"]);
}

#[test]
fn a_move_with_the_opponents_text_is_never_sent() {
    let site = Arc::new(FakeSite::default());
    let (ctx, _pgn) = context(site.clone(), "dup");
    let mut run = GameRun::new(ctx.clone(), "iqSgPqOc");
    let GameEvent::GameState(st) = serde_json::from_str(&state("")).unwrap() else {
        panic!("not a state")
    };
    run.state = Some((st, Instant::now()));
    // White to move; Qd5xd4 wins Black's queen and is the engine's choice ...
    let game = replay("4k3/8/8/3Q4/3q4/8/8/4K3 w - - 0 1", &[]).unwrap();
    let mut engine = ctx.engine.player().unwrap();
    run.think_and_move(&game, None, engine.as_mut(), (Instant::now(), Pondered::Nothing));
    run.sent = None;
    // ... unless the opponent's last move had the text d5d4: the site would drop it, so the
    // bot plays its best other move.
    run.think_and_move(
        &game,
        Some("d5d4"),
        engine.as_mut(),
        (Instant::now(), Pondered::Nothing),
    );
    let calls = site.calls();
    assert_eq!(calls[0], "move iqSgPqOc d5d4");
    assert!(
        calls[1].starts_with("move iqSgPqOc ") && calls[1] != calls[0],
        "{calls:?}"
    );
}

#[test]
fn the_sites_result_and_moves_are_recorded() {
    let site = Arc::new(FakeSite::default());
    // The bot is Black; the stream never sends White's mating move, the site's page has it.
    let lines = [
        FULL_BLACK.to_string(),
        state("e2e4 e7e5 d1h5 g8f6"),
        r#"{"type":"gameEnd","game":{"id":"iqSgPqOc"}}"#.to_string(),
    ];
    *site.record.lock().unwrap() = Some(record(-1, "*", &["e2e4", "e7e5", "d1h5", "g8f6"], "tester", "Vorpal"));
    let (ctx, pgn_path) = context(site.clone(), "site");
    let (tx, rx) = mpsc::channel();
    for line in &lines[..2] {
        tx.send(Msg::Event(Box::new(serde_json::from_str(line).unwrap())))
            .unwrap();
    }
    let mut run = GameRun::new(ctx, "iqSgPqOc");
    let follower = std::thread::spawn(move || {
        let ended = run.follow(&rx);
        run.finish(ended);
    });
    std::thread::sleep(Duration::from_millis(300));
    *site.record.lock().unwrap() = Some(record(
        1,
        "1-0",
        &["e2e4", "e7e5", "d1h5", "g8f6", "h5e5"],
        "tester",
        "Vorpal",
    ));
    tx.send(Msg::Event(Box::new(serde_json::from_str(&lines[2]).unwrap())))
        .unwrap();
    follower.join().unwrap();
    let pgn = std::fs::read_to_string(&pgn_path).unwrap();
    std::fs::remove_file(&pgn_path).unwrap();
    assert!(pgn.contains("Qxe5/A# {the site: checkmate} 1-0"), "{pgn}");
    assert!(pgn.contains("[Termination \"the site: checkmate\"]"), "{pgn}");
}

#[test]
fn a_game_over_before_the_bot_looked_is_recorded_at_once() {
    let site = Arc::new(FakeSite::default());
    *site.record.lock().unwrap() = Some(record(2, "0-1", &["e2e4", "e7e5", "d1h5"], "tester", "Vorpal"));
    let started = Instant::now();
    // No stream line at all: the site's page alone ends the game.
    let (_tx, rx) = mpsc::channel();
    let (ctx, pgn_path) = context(site.clone(), "down");
    let mut run = GameRun::new(ctx, "iqSgPqOc");
    let ended = run.follow(&rx);
    run.finish(ended);
    assert!(started.elapsed() < Duration::from_secs(2));
    let pgn = std::fs::read_to_string(&pgn_path).unwrap();
    std::fs::remove_file(&pgn_path).unwrap();
    assert!(
        pgn.contains("[White \"tester\"]") && pgn.contains("[Black \"Vorpal\"]"),
        "{pgn}"
    );
    assert!(pgn.contains("2. Qh5 {the site: White resigned} 0-1"), "{pgn}");
    assert!(site.calls().is_empty(), "{:?}", site.calls());
}

#[test]
fn no_greeting_or_goodbye_around_an_abort_at_move_zero() {
    let site = Arc::new(FakeSite::default());
    *site.record.lock().unwrap() = Some(record(-1, "*", &[], "tester", "Vorpal"));
    let (ctx, pgn_path) = context(site.clone(), "abort0");
    let mut ctx = Arc::try_unwrap(ctx).ok().unwrap();
    ctx.chat.goodbye = "Thanks".into();
    let (tx, rx) = mpsc::channel();
    tx.send(Msg::Event(Box::new(serde_json::from_str(FULL_BLACK).unwrap())))
        .unwrap();
    let mut run = GameRun::new(Arc::new(ctx), "iqSgPqOc");
    let follower = std::thread::spawn(move || {
        let ended = run.follow(&rx);
        run.finish(ended);
    });
    std::thread::sleep(Duration::from_millis(300));
    *site.record.lock().unwrap() = Some(record(0, "*", &[], "tester", "Vorpal"));
    tx.send(Msg::Event(Box::new(
        serde_json::from_str(r#"{"type":"gameEnd"}"#).unwrap(),
    )))
    .unwrap();
    follower.join().unwrap();
    let pgn = std::fs::read_to_string(&pgn_path).unwrap();
    std::fs::remove_file(&pgn_path).unwrap();
    assert!(site.calls().is_empty(), "{:?}", site.calls());
    assert!(pgn.contains("{the site: aborted} *"), "{pgn}");
}

#[test]
fn an_unechoed_move_is_resent_only_while_the_site_lacks_it() {
    let site = Arc::new(FakeSite::default());
    let (ctx, _pgn) = context(site.clone(), "resend");
    let mut run = GameRun::new(ctx.clone(), "iqSgPqOc");
    let GameEvent::GameState(st) = serde_json::from_str(&state("e2e4")).unwrap() else {
        panic!("not a state")
    };
    run.state = Some((st, Instant::now()));
    run.me = Color::Black;
    let game = replay("", &["e2e4"]).unwrap();
    let mut engine = ctx.engine.player().unwrap();
    run.think_and_move(
        &game,
        Some("e2e4"),
        engine.as_mut(),
        (Instant::now(), Pondered::Nothing),
    );
    let sent = site.calls()[0].clone();
    let text = sent.rsplit(' ').next().unwrap().to_string();
    let long_ago = Instant::now() - Duration::from_secs(4);
    // The site's page still lacks the move: it goes again.
    *site.record.lock().unwrap() = Some(record(-1, "*", &["e2e4"], "tester", "Vorpal"));
    run.sent.as_mut().unwrap().at = long_ago;
    assert_eq!(run.resend_if_lost(), None);
    assert_eq!(site.calls(), [sent.clone(), sent.clone()]);
    // The page has it and the opponent's answer: never again (it would be an invalid move).
    *site.record.lock().unwrap() = Some(record(-1, "*", &["e2e4", &text, "d2d4"], "tester", "Vorpal"));
    run.sent.as_mut().unwrap().at = long_ago;
    assert_eq!(run.resend_if_lost(), None);
    run.sent.as_mut().unwrap().at = long_ago;
    assert_eq!(run.resend_if_lost(), None);
    assert_eq!(site.calls().len(), 2);
    assert!(run.sent.as_ref().unwrap().delivered);
}

#[test]
fn pondering_hits_and_misses_in_the_game_loop() {
    let site = Arc::new(FakeSite::default());
    let (ctx, _pgn) = context_with(site.clone(), "ponder", true);
    // Time for a line of two moves or more even on a loaded machine (CI once got a one-move
    // line at 50 ms, so nothing to ponder on).
    let mut ctx = Arc::try_unwrap(ctx).ok().expect("one owner");
    ctx.time.max_move_ms = 400;
    let mut run = GameRun::new(Arc::new(ctx), "iqSgPqOc");
    let full: GameFull = serde_json::from_str(FULL_BLACK).unwrap();
    run.start(&full);
    run.full = Some(full);
    let mut moves = vec!["e2e4".to_string()];
    let state_of = |moves: &[String]| serde_json::from_str::<GameState>(&state(&moves.join(" "))).unwrap();
    let last_sent = |site: &FakeSite| {
        let calls = site.calls();
        let last = calls.iter().rev().find(|c| c.starts_with("move ")).unwrap();
        last.rsplit(' ').next().unwrap().to_string()
    };
    for round in 0..2 {
        run.on_state(state_of(&moves));
        moves.push(last_sent(&site));
        let (after, reply) = run.expect.clone().expect("the search's expected reply");
        assert_eq!(after.moves().len(), moves.len());
        // The echo of the bot's move: the bot ponders on the expected reply.
        run.on_state(state_of(&moves));
        assert!(run.engine.pondering_after(run.game.as_ref().unwrap()), "round {round}");
        std::thread::sleep(Duration::from_millis(200));
        let pos = *after.position();
        let answer = if round == 0 {
            reply
        } else {
            pos.legal_moves().into_iter().find(|&m| m != reply).unwrap()
        };
        moves.push(pos.move_to_uci(answer));
    }
    run.on_state(state_of(&moves));
    let game = run.game.clone().unwrap();
    let mv = game.position().parse_uci(&last_sent(&site)).unwrap();
    assert!(game.position().is_legal(mv));
    assert_eq!(run.ponder_hits, (1, 1));
    assert_eq!(site.calls().iter().filter(|c| c.starts_with("move ")).count(), 3);
}
