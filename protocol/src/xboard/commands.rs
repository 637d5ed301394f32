//! The CECP commands: dispatch on the words of a line (`["level", mps, base, inc] => ...`) and
//! one method per command. Every unknown or malformed command is answered
//! `Error (<reason>): <command>`; every refused move `Illegal move: <move>` followed by a
//! `# <move>: <reason>` comment.

use super::printer::{error, result_line, Mode};
use super::setup::{self, color_name, engine_fen, highlight, offered_variants, parse_cell, parse_move, targets};
use super::Xboard;
use crate::uci::output::one_line;
use crate::uci::serve::Flow;
use crate::uci::session::{EngineSession, ENGINE};
use std::sync::atomic::Ordering;
use std::time::Duration;
use vorpal_engine::search::Limits;
use vorpal_engine::{Game, Position, Variant};
use vorpal_uci_text::options::{cecp_option_features, parse_cecp_option, Change, THREADS_MAX};

impl Xboard {
    /// Runs the command in `words` (`line` is the raw text, for messages and `option`).
    pub(super) fn dispatch(&mut self, session: &mut EngineSession, words: &[&str], line: &str) -> Flow {
        match words {
            [] | ["xboard"] | ["accepted", ..] | ["rejected", ..] => {}
            ["protover", ..] => self.cmd_protover(session),
            ["new"] => self.cmd_new(session),
            ["variant", name] => self.cmd_variant(session, name),
            ["setboard", fen @ ..] => self.cmd_setboard(session, &fen.join(" ")),
            ["usermove", mv] => self.cmd_usermove(session, mv),
            ["go"] => {
                self.stop_search(session, true);
                self.analyzing = false;
                self.engine = Some(session.position().side_to_move());
                self.maybe_think(session);
            }
            ["playother"] => {
                self.stop_search(session, true);
                self.engine = Some(session.position().side_to_move().flip());
            }
            ["force"] => {
                self.stop_search(session, true);
                self.engine = None;
            }
            ["?"] => {
                if self.thinking(session) {
                    self.stop_search(session, false);
                }
            }
            ["ping", n] => {
                // Never before the move of a search of the engine's own move.
                if self.thinking(session) {
                    session.wait();
                    self.collect(session);
                }
                session.out().line(&format!("pong {n}"));
            }
            ["level", mps, base, inc] => self.cmd_level(session, mps, base, inc, line),
            ["st", t] => match seconds(t) {
                Some(t) => self.tc.per_move = Some(t),
                None => self.bad(session, "bad time", line),
            },
            ["sd", d] => match d.parse::<u32>() {
                Ok(d) if d >= 1 => self.tc.depth = Some(d.min(vorpal_uci_text::go::MAX_DEPTH)),
                _ => self.bad(session, "bad depth", line),
            },
            ["time", cs] | ["otim", cs] => match cs.parse::<i64>() {
                Ok(cs) => {
                    let t = Some(Duration::from_millis(cs.max(0) as u64 * 10));
                    if words[0] == "time" {
                        self.tc.own = t;
                    } else {
                        self.tc.opponent = t;
                    }
                }
                Err(_) => self.bad(session, "bad time", line),
            },
            ["undo"] => self.cmd_undo(session, 1),
            ["remove"] => self.cmd_undo(session, 2),
            ["hint"] => self.cmd_hint(session),
            ["analyze"] => {
                self.stop_search(session, true);
                self.engine = None;
                self.analyzing = true;
                self.analyse(session);
            }
            ["exit"] => {
                if self.analyzing {
                    self.stop_search(session, true);
                    self.analyzing = false;
                }
            }
            ["."] => {
                if let (true, Some((Mode::Analyze, state))) = (self.analyzing, &self.job) {
                    let line = state.stat01(session.position());
                    session.out().line(&line);
                }
            }
            ["post"] => self.post.store(true, Ordering::Relaxed),
            ["nopost"] => self.post.store(false, Ordering::Relaxed),
            ["memory", mb] => match mb.parse::<usize>() {
                Ok(mb) if mb >= 1 => self.change(
                    session,
                    Change::Hash(mb.min(vorpal_uci_text::options::HASH_MAX as usize)),
                ),
                _ => self.bad(session, "bad size", line),
            },
            ["cores", n] => match n.parse::<usize>() {
                Ok(n) if n >= 1 => self.change(session, Change::Threads(n.min(THREADS_MAX as usize))),
                _ => self.bad(session, "bad number", line),
            },
            ["option", ..] => {
                let text = line.trim_start().strip_prefix("option").unwrap_or("").trim();
                match parse_cecp_option(text) {
                    Ok(change) => self.change(session, change),
                    Err(e) => {
                        self.bad(session, "bad option", line);
                        session.out().line(&format!("# {}", one_line(&e)));
                    }
                }
            }
            ["egtpath", "alice", ..] => {
                let dir = line.trim_start().strip_prefix("egtpath").unwrap_or("").trim_start();
                let dir = dir.strip_prefix("alice").unwrap_or("").trim().to_string();
                self.change(session, Change::AliceTbPath(dir));
            }
            ["egtpath", kind, ..] => session
                .out()
                .line(&format!("# egtpath: only 'alice' tables are used, not '{kind}'")),
            ["result", ..] => {
                self.stop_search(session, true);
                self.game_over = true;
            }
            ["quit"] => {
                self.stop_search(session, true);
                return Flow::Quit;
            }
            ["lift", cell] => self.cmd_lift(session, cell),
            ["put", cell] => self.cmd_put(session, cell),
            ["bk"] => session.out().lines(" Vorpal has no opening book\n\n"),
            ["hover", ..]
            | ["hard"]
            | ["easy"]
            | ["random"]
            | ["computer"]
            | ["draw"]
            | ["white"]
            | ["black"]
            | ["name", ..]
            | ["rating", ..]
            | ["ics", ..] => {}
            [mv] if looks_like_move(mv) => self.cmd_usermove(session, mv),
            _ => self.bad(session, "unknown command", line),
        }
        Flow::Continue
    }

    /// `Error (<reason>): <command>`.
    fn bad(&self, session: &EngineSession, reason: &str, line: &str) {
        session
            .out()
            .line(&format!("Error ({reason}): {}", one_line(line.trim())));
    }

    /// `protover N`: the features, then the option features, then `done=1`.
    fn cmd_protover(&self, session: &EngineSession) {
        let variants: Vec<&str> = offered_variants().iter().map(|v| v.name()).collect();
        let mut text = String::from("feature done=0\n");
        text.push_str(&format!(
            "feature myname=\"{ENGINE}\" variants=\"{}\" setboard=1 usermove=1 ping=1 playother=1 san=0 \
             time=1 draw=0 memory=1 smp=1 sigint=0 sigterm=0 reuse=1 analyze=1 colors=0 highlight=1 \
             debug=1 name=0 exclude=0 setscore=0 pause=0 nps=0 egt=\"alice\"\n",
            variants.join(",")
        ));
        for feature in cecp_option_features() {
            text.push_str(&feature);
            text.push('\n');
        }
        text.push_str("feature done=1");
        session.out().lines(&text);
    }

    /// Applies an option change to the session (errors come as `tellusererror`).
    fn change(&mut self, session: &mut EngineSession, change: Change) {
        self.stop_search(session, true);
        if let Err(e) = session.apply(change) {
            error(session, &e);
        }
        self.analyse(session);
    }

    /// `new`: standard Alice from the start, the engine plays Black, no depth limit.
    fn cmd_new(&mut self, session: &mut EngineSession) {
        self.stop_search(session, true);
        session.clear_hash();
        session.set_variant(Variant::default());
        self.engine = if self.analyzing {
            None
        } else {
            Some(vorpal_engine::Color::Black)
        };
        self.tc.depth = None;
        self.new_position();
        self.analyse(session);
    }

    /// Forgets what belonged to the previous position.
    fn new_position(&mut self) {
        self.game_over = false;
        self.bad_position = false;
        self.hint = None;
        self.lifted = None;
        self.via = None;
    }

    /// `variant NAME`: the variant's start position, announced with `setup` and `piece`.
    fn cmd_variant(&mut self, session: &mut EngineSession, name: &str) {
        self.stop_search(session, true);
        let variant = match name.parse::<Variant>() {
            Ok(v) => v,
            Err(_) => return self.bad(session, "unsupported variant", &format!("variant {name}")),
        };
        session.set_variant(variant);
        let start = *session.position();
        self.new_position();
        let mut text = setup::setup_line(&start);
        for line in setup::piece_lines(variant) {
            text.push('\n');
            text.push_str(line);
        }
        session.out().lines(&text);
        self.analyse(session);
    }

    /// `setboard FEN` (XBoard's wide FEN).
    fn cmd_setboard(&mut self, session: &mut EngineSession, fen: &str) {
        self.stop_search(session, true);
        self.new_position();
        let variant = session.settings().variant;
        match Position::from_game_fen(&engine_fen(variant, fen), session.rules()) {
            Ok(pos) => {
                session.set_game(Game::new(pos));
                self.analyse(session);
            }
            Err(e) => {
                self.bad_position = true;
                session
                    .out()
                    .line(&format!("tellusererror Illegal position: {}", one_line(&e.to_string())));
            }
        }
    }

    /// `usermove MOVE` (or a bare move): plays it, or refuses it with the reason.
    fn cmd_usermove(&mut self, session: &mut EngineSession, text: &str) {
        self.stop_search(session, true);
        self.lifted = None;
        self.via = None;
        let pos = *session.position();
        let parsed = if self.bad_position {
            Err("the position is not valid; set up another one".to_string())
        } else {
            parse_move(&pos, text)
        };
        let mv = match parsed {
            Ok(mv) => mv,
            Err(reason) => {
                let text = one_line(text);
                session
                    .out()
                    .lines(&format!("Illegal move: {text}\n# {text}: {}", one_line(&reason)));
                return self.analyse(session);
            }
        };
        session.play(mv);
        self.hint = None;
        if let Some(outcome) = session.game().outcome() {
            // Announced when the engine takes part in the game (not while the GUI replays
            // moves in force or analyse mode).
            if self.engine.is_some() && !self.analyzing {
                session.out().line(&result_line(outcome));
            }
            self.game_over = true;
        }
        if self.analyzing {
            self.analyse(session);
        } else {
            self.maybe_think(session);
        }
    }

    /// `level MPS BASE INC`: BASE in minutes or `min:sec`, INC in seconds.
    fn cmd_level(&mut self, session: &mut EngineSession, mps: &str, base: &str, inc: &str, line: &str) {
        let base = match base.split_once(':') {
            Some((m, s)) => m
                .parse::<u64>()
                .ok()
                .zip(s.parse::<u64>().ok())
                .map(|(m, s)| m * 60 + s),
            None => base.parse::<u64>().ok().map(|m| m * 60),
        };
        match (mps.parse::<u32>(), base, seconds(inc)) {
            (Ok(mps), Some(base), Some(inc)) => {
                self.tc.moves_per_period = mps;
                self.tc.base = Duration::from_secs(base);
                self.tc.inc = inc;
                self.tc.per_move = None;
            }
            _ => self.bad(session, "bad time control", line),
        }
    }

    /// `undo` (one ply) and `remove` (two plies).
    fn cmd_undo(&mut self, session: &mut EngineSession, plies: usize) {
        self.stop_search(session, true);
        for _ in 0..plies {
            if !session.undo() {
                return self.bad(
                    session,
                    "command not legal now",
                    if plies == 1 { "undo" } else { "remove" },
                );
            }
        }
        self.new_position();
        self.analyse(session);
    }

    /// `hint`: the reply the last search expected, or the best move of a short search.
    fn cmd_hint(&mut self, session: &mut EngineSession) {
        if session.is_searching() || session.position().count_legal() == 0 {
            return;
        }
        let pos = *session.position();
        let mv = match self.hint.filter(|&m| pos.is_legal(m)) {
            Some(m) => Some(m),
            None => {
                let limits = Limits {
                    depth: Some(10),
                    nodes: Some(200_000),
                    ..Limits::default()
                };
                session.quick_best_move(&limits)
            }
        };
        if let Some(mv) = mv {
            let text = setup::move_text(pos.rules().variant, mv);
            session.out().line(&format!("Hint: {text}"));
        }
    }

    /// `lift CELL`: highlights where the piece can go (or, after a first leg, where it lands).
    fn cmd_lift(&mut self, session: &mut EngineSession, text: &str) {
        let pos = *session.position();
        let Some(cell) = parse_cell(pos.rules().variant, text) else {
            return self.bad(session, "bad square", &format!("lift {text}"));
        };
        if self.via == Some(cell) {
            if let Some(lifted) = self.lifted {
                return self.send_targets(session, &pos, lifted, Some(cell));
            }
        }
        self.via = None;
        match pos.piece_on(cell.1, cell.0) {
            Some(p) if p.color() == pos.side_to_move() => {
                self.lifted = Some(cell);
                self.send_targets(session, &pos, cell, None);
            }
            _ => {
                self.lifted = None;
                session.out().line(&format!(
                    "# lift {text}: no piece of {} there",
                    color_name(pos.side_to_move())
                ));
            }
        }
    }

    /// `put CELL`: after a first leg (a cyan cell), highlights the landing cells.
    fn cmd_put(&mut self, session: &mut EngineSession, text: &str) {
        let pos = *session.position();
        let cell = parse_cell(pos.rules().variant, text);
        match (self.lifted, cell) {
            (Some(lifted), Some(cell)) if self.via.is_none() && targets(&pos, lifted, None).contains(&(cell, 'C')) => {
                self.via = Some(cell);
                self.send_targets(session, &pos, lifted, Some(cell));
            }
            (_, None) => self.bad(session, "bad square", &format!("put {text}")),
            _ => {
                self.lifted = None;
                self.via = None;
            }
        }
    }

    fn send_targets(&self, session: &EngineSession, pos: &Position, lifted: setup::Cell, via: Option<setup::Cell>) {
        let cells = targets(pos, lifted, via);
        session.out().line(&highlight(pos.rules().variant, &cells));
    }
}

/// Seconds, possibly fractional (`30`, `0.5`).
fn seconds(text: &str) -> Option<Duration> {
    text.parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map(Duration::from_secs_f64)
}

/// True for a word that starts with two cells (`e2m4`, `d5e6,e6m6`): a move sent without
/// `usermove`.
fn looks_like_move(word: &str) -> bool {
    let b = word.as_bytes();
    b.len() >= 4
        && b[0].is_ascii_lowercase()
        && b[1].is_ascii_digit()
        && b[2].is_ascii_lowercase()
        && b[3].is_ascii_digit()
}
