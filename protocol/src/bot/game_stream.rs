//! A game's stream, read on a thread of its own for as long as the game thread wants it:
//! every message passed on, a `gameEnd` also stopping a running search, and a broken, closed
//! or refused-for-now stream reopened with backoff (the game thread hears of each loss and
//! asks the site whether the game still runs). Only a game the site does not know (404) or
//! does not let the bot read (401/403) is given up here.

use super::backoff::Backoff;
use super::http::{Api, ApiError};
use super::ndjson::Next;
use super::wire::GameEvent;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use vorpal_engine::search::SearchControl;

/// What the stream thread passes on.
pub(super) enum Msg {
    /// A message of the game stream (boxed: a `gameFull` is large).
    Event(Box<GameEvent>),
    /// The stream broke or closed; it is being reopened.
    Lost(String),
    /// The stream cannot be had (the game is unknown, or not the bot's).
    Gone(String),
}

/// Reads game `id`'s stream, reconnecting with backoff, until the game ends, the game thread
/// is done, or the stream cannot be had.
pub(super) fn read_stream(api: &Api, id: &str, tx: &Sender<Msg>, done: &AtomicBool, control: &SearchControl) {
    let mut backoff = Backoff::for_game();
    while !done.load(Ordering::SeqCst) {
        let mut stream = match api.game_stream(id) {
            Ok(stream) => stream,
            Err(e @ (ApiError::Refused { .. } | ApiError::Rejected { status: 404, .. })) => {
                log::error!("game {id}: its stream is refused: {e}");
                let _ = tx.send(Msg::Gone(format!("its stream is refused: {e}")));
                return;
            }
            Err(e) => {
                // 409 (the site has not yet noticed the old stream is gone), 429, 5xx, network.
                let wait = backoff.next_wait(match e {
                    ApiError::RateLimited { retry_after } => retry_after,
                    _ => None,
                });
                log::warn!("game {id}: stream: {e}; again in {} ms", wait.as_millis());
                if tx.send(Msg::Lost(e.to_string())).is_err() {
                    return;
                }
                std::thread::sleep(wait);
                continue;
            }
        };
        let why = loop {
            match stream.next::<GameEvent>() {
                Ok(Next::Message(event)) => {
                    backoff.reset();
                    let end = matches!(event, GameEvent::GameEnd { .. });
                    if end {
                        done.store(true, Ordering::SeqCst);
                        control.stop();
                    }
                    if tx.send(Msg::Event(Box::new(event))).is_err() || end {
                        return;
                    }
                }
                Ok(Next::Unreadable(line, e)) => log::warn!("game {id}: unreadable line skipped ({e}): {line}"),
                Ok(Next::End) => break "closed by the site".to_string(),
                Err(e) => break e,
            }
            if done.load(Ordering::SeqCst) {
                return;
            }
        };
        if !done.load(Ordering::SeqCst) {
            let wait = backoff.next_wait(None);
            log::info!("game {id}: stream: {why}; reconnecting in {} ms", wait.as_millis());
            if tx.send(Msg::Lost(why)).is_err() {
                return;
            }
            std::thread::sleep(wait);
        }
    }
}
