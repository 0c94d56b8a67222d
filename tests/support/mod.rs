//! Helpers for tests that run the `patina` binary as a command-line program.
//! Each test crate uses a subset, hence the `dead_code` allowance.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs `patina` with `args` to completion.
pub fn patina(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_patina")).args(args).output().expect("patina runs")
}

/// A fresh, empty directory for one test (`suite` and `name` keep parallel tests apart).
pub fn scratch(suite: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("patina-{suite}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

pub fn path_str(path: &Path) -> &str {
    path.to_str().expect("utf-8 temp path")
}
