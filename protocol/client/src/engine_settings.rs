//! The `key=value` settings of an engine, as the match runner's `--engine` and `--each` and the
//! GUI's `--engine` give them: `cmd=`, `name=`, `dir=`, `arg=`, a time control
//! (`tc=`, `st=`, `movetime=`, `nodes=`, `depth=`) and `option.NAME=VALUE`.

use super::engine_process::EngineConfig;
use std::path::{Path, PathBuf};

/// Applies `key=value` engine settings to `cfg`.
pub fn engine_settings(cfg: &mut EngineConfig, settings: &[String]) -> Result<(), String> {
    for s in settings {
        let (k, v) = s
            .split_once('=')
            .ok_or_else(|| format!("engine setting '{s}' is not key=value"))?;
        match k {
            "cmd" => cfg.cmd = v.to_string(),
            "name" => cfg.name = v.to_string(),
            "dir" => cfg.dir = Some(PathBuf::from(v)),
            "arg" => cfg.args.push(v.to_string()),
            "tc" | "st" | "movetime" | "nodes" | "depth" => cfg.tc.apply(k, v)?,
            _ => match k.strip_prefix("option.") {
                Some(name) if !name.is_empty() => {
                    cfg.options.retain(|(n, _)| n != name);
                    cfg.options.push((name.to_string(), v.to_string()));
                }
                _ => return Err(format!("unknown engine setting '{k}'")),
            },
        }
    }
    Ok(())
}

/// Makes a relative command path absolute (so `dir=` does not change what it names).
pub fn resolve_cmd(cmd: &str) -> String {
    let p = Path::new(cmd);
    if cmd.contains('/') && p.is_relative() && p.exists() {
        if let Ok(abs) = std::fs::canonicalize(p) {
            return abs.to_string_lossy().into_owned();
        }
    }
    cmd.to_string()
}
