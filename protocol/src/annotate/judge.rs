//! How a move is judged: the model that turns two scores (the best the mover could have had,
//! and what the move left) into a loss, a judgement, a centipawn loss and an accuracy.
//!
//! - A score becomes centipawns from the mover's side, clamped to ±1000; a mate counts as
//!   ±1000 (lichess's ceiling).
//! - Centipawns become a win probability with lichess's logistic curve:
//!   `p = 1 / (1 + exp(-0.00368208 * cp))` (its winning chances `2p - 1` on [-1, 1]).
//! - The loss of a move is the win probability it gives away: `p(best) - p(after)`, at least 0,
//!   and 0 when the move played is the engine's best move.
//! - Inaccuracy from a loss of 0.05, mistake from 0.10, blunder from 0.15: lichess's thresholds
//!   0.1, 0.2 and 0.3 on the winning-chances scale [-1, 1], halved onto [0, 1].
//! - A move's accuracy is lichess's curve `103.1668 * exp(-4.354 * loss) - 3.1669` (its
//!   `-0.04354` per percentage point of win probability), clamped to 0..100; a side's accuracy
//!   is the mean over its moves.
//! - A move's centipawn loss is `cp(best) - cp(after)` on the clamped scale, at least 0.

use vorpal_engine::search::Score;

/// Largest centipawn magnitude the model uses; mates count as this.
pub const CP_CEILING: i32 = 1000;
/// Slope of the logistic curve from centipawns to win probability (lichess's).
const LOGISTIC_SLOPE: f64 = 0.003_682_08;

/// A marked move. `!` and `!!` are never given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Judgement {
    /// `?!`: a loss of at least [`Judgement::Inaccuracy`]'s threshold.
    Inaccuracy,
    /// `?`.
    Mistake,
    /// `??`.
    Blunder,
}

impl Judgement {
    /// Every judgement, mildest first.
    pub const ALL: [Judgement; 3] = [Judgement::Inaccuracy, Judgement::Mistake, Judgement::Blunder];

    /// The smallest loss (win probability, 0..1) that earns this judgement.
    pub const fn threshold(self) -> f64 {
        match self {
            Judgement::Inaccuracy => 0.05,
            Judgement::Mistake => 0.10,
            Judgement::Blunder => 0.15,
        }
    }

    /// The judgement a loss earns, if any.
    pub fn of_loss(loss: f64) -> Option<Judgement> {
        Judgement::ALL.into_iter().rev().find(|j| loss >= j.threshold())
    }

    /// The PGN suffix (`?!`, `?`, `??`).
    pub const fn suffix(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "?!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }

    /// The lower-case name (`inaccuracy`, `mistake`, `blunder`), as in the JSON output.
    pub const fn name(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "inaccuracy",
            Judgement::Mistake => "mistake",
            Judgement::Blunder => "blunder",
        }
    }

    /// The capitalised name for comments (`Blunder`).
    pub const fn title(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "Inaccuracy",
            Judgement::Mistake => "Mistake",
            Judgement::Blunder => "Blunder",
        }
    }
}

/// A score from the side to move's view as clamped centipawns. `Mate(0)` (the side to move is
/// mated) counts as a loss.
pub fn clamped_cp(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp.clamp(-CP_CEILING, CP_CEILING),
        Score::Mate(n) if n > 0 => CP_CEILING,
        Score::Mate(_) => -CP_CEILING,
    }
}

/// The win probability (0..1) of clamped centipawns.
pub fn win_probability(cp: i32) -> f64 {
    1.0 / (1.0 + (-LOGISTIC_SLOPE * f64::from(cp)).exp())
}

/// The verdict on one move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Verdict {
    /// Win probability given away, 0..1.
    pub loss: f64,
    /// The mark, if the loss earns one.
    pub judgement: Option<Judgement>,
    /// Centipawns given away (clamped scale), at least 0.
    pub cp_loss: i32,
    /// The move's accuracy, 0..100.
    pub accuracy: f64,
}

/// Judges a move from the mover's best score before it (`best`, the mover to move) and the
/// score after it (`after`, the opponent to move); `was_best` when the move played is the
/// engine's best move, which loses nothing by definition.
pub fn judge(best: Score, after: Score, was_best: bool) -> Verdict {
    let before_cp = clamped_cp(best);
    let after_cp = -clamped_cp(after);
    let (loss, cp_loss) = if was_best {
        (0.0, 0)
    } else {
        let loss = (win_probability(before_cp) - win_probability(after_cp)).max(0.0);
        (loss, (before_cp - after_cp).max(0))
    };
    Verdict {
        loss,
        judgement: Judgement::of_loss(loss),
        cp_loss,
        accuracy: move_accuracy(loss),
    }
}

/// Lichess's accuracy of a move that gives away `loss` (win probability, 0..1), in 0..100.
pub fn move_accuracy(loss: f64) -> f64 {
    (103.1668 * (-4.354 * loss).exp() - 3.1669).clamp(0.0, 100.0)
}

/// One side's totals over a game.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SideSummary {
    /// Moves judged.
    pub moves: usize,
    /// Sum of the centipawn losses.
    pub cp_loss_sum: i64,
    /// Sum of the move accuracies.
    pub accuracy_sum: f64,
    /// Inaccuracies, mistakes and blunders.
    pub marks: [usize; 3],
}

impl SideSummary {
    /// Adds a move's verdict.
    pub fn add(&mut self, v: &Verdict) {
        self.moves += 1;
        self.cp_loss_sum += i64::from(v.cp_loss);
        self.accuracy_sum += v.accuracy;
        if let Some(j) = v.judgement {
            self.marks[j as usize] += 1;
        }
    }

    /// Average centipawn loss, rounded; None without moves.
    pub fn acpl(&self) -> Option<i64> {
        (self.moves > 0).then(|| (self.cp_loss_sum as f64 / self.moves as f64).round() as i64)
    }

    /// Mean move accuracy to one decimal; None without moves.
    pub fn accuracy(&self) -> Option<f64> {
        (self.moves > 0).then(|| (self.accuracy_sum / self.moves as f64 * 10.0).round() / 10.0)
    }

    /// How many moves got judgement `j`.
    pub fn count(&self, j: Judgement) -> usize {
        self.marks[j as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_curve_is_lichess_s() {
        assert!((win_probability(0) - 0.5).abs() < 1e-12);
        // Lichess: winning chances of +100 cp = 2 / (1 + exp(-0.368208)) - 1 = 0.182.
        let chances = 2.0 * win_probability(100) - 1.0;
        assert!((chances - 0.18206).abs() < 1e-4, "{chances}");
        assert!((win_probability(-300) + win_probability(300) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn allowing_mate_is_a_blunder() {
        let v = judge(Score::Cp(20), Score::Mate(1), false);
        assert_eq!(v.judgement, Some(Judgement::Blunder));
        assert_eq!(v.cp_loss, 1020);
        assert!(v.accuracy < 20.0, "{}", v.accuracy);
    }

    #[test]
    fn losing_three_pawns_when_ten_up_is_no_mistake() {
        // Best keeps +10, the move leaves +7 (the opponent to move sees -7).
        let v = judge(Score::Cp(1000), Score::Cp(-700), false);
        assert_eq!(v.judgement, None, "loss {}", v.loss);
        assert_eq!(v.cp_loss, 300);
        // The same three pawns from equality are a blunder.
        assert_eq!(
            judge(Score::Cp(0), Score::Cp(300), false).judgement,
            Some(Judgement::Blunder)
        );
    }

    #[test]
    fn thresholds_and_the_best_move() {
        assert_eq!(Judgement::of_loss(0.049), None);
        assert_eq!(Judgement::of_loss(0.05), Some(Judgement::Inaccuracy));
        assert_eq!(Judgement::of_loss(0.12), Some(Judgement::Mistake));
        assert_eq!(Judgement::of_loss(0.6), Some(Judgement::Blunder));
        // The best move loses nothing, even when the next search sees worse.
        let v = judge(Score::Cp(0), Score::Cp(500), true);
        assert_eq!((v.loss, v.judgement, v.cp_loss), (0.0, None, 0));
        assert!(v.accuracy > 99.99, "{}", v.accuracy);
        // A move the next search likes better than the best loses nothing either.
        assert_eq!(judge(Score::Cp(0), Score::Cp(-50), false).loss, 0.0);
        // Mating: the opponent is mated (Mate(0) to move).
        assert_eq!(judge(Score::Mate(1), Score::Mate(0), false).loss, 0.0);
    }

    #[test]
    fn side_totals() {
        let mut s = SideSummary::default();
        assert_eq!((s.acpl(), s.accuracy()), (None, None));
        s.add(&judge(Score::Cp(0), Score::Cp(0), true));
        s.add(&judge(Score::Cp(0), Score::Mate(2), false));
        assert_eq!(s.acpl(), Some(500));
        assert_eq!(s.count(Judgement::Blunder), 1);
        let mean = (100.0 + move_accuracy(judge(Score::Cp(0), Score::Mate(2), false).loss)) / 2.0;
        assert!((s.accuracy().unwrap() - mean).abs() <= 0.05);
    }
}
