//! The small book of the generation tests: 5x4 to 6 stones, where every position
//! solves in microseconds.

use std::path::PathBuf;

use c4solver::Config;
use c4solver::book::{Options, Shard};

pub const W: usize = 5;
pub const H: usize = 4;
pub const DEPTH: usize = 6;

pub fn config() -> Config {
    Config {
        table_mb: 4,
        ..Config::tuned()
    }
}

pub fn options(shard: Shard) -> Options {
    Options {
        depth: DEPTH,
        shard,
        threads: 2,
        config: config(),
    }
}

/// A fresh directory under the target directory.
pub fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
