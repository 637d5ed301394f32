//! The `vorpal-match` commands: a match (the default), `openings` (generate a book) and
//! `merge` (combine shard outputs), each run from its parsed command line
//! ([`crate::matches::args`]).

use crate::matches::adjudication::{Adjudication, DrawRule, ResignRule};
use crate::matches::args::{BookFormat, MatchArgs, MergeArgs, OpeningsArgs, Order};
use crate::matches::gameplay::GameSettings;
use crate::matches::matchrunner::{run_match, MatchConfig};
use crate::matches::merge::merge;
use crate::matches::openings::{
    default_openings, format_openings, generate, opening_order, read_openings, GenerateSettings,
};
use crate::matches::output::default_results_path;
use crate::matches::schedule::Schedule;
use crate::matches::stats::{EloModel, Sprt};
use std::path::Path;
use vorpal_client::engine_process::EngineConfig;
use vorpal_client::engine_settings::{engine_settings, resolve_cmd};

/// The exit code of a command's result: its own, or 2 after printing the error.
pub fn exit_code(result: Result<i32, String>) -> i32 {
    result.unwrap_or_else(|e| {
        eprintln!("vorpal-match: {e}");
        2
    })
}

/// Parses `--sprt` settings.
fn parse_sprt(values: &[String]) -> Result<Sprt, String> {
    let (mut elo0, mut elo1, mut alpha, mut beta) = (0.0, 5.0, 0.05, 0.05);
    let mut model = EloModel::Normalized;
    for v in values {
        let (k, val) = v
            .split_once('=')
            .ok_or_else(|| format!("--sprt: '{v}' is not key=value"))?;
        let num = || val.parse::<f64>().map_err(|_| format!("--sprt: bad number '{val}'"));
        match k {
            "elo0" => elo0 = num()?,
            "elo1" => elo1 = num()?,
            "alpha" => alpha = num()?,
            "beta" => beta = num()?,
            "model" => {
                model = match val {
                    "normalized" => EloModel::Normalized,
                    "logistic" => EloModel::Logistic,
                    _ => return Err(format!("--sprt: model must be normalized or logistic, not '{val}'")),
                }
            }
            _ => return Err(format!("--sprt: unknown setting '{k}'")),
        }
    }
    Sprt::new(elo0, elo1, alpha, beta, model)
}

impl MatchArgs {
    /// The match's configuration, or why the command line cannot be played.
    pub fn config(self) -> Result<MatchConfig, String> {
        let o = self.options;
        let mut each = o.each;
        each.extend(o.tc.map(|tc| format!("tc={tc}")));
        let engine_args = o.engines.0;
        let mut game = GameSettings::default();
        game.margin = o.timemargin.map_or(game.margin, std::time::Duration::from_millis);
        game.move_timeout = o.move_timeout.unwrap_or(game.move_timeout);
        game.startup_timeout = o.startup_timeout.unwrap_or(game.startup_timeout);
        let adjudication = Adjudication {
            resign: o.resign.as_deref().map(ResignRule::parse).transpose()?,
            draw: o.draw.as_deref().map(DrawRule::parse).transpose()?,
            max_moves: o.maxmoves,
        };
        let sprt = self.sprt.as_deref().map(parse_sprt).transpose()?;
        let (tournament, concurrency, seed) = (self.tournament.into(), o.concurrency, self.seed);
        let (openings_path, opening_plies) = (o.openings, o.opening_plies);
        let random_order = o.order == Order::Random;
        let rules = o.rules.rules()?;
        game.adjudication = adjudication;
        if engine_args.len() < 2 {
            return Err("a match needs at least two --engine".into());
        }
        let mut engines = Vec::new();
        for (i, own) in engine_args.iter().enumerate() {
            let mut e = EngineConfig::default();
            engine_settings(&mut e, &each)?;
            engine_settings(&mut e, own)?;
            if e.cmd.is_empty() {
                return Err(format!("engine {} has no cmd=", i + 1));
            }
            e.cmd = resolve_cmd(&e.cmd);
            if e.name.is_empty() {
                let stem = Path::new(&e.cmd)
                    .file_stem()
                    .map_or("engine".into(), |s| s.to_string_lossy().into_owned());
                e.name = stem;
            }
            if e.tc.is_empty() {
                return Err(format!(
                    "engine {} has no time control (--tc, tc=, nodes=, depth=, st=)",
                    e.name
                ));
            }
            engines.push(e);
        }
        for i in 1..engines.len() {
            if engines[..i].iter().any(|e| e.name == engines[i].name) {
                engines[i].name = format!("{}-{}", engines[i].name, i + 1);
            }
        }
        if sprt.is_some() && engines.len() != 2 {
            return Err("--sprt needs exactly two engines".into());
        }
        game.rules = rules;
        let mut openings = match &openings_path {
            Some(p) => read_openings(p, rules)?,
            None => default_openings(rules),
        };
        // Without a book, Chess960 arrays are taken in seeded random order.
        let random_order = random_order || (openings_path.is_none() && rules.is_chess960());
        if let Some(n) = opening_plies {
            openings.iter_mut().for_each(|o| o.moves.truncate(n));
        }
        let order = opening_order(openings.len(), random_order.then_some(seed));
        let probe = Schedule::new(engines.len(), tournament, 1, order.clone());
        let per_round = probe.total_games();
        let rounds = match (self.rounds, self.games) {
            (Some(_), Some(_)) => return Err("give --rounds or --games, not both".into()),
            (Some(r), None) => r,
            (None, Some(g)) => g.div_ceil(per_round),
            (None, None) => 1,
        };
        if rounds == 0 {
            return Err("the match has no games".into());
        }
        let (cfg_pgn, resume) = (self.pgn, self.resume);
        let results = self.results.or_else(|| cfg_pgn.as_deref().map(default_results_path));
        if resume && results.is_none() && cfg_pgn.is_none() {
            return Err("--resume needs the --pgn or --results of the match".into());
        }
        Ok(MatchConfig {
            engines,
            openings,
            schedule: Schedule::new(engine_args.len(), tournament, rounds, order),
            concurrency,
            game,
            pgn: cfg_pgn,
            results,
            resume,
            shard: self.shard.unwrap_or((0, 1)),
            sprt,
            event: o.event,
            site: o.site,
            progress: !o.quiet,
            max_failed_starts: 3,
        })
    }
}

/// The schedule of a match, as `--list-games` prints it: a first line `games N pairs P
/// shards-of-pairs` and a line per game of the shard with its number (from 1), pair, round,
/// colours and opening (from 1, in the book).
pub fn list_games(cfg: &MatchConfig) -> String {
    let total = cfg.schedule.total_games();
    let mut out = format!("games {total} pairs {}\n", total.div_ceil(2));
    for g in cfg.schedule.shard(cfg.shard.0, cfg.shard.1) {
        out += &format!(
            "game {} pair {} round {} white {} black {} opening {}\n",
            g.id + 1,
            g.pair,
            g.round,
            cfg.engines[g.white].name,
            cfg.engines[g.black].name,
            g.opening + 1
        );
    }
    out
}

/// Plays the match of `args`; returns the exit code.
pub fn match_command(args: MatchArgs) -> Result<i32, String> {
    let listing = args.list_games;
    let cfg = args.config()?;
    if listing {
        print!("{}", list_games(&cfg));
        return Ok(0);
    }
    let mut tcs: Vec<String> = cfg.engines.iter().map(|e| e.tc.describe()).collect();
    tcs.dedup();
    let mut title = format!("{}, {} games", tcs.join(" vs "), cfg.schedule.total_games());
    if cfg.shard.1 > 1 {
        title += &format!(", shard {}/{}", cfg.shard.0, cfg.shard.1);
    }
    eprintln!(
        "Match: {} ({title}), {} openings, concurrency {}",
        cfg.engines
            .iter()
            .map(|e| e.name.as_str())
            .collect::<Vec<_>>()
            .join(" vs "),
        cfg.openings.len(),
        cfg.concurrency
    );
    let outcome = run_match(&cfg)?;
    println!("{}", outcome.tally.summary(&title, cfg.sprt.as_ref()).trim_end());
    let starts: Vec<String> = cfg
        .engines
        .iter()
        .zip(&outcome.starts)
        .map(|(e, n)| format!("{} {n}", e.name))
        .collect();
    println!(
        "Played {} of {} games of this shard in {:.1}s; engine processes started: {}",
        outcome.tally.games.len(),
        outcome.shard_games,
        outcome.elapsed.as_secs_f64(),
        starts.join(", ")
    );
    match outcome.error {
        Some(e) => Err(format!("match stopped: {e}")),
        None => Ok(0),
    }
}

/// Writes the book of `args`; returns the exit code.
pub fn openings_command(args: OpeningsArgs) -> Result<i32, String> {
    let mut s = GenerateSettings {
        count: args.count,
        plies: args.plies,
        seed: args.seed,
        nodes: args.nodes,
        window: args.window,
        max_candidates: 0,
        rules: args.rules.rules()?,
    };
    let (out, pgn, threads) = (args.out, args.format == BookFormat::Pgn, args.threads);
    s.max_candidates = (s.count * 1000).max(100_000);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| e.to_string())?;
    let start = std::time::Instant::now();
    let book = pool.install(|| generate(&s))?;
    std::fs::write(&out, format_openings(&book, pgn)).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    eprintln!(
        "Wrote {} openings ({} random plies, |score| <= {} cp at {} nodes, seed {}) to {} in {:.1}s",
        book.len(),
        s.plies,
        s.window,
        s.nodes,
        s.seed,
        out.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(0)
}

/// Combines the outputs of `args`; returns the exit code.
pub fn merge_command(args: MergeArgs) -> Result<i32, String> {
    let (inputs, pgn, results) = (args.inputs, args.pgn, args.results);
    let sprt = args.sprt.as_deref().map(parse_sprt).transpose()?;
    let results = results.or_else(|| pgn.as_deref().map(default_results_path));
    let merged = merge(&inputs, pgn.as_deref(), results.as_deref())?;
    let title = format!("{} games merged from {} inputs", merged.tally.games.len(), inputs.len());
    println!("{}", merged.tally.summary(&title, sprt.as_ref()).trim_end());
    if merged.missing > 0 {
        println!(
            "Missing: {} of {} scheduled games",
            merged.missing, merged.header.total_games
        );
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::schedule::Tournament;
    use clap::Parser;
    use std::path::PathBuf;
    use vorpal_engine::{EnPassant, Variant};

    #[derive(clap::Parser)]
    struct Line {
        #[command(flatten)]
        args: MatchArgs,
    }

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    /// The configuration of a match command line, or the error (clap's or the settings').
    fn parse_match(words: &[String]) -> Result<MatchConfig, String> {
        let line = Line::try_parse_from(std::iter::once("vorpal-match").chain(words.iter().map(String::as_str)));
        line.map_err(|e| e.to_string())?.args.config()
    }

    #[test]
    fn parses_a_match() {
        let cfg = parse_match(&args(
            "--engine cmd=/bin/a name=A option.Hash=64 option.UCI_Variant=alice --engine cmd=/bin/b \
             arg=-x tc=40/60+0 --each tc=10+0.1 option.Threads=1 --games 9 --concurrency 3 \
             --sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 --pgn out.pgn --resign movecount=3 score=600 \
             --draw movenumber=30 movecount=8 score=10 --maxmoves 200 --shard 1/2",
        ))
        .unwrap();
        assert_eq!(cfg.engines[0].name, "A");
        assert_eq!(cfg.engines[1].name, "b");
        assert_eq!(cfg.engines[0].options.len(), 3);
        assert_eq!(cfg.engines[0].tc.describe(), "10+0.1");
        assert_eq!(cfg.engines[1].tc.describe(), "40/60");
        assert_eq!(cfg.engines[1].args, vec!["-x"]);
        assert_eq!(cfg.schedule.total_games(), 10);
        assert_eq!(cfg.results, Some(PathBuf::from("out.results")));
        assert_eq!(cfg.sprt.unwrap().model, EloModel::Normalized);
        assert_eq!(cfg.game.adjudication.max_moves, Some(200));
        assert_eq!(cfg.shard, (1, 2));
        assert!(
            parse_match(&args("--engine cmd=a --engine cmd=b")).is_err(),
            "no time control"
        );
        assert!(parse_match(&args("--engine cmd=a --tc 1+0")).is_err(), "one engine");
        assert!(parse_match(&args("--engine cmd=a --engine cmd=b --tc 1+0 --bogus")).is_err());
        let cfg = parse_match(&args("--engine cmd=x/e --engine cmd=y/e --tc nodes=10")).unwrap();
        assert_eq!(
            (cfg.engines[0].name.as_str(), cfg.engines[1].name.as_str()),
            ("e", "e-2")
        );
        let cfg = parse_match(&args(
            "--engine=cmd=a --engine cmd=b --tc=nodes=10 --variant looking-glass --chess960 false \
             --enpassant normal --pgnout=m.pgn --tournament roundrobin --rounds 2 --quiet",
        ))
        .unwrap();
        assert_eq!(
            (cfg.game.rules.variant, cfg.game.rules.chess960),
            (Variant::LookingGlass, false)
        );
        assert_eq!(cfg.game.rules.en_passant, EnPassant::Normal);
        assert_eq!(
            (cfg.pgn, cfg.schedule.total_games(), cfg.progress),
            (Some(PathBuf::from("m.pgn")), 4, false)
        );
        let two = "--engine cmd=a --engine cmd=b --tc 1+0";
        for bad in [
            "--games 2 --rounds 2",
            "--chess960 maybe",
            "--chess960 --variant minialice",
            "--concurrency 0",
            "--tournament swiss",
            "--shard 2/2",
            "--sprt elo0=x",
            "--resign score=600",
            "--move-timeout 0",
        ] {
            let e = parse_match(&args(&format!("{two} {bad}")))
                .err()
                .unwrap_or_else(|| panic!("{bad} accepted"));
            let flag = bad.split_whitespace().next().unwrap();
            assert!(e.contains(flag), "{bad}: {e}");
        }
        let m = Line::try_parse_from([
            "m",
            "--engine",
            "cmd=a",
            "--engine",
            "cmd=b",
            "--tc",
            "1+0",
            "--tournament",
            "gauntlet",
        ]);
        assert_eq!(Tournament::from(m.unwrap().args.tournament), Tournament::Gauntlet);
    }

    #[test]
    fn lists_the_games_of_a_shard() {
        let cfg = parse_match(&args(
            "--engine cmd=a name=A --engine cmd=b name=B --tc nodes=10 --games 6",
        ))
        .unwrap();
        let text = list_games(&cfg);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "games 6 pairs 3");
        assert_eq!(lines[1], "game 1 pair 0 round 1 white A black B opening 1");
        assert_eq!(lines[2], "game 2 pair 0 round 1 white B black A opening 1");
        assert_eq!(lines.len(), 7);
        let cfg = parse_match(&args(
            "--engine cmd=a --engine cmd=b --tc nodes=10 --games 6 --shard 1/3",
        ))
        .unwrap();
        let text = list_games(&cfg);
        let games: Vec<&str> = text.lines().skip(1).map(|l| l.split(' ').nth(1).unwrap()).collect();
        assert_eq!(games, ["3", "4"], "{text}");
    }
}
