//! `vorpal-datagen`: self-play games writing `<fen> | <score> | <result>` lines for tuning.
//!
//! ```text
//! vorpal-datagen --out /work/data/selfplay.txt --games 100000 --nodes 5000 --threads 1 --max-seconds 600
//! ```
//!
//! Rerunning with the same `--out` and settings continues where the last run stopped.

#![forbid(unsafe_code)]

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;
use vorpal_tuning::datagen::{self, DatagenConfig};

const USAGE: &str = "usage: vorpal-datagen --out FILE [options]
  --out FILE            data file (appended; progress kept in FILE.progress)
  --games N             total games wanted, counting recorded ones (default 100; 10^9 with --max-seconds)
  --threads N           worker threads, one search thread each (default 1)
  --nodes N             nodes per move (default 5000)
  --depth D             depth per move (instead of, or with, --nodes)
  --hash MB             hash per worker (default 4)
  --seed S              base seed (default 1)
  --random-plies K      random opening plies (default 8)
  --opening-window CP   re-roll openings scoring beyond this (default 400, 0 = off)
  --skip-plies N        plies after the opening not written (default 8)
  --max-plies N         adjudicate a draw at this length (default 400)
  --resign CP PLIES     resign when |score| >= CP for PLIES plies (default 1000 6, PLIES 0 = off)
  --draw CP PLIES AFTER draw when |score| <= CP for PLIES plies after ply AFTER (default 10 12 80)
  --max-seconds S       start no new game after S seconds";

fn parse<T: std::str::FromStr>(args: &mut impl Iterator<Item = String>, name: &str) -> Result<T, String> {
    let v = args.next().ok_or_else(|| format!("{name} needs a value"))?;
    v.parse().map_err(|_| format!("bad value '{v}' for {name}"))
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
            "--games" => games = Some(parse(a, &arg)?),
            "--threads" => cfg.threads = parse(a, &arg)?,
            "--nodes" => {
                cfg.nodes = Some(parse(a, &arg)?);
                nodes_given = true;
            }
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
            "--max-seconds" => cfg.max_time = Some(Duration::from_secs_f64(parse(a, &arg)?)),
            "-h" | "--help" => return Err(USAGE.into()),
            other => return Err(format!("unknown argument '{other}'\n{USAGE}")),
        }
    }
    cfg.out = out.ok_or_else(|| format!("--out is required\n{USAGE}"))?;
    if depth_given && !nodes_given {
        cfg.nodes = None;
    }
    cfg.games = games.unwrap_or(if cfg.max_time.is_some() { 1_000_000_000 } else { 100 });
    if cfg.threads == 0 {
        return Err("--threads must be at least 1".into());
    }
    Ok(cfg)
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info")).init();
    let cfg = match config(std::env::args().skip(1).collect()) {
        Ok(cfg) => cfg,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    log::info!("settings: {} threads={}", cfg.signature(), cfg.threads);
    match datagen::run(&cfg) {
        Ok(s) => {
            let secs = s.elapsed.as_secs_f64();
            println!(
                "games {} (recorded in total {}), +{} ={} -{} (White view), {} plies, {} positions in {:.1} s",
                s.games, s.games_total, s.results[0], s.results[1], s.results[2], s.plies, s.positions, secs
            );
            println!(
                "rate: {:.1} positions/s, {:.2} games/s, {:.1} plies/game, {:.1} positions/game",
                s.positions_per_second(),
                s.games as f64 / secs.max(1e-9),
                s.plies as f64 / s.games.max(1) as f64,
                s.positions as f64 / s.games.max(1) as f64
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("vorpal-datagen: {e}");
            ExitCode::FAILURE
        }
    }
}
