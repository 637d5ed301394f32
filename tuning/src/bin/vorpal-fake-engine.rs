//! A scripted UCI engine for testing `vorpal-match`: it plays legal moves chosen by a seeded
//! hash of the position (random, or greedy: mates and captures first) and misbehaves on request.
//!
//! Arguments (`--key=value` or `--key value`):
//! - `--mode=random|greedy`, `--seed=N`, `--score=CP` (reported score, own view), `--delay=MS`
//!   (think time per move);
//! - faults on the engine's Nth move of a game: `--illegal-at=N`, `--crash-at=N`,
//!   `--hang-at=N` (never answers again), `--slow-at=N` (answers 300 ms after its time is up);
//! - `--once=FILE`: the fault happens only while FILE does not exist, and creates it;
//! - `--no-uciok`: never finishes the handshake; `--max-starts=FILE:N`: counts its starts in
//!   FILE and never finishes the handshake after the Nth.
//!
//! It lists `UCI_Variant` (default `chess`) and answers `bestmove 0000` while the variant is
//! not `alice`, so a runner that forgets to select the variant fails the tests.

#![forbid(unsafe_code)]

use clap::Parser;
use std::io::{BufRead, Write};
use std::time::Duration;
use vorpal_engine::{Color, Move, Position, Rules};

/// A scripted UCI engine for testing vorpal-match: legal moves chosen by a seeded hash of
/// the position, and faults on request (on the engine's Nth move of a game)
#[derive(Parser, Debug, Default)]
#[command(
    name = "vorpal-fake-engine",
    allow_negative_numbers = true,
    verbatim_doc_comment,
    args_override_self = true
)]
struct Script {
    /// random, or greedy (mates and captures first)
    #[arg(long = "mode", value_name = "MODE", action = clap::ArgAction::Set, default_value = "random")]
    #[arg(value_parser = greedy_mode)]
    greedy: bool,
    /// Seed of the move choice
    #[arg(long, value_name = "N", default_value_t = 0)]
    seed: u64,
    /// Reported score, own view, in cp
    #[arg(long, value_name = "CP", default_value_t = 0)]
    score: i32,
    /// Think time per move, in ms
    #[arg(long, value_name = "MS", default_value_t = 0)]
    delay: u64,
    /// An illegal move on move N
    #[arg(long, value_name = "N")]
    illegal_at: Option<u32>,
    /// Exit on move N
    #[arg(long, value_name = "N")]
    crash_at: Option<u32>,
    /// Never answer again from move N on
    #[arg(long, value_name = "N")]
    hang_at: Option<u32>,
    /// Answer move N 300 ms after its time is up
    #[arg(long, value_name = "N")]
    slow_at: Option<u32>,
    /// The fault happens only while FILE does not exist, and creates it
    #[arg(long, value_name = "FILE")]
    once: Option<String>,
    /// Never finish the handshake
    #[arg(long)]
    no_uciok: bool,
    /// Count the starts in FILE and never finish the handshake after the Nth
    #[arg(long, value_name = "FILE:N", value_parser = starts_limit)]
    max_starts: Option<(String, u32)>,
}

/// `--mode`: true for greedy.
fn greedy_mode(text: &str) -> Result<bool, String> {
    match text {
        "random" => Ok(false),
        "greedy" => Ok(true),
        _ => Err(format!("'{text}' is not random or greedy")),
    }
}

/// `--max-starts FILE:N`.
fn starts_limit(text: &str) -> Result<(String, u32), String> {
    let (file, n) = text.rsplit_once(':').ok_or_else(|| format!("'{text}' is not FILE:N"))?;
    let n = n.parse().map_err(|_| format!("'{n}' is not a number of starts"))?;
    Ok((file.to_string(), n))
}

impl Script {
    /// True when a fault scheduled at `at` fires on move `n` (respecting `--once`).
    fn fires(&self, at: Option<u32>, n: u32) -> bool {
        if at != Some(n) {
            return false;
        }
        match &self.once {
            Some(path) if std::path::Path::new(path).exists() => false,
            Some(path) => std::fs::write(path, "fired").is_ok(),
            None => true,
        }
    }
}

fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn parse_position(line: &str) -> Option<Position> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let moves_at = tokens.iter().position(|&t| t == "moves").unwrap_or(tokens.len());
    let mut pos = match tokens.get(1) {
        Some(&"startpos") => Position::startpos(),
        Some(&"fen") => Position::from_fen(&tokens[2..moves_at].join(" "), Rules::default()).ok()?,
        _ => return None,
    };
    for t in tokens.iter().skip(moves_at + 1) {
        pos = pos.after(pos.parse_uci(t).ok()?);
    }
    Some(pos)
}

/// A move text that is not legal here: one of our pieces to a square it cannot go to.
fn illegal_move(pos: &Position) -> String {
    let legal: Vec<String> = pos.legal_moves().iter().map(|&m| pos.move_to_uci(m)).collect();
    let files = "abcdefgh";
    let name = |i: usize| format!("{}{}", &files[i % 8..i % 8 + 1], i / 8 + 1);
    for from in 0..64 {
        let sq = vorpal_engine::Square::new(from as u8);
        if pos.piece_at(sq).is_some_and(|(p, _)| p.color() == pos.side_to_move()) {
            for to in 0..64 {
                let text = format!("{}{}", name(from), name(to));
                if to != from && !legal.contains(&text) {
                    return text;
                }
            }
        }
    }
    "a1a1".into()
}

fn choose(pos: &Position, script: &Script, ply: u32) -> Move {
    let moves = pos.legal_moves();
    let pick = |list: &[Move]| list[(mix(pos.key() ^ script.seed ^ u64::from(ply)) % list.len() as u64) as usize];
    if script.greedy {
        let mates: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&m| {
                let next = pos.after(m);
                next.in_check() && next.count_legal() == 0
            })
            .collect();
        if !mates.is_empty() {
            return pick(&mates);
        }
        let captures: Vec<Move> = moves.iter().copied().filter(|m| m.is_capture()).collect();
        if !captures.is_empty() {
            return pick(&captures);
        }
    }
    pick(&moves)
}

/// Milliseconds the mover was given by `go`, if any limit was.
fn allotted_ms(go: &str, side: Color) -> Option<u64> {
    let t: Vec<&str> = go.split_whitespace().collect();
    let get = |k: &str| t.iter().position(|&x| x == k).and_then(|i| t.get(i + 1)?.parse().ok());
    get("movetime").or(get(if side == Color::White { "wtime" } else { "btime" }))
}

fn main() {
    let mut script = Script::parse();
    if let Some((file, max)) = &script.max_starts {
        let count: u32 = std::fs::read_to_string(file)
            .ok()
            .and_then(|t| t.trim().parse().ok())
            .unwrap_or(0);
        let _ = std::fs::write(file, (count + 1).to_string());
        script.no_uciok |= count >= *max;
    }
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    let mut pos = Position::startpos();
    let mut variant = "chess".to_string();
    let mut move_no = 0u32;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let line = line.trim().to_string();
        let reply: Vec<String> = match line.split_whitespace().next().unwrap_or("") {
            "uci" => {
                let mut r = vec![
                    "id name vorpal-fake-engine".to_string(),
                    "option name UCI_Variant type combo default chess var chess var alice".to_string(),
                    "option name Hash type spin default 16 min 1 max 1024".to_string(),
                ];
                if !script.no_uciok {
                    r.push("uciok".into());
                }
                r
            }
            "setoption" => {
                if let Some(v) = line.strip_prefix("setoption name UCI_Variant value ") {
                    variant = v.trim().to_string();
                }
                vec![]
            }
            "isready" => vec!["readyok".into()],
            "ucinewgame" => {
                move_no = 0;
                vec![]
            }
            "position" => {
                pos = parse_position(&line).unwrap_or_else(|| {
                    eprintln!("fake-engine: bad position command: {line}");
                    std::process::exit(4)
                });
                vec![]
            }
            "go" => {
                move_no += 1;
                if script.fires(script.crash_at, move_no) {
                    std::process::exit(3);
                }
                if script.fires(script.hang_at, move_no) {
                    loop {
                        std::thread::sleep(Duration::from_secs(3600));
                    }
                }
                if script.fires(script.slow_at, move_no) {
                    let ms = allotted_ms(&line, pos.side_to_move()).unwrap_or(1000);
                    std::thread::sleep(Duration::from_millis(ms + 300));
                }
                if script.delay > 0 {
                    std::thread::sleep(Duration::from_millis(script.delay));
                }
                let best = if variant != "alice" {
                    "0000".to_string()
                } else if script.fires(script.illegal_at, move_no) {
                    illegal_move(&pos)
                } else {
                    pos.move_to_uci(choose(&pos, &script, move_no))
                };
                vec![
                    format!(
                        "info depth 1 seldepth 1 score cp {} nodes 1 time 0 pv {best}",
                        script.score
                    ),
                    format!("bestmove {best}"),
                ]
            }
            "quit" => break,
            _ => vec![],
        };
        for r in reply {
            if writeln!(out, "{r}").and_then(|_| out.flush()).is_err() {
                return;
            }
        }
    }
}
