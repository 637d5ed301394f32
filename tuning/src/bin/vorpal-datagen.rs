//! `vorpal-datagen`: self-play games writing `<fen> | <score> | <result>` lines and packed
//! 32-byte records for tuning and NNUE training; `convert` and `merge` for the packed files.
//!
//! ```text
//! vorpal-datagen --out data/selfplay --games 100000 --nodes 5000 --threads 1 --max-seconds 600
//! vorpal-datagen convert old.txt old.bin
//! vorpal-datagen merge all.bin data/shard-1.bin data/shard-2.bin
//! vorpal-datagen relabel held.bin held-deep.bin --nodes 100000 --threads 2
//! ```
//!
//! Rerunning with the same `--out` and settings continues where the last run stopped. Usage
//! errors exit with status 2, failures of a run with status 1.

#![forbid(unsafe_code)]

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;
use vorpal_tuning::datagen::tools;
use vorpal_tuning::datagen::{self, DatagenConfig};

const USAGE: &str = "usage: vorpal-datagen --out PATH [options]
       vorpal-datagen convert IN.txt OUT.bin     text data to packed records
       vorpal-datagen merge OUT.bin SHARD.bin... concatenate packed files
       vorpal-datagen dump IN.bin                packed records as text lines on stdout
       vorpal-datagen relabel IN.bin OUT.bin (--nodes N | --depth D) [--max-nodes N]
                      [--threads N] [--hash MB] [--eval nnue|hce]
                                                 every position searched again (deeper), its
                                                 score replaced, its result kept
  --out PATH            text data PATH, packed data PATH.bin, progress PATH.progress (appended)
  --format F            text, packed or both (default both)
  --games N             total games wanted, counting recorded ones (default 100; no limit with --max-seconds)
  --threads N           worker threads, one search thread each (default 1)
  --nodes N             soft node limit per move: no iteration starts past it (default 5000)
  --max-nodes N         hard node cap per move; a cut iteration is dropped (default 4 x --nodes)
  --depth D             depth per move (instead of, or with, --nodes)
  --hash MB             hash per worker (default 4)
  --seed S              base seed (default 1)
  --random-plies K      random opening plies (default 8)
  --opening-window CP   re-roll openings scoring beyond this (default 400, 0 = off)
  --skip-plies N        plies after the opening not written (default 8)
  --max-score CP        skip positions with |score| above CP (default 3000, 0 = no bound)
  --eval nnue|hce       search with the built-in network or the hand-crafted evaluation
                        (default nnue)
  --max-plies N         adjudicate a draw at this length (default 400)
  --resign CP PLIES     resign when |score| >= CP for PLIES plies (default 1000 6, PLIES 0 = off)
  --draw CP PLIES AFTER draw when |score| <= CP for PLIES plies after ply AFTER (default 10 12 80)
  --max-seconds S       start no new game after S seconds
  --progress-seconds S  progress line on stderr every S seconds (default 5)";

fn parse<T: std::str::FromStr>(args: &mut impl Iterator<Item = String>, name: &str) -> Result<T, String> {
    let v = args.next().ok_or_else(|| format!("{name} needs a value"))?;
    v.parse().map_err(|_| format!("bad value '{v}' for {name}"))
}

/// A duration in seconds (finite, not negative).
fn seconds(args: &mut impl Iterator<Item = String>, name: &str) -> Result<Duration, String> {
    let s: f64 = parse(args, name)?;
    Duration::try_from_secs_f64(s).map_err(|_| format!("bad value '{s}' for {name}"))
}

fn config(args: Vec<String>) -> Result<DatagenConfig, String> {
    let mut cfg = DatagenConfig::default();
    let mut out = None;
    let mut games = None;
    let mut nodes_given = false;
    let mut depth_given = false;
    let mut it = args.into_iter();
    while let Some(arg) = it.next() {
        let a = &mut it;
        match arg.as_str() {
            "--out" => out = Some(PathBuf::from(parse::<String>(a, &arg)?)),
            "--format" => cfg.format = parse::<String>(a, &arg)?.parse()?,
            "--max-score" => cfg.max_score = parse(a, &arg)?,
            "--eval" => {
                cfg.hand_crafted = match parse::<String>(a, &arg)?.as_str() {
                    "hce" => true,
                    "nnue" => false,
                    other => return Err(format!("--eval: '{other}' is not hce or nnue\n{USAGE}")),
                }
            }
            "--progress-seconds" => cfg.progress_interval = seconds(a, &arg)?,
            "--games" => games = Some(parse(a, &arg)?),
            "--threads" => cfg.threads = parse(a, &arg)?,
            "--nodes" => {
                cfg.nodes = Some(parse(a, &arg)?);
                nodes_given = true;
            }
            "--max-nodes" => cfg.max_nodes = Some(parse(a, &arg)?),
            "--depth" => {
                cfg.depth = Some(parse(a, &arg)?);
                depth_given = true;
            }
            "--hash" => cfg.hash_mb = parse(a, &arg)?,
            "--seed" => cfg.seed = parse(a, &arg)?,
            "--random-plies" => cfg.random_plies = parse(a, &arg)?,
            "--opening-window" => cfg.opening_window = parse(a, &arg)?,
            "--skip-plies" => cfg.skip_plies = parse(a, &arg)?,
            "--max-plies" => cfg.max_plies = parse(a, &arg)?,
            "--resign" => {
                cfg.resign_cp = parse(a, &arg)?;
                cfg.resign_plies = parse(a, &arg)?;
            }
            "--draw" => {
                cfg.draw_cp = parse(a, &arg)?;
                cfg.draw_plies = parse(a, &arg)?;
                cfg.draw_after = parse(a, &arg)?;
            }
            "--max-seconds" => cfg.max_time = Some(seconds(a, &arg)?),
            "-h" | "--help" => return Err(USAGE.into()),
            other => return Err(format!("unknown argument '{other}'\n{USAGE}")),
        }
    }
    cfg.out = out.ok_or_else(|| format!("--out is required\n{USAGE}"))?;
    if depth_given && !nodes_given {
        cfg.nodes = None;
    }
    cfg.games = games.unwrap_or(if cfg.max_time.is_some() { u64::MAX } else { 100 });
    if cfg.threads == 0 {
        return Err("--threads must be at least 1".into());
    }
    Ok(cfg)
}

/// Prints a line on stdout; a closed pipe is not an error worth a panic.
fn say(text: String) {
    let _ = writeln!(io::stdout().lock(), "{text}");
}

/// Prints a line on stderr, ignoring a closed pipe.
fn warn(text: String) {
    let _ = writeln!(io::stderr().lock(), "{text}");
}

/// A usage error (status 2) or a failed run (status 1).
enum Failure {
    Usage(String),
    Run(String),
}

fn convert(args: &[String]) -> Result<(), Failure> {
    let [input, out] = args else {
        return Err(Failure::Usage(format!("convert needs IN.txt OUT.bin\n{USAGE}")));
    };
    let s = tools::convert(Path::new(input), Path::new(out)).map_err(|e| Failure::Run(e.to_string()))?;
    for reason in &s.skip_reasons {
        warn(format!("skipped {reason}"));
    }
    if s.skipped > s.skip_reasons.len() as u64 {
        warn(format!(
            "... and {} more skipped lines",
            s.skipped - s.skip_reasons.len() as u64
        ));
    }
    say(format!(
        "converted {} of {} lines to {out}, skipped {}",
        s.converted, s.lines, s.skipped
    ));
    Ok(())
}

fn merge(args: &[String]) -> Result<(), Failure> {
    let Some((out, shards)) = args.split_first().filter(|(_, shards)| !shards.is_empty()) else {
        return Err(Failure::Usage(format!(
            "merge needs OUT.bin and at least one shard\n{USAGE}"
        )));
    };
    let shards: Vec<&Path> = shards.iter().map(Path::new).collect();
    let s = tools::merge(Path::new(out), &shards).map_err(|e| Failure::Run(e.to_string()))?;
    say(format!(
        "merged {} records of {} shards into {out}",
        s.records, s.shards
    ));
    Ok(())
}

fn dump(args: &[String]) -> Result<(), Failure> {
    let [input] = args else {
        return Err(Failure::Usage(format!("dump needs IN.bin\n{USAGE}")));
    };
    let mut stdout = io::BufWriter::new(io::stdout().lock());
    match tools::dump(Path::new(input), &mut stdout) {
        Ok(_) => Ok(()),
        // A reader that stopped early (`| head`) is no failure.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Failure::Run(e.to_string())),
    }
}

fn relabel(args: &[String]) -> Result<(), Failure> {
    let usage = |e: String| Failure::Usage(format!("{e}\n{USAGE}"));
    let [input, out, options @ ..] = args else {
        return Err(usage("relabel needs IN.bin OUT.bin".into()));
    };
    // The limits come from the same settings as generation's (soft node limit, hard cap, depth).
    let mut limits_of = DatagenConfig {
        nodes: None,
        ..DatagenConfig::default()
    };
    let mut cfg = datagen::relabel::RelabelConfig {
        limits: Default::default(),
        threads: 1,
        hash_mb: 16,
        hand_crafted: false,
    };
    let mut it = options.iter().cloned();
    while let Some(arg) = it.next() {
        let a = &mut it;
        match arg.as_str() {
            "--nodes" => limits_of.nodes = Some(parse(a, &arg).map_err(usage)?),
            "--max-nodes" => limits_of.max_nodes = Some(parse(a, &arg).map_err(usage)?),
            "--depth" => limits_of.depth = Some(parse(a, &arg).map_err(usage)?),
            "--threads" => cfg.threads = parse(a, &arg).map_err(usage)?,
            "--hash" => cfg.hash_mb = parse(a, &arg).map_err(usage)?,
            "--eval" => {
                cfg.hand_crafted = match parse::<String>(a, &arg).map_err(usage)?.as_str() {
                    "hce" => true,
                    "nnue" => false,
                    other => return Err(usage(format!("--eval: '{other}' is not hce or nnue"))),
                }
            }
            other => return Err(usage(format!("relabel: unknown argument '{other}'"))),
        }
    }
    if limits_of.nodes.is_none() && limits_of.depth.is_none() {
        return Err(usage(
            "relabel needs --nodes or --depth (deeper than the data was made with)".into(),
        ));
    }
    if cfg.threads == 0 {
        return Err(usage("--threads must be at least 1".into()));
    }
    cfg.limits = limits_of.limits();
    let mut last = std::time::Instant::now();
    let s = datagen::relabel::relabel(Path::new(input), Path::new(out), &cfg, &mut |done, total| {
        if last.elapsed() >= Duration::from_secs(5) || done == total {
            last = std::time::Instant::now();
            warn(format!("relabel: {done} of {total} positions"));
        }
    })
    .map_err(|e| Failure::Run(e.to_string()))?;
    say(format!(
        "relabelled {} of {} positions into {out} ({} dropped), {} nodes in {:.1} s ({:.1} positions/s)",
        s.written,
        s.records,
        s.dropped,
        s.nodes,
        s.seconds,
        s.records as f64 / s.seconds.max(1e-9)
    ));
    Ok(())
}

fn generate(args: Vec<String>) -> Result<(), Failure> {
    let cfg = config(args).map_err(Failure::Usage)?;
    log::info!(
        "settings: {} threads={} format={}",
        cfg.signature(),
        cfg.threads,
        cfg.format
    );
    let s = datagen::run(&cfg).map_err(|e| Failure::Run(e.to_string()))?;
    let secs = s.elapsed.as_secs_f64();
    say(format!(
        "games {} (recorded in total {}), +{} ={} -{} (White view), {} plies, {} positions in {:.1} s",
        s.games, s.games_total, s.results[0], s.results[1], s.results[2], s.plies, s.positions, secs
    ));
    say(format!(
        "rate: {:.1} positions/s, {:.2} games/s, {:.1} plies/game, {:.1} positions/game",
        s.positions_per_second(),
        s.games as f64 / secs.max(1e-9),
        s.plies as f64 / s.games.max(1) as f64,
        s.positions as f64 / s.games.max(1) as f64
    ));
    Ok(())
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info")).init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let outcome = match args.first().map(String::as_str) {
        Some("convert") => convert(&args[1..]),
        Some("merge") => merge(&args[1..]),
        Some("dump") => dump(&args[1..]),
        Some("relabel") => relabel(&args[1..]),
        _ => generate(args),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(e)) => {
            warn(e);
            ExitCode::from(2)
        }
        Err(Failure::Run(e)) => {
            warn(format!("vorpal-datagen: {e}"));
            ExitCode::FAILURE
        }
    }
}
