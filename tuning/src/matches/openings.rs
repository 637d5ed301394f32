//! Opening books: reading them (FEN or EPD lines in any FEN form the rules core parses, move
//! lists, or PGN games), ordering them by seed, and generating random balanced openings.
//!
//! Generation plays `plies` uniformly random legal moves from the variant's start position, searches the
//! result with the engine's own [`Searcher`] for a fixed number of nodes, keeps it when the score
//! lies inside the window, and drops positions already seen (board-aware: the engine's key plus
//! a full comparison, as for repetitions). Candidate `i` depends only on the seed and `i`, and
//! candidates are accepted in index order, so the output is the same for any thread count.

use rayon::prelude::*;
use std::collections::HashMap;
use std::path::Path;
use vorpal_client::pgn::{parse_pgn, PgnGame, PgnMove};
use vorpal_client::variant_tag::{en_passant_tag, variant_tag};
use vorpal_engine::game::{same_position, Game};
use vorpal_engine::search::{Limits, Score, SearchControl, SearchOptions, Searcher};
use vorpal_engine::{Move, Position, Rules};

/// A small, fixed pseudo-random generator (SplitMix64) so seeded results never depend on a
/// library version.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }

    /// Shuffles `items` (Fisher-Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// One opening: a start position and the moves played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Start position.
    pub start: Position,
    /// Book moves from the start.
    pub moves: Vec<Move>,
}

impl Opening {
    /// The position after the book moves.
    pub fn position(&self) -> Position {
        self.moves.iter().fold(self.start, |p, &m| p.after(m))
    }

    /// The opening as a game (its positions count for repetitions).
    pub fn game(&self) -> Game {
        let mut g = Game::new(self.start);
        for &m in &self.moves {
            g.play(m);
        }
        g
    }
}

/// Tries `line` as a FEN or EPD record: the text before any `;`, then ever shorter prefixes of
/// its fields (EPD operations follow the four FEN fields).
pub fn parse_fen_line(line: &str, rules: Rules) -> Option<Position> {
    let body = line.split(';').next().unwrap_or("").trim();
    let tokens: Vec<&str> = body.split_whitespace().collect();
    (2..=tokens.len())
        .rev()
        .find_map(|n| Position::from_fen(&tokens[..n].join(" "), rules).ok())
}

/// Reads an opening file: PGN (when a line starts with `[`), otherwise one opening per line,
/// each a FEN/EPD record or a move list from the start position (`1. e4 d5 2. Be2` or
/// `e2e4 d7d5`). Empty lines and lines starting with `#` are skipped. Openings whose final
/// position is already decided are rejected.
pub fn read_openings(path: &Path, rules: Rules) -> Result<Vec<Opening>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    parse_openings(&text, rules).map_err(|e| format!("{}: {e}", path.display()))
}

/// See [`read_openings`].
pub fn parse_openings(text: &str, rules: Rules) -> Result<Vec<Opening>, String> {
    let mut out = Vec::new();
    if text.lines().any(|l| l.trim_start().starts_with('[')) {
        for (i, g) in parse_pgn(text).iter().enumerate() {
            let (start, moves) = g.replay(rules).map_err(|e| format!("game {}: {e}", i + 1))?;
            out.push(Opening { start, moves });
        }
    } else {
        for (no, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let opening = match parse_fen_line(line, rules) {
                Some(start) => Opening {
                    start,
                    moves: Vec::new(),
                },
                None => {
                    let games = parse_pgn(line);
                    let g = games.first().ok_or_else(|| format!("line {}: empty", no + 1))?;
                    let (start, moves) = g
                        .replay(rules)
                        .map_err(|e| format!("line {}: neither a FEN nor a move list: {e}", no + 1))?;
                    Opening { start, moves }
                }
            };
            out.push(opening);
        }
    }
    for (i, o) in out.iter().enumerate() {
        if let Some((_, reason)) = o.game().outcome() {
            return Err(format!("opening {} is already over ({})", i + 1, reason.text()));
        }
    }
    if out.is_empty() {
        return Err("no openings found".into());
    }
    Ok(out)
}

/// The order in which openings are used: as in the file, or shuffled by `seed`.
pub fn opening_order(count: usize, shuffle_seed: Option<u64>) -> Vec<usize> {
    let mut order: Vec<usize> = (0..count).collect();
    if let Some(seed) = shuffle_seed {
        SplitMix64::new(seed ^ 0x6F70_656E_696E_6773).shuffle(&mut order);
    }
    order
}

/// Settings of opening generation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenerateSettings {
    /// Openings wanted.
    pub count: usize,
    /// Random plies from the start position.
    pub plies: usize,
    /// Seed.
    pub seed: u64,
    /// Nodes of the filtering search.
    pub nodes: u64,
    /// Keep positions whose score (side to move's view) is within ±`window` centipawns.
    pub window: i32,
    /// Give up after this many candidates.
    pub max_candidates: usize,
    /// The rules (variant, en passant, Chess960) the openings are generated under; with
    /// Chess960 each candidate starts from a random one of the 960 arrays.
    pub rules: Rules,
}

/// The Chess960 start position number `n` (0-959) of `rules`' variant.
pub fn chess960_start(rules: Rules, n: u32) -> Option<Position> {
    let fen = rules.variant.chess960_fen(n)?;
    Position::from_fen(&fen, rules).ok()
}

/// The default openings of a match without a book: the variant's start position, or under
/// Chess960 every one of the 960 start arrays.
pub fn default_openings(rules: Rules) -> Vec<Opening> {
    let starts: Vec<Position> = if rules.is_chess960() {
        (0..960).filter_map(|n| chess960_start(rules, n)).collect()
    } else {
        vec![Position::start(rules)]
    };
    starts
        .into_iter()
        .map(|start| Opening {
            start,
            moves: Vec::new(),
        })
        .collect()
}

/// Random candidate `index`: `plies` random legal moves; `None` when the game ended early.
fn candidate(settings: &GenerateSettings, index: u64) -> Option<Opening> {
    let mut rng = SplitMix64::new(settings.seed.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ index);
    let start = if settings.rules.is_chess960() {
        chess960_start(settings.rules, rng.below(960) as u32)?
    } else {
        Position::start(settings.rules)
    };
    let mut game = Game::new(start);
    for _ in 0..settings.plies {
        let legal = game.position().legal_moves();
        if legal.is_empty() {
            return None;
        }
        game.play(legal[rng.below(legal.len())]);
        if game.outcome().is_some() {
            return None;
        }
    }
    Some(Opening {
        start,
        moves: game.moves().to_vec(),
    })
}

/// Search score of the opening's final position, side to move's view.
fn score(searcher: &mut Searcher, opening: &Opening, nodes: u64) -> Score {
    searcher.clear();
    searcher
        .search(
            &opening.game(),
            &Limits::nodes(nodes),
            &SearchControl::new(),
            &mut |_| {},
        )
        .score
}

/// Generates openings; see the module documentation.
pub fn generate(settings: &GenerateSettings) -> Result<Vec<Opening>, String> {
    let mut seen: HashMap<u64, Vec<Position>> = HashMap::new();
    let mut out = Vec::new();
    let batch = 256u64;
    let mut next = 0u64;
    while out.len() < settings.count {
        if next as usize >= settings.max_candidates {
            return Err(format!(
                "only {} of {} openings found in {} candidates (widen --window or change --plies)",
                out.len(),
                settings.count,
                next
            ));
        }
        let results: Vec<Option<Opening>> = (next..next + batch)
            .into_par_iter()
            .map_init(
                || {
                    Searcher::new(SearchOptions {
                        hash_mb: 1,
                        ..SearchOptions::default()
                    })
                },
                |searcher, i| {
                    let o = candidate(settings, i)?;
                    match score(searcher, &o, settings.nodes) {
                        Score::Cp(cp) if cp.abs() <= settings.window => Some(o),
                        _ => None,
                    }
                },
            )
            .collect();
        next += batch;
        for o in results.into_iter().flatten() {
            let pos = o.position();
            let bucket = seen.entry(pos.key()).or_default();
            if bucket.iter().any(|p| same_position(p, &pos)) {
                continue;
            }
            bucket.push(pos);
            out.push(o);
            if out.len() == settings.count {
                break;
            }
        }
    }
    Ok(out)
}

/// Writes openings as FEN lines (the final positions, pipe form) or as PGN move lists.
pub fn format_openings(openings: &[Opening], pgn: bool) -> String {
    let mut text = String::new();
    for o in openings {
        if !pgn {
            text += &o.position().to_fen();
            text.push('\n');
            continue;
        }
        let mut g = PgnGame::default();
        let rules = o.start.rules();
        g.set_tag("Variant", variant_tag(rules));
        if let Some(mode) = en_passant_tag(rules) {
            g.set_tag("AliceEnPassant", mode);
        }
        if o.start != Position::start(rules) {
            g.set_tag("SetUp", "1");
            g.set_tag("FEN", o.start.to_fen());
        }
        let mut pos = o.start;
        for &m in &o.moves {
            g.moves.push(PgnMove {
                san: pos.move_to_san(m),
                comment: None,
            });
            pos = pos.after(m);
        }
        g.result = Some("*".into());
        text += &g.to_text();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_all_line_forms() {
        let text = "# comment\n\
            rnbqk1nr/pppp1|Npp/4|p3/2|b5/8/8/PPPPPPPP/RNBQKB1R b KQkq - 0 3\n\
            rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4; id \"start\";\n\
            rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 8/8/8/8/8/8/8/8 w - - 0 1\n\
            1. e4 d5 2. Be2\n\
            e2e4 d7d5\n";
        let o = parse_openings(text, Rules::default()).unwrap();
        assert_eq!(o.len(), 5);
        assert_eq!(o[1].start, Position::startpos());
        assert_eq!(o[2].start, Position::startpos());
        assert_eq!(o[3].moves.len(), 3);
        assert_eq!(o[4].moves.len(), 2);
        // A decided opening is rejected.
        assert!(parse_openings("1. e4 d5 2. Be2 dxe4 3. Bb5", Rules::default()).is_err());
        assert!(parse_openings("nonsense here", Rules::default()).is_err());
    }

    #[test]
    fn order_is_a_seeded_permutation() {
        assert_eq!(opening_order(5, None), vec![0, 1, 2, 3, 4]);
        let a = opening_order(50, Some(7));
        assert_eq!(a, opening_order(50, Some(7)));
        assert_ne!(a, opening_order(50, Some(8)));
        let mut s = a.clone();
        s.sort();
        assert_eq!(s, (0..50).collect::<Vec<_>>());
    }

    #[test]
    fn generation_is_deterministic_and_unique() {
        let settings = GenerateSettings {
            count: 12,
            plies: 4,
            seed: 1,
            nodes: 300,
            window: 300,
            max_candidates: 10_000,
            rules: Rules::default(),
        };
        let a = generate(&settings).unwrap();
        assert_eq!(a.len(), 12);
        assert_eq!(a, generate(&settings).unwrap());
        let text = format_openings(&a, false);
        let back = parse_openings(&text, Rules::default()).unwrap();
        for (x, y) in a.iter().zip(&back) {
            assert!(same_position(&x.position(), &y.position()));
        }
        let pgn = parse_openings(&format_openings(&a, true), Rules::default()).unwrap();
        assert_eq!(pgn, a);
    }
}
