//! The input doors of the `vorpal` binary, each as one call that takes untrusted text or bytes
//! exactly as the binary would and returns what a check needs. They exist for the fuzz targets
//! of `tests/fuzz` (one target per door) and the regression tests of what those found; the
//! binary itself does not call them.

pub use crate::gui::{GuiPgn, HttpHead};

use crate::cli::uci_switching_to_cecp;
use crate::gui::{engine_line_door, gui_command_door, import_pgn_door, parse_head_door, pgn_file_door};
use crate::uci::output::{Capture, Output};
use crate::uci::serve::{serve, Protocol};
use crate::uci::session::EngineSession;
use crate::xboard::Xboard;
use std::io::Cursor;
use vorpal_engine::Rules;

fn dialogue(input: &[u8], protocol: Box<dyn Protocol>) -> String {
    let printed = Capture::default();
    let session = EngineSession::new(Output::to(Box::new(printed.clone())));
    serve(&mut Cursor::new(input), session, protocol);
    printed.text()
}

/// Feeds `input` to the UCI loop as stdin would (lines, overlong ones refused, a line's bugs
/// caught) until `quit` or its end; returns everything printed.
pub fn uci_dialogue(input: &[u8]) -> String {
    dialogue(input, Box::new(uci_switching_to_cecp()))
}

/// Feeds `input` to the CECP (XBoard) loop; returns everything printed.
pub fn cecp_dialogue(input: &[u8]) -> String {
    dialogue(input, Box::new(Xboard::new()))
}

/// Reads `text` as `vorpal solve` reads Popeye input and builds every problem's and twin's
/// position under `rules`; returns the problems read and the positions built.
pub fn popeye_input(text: &str, rules: Rules) -> (usize, usize) {
    let problems = crate::solve::popeye_input::parse(text);
    let positions = problems
        .iter()
        .filter_map(|p| p.as_ref().ok())
        .filter_map(|p| p.tasks(rules).ok())
        .map(|tasks| tasks.len())
        .sum();
    (problems.len(), positions)
}

/// Runs `input` (bytes as a file holds them) through `vorpal popeye` as the binary does, every
/// solve stopped at once (the reading, the twins, the layout and the notation are exercised,
/// not the search); returns the page and the error stream.
pub fn popeye_page(input: &[u8]) -> (String, String) {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let limits = crate::popeye::Limits {
        stop_at_once: true,
        ..crate::popeye::Limits::default()
    };
    crate::popeye::Page::new(&mut out, &mut err, limits).run(input);
    (
        String::from_utf8_lossy(&out).into_owned(),
        String::from_utf8_lossy(&err).into_owned(),
    )
}

/// Imports `text` as the GUI's *Import PGN* does (rules from the tags, standard Alice where
/// they name none); the error is the page's message.
pub fn gui_pgn_import(text: &str) -> Result<GuiPgn, String> {
    import_pgn_door(text)
}

/// Reads a game page of pychess-variants as `vorpal bot` does after every game: the status
/// code, the result and the moves, or None when it is not a game page.
pub fn bot_game_page(text: &str) -> Option<(i32, String, Vec<String>)> {
    crate::bot::site_page::parse_page(text).map(|g| (g.status, g.result, g.moves))
}

/// Reads a `vorpal bot` config file's text as the bot does before it applies its flags: the
/// game slots and the variants of an accepted file, or the message that refuses it.
pub fn bot_config(text: &str) -> Result<(usize, Vec<String>), String> {
    crate::bot::config::check_config_text(text).map(|f| (f.policy.max_games, f.policy.variants))
}

/// Splits `text` into games as the GUI's PGN file reader does and imports each: the picker's
/// label and the import (or the page's message) per game, in file order.
pub fn gui_pgn_file(text: &str) -> Vec<(String, Result<GuiPgn, String>)> {
    pgn_file_door(text)
}

/// Parses a request head as the GUI's HTTP server does; Err is the status it answers.
pub fn http_head(bytes: &[u8]) -> Result<HttpHead, u16> {
    parse_head_door(bytes)
}

/// Runs the page's JSON commands (one a line, as the bodies of `POST /api/cmd`) on a new GUI
/// session whose engines cannot start; returns each answer's status and, after the last, the
/// session's PGN export and its view as JSON.
pub fn gui_commands(lines: &str) -> (Vec<u16>, String, String) {
    gui_command_door(lines)
}

/// Reads an engine's output line as the GUI's analysis panel does, in the position of `fen`
/// (standard Alice): the line's MultiPV number and its legal prefix as (SAN, wide UCI) pairs.
pub fn gui_engine_line(fen: &str, line: &str) -> Option<(u32, Vec<(String, String)>)> {
    engine_line_door(fen, line)
}
