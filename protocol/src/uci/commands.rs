//! `position` and the commands beyond UCI: `d`, `fen`, `moves`, `perft`, `eval`, `bench`,
//! `result`, `flip`, `help`.

use super::printer::error;
use crate::uci::display::describe;
use crate::uci::output::{one_line, to_stderr};
use crate::uci::session::EngineSession;
use std::time::Instant;
use vorpal_engine::{bench, eval, perft, FenStyle, Game, Position};
use vorpal_uci_text::go::MAX_PERFT;
use vorpal_uci_text::position_words::parse_position;

/// The `help` text.
const HELP: &str = "\
Vorpal speaks UCI (https://www.chessprogramming.org/UCI) with Alice chess extensions.
UCI commands:
  uci | isready | debug on|off | register
  setoption name <id> [value <x>] | ucinewgame
  position startpos|fen <FEN> [moves <m1> ...]   (FEN forms of docs/rules.md; moves in UCI or SAN)
  go [searchmoves <m>...] [ponder] [wtime|btime|winc|binc <ms>] [movestogo <n>]
     [depth <n>] [nodes <n>] [mate <n>] [movetime <ms>] [infinite] | go perft <n>
  stop | ponderhit | quit
Extensions:
  d                        every board side by side, then Fen, Key, Checkers
  fen [pipe|wide|split|joined]
                           the current FEN (the pipe form unless asked otherwise)
  moves                    every legal move: UCI and SAN
  perft <n> [threads <k>] [<FEN>]
                           move path counts per root move, then 'Nodes searched: N'
                           (k threads; default: the Threads option)
  eval                     the static evaluation, term by term, and the network's value
  bench [depth] [hce]      fixed-depth search of the built-in positions (Nodes searched, Nodes/second);
                           hce: with the hand-crafted evaluation instead of the network
  result                   result 1-0|0-1|1/2-1/2|* <reason> for the current game
  flip                     mirror the position (colours swapped) to check evaluation symmetry
  xboard                   switch to CECP (the XBoard protocol) for the rest of the session
  help                     this text
Command line: vorpal <command> [args] runs one command; vorpal analyze --help for analysis.";

/// The entry of the `help` text for the command `word` (its syntax and what it does), or None
/// for a word that is no command.
pub fn command_help(word: &str) -> Option<String> {
    let word = word.to_ascii_lowercase();
    let mut entries: Vec<Vec<&str>> = Vec::new();
    for line in HELP.lines() {
        let indent = line.len() - line.trim_start().len();
        match (indent, entries.last_mut()) {
            (2, _) => entries.push(vec![line]),
            (i, Some(entry)) if i > 2 => entry.push(line),
            _ => {}
        }
    }
    entries
        .into_iter()
        .find(|entry| {
            entry[0]
                .split(" | ")
                .any(|part| part.split_whitespace().next() == Some(word.as_str()))
        })
        .map(|entry| entry.join("\n"))
}

/// `position startpos|fen <FEN> [moves ...]`. A bad FEN keeps the previous position; an
/// unusable move keeps the position up to the last legal move.
pub(super) fn cmd_position(session: &mut EngineSession, words: &[&str]) {
    match parse_position(words, session.start_position(), session.rules()) {
        Err(e) => error(session, &e),
        Ok((game, problem)) => {
            if let Some(e) = problem {
                error(session, &e);
            }
            session.set_game(game);
        }
    }
}

pub(super) fn cmd_d(session: &EngineSession) {
    session.out().lines(&describe(session.position()));
}

pub(super) fn cmd_fen(session: &EngineSession, words: &[&str]) {
    let style = match words {
        [] | ["pipe"] => FenStyle::Pipe,
        ["wide"] => FenStyle::Wide,
        ["split"] => FenStyle::Split,
        ["joined"] => FenStyle::Joined,
        _ => {
            return error(
                session,
                &format!(
                    "fen: expected 'pipe', 'wide', 'split' or 'joined', found '{}'",
                    one_line(&words.join(" "))
                ),
            )
        }
    };
    session.out().line(&session.position().to_fen_style(style));
}

/// One line per legal move, `<uci> <san>`, then `Legal moves: N`.
pub(super) fn cmd_moves(session: &EngineSession) {
    let pos = session.position();
    let mut lines: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|&mv| format!("{} {}", pos.move_to_uci(mv), pos.move_to_san(mv)))
        .collect();
    lines.sort();
    lines.push(format!("Legal moves: {}", lines.len()));
    session.out().lines(&lines.join("\n"));
}

/// `perft <depth> [threads <k>] [<FEN>]`: the current position unless a FEN follows; `k`
/// defaults to the `Threads` option.
pub(super) fn cmd_perft(session: &mut EngineSession, words: &[&str]) {
    let Some((depth, mut fen)) = words.split_first() else {
        return error(session, "perft: expected 'perft <depth> [threads <k>] [<FEN>]'");
    };
    let mut threads = session.settings().search.threads;
    if let ["threads" | "--threads", k, rest @ ..] = fen {
        match k.parse::<usize>() {
            Ok(k) if (1..=1024).contains(&k) => threads = k,
            _ => {
                return error(
                    session,
                    &format!("perft: thread count '{}' is not in 1..=1024", one_line(k)),
                )
            }
        }
        fen = rest;
    }
    let depth = match depth.parse::<u32>() {
        Ok(d) if d <= MAX_PERFT => d,
        _ => {
            return error(
                session,
                &format!("perft: depth '{}' is not a number in 0..={MAX_PERFT}", one_line(depth)),
            )
        }
    };
    let pos = if fen.is_empty() {
        *session.position()
    } else {
        match Position::from_fen(&fen.join(" "), session.rules()) {
            Ok(pos) => pos,
            Err(e) => return error(session, &format!("perft: bad FEN '{}': {e}", one_line(&fen.join(" ")))),
        }
    };
    run_perft(session, depth, pos, threads);
}

/// Prints `<move>: <count>` per root move, a blank line, and `Nodes searched: N`; the
/// speed goes to stderr.
pub(super) fn run_perft(session: &EngineSession, depth: u32, pos: Position, threads: usize) {
    let start = Instant::now();
    let counts = if depth == 0 {
        Vec::new()
    } else if threads <= 1 {
        perft::divide(&pos, depth)
    } else {
        match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(pool) => pool.install(|| perft::divide_parallel(&pos, depth)),
            Err(e) => return error(session, &format!("perft: cannot start {threads} threads: {e}")),
        }
    };
    let (text, total) = vorpal_uci_text::format::perft_text(&pos, depth, &counts);
    session.out().lines(&text);
    let seconds = start.elapsed().as_secs_f64();
    to_stderr(&format!(
        "perft {depth}: {total} nodes in {:.0} ms, {:.0} nodes/s, {threads} thread(s)\n",
        seconds * 1000.0,
        total as f64 / seconds.max(1e-9)
    ));
}

/// `eval`: the hand-crafted terms, then the network's value and which of the two the search
/// uses for this position.
pub(super) fn cmd_eval(session: &EngineSession) {
    let pos = session.position();
    let mut text = eval::breakdown(pos).to_string();
    let settings = session.settings();
    let net = session.network();
    let uses = if vorpal_engine::nnue::Network::applies_to(pos) {
        let v = net.evaluate_position(pos);
        let white = if pos.side_to_move() == vorpal_engine::Color::White {
            v
        } else {
            -v
        };
        text.push_str(&format!(
            "\nNNUE evaluation : {:+.2} (White side), EvalFile {}, {} hidden neurons",
            white as f64 / 100.0,
            settings.eval_file,
            net.hidden()
        ));
        if settings.use_nnue {
            "the network".to_string()
        } else {
            "the hand-crafted evaluation (UseNNUE false)".to_string()
        }
    } else {
        format!(
            "the hand-crafted evaluation (no network for {})",
            pos.rules().variant.name()
        )
    };
    text.push_str(&format!("\nThe search uses : {uses}"));
    session.out().lines(&text);
}

/// `bench [depth] [hce]`: progress per position on stderr, the totals on stdout.
pub(super) fn cmd_bench(session: &mut EngineSession, words: &[&str]) {
    // A trailing `hce` benches the hand-crafted evaluation (for the speed comparison).
    let (words, hand_crafted) = match words {
        [rest @ .., last] if last.eq_ignore_ascii_case("hce") => (rest, true),
        _ => (words, false),
    };
    let depth = match words {
        [] => bench::DEFAULT_DEPTH,
        [d] => match d.parse::<u32>() {
            Ok(d) if (1..=vorpal_uci_text::go::MAX_DEPTH).contains(&d) => d,
            _ => {
                return error(
                    session,
                    &format!(
                        "bench: depth '{}' is not a number in 1..={}",
                        one_line(d),
                        vorpal_uci_text::go::MAX_DEPTH
                    ),
                )
            }
        },
        _ => return error(session, "bench: expected 'bench [depth] [hce]'"),
    };
    let total = bench::positions().len();
    let mut evaluator = session.evaluator();
    if hand_crafted {
        evaluator = vorpal_engine::Evaluator::hand_crafted(evaluator.params);
    }
    let net = session.network();
    to_stderr(&if hand_crafted || !session.settings().use_nnue {
        "Evaluation: hand-crafted\n".to_string()
    } else {
        format!(
            "Evaluation: network of {} hidden neurons, {} kernels (VORPAL_SIMD=portable forces the portable ones)\n",
            net.hidden(),
            net.simd()
        )
    });
    let result = bench::run(depth, &evaluator, &mut |number, fen, nodes| {
        to_stderr(&format!("Position: {number}/{total} {fen} nodes {nodes}\n"));
    });
    to_stderr("===========================\n");
    session.out().lines(&vorpal_uci_text::format::bench_text(&result));
}

/// `result 1-0|0-1|1/2-1/2|* <reason>`.
pub(super) fn cmd_result(session: &EngineSession) {
    let line = match session.game().outcome() {
        Some((result, reason)) => format!("result {} {}", result.pgn(), reason.text()),
        None => "result * in progress".to_string(),
    };
    session.out().line(&line);
}

/// Mirrors the position: ranks reversed, colours swapped, side to move swapped. The move
/// history is dropped.
pub(super) fn cmd_flip(session: &mut EngineSession) {
    let fen = mirror_fen(&session.position().to_fen_style(FenStyle::Wide));
    match Position::from_fen(&fen, session.rules()) {
        Ok(pos) => session.set_game(Game::new(pos)),
        Err(e) => error(session, &format!("flip: the mirrored position is not valid: {e}")),
    }
}

pub(super) fn cmd_help(session: &EngineSession) {
    session.out().lines(HELP);
}

/// The colour-mirrored FEN of a pipe-form or wide-form FEN (`|` marks stay with their pieces;
/// the wide form mirrors every board at once).
pub fn mirror_fen(fen: &str) -> String {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let swap = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect()
    };
    let placement: Vec<String> = fields[0].split('/').rev().map(swap).collect();
    let side = if fields.get(1) == Some(&"w") { "b" } else { "w" };
    let mut castling: Vec<char> = swap(fields.get(2).unwrap_or(&"-")).chars().collect();
    castling.sort_by_key(|c| (c.is_ascii_lowercase(), *c != 'K' && *c != 'k'));
    let castling: String = castling.into_iter().collect();
    let ep = match fields.get(3) {
        Some(&ep) if ep.len() == 2 => {
            let b = ep.as_bytes();
            format!("{}{}", b[0] as char, (b'1' + b'8' - b[1]) as char)
        }
        _ => "-".to_string(),
    };
    let rest = fields.get(4..).map(|f| f.join(" ")).unwrap_or_default();
    format!("{} {side} {castling} {ep} {rest}", placement.join("/"))
        .trim_end()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirror_swaps_colours_and_ranks() {
        assert_eq!(
            mirror_fen("rnbqkbnr/pppp1ppp/8/4|p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 2"),
            "rnbqkbnr/pppppppp/8/8/4|P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 2"
        );
        assert_eq!(
            mirror_fen("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"),
            "r3k3/8/8/8/8/8/8/4K3 b q - 0 1"
        );
    }
}
