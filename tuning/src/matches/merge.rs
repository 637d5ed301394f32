//! Merging the outputs of the shards of one match (`vorpal-match merge`) into one PGN and
//! one results file, sorted by game number, with the combined statistics.

use crate::matches::output::{default_results_path, read_existing, write_all};
use crate::matches::results::{GameSummary, ResultsHeader, Tally};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The merged match.
#[derive(Clone, Debug)]
pub struct Merged {
    /// Header of the merged results (shard 0/1).
    pub header: ResultsHeader,
    /// All games.
    pub tally: Tally,
    /// Scheduled games that no input contains.
    pub missing: u64,
}

/// The PGN and results paths of one input: a `.results` file (with its `.pgn` beside it, if
/// present) or a PGN file (with its results file, if present).
fn input_paths(input: &Path) -> (Option<PathBuf>, Option<PathBuf>) {
    if input.extension().is_some_and(|e| e == "results") {
        let pgn = input.with_extension("pgn");
        (pgn.exists().then_some(pgn), Some(input.to_path_buf()))
    } else {
        let results = default_results_path(input);
        (Some(input.to_path_buf()), results.exists().then_some(results))
    }
}

/// Merges `inputs` into `out_pgn` / `out_results` (either may be omitted).
pub fn merge(inputs: &[PathBuf], out_pgn: Option<&Path>, out_results: Option<&Path>) -> Result<Merged, String> {
    if inputs.is_empty() {
        return Err("merge: no inputs".into());
    }
    let mut engines: Option<Vec<String>> = None;
    let mut total = 0;
    let mut games: BTreeMap<u64, (GameSummary, String)> = BTreeMap::new();
    for input in inputs {
        let (pgn, results) = input_paths(input);
        if pgn.as_ref().is_some_and(|p| !p.exists()) && results.is_none() {
            return Err(format!("merge: {} not found", input.display()));
        }
        let existing = read_existing(pgn.as_deref(), results.as_deref())?;
        if let Some(h) = &existing.header {
            match &engines {
                Some(e) if *e != h.engines => {
                    return Err(format!(
                        "merge: {} is a match of {:?}, not {:?}",
                        input.display(),
                        h.engines,
                        e
                    ))
                }
                _ => engines = Some(h.engines.clone()),
            }
            total = total.max(h.total_games);
        }
        for (id, (summary, text)) in existing.games {
            if let Some((other, _)) = games.get(&id) {
                if *other != summary {
                    return Err(format!(
                        "merge: game {} differs between inputs ({})",
                        id + 1,
                        input.display()
                    ));
                }
                continue;
            }
            games.insert(id, (summary, text));
        }
    }
    let engines = match engines {
        Some(e) => e,
        None => {
            // PGN-only inputs: engines in order of first appearance as White in game 0's pair.
            let mut names: Vec<String> = Vec::new();
            for (s, _) in games.values() {
                for n in [&s.white, &s.black] {
                    if !names.contains(n) {
                        names.push(n.clone());
                    }
                }
            }
            names
        }
    };
    let header = ResultsHeader {
        engines: engines.clone(),
        total_games: total.max(games.keys().next_back().map_or(0, |&id| id + 1)),
        shard: (0, 1),
    };
    write_all(out_pgn, out_results, &header, &games)?;
    let mut tally = Tally::new(engines);
    for (s, _) in games.into_values() {
        tally.add(s);
    }
    Ok(Merged {
        missing: header.total_games - tally.games.len() as u64,
        header,
        tally,
    })
}
