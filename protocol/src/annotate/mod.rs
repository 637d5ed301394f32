//! `vorpal annotate`: a computer review of whole games. Every game of a PGN file is replayed,
//! each of its positions searched (from the last to the first, the table kept, see
//! [`review`]), each move judged by the winning chances it gives away ([`judge`]), and the
//! game written back as annotated PGN or JSON lines ([`write`]). The GUI's game report runs
//! the same review with a UCI engine through [`Analyst`].
//!
//! This module is the only door: `run` for the command line, and the review itself.

mod args;
mod games;
mod judge;
mod local;
mod progress;
mod review;
mod write;

pub use games::{read_games, InputGame};
/// A move's verdict, for the GUI's tests that build a review by hand.
#[cfg(test)]
pub use judge::Verdict;
pub use judge::{clamped_cp, Judgement, SideSummary};
pub use local::LocalAnalyst;
pub use review::{review_game, GameReview, MoveReview, ReviewError};
pub use write::{annotated_pgn, eval_text};

use crate::analyze::searcher;
use crate::status;
use crate::uci::output::{to_stderr, StdStream};
use crate::uci::session::ENGINE;
pub use args::AnnotateArgs;
use args::Args;
use games::GameError;
use progress::Progress;
use std::io::{IsTerminal, Read, Write};
use vorpal_engine::Rules;
use vorpal_uci_text::options::available_memory_mb;

/// Runs `vorpal annotate` with the settings of its command line; returns the exit status.
pub fn run(args: Args) -> i32 {
    let searcher = match searcher(&args.options, available_memory_mb()) {
        Ok(searcher) => searcher,
        Err(e) => {
            to_stderr(&format!("vorpal annotate: {e}\n"));
            return status::USAGE;
        }
    };
    let text = match read_input(&args.input) {
        Ok(text) => text,
        Err(e) => {
            to_stderr(&format!("vorpal annotate: {e}\n"));
            return status::ERROR_LINE;
        }
    };
    let sink: Box<dyn Write> = match &args.output {
        None => Box::new(StdStream(std::io::stdout())),
        Some(path) => match std::fs::File::create(path) {
            Ok(file) => Box::new(std::io::BufWriter::new(file)),
            Err(e) => {
                to_stderr(&format!("vorpal annotate: cannot write {path}: {e}\n"));
                return status::ERROR_LINE;
            }
        },
    };
    let analyst = LocalAnalyst::new(searcher, args.limits.clone(), args.fresh);
    let mut run = Run {
        progress: Progress::new(args.progress || std::io::stderr().is_terminal()),
        args,
        analyst,
        sink,
        failed: false,
    };
    run.all(&text);
    if let Err(e) = run.sink.flush() {
        to_stderr(&format!("vorpal annotate: cannot write the output: {e}\n"));
        run.failed = true;
    }
    if run.failed {
        status::ERROR_LINE
    } else {
        status::SUCCESS
    }
}

/// The text of the input file, or of stdin for `-`.
fn read_input(input: &str) -> Result<String, String> {
    if input == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| format!("cannot read stdin: {e}"))?;
        return Ok(text);
    }
    std::fs::read_to_string(input).map_err(|e| format!("cannot read {input}: {e}"))
}

/// One run of the command over its input.
struct Run {
    args: Args,
    analyst: LocalAnalyst,
    sink: Box<dyn Write>,
    progress: Progress,
    failed: bool,
}

impl Run {
    /// Reviews every game of `text`.
    fn all(&mut self, text: &str) {
        let games = read_games(text, Rules::default());
        if games.is_empty() {
            let what = if self.args.input == "-" {
                "stdin"
            } else {
                &self.args.input
            };
            self.fail(&GameError {
                number: 1,
                players: "? - ?".into(),
                ply: None,
                message: format!("no game found in {what}"),
            });
            return;
        }
        let positions: usize = games.iter().map(|g| g.as_ref().map_or(0, |g| g.moves.len() + 1)).sum();
        self.progress.start(games.len(), positions);
        for game in &games {
            match game {
                Ok(game) => self.one(game),
                Err(e) => self.fail(e),
            }
        }
        self.progress.clear();
    }

    /// Reviews one game and writes it.
    fn one(&mut self, game: &InputGame) {
        let progress = &self.progress;
        let mut tick = |done: usize, total: usize| {
            progress.position(game.number, done, total);
            true
        };
        let review = match review_game(&game.start, &game.moves, &mut self.analyst, &mut tick) {
            Ok(review) => review,
            Err(ReviewError::Engine { ply, message }) => {
                return self.fail(&GameError {
                    number: game.number,
                    players: games::players(&game.pgn),
                    ply: Some(ply),
                    message: format!("the engine failed: {message}"),
                })
            }
            Err(ReviewError::Cancelled) => return,
        };
        let text = if self.args.json {
            let mut lines: Vec<String> = review.moves.iter().map(|m| write::move_json(game.number, m)).collect();
            lines.push(write::summary_json(game, &review));
            lines.join("\n") + "\n"
        } else {
            let about = format!("{ENGINE} review, {}", self.args.limit_text());
            write::annotated_pgn(game, &review, ENGINE, &about)
        };
        self.write(&text);
    }

    /// Reports a game that cannot be reviewed (stderr, and an error object in JSON).
    fn fail(&mut self, e: &GameError) {
        self.failed = true;
        self.progress.clear();
        to_stderr(&format!("vorpal annotate: {e}\n"));
        if self.args.json {
            let object = write::error_json(e.number, e.ply, &e.message);
            self.write(&format!("{object}\n"));
        }
    }

    /// Writes output text (after clearing the progress line, which may share the terminal).
    fn write(&mut self, text: &str) {
        self.progress.clear();
        if let Err(e) = self.sink.write_all(text.as_bytes()).and_then(|()| self.sink.flush()) {
            to_stderr(&format!("vorpal annotate: cannot write the output: {e}\n"));
            self.failed = true;
        }
    }
}
