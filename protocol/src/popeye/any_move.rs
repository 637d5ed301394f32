//! Popeye's "any move" stipulations (`~n`, `h~n`, `h~n.5`, `ser-~n`), as Olive's legal-moves
//! buttons use them: the goal is reached by any move, so Popeye lists the play up to the first
//! move of the stipulation's side, whatever `n` is (its short solutions). `~n`: every move of
//! the side to move as a key (`1.Rh1-a1A + !`); `h~n`: every move of the side to move with
//! every reply (`1.a7-a5B Qb5-a4A +`); `h~n.5`: every move of the side to move as the half
//! move (`1...Rh1-a1A +`); `ser-~n`: every move as a one-move series (`1.Qb5-a4A`).

use super::notation::bare;
use vorpal_engine::{Move, Position};

/// Which of Popeye's any-move stipulations a text is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AnyMove {
    /// `~n`: direct play.
    Direct,
    /// `h~n`: help play, the other side's move first.
    Help,
    /// `h~n.5`: help play starting with the half move.
    HelpHalf,
    /// `ser-~n`: series play.
    Series,
}

impl AnyMove {
    /// The kind of `stipulation` (Popeye's text), None when it is not an any-move one.
    pub fn of(stipulation: &str) -> Option<AnyMove> {
        let text = stipulation.to_ascii_lowercase();
        if text.starts_with('~') {
            Some(AnyMove::Direct)
        } else if text.starts_with("h~") {
            Some(if text.ends_with(".5") {
                AnyMove::HelpHalf
            } else {
                AnyMove::Help
            })
        } else if text.starts_with("ser-~") {
            Some(AnyMove::Series)
        } else {
            None
        }
    }

    /// Popeye's page for `pos` (after the diagram): one paragraph per key in direct play,
    /// one paragraph of lines otherwise; each group in the order of the moves' UCI text.
    pub fn page(self, pos: &Position) -> Vec<String> {
        let moves = sorted_moves(pos);
        let mut out = Vec::new();
        match self {
            AnyMove::Direct => {
                for (_, text) in moves {
                    out.push(String::new());
                    out.push(format!("   1.{text} !"));
                }
                // A tree ends with a blank line; lines do not.
                out.push(String::new());
            }
            AnyMove::Help => {
                out.push(String::new());
                for (mv, first) in moves {
                    let after = pos.after(mv);
                    for (_, reply) in sorted_moves(&after) {
                        out.push(format!("  1.{first} {reply}"));
                    }
                }
            }
            AnyMove::HelpHalf => {
                out.push(String::new());
                out.extend(moves.into_iter().map(|(_, text)| format!("  1...{text}")));
            }
            AnyMove::Series => {
                out.push(String::new());
                out.extend(moves.into_iter().map(|(_, text)| format!("  1.{text}")));
            }
        }
        out
    }
}

/// The legal moves of `pos` with Popeye's text, in the order of their UCI text. The goal being
/// any move, Popeye marks a check (` +`) and nothing else: a mate is ` +` too, a stalemate
/// unmarked.
fn sorted_moves(pos: &Position) -> Vec<(Move, String)> {
    let mut moves: Vec<_> = pos
        .legal_moves()
        .into_iter()
        .map(|m| {
            let check = if pos.after(m).in_check() { " +" } else { "" };
            (pos.move_to_uci(m), m, format!("{}{check}", bare(pos, m)))
        })
        .collect();
    moves.sort_by(|a, b| a.0.cmp(&b.0));
    moves.into_iter().map(|(_, m, text)| (m, text)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_are_told_apart() {
        assert_eq!(AnyMove::of("~1"), Some(AnyMove::Direct));
        assert_eq!(AnyMove::of("~3"), Some(AnyMove::Direct));
        assert_eq!(AnyMove::of("h~2"), Some(AnyMove::Help));
        assert_eq!(AnyMove::of("H~1.5"), Some(AnyMove::HelpHalf));
        assert_eq!(AnyMove::of("ser-~4"), Some(AnyMove::Series));
        assert_eq!(AnyMove::of("h#2"), None);
        assert_eq!(AnyMove::of("#2"), None);
    }
}
