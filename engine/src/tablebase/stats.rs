//! What a generation reports: counts of wins, draws and losses, the longest mates, time and
//! file size.

use super::material::Material;

/// Counts of one side to move, over all positions (symmetric ones counted separately).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SideStats {
    /// Positions the side to move wins.
    pub wins: u64,
    /// Drawn positions.
    pub draws: u64,
    /// Positions the side to move loses.
    pub losses: u64,
    /// The longest win in plies (odd) and a position with it (pipe FEN).
    pub longest_win: Option<(u32, String)>,
    /// The longest loss in plies (even) and a position with it.
    pub longest_loss: Option<(u32, String)>,
}

/// What one generation made.
#[derive(Clone, Debug)]
pub struct GenStats {
    /// The material.
    pub material: Material,
    /// White to move, Black to move.
    pub sides: [SideStats; 2],
    /// Wall time in seconds.
    pub seconds: f64,
    /// Size of the file written.
    pub file_bytes: u64,
    /// Plies processed (the longest distance plus one).
    pub rounds: u32,
    /// For a material with mates beyond fifty moves: per side to move, the wins and losses by
    /// the distance to the next zeroing move (also written as `<MATERIAL>.vtz`).
    pub dtz: Option<[DtzStats; 2]>,
}

/// Counts of one side to move by the distance to the next capture, pawn move or mate.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DtzStats {
    /// Wins whose next zeroing move or mate the winner can force within 100 plies: wins under the
    /// fifty-move rule from a clock at zero.
    pub wins_within_fifty: u64,
    /// Wins the defender can drag past 100 plies without a capture: draws under the rule.
    pub wins_beyond_fifty: u64,
    /// Losses the defender can drag past 100 plies (draws under the rule).
    pub losses_beyond_fifty: u64,
    /// The longest distance of a win in plies and a position with it.
    pub longest_win: Option<(u32, String)>,
}
