//! Finished games as records: how a game ended, the results file (one tab-separated line per
//! game, written and flushed as each game ends) and the tally of a match (W-D-L, game pairs,
//! Elo, SPRT, failure counts) computed with [`crate::matches::stats`].

use crate::matches::elo_report::{reportable_estimate, summary_line, NoEstimate};
use crate::matches::stats::{EloEstimate, GameOutcome, Pentanomial, Sprt, SprtStatus, Trinomial};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use vorpal_engine::GameResult;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// By the rules (mate, stalemate, repetition, fifty moves, bare kings).
    Normal,
    /// Decided by score or length adjudication.
    Adjudication,
    /// An engine ran out of time.
    TimeForfeit,
    /// An engine sent an illegal move.
    IllegalMove,
    /// An engine crashed or could not be started.
    Crash,
    /// An engine stopped answering (no clock to run out).
    Stall,
}

impl Termination {
    /// Every kind.
    pub const ALL: [Termination; 6] = [
        Termination::Normal,
        Termination::Adjudication,
        Termination::TimeForfeit,
        Termination::IllegalMove,
        Termination::Crash,
        Termination::Stall,
    ];

    /// Short key used in the results file.
    pub const fn key(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::Adjudication => "adjudication",
            Termination::TimeForfeit => "time",
            Termination::IllegalMove => "illegal",
            Termination::Crash => "crash",
            Termination::Stall => "stall",
        }
    }

    /// Value of the PGN `Termination` tag.
    pub const fn pgn_tag(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::Adjudication => "adjudication",
            Termination::TimeForfeit => "time forfeit",
            Termination::IllegalMove => "rules infraction",
            Termination::Crash => "abandoned",
            Termination::Stall => "stalled connection",
        }
    }

    /// Parses either the key or the PGN tag value.
    pub fn parse(text: &str) -> Option<Termination> {
        Termination::ALL
            .into_iter()
            .find(|t| t.key() == text || t.pgn_tag() == text)
    }
}

/// Parses `1-0`, `0-1`, `1/2-1/2`.
pub fn parse_result(text: &str) -> Option<GameResult> {
    match text {
        "1-0" => Some(GameResult::WhiteWins),
        "0-1" => Some(GameResult::BlackWins),
        "1/2-1/2" => Some(GameResult::Draw),
        _ => None,
    }
}

/// One finished game as a results-file line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSummary {
    /// Game number in the match schedule (0-based).
    pub id: u64,
    /// Game pair (same opening, colours swapped) the game belongs to.
    pub pair: u64,
    /// White engine's name.
    pub white: String,
    /// Black engine's name.
    pub black: String,
    /// Result.
    pub result: GameResult,
    /// How it ended.
    pub termination: Termination,
    /// Plies played by the engines (book moves excluded).
    pub plies: u32,
    /// Index of the opening in the book.
    pub opening: usize,
    /// Explanation (`White mates`, `Black loses on time`, ...).
    pub reason: String,
}

/// Header line of the column names.
pub const RESULTS_COLUMNS: &str = "id\tpair\twhite\tblack\tresult\ttermination\tplies\topening\treason";

impl GameSummary {
    /// The results-file line (no newline).
    pub fn to_line(&self) -> String {
        format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            self.id,
            self.pair,
            self.white,
            self.black,
            self.result.pgn(),
            self.termination.key(),
            self.plies,
            self.opening,
            self.reason.replace(['\t', '\n'], " ")
        )
    }

    /// Parses a results-file line.
    pub fn from_line(line: &str) -> Result<GameSummary, String> {
        let f: Vec<&str> = line.splitn(9, '\t').collect();
        if f.len() != 9 {
            return Err(format!("expected 9 tab-separated fields: '{line}'"));
        }
        let num = |s: &str| s.parse::<u64>().map_err(|_| format!("bad number '{s}' in '{line}'"));
        Ok(GameSummary {
            id: num(f[0])?,
            pair: num(f[1])?,
            white: f[2].to_string(),
            black: f[3].to_string(),
            result: parse_result(f[4]).ok_or_else(|| format!("bad result '{}'", f[4]))?,
            termination: Termination::parse(f[5]).ok_or_else(|| format!("bad termination '{}'", f[5]))?,
            plies: num(f[6])? as u32,
            opening: num(f[7])? as usize,
            reason: f[8].to_string(),
        })
    }

    /// The engine that lost, if any.
    pub fn loser(&self) -> Option<&str> {
        match self.result {
            GameResult::WhiteWins => Some(&self.black),
            GameResult::BlackWins => Some(&self.white),
            GameResult::Draw => None,
        }
    }

    /// Outcome for engine `name` (None when it did not play this game).
    pub fn outcome_for(&self, name: &str) -> Option<GameOutcome> {
        let white = if self.white == name {
            true
        } else if self.black == name {
            false
        } else {
            return None;
        };
        Some(match (self.result, white) {
            (GameResult::Draw, _) => GameOutcome::Draw,
            (GameResult::WhiteWins, true) | (GameResult::BlackWins, false) => GameOutcome::Win,
            _ => GameOutcome::Loss,
        })
    }
}

/// The metadata lines at the top of a results file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ResultsHeader {
    /// Engine names, the first one being the engine whose view the statistics take.
    pub engines: Vec<String>,
    /// Games in the whole match (all shards).
    pub total_games: u64,
    /// Shard index and count.
    pub shard: (usize, usize),
}

impl ResultsHeader {
    /// The header text (comment lines plus the column names).
    pub fn to_text(&self) -> String {
        format!(
            "# vorpal-match results v1\n# engines\t{}\n# games\t{}\n# shard\t{}/{}\n{RESULTS_COLUMNS}\n",
            self.engines.join("\t"),
            self.total_games,
            self.shard.0,
            self.shard.1
        )
    }
}

/// Parses a results file. A last line without its newline (cut off by an interruption) is
/// ignored; duplicate game ids keep the first line.
pub fn parse_results(text: &str) -> Result<(ResultsHeader, Vec<GameSummary>), String> {
    let mut header = ResultsHeader {
        shard: (0, 1),
        ..ResultsHeader::default()
    };
    let mut games: Vec<GameSummary> = Vec::new();
    let complete = match text.rfind('\n') {
        Some(i) => &text[..=i],
        None => "",
    };
    for line in complete.lines() {
        if let Some(meta) = line.strip_prefix("# ") {
            let mut f = meta.split('\t');
            match f.next() {
                Some("engines") => header.engines = f.map(String::from).collect(),
                Some("games") => header.total_games = f.next().and_then(|v| v.parse().ok()).unwrap_or(0),
                Some("shard") => {
                    if let Some((i, n)) = f.next().and_then(|v| v.split_once('/')) {
                        header.shard = (i.parse().unwrap_or(0), n.parse().unwrap_or(1));
                    }
                }
                _ => {}
            }
            continue;
        }
        if line.trim().is_empty() || line == RESULTS_COLUMNS {
            continue;
        }
        let g = GameSummary::from_line(line)?;
        if !games.iter().any(|x| x.id == g.id) {
            games.push(g);
        }
    }
    Ok((header, games))
}

/// The results of a match so far.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Engine names; statistics are from the first engine's view.
    pub engines: Vec<String>,
    /// Finished games by id.
    pub games: BTreeMap<u64, GameSummary>,
}

impl Tally {
    /// An empty tally for `engines`.
    pub fn new(engines: Vec<String>) -> Tally {
        Tally {
            engines,
            games: BTreeMap::new(),
        }
    }

    /// Records a game (a later record with the same id replaces the earlier one).
    pub fn add(&mut self, g: GameSummary) {
        self.games.insert(g.id, g);
    }

    /// Win/draw/loss of engine `a` against engine `b`.
    pub fn trinomial(&self, a: &str, b: &str) -> Trinomial {
        let mut t = Trinomial::default();
        for g in self.games.values().filter(|g| g.outcome_for(b).is_some()) {
            if let Some(o) = g.outcome_for(a) {
                t.add_game(o);
            }
        }
        t
    }

    /// Game pairs of `a` against `b` whose two games are both finished.
    pub fn pentanomial(&self, a: &str, b: &str) -> Pentanomial {
        let mut p = Pentanomial::default();
        let mut pairs: BTreeMap<u64, Vec<GameOutcome>> = BTreeMap::new();
        for g in self.games.values().filter(|g| g.outcome_for(b).is_some()) {
            if let Some(o) = g.outcome_for(a) {
                pairs.entry(g.pair).or_default().push(o);
            }
        }
        for outcomes in pairs.values().filter(|o| o.len() == 2) {
            p.add_pair(outcomes[0], outcomes[1]);
        }
        p
    }

    /// Points and games of engine `name` against everyone.
    pub fn standing(&self, name: &str) -> (f64, u64) {
        let mut points = 0.0;
        let mut games = 0;
        for o in self.games.values().filter_map(|g| g.outcome_for(name)) {
            points += o.score();
            games += 1;
        }
        (points, games)
    }

    /// Games lost by `name` that ended by `termination`.
    pub fn losses_by(&self, name: &str, termination: Termination) -> usize {
        self.games
            .values()
            .filter(|g| g.termination == termination && g.loser() == Some(name))
            .count()
    }

    /// Games that ended by `termination`.
    pub fn count(&self, termination: Termination) -> usize {
        self.games.values().filter(|g| g.termination == termination).count()
    }

    /// Main pairing: the first two engines.
    fn main_pair(&self) -> Option<(&str, &str)> {
        match self.engines.as_slice() {
            [a, b, ..] => Some((a, b)),
            _ => None,
        }
    }

    /// SPRT decision on the first two engines' pairs.
    pub fn sprt_status(&self, sprt: &Sprt) -> (f64, SprtStatus) {
        let (a, b) = self.main_pair().unwrap_or(("", ""));
        let llr = sprt.llr(&self.pentanomial(a, b));
        (llr, sprt.status_for_llr(llr))
    }

    /// Elo estimate of the first engine against the second (from the game pairs when there
    /// are any), or why none can be given yet (see [`crate::matches::elo_report`]).
    pub fn estimate(&self) -> Result<EloEstimate, NoEstimate> {
        let (a, b) = self.main_pair().unwrap_or(("", ""));
        reportable_estimate(&self.trinomial(a, b), Some(&self.pentanomial(a, b)))
    }

    /// One progress line: done/total, W-D-L, score, Elo ± error, LOS, LLR and ETA.
    pub fn progress_line(&self, total: u64, sprt: Option<&Sprt>, eta: Option<std::time::Duration>) -> String {
        let done = self.games.len();
        let mut line = format!("[{done}/{total}]");
        if self.engines.len() == 2 {
            let (a, b) = (&self.engines[0], &self.engines[1]);
            let t = self.trinomial(a, b);
            let _ = write!(
                line,
                " {a} vs {b}: W-D-L {}-{}-{} ({:.1}%)",
                t.wins,
                t.draws,
                t.losses,
                100.0 * t.score()
            );
            match self.estimate() {
                Ok(e) => {
                    let _ = write!(
                        line,
                        " Elo {:.1} +/- {:.1} LOS {:.1}%",
                        e.elo,
                        e.elo_error,
                        100.0 * e.los
                    );
                }
                Err(why) => {
                    let _ = write!(line, " Elo {why}");
                }
            }
            if let Some(s) = sprt {
                let (llr, _) = self.sprt_status(s);
                let _ = write!(line, " LLR {:.2} ({:.2}, {:.2})", llr, s.lower_bound(), s.upper_bound());
            }
        } else {
            for name in &self.engines {
                let (p, g) = self.standing(name);
                let _ = write!(line, " {name} {p}/{g}");
            }
        }
        if let Some(eta) = eta {
            let s = eta.as_secs();
            let _ = write!(line, " ETA {}h{:02}m{:02}s", s / 3600, s / 60 % 60, s % 60);
        }
        line
    }

    /// The final summary (several lines).
    pub fn summary(&self, title: &str, sprt: Option<&Sprt>) -> String {
        let mut out = String::new();
        if self.engines.len() == 2 {
            let (a, b) = (&self.engines[0], &self.engines[1]);
            let t = self.trinomial(a, b);
            let p = self.pentanomial(a, b);
            let _ = writeln!(out, "Results of {a} vs {b} ({title}):");
            match self.estimate() {
                Ok(e) => {
                    let _ = writeln!(
                        out,
                        "Elo: {:.2} +/- {:.2}, nElo: {:.2} +/- {:.2}, LOS: {:.2} %, DrawRatio: {:.2} %",
                        e.elo + 0.0, // no "-0.00"
                        e.elo_error,
                        e.nelo + 0.0,
                        e.nelo_error,
                        100.0 * e.los,
                        100.0 * t.draw_ratio()
                    );
                }
                Err(why) if t.games() > 0 => {
                    let _ = writeln!(out, "Elo: {why}, LOS: n/a, DrawRatio: {:.2} %", 100.0 * t.draw_ratio());
                }
                Err(why) => {
                    let _ = writeln!(out, "Elo: {why}, LOS: n/a, DrawRatio: n/a");
                }
            }
            let _ = writeln!(
                out,
                "Games: {}, Wins: {}, Losses: {}, Draws: {}, Points: {:.1} ({:.2} %)",
                t.games(),
                t.wins,
                t.losses,
                t.draws,
                t.points(),
                100.0 * t.score()
            );
            let _ = writeln!(
                out,
                "Ptnml(0-2): [{}, {}, {}, {}, {}] ({} complete pairs)",
                p.0[0],
                p.0[1],
                p.0[2],
                p.0[3],
                p.0[4],
                p.pairs()
            );
            if let Some(s) = sprt {
                let (llr, status) = self.sprt_status(s);
                let verdict = match status {
                    SprtStatus::AcceptH0 => "H0 accepted",
                    SprtStatus::AcceptH1 => "H1 accepted",
                    SprtStatus::Continue => "no decision",
                };
                let _ = writeln!(
                    out,
                    "LLR: {:.2} ({:.2}, {:.2}) [{:.2}, {:.2}] {:?}: {verdict}",
                    llr,
                    s.lower_bound(),
                    s.upper_bound(),
                    s.elo0,
                    s.elo1,
                    s.model
                );
            }
        }
        if self.engines.len() > 2 {
            let _ = writeln!(out, "Results of {} ({title}):", self.engines.join(", "));
            out += "Standings:\n";
            for name in &self.engines {
                let (p, g) = self.standing(name);
                let _ = writeln!(out, "  {name:<20} {p:>7.1} / {g}");
            }
            out += "Pairings (first engine's view):\n";
            for (i, a) in self.engines.iter().enumerate() {
                for b in &self.engines[i + 1..] {
                    let t = self.trinomial(a, b);
                    if t.games() > 0 {
                        let p = self.pentanomial(a, b);
                        let _ = writeln!(out, "  {a} vs {b}: {}", summary_line(&t, Some(&p), None));
                        let _ = writeln!(
                            out,
                            "    W-D-L {}-{}-{}, Ptnml(0-2): {:?}",
                            t.wins, t.draws, t.losses, p.0
                        );
                    }
                }
            }
        }
        for (label, term) in [
            ("Time losses", Termination::TimeForfeit),
            ("Illegal moves", Termination::IllegalMove),
            ("Crashes", Termination::Crash),
            ("Stalls", Termination::Stall),
        ] {
            let per: Vec<String> = self
                .engines
                .iter()
                .map(|n| format!("{n} {}", self.losses_by(n, term)))
                .collect();
            let _ = writeln!(out, "{label}: {} ({})", self.count(term), per.join(", "));
        }
        let _ = writeln!(out, "Adjudicated: {}", self.count(Termination::Adjudication));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(id: u64, white: &str, black: &str, result: GameResult, t: Termination) -> GameSummary {
        GameSummary {
            id,
            pair: id / 2,
            white: white.into(),
            black: black.into(),
            result,
            termination: t,
            plies: 10,
            opening: 0,
            reason: "why\tnot".into(),
        }
    }

    #[test]
    fn lines_round_trip_and_cut_lines_are_ignored() {
        let g = game(3, "a", "b", GameResult::BlackWins, Termination::TimeForfeit);
        let line = g.to_line();
        let back = GameSummary::from_line(&line).unwrap();
        assert_eq!(back.reason, "why not");
        assert_eq!(back.termination, Termination::TimeForfeit);
        let header = ResultsHeader {
            engines: vec!["a".into(), "b".into()],
            total_games: 10,
            shard: (1, 2),
        };
        let text = format!("{}{}\n{}", header.to_text(), line, &line[..5]);
        let (h, games) = parse_results(&text).unwrap();
        assert_eq!(h, header);
        assert_eq!(games.len(), 1);
    }

    #[test]
    fn tally_counts_pairs_from_the_first_engine_view() {
        use GameResult::*;
        let mut t = Tally::new(vec!["a".into(), "b".into()]);
        t.add(game(0, "a", "b", WhiteWins, Termination::Normal)); // a wins
        t.add(game(1, "b", "a", WhiteWins, Termination::IllegalMove)); // a loses
        t.add(game(2, "a", "b", Draw, Termination::Normal));
        t.add(game(3, "b", "a", WhiteWins, Termination::TimeForfeit)); // a loses
        t.add(game(4, "a", "b", WhiteWins, Termination::Normal)); // unpaired
        assert_eq!(t.trinomial("a", "b"), Trinomial::new(2, 1, 2));
        assert_eq!(t.pentanomial("a", "b"), Pentanomial::new([0, 1, 1, 0, 0]));
        assert_eq!(t.losses_by("a", Termination::TimeForfeit), 1);
        assert_eq!(t.losses_by("b", Termination::TimeForfeit), 0);
        let s = t.summary("test", None);
        assert!(s.contains("Games: 5, Wins: 2, Losses: 2, Draws: 1"), "{s}");
        assert!(s.contains("Ptnml(0-2): [0, 1, 1, 0, 0]"), "{s}");
        assert!(s.contains("Illegal moves: 1 (a 1, b 0)"), "{s}");
    }
}
