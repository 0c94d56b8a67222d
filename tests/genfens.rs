//! OpenBench's `genfens` (openings for its workers), driven through the real binary: as a
//! command-line argument and in the UCI loop, from random plies and from a book.

use patina::position::Position;
use std::process::{Command, Stdio};

mod common;
use common::{path_str, patina, scratch, write_book};

/// The FENs of the `info string genfens` lines of `patina "genfens ..." "quit"`.
fn genfens(command: &str) -> Vec<String> {
    let output = patina(&[command, "quit"]);
    assert!(output.status.success());
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    let fens: Vec<String> =
        text.lines().filter_map(|l| l.strip_prefix("info string genfens ")).map(str::to_string).collect();
    for fen in &fens {
        let pos = Position::from_fen(fen, false).unwrap_or_else(|e| panic!("{e}"));
        assert!(!pos.is_check() && !pos.legal_moves().is_empty(), "unplayable opening {fen}");
    }
    let distinct: std::collections::HashSet<&String> = fens.iter().collect();
    assert_eq!(distinct.len(), fens.len(), "repeated openings: {fens:?}");
    fens
}

#[test]
fn genfens_prints_distinct_reproducible_openings() {
    let fens = genfens("genfens 8 seed 11 book None");
    assert_eq!(fens.len(), 8);
    assert_eq!(fens, genfens("genfens 8 seed 11 book None"), "same seed, same openings");
    assert_ne!(fens, genfens("genfens 8 seed 12 book None"), "another seed, other openings");

    let dir = scratch("genfens", "book");
    let book = write_book(&dir);
    let from_book = genfens(&format!("genfens 6 seed 5 book {}", path_str(&book)));
    assert_eq!(from_book.len(), 6);
    for fen in &from_book {
        // A book line (Black to move at move 1) plus two random plies: Black to move at move 2.
        let fields: Vec<&str> = fen.split_whitespace().collect();
        assert_eq!((fields[1], fields[5]), ("b", "2"), "{fen}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn genfens_works_in_the_uci_loop_and_rejects_bad_input() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_patina"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("patina runs");
    use std::io::Write;
    // `genfens` is a job: a later `genfens` would cut it short and `quit` would not wait for
    // it, while end of input does. So the bad lines come first and the input just ends.
    let input = b"genfens many\ngenfens 1 book /no/such/book.epd\ngenfens 3 seed 1 book None\n";
    child.stdin.take().expect("piped stdin").write_all(input).unwrap();
    let text = String::from_utf8_lossy(&child.wait_with_output().unwrap().stdout).into_owned();
    assert_eq!(text.lines().filter(|l| l.starts_with("info string genfens ")).count(), 3, "{text}");
    assert!(text.contains("info string error: genfens: 'N' must be an integer, got 'many'"), "{text}");
    assert!(text.contains("/no/such/book.epd"), "{text}");
}
