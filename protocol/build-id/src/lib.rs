//! The build identity of the workspace's binaries: `vorpal --version`, `vorpal-match --version`
//! and `vorpal-datagen --version` print [`VERSION`], e.g. `0.1.0 (build 53bfacd1a2b3)` for a
//! clean checkout of a commit, `0.1.0 (build 53bfacd1a2b3+dirty-9f1c2e4a)` with local changes
//! (a hash of the sources), and `0.1.0 (build src-9f1c2e4a)` without git. `vorpal-cluster`
//! compares it across the nodes of a cluster before any work (docs/cluster.md). The id is made
//! by this crate's build script; `VORPAL_BUILD_ID` set at build time replaces it.

#![forbid(unsafe_code)]

/// The build id alone: the commit, with `+dirty-<hash>` when the sources differ from it.
pub const BUILD_ID: &str = env!("VORPAL_BUILD_ID");

/// The version line: the workspace's version and the build id.
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (build ", env!("VORPAL_BUILD_ID"), ")");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_names_the_build() {
        assert!(VERSION.starts_with(env!("CARGO_PKG_VERSION")));
        assert!(VERSION.ends_with(&format!("(build {BUILD_ID})")));
        assert!(
            !BUILD_ID.is_empty() && !BUILD_ID.contains(char::is_whitespace),
            "{BUILD_ID}"
        );
    }

    #[test]
    fn the_id_is_the_checkouts_commit() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
        let head = std::process::Command::new("git")
            .args(["-C", root, "rev-parse", "--short=12", "HEAD"])
            .output();
        match head {
            Ok(out) if out.status.success() && env!("VORPAL_BUILD_ID_SOURCE") == "git" => {
                let commit = String::from_utf8_lossy(&out.stdout).trim().to_string();
                assert!(
                    BUILD_ID == commit || BUILD_ID.starts_with(&format!("{commit}+dirty-")),
                    "{BUILD_ID} is not {commit}"
                );
            }
            _ => assert!(!BUILD_ID.is_empty()),
        }
    }
}
