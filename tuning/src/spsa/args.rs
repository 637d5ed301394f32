//! The command line of `vorpal-match spsa` ([`SpsaArgs`], parsed by clap): the match options
//! of its batches and the settings of the run.

use super::SpsaSettings;
use crate::matches::args::MatchOptions;
use std::path::PathBuf;

/// SPSA of the search parameters: one `--features tune` build plays itself (docs/tuning.md)
#[derive(clap::Args, Clone, Debug)]
pub struct SpsaArgs {
    #[command(flatten)]
    pub options: MatchOptions,
    /// Game pairs in all
    #[arg(long, value_name = "N", default_value_t = SpsaSettings::default().pairs)]
    pub pairs: u64,
    /// Game pairs per step
    #[arg(long, value_name = "P", default_value_t = SpsaSettings::default().batch)]
    pub batch: u64,
    /// The learning rate at the end
    #[arg(long, value_name = "R", default_value_t = SpsaSettings::default().r_end)]
    pub r_end: f64,
    /// Decay exponent of the step a_k
    #[arg(long, value_name = "A", default_value_t = SpsaSettings::default().alpha)]
    pub alpha: f64,
    /// Decay exponent of the perturbation c_k
    #[arg(long, value_name = "G", default_value_t = SpsaSettings::default().gamma)]
    pub gamma: f64,
    /// Seed of the perturbation signs and of the batches' openings
    #[arg(long, value_name = "S", default_value_t = SpsaSettings::default().seed)]
    pub seed: u64,
    /// Tuned parameters, comma-separated, or all (but the on/off switches)
    #[arg(long, value_name = "a,b|all", default_value = "all")]
    pub params: String,
    /// The state file, rewritten after every batch
    #[arg(long, value_name = "FILE")]
    pub state: PathBuf,
    /// Continue the run of the state file
    #[arg(long)]
    pub resume: bool,
}

impl SpsaArgs {
    /// The gains and budget of the run.
    pub fn settings(&self) -> SpsaSettings {
        SpsaSettings {
            pairs: self.pairs,
            batch: self.batch,
            r_end: self.r_end,
            alpha: self.alpha,
            gamma: self.gamma,
            seed: self.seed,
        }
    }
}
