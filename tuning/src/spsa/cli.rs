//! `vorpal-match spsa`: SPSA of the search parameters, every batch of game pairs played by the
//! match runner between two copies of one engine built with `--features tune` (which lists the
//! parameters as UCI spin options). The match options (`--tc`, `--openings`, `--concurrency`,
//! `--variant`, adjudication, margins: [`crate::matches::args::MatchOptions`]) mean what they
//! mean for a match; those of a match's outputs and schedule are not taken; the state file is
//! rewritten after every batch, so `--resume` continues an interrupted run exactly.

use crate::matches::args::{MatchArgs, MatchOptions};
use crate::matches::matchrunner::{run_match, MatchConfig};
use crate::matches::openings::SplitMix64;
use crate::matches::schedule::{Schedule, Tournament};
use crate::spsa::args::SpsaArgs;
use crate::spsa::{run, Perturbation, Spsa, SpsaParam};
use std::path::Path;
use vorpal_client::engine_process::EngineProcess;
use vorpal_engine::search::SearchParams;

/// Names of the two engines in the batches' statistics.
const PLUS: &str = "spsa-plus";
const MINUS: &str = "spsa-minus";

/// The parameters named by `--params` (comma-separated, or `all`).
fn chosen_params(list: &str) -> Result<Vec<SpsaParam>, String> {
    if list == "all" {
        // On/off switches are decided by matches, not tuned.
        let tuned = SearchParams::SPECS.iter().filter(|s| !s.is_switch());
        return Ok(tuned.map(SpsaParam::from_spec).collect());
    }
    list.split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map(|name| {
            SearchParams::SPECS
                .iter()
                .find(|s| s.name == name)
                .map(SpsaParam::from_spec)
                .ok_or_else(|| {
                    let names: Vec<&str> = SearchParams::SPECS.iter().map(|s| s.name).collect();
                    format!("spsa: unknown parameter '{name}' (known: {})", names.join(", "))
                })
        })
        .collect()
}

/// Writes `text` to `path` through a temporary file, so a crash never leaves half a state.
fn save(path: &Path, text: &str) -> Result<(), String> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("cannot replace {}: {e}", path.display()))
}

/// Plays one batch: `pairs` game pairs between the two engines of `base` (already given the
/// perturbation's values) on openings drawn by seed; returns the first engine's points minus
/// the second's.
fn play_batch(base: &MatchConfig, seed: u64, pert: &Perturbation, pairs: u64) -> Result<f64, String> {
    let mut cfg = base.clone();
    for (engine, name) in cfg.engines.iter_mut().zip([PLUS, MINUS]) {
        engine.name = name.to_string();
    }
    let mut rng = SplitMix64::new(seed ^ 0x5350_5341 ^ pert.pairs_done.wrapping_mul(0x2545_F491_4F6C_DD1D));
    let order: Vec<usize> = (0..pairs).map(|_| rng.below(cfg.openings.len())).collect();
    cfg.schedule = Schedule::new(2, Tournament::RoundRobin, pairs, order);
    let outcome = run_match(&cfg)?;
    if let Some(e) = outcome.error {
        return Err(format!("spsa batch stopped: {e}"));
    }
    let (plus, _) = outcome.tally.standing(PLUS);
    let (minus, _) = outcome.tally.standing(MINUS);
    Ok(plus - minus)
}

/// Refuses an engine that does not list every tuned parameter as an option (a build without
/// the `tune` feature would silently ignore them).
fn check_engine_lists(base: &MatchConfig, params: &[SpsaParam]) -> Result<(), String> {
    let engine = EngineProcess::start(&base.engines[0], base.game.rules, base.game.startup_timeout)
        .map_err(|e| format!("spsa: cannot start the engine: {e}"))?;
    let missing: Vec<&str> = params
        .iter()
        .map(|p| p.name.as_str())
        .filter(|n| !engine.has_option(n))
        .collect();
    engine.shutdown(base.game.startup_timeout);
    if missing.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "spsa: the engine does not list {} (build it with `--features tune`)",
            missing.join(", ")
        ))
    }
}

/// The match every batch is drawn from: the one engine of `options` against itself.
fn batch_config(mut options: MatchOptions) -> Result<MatchConfig, String> {
    let [engine] = options.engines.0.as_slice() else {
        return Err("spsa: give exactly one --engine (a `--features tune` build); it plays itself".into());
    };
    let copy = engine.clone();
    options.engines.0.push(copy);
    let mut base = MatchArgs {
        options,
        seed: 1,
        rounds: None,
        games: None,
        tournament: Default::default(),
        pgn: None,
        results: None,
        resume: false,
        shard: None,
        sprt: None,
        list_games: false,
    }
    .config()?;
    base.progress = false;
    Ok(base)
}

/// Runs `vorpal-match spsa` with its parsed command line.
pub fn spsa_command(args: SpsaArgs) -> Result<i32, String> {
    let settings = args.settings();
    let params = chosen_params(&args.params)?;
    let (state, resume) = (args.state, args.resume);
    let base = batch_config(args.options)?;
    let mut spsa = Spsa::new(settings, params)?;
    check_engine_lists(&base, &spsa.params)?;
    if resume {
        let text = std::fs::read_to_string(&state).map_err(|e| format!("cannot read {}: {e}", state.display()))?;
        spsa.restore(&text)?;
        eprintln!(
            "spsa: resuming after {} game pairs: {}",
            spsa.pairs_done,
            spsa.values_line()
        );
    } else if state.exists() {
        return Err(format!(
            "spsa: {} exists; give --resume or another --state",
            state.display()
        ));
    }
    let names: Vec<String> = spsa.params.iter().map(|p| p.name.clone()).collect();
    let seed = spsa.settings.seed;
    let total = spsa.settings.pairs;
    let start = std::time::Instant::now();
    run(
        &mut spsa,
        |pert, pairs| {
            let mut cfg = base.clone();
            for (engine, values) in cfg.engines.iter_mut().zip([&pert.plus, &pert.minus]) {
                for (name, v) in names.iter().zip(values) {
                    engine.options.retain(|(n, _)| n != name);
                    engine.options.push((name.clone(), v.to_string()));
                }
            }
            play_batch(&cfg, seed, pert, pairs)
        },
        |spsa, _, score| {
            save(&state, &spsa.state_text())?;
            eprintln!(
                "spsa {}/{} pairs ({:.0}s): batch {score:+}; {}",
                spsa.pairs_done,
                total,
                start.elapsed().as_secs_f64(),
                spsa.values_line()
            );
            Ok(())
        },
    )?;
    println!("SPSA finished after {} game pairs; tuned values:", spsa.pairs_done);
    for p in &spsa.params {
        let default = SearchParams::SPECS
            .iter()
            .find(|s| s.name == p.name)
            .map_or(0, |s| s.default);
        println!("{} {} (default {default})", p.name, p.engine_value(p.value));
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spsa::SpsaSettings;
    use clap::Parser;

    #[derive(clap::Parser)]
    struct Line {
        #[command(flatten)]
        args: SpsaArgs,
    }

    fn parse(words: &str) -> Result<SpsaArgs, String> {
        let line = Line::try_parse_from(std::iter::once("spsa").chain(words.split_whitespace()));
        Ok(line.map_err(|e| e.to_string())?.args)
    }

    #[test]
    fn the_one_engine_plays_itself_under_the_match_options() {
        let args = parse(
            "--engine cmd=/bin/e name=tune option.Hash=16 --tc nodes=100 --maxmoves 50 \
             --pairs 8 --batch 1 --r-end 0.5 --params lmp_base,rfp_margin --state s --resume",
        )
        .unwrap();
        let settings = args.settings();
        assert_eq!((settings.pairs, settings.batch, settings.r_end), (8, 1, 0.5));
        assert_eq!(settings.alpha, SpsaSettings::default().alpha);
        assert_eq!(chosen_params(&args.params).unwrap().len(), 2);
        assert!(args.resume);
        let base = batch_config(args.options).unwrap();
        assert_eq!(base.engines.len(), 2);
        assert_eq!(base.engines[0].options, base.engines[1].options);
        assert_eq!((base.game.adjudication.max_moves, base.progress), (Some(50), false));
        let two = parse("--engine cmd=a --engine cmd=b --tc 1+0 --state s").unwrap();
        assert!(batch_config(two.options).unwrap_err().contains("exactly one --engine"));
        for refused in [
            "--pgn x.pgn",
            "--sprt",
            "--games 4",
            "--shard 0/2",
            "--tournament gauntlet",
        ] {
            let e = parse(&format!("--engine cmd=a --tc 1+0 --state s {refused}")).err();
            let flag = refused.split_whitespace().next().unwrap();
            assert!(e.is_some_and(|e| e.contains(flag)), "{refused} accepted");
        }
        assert!(parse("--engine cmd=a --tc 1+0").unwrap_err().contains("--state"));
    }

    #[test]
    fn all_means_every_parameter_but_the_switches() {
        let all = chosen_params("all").unwrap();
        let switches: Vec<&str> = SearchParams::SPECS
            .iter()
            .filter(|s| s.is_switch())
            .map(|s| s.name)
            .collect();
        assert!(switches.contains(&"cont_ply4") && switches.contains(&"thread_vote"));
        assert_eq!(all.len() + switches.len(), SearchParams::SPECS.len());
        assert!(all.iter().all(|p| !switches.contains(&p.name.as_str())));
        // A switch can still be named.
        assert_eq!(chosen_params("thread_vote").unwrap().len(), 1);
    }
}
