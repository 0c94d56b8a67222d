//! What the UCI test suites share: test positions, and conversations that check their own
//! answers (`checked_go` verifies a `bestmove` against the engine's `go perft 1`).

use super::{EngineProcess, Search, QUICK, SEARCH};
use std::time::Duration;

pub const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
pub const FOOLS_MATE: &str = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
/// White mates in two with 1. Ra6! (1... bxa6 2. b7#); no other first move mates in two.
pub const MATE_IN_TWO: &str = "kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1";
/// The white king on a1 is checked along the first rank: Ka2 and Kb2 are the only moves.
pub const TWO_LEGAL_MOVES: &str = "k7/8/8/8/8/8/8/K6r w - - 0 1";
pub const KNIGHT_SHUFFLE: &str = "g1f3 g8f6 f3g1 f6g8";

/// Sets `position`, runs `go`, and checks the answer: exactly one `bestmove`, legal by the
/// engine's own `go perft 1`, and the engine answers `isready` right after.
pub fn checked_go(engine: &mut EngineProcess, position: &str, go: &str) -> Search {
    engine.send(position);
    let legal = engine.legal_moves();
    let search = engine.go(go, SEARCH);
    assert!(legal.contains(&search.bestmove), "{go}: bestmove {} not legal in {legal:?}", search.bestmove);
    if let Some(ponder) = &search.ponder {
        assert_ne!(ponder, "0000", "{go}: ponder move must be a real move");
    }
    engine.assert_ready();
    search
}

/// Sends a `go` that must be answered without a search: returns the lines before the
/// `bestmove` after checking it is `bestmove 0000` and nothing follows it.
pub fn unanswerable_go(engine: &mut EngineProcess, go: &str) -> Vec<String> {
    let search = engine.go(go, QUICK);
    assert_eq!(search.bestmove, "0000", "{go}: {:?}", search.lines);
    assert_eq!(search.ponder, None);
    engine.assert_ready();
    search.lines
}

/// Expects the next line to be an `info string error:` containing every one of `fragments`.
pub fn expect_error(engine: &mut EngineProcess, fragments: &[&str]) -> String {
    let line = engine.next_line(QUICK).expect("an error line");
    assert!(line.starts_with("info string error: "), "expected an error, got '{line}'");
    for fragment in fragments {
        assert!(line.contains(fragment), "error '{line}' should mention '{fragment}'");
    }
    line
}

/// Sends each command, expects an error naming its fragments, and checks the engine still answers.
pub fn expect_each_rejected(engine: &mut EngineProcess, cases: &[(&str, &[&str])]) {
    for (command, fragments) in cases {
        engine.send(command);
        expect_error(engine, fragments);
        engine.assert_ready();
    }
}

/// After a rejected `position`: `go` refuses to search until a valid `position` arrives, then
/// a normal `go depth 3` works again.
pub fn assert_position_rejected_then_recover(engine: &mut EngineProcess) {
    for _ in 0..2 {
        let lines = unanswerable_go(engine, "go depth 3");
        assert_eq!(lines, vec!["info string error: no valid position".to_string()]);
    }
    checked_go(engine, "position startpos", "go depth 3");
}

/// The `Fen:` line of the `d` command (the whole board diagram is consumed).
pub fn board_fen(engine: &mut EngineProcess) -> String {
    engine.send("d");
    let lines = engine.lines_until(|l| l.starts_with("Checkers:"), QUICK);
    let fen = lines.iter().find_map(|l| l.strip_prefix("Fen: ")).expect("a Fen: line");
    fen.to_string()
}

pub fn shuffle(cycles: usize) -> String {
    vec![KNIGHT_SHUFFLE; cycles].join(" ")
}

/// Sends `stop` to a running search and returns how long its `bestmove` took, and the line.
pub fn stop_now(engine: &mut EngineProcess) -> (String, Duration) {
    engine.send("stop");
    engine.expect_line(|l| l.starts_with("bestmove"), QUICK)
}

/// Starts `go` (a search that waits for `stop`), lets it report once, then stops it: the
/// latency of that `stop`. What `assert_latency` repeats when a `stop` was slow.
pub fn go_then_stop(engine: &mut EngineProcess, go: &str) -> Duration {
    engine.send(go);
    engine.expect_line(|l| l.starts_with("info depth"), QUICK);
    stop_now(engine).1
}
