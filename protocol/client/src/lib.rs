//! `vorpal-client`: where Vorpal meets a UCI engine over pipes, and what every front end that
//! talks to engines or games shares. The browser GUI (`vorpal gui`), game review (`vorpal
//! annotate`) and the match runner (`vorpal-match`) all play through it.
//!
//! [`engine_process`] is the UCI client (an engine as a child process, every wait with a
//! deadline; [`engine_child`] owns the process and ends it, [`engine_output`] reads its lines
//! with bounds) and [`engine_settings`] reads its `key=value` settings (given on command lines
//! as [`engine_args`]); [`timecontrol`] holds the
//! time controls and the clocks the client keeps; [`arbiter`] referees a game with the
//! project's own rules core; [`pgn`] writes and reads games and [`variant_tag`] names their
//! rules in PGN tags and engine options. Nothing here knows about matches or tuning.

// Unsafe code is refused except in one documented place: `engine_child::die_with_parent`, the
// `pre_exec` hook that makes an engine die with the program that started it (Linux).
#![deny(unsafe_code)]

pub mod arbiter;
pub mod engine_args;
pub mod engine_child;
pub mod engine_output;
pub mod engine_process;
pub mod engine_settings;
pub mod pgn;
pub mod pgn_text;
pub mod timecontrol;
pub mod uci_hello;
pub mod variant_tag;
