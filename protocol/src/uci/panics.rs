//! The text of a caught panic, for the messages of the loops that survive one.

use std::any::Any;

/// The message of a caught panic.
pub fn panic_text(payload: &(dyn Any + Send)) -> &str {
    payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied())
        .unwrap_or("unknown panic")
}
