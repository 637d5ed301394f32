//! The page of `vorpal gui` in the browser: the same game tree, notation, PGN, settings, views
//! and commands as the server's (the `vorpal-page` crate), hosted here. What differs is how
//! engines are reached: an engine is a Web Worker that the page's JavaScript starts, feeds and
//! ends on the module's word ([`engine_pool`], [`link`], [`worker`]); and the game report, which
//! runs the engine in the server's threads, is not offered. The page's files are the server's
//! too (`vorpal_page::assets`): the static site is written from them.

pub mod engine_pool;
mod link;
mod page;
mod worker;

pub use engine_pool::Request;
pub use page::Page;
