//! Patina driven by python-chess (what lichess-bot and most analysis scripts use): runs
//! `tests/python_chess.py` against the built binary. It checks `analyse` with MultiPV and WDL,
//! an `analysis` the client stops, `play` with ponder over a whole game, Chess960,
//! `Limit(mate=...)` and a stalemated root.
//!
//! python-chess is not a build dependency: without `python3` or its `chess` module the test
//! prints why it skipped and passes (`pip install chess` to run it).

use std::process::Command;

fn has_python_chess() -> bool {
    Command::new("python3")
        .args(["-c", "import chess.engine"])
        .output()
        .is_ok_and(|output| output.status.success())
}

#[test]
fn python_chess_drives_patina() {
    if !has_python_chess() {
        eprintln!("skipped: python3 with python-chess not found (pip install chess)");
        return;
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python_chess.py");
    let output =
        Command::new("python3").args([script, env!("CARGO_BIN_EXE_patina")]).output().expect("python3 runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    eprintln!("{stdout}");
    assert!(output.status.success(), "python-chess checks failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains("python-chess: all checks passed"), "{stdout}");
}
