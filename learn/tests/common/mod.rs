//! Helpers the learning crate's integration tests share: the `patina-learn` binary and scratch
//! folders.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs `patina-learn` with `args` to completion.
pub fn learn(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_patina-learn")).args(args).output().expect("patina-learn runs")
}

/// A fresh, empty directory for one test (`suite` and `name` keep parallel tests apart).
pub fn scratch(suite: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("patina-learn-{suite}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

pub fn path_str(path: &Path) -> &str {
    path.to_str().expect("utf-8 temp path")
}

/// The engine's test tables (`tests/data/syzygy` of the package above).
pub fn engine_tables() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/syzygy")
}
