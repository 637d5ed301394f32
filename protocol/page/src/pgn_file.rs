//! Whole PGN files for the page: the games of a file (split where a tag follows movetext), a
//! label per game for the picker, the size limit, the `[%clk]` and `[%eval]` commands of a
//! comment, and the comments the page itself writes at the end of a game (`{Checkmate: White
//! wins}`), which are not read back as comments.

use vorpal_client::pgn_text::{is_result, move_text, tokenize, PgnToken};

/// The largest PGN text the page reads: 8 MiB, room for a file of several thousand games.
pub const PGN_FILE_LIMIT: usize = 8 << 20;

/// The refusal of a text over [`PGN_FILE_LIMIT`].
pub fn too_large(bytes: usize) -> Option<String> {
    (bytes > PGN_FILE_LIMIT).then(|| {
        format!(
            "the PGN file has {:.1} MiB; the page reads files of up to {} MiB (several thousand games)",
            bytes as f64 / (1 << 20) as f64,
            PGN_FILE_LIMIT >> 20
        )
    })
}

/// The games of `text`, each its own slice in file order: a tag line after movetext starts the
/// next game (tag-like text inside a `{}` comment or after `;` does not). A text with no game
/// gives one empty-ish slice (the whole text), so that the reader can say what is wrong.
pub fn split_games(text: &str) -> Vec<&str> {
    let mut starts = vec![0];
    let (mut in_brace, mut moves_seen, mut at) = (false, false, 0);
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start_matches(['\u{feff}', ' ', '\t', '\r']);
        if !in_brace && trimmed.starts_with('[') && moves_seen {
            starts.push(at);
            moves_seen = false;
        }
        if !in_brace && trimmed.starts_with('%') {
            at += line.len();
            continue;
        }
        // A tag line is tags only (its values may hold brackets and braces).
        if !in_brace && trimmed.starts_with('[') {
            at += line.len();
            continue;
        }
        for c in trimmed.chars() {
            match c {
                '{' if !in_brace => in_brace = true,
                '}' if in_brace => in_brace = false,
                ';' if !in_brace => break,
                c if !in_brace && !c.is_whitespace() => moves_seen = true,
                _ => {}
            }
        }
        at += line.len();
    }
    starts.push(text.len());
    starts
        .windows(2)
        .map(|w| &text[w[0]..w[1]])
        .filter(|g| !g.trim().is_empty())
        .collect()
}

/// The picker's label of game `number` (from 1): `3. Carroll – Tenniel, 1-0, 41 moves`.
pub fn game_label(number: usize, game: &str) -> String {
    let toks = tokenize(game);
    let tag = |name: &str| {
        toks.iter().find_map(|t| match t {
            PgnToken::Tag(k, v) if k == name && !v.is_empty() => Some(v.clone()),
            _ => None,
        })
    };
    let (mut depth, mut plies) = (0usize, 0usize);
    for t in &toks {
        match t {
            PgnToken::Open => depth += 1,
            PgnToken::Close => depth = depth.saturating_sub(1),
            PgnToken::Word(w) if depth == 0 && !w.starts_with('$') && !is_result(w) && move_text(w).is_some() => {
                plies += 1
            }
            _ => {}
        }
    }
    let result = tag("Result").unwrap_or_else(|| "*".into());
    let moves = plies.div_ceil(2);
    let unit = if moves == 1 { "move" } else { "moves" };
    format!(
        "{number}. {} – {}, {result}, {moves} {unit}",
        tag("White").unwrap_or_else(|| "?".into()),
        tag("Black").unwrap_or_else(|| "?".into())
    )
}

/// A comment's `[%clk]` and `[%eval]` commands taken out: the rest of the text (trimmed), the
/// clock and the evaluation as written. Other commands (`[%csl]`, `[%cal]`) stay in the text.
pub fn take_commands(comment: &str) -> (String, Option<String>, Option<String>) {
    let (mut rest, mut clk, mut eval) = (String::new(), None, None);
    let mut text = comment;
    while let Some(open) = text.find("[%") {
        let Some(close) = text[open..].find(']').map(|c| open + c) else {
            break;
        };
        let inner = text[open + 2..close].trim();
        let (name, value) = inner.split_once(char::is_whitespace).unwrap_or((inner, ""));
        let value = value.trim().to_string();
        let slot = match name {
            "clk" if clock_seconds(&value).is_some() => &mut clk,
            "eval" if eval_cp(&value).is_some() => &mut eval,
            _ => {
                rest.push_str(&text[..=close]);
                text = &text[close + 1..];
                continue;
            }
        };
        *slot = Some(value);
        rest.push_str(&text[..open]);
        text = &text[close + 1..];
    }
    rest.push_str(text);
    let rest = rest.split_whitespace().collect::<Vec<_>>().join(" ");
    (rest, clk, eval)
}

/// The seconds of a `[%clk]` value (`h:mm:ss`, `m:ss`, with an optional fraction).
pub fn clock_seconds(value: &str) -> Option<f64> {
    let parts: Vec<&str> = value.split(':').collect();
    if parts.is_empty() || parts.len() > 3 {
        return None;
    }
    let mut total = 0.0;
    for (i, p) in parts.iter().enumerate() {
        let last = i + 1 == parts.len();
        let ok = !p.is_empty() && p.chars().all(|c| c.is_ascii_digit() || (last && c == '.'));
        if !ok || p.len() > 12 {
            return None;
        }
        total = total * 60.0 + p.parse::<f64>().ok()?;
    }
    Some(total)
}

/// A clock value as the page shows it: `h:mm:ss` from an hour on, `m:ss` below, tenths under
/// ten seconds (`0:09.3`).
pub fn clock_text(value: &str) -> Option<String> {
    let secs = clock_seconds(value)?;
    let whole = secs.floor() as u64;
    let (h, m, s) = (whole / 3600, whole / 60 % 60, whole % 60);
    Some(if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else if secs < 10.0 && secs.fract() > 0.0 {
        format!("{m}:{s:02}.{}", ((secs.fract() * 10.0).floor() as u64).min(9))
    } else {
        format!("{m}:{s:02}")
    })
}

/// An `[%eval]` value in centipawns from White's side: `0.31` is 31, `#3` (White mates in 3)
/// is 10000 - 3, `#-2` is -(10000 - 2).
pub fn eval_cp(value: &str) -> Option<i32> {
    if let Some(mate) = value.strip_prefix('#') {
        let n: i32 = mate.parse().ok()?;
        return (n != 0 && n.abs() < 1000).then(|| n.signum() * (10000 - n.abs()));
    }
    let pawns: f64 = value.parse().ok()?;
    (pawns.is_finite() && pawns.abs() < 1000.0).then(|| (pawns * 100.0).round() as i32)
}

/// True for the comments the page writes after the last move of a finished game (the reason
/// it ended), which a re-import drops instead of keeping as the player's comment.
pub fn is_generated_ending(comment: &str) -> bool {
    let side = |s: &str| s == "White" || s == "Black";
    if let Some(who) = comment
        .strip_prefix("Checkmate: ")
        .and_then(|r| r.strip_suffix(" wins"))
    {
        return side(who);
    }
    for suffix in [" resigns", " loses on time", " mates"] {
        if comment.strip_suffix(suffix).is_some_and(side) {
            return true;
        }
    }
    comment == "Game aborted"
        || comment
            .strip_prefix("Draw by ")
            .is_some_and(|r| ["stalemate", "fifty-move rule", "threefold repetition", "bare kings"].contains(&r))
        || (comment.starts_with("Draw agreed (") && comment.ends_with(" accepted)"))
        || comment.ends_with(" lost on time, but the opponent has a bare king: draw")
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO: &str = include_str!("../../../../shared/data/pgn/engine-games.pgn");
    const BOM_CRLF: &str = include_str!("../../../../shared/data/pgn/bom-crlf.pgn");
    const BRACKETS: &str = include_str!("../../../../shared/data/pgn/tags-with-brackets.pgn");

    #[test]
    fn a_file_splits_into_its_games_and_comments_do_not_split() {
        let text = "[White \"A\"]\n\n1. e4 {a [White \"x\"]\n[Black \"y\"] note} e5 1-0\n\n[White \"B\"]\n[Black \"C\"]\n[Result \"0-1\"]\n\n1. d4 d5 2. c4 0-1\n";
        let games = split_games(text);
        assert_eq!(games.len(), 2, "{games:?}");
        assert!(games[1].starts_with("[White \"B\"]"));
        assert_eq!(game_label(2, games[1]), "2. B – C, 0-1, 2 moves");
        assert_eq!(game_label(1, games[0]), "1. A – ?, *, 1 move");
        assert_eq!(split_games(TWO).len(), 2);
        assert_eq!(split_games(BOM_CRLF).len(), 2);
        assert_eq!(split_games(BRACKETS).len(), 1);
        assert!(
            game_label(1, BRACKETS).starts_with("1. Player [A] – Player {B}, 1-0, 3 moves"),
            "{}",
            game_label(1, BRACKETS)
        );
    }

    #[test]
    fn clock_and_eval_commands_are_taken_out() {
        let (rest, clk, eval) = take_commands("[%eval 0.31] [%clk 0:03:12] good [%cal Ge2e4]");
        assert_eq!(
            (rest.as_str(), clk.as_deref(), eval.as_deref()),
            ("good [%cal Ge2e4]", Some("0:03:12"), Some("0.31"))
        );
        assert_eq!(clock_text("0:03:12").as_deref(), Some("3:12"));
        assert_eq!(clock_text("1:03:12").as_deref(), Some("1:03:12"));
        assert_eq!(clock_text("0:00:09.35").as_deref(), Some("0:09.3"));
        assert_eq!(clock_text("x:1"), None);
        assert_eq!(eval_cp("#-2"), Some(-9998));
        assert_eq!(eval_cp("-1.5"), Some(-150));
        assert_eq!(eval_cp("NaN"), None);
        // A malformed command stays text.
        assert_eq!(take_commands("[%clk soon] x").0, "[%clk soon] x");
    }

    #[test]
    fn the_page_s_own_ending_comments_are_recognised() {
        for c in [
            "Checkmate: White wins",
            "Draw by stalemate",
            "Black resigns",
            "Game aborted",
            "White loses on time",
        ] {
            assert!(is_generated_ending(c), "{c}");
        }
        for c in [
            "Checkmate: nobody wins",
            "a fine game",
            "White resigns too early?",
            "Draw by a hair",
        ] {
            assert!(!is_generated_ending(c), "{c}");
        }
    }

    #[test]
    fn the_size_limit_is_named() {
        assert!(too_large(PGN_FILE_LIMIT).is_none());
        assert_eq!(
            too_large(9 << 20).unwrap(),
            "the PGN file has 9.0 MiB; the page reads files of up to 8 MiB (several thousand games)"
        );
    }
}
