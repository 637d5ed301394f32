//! One engine session, whichever protocol drives it: the option values, the game, and the
//! search worker. The protocol adapters (`uci/`, `xboard/`) turn their commands into calls
//! here and print the answers in their own dialect; the session prints nothing itself, and
//! every refusal comes back as a message for the adapter to show.

use crate::uci::output::Output;
use crate::uci::worker::{Job, Printer, SearchWorker};
use std::sync::Arc;
use vorpal_engine::nnue::{embedded_network, Network};
use vorpal_engine::search::{Limits, SearchControl, Searcher};
use vorpal_engine::tablebase::Tablebases;
use vorpal_engine::{Evaluator, Game, Move, Position, Rules, Variant};
use vorpal_uci_text::options::{available_memory_mb, Change, Settings, EMBEDDED_NET};

/// Engine name and version (UCI `id name`, CECP `myname`) and the authors (UCI `id author`).
pub use vorpal_uci_text::format::{AUTHOR, ENGINE};

/// The engine's state between commands.
pub struct EngineSession {
    out: Output,
    settings: Settings,
    game: Game,
    worker: SearchWorker,
    /// The network `EvalFile` names (used while `UseNNUE` is on).
    network: Arc<Network>,
}

impl EngineSession {
    /// A fresh session printing to `out`: default settings, the start position.
    pub fn new(out: Output) -> EngineSession {
        let settings = Settings::default();
        let worker = SearchWorker::new(Searcher::new(settings.search_options()), out.clone());
        EngineSession {
            out,
            settings,
            game: Game::new(Position::startpos()),
            worker,
            network: embedded_network(),
        }
    }

    /// The network `EvalFile` names.
    pub fn network(&self) -> &Network {
        &self.network
    }

    /// The evaluation the search uses under the current settings.
    pub fn evaluator(&mut self) -> Evaluator {
        let params = self.worker.searcher().evaluator().params.clone();
        if self.settings.use_nnue {
            Evaluator::with_network(params, self.network.clone())
        } else {
            Evaluator::hand_crafted(params)
        }
    }

    /// Loads the network of `EvalFile` (`<embedded>`: the built-in one); on failure the
    /// current network stays.
    fn load_network(&mut self, path: &str) -> Result<(), String> {
        let net = if path == EMBEDDED_NET {
            embedded_network()
        } else {
            let bytes = std::fs::read(path)
                .map_err(|e| format!("EvalFile '{path}': cannot read it: {e}; the current network stays"))?;
            Arc::new(
                Network::from_bytes(&bytes)
                    .map_err(|e| format!("EvalFile '{path}': {e}; the current network stays"))?,
            )
        };
        self.network = net;
        self.settings.eval_file = path.to_string();
        let evaluator = self.evaluator();
        self.worker.searcher().set_evaluator(evaluator);
        Ok(())
    }

    /// Uses the endgame tables in `dir` (empty: none). The directory must exist; its files
    /// are read when a position needs them, and a damaged one is reported then.
    pub fn set_tb_path(&mut self, dir: &str) -> Result<(), String> {
        let tables = if dir.is_empty() {
            None
        } else {
            let tb = Tablebases::open(std::path::Path::new(dir))
                .map_err(|e| format!("AliceTbPath '{dir}': {e}; unchanged"))?;
            Some(Arc::new(tb))
        };
        self.worker.searcher().set_tablebases(tables);
        self.settings.tb_path = dir.to_string();
        Ok(())
    }

    /// Where the session's protocol lines go.
    pub fn out(&self) -> &Output {
        &self.out
    }

    /// The option values.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The rules positions are set up under.
    pub fn rules(&self) -> Rules {
        self.settings.rules()
    }

    /// The game (start position and moves).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// Replaces the game (the caller has stopped any search).
    pub fn set_game(&mut self, game: Game) {
        self.game = game;
    }

    /// Plays `mv` on the game; false (nothing changes) when it is not legal.
    pub fn play(&mut self, mv: Move) -> bool {
        self.game.play(mv)
    }

    /// Takes back the last move; false when there is none.
    pub fn undo(&mut self) -> bool {
        self.game.undo()
    }

    /// The start position of the current variant under the current rules.
    pub fn start_position(&self) -> Position {
        Position::from_fen(self.settings.variant.start_fen(), self.rules()).expect("every variant's start FEN is valid")
    }

    /// A new game: the hash table and histories cleared, the variant's start position.
    pub fn new_game(&mut self) {
        self.clear_hash();
        self.game = Game::new(self.start_position());
    }

    /// Switches to `variant` and sets up its start position.
    pub fn set_variant(&mut self, variant: Variant) {
        self.settings.variant = variant;
        self.game = Game::new(self.start_position());
    }

    /// Empties the hash table and the histories (stopping any search first).
    pub fn clear_hash(&mut self) {
        self.worker.searcher().clear();
    }

    /// Applies a checked option change (stopping any search first). `Err` carries a message for
    /// the user: the change was refused, or (rule changes that cut the game short) it was
    /// applied and the message says where the game now ends.
    pub fn apply(&mut self, change: Change) -> Result<(), String> {
        self.worker.stop();
        let mut next = self.settings.clone();
        match change {
            Change::Threads(n) => next.search.threads = n,
            Change::Hash(mb) => {
                if let Some(free) = available_memory_mb().filter(|&free| mb > free + self.settings.search.hash_mb) {
                    return Err(format!(
                        "setoption: Hash {mb} MB is more than the memory available ({free} MB); unchanged"
                    ));
                }
                next.search.hash_mb = mb
            }
            Change::MultiPv(n) => next.search.multipv = n,
            Change::SkillLevel(n) => next.search.skill_level = n,
            Change::MoveOverhead(ms) => next.search.move_overhead_ms = ms,
            Change::LimitStrength(on) => next.limit_strength = on,
            Change::Elo(elo) => next.elo = elo,
            Change::ClearHash => {
                self.clear_hash();
                return Ok(());
            }
            Change::Ponder(on) => next.ponder = on,
            Change::AnalyseMode(on) => next.analyse_mode = on,
            Change::ShowWdl(on) => next.show_wdl = on,
            Change::Chess960(on) => {
                self.settings.chess960 = on;
                return self.replay_under_rules();
            }
            Change::DebugLogFile(path) => {
                if let Err(e) = self.out.set_log_file(&path) {
                    return Err(format!("setoption: cannot open Debug Log File '{path}': {e}"));
                }
                next.debug_log = path;
            }
            Change::Variant(variant) => {
                self.set_variant(variant);
                return Ok(());
            }
            Change::EnPassant(mode) => {
                self.settings.en_passant = mode;
                return self.replay_under_rules();
            }
            Change::EvalFile(path) => return self.load_network(&path),
            Change::AliceTbPath(path) => return self.set_tb_path(&path),
            Change::UseNnue(on) => {
                self.settings.use_nnue = on;
                let evaluator = self.evaluator();
                self.worker.searcher().set_evaluator(evaluator);
                return Ok(());
            }
            Change::SearchParam(name, value) => {
                let mut searcher = self.worker.searcher();
                let mut params = searcher.params().clone();
                params
                    .set(name, value)
                    .map_err(|e| format!("setoption: {e}; unchanged"))?;
                searcher.set_params(params);
                return Ok(());
            }
        }
        let search = next.search_options();
        if search != self.settings.search_options() {
            self.worker
                .searcher()
                .set_options(search)
                .map_err(|e| format!("setoption: {e}; the previous settings are kept"))?;
        }
        self.settings = next;
        Ok(())
    }

    /// Replays the current game under changed rule options (`AliceEnPassant`,
    /// `UCI_Chess960`). A move the new rules forbid ends the game there, and says so.
    fn replay_under_rules(&mut self) -> Result<(), String> {
        let mut start = *self.game.start();
        start.set_rules(self.rules());
        let mut game = Game::new(start);
        let mut result = Ok(());
        for (i, &mv) in self.game.moves().iter().enumerate() {
            if !game.play(mv) {
                result = Err(format!(
                    "setoption: move {} ({}) is not legal under the new rules; the position is set up to the move before it",
                    i + 1,
                    game.position().move_to_uci(mv)
                ));
                break;
            }
        }
        self.game = game;
        result
    }

    /// Starts searching the current game with `limits` on the search thread, printing with
    /// `printer` (a running search is stopped first and its move printed).
    pub fn start_search(&mut self, limits: Limits, printer: Arc<dyn Printer>) {
        self.worker.start(Job {
            game: self.game.clone(),
            limits,
            printer,
        });
    }

    /// Stops the search, if any, and waits until it has printed its move.
    pub fn stop(&mut self) {
        self.worker.stop();
    }

    /// Waits until a running search ends on its own.
    pub fn wait(&mut self) {
        self.worker.wait();
    }

    /// Switches a pondering search to normal thinking.
    pub fn ponderhit(&self) {
        self.worker.ponderhit();
    }

    /// True while a search thread runs.
    pub fn is_searching(&self) -> bool {
        self.worker.is_running()
    }

    /// The best move of a short search of the current position, on the caller's thread and
    /// without output (CECP `hint`); None when there is no legal move.
    pub fn quick_best_move(&mut self, limits: &Limits) -> Option<Move> {
        let control = SearchControl::new();
        let game = self.game.clone();
        self.worker.searcher().search(&game, limits, &control, &mut |_| {}).best
    }
}
