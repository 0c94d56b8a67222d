//! `patina-learn data`, driven through the real binary: the reports the data tools print.

use std::process::Output;

mod common;
use common::{learn, path_str, scratch};

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// A record of `fen` scored `white_score` (White's view) in a game that ended `result`.
fn record(fen: &str, white_score: i32, result: patina_learn::data::DataResult, capture: bool) -> [u8; 32] {
    use patina_learn::data::{GamePlace, PackedPosition, SearchLabel};
    let pos = patina::position::Position::from_fen(fen, false).expect("valid FEN");
    let label = SearchLabel { white_score, mate: false, best_is_capture: capture, best_is_promotion: false };
    let place = GamePlace { ply: 4, game_start: false, result };
    *PackedPosition::pack(pos.chess(), label, place).expect("packs").as_bytes()
}

#[test]
fn data_results_prints_level_and_big_tables_through_the_training_filter() {
    use patina_learn::data::DataResult::{BlackWins, Draw, WhiteWins};
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"; // material 78
    let pawn = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"; // material 1
    let records = [
        record(start, 0, Draw, false),
        record(start, 10, WhiteWins, false),
        record(start, -20, BlackWins, true), // best move a capture: the default filter drops it
        record(pawn, 1200, WhiteWins, false),
        record(pawn, -1600, Draw, false),
    ];
    let dir = scratch("cli", "results");
    let file = dir.join("records.bin");
    std::fs::write(&file, records.concat()).unwrap();

    let level = learn(&["data", "results", path_str(&file), "--report", "level"]);
    assert!(level.status.success(), "{}", String::from_utf8_lossy(&level.stderr));
    assert_eq!(
        stdout(&level),
        "material  positions  draws per mille\n      72          2              500\n"
    );
    let unfiltered = learn(&["data", "results", path_str(&file), "--report", "level", "--filter", "none"]);
    assert_eq!(
        stdout(&unfiltered),
        "material  positions  draws per mille\n      72          3              333\n"
    );

    let big = learn(&["data", "results", path_str(&file), path_str(&file), "--report", "big"]);
    assert_eq!(
        stdout(&big),
        "material  score  positions  win draw loss (per mille, side ahead)\n       \
         1  1000+          2 1000    0    0\n       \
         1  1500+          2    0 1000    0\n"
    );

    let unknown = learn(&["data", "results", path_str(&file), "--report", "huge"]);
    assert!(!unknown.status.success());
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("possible values: level, big"));
    let _ = std::fs::remove_dir_all(&dir);
}
