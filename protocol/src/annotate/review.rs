//! The review of one game, whatever engine gives the scores: every position of the game is
//! evaluated once, from the last to the first, so that a position's search finds in the
//! engine's table what the searches of the positions after it learnt (the refutation of a
//! blunder is already there when the position before the blunder is searched). Each move is
//! then judged from the best score before it and the score after it ([`super::judge`]).

use super::judge::{judge, SideSummary, Verdict};
use vorpal_engine::search::Score;
use vorpal_engine::{Color, EndReason, Game, Move, Position};

/// What the engine says about one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionEval {
    /// The score from the side to move's view.
    pub score: Score,
    /// The best move (None in a position without legal moves).
    pub best: Option<Move>,
    /// The principal variation, starting with the best move.
    pub line: Vec<Move>,
    /// Nodes searched.
    pub nodes: u64,
}

/// An engine that evaluates positions for a review: the in-process search for the command
/// line, a UCI engine for the GUI.
pub trait Analyst {
    /// Starts a new game (the engine may forget what it learnt in the last one).
    fn new_game(&mut self) -> Result<(), String>;
    /// Evaluates the current position of `game` (one that still has legal moves).
    fn evaluate(&mut self, game: &Game) -> Result<PositionEval, String>;
}

/// The review of one move.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReview {
    /// The ply, from 1.
    pub ply: usize,
    /// The position the move was played in.
    pub before: Position,
    /// The move.
    pub mv: Move,
    /// The score after the move, from the side to move's view after it.
    pub after: Score,
    /// The engine's best move before it (None when the engine named none).
    pub best: Option<Move>,
    /// The engine's line from the position before the move.
    pub line: Vec<Move>,
    /// The judgement.
    pub verdict: Verdict,
}

impl MoveReview {
    /// The side that played the move.
    pub fn mover(&self) -> Color {
        self.before.side_to_move()
    }

    /// The move in SAN (with the landing-board suffix).
    pub fn san(&self) -> String {
        self.before.move_to_san(self.mv)
    }

    /// The move in UCI.
    pub fn uci(&self) -> String {
        self.before.move_to_uci(self.mv)
    }

    /// The score after the move from White's view.
    pub fn white_eval(&self) -> Score {
        white_view(self.after, self.mover().flip())
    }
}

/// A reviewed game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameReview {
    /// The start position.
    pub start: Position,
    /// The score of the start position from White's view.
    pub start_eval: Score,
    /// Every move, in order.
    pub moves: Vec<MoveReview>,
    /// White's and Black's totals.
    pub sides: [SideSummary; 2],
    /// Nodes searched for the whole game.
    pub nodes: u64,
}

/// Why a review stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReviewError {
    /// The engine failed on the position before `ply` (from 1; the position after the last
    /// move is `moves + 1`).
    Engine {
        /// The ply whose position failed.
        ply: usize,
        /// What the engine said.
        message: String,
    },
    /// The caller asked to stop.
    Cancelled,
}

/// A score from `side`'s view seen from White's. `Mate(0)` (the side to move is mated) stays
/// `Mate(0)`: who is mated is the side to move.
pub fn white_view(score: Score, side: Color) -> Score {
    match (score, side) {
        (s, Color::White) => s,
        (Score::Cp(cp), Color::Black) => Score::Cp(-cp),
        (Score::Mate(n), Color::Black) => Score::Mate(-n),
    }
}

/// The score of a game that has ended (side to move's view), without asking the engine:
/// mated, or a draw.
fn final_score(game: &Game) -> Option<Score> {
    game.outcome().map(|(_, reason)| match reason {
        EndReason::Checkmate => Score::Mate(0),
        _ => Score::Cp(0),
    })
}

/// Reviews the game of `start` and `moves` (legal, as replayed from the PGN) with `analyst`.
/// `progress(done, total)` is called before each position is evaluated and after the last;
/// when it returns false the review stops with [`ReviewError::Cancelled`].
pub fn review_game(
    start: &Position,
    moves: &[Move],
    analyst: &mut dyn Analyst,
    progress: &mut dyn FnMut(usize, usize) -> bool,
) -> Result<GameReview, ReviewError> {
    let mut game = Game::new(*start);
    for &mv in moves {
        let legal = game.play(mv);
        debug_assert!(legal, "the moves of a review are legal");
    }
    let total = moves.len() + 1;
    analyst
        .new_game()
        .map_err(|message| ReviewError::Engine { ply: 1, message })?;
    // evals[i]: the position before ply i + 1 (evals[moves.len()]: after the last move).
    let mut evals: Vec<Option<PositionEval>> = vec![None; total];
    for index in (0..total).rev() {
        if !progress(total - 1 - index, total) {
            return Err(ReviewError::Cancelled);
        }
        let eval = match final_score(&game) {
            Some(score) => PositionEval {
                score,
                best: None,
                line: Vec::new(),
                nodes: 0,
            },
            None => analyst.evaluate(&game).map_err(|message| ReviewError::Engine {
                ply: index + 1,
                message,
            })?,
        };
        evals[index] = Some(eval);
        game.undo();
    }
    progress(total, total);
    let evals: Vec<PositionEval> = evals.into_iter().flatten().collect();
    let positions = {
        let mut game = Game::new(*start);
        moves.iter().for_each(|&mv| {
            game.play(mv);
        });
        game.positions().to_vec()
    };
    let mut sides = [SideSummary::default(); 2];
    let reviews: Vec<MoveReview> = moves
        .iter()
        .enumerate()
        .map(|(i, &mv)| {
            let (before, after) = (&evals[i], &evals[i + 1]);
            let verdict = judge(before.score, after.score, before.best == Some(mv));
            let review = MoveReview {
                ply: i + 1,
                before: positions[i],
                mv,
                after: after.score,
                best: before.best,
                line: before.line.clone(),
                verdict,
            };
            sides[review.mover() as usize].add(&verdict);
            review
        })
        .collect();
    Ok(GameReview {
        start: *start,
        start_eval: white_view(evals[0].score, start.side_to_move()),
        moves: reviews,
        sides,
        nodes: evals.iter().map(|e| e.nodes).sum(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::annotate::judge::Judgement;

    /// An analyst that knows one fact: after `1. f3`, Black's best is `e5` at +1 for Black;
    /// everything else is level.
    struct Scripted {
        asked: Vec<usize>,
    }

    impl Analyst for Scripted {
        fn new_game(&mut self) -> Result<(), String> {
            Ok(())
        }
        fn evaluate(&mut self, game: &Game) -> Result<PositionEval, String> {
            let pos = game.position();
            self.asked.push(game.moves().len());
            let best = pos.legal_moves()[0];
            Ok(PositionEval {
                score: Score::Cp(if game.moves().len() == 1 { 400 } else { 0 }),
                best: Some(best),
                line: vec![best],
                nodes: 10,
            })
        }
    }

    #[test]
    fn positions_are_evaluated_last_first_and_moves_judged() {
        let start = Position::startpos();
        let f3 = start.parse_move("f3").unwrap();
        let e5 = start.after(f3).parse_move("e5").unwrap();
        let mut analyst = Scripted { asked: Vec::new() };
        let mut calls = Vec::new();
        let r = review_game(&start, &[f3, e5], &mut analyst, &mut |done, total| {
            calls.push((done, total));
            true
        })
        .unwrap();
        assert_eq!(analyst.asked, vec![2, 1, 0]);
        assert_eq!(calls, vec![(0, 3), (1, 3), (2, 3), (3, 3)]);
        assert_eq!(r.moves.len(), 2);
        // 1. f3 left Black +4: a blunder by White, unless f3 was the engine's first move.
        let first = start.legal_moves()[0];
        if first != f3 {
            assert_eq!(r.moves[0].verdict.judgement, Some(Judgement::Blunder));
        }
        assert_eq!(r.moves[0].white_eval(), Score::Cp(-400));
        assert_eq!(r.nodes, 30);
        assert_eq!(r.sides[0].moves + r.sides[1].moves, 2);
        let stopped = review_game(&start, &[f3], &mut analyst, &mut |done, _| done < 1);
        assert_eq!(stopped, Err(ReviewError::Cancelled));
    }

    #[test]
    fn white_view_flips_black_scores() {
        assert_eq!(white_view(Score::Cp(30), Color::Black), Score::Cp(-30));
        assert_eq!(white_view(Score::Mate(-2), Color::Black), Score::Mate(2));
        assert_eq!(white_view(Score::Mate(0), Color::Black), Score::Mate(0));
    }
}
