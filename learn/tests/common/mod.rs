//! Helpers the learning crate's integration tests share: the `patina-learn` binary and scratch
//! folders (from `tests/common/shared.rs`, which the engine's tests include too), and the
//! engine's test tables.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

#[path = "../../../tests/common/shared.rs"]
mod shared;

/// `learn(args)` runs `patina-learn` to completion; `write_book` writes a small opening book.
/// Each test crate uses a subset, hence the `unused_imports` allowance.
#[allow(unused_imports)]
pub use shared::{path_str, run_binary as learn, scratch, write_book};

/// The engine's test tables (`tests/data/syzygy` of the package above).
pub fn engine_tables() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/syzygy")
}
