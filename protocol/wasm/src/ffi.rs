//! The module's exports for a JavaScript host (a raw C interface: no generated glue, no tool
//! to install). Text crosses as UTF-8 in the module's memory: the host asks the engine for
//! an input buffer of n bytes ([`vorpal_input`]), writes into it, and calls the command; the
//! answer stays in the engine's output buffer, whose address and length the host reads
//! ([`vorpal_output_ptr`], [`vorpal_output_len`]) before its next call.
//!
//! An engine is a `Box` the host holds by its address, from [`vorpal_new`] to
//! [`vorpal_free`]; the module's one clock import is in the engine (`vorpal.now_ms`).

#![allow(unsafe_code)]

use crate::{rules, Step, UciEngine, SLICE};

/// An engine with the buffers the host reads and writes.
pub struct Host {
    engine: UciEngine,
    input: Vec<u8>,
    output: String,
}

/// The engine at `host`.
fn host<'a>(host: *mut Host) -> &'a mut Host {
    // SAFETY: the JavaScript side passes only addresses that `vorpal_new` returned and that
    // `vorpal_free` has not taken back, and calls one export at a time (WebAssembly has one
    // thread here), so the reference is valid and unique for the call.
    unsafe { &mut *host }
}

fn code(step: Step) -> u32 {
    match step {
        Step::Idle => 0,
        Step::Searching => 1,
        Step::Holding => 2,
    }
}

/// A new engine; its address is the handle of every other call.
#[no_mangle]
pub extern "C" fn vorpal_new() -> *mut Host {
    Box::into_raw(Box::new(Host {
        engine: UciEngine::new(),
        input: Vec::new(),
        output: String::new(),
    }))
}

/// Frees an engine (its address is not used again).
#[no_mangle]
pub extern "C" fn vorpal_free(handle: *mut Host) {
    if !handle.is_null() {
        // SAFETY: as in `host`; the box is taken back exactly once.
        drop(unsafe { Box::from_raw(handle) });
    }
}

/// An input buffer of `len` bytes for the host to fill; its address.
#[no_mangle]
pub extern "C" fn vorpal_input(handle: *mut Host, len: usize) -> *mut u8 {
    let h = host(handle);
    h.input.clear();
    h.input.resize(len, 0);
    h.input.as_mut_ptr()
}

/// Runs the UCI command in the input buffer; the lines printed go to the output buffer.
/// Returns 0 (idle), 1 (searching: call `vorpal_step` soon) or 2 (holding a `bestmove`).
#[no_mangle]
pub extern "C" fn vorpal_command(handle: *mut Host) -> u32 {
    let h = host(handle);
    let line = String::from_utf8_lossy(&h.input).into_owned();
    let mut state = Step::Idle;
    for part in line.lines() {
        state = h.engine.command(part);
    }
    h.output = h.engine.take_output();
    code(state)
}

/// Runs one slice of the search; returns as `vorpal_command`.
#[no_mangle]
pub extern "C" fn vorpal_step(handle: *mut Host) -> u32 {
    let h = host(handle);
    let state = h.engine.step(SLICE);
    h.output = h.engine.take_output();
    code(state)
}

/// Answers the rules query in the input buffer (see `rules.rs`) into the output buffer.
#[no_mangle]
pub extern "C" fn vorpal_rules(handle: *mut Host) {
    let h = host(handle);
    h.output = rules::query(&String::from_utf8_lossy(&h.input));
}

/// The address of the output buffer.
#[no_mangle]
pub extern "C" fn vorpal_output_ptr(handle: *mut Host) -> *const u8 {
    host(handle).output.as_ptr()
}

/// The length in bytes of the output buffer.
#[no_mangle]
pub extern "C" fn vorpal_output_len(handle: *mut Host) -> usize {
    host(handle).output.len()
}
