//! Helpers for the tests that drive the `vorpal` binary.

pub mod gui_server;
pub mod harness;
