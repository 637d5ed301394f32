//! What a page's session and an engine link say to each other, whatever carries the words:
//! the requests ([`Job`]), the reports ([`Event`]), and the page's options and MultiPV rules
//! that every link applies the same way. The native link is a process over pipes driven by a
//! thread; the browser build's is a Web Worker ([`crate::host`]).

use std::time::Duration;
use vorpal_client::engine_process::EngineConfig;
use vorpal_client::uci_hello::UciHello;

/// What the engine was asked to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Job {
    /// Search: the `position` command, the `go` command, and the longest the search should take
    /// (None for infinite analysis).
    Go {
        /// Search number, returned with its output.
        id: u64,
        /// `position ...`.
        position: String,
        /// `go ...`.
        go: String,
        /// Expected longest duration (hang detection).
        expected: Option<Duration>,
    },
    /// Stop the running search (its `bestmove` is still reported).
    Stop,
}

/// What the engine said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// The handshake is done.
    Ready {
        /// The engine's `id name`, or the configured name.
        name: String,
        /// The values of its `UCI_Variant` option.
        variants: Vec<String>,
        /// The options it lists, of those the page can set.
        options: Vec<String>,
        /// The range of its `UCI_Elo`, when it lists one.
        elo_range: Option<(i64, i64)>,
    },
    /// An `info` line of search `id`.
    Info(u64, String),
    /// The `bestmove` of search `id` (the move text).
    BestMove(u64, String),
    /// Something the person should know about the engine (it keeps running).
    Notice(String),
    /// The engine failed (could not start, crashed, hung); the thread has ended.
    Failed(String),
}

/// The options the page may set, when an engine lists them.
pub const PAGE_OPTIONS: [&str; 5] = [
    "MultiPV",
    "UCI_AnalyseMode",
    "Skill Level",
    "UCI_Elo",
    "UCI_LimitStrength",
];

/// The MultiPV count asked for in `options` (1 when not set).
pub fn multipv_asked(options: &[(String, String)]) -> u32 {
    options
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("MultiPV"))
        .and_then(|(_, v)| v.trim().parse().ok())
        .unwrap_or(1)
        .max(1)
}

/// The MultiPV number of an `info` line (1 when it names none; 0 when it is not a number).
pub fn multipv_of(line: &str) -> u32 {
    let mut words = line.split_whitespace();
    while let Some(w) = words.next() {
        if w == "multipv" {
            return words.next().and_then(|n| n.parse().ok()).unwrap_or(0);
        }
        if w == "pv" || w == "string" {
            break;
        }
    }
    1
}

/// `config` with the page's `extra` options set after the configured ones (replacing a
/// configured option of the same name).
pub fn with_extra(mut config: EngineConfig, extra: Vec<(String, String)>) -> EngineConfig {
    for (k, v) in extra {
        config.options.retain(|(n, _)| !n.eq_ignore_ascii_case(&k));
        config.options.push((k, v));
    }
    config
}

/// The configuration without the page's options (sent only once the engine lists them), and
/// those options.
pub fn split_page_options(config: &EngineConfig) -> (EngineConfig, Vec<(String, String)>) {
    let is_page = |k: &str| PAGE_OPTIONS.iter().any(|p| p.eq_ignore_ascii_case(k));
    let mut probe = config.clone();
    let wanted = probe.options.iter().filter(|(k, _)| is_page(k)).cloned().collect();
    probe.options.retain(|(k, _)| !is_page(k));
    (probe, wanted)
}

/// The `setoption` commands of the page's options `wanted` that the engine lists.
pub fn listed_page_options(hello: &UciHello, wanted: &[(String, String)]) -> Vec<String> {
    wanted
        .iter()
        .filter(|(k, _)| hello.has_option(k))
        .map(|(k, v)| format!("setoption name {k} value {v}"))
        .collect()
}

impl Event {
    /// The report of a finished handshake (`name` when the engine sent no `id name`).
    pub fn ready(hello: &UciHello, name: &str) -> Event {
        Event::Ready {
            name: hello.id_name().unwrap_or(name).to_string(),
            variants: hello.combo_values("UCI_Variant"),
            options: PAGE_OPTIONS
                .iter()
                .filter(|o| hello.has_option(o))
                .map(|o| o.to_string())
                .collect(),
            elo_range: hello.spin_range("UCI_Elo"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multipv_numbers() {
        assert_eq!(multipv_asked(&[("multipv".into(), "3".into())]), 3);
        assert_eq!(multipv_asked(&[("MultiPV".into(), "0".into())]), 1);
        assert_eq!(multipv_asked(&[]), 1);
        assert_eq!(multipv_of("info depth 3 multipv 2 score cp 1 pv e2e4"), 2);
        assert_eq!(multipv_of("info depth 3 score cp 1 pv e2e4 multipv 9"), 1);
        assert_eq!(multipv_of("info multipv x pv e2e4"), 0);
    }
}
