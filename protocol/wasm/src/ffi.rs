//! The module's exports for a JavaScript host (a raw C interface: no generated glue, no tool
//! to install). Text crosses as UTF-8 in the module's memory: the host asks the engine for
//! an input buffer of n bytes ([`vorpal_input`]), writes into it, and calls the command; the
//! answer stays in the engine's output buffer, whose address and length the host reads
//! ([`vorpal_output_ptr`], [`vorpal_output_len`]) before its next call.
//!
//! An engine is a `Box` the host holds by its address, from [`vorpal_new`] to
//! [`vorpal_free`]; the module's one clock import is in the engine (`vorpal.now_ms`). A
//! GUI page (the browser build's `vorpal gui` page, [`crate::gui::Page`]) is one too, from
//! [`vorpal_page_new`], with the same buffers and its own calls (`vorpal_page_*`).

#![allow(unsafe_code)]

use crate::gui::Page;
use crate::{rules, Step, UciEngine, SLICE};

/// An engine (or a page) with the buffers the host reads and writes.
pub struct Host {
    /// Made on first use (a page's handle needs none: its engines are Workers).
    engine: Option<UciEngine>,
    page: Option<Page>,
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

/// The input buffer as text (invalid UTF-8 replaced).
fn input_text(h: &Host) -> String {
    String::from_utf8_lossy(&h.input).into_owned()
}

/// A new engine (made at its first command); its address is the handle of every other call.
#[no_mangle]
pub extern "C" fn vorpal_new() -> *mut Host {
    Box::into_raw(Box::new(Host {
        engine: None,
        page: None,
        input: Vec::new(),
        output: String::new(),
    }))
}

/// A new GUI page (a game between people at the start position); its address is the handle
/// of the `vorpal_page_*` calls and of the buffers' calls.
#[no_mangle]
pub extern "C" fn vorpal_page_new() -> *mut Host {
    let handle = vorpal_new();
    host(handle).page = Some(Page::new());
    handle
}

/// The page of `handle` (made on first use when the handle is an engine's).
fn page(h: &mut Host) -> &Page {
    h.page.get_or_insert_with(Page::new)
}

/// Runs the page command (JSON) in the input buffer; the answer's JSON goes to the output
/// buffer. Returns 1 when it was done, 0 when refused.
#[no_mangle]
pub extern "C" fn vorpal_page_command(handle: *mut Host) -> u32 {
    let h = host(handle);
    let body = input_text(h);
    let (done, answer) = page(h).command(&body);
    h.output = answer;
    u32::from(done)
}

/// The page's view (JSON) into the output buffer.
#[no_mangle]
pub extern "C" fn vorpal_page_view(handle: *mut Host) {
    let h = host(handle);
    h.output = page(h).view();
}

/// The view's version (it changes with every update to show).
#[no_mangle]
pub extern "C" fn vorpal_page_version(handle: *mut Host) -> f64 {
    page(host(handle)).version() as f64
}

/// The game as PGN into the output buffer.
#[no_mangle]
pub extern "C" fn vorpal_page_pgn(handle: *mut Host) {
    let h = host(handle);
    h.output = page(h).pgn();
}

/// The periodic work (about ten times a second).
#[no_mangle]
pub extern "C" fn vorpal_page_tick(handle: *mut Host) {
    page(host(handle)).tick();
}

/// The line in the input buffer, printed by engine link `link`'s Worker.
#[no_mangle]
pub extern "C" fn vorpal_page_engine_line(handle: *mut Host, link: u32) {
    let h = host(handle);
    let line = input_text(h);
    page(h).engine_line(link, &line);
}

/// Engine link `link`'s Worker failed, for the reason in the input buffer.
#[no_mangle]
pub extern "C" fn vorpal_page_engine_failed(handle: *mut Host, link: u32) {
    let h = host(handle);
    let why = input_text(h);
    page(h).engine_failed(link, &why);
}

/// The page file at the path in the input buffer (`/index.html`, `/pieces/wN.svg`; the
/// list: `vorpal_site_paths`) into the output buffer, empty when there is none.
#[no_mangle]
pub extern "C" fn vorpal_site_file(handle: *mut Host) {
    let h = host(handle);
    let path = input_text(h);
    h.output = vorpal_page::assets::find(&path)
        .map(|(body, _)| String::from_utf8_lossy(&body).into_owned())
        .unwrap_or_default();
}

/// Every page file's path, one a line, into the output buffer.
#[no_mangle]
pub extern "C" fn vorpal_site_paths(handle: *mut Host) {
    host(handle).output = vorpal_page::assets::paths().join("\n");
}

/// The Worker requests since the last call (a JSON list of `{"do":"start"|"send"|"end",
/// "link":N,"line":…}`) into the output buffer.
#[no_mangle]
pub extern "C" fn vorpal_page_requests(handle: *mut Host) {
    let h = host(handle);
    let requests = page(h).take_requests();
    h.output = serde_json::to_string(&requests).unwrap_or_else(|_| "[]".into());
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
    let line = input_text(h);
    let mut state = Step::Idle;
    let engine = h.engine.get_or_insert_with(UciEngine::new);
    for part in line.lines() {
        state = engine.command(part);
    }
    h.output = engine.take_output();
    code(state)
}

/// Runs one slice of the search; returns as `vorpal_command`.
#[no_mangle]
pub extern "C" fn vorpal_step(handle: *mut Host) -> u32 {
    let h = host(handle);
    let engine = h.engine.get_or_insert_with(UciEngine::new);
    let state = engine.step(SLICE);
    h.output = engine.take_output();
    code(state)
}

/// Answers the rules query in the input buffer (see `rules.rs`) into the output buffer.
#[no_mangle]
pub extern "C" fn vorpal_rules(handle: *mut Host) {
    let h = host(handle);
    h.output = rules::query(&input_text(h));
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
