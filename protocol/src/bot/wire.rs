//! The JSON lines of the site's BOT API (lichess-style, as pychess-variants sends them): the
//! event stream's challenges and game starts, a game stream's full game, states and end.
//! Fields the bot does not use are left out; unknown message types read as `Other`, and
//! numbers are read leniently (integers or decimals).

use serde::Deserialize;

/// One line of `GET /api/stream/event`.
#[derive(Debug, Deserialize, PartialEq)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Event {
    /// Someone challenges the bot.
    Challenge {
        /// The challenge.
        challenge: Challenge,
    },
    /// A game of the bot started (or is in progress, after a reconnect).
    GameStart {
        /// Which game.
        game: GameRef,
    },
    /// The keep-alive, every 6 s on an idle stream.
    Ping,
    /// Any other message (challenge canceled, ...): ignored.
    #[serde(other)]
    Other,
}

/// `{"id": "..."}`: a game named in an event.
#[derive(Debug, Deserialize, PartialEq)]
pub struct GameRef {
    /// The game id (8 letters on pychess-variants).
    pub id: String,
}

/// A challenge as the event stream describes it.
#[derive(Debug, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Challenge {
    /// The challenge's id, which becomes the game's id.
    pub id: String,
    /// Who challenges.
    pub challenger: Player,
    /// The variant (`{"key": "alice"}`).
    pub variant: VariantKey,
    /// Rated or casual.
    #[serde(default)]
    pub rated: bool,
    /// The clock.
    pub time_control: TimeControl,
    /// Chess960 castling (never for Alice on the site).
    #[serde(default)]
    pub chess960: bool,
    /// The challenger's colour choice (`white`, `black`, `random`).
    #[serde(default)]
    pub color: String,
}

/// A player's name (and, in challenges, title).
#[derive(Debug, Deserialize, PartialEq, Clone, Default)]
pub struct Player {
    /// The user name.
    #[serde(default)]
    pub name: String,
    /// `BOT` for bots, empty or absent for people.
    #[serde(default)]
    pub title: Option<String>,
}

/// `{"key": "alice"}`.
#[derive(Debug, Deserialize, PartialEq)]
pub struct VariantKey {
    /// The site's variant name.
    pub key: String,
}

/// `{"name": "alice"}`.
#[derive(Debug, Deserialize, PartialEq, Clone, Default)]
pub struct VariantName {
    /// The site's variant name.
    pub name: String,
}

/// A challenge's time control. The site sends `limit` and `increment` in seconds.
#[derive(Debug, Deserialize, PartialEq, Clone, Copy)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum TimeControl {
    /// A real-time clock: `limit` seconds plus `increment` seconds per move.
    Clock {
        /// Base time in seconds.
        limit: f64,
        /// Increment in seconds.
        #[serde(default)]
        increment: f64,
    },
    /// Days per move.
    #[serde(rename_all = "camelCase")]
    Correspondence {
        /// Days per move, when given.
        #[serde(default)]
        days_per_turn: Option<f64>,
    },
    /// No clock, or a kind this client does not know.
    #[serde(other)]
    Unlimited,
}

/// One line of `GET /api/bot/game/stream/{id}`.
#[derive(Debug, Deserialize, PartialEq)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum GameEvent {
    /// The game as a whole: first on every (re)connection.
    GameFull(GameFull),
    /// The moves and clocks after a move (the bot's own moves are echoed too).
    GameState(GameState),
    /// The game is over; the site says neither the result nor why.
    GameEnd {
        /// Which game (when given).
        #[serde(default)]
        game: Option<GameRef>,
    },
    /// The keep-alive.
    Ping,
    /// Anything else (chat lines, ...): ignored.
    #[serde(other)]
    Other,
}

/// `gameFull`: the players, the start position and the current state.
#[derive(Debug, Deserialize, PartialEq, Clone)]
#[serde(rename_all = "camelCase")]
pub struct GameFull {
    /// The game id.
    #[serde(default)]
    pub id: String,
    /// The variant (`{"name": "alice"}`).
    #[serde(default)]
    pub variant: VariantName,
    /// White's player.
    #[serde(default)]
    pub white: Player,
    /// Black's player.
    #[serde(default)]
    pub black: Player,
    /// The start position; `""` for the variant's usual one.
    #[serde(default)]
    pub initial_fen: String,
    /// The state now.
    pub state: GameState,
}

/// `gameState`: every move since the start and the clocks.
#[derive(Debug, Deserialize, PartialEq, Clone, Default)]
pub struct GameState {
    /// All moves, space-separated UCI.
    #[serde(default)]
    pub moves: String,
    /// White's time left in milliseconds.
    #[serde(default)]
    pub wtime: f64,
    /// Black's time left in milliseconds.
    #[serde(default)]
    pub btime: f64,
    /// White's increment in **seconds** (the site's unit).
    #[serde(default)]
    pub winc: f64,
    /// Black's increment in seconds.
    #[serde(default)]
    pub binc: f64,
    /// Always `started` on this site.
    #[serde(default)]
    pub status: String,
}

impl GameState {
    /// The moves as a list of texts.
    pub fn move_list(&self) -> Vec<&str> {
        self.moves.split_whitespace().collect()
    }
}

/// `GET /api/account`.
#[derive(Debug, Deserialize, PartialEq)]
pub struct Account {
    /// The user name.
    #[serde(default)]
    pub username: String,
    /// `BOT` for a bot account.
    #[serde(default)]
    pub title: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_captured_event_lines() {
        let challenge = r#"{"type":"challenge","challenge":{"id":"iqSgPqOc","challenger":{"name":"tester","rating":1500,"title":""},"variant":{"key":"alice"},"rated":false,"timeControl":{"type":"clock","limit":60,"increment":2},"color":"white","finalColor":"white","speed":"bullet","perf":{"name":"alice"},"level":6,"chess960":false}}"#;
        let Event::Challenge { challenge } = serde_json::from_str(challenge).unwrap() else {
            panic!("not a challenge")
        };
        assert_eq!(challenge.id, "iqSgPqOc");
        assert_eq!(challenge.challenger.name, "tester");
        assert_eq!(challenge.variant.key, "alice");
        assert_eq!(
            challenge.time_control,
            TimeControl::Clock {
                limit: 60.0,
                increment: 2.0
            }
        );
        let start = r#"{"type":"gameStart","game":{"id":"iqSgPqOc","skill_level":"6","chess960":"False"}}"#;
        assert_eq!(
            serde_json::from_str::<Event>(start).unwrap(),
            Event::GameStart {
                game: GameRef { id: "iqSgPqOc".into() }
            }
        );
        assert_eq!(
            serde_json::from_str::<Event>(r#"{"type":"ping"}"#).unwrap(),
            Event::Ping
        );
        assert_eq!(
            serde_json::from_str::<Event>(r#"{"type":"challengeCanceled","challenge":{}}"#).unwrap(),
            Event::Other
        );
    }

    #[test]
    fn reads_the_captured_game_lines() {
        let full = r#"{"type":"gameFull","id":"iqSgPqOc","variant":{"name":"alice"},"white":{"name":"tester"},"black":{"name":"Vorpal"},"initialFen":"","createdAt":1796195750,"state":{"type":"gameState","moves":"","wtime":60000,"btime":60000,"winc":2,"binc":2,"wdraw":false,"bdraw":false,"wtakeback":false,"btakeback":false,"status":"started"}}"#;
        let GameEvent::GameFull(full) = serde_json::from_str(full).unwrap() else {
            panic!("not gameFull")
        };
        assert_eq!(full.black.name, "Vorpal");
        assert_eq!(full.state.winc, 2.0);
        let state = r#"{"type":"gameState","moves":"e2e4 e7e5 d1h5 g8f6","wtime":60000,"btime":61977,"winc":2,"binc":2,"wdraw":false,"bdraw":false,"wtakeback":false,"btakeback":false,"status":"started"}"#;
        let GameEvent::GameState(state) = serde_json::from_str(state).unwrap() else {
            panic!("not gameState")
        };
        assert_eq!(state.move_list(), ["e2e4", "e7e5", "d1h5", "g8f6"]);
        assert_eq!(state.btime, 61977.0);
        let end = r#"{"type":"gameEnd","game":{"id":"iqSgPqOc"}}"#;
        assert!(matches!(
            serde_json::from_str::<GameEvent>(end).unwrap(),
            GameEvent::GameEnd { game: Some(_) }
        ));
        assert!(serde_json::from_str::<GameEvent>(r#"{"type":"gameState","moves":12}"#).is_err());
    }

    #[test]
    fn correspondence_and_unknown_time_controls() {
        let tc: TimeControl = serde_json::from_str(r#"{"type":"correspondence","daysPerTurn":3}"#).unwrap();
        assert_eq!(
            tc,
            TimeControl::Correspondence {
                days_per_turn: Some(3.0)
            }
        );
        let tc: TimeControl = serde_json::from_str(r#"{"type":"unlimited"}"#).unwrap();
        assert_eq!(tc, TimeControl::Unlimited);
    }
}
