//! The UCI handshake and the end of a conversation: `uci` lists every option, and `quit` or the
//! end of input during a search exit cleanly and promptly.

mod common;

use common::uci::*;
use common::{assert_exit_within, EngineProcess, QUICK};

// 1. Handshake.

#[test]
fn handshake_lists_identity_and_every_option() {
    let mut engine = EngineProcess::spawn();
    engine.send("uci");
    let lines = engine.lines_until(|l| l == "uciok", QUICK);
    assert!(lines[0].starts_with("id name Patina"), "{lines:?}");
    assert!(lines[1].starts_with("id author "), "{lines:?}");
    let options: Vec<&str> = lines.iter().map(String::as_str).filter(|l| l.starts_with("option ")).collect();
    assert_eq!(
        options,
        vec![
            "option name Hash type spin default 16 min 1 max 262144",
            "option name Threads type spin default 1 min 1 max 256",
            "option name MultiPV type spin default 1 min 1 max 256",
            "option name Ponder type check default false",
            "option name Move Overhead type spin default 10 min 0 max 5000",
            "option name Clear Hash type button",
            "option name UCI_Chess960 type check default false",
            "option name UCI_ShowWDL type check default false",
            "option name UCI_LimitStrength type check default false",
            "option name UCI_Elo type spin default 1800 min 1300 max 2550",
            "option name Debug Log File type string default <empty>",
            "option name SyzygyPath type string default <empty>",
            "option name SyzygyProbeDepth type spin default 1 min 1 max 100",
            "option name SyzygyProbeLimit type spin default 7 min 0 max 7",
            "option name Syzygy50MoveRule type check default true",
            "option name EvalFile type string default <empty>",
        ]
    );
    assert_eq!(lines.len(), 2 + options.len() + 1, "only id, option and uciok lines: {lines:?}");
    engine.assert_ready();
}

// 9. Shutdown.

#[test]
fn quit_during_infinite_search_exits_cleanly() {
    let mut engine = EngineProcess::spawn();
    engine.send("position startpos");
    engine.send("go infinite");
    engine.expect_line(|l| l.starts_with("info depth"), QUICK);
    engine.send("quit");
    assert_exit_within(&mut engine, "quit during go infinite");
}

#[test]
fn end_of_input_during_search_exits_cleanly() {
    let mut engine = EngineProcess::spawn();
    engine.send(&format!("position fen {KIWIPETE}"));
    engine.send("go infinite");
    engine.expect_line(|l| l.starts_with("info depth"), QUICK);
    engine.close_stdin();
    assert_exit_within(&mut engine, "end of input during go infinite");
}
