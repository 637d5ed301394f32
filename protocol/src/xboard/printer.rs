//! The CECP dialect: notes as `# ...` comments, errors as `tellusererror ...`; and the search
//! thread's CECP output: thinking lines `ply score time nodes pv` (with `post`),
//! the engine's `move` followed by the game-end announcement (`1-0 {White mates}`), and the
//! numbers the `.` command reports (`stat01: ...`).
//!
//! The search thread and the input loop share a [`JobState`] per search: the input loop sets
//! `discard` before stopping a search whose move must not be played (`force`, `undo`, `new`,
//! ...); the search thread records the move it prints, and the input loop plays it on its game
//! before it handles the next command.

use super::setup::{move_text, wide_text};
use crate::uci::output::{one_line, Output};
use crate::uci::session::EngineSession;
use crate::uci::worker::Printer;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;
use vorpal_engine::search::{Bound, Report, Score, SearchInfo};
use vorpal_engine::{EndReason, Game, GameResult, Move, Position};

/// CECP mate scores: `100000 + N` for mate in N moves, `-100000 - N` when mated.
pub const MATE_SCORE: i32 = 100_000;

/// Whether a search plays its move or only analyses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The engine is on move: print `move ...` at the end.
    Play,
    /// `analyze`: thinking output only, until `exit` or a new position.
    Analyze,
}

/// `# <message>`: a note (a comment the GUI ignores; feature `debug=1`).
pub fn note_text(message: &str) -> String {
    format!("# {}", one_line(message))
}

/// `tellusererror <message>`: an error the GUI shows in a dialog.
pub fn error_text(message: &str) -> String {
    format!("tellusererror {}", one_line(message))
}

/// Prints an error in CECP.
pub fn error(session: &EngineSession, message: &str) {
    session.out().error_line(&error_text(message));
}

/// What the input loop and the search thread share about one search.
pub struct JobState {
    inner: Mutex<Inner>,
    start: Instant,
}

#[derive(Default)]
struct Inner {
    discard: bool,
    played: Option<Move>,
    hint: Option<Move>,
    depth: u32,
    nodes: u64,
    current: Option<(Move, u32)>,
}

impl JobState {
    /// A fresh state, its clock started now.
    pub fn new() -> JobState {
        JobState {
            inner: Mutex::new(Inner::default()),
            start: Instant::now(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The search's move must not be printed or played (set before stopping it).
    pub fn discard(&self) {
        self.lock().discard = true;
    }

    /// The move the search printed, once (the input loop plays it).
    pub fn take_played(&self) -> Option<Move> {
        self.lock().played.take()
    }

    /// The reply the search expects to its move, for `hint`.
    pub fn hint(&self) -> Option<Move> {
        self.lock().hint
    }

    /// `stat01: time nodes ply mvleft mvtot [mvname]` for `.` in analyze mode.
    pub fn stat01(&self, pos: &Position) -> String {
        let inner = self.lock();
        let total = pos.count_legal();
        let cs = self.start.elapsed().as_millis() / 10;
        let mut line = format!("stat01: {cs} {} {}", inner.nodes, inner.depth);
        match inner.current {
            Some((mv, number)) => line.push_str(&format!(
                " {} {total} {}",
                total.saturating_sub(number as usize),
                wide_text(pos.rules().variant, mv)
            )),
            None => line.push_str(&format!(" {total} {total}")),
        }
        line
    }
}

impl Default for JobState {
    fn default() -> Self {
        JobState::new()
    }
}

/// Prints one search in CECP.
pub struct XboardPrinter {
    /// Play or analyse.
    pub mode: Mode,
    /// Thinking output on (`post`) or off (`nopost`); may change during the search.
    pub post: Arc<AtomicBool>,
    /// Shared with the input loop.
    pub state: Arc<JobState>,
}

impl Printer for XboardPrinter {
    fn no_legal_move(&self, _pos: &Position, _out: &Output) {}

    fn report(&self, pos: &Position, report: Report, out: &Output) {
        match report {
            Report::Info(info) => {
                {
                    let mut inner = self.state.lock();
                    inner.depth = info.depth;
                    inner.nodes = info.nodes;
                }
                if self.post.load(Ordering::Relaxed) {
                    out.line(&thinking_line(&info, pos));
                }
            }
            Report::CurrMove { mv, number, .. } => self.state.lock().current = Some((mv, number)),
            Report::Note(text) => out.line(&note_text(&text)),
        }
    }

    fn error(&self, message: &str, out: &Output) {
        out.error_line(&error_text(message));
    }

    fn finish(&self, game: &Game, best: Option<Move>, ponder: Option<Move>, out: &Output) {
        if self.mode == Mode::Analyze {
            return;
        }
        let mut inner = self.state.lock();
        if inner.discard {
            return;
        }
        let Some(best) = best else {
            if let Some(outcome) = game.outcome() {
                out.line(&result_line(outcome));
            }
            return;
        };
        // Recorded before it is printed: the GUI's answer to the move comes after the input
        // loop can see it.
        inner.played = Some(best);
        inner.hint = ponder;
        let variant = game.position().rules().variant;
        out.line(&format!("move {}", move_text(variant, best)));
        let mut after = game.clone();
        if after.play(best) {
            if let Some(outcome) = after.outcome() {
                out.line(&result_line(outcome));
            }
        }
    }
}

/// A CECP thinking line: `ply score time(cs) nodes pv`, the score in centipawns from the side
/// to move (mates `±100000 ± N`), the PV in the wide notation, `?` after a fail-low PV and `!`
/// after a fail-high one.
pub fn thinking_line(info: &SearchInfo, root: &Position) -> String {
    let score = match info.score {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => MATE_SCORE + n,
        Score::Mate(n) => -MATE_SCORE + n,
    };
    let variant = root.rules().variant;
    let pv: Vec<String> = vorpal_uci_text::format::walk_pv(root, &info.pv)
        .iter()
        .map(|(_, m)| wide_text(variant, *m))
        .collect();
    let mark = match info.bound {
        Bound::Exact => "",
        Bound::Upper => "?",
        Bound::Lower => "!",
    };
    format!(
        "{} {score} {} {} {}{mark}",
        info.depth,
        info.time_ms / 10,
        info.nodes,
        pv.join(" ")
    )
}

/// The CECP game-end line: `1-0 {White mates}`, `1/2-1/2 {Stalemate}`, ...
pub fn result_line((result, reason): (GameResult, EndReason)) -> String {
    let comment = match (reason, result) {
        (EndReason::Checkmate, GameResult::WhiteWins) => "White mates",
        (EndReason::Checkmate, _) => "Black mates",
        (EndReason::Stalemate, _) => "Stalemate",
        (EndReason::Threefold, _) => "Draw by repetition",
        (EndReason::FiftyMoves, _) => "Draw by fifty-move rule",
        (EndReason::BareKings, _) => "Draw: bare kings",
    };
    format!("{} {{{comment}}}", result.pgn())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thinking_lines_and_results() {
        let pos = Position::startpos();
        let e4 = pos.parse_uci("e2e4").unwrap();
        let info = SearchInfo {
            depth: 9,
            seldepth: 12,
            multipv: 1,
            score: Score::Cp(156),
            bound: Bound::Exact,
            wdl: (0, 1000, 0),
            nodes: 48000,
            nps: 1,
            hashfull: 0,
            time_ms: 10_849,
            pv: vec![e4],
        };
        assert_eq!(thinking_line(&info, &pos), "9 156 1084 48000 e2m4");
        let mate = SearchInfo {
            score: Score::Mate(-3),
            bound: Bound::Upper,
            ..info.clone()
        };
        assert_eq!(thinking_line(&mate, &pos), "9 -100003 1084 48000 e2m4?");
        assert_eq!(
            result_line((GameResult::WhiteWins, EndReason::Checkmate)),
            "1-0 {White mates}"
        );
        assert_eq!(
            result_line((GameResult::Draw, EndReason::Threefold)),
            "1/2-1/2 {Draw by repetition}"
        );
    }
}
