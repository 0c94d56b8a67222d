//! The protocol's edges, over pipes to the real binary: `isready` after a setting answers once
//! it is in force (and at once while a search or a job runs), and `quit` and the end of input
//! keep their answers: a search they stop still prints its `bestmove`, end of input lets a job
//! finish (and a search waiting its turn start), `quit` cuts a job short and says so; a finite
//! `go` given as an argument runs to its limit.

mod common;

use common::{
    assert_latency, engine_command, patina, timing, EngineProcess, GENEROUS_LATENCY, QUICK, SEARCH,
    STRICT_LATENCY,
};
use std::io::Write;
use std::process::Stdio;

fn syzygy_dir() -> String {
    concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy").to_string()
}

/// Feeds `input` to a fresh engine all at once (a script's pipe) and returns its whole output.
fn piped(input: &str) -> String {
    let mut child = engine_command().stderr(Stdio::null()).spawn().expect("patina runs");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("write");
    let output = child.wait_with_output().expect("patina exits");
    assert!(output.status.success(), "{output:?}");
    String::from_utf8(output.stdout).expect("utf-8")
}

#[test]
fn isready_after_syzygy_path_waits_for_the_tables() {
    // A GUI that waits for `readyok` after setting the path searches with the tables.
    let mut engine = EngineProcess::spawn();
    engine.send(&format!("setoption name SyzygyPath value {}", syzygy_dir()));
    engine.send("isready");
    let lines = engine.lines_until(|l| l == "readyok", SEARCH);
    assert!(lines.iter().any(|l| l.contains("SyzygyPath: ") && l.contains("table files")), "{lines:?}");
    engine.send("position fen 8/8/8/4k3/8/8/8/R3K3 w - - 0 1");
    let search = engine.go("go depth 8", SEARCH);
    let last = search.infos().last().copied().expect("an info line").to_string();
    assert!(common::field(&last, "tbhits").is_some_and(|hits| hits > 0), "{:?}", search.lines);
    assert!(!search.lines.iter().any(|l| l.contains("still loading")), "{:?}", search.lines);
}

#[test]
fn a_script_that_sends_isready_after_a_setting_searches_with_it() {
    // The lines after an `isready` that waits for a setting wait with it.
    let output = piped(&format!(
        "setoption name SyzygyPath value {}\nisready\nposition fen 8/8/8/4k3/8/8/8/R3K3 w - - 0 1\ngo depth 6\n",
        syzygy_dir()
    ));
    let ready = output.lines().position(|l| l == "readyok").expect("readyok");
    let loaded = output.lines().position(|l| l.contains("table files")).expect("the tables load");
    assert!(loaded < ready, "{output}");
    assert!(!output.contains("still loading"), "{output}");
    assert!(output.lines().any(|l| l.contains(" tbhits ") && !l.contains(" tbhits 0 ")), "{output}");
    assert_eq!(output.lines().filter(|l| l.starts_with("bestmove")).count(), 1, "{output}");
}

#[test]
fn isready_is_answered_at_once_during_searches_and_jobs() {
    let bound = timing(STRICT_LATENCY, GENEROUS_LATENCY);
    for busy in ["go infinite", "go perft 7", "bench 30"] {
        let measure = || {
            let mut engine = EngineProcess::spawn();
            engine.send("position startpos");
            engine.send(busy);
            std::thread::sleep(std::time::Duration::from_millis(300));
            engine.send("isready");
            let (_, took) = engine.expect_line(|l| l == "readyok", QUICK);
            engine.send("stop");
            took
        };
        let first = measure();
        assert_latency(&format!("isready during {busy} (bound {bound:?})"), first, measure);
    }
}

#[test]
fn quit_cuts_a_job_short_and_says_so() {
    let output = piped("position startpos\ngo perft 5\nquit\n");
    assert!(output.contains("info string perft stopped:"), "{output}");
    assert!(output.contains("the count is incomplete"), "{output}");
}

#[test]
fn end_of_input_lets_a_job_finish() {
    let output = piped("position startpos\ngo perft 4\n");
    assert!(output.contains("Nodes searched: 197281"), "{output}");
}

#[test]
fn quit_and_end_of_input_stop_a_search_that_still_answers() {
    for ending in ["quit\n", ""] {
        for go in ["go depth 30", "go infinite", "go wtime 60000 btime 60000"] {
            let output = piped(&format!("position startpos\n{go}\n{ending}"));
            let answers: Vec<&str> = output.lines().filter(|l| l.starts_with("bestmove")).collect();
            assert_eq!(answers.len(), 1, "{go} then {ending:?}: {output}");
            assert_ne!(answers[0], "bestmove 0000", "{output}");
        }
    }
}

#[test]
fn quit_during_ponder_answers_the_ponder_search() {
    let mut engine = EngineProcess::spawn();
    engine.send("setoption name Ponder value true");
    engine.send("position startpos moves e2e4");
    engine.send("go ponder wtime 60000 btime 60000");
    engine.expect_line(|l| l.starts_with("info depth"), QUICK);
    engine.send("quit");
    engine.expect_line(|l| l.starts_with("bestmove "), QUICK);
    assert!(engine.wait_exit(QUICK).is_some_and(|status| status.success()));
}

#[test]
fn a_finite_go_given_as_an_argument_runs_to_its_limit() {
    let output = patina(&["position startpos", "go depth 9"]);
    let text = String::from_utf8(output.stdout).expect("utf-8");
    assert!(output.status.success());
    assert!(text.lines().any(|l| l.starts_with("info depth 9 ")), "{text}");
    assert_eq!(text.lines().filter(|l| l.starts_with("bestmove")).count(), 1, "{text}");
    // The lines after it wait for it too, and `go infinite` ends with the arguments.
    let output = patina(&["position startpos", "go depth 8", "go infinite"]);
    let text = String::from_utf8(output.stdout).expect("utf-8");
    assert!(output.status.success());
    assert!(text.lines().any(|l| l.starts_with("info depth 8 ")), "{text}");
    assert_eq!(text.lines().filter(|l| l.starts_with("bestmove")).count(), 2, "{text}");
}

#[test]
fn a_script_piped_in_runs_its_searches_in_turn() {
    // The end of input stops only the last search, as if the lines had been typed.
    let output = piped("position startpos\ngo depth 9\nposition startpos moves e2e4\ngo depth 30\n");
    assert!(output.lines().any(|l| l.starts_with("info depth 9 ")), "{output}");
    assert_eq!(output.lines().filter(|l| l.starts_with("bestmove")).count(), 2, "{output}");
}
