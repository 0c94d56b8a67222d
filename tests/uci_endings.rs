//! Endings through the real binary, without tables: `UCI_ShowWDL` reads a king and rook or a
//! king and queen against a bare king as the wins they are, and positions no one can win
//! (insufficient material, a dead pawn wall) score exactly `cp 0 wdl 0 1000 0`, at the root
//! and where the search reaches one.

mod common;

use common::{field, pv, score, EngineProcess, Search, SEARCH};
use std::time::Duration;

/// `go depth 12` of a queen ending can take several seconds on a busy 2-core machine.
const DEPTH_12: Duration = Duration::from_secs(60);

fn engine_with_wdl() -> EngineProcess {
    let mut engine = EngineProcess::spawn();
    engine.send("setoption name UCI_ShowWDL value true");
    engine
}

/// The `wdl W D L` of an info line.
fn wdl(line: &str) -> [i64; 3] {
    let values: Vec<i64> = line
        .split_whitespace()
        .skip_while(|&t| t != "wdl")
        .skip(1)
        .take(3)
        .filter_map(|t| t.parse().ok())
        .collect();
    values.try_into().unwrap_or_else(|_| panic!("no wdl in '{line}'"))
}

fn search(engine: &mut EngineProcess, fen: &str, go: &str, timeout: Duration) -> Search {
    engine.send(&format!("position fen {fen}"));
    engine.go(go, timeout)
}

#[test]
fn a_rook_or_a_queen_against_a_bare_king_reads_as_a_win() {
    let mut engine = engine_with_wdl();
    for fen in [
        // The position: `score cp 782 wdl 526 474 0` before.
        "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
        "8/8/2k5/8/8/8/8/3QK3 w - - 0 1",
        // The same from Black's side.
        "r3k3/8/8/8/4K3/8/8/8 b - - 0 1",
    ] {
        let search = search(&mut engine, fen, "go depth 12", DEPTH_12);
        let last = *search.last_iteration().last().expect("a depth-12 line");
        assert_eq!(field(last, "depth"), Some(12), "{last}");
        let [win, draw, loss] = wdl(last);
        assert!(win >= 950 && loss == 0, "{fen}: {last}");
        assert_eq!(win + draw, 1000, "{last}");
    }
}

#[test]
fn dead_positions_score_exactly_zero_and_a_certain_draw() {
    let mut engine = engine_with_wdl();
    for (fen, reason) in [
        ("8/8/8/4k3/8/8/8/4K3 w - - 0 1", "insufficient-material"),
        ("8/8/8/4k3/8/8/8/4KN2 w - - 0 1", "insufficient-material"),
        ("8/8/8/4k3/8/8/8/4KB2 b - - 0 1", "insufficient-material"),
        ("4k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/4K3 w - - 0 1", "dead-position"),
    ] {
        let search = search(&mut engine, fen, "go depth 12", SEARCH);
        let result = format!("info string result 1/2-1/2 {reason}");
        assert!(search.lines.contains(&result), "{fen}: {:?}", search.lines);
        assert!(!search.infos().is_empty(), "{fen}: searched all the same");
        for line in search.infos() {
            assert!(line.contains(" score cp 0 wdl 0 1000 0 "), "{fen}: {line}");
        }
    }
}

#[test]
fn a_capture_into_a_dead_position_scores_exactly_zero_inside_the_search() {
    // Black's king takes the unguarded queen: bare kings. The root is alive (White could
    // still mate), the line ends in a dead position two plies down.
    let mut engine = engine_with_wdl();
    let search = search(&mut engine, "8/8/8/8/8/8/6kQ/K7 b - - 0 1", "go depth 10", SEARCH);
    assert_eq!(search.bestmove, "g2h2");
    let last = *search.infos().last().expect("an info line");
    assert_eq!(score(last), "cp 0", "{last}");
    assert_eq!(wdl(last), [0, 1000, 0], "{last}");
    assert_eq!(pv(last).first(), Some(&"g2h2"), "{last}");
}
