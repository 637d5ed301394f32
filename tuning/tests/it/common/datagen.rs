//! Helpers of the `vorpal-datagen` tests: scratch directories and a quick configuration.

use std::path::{Path, PathBuf};
use vorpal_tuning::datagen::packed::{PackedReader, PackedRecord};
use vorpal_tuning::datagen::DatagenConfig;

/// A fresh scratch directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vorpal-datagen-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A quick configuration: few nodes, short games.
pub fn quick(out: &Path, games: u64) -> DatagenConfig {
    DatagenConfig {
        out: out.to_path_buf(),
        games,
        nodes: Some(300),
        seed: 7,
        random_plies: 6,
        skip_plies: 2,
        max_plies: 120,
        ..DatagenConfig::default()
    }
}

/// Every record of a packed file.
pub fn records(path: &Path) -> Vec<PackedRecord> {
    PackedReader::new(std::fs::File::open(path).unwrap())
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}
