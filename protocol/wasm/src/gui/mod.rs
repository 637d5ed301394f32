//! The page of `vorpal gui` in the browser: the same game tree, notation, PGN, settings,
//! views and commands as the server's, compiled from its own source files (`protocol/src/gui/`),
//! so that the two hosts cannot drift apart. What differs is how engines are reached: here an
//! engine is a Web Worker that the page's JavaScript starts, feeds and ends on the module's
//! word ([`engine_pool`], [`worker`]); and the game report, which runs the engine in the
//! server's threads, is not offered ([`review`]). The page's files ([`assets`]) are the
//! server's too: the static site is written from them.

#[path = "../../../src/gui/assets.rs"]
pub mod assets;
#[path = "../../../src/gui/commands.rs"]
mod commands;
#[path = "../../../src/gui/engine_talk.rs"]
mod engine_talk;
#[path = "../../../src/gui/lines.rs"]
mod lines;
#[path = "../../../src/gui/notation.rs"]
mod notation;
#[path = "../../../src/gui/pgn_io.rs"]
mod pgn_io;
#[allow(dead_code)]
#[path = "../../../src/gui/requests.rs"]
mod requests;
#[allow(dead_code)]
#[path = "../../../src/gui/session/mod.rs"]
mod session;
#[path = "../../../src/gui/settings.rs"]
mod settings;
#[path = "../../../src/gui/tree.rs"]
mod tree;
#[path = "../../../src/gui/view.rs"]
mod view;

pub mod engine_pool;
mod page;
mod review;
mod review_state;
mod worker;

pub use engine_pool::Request;
pub use page::Page;
