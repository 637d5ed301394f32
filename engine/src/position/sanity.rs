//! Whether a position can arise in a game (docs/rules.md §2): the counts of men a side can have
//! after promotions. `from_fen` already refuses what no position of the rules can hold (pawns on
//! the first or last rank, the side not to move in check, not one king a side); these checks
//! refuse in addition what no game from the variant's start array can reach, and are used where a
//! position is set up for play or analysis (the page, `analyze --fen`, UCI `position fen`, CECP
//! `setboard`). Problem solving (`vorpal solve`) does not apply them: composers use such
//! positions.

use super::fen::FenError;
use super::Position;
use crate::rules::Rules;
use crate::types::{Color, PieceKind};

/// The number of each piece kind in one side's start array (every variant has the chess army:
/// one queen, two rooks, two bishops, two knights; Mini Alice has the same pieces on 4 files).
const START_PIECES: [(PieceKind, u32, &str); 4] = [
    (PieceKind::Queen, 1, "queens"),
    (PieceKind::Rook, 2, "rooks"),
    (PieceKind::Bishop, 2, "bishops"),
    (PieceKind::Knight, 2, "knights"),
];

impl Position {
    /// Parses a FEN as [`Position::from_fen`] and refuses a position no game can reach
    /// ([`Position::game_sanity`]).
    pub fn from_game_fen(fen: &str, rules: Rules) -> Result<Position, FenError> {
        let pos = Position::from_fen(fen, rules)?;
        pos.game_sanity()?;
        Ok(pos)
    }

    /// Refuses a position that no game of its variant can reach by the counts of men: a side has
    /// at most as many pawns as the board has files (8, 4 in Mini Alice), at most that many men
    /// plus 8 in all (16, 12 in Mini Alice), and pieces beyond its start array only as promoted
    /// pawns (pawns + extra queens, rooks, bishops and knights at most the number of files).
    /// The message names the side, what it has and the most it can have.
    pub fn game_sanity(&self) -> Result<(), FenError> {
        let variant = self.rules.variant;
        let files = u32::from(variant.files());
        for color in Color::BOTH {
            let side = match color {
                Color::White => "White",
                Color::Black => "Black",
            };
            // Per board: in three-board Alice a square may hold a man on two boards.
            let count = |kind| {
                self.boards()
                    .iter()
                    .map(|&b| self.pieces(b, color, kind).count())
                    .sum::<u32>()
            };
            let men: u32 = PieceKind::ALL.iter().map(|&k| count(k)).sum();
            if men > files + 8 {
                return Err(FenError(format!(
                    "{side} has {men} men; a game of {variant} has at most {} a side",
                    files + 8
                )));
            }
            let pawns = count(PieceKind::Pawn);
            if pawns > files {
                return Err(FenError(format!(
                    "{side} has {pawns} pawns; a game of {variant} has at most {files} a side"
                )));
            }
            let mut promoted = 0;
            let mut extra_names = Vec::new();
            for (kind, start, name) in START_PIECES {
                let extra = count(kind).saturating_sub(start);
                if extra > 0 {
                    promoted += extra;
                    extra_names.push(format!("{} {name}", count(kind)));
                }
            }
            if pawns + promoted > files {
                return Err(FenError(format!(
                    "{side} has {} and {pawns} pawns: more promoted pieces than missing pawns \
                     (a game of {variant} starts with {files} pawns a side)",
                    extra_names.join(", ")
                )));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    fn check(fen: &str, variant: Variant) -> Result<(), String> {
        Position::from_game_fen(fen, Rules::for_variant(variant))
            .map(|_| ())
            .map_err(|e| e.0)
    }

    #[test]
    fn start_positions_of_every_variant_pass() {
        for variant in Variant::ALL {
            assert_eq!(check(variant.start_fen(), variant), Ok(()), "{variant}");
        }
    }

    #[test]
    fn forty_eight_men_are_refused_with_the_count() {
        let fen = "rnbqkbnr/pppppppp/pppppppp/8/8/PPPPPPPP/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        // The position itself is well-formed: only the game check refuses it.
        assert!(Position::from_fen(fen, Rules::default()).is_ok());
        assert_eq!(
            check(fen, Variant::Alice),
            Err("White has 24 men; a game of alice has at most 16 a side".into())
        );
    }

    #[test]
    fn nine_pawns_and_too_many_promotions_are_refused() {
        let nine = "4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1";
        assert_eq!(
            check(nine, Variant::Alice),
            Err("White has 9 pawns; a game of alice has at most 8 a side".into())
        );
        // Three queens and eight pawns: two promotions without a missing pawn.
        let queens = "4k3/8/8/8/8/8/pppppppp/qq2K2q b - - 0 1";
        assert!(
            Position::from_fen(queens, Rules::default()).is_err(),
            "pawns on the last rank are refused by FEN"
        );
        let queens = "qqq1k3/pppppppp/8/8/8/8/8/4K3 w - - 0 1";
        let err = check(queens, Variant::Alice).unwrap_err();
        assert!(err.starts_with("Black has 3 queens and 8 pawns"), "{err}");
        // Three queens with two pawns missing is a game position.
        assert_eq!(check("qqq1k3/pppppp2/8/8/8/8/8/4K3 w - - 0 1", Variant::Alice), Ok(()));
    }

    #[test]
    fn mini_alice_has_four_pawns_and_twelve_men() {
        assert_eq!(
            check("rqkr/nbbn/pppp/p3/4/PPPP/NBBN/RQKR w - - 0 1", Variant::MiniAlice),
            Err("Black has 13 men; a game of minialice has at most 12 a side".into())
        );
        assert_eq!(
            check("1qk1/4/pppp/p3/4/PPPP/4/1QK1 w - - 0 1", Variant::MiniAlice),
            Err("Black has 5 pawns; a game of minialice has at most 4 a side".into())
        );
        // Eight pawns would be fine in Alice.
        assert_eq!(check("4k3/pppppppp/8/8/8/8/8/4K3 w - - 0 1", Variant::Alice), Ok(()));
    }

    #[test]
    fn three_board_alice_counts_men_on_every_board() {
        // Nine white pawns spread over boards A, B and C (joined form).
        let fen = "4k3/8/8/8/8/8/PPP5/4K3|8/8/8/8/8/8/3PPP2/8|8/8/8/8/8/8/5PPP/8 w - - 0 1";
        let rules = Rules::for_variant(Variant::Alice3);
        assert!(Position::from_fen(fen, rules).is_ok());
        assert_eq!(
            check(fen, Variant::Alice3),
            Err("White has 9 pawns; a game of alice3 has at most 8 a side".into())
        );
    }
}
