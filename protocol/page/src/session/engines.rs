//! A session's engines: starting them (each in its own slot, restarted after a failure or a
//! change of rules or settings), what they say (ready, lines, moves, failures) and the
//! searches the mode asks of them.

use super::{PageSession, Shared};
use crate::engine_talk::{Event, Job};
use crate::settings::{Limit, Mode};
use std::sync::{Arc, Weak};
use std::time::Duration;
use vorpal_engine::clock::Instant;
use vorpal_engine::{Color, Position};

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
    /// The range of its `UCI_Elo`, when it lists one.
    pub elo_range: Option<(i64, i64)>,
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

impl PageSession {
    /// Starts the engine that the settings choose for `slot`; a failure to start is
    /// reported in the status line and the slot's state.
    pub(super) fn start_engine(&mut self, shared: &Arc<Shared>, slot: usize) {
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
        let on_event = Box::new(move |event| {
            if let Some(shared) = weak.upgrade() {
                shared.update(|s, _| s.on_event(slot, generation, event));
            }
        });
        let worker = self.host.start_engine(config, self.rules(), options, on_event);
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

    /// Refuses an Elo outside the range a started engine that the settings choose listed.
    pub fn check_elo(&self, settings: &crate::settings::Settings) -> Result<(), String> {
        let Some(elo) = settings.elo else { return Ok(()) };
        for slot in 0..2 {
            let e = &self.engine[slot];
            if e.index != settings.engine[slot] {
                continue;
            }
            if let Some((lo, hi)) = e.elo_range.filter(|(lo, hi)| !(*lo..=*hi).contains(&i64::from(elo))) {
                return Err(format!("{} plays at Elo {lo} to {hi}, not {elo}", e.name));
            }
        }
        Ok(())
    }

    /// Ends engine `slot` (its process is killed) and forgets it: what it says while dying,
    /// its failure included, belongs to an older generation and is dropped.
    pub(super) fn end_engine(&mut self, slot: usize) {
        self.workers[slot] = None;
        self.generation[slot] += 1;
    }

    /// Restarts every engine the mode needs (after a failure, or new rules or settings); a
    /// mode between people ends them.
    pub fn restart_engines(&mut self, shared: &Arc<Shared>) {
        self.end_engine(0);
        self.end_engine(1);
        self.search = None;
        self.analysis.clear();
        self.message = None;
        self.alert = None;
        for slot in 0..2 {
            self.engine[slot].failed = None;
            self.engine[slot].ready = false;
        }
        if self.settings.mode.needs_engine() {
            self.start_engine(shared, 0);
            if self.settings.mode == Mode::Watch || self.settings.engine[1] != self.settings.engine[0] {
                self.start_engine(shared, 1);
            }
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

    /// Takes in what engine `slot` (of start `generation`) said; a stale engine's word is
    /// dropped.
    fn on_event(&mut self, slot: usize, generation: u64, event: Event) {
        if generation != self.generation[slot] {
            return;
        }
        match event {
            Event::Ready {
                name,
                variants,
                options,
                elo_range,
            } => {
                let e = &mut self.engine[slot];
                e.ready = true;
                e.name = name;
                e.variants = variants;
                e.options = options;
                e.elo_range = elo_range;
                if let (Some(elo), Some((lo, hi))) = (self.settings.elo, elo_range) {
                    if !(lo..=hi).contains(&i64::from(elo)) {
                        self.message = Some(format!(
                            "{} plays at Elo {lo} to {hi}: {elo} is outside, so it plays at {}",
                            self.engine[slot].name,
                            i64::from(elo).clamp(lo, hi)
                        ));
                    }
                }
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
                if self.host.is_closed() {
                    // The server is stopping and ended the engine itself: no failure to report
                    // (the page sees the lost connection).
                    self.alert = Some("The server is stopping.".into());
                } else {
                    self.alert = Some(format!("Engine failed: {why}. The game is kept; press Restart engine."));
                    self.engine[slot].failed = Some(why);
                }
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
                self.end_engine(slot);
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

    /// Stops the search in progress (its engine is told to stop).
    pub(crate) fn stop_search(&mut self) {
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

    /// Stops the engines' play: the game continues between people; the clocks stop where
    /// they are and the last analysis lines stay.
    pub fn stop_engines(&mut self) {
        self.settings.mode = Mode::Human;
        self.stop_search();
        self.stop_clocks();
        // Between people no engine is needed: end them (their places in the cap are free).
        self.end_engine(0);
        self.end_engine(1);
        for state in &mut self.engine {
            state.ready = false;
        }
        self.bump();
    }
}
