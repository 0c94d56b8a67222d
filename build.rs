//! Names the build: when the crate is built from a git checkout of its own, the short commit
//! and its date (`PATINA_GIT_DESCRIPTION`, e.g. ` 90f4126 2026-12-05`, with its leading space)
//! for `patina --version` and `id name`. Without git, or outside a checkout (a crate tarball),
//! the variable is empty and the build goes on: the version alone names it.
//!
//! Cargo reruns this when HEAD moves: on the HEAD file and the branch file it points to, asked
//! of git itself (`git rev-parse --git-path`), so a linked worktree watches its own HEAD and the
//! shared refs, and on `packed-refs` where a branch's file has been packed away.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let manifest_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let description = if is_own_checkout(&manifest_dir) {
        for path in watched_paths(&manifest_dir) {
            println!("cargo:rerun-if-changed={}", path.display());
        }
        describe(&manifest_dir).unwrap_or_default()
    } else {
        String::new()
    };
    println!("cargo:rustc-env=PATINA_GIT_DESCRIPTION={description}");
}

/// Runs `git args` in `dir`; its trimmed output when it succeeded and printed something.
fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let output = Command::new("git").args(args).current_dir(dir).output().ok()?;
    let text = String::from_utf8(output.stdout).ok()?.trim().to_string();
    (output.status.success() && !text.is_empty()).then_some(text)
}

/// Whether `dir` is the top of a git work tree (not a crate unpacked inside someone else's).
fn is_own_checkout(dir: &Path) -> bool {
    let Some(top) = git(dir, &["rev-parse", "--show-toplevel"]) else { return false };
    let canonical = |path: &Path| std::fs::canonicalize(path).ok();
    canonical(Path::new(&top)).is_some_and(|top| Some(top) == canonical(dir))
}

/// ` <short commit> <commit date>`, or `None` when git cannot say.
fn describe(dir: &Path) -> Option<String> {
    let commit = git(dir, &["rev-parse", "--short", "HEAD"])?;
    let date = git(dir, &["log", "-1", "--format=%cs"])?;
    Some(format!(" {commit} {date}"))
}

/// The files whose change moves HEAD: HEAD itself, the branch it names, `packed-refs`; those
/// that exist (Cargo would rerun on every build for a missing one).
fn watched_paths(dir: &Path) -> Vec<PathBuf> {
    let mut names = vec!["HEAD".to_string(), "packed-refs".to_string()];
    if let Some(branch) = git(dir, &["symbolic-ref", "-q", "HEAD"]) {
        names.push(branch);
    }
    names
        .iter()
        .filter_map(|name| git(dir, &["rev-parse", "--git-path", name]))
        .map(|path| dir.join(path))
        .filter(|path| path.exists())
        .collect()
}
