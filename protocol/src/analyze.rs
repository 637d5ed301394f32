//! `vorpal analyze`: analysis for a person (a two-board diagram, then one readable line per
//! depth with the principal variation in SAN) or a script (`--json`: one JSON object per line).
//! A progress indicator goes to stderr while the engine thinks.

use crate::analyze_json;
use crate::display::diagram;
use crate::format::{human_count, human_score, pv_numbered};
use crate::go::MAX_DEPTH;
use crate::options::{available_memory_mb, HASH_MAX, MULTIPV_MAX, THREADS_MAX};
use crate::output::{to_stderr, to_stdout, Output, StdStream};
use crate::status;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::thread;
use std::time::{Duration, Instant};
use vorpal_engine::search::{Bound, Limits, Report, SearchControl, SearchInfo, SearchOptions, Searcher};
use vorpal_engine::{EnPassant, Game, Position, Rules, Variant};

/// Thinking time when no limit is given.
pub const DEFAULT_MOVETIME_MS: u64 = 5000;

const USAGE_TEMPLATE: &str = "\
usage: vorpal analyze [--fen <FEN>] [--moves <m1> <m2> ...]
                      [--depth <n>] [--movetime <ms>] [--nodes <n>] [--multipv <k>]
                      [--threads <n>] [--hash <MB>] [--variant <name>] [--chess960]
                      [--ep off|normal|double] [--tb <DIR>] [--json] [--progress]
  --fen       the position (any FEN form of docs/rules.md; quote it or give it as separate words);
              default: the start position
  --moves     moves played from it, in UCI or SAN (Nf3, Ne5/A, e2e4)
  --depth, --movetime, --nodes
              search limits (all that are given apply); default: --movetime 5000
  --multipv   show the best <k> lines
  --variant   one of: {variants} (default alice)
  --chess960  Chess960 castling (give the array with --fen)
  --ep        the en passant option of docs/rules.md 3.1 (default off)
  --tb        the directory of the Alice endgame tables (vorpal tb generate): a position
              in them is answered from the table (\"tablebase: mate in N\")
  --json      one JSON object per line instead of text (position, info per line, bestmove)
  --progress  show the progress indicator on stderr even when it is not a terminal
Scores are in pawns from White's side; SAN marks a move landing on board A with /A.";

fn usage() -> String {
    let names: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
    USAGE_TEMPLATE.replace("{variants}", &names.join(", "))
}

/// The parsed command line.
#[derive(Default)]
struct Args {
    fen: Option<String>,
    moves: Vec<String>,
    limits: Limits,
    options: SearchOptions,
    variant: Variant,
    chess960: bool,
    en_passant: EnPassant,
    json: bool,
    progress: bool,
    /// `--tb DIR`: the Alice endgame tables.
    tb: Option<String>,
}

fn parse_args(words: &[&str]) -> Result<Args, String> {
    let mut args = Args::default();
    let mut i = 0;
    while i < words.len() {
        let (flag, inline) = match words[i].split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v)),
            _ => (words[i], None),
        };
        i += 1;
        // The words up to the next `--option` (or the `=value`).
        let mut values: Vec<&str> = inline.into_iter().collect();
        if inline.is_none() {
            while i < words.len() && !words[i].starts_with("--") {
                values.push(words[i]);
                i += 1;
            }
        }
        let one = |what: &str| -> Result<u64, String> {
            match values.as_slice() {
                [v] => v.parse::<u64>().map_err(|_| format!("{flag}: '{v}' is not a {what}")),
                _ => Err(format!("{flag} takes one {what}")),
            }
        };
        // A value the engine cannot honour is refused, never silently changed.
        let in_range = |what: &str, min: u64, max: u64| -> Result<u64, String> {
            let n = one(what)?;
            match (min..=max).contains(&n) {
                true => Ok(n),
                false if max == u64::MAX => Err(format!("{flag} {n} is not at least {min}")),
                false => Err(format!("{flag} {n} is not in {min}..={max}")),
            }
        };
        match flag {
            "--fen" if !values.is_empty() => args.fen = Some(values.join(" ")),
            "--moves" => args.moves = values.iter().map(|s| s.to_string()).collect(),
            "--depth" => args.limits.depth = Some(in_range("number", 1, u64::from(MAX_DEPTH))? as u32),
            "--movetime" => args.limits.movetime = Some(Duration::from_millis(one("number of milliseconds")?)),
            "--nodes" => args.limits.nodes = Some(in_range("number", 1, u64::MAX)?),
            "--multipv" => args.options.multipv = in_range("number", 1, MULTIPV_MAX as u64)? as usize,
            "--threads" => args.options.threads = in_range("number", 1, THREADS_MAX as u64)? as usize,
            "--hash" => args.options.hash_mb = in_range("number of MB", 1, HASH_MAX as u64)? as usize,
            "--ep" => match values.as_slice() {
                [mode] => args.en_passant = mode.parse()?,
                _ => return Err("--ep takes one of off, normal, double".into()),
            },
            "--tb" => match values.as_slice() {
                [dir] => args.tb = Some(dir.to_string()),
                _ => return Err("--tb takes the directory of the endgame tables".into()),
            },
            "--variant" => match values.as_slice() {
                [name] => args.variant = name.parse()?,
                _ => return Err("--variant takes one variant name".into()),
            },
            "--json" | "--progress" | "--chess960" if !values.is_empty() => {
                return Err(format!("{flag} takes no value, found '{}'", values.join(" ")))
            }
            "--json" => args.json = true,
            "--progress" => args.progress = true,
            "--chess960" => args.chess960 = true,
            _ => return Err(format!("unknown or incomplete option '{flag}'")),
        }
    }
    if args.limits.depth.is_none() && args.limits.nodes.is_none() && args.limits.movetime.is_none() {
        args.limits.movetime = Some(Duration::from_millis(DEFAULT_MOVETIME_MS));
    }
    Ok(args)
}

/// Runs `vorpal analyze` with the words after `analyze`; returns the exit status.
pub fn run(words: &[&str]) -> i32 {
    if words.iter().any(|w| *w == "--help" || *w == "-h") {
        to_stdout(&format!("{}\n", usage()));
        return status::SUCCESS;
    }
    let args = match parse_args(words) {
        Ok(args) => args,
        Err(e) => {
            to_stderr(&format!("vorpal analyze: {e}\n\n{}\n", usage()));
            return status::USAGE;
        }
    };
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
        out.line(&analyze_json::position(&pos));
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
            out.line(&analyze_json::end(result, reason));
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
        Some(fen) => Position::from_fen(fen, rules).map_err(|e| format!("bad FEN '{fen}': {e}"))?,
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
                    analyze_json::info(&info, &pos)
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
                    out.line(&analyze_json::tablebase(&text));
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
        out.line(&analyze_json::bestmove(
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

    #[test]
    fn arguments() {
        let a = parse_args(&[
            "--fen",
            "4k3/8/8/8/8/8/8/4K2R",
            "w",
            "K",
            "-",
            "0",
            "1",
            "--depth=7",
            "--json",
        ])
        .unwrap();
        assert_eq!(a.fen.as_deref(), Some("4k3/8/8/8/8/8/8/4K2R w K - 0 1"));
        assert_eq!(a.limits.depth, Some(7));
        assert!(a.json);
        let a = parse_args(&["--moves", "e4", "e5", "--multipv", "3"]).unwrap();
        assert_eq!(a.moves, vec!["e4", "e5"]);
        assert_eq!(a.options.multipv, 3);
        assert_eq!(a.limits.movetime, Some(Duration::from_millis(DEFAULT_MOVETIME_MS)));
        assert!(parse_args(&["--depth"]).is_err());
        assert!(parse_args(&["--depth", "x"]).is_err());
        assert!(parse_args(&["--frob"]).is_err());
        for refused in [
            ["--depth", "0"],
            ["--depth", "1000"],
            ["--nodes", "0"],
            ["--threads", "0"],
            ["--threads", "2000"],
            ["--multipv", "0"],
            ["--multipv", "257"],
            ["--hash", "0"],
            ["--hash", "10000000"],
        ] {
            let e = parse_args(&refused)
                .err()
                .unwrap_or_else(|| panic!("{refused:?} accepted"));
            assert!(e.contains(refused[1]) && e.contains("is not"), "{refused:?}: {e}");
        }
        assert!(parse_args(&["--json", "yes"]).is_err());
        let a = parse_args(&["--variant", "looking-glass", "--chess960"]).unwrap();
        assert_eq!(a.variant, Variant::LookingGlass);
        assert!(a.chess960);
        assert!(parse_args(&["--variant", "crazyhouse"]).is_err());
    }

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
