//! One page's game: the move tree (main line and variations, every move checked by the rules
//! core), the shown node, the tags it came with, the mode, the clocks and the engines. Every
//! change bumps a version number that the page's long poll waits on; engine output is folded
//! in by the hub's ticker at most ten times a second. The engines' side is in [`engines`], the
//! clocks' in [`clocks`].

mod clocks;
mod ending;
mod engines;
mod review;

pub use clocks::Clocks;
pub use ending::Ending;
pub use engines::{EngineState, Search};

use crate::host::{EngineLink, PageHost};
use crate::lines::Analysis;
use crate::notation::refusal;
use crate::review::Review;
use crate::settings::{Mode, Settings};
use crate::tree::GameTree;
use clocks::Declared;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;
use vorpal_client::arbiter::{color_name, end_text};
use vorpal_client::engine_process::EngineConfig;
use vorpal_engine::clock::Instant;
use vorpal_engine::{Color, EnPassant, EndReason, GameResult, Move, Position, Rules};

/// The game of one page.
pub struct PageSession {
    /// The configured engines.
    pub(super) engines: Arc<Vec<EngineConfig>>,
    /// The moves and variations.
    pub(super) tree: GameTree,
    /// The node shown (0 = start position).
    pub(super) cursor: usize,
    /// The tags the game came with (an imported or restored game's), in file order.
    pub(super) headers: Vec<(String, String)>,
    /// The imported `Result` tag and the main line's last node it belongs to.
    imported_result: Option<(String, usize)>,
    /// An end declared off the board: a loss on time, a resignation, a draw agreed, an abort.
    declared: Option<Declared>,
    /// The person asked to see the engine's thoughts while playing it.
    pub(super) show_engine: bool,
    /// Mode, limits and strength.
    pub(super) settings: Settings,
    /// Players' names for the PGN.
    pub(super) players: [String; 2],
    /// The clocks, in a timed mode.
    pub(super) clocks: Option<Clocks>,
    /// Engine slots: 0 White (and analysis), 1 Black.
    pub(super) engine: [EngineState; 2],
    workers: [Option<Box<dyn EngineLink>>; 2],
    generation: [u64; 2],
    /// The search in progress.
    pub(super) search: Option<Search>,
    next_id: u64,
    /// The engine's latest lines and tablebase verdict, and the position they are about.
    pub(super) analysis: Analysis,
    /// The last judgement an engine made of the game before a move was played: the side it
    /// searched for and its score for that side in centipawns (a draw offer is answered by it).
    engine_judgement: Option<(Color, i32)>,
    /// Result (`1-0`, ...) and its explanation when the shown node ends the game.
    pub(super) result: Option<(String, String)>,
    /// The last command's error (the page shows it in one place until the next success).
    pub(super) message: Option<String>,
    /// An engine's failure, shown in the status line until the engine is restarted.
    pub(super) alert: Option<String>,
    /// Changes with every update the page should see.
    pub(super) version: u64,
    /// The program hosting the session: its engines and game reports.
    pub(crate) host: Arc<dyn PageHost>,
    /// The game report of the main line, running or done.
    pub(crate) review: Option<Review>,
}

/// A session shared between the HTTP threads, the engine threads and the ticker.
pub struct Shared {
    state: Mutex<PageSession>,
    changed: Condvar,
}

impl Shared {
    /// A new session at the standard start position.
    pub fn new(engines: Arc<Vec<EngineConfig>>, host: Arc<dyn PageHost>) -> Arc<Shared> {
        let name = engines.first().map_or_else(String::new, |e| e.name.clone());
        let session = PageSession {
            engines,
            tree: GameTree::new(Position::startpos()),
            cursor: 0,
            headers: Vec::new(),
            imported_result: None,
            declared: None,
            show_engine: false,
            settings: Settings::default(),
            players: ["White".into(), "Black".into()],
            clocks: None,
            engine: [
                EngineState {
                    name: name.clone(),
                    ..EngineState::default()
                },
                EngineState {
                    name,
                    ..EngineState::default()
                },
            ],
            workers: [None, None],
            generation: [0, 0],
            search: None,
            next_id: 1,
            analysis: Analysis::default(),
            engine_judgement: None,
            result: None,
            message: None,
            alert: None,
            version: 1,
            host,
            review: None,
        };
        let shared = Arc::new(Shared {
            state: Mutex::new(session),
            changed: Condvar::new(),
        });
        let needs = shared.lock().settings.mode.needs_engine();
        if needs {
            shared.lock().start_engine(&shared, 0);
        }
        shared
    }

    /// The session, locked. A panic while it was held leaves it usable (the data is plain).
    pub fn lock(&self) -> MutexGuard<'_, PageSession> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Runs `f` on the session, then wakes the waiting pages if the version changed.
    pub fn update<T>(self: &Arc<Self>, f: impl FnOnce(&mut PageSession, &Arc<Shared>) -> T) -> T {
        let mut s = self.lock();
        let before = s.version;
        let out = f(&mut s, self);
        if s.version != before {
            self.changed.notify_all();
        }
        out
    }

    /// Waits until the version differs from `since` or `timeout` passes; returns the session.
    pub fn wait_change(&self, since: u64, timeout: Duration) -> MutexGuard<'_, PageSession> {
        let deadline = Instant::now() + timeout;
        let mut s = self.lock();
        while s.version == since {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            s = self.changed.wait_timeout(s, left).unwrap_or_else(|p| p.into_inner()).0;
        }
        s
    }

    /// The periodic work: flag falls, and analysis lines folded in (the throttle).
    pub fn tick(self: &Arc<Self>) {
        self.update(|s, _| {
            s.check_flag();
            if s.analysis.dirty {
                s.analysis.dirty = false;
                s.bump();
            }
        });
    }

    /// Ends the engines (the session is being dropped by the hub).
    pub fn close(&self) {
        let mut s = self.lock();
        s.end_engine(0);
        s.end_engine(1);
        s.search = None;
        s.review = None;
    }
}

/// The page's text for a game ended by the rules: `Checkmate: White wins`, `Draw by stalemate`.
fn end_message(pos: &Position, result: GameResult, reason: EndReason) -> String {
    match reason {
        EndReason::Checkmate => format!("Checkmate: {} wins", color_name(pos.side_to_move().flip())),
        _ => end_text(pos, result, reason),
    }
}

impl PageSession {
    /// The version the page's long poll waits on: it changes with every update the page
    /// should show.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// The moves and variations.
    pub fn tree(&self) -> &GameTree {
        &self.tree
    }

    /// What engine slot `slot` (0 White and analysis, 1 Black) knows of its engine.
    pub fn engine_state(&self, slot: usize) -> &EngineState {
        &self.engine[slot]
    }

    /// An engine's failure, as the status line shows it until the engine is restarted.
    pub fn alert(&self) -> Option<&str> {
        self.alert.as_deref()
    }

    /// True when engine slot `slot` has a running (or failed) engine.
    pub fn engine_in_use(&self, slot: usize) -> bool {
        self.workers[slot].is_some() || self.engine[slot].failed.is_some()
    }

    pub(super) fn bump(&mut self) {
        self.version += 1;
    }

    /// The shown position.
    pub fn shown(&self) -> &Position {
        &self.tree.node(self.cursor).position
    }

    /// True when the shown position ends its line (the game goes on from here).
    pub fn at_end(&self) -> bool {
        self.tree.node(self.cursor).children.is_empty()
    }

    /// The rules of the game.
    pub fn rules(&self) -> Rules {
        self.tree.start().rules()
    }

    /// The result at node `id`: an end declared there (a flag, a resignation, a draw agreed,
    /// an abort), or the rules' ending.
    pub fn result_at(&self, id: usize) -> Option<(String, String)> {
        if let Some(end) = self.declared.as_ref().filter(|f| f.node == id) {
            return Some((end.result.clone(), end.text.clone()));
        }
        let (result, reason) = self.tree.outcome_at(id)?;
        Some((
            result.pgn().to_string(),
            end_message(&self.tree.node(id).position, result, reason),
        ))
    }

    /// The game's result for the PGN: the main line's ending, or the imported `Result` while
    /// the main line is as it was imported; `*` otherwise.
    pub fn game_result(&self) -> (String, Option<String>) {
        let end = self.tree.line_end(0);
        if let Some((r, why)) = self.result_at(end) {
            return (r, Some(why));
        }
        match &self.imported_result {
            Some((r, node)) if *node == end => (r.clone(), None),
            _ => ("*".into(), None),
        }
    }

    /// The imported game's `Result` when node `id` is the main line's end it belongs to (and
    /// the result is decided: not `*`).
    pub fn imported_result_at(&self, id: usize) -> Option<&str> {
        self.imported_result
            .as_ref()
            .filter(|(r, node)| *node == id && r != "*")
            .map(|(r, _)| r.as_str())
    }

    /// Shows node `id` (the root when it is no node of the game); the result follows.
    pub(super) fn set_cursor(&mut self, id: usize) {
        self.cursor = if self.tree.contains(id) { id } else { 0 };
        self.result = self.result_at(self.cursor);
    }

    /// True when the game runs against the engine (its thoughts are hidden from the page).
    pub fn engine_hidden(&self) -> bool {
        matches!(self.settings.mode, Mode::Play { .. }) && !self.show_engine && self.result.is_none()
    }

    /// True when a person may move in the shown position.
    pub fn person_may_move(&self) -> bool {
        let side = self.shown().side_to_move();
        if self.result.is_some() {
            return false;
        }
        !(self.at_end() && self.settings.mode.engine_moves(side)) && self.settings.mode != Mode::Watch
    }

    /// Plays a legal move in the shown position (a variation when it had a continuation):
    /// clocks, the tree, game end.
    pub(super) fn play_checked(&mut self, mv: Move) {
        let mover = self.shown().side_to_move();
        if let Some(c) = self.clocks.as_mut() {
            if let Some(since) = c.since {
                let used = since.elapsed().as_millis() as i64;
                c.left_ms[mover.index()] -= used;
                c.left_ms[mover.index()] += c.inc_ms;
            }
            c.turn = mover.flip();
        }
        let node = self.tree.add(self.cursor, mv);
        self.set_cursor(node);
        if let Some(judgement) = self.analysis_judgement() {
            self.engine_judgement = Some(judgement);
        }
        self.analysis.clear();
        if self.result.is_some() {
            self.stop_clocks();
        } else if let Some(c) = self.clocks.as_mut() {
            c.since = Some(Instant::now());
        }
        self.bump();
    }

    /// A person's move in the shown position, as wide UCI text (`e2m4`, from the boards) or
    /// SAN with or without `/A` (typed). A move in an earlier position starts a variation
    /// and keeps the line that was there.
    pub fn person_move(&mut self, text: &str) -> Result<(), String> {
        if !self.person_may_move() {
            return Err(if self.result.is_some() {
                "the game is over".into()
            } else {
                "it is the engine's turn".into()
            });
        }
        let pos = *self.shown();
        let text = text.trim();
        let mv = pos.parse_move(text).map_err(|_| refusal(&pos, text))?;
        self.alert = None;
        self.play_checked(mv);
        self.kick();
        Ok(())
    }

    /// Shows node `id` (the root when it is no node of the game).
    pub fn goto_node(&mut self, id: usize) {
        self.set_cursor(id);
        self.bump();
        self.kick();
    }

    /// Shows ply `ply` of the shown line (clamped to it).
    pub fn goto(&mut self, ply: usize) {
        let line = self.tree.line(self.cursor);
        let id = line[ply.min(line.len() - 1)];
        self.goto_node(id);
    }

    /// Takes back the last move of the shown line (two in play mode, so the person is to move
    /// again): the moves are removed from the tree.
    pub fn take_back(&mut self) -> Result<(), String> {
        let end = self.tree.line_end(self.cursor);
        if end == 0 {
            return Err("no move to take back".into());
        }
        let mut back = end;
        if let Mode::Play { human } = self.settings.mode {
            let parent = self.tree.node(end).parent.unwrap_or(0);
            if self.tree.node(end).position.side_to_move() == human && parent != 0 {
                back = parent;
            }
        }
        self.stop_search();
        let parent = self.tree.delete(back).unwrap_or(0);
        if self.declared.as_ref().is_some_and(|f| !self.tree.contains(f.node)) {
            self.declared = None;
        }
        self.set_cursor(if self.tree.contains(self.cursor) {
            self.cursor
        } else {
            parent
        });
        if let Some(c) = self.clocks.as_mut() {
            c.since = None;
        }
        self.bump();
        self.kick();
        Ok(())
    }

    /// Starts a new game from `start` (with `moves` already played), keeping the settings.
    pub fn new_game(&mut self, shared: &Arc<Shared>, start: Position, moves: &[Move], players: [String; 2]) {
        let mut tree = GameTree::new(start);
        let mut at = 0;
        for &mv in moves {
            at = tree.add(at, mv);
        }
        self.set_game(shared, tree, Vec::new(), players);
    }

    /// Replaces the game by `tree` with its tags, showing the end of its main line.
    pub fn set_game(
        &mut self,
        shared: &Arc<Shared>,
        tree: GameTree,
        headers: Vec<(String, String)>,
        players: [String; 2],
    ) {
        let rules_changed = tree.start().rules() != self.rules();
        self.stop_search();
        self.drop_review();
        self.tree = tree;
        let end = self.tree.line_end(0);
        self.imported_result = headers
            .iter()
            .find(|(k, _)| k == "Result")
            .map(|(_, v)| (v.clone(), end));
        self.headers = headers;
        self.declared = None;
        self.engine_judgement = None;
        self.set_cursor(end);
        self.players = players;
        self.reset_clocks();
        self.analysis.clear();
        self.message = None;
        self.bump();
        if rules_changed {
            self.restart_engines(shared);
        } else {
            self.kick();
        }
    }

    /// New settings: restarts the engines when their options or choice changed.
    pub fn apply_settings(&mut self, shared: &Arc<Shared>, settings: Settings) {
        let old = std::mem::replace(&mut self.settings, settings.clone());
        let mode_changed = old.mode != settings.mode || old.limit != settings.limit;
        if mode_changed {
            self.reset_clocks();
            self.show_engine = false;
        }
        // Playing the engine (or watching engines) names the players; between people and in
        // analysis the game keeps its names (an imported game's tags).
        let engine_game = matches!(settings.mode, Mode::Play { .. } | Mode::Watch);
        if engine_game && (mode_changed || old.engine != settings.engine) {
            let names = |s: &Settings, i: usize| self.engines.get(s.engine[i]).map(|e| e.name.clone());
            self.players = [Color::White, Color::Black].map(|c| {
                if settings.mode.engine_moves(c) {
                    names(&settings, c.index()).unwrap_or_else(|| "engine".into())
                } else if settings.mode.engine_moves(c.flip()) {
                    "You".to_string()
                } else {
                    color_name(c).to_string()
                }
            });
            self.headers.retain(|(k, _)| k != "White" && k != "Black");
        }
        // Leaving a game against the engine for analysis or two people: the bars name the
        // colours, not "You" and the engine.
        if !engine_game && mode_changed && matches!(old.mode, Mode::Play { .. } | Mode::Watch) {
            self.players = [Color::White, Color::Black].map(|c| color_name(c).to_string());
        }
        let restart = old.engine != settings.engine
            || old.skill != settings.skill
            || old.elo != settings.elo
            || old.multipv != settings.multipv
            || (old.mode == Mode::Analysis) != (settings.mode == Mode::Analysis)
            || old.mode.needs_engine() != settings.mode.needs_engine()
            || (settings.mode.needs_engine() && self.workers[0].is_none())
            || (settings.mode == Mode::Watch && self.workers[1].is_none() && settings.engine[1] != settings.engine[0])
            || self.engine.iter().any(|e| e.failed.is_some());
        self.bump();
        if restart {
            self.restart_engines(shared);
        } else {
            self.kick();
        }
    }

    /// The variant menu: the rules core's variants that the engine also lists (all of them
    /// when the engine lists none, as Vorpal's own rules decide legality anyway).
    pub fn variant_names(&self) -> Vec<String> {
        let listed = &self.engine[0].variants;
        vorpal_engine::Variant::ALL
            .iter()
            .map(|v| v.name().to_string())
            .filter(|v| listed.is_empty() || listed.iter().any(|l| l.eq_ignore_ascii_case(v)))
            .collect()
    }

    /// The rules chosen from the page's menu.
    pub fn rules_from(&self, variant: &str, chess960: bool, ep: &str) -> Result<Rules, String> {
        let v: vorpal_engine::Variant = variant.parse()?;
        let ep: EnPassant = ep.parse()?;
        if ep != EnPassant::Off && !v.supports_en_passant() {
            return Err(format!("{} has no en passant", v.name()));
        }
        if chess960 && !v.has_castling() {
            return Err(format!("{} has no castling, so no Chess960", v.name()));
        }
        Ok(Rules::for_variant(v).with_ep(ep).with_chess960(chess960))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_host::TestHost;

    /// A session of `host` whose engine cannot start (people play; engine failures are reported).
    fn people_of(host: Arc<TestHost>) -> Arc<Shared> {
        let engines = vec![EngineConfig {
            name: "none".into(),
            cmd: "/nonexistent/engine".into(),
            ..EngineConfig::default()
        }];
        Shared::new(Arc::new(engines), host)
    }

    fn people() -> Arc<Shared> {
        people_of(TestHost::new())
    }

    /// The view as the page gets it.
    fn view_json(s: &PageSession) -> serde_json::Value {
        serde_json::to_value(s.view()).unwrap()
    }

    fn line_sans(s: &PageSession) -> Vec<String> {
        s.tree.line(s.cursor)[1..]
            .iter()
            .map(|&n| s.tree.node(n).san.clone())
            .collect()
    }

    #[test]
    fn people_play_take_back_and_branch() {
        let shared = people();
        shared.update(|s, _| {
            assert!(s.person_move("e2m4").is_ok());
            assert!(s.person_move("e2e5").is_err(), "e2 is empty now");
            assert_eq!(
                s.person_move("Ke7").unwrap_err(),
                "1... Ke7 is illegal: e7 is occupied by a black piece on board A"
            );
            assert!(s.person_move("d5").is_ok(), "typed SAN");
            assert_eq!(line_sans(s), ["e4", "d5"]);
            s.goto(1);
            assert_eq!(view_json(s)["cursor"], 1);
            // A move in an earlier position starts a variation; the main line stays.
            assert!(s.person_move("g8n6").is_ok());
            assert_eq!(line_sans(s), ["e4", "Nf6"]);
            let main: Vec<String> = s.tree.main_line().iter().map(|&n| s.tree.node(n).san.clone()).collect();
            assert_eq!(main, ["e4", "d5"]);
            assert_eq!(view_json(s)["mainLine"], false);
            assert!(s.pgn_text().contains("1. e4 d5 (1... Nf6) *"), "{}", s.pgn_text());
            // Take back removes the shown line's last move.
            assert!(s.take_back().is_ok());
            assert_eq!(line_sans(s), ["e4", "d5"]);
            assert_eq!(s.tree.len(), 2);
        });
    }

    #[test]
    fn mate_ends_the_game() {
        let shared = people();
        shared.update(|s, _| {
            for m in ["e2m4", "d7l5", "f1m2", "l5e4", "m2b5"] {
                s.person_move(m).unwrap();
            }
            let (result, text) = s.result.clone().unwrap();
            assert_eq!((result.as_str(), text.as_str()), ("1-0", "Checkmate: White wins"));
            assert_eq!(s.person_move("e8e7").unwrap_err(), "the game is over");
            assert!(view_json(s)["legal"].as_array().unwrap().is_empty());
            assert_eq!(s.tree.node(s.cursor).san, "Bb5/A#");
            // Back before the mate the game goes on; at the mate it is over again.
            s.goto(4);
            assert!(s.result.is_none() && s.person_may_move());
            s.goto(5);
            assert!(s.result.is_some());
            assert!(
                s.pgn_text().contains("3. Bb5/A# {Checkmate: White wins} 1-0"),
                "{}",
                s.pgn_text()
            );
        });
    }

    #[test]
    fn an_engine_that_cannot_start_is_reported() {
        let host = TestHost::new();
        let shared = people_of(host.clone());
        // Between people no engine starts; analysis needs one.
        assert!(!shared.lock().engine_in_use(0));
        shared.update(|s, shared| {
            let settings = Settings {
                mode: Mode::Analysis,
                ..s.settings.clone()
            };
            s.apply_settings(shared, settings);
        });
        // The host reports the failure later, outside the session's lock, as its threads do.
        host.deliver(crate::engine_talk::Event::Failed(
            "none: cannot start /nonexistent/engine".into(),
        ));
        assert!(shared.lock().engine[0].failed.is_some());
        let s = shared.lock();
        assert!(view_json(&s)["status"].as_str().unwrap().contains("Engine failed"));
        assert!(s.engine_in_use(0));
    }

    /// Analysis asks the engine for an infinite search once it is ready, and its lines reach
    /// the view (the host delivers the engine's words outside the session's lock).
    #[test]
    fn analysis_searches_once_the_engine_is_ready() {
        use crate::engine_talk::{Event, Job};
        let host = TestHost::new();
        let shared = people_of(host.clone());
        shared.update(|s, shared| {
            let settings = Settings {
                mode: Mode::Analysis,
                ..s.settings.clone()
            };
            s.apply_settings(shared, settings);
        });
        assert!(host.jobs().is_empty(), "no search before the handshake");
        host.deliver(Event::Ready {
            name: "Fake".into(),
            variants: vec!["alice".into()],
            options: vec!["MultiPV".into()],
            elo_range: None,
        });
        let jobs = host.jobs();
        let Some(Job::Go { id, go, expected, .. }) = jobs.last().cloned() else {
            panic!("no search: {jobs:?}");
        };
        assert!(go.starts_with("go infinite") && expected.is_none(), "{go}");
        host.deliver(Event::Info(id, "info depth 5 multipv 1 score cp 31 pv e2e4".into()));
        shared.tick();
        let view = view_json(&shared.lock());
        assert_eq!(view["engines"][0]["name"], "Fake", "{view}");
        assert!(view.to_string().contains("0.31"), "{view}");
    }
}
