//! The browser build's page (the static site's game in WebAssembly, where a panic traps the
//! whole page): JSON commands and the lines an engine Worker prints, mixed. A line that starts
//! with `{` is a command; any other is a line of the newest engine Worker the page started.
//! Every answer and the view must be JSON, and the page's own PGN must import back.
#![no_main]
use libfuzzer_sys::fuzz_target;
use vorpal_wasm::gui::{Page, Request};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let page = Page::new();
    let mut link = None;
    for line in text.lines().take(48) {
        if line.starts_with('{') {
            let (_, answer) = page.command(line);
            assert!(answer.starts_with('{'), "answer {answer}");
        } else if let Some(l) = link {
            page.engine_line(l, line);
        }
        for request in page.take_requests() {
            if let Request::Start { link: l } = request {
                link = Some(l);
            }
        }
        page.tick();
    }
    assert!(page.view().starts_with('{'));
    if let Err(e) = vorpal_protocol::doors::gui_pgn_import(&page.pgn()) {
        panic!("the page's own PGN is refused ({e}):\n{}", page.pgn());
    }
});
