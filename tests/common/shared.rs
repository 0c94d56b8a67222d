//! The helpers both test trees share, written once: `tests/common/mod.rs` (the engine's
//! integration tests) declares this file as its `shared` module, and `learn/tests/common/mod.rs`
//! (the learning crate's) includes it with `#[path]`; each re-exports it under the names its
//! tests use. What differs between the two packages comes from the package being compiled:
//! `CARGO_PKG_NAME` is `patina` or `patina-learn`, and names the package's binary as well.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs this package's binary (`patina` or `patina-learn`) with `args` to completion.
pub fn run_binary(args: &[&str]) -> Output {
    Command::new(env!(concat!("CARGO_BIN_EXE_", env!("CARGO_PKG_NAME"))))
        .args(args)
        .output()
        .expect(concat!(env!("CARGO_PKG_NAME"), " runs"))
}

/// A fresh, empty directory for one test (`suite` and `name` keep parallel tests apart).
pub fn scratch(suite: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "{}-{suite}-{name}-{}",
        env!("CARGO_PKG_NAME"),
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

pub fn path_str(path: &Path) -> &str {
    path.to_str().expect("utf-8 temp path")
}

/// A small book in `dir`: three balanced positions after 1. e4, 1. d4 and 1. c4.
pub fn write_book(dir: &Path) -> PathBuf {
    let book = dir.join("book.epd");
    std::fs::write(
        &book,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n\
         rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - hmvc 0; c0 \"d4\";\n\
         \n\
         rnbqkbnr/pppppppp/8/8/2P5/8/PP1PPPPP/RNBQKBNR b KQkq -\n",
    )
    .expect("write the test book");
    book
}
