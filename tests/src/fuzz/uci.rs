//! Random UCI command streams for the `uci` fuzz target, and a model of how the engine reads
//! them (which game each `go` searches, which `isready` it answers), so the process driver
//! (`uci_run.rs`) can check every answer.
//!
//! A stream interleaves `position` (valid and mutated FENs and move lists in UCI, wide and SAN
//! form), `go` (every parameter, with sane, zero, negative, huge and non-numeric values),
//! `stop`, `isready`, `ucinewgame`, `setoption` (every option, good and bad values),
//! read-only commands, empty lines, garbage bytes (invalid UTF-8, NUL, control characters),
//! mutated lines, pauses, and sometimes `quit` or a line over 1 MiB.
//!
//! [`sanitize`] keeps a stream safe to run unattended: no `xboard` (another protocol), no
//! `perft` deeper than 3, `bench` deeper than 2 or `go perft` (they block the input loop), no
//! `Debug Log File` (writes files), and at most 8 threads and 64 MB of hash.

use super::{mutate, ALPHABET};
use rand::rngs::StdRng;
use rand::Rng;
use vorpal_engine::{EnPassant, FenStyle, Game, Move, Position, Rules, Variant};

/// One step of a command stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// A line of bytes (sent with a `\n` after it; never contains `\n` itself).
    Line(Vec<u8>),
    /// Wait this many milliseconds before the next line (so searches get stopped mid-way).
    Pause(u64),
}

/// Longest line the engine reads (`protocol/src/uci/input.rs`); longer ones are dropped.
pub const MAX_LINE: usize = 1 << 20;
/// Most threads a stream may ask for (the machine is shared).
pub const MAX_THREADS: i64 = 8;
/// Most hash a stream may ask for, in MB.
pub const MAX_HASH: i64 = 64;

/// Words of `go` that take a value (and `searchmoves`, which takes a list), as the engine
/// knows them; any other word is an unknown parameter.
pub const GO_KEYWORDS: [&str; 13] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
];

/// The `go` parameters that take a number: `wtime` to `movetime` of [`GO_KEYWORDS`].
pub const GO_NUMBER_PARAMETERS: &[&str] = GO_KEYWORDS.split_at(2).1.split_at(9).0;

/// Numbers of every awkward kind, as text.
fn number(rng: &mut StdRng, sane: std::ops::Range<i64>) -> String {
    const ODD: [&str; 14] = [
        "0",
        "-1",
        "-9223372036854775808",
        "9223372036854775807",
        "18446744073709551615",
        "99999999999999999999999",
        "+5",
        "1e3",
        "0x10",
        "abc",
        "-0",
        "4294967296",
        "2147483648",
        "1.5",
    ];
    if rng.gen_bool(0.8) {
        rng.gen_range(sane).to_string()
    } else {
        ODD[rng.gen_range(0..ODD.len())].to_string()
    }
}

/// Random case for a keyword (the engine reads command words and option names in any case).
fn any_case(rng: &mut StdRng, word: &str) -> String {
    if rng.gen_bool(0.85) {
        return word.to_string();
    }
    word.chars()
        .map(|c| {
            if rng.gen_bool(0.5) {
                c.to_ascii_uppercase()
            } else {
                c.to_ascii_lowercase()
            }
        })
        .collect()
}

/// The generator: it reads its own stream with a [`Model`] to know the engine's rules and
/// game, so its move lists and `searchmoves` are mostly legal.
struct Gen {
    model: Model,
}

impl Gen {
    /// A position reached by a random walk of up to `plies` from the variant's start, and the
    /// moves of the walk in random notations.
    fn walk(&self, rng: &mut StdRng, start: Position, plies: usize) -> (Position, Vec<String>) {
        let mut pos = start;
        let mut texts = Vec::new();
        for _ in 0..rng.gen_range(0..=plies) {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.gen_range(0..moves.len())];
            texts.push(match rng.gen_range(0..4) {
                0 => pos.move_to_san(mv),
                1 => pos.move_to_wide(mv),
                _ => pos.move_to_uci(mv),
            });
            pos.make_move(mv);
        }
        (pos, texts)
    }

    /// A `position` line: the game so far plus new moves (as a GUI sends it), `startpos` or a
    /// FEN in any form (sometimes mutated), then a move list (sometimes with a mutated move).
    fn position(&self, rng: &mut StdRng) -> String {
        let start = Position::start(self.model.rules);
        let mut line = any_case(rng, "position");
        let game = self.model.game.as_ref().filter(|_| rng.gen_bool(0.3));
        let base = if let Some(game) = game {
            // As a GUI does: the game so far and the moves since.
            if game.start().to_fen() == start.to_fen() {
                line.push_str(" startpos moves");
            } else {
                line.push_str(&format!(" fen {} moves", game.start().to_fen()));
            }
            for (pos, mv) in game.positions().iter().zip(game.moves()) {
                line.push(' ');
                line.push_str(&pos.move_to_uci(*mv));
            }
            *game.position()
        } else if rng.gen_bool(0.5) {
            line.push_str(" startpos");
            start
        } else {
            let (pos, _) = self.walk(rng, start, 40);
            let style = [FenStyle::Pipe, FenStyle::Wide, FenStyle::Split, FenStyle::Joined][rng.gen_range(0..4)];
            let mut fen = pos.to_fen_style(style);
            if rng.gen_bool(0.2) {
                fen = String::from_utf8_lossy(&mutate(rng, &fen)).into_owned();
            }
            line.push_str(" fen ");
            line.push_str(&fen);
            pos
        };
        let plies = if rng.gen_bool(0.05) { 400 } else { 30 };
        let (_, mut moves) = self.walk(rng, base, plies);
        if !moves.is_empty() && rng.gen_bool(0.15) {
            let i = rng.gen_range(0..moves.len());
            moves[i] = String::from_utf8_lossy(&mutate(rng, &moves[i])).into_owned();
        }
        if !line.ends_with(" moves") && (!moves.is_empty() || rng.gen_bool(0.2)) {
            line.push_str(" moves");
        }
        for m in moves {
            line.push(' ');
            line.push_str(&m);
        }
        line
    }

    /// A `go` line of up to three random parameters with random values.
    fn go(&self, rng: &mut StdRng) -> String {
        let mut words = vec![any_case(rng, "go")];
        for _ in 0..rng.gen_range(0..4) {
            let w = match rng.gen_range(0..14) {
                0 => format!("depth {}", number(rng, 1..7)),
                1 => format!("nodes {}", number(rng, 1..20_000)),
                2 => format!("movetime {}", number(rng, 0..60)),
                3 => format!("wtime {} btime {}", number(rng, 0..3000), number(rng, 0..3000)),
                4 => format!("winc {} binc {}", number(rng, 0..100), number(rng, 0..100)),
                5 => format!("movestogo {}", number(rng, 1..40)),
                6 => format!("mate {}", number(rng, 1..4)),
                7 => "infinite".to_string(),
                8 => "ponder".to_string(),
                9 => {
                    let pos = self
                        .model
                        .game
                        .as_ref()
                        .map_or(Position::start(self.model.rules), |g| *g.position());
                    let mut moves: Vec<String> = (0..rng.gen_range(1..4))
                        .flat_map(|_| self.walk(rng, pos, 1).1)
                        .collect();
                    if rng.gen_bool(0.3) {
                        moves.push(["e2e4", "Nf3", "a7a8q", "(none)"][rng.gen_range(0..4)].to_string());
                    }
                    format!("searchmoves {}", moves.join(" "))
                }
                10 => GO_KEYWORDS[rng.gen_range(0..GO_KEYWORDS.len())].to_string(),
                11 => "frobnicate".to_string(),
                _ => format!("depth {}", number(rng, 1..4)),
            };
            words.push(w);
        }
        words.join(" ")
    }

    /// A `setoption` line: any option, good and bad values, names in any case, parts missing.
    fn setoption(&self, rng: &mut StdRng) -> String {
        let (name, value): (&str, String) = match rng.gen_range(0..16) {
            0 => ("Threads", number(rng, 1..5)),
            1 => ("Hash", number(rng, 1..33)),
            2 => ("MultiPV", number(rng, 1..5)),
            3 => ("Skill Level", number(rng, 0..21)),
            4 => ("Move Overhead", number(rng, 0..100)),
            5 => {
                let v = Variant::ALL[rng.gen_range(0..Variant::ALL.len())];
                if rng.gen_bool(0.9) {
                    ("UCI_Variant", v.name().to_string())
                } else {
                    ("UCI_Variant", "crazyhouse".to_string())
                }
            }
            6 => {
                let m = EnPassant::ALL[rng.gen_range(0..3)];
                ("AliceEnPassant", m.name().to_string())
            }
            7 => (
                "UCI_Chess960",
                ["true", "false", "maybe"][rng.gen_range(0..3)].to_string(),
            ),
            8 => ("UCI_LimitStrength", ["true", "false"][rng.gen_range(0..2)].to_string()),
            9 => ("UCI_Elo", number(rng, 600..2801)),
            10 => ("UCI_ShowWDL", ["true", "false", ""][rng.gen_range(0..3)].to_string()),
            11 => ("Ponder", ["true", "false"][rng.gen_range(0..2)].to_string()),
            12 => ("UCI_AnalyseMode", ["true", "FALSE"][rng.gen_range(0..2)].to_string()),
            13 => ("Clear Hash", String::new()),
            14 => ("No Such Option", number(rng, 0..3)),
            _ => ("", String::new()),
        };
        let mut line = any_case(rng, "setoption");
        if rng.gen_bool(0.95) {
            line.push_str(" name");
        }
        if !name.is_empty() {
            line.push(' ');
            line.push_str(&any_case(rng, name));
        }
        if !value.is_empty() || rng.gen_bool(0.1) {
            line.push_str(" value ");
            line.push_str(&value);
        }
        line
    }
}

/// Random bytes: invalid UTF-8, NUL and control characters, words of the alphabet.
fn garbage(rng: &mut StdRng) -> Vec<u8> {
    const PIECES: [&[u8]; 10] = [
        b"\0",
        b"\xff\xfe",
        b"\xc3\x28",
        b"\xed\xa0\x80",
        b"\xf0\x28\x8c\xbc",
        b"\x1b[2J",
        b"\t",
        b"\r",
        b"\xc2\xa0",
        b"\x7f",
    ];
    let mut out = Vec::new();
    for _ in 0..rng.gen_range(0..12) {
        match rng.gen_range(0..3) {
            0 => out.extend_from_slice(PIECES[rng.gen_range(0..PIECES.len())]),
            1 => out.push(rng.gen()),
            _ => out.push(ALPHABET[rng.gen_range(0..ALPHABET.len())]),
        }
    }
    out
}

/// A random command stream (lines already sanitized).
pub fn uci_stream(rng: &mut StdRng) -> Vec<Step> {
    let mut gen = Gen {
        model: Model::default(),
    };
    let mut steps = Vec::new();
    for _ in 0..rng.gen_range(3..30) {
        let roll = rng.gen_range(0..1000);
        let line: Vec<u8> = match roll {
            0..=199 => gen.position(rng).into_bytes(),
            200..=399 => gen.go(rng).into_bytes(),
            400..=479 => any_case(rng, "stop").into_bytes(),
            480..=559 => any_case(rng, "isready").into_bytes(),
            560..=599 => any_case(rng, "ucinewgame").into_bytes(),
            600..=699 => gen.setoption(rng).into_bytes(),
            700..=739 => {
                const OTHER: [&str; 18] = [
                    "flip",
                    "perft 2",
                    "perft 3",
                    "perft 1 4k3/8/8/8/8/8/8/4K2R w K - 0 1",
                    "bench 1",
                    "uci",
                    "debug on",
                    "debug off",
                    "ponderhit",
                    "register later",
                    "d",
                    "fen",
                    "fen wide",
                    "moves",
                    "eval",
                    "result",
                    "help",
                    "debug maybe",
                ];
                OTHER[rng.gen_range(0..OTHER.len())].as_bytes().to_vec()
            }
            740..=779 => [&b""[..], b"   ", b"\t \t", b"\r", b" go"][rng.gen_range(0..5)].to_vec(),
            780..=869 => garbage(rng),
            870..=984 => {
                let base = match rng.gen_range(0..3) {
                    0 => gen.position(rng),
                    1 => gen.go(rng),
                    _ => gen.setoption(rng),
                };
                mutate(rng, &base)
            }
            985..=989 => {
                // Just over or just under the 1 MiB line limit.
                let mut line = b"position startpos moves e2e4 ".to_vec();
                let size = (1 << 20) + rng.gen_range(0..3) - 1;
                line.resize(size - 4, b' ');
                line.extend_from_slice(b"e7e5");
                line
            }
            _ => any_case(rng, "quit").into_bytes(),
        };
        for line in sanitize(&line) {
            gen.model.feed(&line);
            steps.push(Step::Line(line));
        }
        if gen.model.quit {
            return steps;
        }
        if rng.gen_bool(0.3) {
            steps.push(Step::Pause(rng.gen_range(0..40)));
        }
    }
    steps
}

/// The words of a line as the engine splits them (invalid UTF-8 replaced, any whitespace).
pub fn words_of(line: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(line)
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

/// Splits `bytes` into lines and rewrites the unsafe ones (see the module documentation);
/// every other line is kept byte for byte.
pub fn sanitize(bytes: &[u8]) -> Vec<Vec<u8>> {
    bytes.split(|&b| b == b'\n').map(sanitize_line).collect()
}

/// One line of [`sanitize`].
fn sanitize_line(line: &[u8]) -> Vec<u8> {
    let words = words_of(line);
    let first = words.first().map(|w| w.to_ascii_lowercase()).unwrap_or_default();
    let text = String::from_utf8_lossy(line);
    match first.as_str() {
        // Short perft and bench runs only (they block the input loop while they run).
        "perft" if small(&words, 3) && !words.iter().any(|w| w.to_ascii_lowercase().contains("threads")) => {
            line.to_vec()
        }
        "bench" if small(&words, 2) && words.len() == 2 => line.to_vec(),
        "xboard" | "perft" | "bench" => format!("x{}", text.trim_start()).into_bytes(),
        "go" if words.iter().any(|w| w.eq_ignore_ascii_case("perft")) => words
            .iter()
            .map(|w| if w.eq_ignore_ascii_case("perft") { "pxrft" } else { w })
            .collect::<Vec<_>>()
            .join(" ")
            .into_bytes(),
        "setoption" => match option_of(&words) {
            Some((name, _)) if name.to_ascii_lowercase().contains("log") => {
                format!("x{}", text.trim_start()).into_bytes()
            }
            Some((name, Some(value))) => {
                let cap = match name.to_ascii_lowercase().as_str() {
                    "threads" => MAX_THREADS,
                    "hash" => MAX_HASH,
                    _ => return line.to_vec(),
                };
                match value.parse::<i64>() {
                    Ok(n) if n > cap && n <= 65_536 => format!("setoption name {name} value {cap}").into_bytes(),
                    _ => line.to_vec(),
                }
            }
            _ => line.to_vec(),
        },
        _ => line.to_vec(),
    }
}

/// True when the second word is a number of at most `max` (digits only).
fn small(words: &[String], max: u32) -> bool {
    words.get(1).is_some_and(|w| {
        w.len() <= 2 && w.bytes().all(|b| b.is_ascii_digit()) && w.parse::<u32>().is_ok_and(|n| n <= max)
    })
}

/// The option name and value of `setoption` words as the engine reads them: `name` (exact
/// case) after `setoption`, the name up to the first `value` (any case), the value after it.
pub fn option_of(words: &[String]) -> Option<(String, Option<String>)> {
    if words.get(1).map(String::as_str) != Some("name") {
        return None;
    }
    let rest = &words[2..];
    match rest.iter().position(|w| w.eq_ignore_ascii_case("value")) {
        Some(i) => Some((rest[..i].join(" "), Some(rest[i + 1..].join(" ")))),
        None => Some((rest.join(" "), None)),
    }
}

/// The words of a `go` line that matter to the checks, read as the engine reads them (a
/// valued parameter swallows the next word, `searchmoves` the words up to a keyword, a
/// valued parameter without a value ends the line).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoWords {
    /// `infinite` was given.
    pub infinite: bool,
    /// `ponder` was given.
    pub ponder: bool,
    /// The words after `searchmoves`.
    pub search_moves: Vec<String>,
}

/// Reads the words of a `go` line (see [`GoWords`]).
pub fn go_words(words: &[String]) -> GoWords {
    let mut go = GoWords::default();
    let mut i = 1;
    while i < words.len() {
        let key = words[i].to_ascii_lowercase();
        i += 1;
        match key.as_str() {
            "infinite" => go.infinite = true,
            "ponder" => go.ponder = true,
            "searchmoves" => {
                while i < words.len() && !GO_KEYWORDS.contains(&words[i].to_ascii_lowercase().as_str()) {
                    go.search_moves.push(words[i].clone());
                    i += 1;
                }
            }
            k if GO_KEYWORDS.contains(&k) => {
                if i >= words.len() {
                    break;
                }
                i += 1;
            }
            _ => {}
        }
    }
    go
}

/// What the model expects of one `go`.
#[derive(Clone, Debug)]
pub struct GoRecord {
    /// The game searched, or None where the model cannot tell (after a rule change that
    /// replays the game).
    pub game: Option<Game>,
    /// `go infinite`: no `bestmove` before a stopping command.
    pub infinite: bool,
    /// `go ponder`: no `bestmove` before a stopping command or `ponderhit`.
    pub ponder: bool,
    /// Index (in the sent lines) of the line that ends the wait, when one was sent.
    pub released_by: Option<usize>,
    /// The legal moves of `searchmoves` (the best move must be one of them, if any).
    pub search_moves: Vec<Move>,
}

/// The engine as the stream should leave it.
pub struct Model {
    rules: Rules,
    game: Option<Game>,
    /// Every `go`, in order.
    pub gos: Vec<GoRecord>,
    /// `readyok` lines expected.
    pub isready: usize,
    /// `quit` was sent: the engine must have exited.
    pub quit: bool,
    /// Lines seen so far.
    pub lines: usize,
}

impl Default for Model {
    fn default() -> Self {
        Model {
            rules: Rules::default(),
            game: Some(Game::new(Position::startpos())),
            gos: Vec::new(),
            isready: 0,
            quit: false,
            lines: 0,
        }
    }
}

impl Model {
    /// Takes in one line the engine reads.
    pub fn feed(&mut self, line: &[u8]) {
        let index = self.lines;
        self.lines += 1;
        if line.len() > MAX_LINE {
            return; // dropped whole by the engine, with one error line
        }
        let words = words_of(line);
        let first = words.first().map(|w| w.to_ascii_lowercase()).unwrap_or_default();
        let stops = matches!(
            first.as_str(),
            "stop" | "position" | "ucinewgame" | "setoption" | "go" | "quit" | "perft" | "bench" | "flip" | "xboard"
        );
        for go in self.gos.iter_mut().filter(|g| g.released_by.is_none()) {
            if stops || (first == "ponderhit" && go.ponder && !go.infinite) {
                go.released_by = Some(index);
            }
        }
        match first.as_str() {
            "isready" => self.isready += 1,
            "quit" => self.quit = true,
            "ucinewgame" => self.game = Some(Game::new(Position::start(self.rules))),
            // The mirrored position is not tracked.
            "flip" => self.game = None,
            "position" => self.position(&words[1..]),
            "setoption" => self.setoption(&words),
            "go" => {
                let go = go_words(&words);
                let mut search_moves = Vec::new();
                if let Some(game) = &self.game {
                    for text in &go.search_moves {
                        match game.position().parse_move(text) {
                            Ok(mv) if game.position().is_legal(mv) && !search_moves.contains(&mv) => {
                                search_moves.push(mv)
                            }
                            _ => {}
                        }
                    }
                }
                self.gos.push(GoRecord {
                    game: self.game.clone(),
                    infinite: go.infinite,
                    ponder: go.ponder,
                    released_by: None,
                    search_moves,
                });
            }
            _ => {}
        }
    }

    /// `position`: a bad FEN or keyword keeps the previous game; a bad move keeps the game up
    /// to the move before it (docs/protocol.md).
    fn position(&mut self, words: &[String]) {
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        let (start, rest) = match words.as_slice() {
            ["startpos", rest @ ..] => (Position::start(self.rules), rest),
            ["fen", rest @ ..] => {
                let end = rest.iter().position(|w| *w == "moves").unwrap_or(rest.len());
                match Position::from_fen(&rest[..end].join(" "), self.rules) {
                    Ok(pos) => (pos, &rest[end..]),
                    Err(_) => return,
                }
            }
            _ => return,
        };
        let moves = match rest {
            ["moves", moves @ ..] => moves,
            [] => &[],
            _ => return,
        };
        let mut game = Game::new(start);
        for text in moves {
            match game.position().parse_move(text) {
                Ok(mv) if game.play(mv) => {}
                _ => break,
            }
        }
        self.game = Some(game);
    }

    /// The options that change the rules: `UCI_Variant` resets the game to the variant's
    /// start; `AliceEnPassant` and `UCI_Chess960` replay it (the model stops tracking it).
    fn setoption(&mut self, words: &[String]) {
        let Some((name, Some(value))) = option_of(words) else {
            return;
        };
        if name.eq_ignore_ascii_case("UCI_Variant") {
            if let Some(v) = Variant::ALL.iter().find(|v| v.name().eq_ignore_ascii_case(&value)) {
                self.rules = Rules::for_variant(*v)
                    .with_ep(self.rules.en_passant)
                    .with_chess960(self.rules.chess960);
                self.game = Some(Game::new(Position::start(self.rules)));
            }
        } else if name.eq_ignore_ascii_case("AliceEnPassant") {
            if let Some(m) = EnPassant::ALL.iter().find(|m| m.name().eq_ignore_ascii_case(&value)) {
                self.rules = self.rules.with_ep(*m);
                self.game = None;
            }
        } else if name.eq_ignore_ascii_case("UCI_Chess960") {
            let on = match value.to_ascii_lowercase().as_str() {
                "true" => true,
                "false" => false,
                _ => return,
            };
            self.rules = self.rules.with_chess960(on);
            self.game = None;
        }
    }
}
