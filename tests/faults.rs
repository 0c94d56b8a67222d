//! GUI faults and hostile input against the real binary: a GUI that dies mid-search, `quit`
//! and end of input in every phase, a GUI that abandons a ponder search without `stop`, a
//! `Hash` the machine cannot give, and the `Debug Log File` option.
//!
//! The wall-clock bounds here are hang detectors (seconds where milliseconds are expected),
//! not speed assertions.

mod common;

use common::{path_str, scratch, EngineProcess, QUICK, SEARCH};
use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;
use std::time::{Duration, Instant};

/// Long enough for any shutdown on a loaded machine (a 512 MiB table queued before `quit` took
/// over 5 s to clear at nice 19 beside a match); a hang would last forever.
const EXIT_BOUND: Duration = Duration::from_secs(20);

#[test]
fn closed_stdout_mid_search_ends_the_engine() {
    let mut child = common::engine_command().stderr(Stdio::null()).spawn().expect("start patina");
    let mut stdin = child.stdin.take().expect("piped stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
    writeln!(stdin, "position startpos\ngo infinite").expect("write");
    stdin.flush().expect("flush");
    let mut first = String::new();
    stdout.read_line(&mut first).expect("first info line");
    assert!(first.starts_with("info"), "got {first:?}");
    // The GUI dies: its end of our stdout closes, while our stdin stays open.
    drop(stdout);
    let closed = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("try_wait") {
            eprintln!("exited {:.0} ms after stdout closed: {status}", closed.elapsed().as_secs_f64() * 1e3);
            break;
        }
        if closed.elapsed() > EXIT_BOUND {
            let _ = child.kill();
            panic!("still searching {EXIT_BOUND:?} after its stdout was closed");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    drop(stdin);
}

/// Runs `setup`, then ends the conversation with `quit` or end of input; the engine must exit.
fn exits_from(setup: &[&str], by_quit: bool) {
    let mut engine = EngineProcess::spawn();
    for line in setup {
        engine.send(line);
    }
    if by_quit {
        engine.send("quit");
    } else {
        engine.close_stdin();
    }
    let status = engine.wait_exit(EXIT_BOUND).unwrap_or_else(|| panic!("no exit after {setup:?}"));
    assert!(status.success(), "after {setup:?}: {status:?}");
}

#[test]
fn quit_and_end_of_input_end_every_phase() {
    let phases: [&[&str]; 5] = [
        &[],
        &["uci", "isready", "position startpos moves e2e4"],
        &["position startpos", "go infinite"],
        &[
            "setoption name Ponder value true",
            "position startpos moves e2e4",
            "go ponder wtime 60000 btime 60000",
        ],
        // While a table is being allocated (the commands queue behind it).
        &["setoption name Hash value 512", "setoption name Hash value 256"],
    ];
    for phase in phases {
        exits_from(phase, true);
        exits_from(phase, false);
    }
}

#[test]
fn stop_in_every_phase_leaves_the_engine_answering() {
    let mut engine = EngineProcess::spawn();
    engine.send("stop");
    engine.assert_ready();
    engine.send("setoption name Hash value 256");
    engine.send("stop");
    engine.assert_ready();
    engine.send("position startpos");
    engine.send("go ponder wtime 1000 btime 1000");
    engine.send("stop");
    engine.expect_line(|l| l.starts_with("bestmove"), QUICK);
    engine.send("stop");
    engine.assert_ready();
}

#[test]
fn new_position_and_go_without_stop_abandon_a_ponder_search() {
    let mut engine = EngineProcess::spawn();
    engine.send("setoption name Ponder value true");
    engine.send("position startpos moves e2e4 e7e5");
    engine.send("go ponder wtime 30000 btime 30000");
    engine.expect_line(|l| l.starts_with("info depth"), QUICK);
    // The opponent played something else; this GUI says so without `stop`.
    engine.send("position startpos moves e2e4 e7e5 g1f3 b8c6");
    engine.send("go wtime 30000 btime 30000 movestogo 40");
    let legal = {
        let mut probe = EngineProcess::spawn();
        probe.send("position startpos moves e2e4 e7e5 g1f3 b8c6");
        probe.legal_moves()
    };
    let lines = engine.lines_until(|l| l.starts_with("bestmove"), SEARCH);
    let bestmove = lines.last().expect("a bestmove");
    let played = bestmove.split_whitespace().nth(1).expect("a move");
    assert!(legal.contains(played), "{played} is not legal after ...Nc6");
    // Exactly one bestmove: the abandoned ponder search printed none.
    assert_eq!(lines.iter().filter(|l| l.starts_with("bestmove")).count(), 1);
    engine.assert_ready();
    assert!(engine.lines_during(Duration::from_millis(300)).iter().all(|l| !l.starts_with("bestmove")));
}

#[test]
fn a_hash_beyond_the_machine_is_refused_and_the_old_table_kept() {
    let mut engine = EngineProcess::spawn();
    engine.send("setoption name Hash value 8");
    engine.assert_ready();
    // 256 GiB: the option's maximum, and more than any CI machine has.
    engine.send("setoption name Hash value 262144");
    let (line, _) = engine.expect_line(|l| l.starts_with("info string error"), SEARCH);
    assert!(line.contains("cannot allocate 262144 MiB") && line.contains("keeping 8 MiB"), "{line}");
    engine.send("uci");
    let (option, _) = engine.expect_line(|l| l.starts_with("option name Hash"), QUICK);
    assert!(option.contains("default 8 "), "the old size stays: {option}");
    engine.expect_line(|l| l == "uciok", QUICK);
    engine.send("position startpos");
    let search = engine.go("go depth 6", SEARCH);
    assert_ne!(search.bestmove, "0000");
}

#[test]
fn heartbeat_reports_progress_during_a_long_quiet_search() {
    let mut engine = EngineProcess::spawn();
    engine.send(&format!(
        "position fen {}",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    ));
    engine.send("go infinite");
    // Later iterations take seconds each; a progress line fills every quiet second, so the GUI
    // never sees a long silence (and a dead GUI is noticed by the failed write).
    let start = Instant::now();
    let mut last_line = Instant::now();
    let mut longest_gap = Duration::ZERO;
    let mut progress_lines = 0;
    while start.elapsed() < Duration::from_secs(6) {
        let line = engine.next_line(Duration::from_secs(3)).expect("three seconds without output");
        longest_gap = longest_gap.max(last_line.elapsed());
        last_line = Instant::now();
        if line.starts_with("info nodes") {
            assert!(common::field(&line, "nodes").unwrap() > 0 && line.contains(" time "), "{line}");
            progress_lines += 1;
        }
    }
    engine.send("stop");
    engine.expect_line(|l| l.starts_with("bestmove"), QUICK);
    eprintln!("longest silence {longest_gap:?}, {progress_lines} progress lines");
    // One second of silence plus a 250 ms tick, with slack for a loaded CI machine.
    assert!(longest_gap < Duration::from_millis(2000), "silent for {longest_gap:?}");
}

#[test]
fn debug_log_file_records_both_directions_with_timestamps() {
    let dir = scratch("faults", "debuglog");
    let path = dir.join("session.log");
    let mut engine = EngineProcess::spawn();
    engine.send(&format!("setoption name Debug Log File value {}", path_str(&path)));
    engine.send("position startpos");
    engine.go("go depth 3", SEARCH);
    engine.send("bogus");
    engine.expect_line(|l| l.starts_with("info string error"), QUICK);
    engine.send("setoption name Debug Log File value <empty>");
    engine.assert_ready();
    let log = std::fs::read_to_string(&path).expect("the log was written");
    assert!(log.contains(">> go depth 3") && log.contains(">> bogus"), "{log}");
    assert!(log.lines().any(|l| l.contains("<< bestmove ")), "{log}");
    assert!(log.contains("<< info string error: unknown command 'bogus'"), "{log}");
    for line in log.lines() {
        let (stamp, _) = line.split_once(' ').expect("timestamp first");
        assert!(stamp.len() == 24 && stamp.ends_with('Z') && stamp.as_bytes()[10] == b'T', "{line}");
    }
    // Off again: nothing more is appended.
    let length = log.len();
    engine.send("isready");
    engine.expect_line(|l| l == "readyok", QUICK);
    engine.send("quit");
    engine.wait_exit(EXIT_BOUND).expect("exit");
    assert_eq!(std::fs::read_to_string(&path).unwrap().len(), length);
}

#[test]
fn an_unwritable_debug_log_path_is_an_error_and_changes_nothing() {
    let mut engine = EngineProcess::spawn();
    engine.send("setoption name Debug Log File value /nonexistent-dir/patina.log");
    let (line, _) = engine.expect_line(|l| l.starts_with("info string error"), QUICK);
    assert!(line.contains("/nonexistent-dir/patina.log"), "{line}");
    engine.send("uci");
    let (option, _) = engine.expect_line(|l| l.starts_with("option name Debug Log File"), QUICK);
    assert_eq!(option, "option name Debug Log File type string default <empty>");
    engine.expect_line(|l| l == "uciok", QUICK);
    engine.send("position startpos");
    assert_ne!(engine.go("go depth 2", SEARCH).bestmove, "0000");
}

#[test]
fn a_ten_megabyte_line_and_five_thousand_plies_are_handled() {
    let mut engine = EngineProcess::spawn();
    engine.send(&"position startpos moves e2e4 ".repeat(10 << 20 >> 5));
    engine.expect_line(|l| l.starts_with("info string error"), SEARCH);
    engine.assert_ready();
    let shuffle = "g1f3 g8f6 f3g1 f6g8 ".repeat(1250);
    engine.send(&format!("position startpos moves {shuffle}"));
    engine.assert_ready();
    let search = engine.go("go depth 4", SEARCH);
    assert_ne!(search.bestmove, "0000");
}

#[test]
fn extreme_clock_values_do_not_crash_the_engine() {
    // The fuzzer found these overflowing the time plan (a panic where overflow checks are on).
    let mut engine = EngineProcess::spawn();
    engine.send("position startpos");
    let legal = engine.legal_moves();
    for go in [
        "go wtime 9223372036854775807 btime 0 winc 0 binc 0 movestogo 0",
        "go movetime -9223372036854775808",
        "go wtime 1000 winc 9223372036854775807",
        "go wtime 1000 winc -9223372036854775808",
    ] {
        engine.send(go);
        engine.send("stop");
        let (line, _) = engine.expect_line(|l| l.starts_with("bestmove"), QUICK);
        let best = line.split_whitespace().nth(1).unwrap_or("");
        assert!(legal.contains(best), "{go}: bestmove {best} is not legal");
        engine.assert_ready();
    }
}
