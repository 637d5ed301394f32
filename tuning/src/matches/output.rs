//! The match's output files: PGN and results, appended and flushed game by game, and read back
//! to resume an interrupted match or to merge shards.
//!
//! On resume the two files are reconciled: a game counts as played when its line is in the
//! results file and its PGN is complete (a game cut off mid-write by an interruption is
//! dropped from both); when only one of the files exists the other is rebuilt from it. Both
//! files are then rewritten (through a temporary file and a rename) before play continues.

use crate::matches::gameplay::PlayedGame;
use crate::matches::results::{parse_result, parse_results, GameSummary, ResultsHeader, Termination};
use crate::matches::schedule::ScheduledGame;
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use vorpal_client::pgn::{parse_pgn, today, PgnGame, PgnMove};
use vorpal_client::variant_tag::{en_passant_tag, variant_tag};
use vorpal_engine::Position;

/// Fixed tags of every game of a match.
#[derive(Clone, Debug, Default)]
pub struct PgnMeta {
    /// `Event` tag.
    pub event: String,
    /// `Site` tag.
    pub site: String,
    /// Engine names by index.
    pub names: Vec<String>,
    /// Time control description by engine index.
    pub time_controls: Vec<String>,
}

/// The PGN of a played game.
pub fn game_to_pgn(sched: &ScheduledGame, game: &PlayedGame, meta: &PgnMeta) -> PgnGame {
    let mut pgn = PgnGame::default();
    pgn.set_tag("Event", meta.event.clone());
    pgn.set_tag("Site", meta.site.clone());
    pgn.set_tag("Date", today());
    pgn.set_tag("Round", format!("{}.{}", sched.round, sched.id % 2 + 1));
    pgn.set_tag("White", meta.names[sched.white].clone());
    pgn.set_tag("Black", meta.names[sched.black].clone());
    pgn.set_tag("Result", game.result.pgn());
    let rules = game.start.rules();
    pgn.set_tag("Variant", variant_tag(rules));
    if let Some(mode) = en_passant_tag(rules) {
        pgn.set_tag("AliceEnPassant", mode);
    }
    if game.start != Position::start(rules) {
        pgn.set_tag("SetUp", "1");
        pgn.set_tag("FEN", game.start.to_fen());
    }
    let (wtc, btc) = (&meta.time_controls[sched.white], &meta.time_controls[sched.black]);
    if wtc == btc {
        pgn.set_tag("TimeControl", wtc.clone());
    } else {
        pgn.set_tag("WhiteTimeControl", wtc.clone());
        pgn.set_tag("BlackTimeControl", btc.clone());
    }
    pgn.set_tag("Termination", game.termination.pgn_tag());
    pgn.set_tag("PlyCount", game.moves.len().to_string());
    pgn.set_tag("GameId", sched.id.to_string());
    pgn.set_tag("OpeningId", sched.opening.to_string());
    for (i, m) in game.moves.iter().enumerate() {
        pgn.moves.push(PgnMove {
            san: m.san.clone(),
            comment: if i < game.book_plies {
                Some("book".into())
            } else {
                m.comment.clone()
            },
        });
    }
    pgn.final_comment = Some(game.reason.clone());
    pgn.result = Some(game.result.pgn().into());
    pgn
}

/// The results line of a played game.
pub fn game_summary(sched: &ScheduledGame, game: &PlayedGame, names: &[String]) -> GameSummary {
    GameSummary {
        id: sched.id,
        pair: sched.pair,
        white: names[sched.white].clone(),
        black: names[sched.black].clone(),
        result: game.result,
        termination: game.termination,
        plies: (game.moves.len() - game.book_plies) as u32,
        opening: sched.opening,
        reason: game.reason.clone(),
    }
}

/// Rebuilds a results line from a complete PGN game written by this runner (`None` for games
/// without a `GameId` tag or a result).
pub fn summary_from_pgn(g: &PgnGame) -> Option<GameSummary> {
    let id: u64 = g.tag("GameId")?.parse().ok()?;
    let result = parse_result(g.result.as_deref()?)?;
    Some(GameSummary {
        id,
        pair: id / 2,
        white: g.tag("White")?.to_string(),
        black: g.tag("Black")?.to_string(),
        result,
        termination: Termination::parse(g.tag("Termination").unwrap_or("normal")).unwrap_or(Termination::Normal),
        plies: g.moves.iter().filter(|m| m.comment.as_deref() != Some("book")).count() as u32,
        opening: g.tag("OpeningId").and_then(|v| v.parse().ok()).unwrap_or(0),
        reason: g.final_comment.clone().unwrap_or_default(),
    })
}

/// The results file that goes with a PGN file: the `.pgn` extension replaced by `.results`.
pub fn default_results_path(pgn: &Path) -> PathBuf {
    if pgn.extension().is_some_and(|e| e == "pgn") {
        pgn.with_extension("results")
    } else {
        let mut s = pgn.as_os_str().to_owned();
        s.push(".results");
        PathBuf::from(s)
    }
}

/// Games read back from a PGN file and/or a results file, reconciled as described in the
/// module documentation.
#[derive(Clone, Debug, Default)]
pub struct Existing {
    /// Header of the results file, if there was one.
    pub header: Option<ResultsHeader>,
    /// Finished games by id, with their PGN text (empty when only results were available).
    pub games: BTreeMap<u64, (GameSummary, String)>,
}

/// Reads `pgn` and `results` (either may be missing).
pub fn read_existing(pgn: Option<&Path>, results: Option<&Path>) -> Result<Existing, String> {
    let read = |p: &Path| -> Result<Option<String>, String> {
        match std::fs::read_to_string(p) {
            Ok(t) => Ok(Some(t)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(format!("cannot read {}: {e}", p.display())),
        }
    };
    let pgn_games: Option<BTreeMap<u64, (GameSummary, String)>> = pgn.map(read).transpose()?.flatten().map(|text| {
        parse_pgn(&text)
            .into_iter()
            .filter_map(|g| summary_from_pgn(&g).map(|s| (s.id, (s, g.to_text()))))
            .collect()
    });
    let mut out = Existing::default();
    let from_results = match results.map(read).transpose()?.flatten() {
        Some(text) => {
            let (header, games) =
                parse_results(&text).map_err(|e| format!("{}: {e}", results.unwrap_or(Path::new("")).display()))?;
            out.header = Some(header);
            Some(games)
        }
        None => None,
    };
    match (from_results, pgn_games) {
        (Some(lines), Some(mut pgns)) => {
            for s in lines {
                if let Some((_, text)) = pgns.remove(&s.id) {
                    out.games.insert(s.id, (s, text));
                }
            }
        }
        (Some(lines), None) => {
            out.games = lines.into_iter().map(|s| (s.id, (s, String::new()))).collect();
        }
        (None, Some(pgns)) => out.games = pgns,
        (None, None) => {}
    }
    Ok(out)
}

/// Writes `text` to `path` through a temporary file and a rename.
fn replace_file(path: &Path, text: &str) -> Result<(), String> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, text).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("cannot replace {}: {e}", path.display()))
}

/// Writes a complete PGN and results file for `games` (used by resume and merge).
pub fn write_all(
    pgn: Option<&Path>,
    results: Option<&Path>,
    header: &ResultsHeader,
    games: &BTreeMap<u64, (GameSummary, String)>,
) -> Result<(), String> {
    if let Some(p) = pgn {
        let text: String = games.values().map(|(_, t)| t.as_str()).collect();
        replace_file(p, &text)?;
    }
    if let Some(p) = results {
        let mut text = header.to_text();
        for (s, _) in games.values() {
            text += &s.to_line();
            text.push('\n');
        }
        replace_file(p, &text)?;
    }
    Ok(())
}

/// The open output files of a running match.
#[derive(Debug, Default)]
pub struct MatchFiles {
    pgn: Option<File>,
    results: Option<File>,
}

impl MatchFiles {
    /// Opens the outputs. Without `resume`, existing non-empty files are an error (nothing is
    /// overwritten); with it, the existing games are reconciled, rewritten and returned.
    pub fn open(
        pgn: Option<&Path>,
        results: Option<&Path>,
        header: &ResultsHeader,
        resume: bool,
    ) -> Result<(MatchFiles, Vec<GameSummary>), String> {
        let mut done = Vec::new();
        if resume {
            let existing = read_existing(pgn, results)?;
            if let Some(h) = &existing.header {
                if h.engines != header.engines || h.shard != header.shard {
                    return Err(format!(
                        "cannot resume: the results file is for engines {:?} shard {}/{}, this match is {:?} shard {}/{}",
                        h.engines, h.shard.0, h.shard.1, header.engines, header.shard.0, header.shard.1
                    ));
                }
            }
            if existing.games.values().any(|(_, t)| t.is_empty()) && pgn.is_some() {
                log::warn!("resume: the PGN file was missing; earlier games are only in the results file");
            }
            write_all(pgn, results, header, &existing.games)?;
            done = existing.games.into_values().map(|(s, _)| s).collect();
        } else {
            // A file without games (a results header from a match that never began) is reused.
            let has_games = |p: &Path| {
                std::fs::read_to_string(p).is_ok_and(|t| match parse_results(&t) {
                    Ok((_, games)) if t.starts_with('#') => !games.is_empty(),
                    _ => !t.trim().is_empty(),
                })
            };
            for p in [pgn, results].into_iter().flatten() {
                if has_games(p) {
                    return Err(format!(
                        "{} already exists: use --resume to continue that match, or remove it",
                        p.display()
                    ));
                }
            }
            if let Some(p) = results {
                std::fs::write(p, header.to_text()).map_err(|e| format!("cannot write {}: {e}", p.display()))?;
            }
        }
        let open = |p: Option<&Path>| -> Result<Option<File>, String> {
            p.map(|p| {
                OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(p)
                    .map_err(|e| format!("cannot open {}: {e}", p.display()))
            })
            .transpose()
        };
        Ok((
            MatchFiles {
                pgn: open(pgn)?,
                results: open(results)?,
            },
            done,
        ))
    }

    /// Appends one game to both files and flushes them (PGN first, so a results line always
    /// has its PGN).
    pub fn append(&mut self, pgn_text: &str, summary: &GameSummary) -> Result<(), String> {
        let io = |e: std::io::Error| format!("cannot write the match output: {e}");
        if let Some(f) = &mut self.pgn {
            f.write_all(pgn_text.as_bytes()).map_err(io)?;
            f.flush().map_err(io)?;
        }
        if let Some(f) = &mut self.results {
            f.write_all(format!("{}\n", summary.to_line()).as_bytes()).map_err(io)?;
            f.flush().map_err(io)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn date_and_paths() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20"));
        assert_eq!(default_results_path(Path::new("a/m.pgn")), PathBuf::from("a/m.results"));
        assert_eq!(default_results_path(Path::new("m.txt")), PathBuf::from("m.txt.results"));
    }
}
