//! The program's exit statuses (documented in docs/protocol.md, "Command line").

/// Everything went as asked.
pub const SUCCESS: i32 = 0;
/// A one-shot command printed an error line (`vorpal frobnicate`, `vorpal go depth x`).
pub const ERROR_LINE: i32 = 1;
/// The command line cannot be run as written (an unknown `-option`, a value the engine cannot
/// honour); the reason and the usage went to stderr.
pub const USAGE: i32 = 2;
/// Any failed write to stdout or stderr other than a closed pipe (`EX_IOERR`).
pub const WRITE_FAILED: i32 = 74;
/// Stdout or stderr is a closed pipe: 141, what a shell reports for a program ended by SIGPIPE.
pub const CLOSED_OUTPUT: i32 = 141;
