//! What the page sends: the body of `POST /api/cmd` as a [`Command`], tagged by its `cmd`
//! field as `app.js` sends it (`{"cmd":"move","uci":"e2m4"}`), and the bodies of
//! `POST /api/session` and `POST /api/close`. Fields the page may leave out are options;
//! fields it does not know are ignored; a missing or mistyped field refuses the command with
//! a text that names the command and the problem (the page shows it, the answer is 400).

use super::settings::SettingsFields;
use serde::Deserialize;
use serde_json::Value;

/// One command of the page.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(tag = "cmd", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum Command {
    /// Takes back the last move of the shown line (two in play mode).
    Undo,
    /// A new game of `variant` with the same settings: Chess960 (position `number`, else
    /// the standard array), the en passant option (default `off`).
    New {
        /// A variant name of the menu.
        variant: String,
        /// Chess960 castling.
        chess960: Option<bool>,
        /// `off`, `normal` or `double`.
        en_passant: Option<String>,
        /// The Chess960 start position, 0 to 959.
        number: Option<u64>,
    },
    /// A new game from a FEN under the game's rules.
    Fen {
        /// The position.
        fen: String,
    },
    /// New mode, limits, strength or engines.
    Settings(SettingsFields),
    /// The engines stop playing: the game goes on between people.
    Stop,
    /// Restarts the engines the mode needs.
    Restart,
    /// Starts the game report of the main line.
    Review,
    /// A person's move: wide UCI from the boards (`uci`) or typed SAN or UCI (`san`).
    Move {
        /// Wide UCI (`e2m4`); taken before `san` when both are given.
        uci: Option<String>,
        /// SAN with or without `/A`, or UCI, as typed.
        san: Option<String>,
    },
    /// Shows move `node` of the tree, or ply `ply` of the shown line (clamped to it).
    Goto {
        /// A node number of the move tree.
        node: Option<u64>,
        /// A ply of the shown line.
        ply: Option<u64>,
    },
    /// Makes move `node` the main line.
    Promote {
        /// A node number of the move tree.
        node: u64,
    },
    /// Deletes move `node` and what follows it.
    Delete {
        /// A node number of the move tree.
        node: u64,
    },
    /// Sets the comment after move `node` (empty: none).
    Comment {
        /// A node number of the move tree.
        node: u64,
        /// The comment.
        text: String,
    },
    /// Sets the mark of move `node` (`nag` 1 `!`, 2 `?`, 3 `!!`, 4 `??`, 5 `!?`, 6 `?!`; none
    /// removes it).
    Mark {
        /// A node number of the move tree.
        node: u64,
        /// The mark's NAG.
        nag: Option<u8>,
    },
    /// Play mode: ends the game without a result, before both sides have moved.
    Abort,
    /// Play mode: the person gives the game up.
    Resign,
    /// Play mode: the person offers a draw; the engine takes it when it is not better.
    OfferDraw,
    /// Imports a game from PGN.
    Pgn {
        /// The PGN text: one game or a whole file.
        text: String,
        /// Which game of the file to read (from 0); the first when absent.
        game: Option<u32>,
    },
    /// Takes back a game the page kept (after a reload or a server restart).
    Restore {
        /// The game as PGN.
        pgn: String,
        /// The settings it was played with.
        settings: Option<SettingsFields>,
        /// The moves (wide UCI) from the start to the node shown.
        path: Option<Vec<String>>,
        /// The "show engine" switch of play mode.
        show_engine: Option<bool>,
    },
    /// The "show engine" switch of play mode.
    ShowEngine {
        /// Shown when true.
        on: Option<bool>,
    },
    /// A `cmd` the server does not know.
    #[serde(other)]
    Unknown,
}

/// Just the tag of a command, to name it in a refusal.
#[derive(Deserialize)]
struct Tag {
    cmd: String,
}

impl Command {
    /// Reads the page's JSON body: the command, or why it is refused (no `cmd` text, an
    /// unknown command, a missing or mistyped field).
    pub fn read(body: &Value) -> Result<Command, String> {
        let name = Tag::deserialize(body)
            .map_err(|_| "missing text field 'cmd'".to_string())?
            .cmd;
        match Command::deserialize(body) {
            Ok(Command::Unknown) => Err(format!("unknown command '{name}'")),
            Ok(command) => Ok(command),
            Err(e) => Err(format!("bad '{name}' command: {e}")),
        }
    }
}

/// The body of `POST /api/session`: the page's own session again, while it lives.
#[derive(Debug, Default, Deserialize)]
pub struct OpenRequest {
    /// The session id the page kept.
    pub rejoin: Option<String>,
}

/// The body of `POST /api/close` (a `sendBeacon` blob; the id may come in the query instead).
#[derive(Debug, Default, Deserialize)]
pub struct CloseRequest {
    /// The session to end.
    pub sid: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(json: &str) -> Result<Command, String> {
        Command::read(&serde_json::from_str(json).unwrap())
    }

    #[test]
    fn commands_read_as_the_page_sends_them() {
        assert_eq!(read(r#"{"cmd":"undo","extra":[1]}"#), Ok(Command::Undo));
        assert_eq!(
            read(r#"{"cmd":"move","uci":"e2m4"}"#),
            Ok(Command::Move {
                uci: Some("e2m4".into()),
                san: None
            })
        );
        assert_eq!(
            read(r#"{"cmd":"new","variant":"alice","chess960":true,"enPassant":"normal"}"#),
            Ok(Command::New {
                variant: "alice".into(),
                chess960: Some(true),
                en_passant: Some("normal".into()),
                number: None
            })
        );
        assert_eq!(
            read(r#"{"cmd":"showEngine","on":true}"#),
            Ok(Command::ShowEngine { on: Some(true) })
        );
        let restore = read(
            r#"{"cmd":"restore","pgn":"*","path":["e2m4"],"settings":{"cmd":"settings","mode":"play"},"showEngine":null}"#,
        )
        .unwrap();
        let Command::Restore {
            path,
            settings,
            show_engine,
            ..
        } = restore
        else {
            panic!("{restore:?}");
        };
        assert_eq!((path.unwrap(), show_engine), (vec!["e2m4".to_string()], None));
        assert_ne!(settings, Some(SettingsFields::default()));
        assert!(matches!(
            read(r#"{"cmd":"settings","mode":"watch"}"#),
            Ok(Command::Settings(_))
        ));
    }

    #[test]
    fn refusals_name_the_command_and_the_problem() {
        assert_eq!(read(r#"{"cmd":"fly"}"#), Err("unknown command 'fly'".into()));
        for body in ["{}", "null", "[1,2]", r#"{"cmd":7}"#, r#""undo""#] {
            assert_eq!(read(body), Err("missing text field 'cmd'".into()), "{body}");
        }
        let missing = read(r#"{"cmd":"comment","node":1}"#).unwrap_err();
        assert!(
            missing.starts_with("bad 'comment' command: missing field `text`"),
            "{missing}"
        );
        for body in [
            r#"{"cmd":"goto","ply":-3}"#,
            r#"{"cmd":"goto","node":1.5}"#,
            r#"{"cmd":"new","variant":"alice","number":"7"}"#,
            r#"{"cmd":"new","variant":"alice","chess960":"yes"}"#,
            r#"{"cmd":"move","uci":5}"#,
            r#"{"cmd":"restore","pgn":"*","path":[1]}"#,
            r#"{"cmd":"settings","depth":"deep"}"#,
        ] {
            assert!(read(body).unwrap_err().starts_with("bad '"), "{body}");
        }
    }
}
