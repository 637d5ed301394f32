//! Makes the build id (`VORPAL_BUILD_ID`): the git commit of the workspace, with `+dirty-` and a
//! hash of the sources when they differ from it; `src-` and the hash when git is missing; or the
//! `VORPAL_BUILD_ID` of the environment. Reruns when a source, `Cargo.lock` or the checkout's
//! HEAD, branch or index changes.

use std::path::{Path, PathBuf};
use std::process::Command;

/// What the binaries are built from, relative to the workspace root.
const SOURCES: &[&str] = &[
    "Cargo.toml",
    "Cargo.lock",
    "engine/Cargo.toml",
    "engine/build.rs",
    "engine/src",
    "engine/data",
    "protocol/Cargo.toml",
    "protocol/src",
    "protocol/client",
    "protocol/uci-text",
    "protocol/page",
    "protocol/build-id/src",
    "protocol/build-id/build.rs",
    "tuning/Cargo.toml",
    "tuning/src",
];

/// Runs git in `root`; its trimmed stdout when it succeeds.
fn git(root: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git").arg("-C").arg(root).args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// Every file under `path` (or `path` itself), sorted.
fn files(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let Ok(entries) = std::fs::read_dir(path) else { return };
        let mut list: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        list.sort();
        for p in list {
            files(&p, out);
        }
    } else if path.is_file() {
        out.push(path.to_path_buf());
    }
}

/// FNV-1a over the sources' relative paths and contents, as 8 hex digits.
fn source_hash(root: &Path) -> String {
    let mut all = Vec::new();
    for s in SOURCES {
        files(&root.join(s), &mut all);
    }
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for b in bytes {
            h = (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
        }
    };
    for f in &all {
        eat(f.strip_prefix(root).unwrap_or(f).to_string_lossy().as_bytes());
        eat(&std::fs::read(f).unwrap_or_default());
    }
    format!("{:08x}", (h ^ (h >> 32)) as u32)
}

fn main() {
    println!("cargo:rerun-if-env-changed=VORPAL_BUILD_ID");
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let root = manifest.join("../..");
    for s in SOURCES {
        println!("cargo:rerun-if-changed={}", root.join(s).display());
    }
    let (id, source) = match std::env::var("VORPAL_BUILD_ID") {
        Ok(id) if !id.trim().is_empty() => (id.split_whitespace().collect::<Vec<_>>().join("-"), "env"),
        _ => match git(&root, &["rev-parse", "--short=12", "HEAD"]) {
            Some(commit) => {
                for p in ["HEAD", "index", "packed-refs"] {
                    if let Some(path) = git(&root, &["rev-parse", "--path-format=absolute", "--git-path", p]) {
                        println!("cargo:rerun-if-changed={path}");
                    }
                }
                if let Some(branch) = git(&root, &["symbolic-ref", "-q", "HEAD"]) {
                    if let Some(path) = git(&root, &["rev-parse", "--path-format=absolute", "--git-path", &branch]) {
                        println!("cargo:rerun-if-changed={path}");
                    }
                }
                let mut status = vec!["status", "--porcelain", "--untracked-files=normal", "--"];
                status.extend(SOURCES);
                let id = match git(&root, &status) {
                    Some(s) if s.is_empty() => commit,
                    _ => format!("{commit}+dirty-{}", source_hash(&root)),
                };
                (id, "git")
            }
            None => (format!("src-{}", source_hash(&root)), "sources"),
        },
    };
    println!("cargo:rustc-env=VORPAL_BUILD_ID={id}");
    // Where the id came from (env, git or sources), for the crate's tests.
    println!("cargo:rustc-env=VORPAL_BUILD_ID_SOURCE={source}");
}
