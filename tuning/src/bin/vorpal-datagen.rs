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
//! errors exit with status 2, failures of a run with status 1. The command line:
//! [`vorpal_tuning::datagen::args`].

#![forbid(unsafe_code)]

use clap::{Parser, Subcommand};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;
use vorpal_tuning::datagen::args::{ConvertArgs, DumpArgs, GenerateArgs, MergeArgs, RelabelArgs};
use vorpal_tuning::datagen::{self, tools};

/// Self-play training data for the evaluation and the network, and tools for packed files
#[derive(Parser, Debug)]
#[command(
    name = "vorpal-datagen",
    version = vorpal_build_id::VERSION,
    args_conflicts_with_subcommands = true,
    args_override_self = true,
    subcommand_negates_reqs = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    generate: GenerateArgs,
}

/// The tools besides generation.
#[derive(Subcommand, Debug)]
enum Command {
    Convert(ConvertArgs),
    Merge(MergeArgs),
    Dump(DumpArgs),
    Relabel(RelabelArgs),
}

/// Prints a line on stdout; a closed pipe is not an error worth a panic.
fn say(text: String) {
    let _ = writeln!(io::stdout().lock(), "{text}");
}

/// Prints a line on stderr, ignoring a closed pipe.
fn warn(text: String) {
    let _ = writeln!(io::stderr().lock(), "{text}");
}

/// A failed run (status 1; usage errors are clap's, status 2).
struct Failure(String);

fn convert(args: ConvertArgs) -> Result<(), Failure> {
    let (input, out) = (&args.input, args.out.display());
    let s = tools::convert(input, &args.out).map_err(|e| Failure(e.to_string()))?;
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

fn merge(args: MergeArgs) -> Result<(), Failure> {
    let shards: Vec<&Path> = args.shards.iter().map(PathBuf::as_path).collect();
    let out = args.out.display();
    let s = tools::merge(&args.out, &shards).map_err(|e| Failure(e.to_string()))?;
    say(format!(
        "merged {} records of {} shards into {out}",
        s.records, s.shards
    ));
    Ok(())
}

fn dump(args: DumpArgs) -> Result<(), Failure> {
    let mut stdout = io::BufWriter::new(io::stdout().lock());
    match tools::dump(&args.input, &mut stdout) {
        Ok(_) => Ok(()),
        // A reader that stopped early (`| head`) is no failure.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Failure(e.to_string())),
    }
}

fn relabel(args: RelabelArgs) -> Result<(), Failure> {
    let cfg = args.config();
    let out = args.out.display();
    let mut last = std::time::Instant::now();
    let s = datagen::relabel::relabel(&args.input, &args.out, &cfg, &mut |done, total| {
        if last.elapsed() >= Duration::from_secs(5) || done == total {
            last = std::time::Instant::now();
            warn(format!("relabel: {done} of {total} positions"));
        }
    })
    .map_err(|e| Failure(e.to_string()))?;
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

fn generate(args: GenerateArgs) -> Result<(), Failure> {
    let cfg = args.config();
    log::info!(
        "settings: {} threads={} format={}",
        cfg.signature(),
        cfg.threads,
        cfg.format
    );
    let s = datagen::run(&cfg).map_err(|e| Failure(e.to_string()))?;
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
    let outcome = match Cli::parse() {
        Cli {
            command: None,
            generate: args,
        } => generate(args),
        Cli {
            command: Some(command), ..
        } => match command {
            Command::Convert(args) => convert(args),
            Command::Merge(args) => merge(args),
            Command::Dump(args) => dump(args),
            Command::Relabel(args) => relabel(args),
        },
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure(e)) => {
            warn(format!("vorpal-datagen: {e}"));
            ExitCode::FAILURE
        }
    }
}
