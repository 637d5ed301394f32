//! The `vorpal-match` command line: a match (default), `openings` (generate a book) and
//! `merge` (combine shard outputs). Options that take `key=value` settings (`--engine`,
//! `--each`, `--sprt`, `--resign`, `--draw`) read every following token up to the next
//! `--option`.

use crate::matches::adjudication::{Adjudication, DrawRule, ResignRule};
use crate::matches::gameplay::GameSettings;
use crate::matches::matchrunner::{run_match, MatchConfig};
use crate::matches::merge::merge;
use crate::matches::openings::{
    default_openings, format_openings, generate, opening_order, read_openings, GenerateSettings,
};
use crate::matches::output::default_results_path;
use crate::matches::schedule::{parse_shard, Schedule, Tournament};
use crate::matches::stats::{EloModel, Sprt};
use std::path::{Path, PathBuf};
use std::time::Duration;
use vorpal_client::engine_process::EngineConfig;
use vorpal_client::engine_settings::{engine_settings, resolve_cmd};
use vorpal_engine::{EnPassant, Rules, Variant};

/// Usage text.
pub const USAGE: &str = "\
vorpal-match: Alice chess engine matches refereed by Vorpal's rules core

USAGE
  vorpal-match --engine cmd=PATH [name=N] [dir=D] [arg=A]... [option.K=V]... [tc=...]
               --engine ... [OPTIONS]
  vorpal-match openings --count N --plies K [--seed S] --out FILE [--nodes N] [--window CP]
               [--format fen|pgn] [--threads T] [--variant NAME] [--chess960] [--enpassant MODE]
  vorpal-match merge --pgn OUT.pgn [--results OUT.results] INPUT.pgn|INPUT.results...
  vorpal-match spsa --engine cmd=PATH ... --tc ... --pairs N [--batch P] [--params a,b|all]
               [--r-end R] [--alpha A] [--gamma G] [--seed S] --state FILE [--resume]
               [MATCH OPTIONS]      (tunes a `--features tune` build; see docs/tuning.md)

ENGINE SETTINGS (after --engine, or --each for all engines)
  cmd=PATH  name=NAME  dir=DIR  arg=ARG (repeatable)  option.NAME=VALUE (setoption)
  tc=10+0.1 | tc=40/60+0 | st=SECONDS | movetime=MS | nodes=N | depth=N

MATCH OPTIONS
  --tc SPEC               time control for every engine (same as --each tc=SPEC)
  --variant NAME          rules refereed and sent as UCI_Variant: alice, lookingglass, ladyalice,
                          odonohue, duo, minialice, alice3                [alice]
  --chess960              Chess960 castling (UCI_Chess960); without --openings every game
                          starts from one of the 960 arrays, in seeded random order
  --enpassant off|normal|double   en passant option (AliceEnPassant)      [off]
  --openings FILE         FEN/EPD lines (any FEN form), move lists or PGN; default: start position
  --order sequential|random   opening order (random: shuffled by --seed)   [sequential]
  --opening-plies N       use at most N plies of each book line
  --seed S                seed for the opening order                      [1]
  --rounds N | --games N  rounds (one opening, every pairing, colours swapped) or total games
  --tournament round-robin|gauntlet                                     [round-robin]
  --concurrency N         games in parallel                               [1]
  --pgn FILE              PGN output (results go to FILE with .results unless --results)
  --results FILE          results output (one line per game)
  --resume                continue the match found in the outputs
  --shard i/n             play only pairs p with p % n == i (merge the outputs afterwards)
  --sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 [model=normalized|logistic]
  --resign movecount=M score=CP    --draw movenumber=K movecount=M score=CP   --maxmoves N
  --timemargin MS         overrun tolerated before a loss on time         [100]
  --move-timeout SECONDS  longest wait for an untimed move (nodes/depth)  [60]
  --startup-timeout SECONDS   longest wait for uciok/readyok              [10]
  --event NAME  --site NAME   PGN tags
  --quiet                 no per-game progress lines

  RUST_LOG=trace shows the UCI traffic; engines' stderr and illegal moves are logged at warn.
  Progress goes to stderr, the final summary to stdout. Exit code 2 on errors.
";

/// Runs the command line `args` (without the program name); returns the exit code. (The
/// `spsa` command plays its matches through this runner; `vorpal-match` sends it to
/// [`crate::spsa::cli`].)
pub fn run(args: &[String]) -> i32 {
    exit_code(match args.first().map(String::as_str) {
        Some("openings") => openings_command(&args[1..]),
        Some("merge") => merge_command(&args[1..]),
        Some("help" | "--help" | "-h") | None => {
            print!("{USAGE}");
            Ok(0)
        }
        _ => match_command(args),
    })
}

/// The exit code of a command's result: its own, or 2 after printing the error.
pub fn exit_code(result: Result<i32, String>) -> i32 {
    result.unwrap_or_else(|e| {
        eprintln!("vorpal-match: {e}");
        2
    })
}

/// Splits `args` into options, each with the values following it up to the next `--option`.
pub(crate) fn options(args: &[String]) -> Result<Vec<(String, Vec<String>)>, String> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for a in args {
        if let Some(name) = a.strip_prefix("--") {
            out.push((name.to_string(), Vec::new()));
        } else if let Some((_, values)) = out.last_mut() {
            values.push(a.clone());
        } else {
            out.push((String::new(), vec![a.clone()]));
        }
    }
    Ok(out)
}

/// The single value of option `name`.
pub(crate) fn single<'a>(name: &str, values: &'a [String]) -> Result<&'a str, String> {
    match values {
        [v] => Ok(v),
        _ => Err(format!("--{name} takes one value")),
    }
}

pub(crate) fn number<T: std::str::FromStr>(name: &str, values: &[String]) -> Result<T, String> {
    let v = single(name, values)?;
    v.parse().map_err(|_| format!("--{name}: bad number '{v}'"))
}

fn seconds(name: &str, values: &[String]) -> Result<Duration, String> {
    let v: f64 = number(name, values)?;
    if !(v.is_finite() && v > 0.0) {
        return Err(format!("--{name} must be positive"));
    }
    Ok(Duration::from_secs_f64(v))
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

/// Applies `--variant NAME`, `--chess960` or `--enpassant off|normal|double` to `rules`.
fn rule_option(rules: Rules, name: &str, values: &[String]) -> Result<Rules, String> {
    Ok(match name {
        "variant" => Rules {
            variant: single(name, values)?.parse::<Variant>()?,
            ..rules
        },
        "chess960" => match values {
            [] => rules.with_chess960(true),
            [v] => match v.as_str() {
                "true" | "on" | "1" => rules.with_chess960(true),
                "false" | "off" | "0" => rules.with_chess960(false),
                _ => return Err(format!("--chess960 takes true or false, not '{v}'")),
            },
            _ => return Err("--chess960 takes at most one value".into()),
        },
        _ => rules.with_ep(single(name, values)?.parse::<EnPassant>()?),
    })
}

/// Refuses rule options the variant does not have.
fn check_rules(rules: Rules) -> Result<(), String> {
    if rules.chess960 && !rules.is_chess960() {
        return Err(format!("--chess960: {} has no castling", rules.variant.name()));
    }
    if rules.en_passant != rules.ep_mode() {
        return Err(format!("--enpassant: {} has no en passant", rules.variant.name()));
    }
    Ok(())
}

/// Builds the match configuration from the command line.
pub fn parse_match(args: &[String]) -> Result<MatchConfig, String> {
    let mut engine_args: Vec<Vec<String>> = Vec::new();
    let mut each: Vec<String> = Vec::new();
    let mut openings_path = None;
    let mut random_order = false;
    let mut opening_plies = None;
    let mut seed = 1u64;
    let (mut rounds, mut games) = (None, None);
    let mut tournament = Tournament::RoundRobin;
    let mut game = GameSettings::default();
    let mut adjudication = Adjudication::default();
    let mut cfg_pgn = None;
    let mut cfg_results = None;
    let mut resume = false;
    let mut shard = (0, 1);
    let mut sprt = None;
    let mut concurrency = 1usize;
    let mut event = "vorpal-match".to_string();
    let mut site = "?".to_string();
    let mut progress = true;
    let mut rules = Rules::default();
    for (name, values) in options(args)? {
        match name.as_str() {
            "engine" => engine_args.push(values),
            "each" => each.extend(values),
            "tc" => each.push(format!("tc={}", single(&name, &values)?)),
            "variant" | "chess960" | "enpassant" => rules = rule_option(rules, &name, &values)?,
            "openings" => openings_path = Some(PathBuf::from(single(&name, &values)?)),
            "order" => {
                random_order = match single(&name, &values)? {
                    "random" => true,
                    "sequential" => false,
                    o => return Err(format!("--order must be sequential or random, not '{o}'")),
                }
            }
            "opening-plies" => opening_plies = Some(number::<usize>(&name, &values)?),
            "seed" => seed = number(&name, &values)?,
            "rounds" => rounds = Some(number::<u64>(&name, &values)?),
            "games" => games = Some(number::<u64>(&name, &values)?),
            "tournament" => {
                tournament = match single(&name, &values)? {
                    "round-robin" | "roundrobin" => Tournament::RoundRobin,
                    "gauntlet" => Tournament::Gauntlet,
                    t => return Err(format!("--tournament must be round-robin or gauntlet, not '{t}'")),
                }
            }
            "concurrency" => concurrency = number(&name, &values)?,
            "pgn" | "pgnout" => cfg_pgn = Some(PathBuf::from(single(&name, &values)?)),
            "results" => cfg_results = Some(PathBuf::from(single(&name, &values)?)),
            "resume" => resume = true,
            "shard" => shard = parse_shard(single(&name, &values)?)?,
            "sprt" => sprt = Some(parse_sprt(&values)?),
            "resign" => adjudication.resign = Some(ResignRule::parse(&values)?),
            "draw" => adjudication.draw = Some(DrawRule::parse(&values)?),
            "maxmoves" => adjudication.max_moves = Some(number(&name, &values)?),
            "timemargin" => game.margin = Duration::from_millis(number(&name, &values)?),
            "move-timeout" => game.move_timeout = seconds(&name, &values)?,
            "startup-timeout" => game.startup_timeout = seconds(&name, &values)?,
            "event" => event = single(&name, &values)?.to_string(),
            "site" => site = single(&name, &values)?.to_string(),
            "quiet" => progress = false,
            "" => return Err(format!("unexpected argument '{}'", values.join(" "))),
            _ => return Err(format!("unknown option --{name} (see vorpal-match help)")),
        }
    }
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
    if concurrency == 0 {
        return Err("--concurrency must be at least 1".into());
    }
    if sprt.is_some() && engines.len() != 2 {
        return Err("--sprt needs exactly two engines".into());
    }
    check_rules(rules)?;
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
    let rounds = match (rounds, games) {
        (Some(_), Some(_)) => return Err("give --rounds or --games, not both".into()),
        (Some(r), None) => r,
        (None, Some(g)) => g.div_ceil(per_round),
        (None, None) => 1,
    };
    if rounds == 0 {
        return Err("the match has no games".into());
    }
    let results = cfg_results.or_else(|| cfg_pgn.as_deref().map(default_results_path));
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
        shard,
        sprt,
        event,
        site,
        progress,
        max_failed_starts: 3,
    })
}

fn match_command(args: &[String]) -> Result<i32, String> {
    let cfg = parse_match(args)?;
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

fn openings_command(args: &[String]) -> Result<i32, String> {
    let mut s = GenerateSettings {
        count: 0,
        plies: 8,
        seed: 1,
        nodes: 1000,
        window: 100,
        max_candidates: 0,
        rules: Rules::default(),
    };
    let mut out = None;
    let mut pgn = false;
    let mut threads = 0usize;
    for (name, values) in options(args)? {
        match name.as_str() {
            "count" => s.count = number(&name, &values)?,
            "plies" => s.plies = number(&name, &values)?,
            "seed" => s.seed = number(&name, &values)?,
            "nodes" => s.nodes = number(&name, &values)?,
            "window" => s.window = number(&name, &values)?,
            "out" => out = Some(PathBuf::from(single(&name, &values)?)),
            "threads" => threads = number(&name, &values)?,
            "variant" | "chess960" | "enpassant" => s.rules = rule_option(s.rules, &name, &values)?,
            "format" => {
                pgn = match single(&name, &values)? {
                    "pgn" => true,
                    "fen" | "epd" => false,
                    f => return Err(format!("--format must be fen or pgn, not '{f}'")),
                }
            }
            _ => return Err(format!("openings: unknown option --{name}")),
        }
    }
    if s.count == 0 {
        return Err("openings: --count N is required".into());
    }
    let out = out.ok_or("openings: --out FILE is required")?;
    check_rules(s.rules)?;
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

fn merge_command(args: &[String]) -> Result<i32, String> {
    let mut inputs = Vec::new();
    let (mut pgn, mut results) = (None, None);
    let mut sprt = None;
    for (name, values) in options(args)? {
        match name.as_str() {
            "" => inputs.extend(values.iter().map(PathBuf::from)),
            "pgn" | "out" => {
                let (first, rest) = values.split_first().ok_or("--pgn needs a file")?;
                pgn = Some(PathBuf::from(first));
                inputs.extend(rest.iter().map(PathBuf::from));
            }
            "results" => {
                let (first, rest) = values.split_first().ok_or("--results needs a file")?;
                results = Some(PathBuf::from(first));
                inputs.extend(rest.iter().map(PathBuf::from));
            }
            "sprt" => sprt = Some(parse_sprt(&values)?),
            _ => return Err(format!("merge: unknown option --{name}")),
        }
    }
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

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
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
    }
}
