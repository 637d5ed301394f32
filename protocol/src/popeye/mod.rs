//! `vorpal popeye`: Vorpal as Popeye, for the tools problemists use (Olive starts its Popeye
//! as `<path> -maxmem 1024M <input file>`). Popeye's command line ([`cmdline`]), its input
//! language (read by the solver's Popeye reader, with Popeye's long keywords, `zeroposition`,
//! `~1` and its other options), its en passant rule and its output text ([`layout`],
//! [`notation`], [`driver`]). Chosen by the subcommand, or by the program's name (`py`,
//! `popeye`, `pywin64.exe`: a symlink or a copy of the binary). See docs/popeye.md.

mod any_move;
mod battle;
mod cmdline;
mod driver;
mod duplex;
mod layout;
mod notation;
mod postkey;
mod series;
mod setplay;

pub use driver::{Limits, Page};

use crate::arg_values::RunCommand;
use std::io::Read;

/// The names under which the binary behaves as Popeye.
const POPEYE_NAMES: [&str; 4] = ["py", "popeye", "pywin64", "pywin32"];

/// True when the program was started under one of Popeye's names (`py`, `popeye`,
/// `pywin64.exe`), as a symlink or a copy.
pub fn is_popeye_name(argv0: &str) -> bool {
    let name = std::path::Path::new(argv0)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default()
        .to_ascii_lowercase();
    let stem = name.strip_suffix(".exe").unwrap_or(&name);
    POPEYE_NAMES.contains(&stem)
}

/// The first line of the page: Vorpal's name and version, the memory bound.
fn banner(max_mem: Option<u64>) -> String {
    let mb = max_mem.map_or(1024, |b| b >> 20);
    format!(
        "Vorpal v{} (Popeye 4.104 input and output) ({mb} MB)",
        env!("CARGO_PKG_VERSION")
    )
}

/// Runs Vorpal as Popeye with Popeye's command line `args` (without the program name);
/// returns the exit status: 0 after a run that read its input (input errors are reported
/// and skipped, as Popeye does), 1 when the input cannot be read, 2 for a bad command line.
pub fn run(args: &[String]) -> i32 {
    let cmd = match cmdline::parse(args) {
        Ok(cmd) => cmd,
        Err(message) => {
            eprintln!("vorpal popeye: {message}\n{}", cmdline::USAGE);
            return crate::status::USAGE;
        }
    };
    if cmd.help {
        println!("{}", cmdline::USAGE);
        return crate::status::SUCCESS;
    }
    let input = match &cmd.file {
        Some(file) => std::fs::read(file),
        None => {
            let mut bytes = Vec::new();
            std::io::stdin().read_to_end(&mut bytes).map(|_| bytes)
        }
    };
    let input = match input {
        Ok(input) => input,
        Err(e) => {
            eprintln!("cannot read {}: {e}", cmd.file.as_deref().unwrap_or("standard input"));
            return crate::status::ERROR_LINE;
        }
    };
    let limits = Limits {
        max_time: cmd.max_time,
        max_mem: cmd.max_mem,
        stop_at_once: false,
        regression: cmd.regression,
    };
    let (mut out, mut err) = (std::io::stdout().lock(), std::io::stderr());
    let mut page = Page::new(&mut out, &mut err, limits);
    page.line_raw(&banner(cmd.max_mem));
    page.run(&input);
    if page.closed {
        crate::status::CLOSED_OUTPUT
    } else {
        crate::status::SUCCESS
    }
}

/// `vorpal popeye`: Vorpal with Popeye's command line, input and output (for Olive)
#[derive(clap::Args, Debug)]
#[command(disable_help_flag = true)]
pub struct PopeyeArgs {
    /// Popeye's options and the input file: [-maxmem N[K|M|G]] [-maxtime S] [-maxpos N]
    /// [-heartbeat [N]] [-regression] [FILE]
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    words: Vec<String>,
}

impl RunCommand for PopeyeArgs {
    fn run(self) -> i32 {
        run(&self.words)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn popeye_names() {
        for name in [
            "py",
            "/usr/local/bin/py",
            "popeye",
            "C:\\Olive\\pywin64.exe",
            "PYWIN64.EXE",
            "py.exe",
        ] {
            let name = name.replace('\\', "/");
            assert!(is_popeye_name(&name), "{name}");
        }
        for name in ["vorpal", "/usr/bin/vorpal", "pyx", "python3", ""] {
            assert!(!is_popeye_name(name), "{name}");
        }
    }
}
