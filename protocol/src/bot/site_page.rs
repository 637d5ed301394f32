//! The site's own record of a game, read from its public game page (`GET /{gameId}`, no
//! login): the page carries the game's status code, its result and the whole move list (in
//! the `data-status`, `data-result` and `data-board` attributes the browser starts from). The
//! BOT stream's `gameEnd` says nothing of the result and leaves out a move that ends the game,
//! so this page is what the PGN's result and moves come from, and what the bot asks whenever
//! its stream is lost or quiet ("is the game still running?").

use serde_json::Value;

/// The site's status codes (`GameStatus` of pychess-variants): below 0 the game runs.
pub const STARTED: i32 = -1;
/// Aborted (before both sides moved, or by a BOT).
pub const ABORTED: i32 = 0;

/// A game as the site's page shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SiteGame {
    /// The status code (-2 created, -1 started, 0 aborted, 1 mate, ...).
    pub status: i32,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    /// Every move the site accepted, UCI texts.
    pub moves: Vec<String>,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The start position (`""`: the usual one).
    pub initial_fen: String,
}

impl SiteGame {
    /// True once the site has ended the game.
    pub fn ended(&self) -> bool {
        self.status > STARTED
    }

    /// The PGN result (`*` for an aborted game or an unknown text).
    pub fn pgn_result(&self) -> &'static str {
        match self.result.as_str() {
            "1-0" => "1-0",
            "0-1" => "0-1",
            "1/2-1/2" => "1/2-1/2",
            _ => "*",
        }
    }

    /// Why the game ended, in words, as the site says (for the log and the PGN).
    pub fn termination(&self) -> String {
        let winner = match self.pgn_result() {
            "1-0" => Some("White"),
            "0-1" => Some("Black"),
            _ => None,
        };
        let loser = match winner {
            Some("White") => "Black",
            Some(_) => "White",
            None => "",
        };
        let how = match self.status {
            ABORTED => return "the site: aborted".into(),
            1 => "checkmate".to_string(),
            2 => format!("{loser} resigned"),
            3 => "stalemate".to_string(),
            4 => format!("{loser} left the game (time out)"),
            5 => "a draw".to_string(),
            6 if winner.is_some() => format!("{loser} ran out of time"),
            6 => "time ran out with mating material missing: a draw".to_string(),
            7 => format!("{loser} abandoned the game"),
            8 => "cheat detected".to_string(),
            10 => format!("{loser} played an invalid move"),
            12 => "the variant's own end".to_string(),
            13 => "a draw claimed (repetition or the 50-move rule)".to_string(),
            code => format!("status {code}"),
        };
        format!("the site: {how}")
    }
}

/// Reads the site's game page; `None` when it is not a game page.
pub fn parse_page(html: &str) -> Option<SiteGame> {
    let status = attribute(html, "data-status")?.trim().parse().ok()?;
    let result = attribute(html, "data-result").unwrap_or_default();
    let board: Value = serde_json::from_str(&attribute(html, "data-board")?).ok()?;
    let moves = board
        .get("steps")?
        .as_array()?
        .iter()
        .filter_map(|step| step.get("move").and_then(Value::as_str))
        .filter(|mv| !mv.is_empty())
        .map(String::from)
        .collect();
    Some(SiteGame {
        status,
        result,
        moves,
        white: attribute(html, "data-wplayer").unwrap_or_default(),
        black: attribute(html, "data-bplayer").unwrap_or_default(),
        // A game read back from the site's database has no start position: the template then
        // writes Python's `None` (the usual start).
        initial_fen: attribute(html, "data-initialfen")
            .filter(|fen| fen != "None")
            .unwrap_or_default(),
    })
}

/// The value of the first `name="..."` in `html`, its entities decoded.
fn attribute(html: &str, name: &str) -> Option<String> {
    let key = format!("{name}=\"");
    let start = html.find(&key)? + key.len();
    let len = html[start..].find('"')?;
    Some(unescape(&html[start..start + len]))
}

/// Decodes the entities Jinja's escaping writes (and numeric ones).
fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        rest = &rest[amp..];
        let Some(semi) = rest.find(';').filter(|&i| i <= 10) else {
            out.push('&');
            rest = &rest[1..];
            continue;
        };
        let entity = &rest[1..semi];
        let decoded = match entity {
            "quot" => Some('"'),
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "apos" => Some('\''),
            _ => entity
                .strip_prefix("#x")
                .and_then(|h| u32::from_str_radix(h, 16).ok())
                .or_else(|| entity.strip_prefix('#').and_then(|d| d.parse().ok()))
                .and_then(char::from_u32),
        };
        match decoded {
            Some(c) => {
                out.push(c);
                rest = &rest[semi + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The attributes of a finished game's page as the site writes them (Jinja escaping).
    const PAGE: &str = r#"<main id="main-wrap" data-gameid="iqSgPqOc" data-board="{&#34;type&#34;: &#34;board&#34;, &#34;status&#34;: 6, &#34;result&#34;: &#34;0-1&#34;, &#34;steps&#34;: [{&#34;fen&#34;: &#34;x&#34;, &#34;san&#34;: &#34;&#34;}, {&#34;fen&#34;: &#34;y&#34;, &#34;move&#34;: &#34;e2e4&#34;, &#34;san&#34;: &#34;e4&#34;}, {&#34;move&#34;: &#34;e7e5&#34;}]}" data-date="2026" data-result="0-1" data-status="6" data-wplayer="tester" data-bplayer="Vorpal" data-x="a &amp; b"></main>"#;

    #[test]
    fn reads_the_status_result_players_and_moves() {
        let g = parse_page(PAGE).unwrap();
        assert_eq!(g.status, 6);
        assert!(g.ended());
        assert_eq!(g.pgn_result(), "0-1");
        assert_eq!(g.moves, ["e2e4", "e7e5"]);
        assert_eq!((g.white.as_str(), g.black.as_str()), ("tester", "Vorpal"));
        assert_eq!(g.termination(), "the site: White ran out of time");
        assert_eq!(attribute(PAGE, "data-x").as_deref(), Some("a & b"));
    }

    #[test]
    fn running_aborted_and_other_pages() {
        let running = PAGE.replace("data-status=\"6\"", "data-status=\"-1\"");
        assert!(!parse_page(&running).unwrap().ended());
        let aborted = PAGE
            .replace("data-status=\"6\"", "data-status=\"0\"")
            .replace("data-result=\"0-1\"", "data-result=\"*\"");
        let g = parse_page(&aborted).unwrap();
        assert_eq!((g.pgn_result(), g.termination().as_str()), ("*", "the site: aborted"));
        let resigned = PAGE
            .replace("data-status=\"6\"", "data-status=\"2\"")
            .replace("data-result=\"0-1\"", "data-result=\"1-0\"");
        assert_eq!(parse_page(&resigned).unwrap().termination(), "the site: Black resigned");
        let stored = PAGE.replace("data-date=", "data-initialfen=\"None\" data-date=");
        assert_eq!(parse_page(&stored).unwrap().initial_fen, "");
        let set_up = PAGE.replace(
            "data-date=",
            "data-initialfen=\"8/8/8/8/8/8/8/K1k5 w - - 0 1\" data-date=",
        );
        assert_eq!(parse_page(&set_up).unwrap().initial_fen, "8/8/8/8/8/8/8/K1k5 w - - 0 1");
        assert_eq!(parse_page("<html>lobby</html>"), None);
        assert_eq!(parse_page("data-status=\"x\" data-board=\"{}\""), None);
        assert_eq!(unescape("&#60;&#x3e;&bogus;&"), "<>&bogus;&");
    }
}
