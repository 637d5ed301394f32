//! One page's game: the move tree (main line and variations, every move checked by the rules
//! core), the shown node, the tags it came with, the mode, the clocks and the engines. Every
//! change bumps a version number that the page's long poll waits on; engine output is folded
//! in by the hub's ticker at most ten times a second.

use super::engine_pool::EnginePool;
use super::lines::Analysis;
use super::notation::refusal;
use super::review_state::Review;
use super::settings::{Limit, Mode, Settings};
use super::tree::GameTree;
use super::worker::{EngineWorker, Event, Job};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, Weak};
use std::time::{Duration, Instant};
use vorpal_client::arbiter::{bare_king, color_name, end_text};
use vorpal_client::engine_process::EngineConfig;
use vorpal_engine::{Color, EnPassant, EndReason, GameResult, Move, Position, Rules};

/// What an engine slot knows about its engine.
#[derive(Clone, Debug, Default)]
pub struct EngineState {
    /// Index into the configured engines.
    pub index: usize,
    /// Name from the handshake (the configured name until then).
    pub name: String,
    /// True once the handshake is done.
    pub ready: bool,
    /// The `UCI_Variant` values it lists.
    pub variants: Vec<String>,
    /// The page-settable options it lists.
    pub options: Vec<String>,
    /// Why it failed, when it did (the page offers a restart).
    pub failed: Option<String>,
}

/// The search in progress.
#[derive(Clone, Debug)]
pub struct Search {
    /// Search number.
    pub id: u64,
    /// Engine slot (0 White / analysis, 1 Black).
    pub slot: usize,
    /// The position searched.
    pub position: Position,
    /// True for infinite analysis, false for a move search.
    pub analysis: bool,
}

/// The clocks of a timed game.
#[derive(Clone, Debug)]
pub struct Clocks {
    /// Milliseconds left for White and Black.
    pub left_ms: [i64; 2],
    /// Added after each move.
    pub inc_ms: i64,
    /// When the side to move started thinking (None: the clocks are stopped).
    pub since: Option<Instant>,
    /// Whose clock runs (or ran last).
    pub turn: Color,
}

/// The game of one page.
pub struct PageSession {
    /// The configured engines.
    pub engines: Arc<Vec<EngineConfig>>,
    /// The moves and variations.
    pub tree: GameTree,
    /// The node shown (0 = start position).
    pub cursor: usize,
    /// The tags the game came with (an imported or restored game's), in file order.
    pub headers: Vec<(String, String)>,
    /// The imported `Result` tag and the main line's last node it belongs to.
    pub imported_result: Option<(String, usize)>,
    /// A loss on time: the node where the flag fell, the result and its text.
    pub flag: Option<(usize, String, String)>,
    /// The person asked to see the engine's thoughts while playing it.
    pub show_engine: bool,
    /// Mode, limits and strength.
    pub settings: Settings,
    /// Players' names for the PGN.
    pub players: [String; 2],
    /// The clocks, in a timed mode.
    pub clocks: Option<Clocks>,
    /// Engine slots: 0 White (and analysis), 1 Black.
    pub engine: [EngineState; 2],
    workers: [Option<EngineWorker>; 2],
    generation: [u64; 2],
    /// The search in progress.
    pub search: Option<Search>,
    next_id: u64,
    /// The engine's latest lines and tablebase verdict, and the position they are about.
    pub analysis: Analysis,
    /// Result (`1-0`, ...) and its explanation when the shown node ends the game.
    pub result: Option<(String, String)>,
    /// The last command's error (the page shows it in one place until the next success).
    pub message: Option<String>,
    /// An engine's failure, shown in the status line until the engine is restarted.
    pub alert: Option<String>,
    /// Changes with every update the page should see.
    pub version: u64,
    /// The server's engines, counted against its cap.
    pool: Arc<EnginePool>,
    /// The game report of the main line, running or done.
    pub review: Option<Review>,
}

/// A session shared between the HTTP threads, the engine threads and the ticker.
pub struct Shared {
    state: Mutex<PageSession>,
    changed: Condvar,
}

impl Shared {
    /// A new session at the standard start position.
    pub fn new(engines: Arc<Vec<EngineConfig>>, pool: Arc<EnginePool>) -> Arc<Shared> {
        let name = engines.first().map_or_else(String::new, |e| e.name.clone());
        let session = PageSession {
            engines,
            tree: GameTree::new(Position::startpos()),
            cursor: 0,
            headers: Vec::new(),
            imported_result: None,
            flag: None,
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
            result: None,
            message: None,
            alert: None,
            version: 1,
            pool,
            review: None,
        };
        let shared = Arc::new(Shared {
            state: Mutex::new(session),
            changed: Condvar::new(),
        });
        shared.lock().start_engine(&shared, 0);
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
        self.update(|s, shared| {
            s.check_flag(shared);
            if s.analysis.dirty {
                s.analysis.dirty = false;
                s.bump();
            }
        });
    }

    /// Ends the engines (the session is being dropped by the hub).
    pub fn close(&self) {
        let mut s = self.lock();
        s.workers = [None, None];
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
    /// True when engine slot `slot` has a running (or failed) engine.
    pub fn engine_in_use(&self, slot: usize) -> bool {
        self.workers[slot].is_some() || self.engine[slot].failed.is_some()
    }

    /// The server's engine cap.
    pub(super) fn pool(&self) -> &Arc<EnginePool> {
        &self.pool
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

    /// The result at node `id`: a flag that fell there, or the rules' ending.
    pub fn result_at(&self, id: usize) -> Option<(String, String)> {
        if let Some((node, r, why)) = &self.flag {
            if *node == id {
                return Some((r.clone(), why.clone()));
            }
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

    fn start_engine(&mut self, shared: &Arc<Shared>, slot: usize) {
        let index = self.settings.engine[slot].min(self.engines.len().saturating_sub(1));
        let Some(config) = self.engines.get(index).cloned() else {
            self.engine[slot].failed = Some("no engine configured".into());
            return;
        };
        self.generation[slot] += 1;
        let generation = self.generation[slot];
        let weak: Weak<Shared> = Arc::downgrade(shared);
        let options = self.settings.engine_options(|_| true);
        self.engine[slot] = EngineState {
            index,
            name: config.name.clone(),
            ..EngineState::default()
        };
        let worker = EngineWorker::spawn(&self.pool, config, self.rules(), options, move |event| {
            if let Some(shared) = weak.upgrade() {
                shared.update(|s, sh| s.on_event(sh, slot, generation, event));
            }
        });
        match worker {
            Ok(w) => self.workers[slot] = Some(w),
            Err(why) => {
                self.workers[slot] = None;
                self.alert = Some(format!("Engine not started: {why}."));
                self.engine[slot].failed = Some(why);
            }
        }
        if self.search.as_ref().is_some_and(|s| s.slot == slot) {
            self.search = None;
        }
    }

    /// Restarts every engine the mode needs (after a failure, or new rules or settings).
    pub fn restart_engines(&mut self, shared: &Arc<Shared>) {
        self.workers = [None, None];
        self.search = None;
        self.analysis.clear();
        self.message = None;
        self.alert = None;
        self.start_engine(shared, 0);
        if self.settings.mode == Mode::Watch || self.settings.engine[1] != self.settings.engine[0] {
            self.start_engine(shared, 1);
        }
        self.bump();
        self.kick();
    }

    /// The slot that plays `side` (slot 0 when one engine plays both).
    fn slot_for(&self, side: Color) -> usize {
        if side == Color::Black && self.workers[1].is_some() {
            1
        } else {
            0
        }
    }

    fn on_event(&mut self, shared: &Arc<Shared>, slot: usize, generation: u64, event: Event) {
        if generation != self.generation[slot] {
            return;
        }
        match event {
            Event::Ready {
                name,
                variants,
                options,
            } => {
                let e = &mut self.engine[slot];
                e.ready = true;
                e.name = name;
                e.variants = variants;
                e.options = options;
                self.bump();
                self.kick();
            }
            Event::Info(id, line) => {
                if let Some(search) = self.search.as_ref().filter(|s| s.id == id) {
                    self.analysis.read(search.position, &line);
                }
            }
            Event::BestMove(id, text) => {
                let Some(search) = self.search.clone().filter(|s| s.id == id) else {
                    return;
                };
                self.search = None;
                if !search.analysis {
                    self.engine_move(&text, slot);
                }
                self.kick();
                let _ = shared;
            }
            Event::Notice(text) => {
                self.message = Some(text);
                self.bump();
            }
            Event::Failed(why) => {
                self.workers[slot] = None;
                if self.search.as_ref().is_some_and(|s| s.slot == slot) {
                    self.search = None;
                }
                self.stop_clocks();
                self.alert = Some(format!("Engine failed: {why}. The game is kept; press Restart engine."));
                self.engine[slot].failed = Some(why);
                self.bump();
            }
        }
    }

    /// Checks and plays an engine's move; an illegal one is refused and reported.
    fn engine_move(&mut self, text: &str, slot: usize) {
        if !self.at_end() || self.result.is_some() {
            return;
        }
        match self.tree.arbiter_to(self.cursor).check(text) {
            Ok(mv) => self.play_checked(mv),
            Err(e) => {
                let why = format!("sent an illegal move: {e}");
                self.workers[slot] = None;
                self.stop_clocks();
                self.alert = Some(format!(
                    "{} {why}. The game is kept; press Restart engine.",
                    self.engine[slot].name
                ));
                self.engine[slot].failed = Some(why);
                self.bump();
            }
        }
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
        self.analysis.clear();
        if self.result.is_some() {
            self.stop_clocks();
        } else if let Some(c) = self.clocks.as_mut() {
            c.since = Some(Instant::now());
        }
        self.bump();
    }

    fn stop_clocks(&mut self) {
        if let Some(c) = self.clocks.as_mut() {
            if let Some(since) = c.since.take() {
                c.left_ms[c.turn.index()] -= since.elapsed().as_millis() as i64;
            }
        }
    }

    /// Milliseconds left for each side now.
    pub fn clock_now(&self) -> Option<[i64; 2]> {
        let c = self.clocks.as_ref()?;
        let mut left = c.left_ms;
        if let Some(since) = c.since {
            left[c.turn.index()] -= since.elapsed().as_millis() as i64;
        }
        Some(left)
    }

    fn check_flag(&mut self, _shared: &Arc<Shared>) {
        if self.flag.is_some() || self.result.is_some() {
            return;
        }
        let Some(left) = self.clock_now() else { return };
        let Some(side) = self.clocks.as_ref().filter(|c| c.since.is_some()).map(|c| c.turn) else {
            return;
        };
        if left[side.index()] <= 0 {
            self.stop_clocks();
            let end = self.tree.line_end(self.cursor);
            let (result, text) = if bare_king(&self.tree.node(end).position, side.flip()) {
                (
                    "1/2-1/2".to_string(),
                    format!(
                        "{} lost on time, but the opponent has a bare king: draw",
                        color_name(side)
                    ),
                )
            } else {
                let r = GameResult::win_for(side.flip()).pgn().to_string();
                (r, format!("{} loses on time", color_name(side)))
            };
            self.flag = Some((end, result, text));
            self.set_cursor(self.cursor);
            self.stop_search();
            self.bump();
        }
    }

    pub(super) fn stop_search(&mut self) {
        if let Some(s) = self.search.take() {
            if let Some(w) = &self.workers[s.slot] {
                w.send(Job::Stop);
            }
        }
    }

    /// Starts or stops engine searches as the mode and the game require.
    pub fn kick(&mut self) {
        let mode = self.settings.mode;
        let pos = *self.shown();
        let terminal = pos.count_legal() == 0;
        let want: Option<(usize, bool)> = match mode {
            Mode::Analysis if !terminal => Some((0, true)),
            Mode::Play { .. } | Mode::Watch
                if self.at_end() && self.result.is_none() && mode.engine_moves(pos.side_to_move()) =>
            {
                Some((self.slot_for(pos.side_to_move()), false))
            }
            _ => None,
        };
        let Some((slot, analysis)) = want else {
            self.stop_search();
            return;
        };
        if self
            .search
            .as_ref()
            .is_some_and(|s| s.slot == slot && s.analysis == analysis && s.position == pos)
        {
            return;
        }
        let ready = self.engine[slot].ready && self.engine[slot].failed.is_none();
        let Some(worker) = self.workers[slot].as_ref().filter(|_| ready) else {
            return;
        };
        if let Some(old) = self.search.take() {
            if old.slot != slot {
                if let Some(w) = &self.workers[old.slot] {
                    w.send(Job::Stop);
                }
            }
        }
        let id = self.next_id;
        self.next_id += 1;
        let (go, expected) = if analysis {
            ("go infinite".to_string(), None)
        } else {
            self.go_command(pos.side_to_move())
        };
        worker.send(Job::Go {
            id,
            position: self.tree.arbiter_to(self.cursor).position_command(),
            go,
            expected,
        });
        self.analysis.clear();
        self.search = Some(Search {
            id,
            slot,
            position: pos,
            analysis,
        });
        if let Some(c) = self.clocks.as_mut() {
            c.turn = pos.side_to_move();
            c.since.get_or_insert_with(Instant::now);
        }
    }

    /// The `go` command for a move search and the longest it should take.
    fn go_command(&self, side: Color) -> (String, Option<Duration>) {
        match (self.settings.limit, self.clock_now()) {
            (Limit::Clock { inc_ms, .. }, Some(left)) => {
                let (w, b) = (left[0].max(1), left[1].max(1));
                let mine = left[side.index()].max(1) as u64;
                (
                    format!("go wtime {w} btime {b} winc {inc_ms} binc {inc_ms}"),
                    Some(Duration::from_millis(mine + inc_ms)),
                )
            }
            (Limit::MoveTime(ms), _) => (format!("go movetime {ms}"), Some(Duration::from_millis(ms))),
            (Limit::Depth(d), _) => (format!("go depth {d}"), Some(Duration::from_secs(120))),
            (Limit::Clock { base_ms, .. }, None) => (
                format!("go movetime {}", (base_ms / 40).max(50)),
                Some(Duration::from_millis(base_ms / 40)),
            ),
        }
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
        if self.flag.as_ref().is_some_and(|f| !self.tree.contains(f.0)) {
            self.flag = None;
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
        self.flag = None;
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

    fn reset_clocks(&mut self) {
        self.clocks = match (self.settings.mode, self.settings.limit) {
            (Mode::Play { .. } | Mode::Watch, Limit::Clock { base_ms, inc_ms }) => Some(Clocks {
                left_ms: [base_ms as i64; 2],
                inc_ms: inc_ms as i64,
                since: None,
                turn: self.shown().side_to_move(),
            }),
            _ => None,
        };
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
        let restart = old.engine != settings.engine
            || old.skill != settings.skill
            || old.elo != settings.elo
            || old.multipv != settings.multipv
            || (old.mode == Mode::Analysis) != (settings.mode == Mode::Analysis)
            || (settings.mode == Mode::Watch && self.workers[1].is_none() && settings.engine[1] != settings.engine[0])
            || self.engine.iter().any(|e| e.failed.is_some());
        self.bump();
        if restart {
            self.restart_engines(shared);
        } else {
            self.kick();
        }
    }

    /// Stops the engines' play: the game continues between people; the clocks stop where
    /// they are and the last analysis lines stay.
    pub fn stop_engines(&mut self) {
        self.settings.mode = Mode::Human;
        self.stop_search();
        self.stop_clocks();
        self.bump();
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

    /// A session whose engine cannot start (people play; engine failures are reported).
    fn people() -> Arc<Shared> {
        let engines = vec![EngineConfig {
            name: "none".into(),
            cmd: "/nonexistent/engine".into(),
            ..EngineConfig::default()
        }];
        Shared::new(Arc::new(engines), EnginePool::new(2))
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
            assert_eq!(s.view()["cursor"], 1);
            // A move in an earlier position starts a variation; the main line stays.
            assert!(s.person_move("g8n6").is_ok());
            assert_eq!(line_sans(s), ["e4", "Nf6"]);
            let main: Vec<String> = s.tree.main_line().iter().map(|&n| s.tree.node(n).san.clone()).collect();
            assert_eq!(main, ["e4", "d5"]);
            assert_eq!(s.view()["mainLine"], false);
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
            assert!(s.view()["legal"].as_array().unwrap().is_empty());
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
        let shared = people();
        let failed = (0..1000).any(|_| {
            std::thread::sleep(Duration::from_millis(10));
            shared.lock().engine[0].failed.is_some()
        });
        assert!(failed);
        let s = shared.lock();
        assert!(s.view()["status"].as_str().unwrap().contains("Engine failed"));
        assert!(s.engine_in_use(0));
    }
}
