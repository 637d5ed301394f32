//! `vorpal analyze`: analysis for a person (a two-board diagram, then one readable line per
//! depth with the principal variation in SAN) or a script (`--json`: one JSON object per line).
//! A progress indicator goes to stderr while the engine thinks.

pub mod args;
pub mod json;

use crate::arg_values::RunCommand;
use crate::status;
use crate::uci::display::diagram;
use crate::uci::output::{to_stderr, Output, StdStream};
use args::{AnalyzeArgs, Args};
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::thread;
use std::time::{Duration, Instant};
use vorpal_engine::search::{Bound, Report, SearchControl, SearchInfo, SearchOptions, Searcher};
use vorpal_engine::{Game, Position, Rules};
use vorpal_uci_text::format::{human_count, human_score, pv_numbered};
use vorpal_uci_text::options::available_memory_mb;

impl RunCommand for AnalyzeArgs {
    fn run(self) -> i32 {
        run(self.settings())
    }
}

/// Runs `vorpal analyze` with the settings of its command line; returns the exit status.
pub fn run(args: Args) -> i32 {
    let game = match set_up(&args) {
        Ok(game) => game,
        Err(e) => {
            to_stderr(&format!("vorpal analyze: {e}\n"));
            return status::USAGE;
        }
    };
    let mut searcher = match searcher(&args.options, available_memory_mb()) {
        Ok(searcher) => searcher,
        Err(e) => {
            to_stderr(&format!("vorpal analyze: {e}\n"));
            return status::USAGE;
        }
    };
    if let Some(dir) = &args.tb {
        match vorpal_engine::tablebase::Tablebases::open(std::path::Path::new(dir)) {
            Ok(tb) => searcher.set_tablebases(Some(std::sync::Arc::new(tb))),
            Err(e) => {
                to_stderr(&format!("vorpal analyze: --tb {dir}: {e}\n"));
                return status::USAGE;
            }
        }
    }
    let out = Output::stdout();
    let pos = *game.position();
    if args.json {
        out.line(&json::position(&pos));
    } else {
        out.lines(&diagram(&pos));
        out.line(&format!("\nFen: {}", pos.to_fen()));
        if !game.moves().is_empty() {
            out.line(&format!("After: {}", pv_numbered(game.start(), game.moves())));
        }
        out.line("");
    }
    if let Some((result, reason)) = game.outcome().filter(|_| pos.count_legal() == 0) {
        let text = format!("{} ({})", reason.text(), result.pgn());
        if args.json {
            out.line(&json::end(result, reason));
        } else {
            out.line(&format!("No legal move: {text}"));
        }
        return status::SUCCESS;
    }
    analyse(&args, &game, &mut searcher, &out);
    status::SUCCESS
}

/// A searcher with exactly the options asked for, or why it cannot be had: a hash table
/// larger than the free memory (`free_mb`, where known) or one that cannot be allocated.
pub fn searcher(options: &SearchOptions, free_mb: Option<usize>) -> Result<Searcher, String> {
    if let Some(free) = free_mb.filter(|&free| options.hash_mb > free) {
        return Err(format!(
            "--hash {} MB is more than the memory available ({free} MB)",
            options.hash_mb
        ));
    }
    let mut searcher = Searcher::new(SearchOptions {
        hash_mb: 1,
        ..options.clone()
    });
    searcher
        .set_options(options.clone())
        .map_err(|e| format!("--hash {} MB: {e}", options.hash_mb))?;
    Ok(searcher)
}

/// The game from `--fen` and `--moves`.
fn set_up(args: &Args) -> Result<Game, String> {
    let rules = Rules::for_variant(args.variant)
        .with_ep(args.en_passant)
        .with_chess960(args.chess960);
    let start = match &args.fen {
        Some(fen) => Position::from_game_fen(fen, rules).map_err(|e| format!("bad FEN '{fen}': {e}"))?,
        None => Position::from_fen(rules.variant.start_fen(), rules).map_err(|e| e.to_string())?,
    };
    let mut game = Game::new(start);
    for (i, text) in args.moves.iter().enumerate() {
        let mv = game
            .position()
            .parse_move(text)
            .map_err(|e| format!("--moves: {e} (move {} of the list)", i + 1))?;
        game.play(mv);
    }
    Ok(game)
}

/// Searches and prints as it goes.
fn analyse(args: &Args, game: &Game, searcher: &mut Searcher, out: &Output) {
    let pos = *game.position();
    let control = SearchControl::new();
    let show_progress = args.progress || std::io::stderr().is_terminal();
    let progress = Progress::new(show_progress);
    let lines = args.options.multipv.min(pos.count_legal());
    if !args.json {
        let threads = args.options.threads;
        let shown = match (args.options.multipv, lines) {
            (1, _) => String::new(),
            (asked, lines) if asked == lines => format!(", {lines} lines"),
            (asked, lines) => format!(
                ", {lines} line{} (--multipv {asked}, but only {lines} legal move{})",
                plural(lines),
                plural(lines)
            ),
        };
        out.line(&format!(
            "Analysing with {threads} thread{}, {} MB hash{shown}; scores in pawns from White's side",
            plural(threads),
            args.options.hash_mb
        ));
    }
    let done = AtomicBool::new(false);
    progress.draw(None);
    let result = thread::scope(|scope| {
        if show_progress {
            scope.spawn(|| {
                while !done.load(Ordering::Relaxed) {
                    progress.draw(None);
                    thread::sleep(Duration::from_millis(100));
                }
            });
        }
        let mut block = Block::new(lines);
        let mut report = |r: Report| match r {
            Report::Info(info) => {
                progress.set_depth(info.depth, info.nodes);
                let block = if args.json {
                    json::info(&info, &pos)
                } else {
                    match block.add(&info, &pos) {
                        Some(text) => text,
                        None => return,
                    }
                };
                progress.clear();
                out.lines(&block);
            }
            Report::CurrMove { depth, mv, number } => {
                progress.draw(Some(format!("depth {depth}  move {number} {}", pos.move_to_san(mv))));
            }
            Report::Note(text) if text.starts_with("tablebase") => {
                progress.clear();
                if args.json {
                    out.line(&json::tablebase(&text));
                } else {
                    out.line(&text);
                }
            }
            Report::Note(text) => log::info!("{text}"),
        };
        let result = searcher.search(game, &args.limits, &control, &mut report);
        done.store(true, Ordering::Relaxed);
        result
    });
    progress.clear();
    let Some(best) = result.best else {
        out.line("No move found.");
        return;
    };
    let ponder = result.ponder.filter(|&p| pos.after(best).is_legal(p));
    if args.json {
        out.line(&json::bestmove(
            &pos,
            best,
            ponder,
            result.score,
            result.depth,
            result.nodes,
        ));
    } else {
        out.line(&format!(
            "\nBest move: {} ({}), score {} at depth {}, {} nodes",
            pos.move_to_san(best),
            pos.move_to_uci(best),
            human_score(result.score, pos.side_to_move()),
            result.depth,
            human_count(result.nodes)
        ));
    }
}

/// `s` after a count other than 1.
fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// Collects the lines of one depth in text mode: exact lines only, printed together once
/// the last of the `multipv` lines of a depth is in (a line reported again replaces the
/// earlier one).
struct Block {
    multipv: usize,
    lines: Vec<Option<(u32, String)>>,
}

impl Block {
    fn new(multipv: usize) -> Block {
        Block {
            multipv: multipv.max(1),
            lines: vec![None; multipv.max(1)],
        }
    }

    /// Adds a line; returns the block's text when it is complete.
    fn add(&mut self, info: &SearchInfo, pos: &Position) -> Option<String> {
        let k = info.multipv as usize;
        if info.bound != Bound::Exact || k == 0 || k > self.multipv {
            return None;
        }
        self.lines[k - 1] = Some((info.depth, text_info(info, pos, self.multipv)));
        if k < self.multipv {
            return None;
        }
        let text: Vec<String> = self
            .lines
            .iter_mut()
            .filter_map(|l| l.take())
            .filter(|(depth, _)| *depth == info.depth)
            .map(|(_, text)| text)
            .collect();
        Some(text.join("\n"))
    }
}

/// `depth 12  +0.31  1. e4 d5 2. exd5/A  (1.23M nodes, 0.85 s)`; with MultiPV a `#k` after
/// the depth.
fn text_info(info: &SearchInfo, pos: &Position, multipv: usize) -> String {
    let line = if multipv > 1 {
        format!(" #{}", info.multipv)
    } else {
        String::new()
    };
    format!(
        "depth {:>2}{line}  {:>6}  {}  ({} nodes, {:.2} s)",
        info.depth,
        human_score(info.score, pos.side_to_move()),
        pv_numbered(pos, &info.pv),
        human_count(info.nodes),
        info.time_ms as f64 / 1000.0
    )
}

/// The stderr progress line: spinner, elapsed time, depth, nodes, the move being searched.
struct Progress {
    enabled: bool,
    start: Instant,
    state: Mutex<ProgressState>,
}

#[derive(Default)]
struct ProgressState {
    depth: u32,
    nodes: u64,
    detail: String,
    ticks: usize,
    shown: bool,
}

impl Progress {
    fn new(enabled: bool) -> Progress {
        Progress {
            enabled,
            start: Instant::now(),
            state: Mutex::new(ProgressState::default()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, ProgressState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn set_depth(&self, depth: u32, nodes: u64) {
        let mut s = self.lock();
        s.depth = depth;
        s.nodes = nodes;
        s.detail.clear();
    }

    /// Redraws the line, with a new detail text if given.
    fn draw(&self, detail: Option<String>) {
        if !self.enabled {
            return;
        }
        let mut s = self.lock();
        if let Some(d) = detail {
            s.detail = d;
        }
        s.ticks += 1;
        let spin = ['|', '/', '-', '\\'][s.ticks % 4];
        let mut err = StdStream(std::io::stderr().lock());
        let _ = write!(
            err,
            "\r\x1b[K{spin} thinking {:.1} s, depth {} done, {} nodes  {}",
            self.start.elapsed().as_secs_f64(),
            s.depth,
            human_count(s.nodes),
            s.detail
        );
        let _ = err.flush();
        s.shown = true;
    }

    /// Erases the line (before a line is printed on stdout, which may share the terminal).
    fn clear(&self) {
        let mut s = self.lock();
        if s.shown {
            let mut err = StdStream(std::io::stderr().lock());
            let _ = write!(err, "\r\x1b[K");
            let _ = err.flush();
            s.shown = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::args::parse_args;

    #[test]
    fn a_hash_beyond_the_free_memory_is_refused() {
        let options = SearchOptions {
            hash_mb: 65_536,
            ..SearchOptions::default()
        };
        let e = searcher(&options, Some(4000)).err().expect("refused");
        assert_eq!(e, "--hash 65536 MB is more than the memory available (4000 MB)");
        let small = SearchOptions {
            hash_mb: 2,
            ..SearchOptions::default()
        };
        assert_eq!(searcher(&small, Some(4000)).unwrap().options(), &small);
    }

    #[test]
    fn set_up_reports_bad_moves() {
        let a = parse_args(&["--moves", "e4", "e4"]).unwrap();
        assert!(set_up(&a).unwrap_err().contains("move 2"));
    }
}
