//! `go infinite`, pondering, `stop`, `isready` and `ponderhit` while a search runs: answers held
//! until they may go, `isready` never ending a search, `stop` and `ponderhit` answered promptly.
//!
//! Latency bounds go through `common::assert_latency` (generous unless `PATINA_STRICT_TIMING=1`).

mod common;

use common::uci::*;
use common::{assert_latency, field, ms, score, timing, EngineProcess, QUICK};
use std::time::Duration;

/// Sends `isready` during a search that must go on: the latency of `readyok`, after checking
/// that no `bestmove` came before it.
fn ready_while_searching(engine: &mut EngineProcess) -> Duration {
    engine.send("isready");
    let before_ready = engine.lines_until(|l| l == "readyok", QUICK);
    let latency = engine.since_send();
    assert!(
        before_ready.iter().all(|l| !l.starts_with("bestmove")),
        "isready ended the search: {before_ready:?}"
    );
    latency
}

// 4. `go infinite`.

#[test]
fn infinite_search_waits_for_stop_and_isready_does_not_stop_it() {
    let mut engine = EngineProcess::spawn();
    engine.send("position startpos moves e2e4 e7e5");
    let legal = engine.legal_moves();
    engine.send("go infinite");
    let early = engine.lines_during(Duration::from_millis(300));
    assert!(early.iter().all(|l| !l.starts_with("bestmove")), "bestmove during go infinite: {early:?}");
    assert!(early.iter().any(|l| l.starts_with("info depth")), "the search reports while running");

    let depth_before = early.iter().filter_map(|l| field(l, "depth")).max().unwrap_or(0);

    let ready_latency = ready_while_searching(&mut engine);
    assert_latency("isready during go infinite", ready_latency, || ready_while_searching(&mut engine));

    // The search goes on: a deeper iteration still completes (a stopped search reports none).
    let deeper = engine.lines_until(
        |l| l.starts_with("bestmove") || field(l, "depth").is_some_and(|d| d > depth_before),
        Duration::from_secs(10),
    );
    assert!(!deeper.last().is_some_and(|l| l.starts_with("bestmove")), "isready stopped the search");
    let after_ready = engine.lines_during(Duration::from_millis(200));
    assert!(after_ready.iter().all(|l| !l.starts_with("bestmove")), "bestmove before stop: {after_ready:?}");

    let (line, stop_latency) = stop_now(&mut engine);
    let best = line.split_whitespace().nth(1).unwrap_or("").to_string();
    assert!(legal.contains(&best), "bestmove {best} not legal");
    assert_latency("stop during go infinite", stop_latency, || go_then_stop(&mut engine, "go infinite"));
    engine.assert_ready();
}

#[test]
fn infinite_search_on_a_finished_game_holds_bestmove_none_until_stop() {
    let mut engine = EngineProcess::spawn();
    engine.send(&format!("position fen {FOOLS_MATE}"));
    engine.send("go infinite");
    // Wait for the lines themselves (a loaded machine may take a while to start the engine),
    // then make sure nothing, above all no bestmove, follows them before `stop`.
    let first = engine.lines_until(|l| l.starts_with("info depth 0"), QUICK);
    assert_eq!(first, vec!["info string result 0-1 checkmate", "info depth 0 score mate 0"]);
    let held = engine.lines_during(Duration::from_millis(300));
    assert!(held.is_empty(), "lines before stop: {held:?}");
    let (line, latency) = stop_now(&mut engine);
    assert_eq!(line, "bestmove (none)");
    assert_latency("stop on a checkmated position", latency, || {
        engine.send("go infinite");
        engine.expect_line(|l| l.starts_with("info depth 0"), QUICK);
        stop_now(&mut engine).1
    });
    engine.assert_ready();

    // A plain `go` on stalemate answers at once.
    engine.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    let search = engine.go("go depth 3", QUICK);
    assert_eq!(search.bestmove, "(none)");
    assert_eq!(search.lines, vec!["info string result 1/2-1/2 stalemate", "info depth 0 score cp 0"]);
    engine.assert_ready();
}

// 5. Pondering.

#[test]
fn ponderhit_starts_the_clock_and_the_move_follows_within_budget() {
    let mut engine = EngineProcess::spawn();
    engine.send("setoption name Ponder value true");
    engine.send("position startpos moves e2e4 e7e5 g1f3");
    let legal = engine.legal_moves();
    engine.send("go ponder wtime 2000 btime 2000");
    let pondering = engine.lines_during(Duration::from_millis(150));
    assert!(pondering.iter().all(|l| !l.starts_with("bestmove")), "bestmove while pondering: {pondering:?}");
    // `isready` is answered at once and must not end the ponder search (if it did, the
    // move would follow `ponderhit` instantly, failing the lower bound below).
    let ready_latency = ready_while_searching(&mut engine);
    assert_latency("isready while pondering", ready_latency, || ready_while_searching(&mut engine));
    let pondering = engine.lines_during(Duration::from_millis(150));
    assert!(pondering.iter().all(|l| !l.starts_with("bestmove")), "bestmove while pondering: {pondering:?}");

    engine.send("ponderhit");
    let (line, after_hit) = engine.expect_line(|l| l.starts_with("bestmove"), QUICK);
    eprintln!("ponderhit (btime 2000): bestmove after {:.1} ms", ms(after_hit));
    // The clock starts at ponderhit, so the engine still thinks for its soft budget (about 80
    // ms here) instead of answering at once; it must also stay inside its 2 s clock (well
    // inside, 1.5 s, under PATINA_STRICT_TIMING=1).
    let latest = timing(Duration::from_millis(1500), Duration::from_millis(1950));
    assert!(after_hit >= Duration::from_millis(40), "answered {:.1} ms after ponderhit", ms(after_hit));
    assert!(after_hit < latest, "answered {:.1} ms after ponderhit", ms(after_hit));
    let best = line.split_whitespace().nth(1).unwrap_or("");
    assert!(legal.contains(best), "bestmove {best} not legal");
    engine.assert_ready();
}

#[test]
fn stop_while_pondering_answers_promptly() {
    let mut engine = EngineProcess::spawn();
    engine.send("setoption name Ponder value true");
    engine.send("position startpos moves d2d4 d7d5");
    let legal = engine.legal_moves();
    engine.send("go ponder wtime 2000 btime 2000 winc 20 binc 20");
    let pondering = engine.lines_during(Duration::from_millis(500));
    assert!(pondering.iter().all(|l| !l.starts_with("bestmove")), "bestmove while pondering: {pondering:?}");
    let (line, latency) = stop_now(&mut engine);
    let best = line.split_whitespace().nth(1).unwrap_or("").to_string();
    assert!(legal.contains(&best), "bestmove {best} not legal");
    assert_latency("stop while pondering", latency, || {
        go_then_stop(&mut engine, "go ponder wtime 2000 btime 2000 winc 20 binc 20")
    });
    engine.assert_ready();
}

#[test]
fn searches_that_finish_early_are_held_until_stop_or_ponderhit() {
    let mut engine = EngineProcess::spawn();
    // A mate in one: `go infinite` reaches the maximum depth within milliseconds, and must
    // still wait for `stop`.
    engine.send("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    engine.send("go infinite");
    // The mate is awaited rather than given a fixed window, which a loaded machine can miss.
    let mut held = engine.lines_until(|l| score(l) == "mate 1" || l.starts_with("bestmove"), QUICK);
    held.extend(engine.lines_during(Duration::from_millis(300)));
    assert!(held.iter().any(|l| score(l) == "mate 1"), "the mate is found: {held:?}");
    assert!(held.iter().all(|l| !l.starts_with("bestmove")), "bestmove before stop in go infinite");
    let (line, latency) = stop_now(&mut engine);
    assert_eq!(line, "bestmove d1d8");
    assert_latency("stop after a finished go infinite", latency, || {
        engine.send("go infinite");
        engine.expect_line(|l| score(l) == "mate 1", QUICK);
        stop_now(&mut engine).1
    });
    engine.assert_ready();

    // A depth-limited ponder search ends on its own; the move waits for `ponderhit`.
    engine.send("position startpos moves e2e4 c7c5");
    let legal = engine.legal_moves();
    engine.send("go ponder depth 3");
    let held = engine.lines_during(Duration::from_millis(300));
    assert!(held.iter().any(|l| field(l, "depth") == Some(3)), "depth 3 is searched while pondering");
    assert!(held.iter().all(|l| !l.starts_with("bestmove")), "bestmove before ponderhit");
    let ponderhit = |engine: &mut EngineProcess| {
        engine.send("ponderhit");
        engine.expect_line(|l| l.starts_with("bestmove"), QUICK)
    };
    let (line, latency) = ponderhit(&mut engine);
    assert!(line.starts_with("bestmove "), "{line}");
    assert!(legal.contains(line.split_whitespace().nth(1).unwrap_or("")), "{line}");
    assert_latency("ponderhit after a finished ponder search", latency, || {
        engine.send("go ponder depth 3");
        engine.expect_line(|l| field(l, "depth") == Some(3), QUICK);
        ponderhit(&mut engine).1
    });
    engine.assert_ready();
}
