//! `vorpal tb`: Alice endgame tablebases from the command line.
//! `vorpal tb generate [MATERIAL ...] [--all N] --dir DIR [--threads N] [--force] [--json]`
//! builds tables (and the smaller ones they need); `vorpal tb probe --dir DIR --fen F [--json]`
//! prints a position's value and every move's; `vorpal tb plan [MATERIAL ...] [--all N] [--json]`
//! lists the tables generate would make, each with its successors.

mod args;
mod generate;
mod plan;
mod probe;

pub use args::TbArgs;

use crate::arg_values::RunCommand;
use args::TbCommand;

impl RunCommand for TbArgs {
    fn run(self) -> i32 {
        match self.command {
            TbCommand::Generate(args) => generate::run(args),
            TbCommand::Plan(args) => plan::run(args),
            TbCommand::Probe(args) => probe::run(args),
        }
    }
}
