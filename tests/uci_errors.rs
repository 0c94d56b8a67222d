//! Bad input: every malformed or illegal line gets an `info string error` naming the problem,
//! changes nothing it should not, and the engine carries on (a malformed `go` still gets its one
//! `bestmove`, a rejected `position` leaves none).

mod common;

use common::uci::*;
use common::{field, EngineProcess, QUICK, SEARCH};
use std::collections::BTreeSet;

// 8. Bad input: an error naming the problem, and the engine carries on.

#[test]
fn unknown_command_is_reported_and_ignored() {
    let mut engine = EngineProcess::spawn();
    engine.send("fly to the moon");
    expect_error(&mut engine, &["unknown command", "'fly'"]);
    checked_go(&mut engine, "position startpos", "go depth 3");
    // The position survives an unknown command.
    engine.send("position startpos moves e2e4");
    engine.send("frobnicate");
    expect_error(&mut engine, &["'frobnicate'"]);
    let legal = engine.legal_moves();
    assert!(legal.contains("e7e5") && !legal.contains("e2e4"), "still black to move after 1. e4: {legal:?}");
    let search = engine.go("go depth 3", SEARCH);
    assert!(legal.contains(&search.bestmove), "bestmove {} not legal", search.bestmove);
    engine.assert_ready();
}

#[test]
fn bad_fens_are_rejected_and_go_refuses_until_a_valid_position() {
    let mut engine = EngineProcess::spawn();
    let cases: [(&str, &[&str]); 10] = [
        ("position fen garbage here", &["invalid fen", "'garbage here'"]),
        ("position fen", &["'fen' needs a FEN"]),
        ("position", &["expected 'startpos' or 'fen"]),
        ("position startpos e2e4", &["unexpected 'e2e4'"]),
        ("position endgame", &["'endgame'"]),
        ("position fen 8/8/8/8/8/8/8/8 w - - 0 1", &["invalid fen", "king"]),
        ("position fen 4k3/8/8/8/8/8/8/K3K3 w - - 0 1", &["invalid fen", "more than one king"]),
        ("position fen 4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", &["invalid fen", "side not to move is in check"]),
        (
            "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
            &["invalid fen", "halfmove"],
        ),
        (
            "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -3",
            &["invalid fen", "fullmove"],
        ),
    ];
    for (command, fragments) in cases {
        engine.send(command);
        expect_error(&mut engine, fragments);
        assert_position_rejected_then_recover(&mut engine);
    }
}

#[test]
fn bad_moves_are_rejected_with_token_and_ply() {
    let mut engine = EngineProcess::spawn();
    engine.send("position startpos moves e2e4 e7e5 e1e3 b8c6");
    expect_error(&mut engine, &["illegal move 'e1e3'", "ply 3"]);
    assert_position_rejected_then_recover(&mut engine);

    engine.send("position startpos moves e2e4 zz99");
    expect_error(&mut engine, &["unparsable move 'zz99'", "ply 2"]);
    assert_position_rejected_then_recover(&mut engine);

    // All or nothing: the legal prefix of a rejected move list is not applied either.
    engine.send("position startpos moves e2e4 e7e5");
    engine.send("position startpos moves d2d4 d7d5 d4d5");
    expect_error(&mut engine, &["'d4d5'", "ply 3"]);
    engine.send("result");
    expect_error(&mut engine, &["no valid position"]);
    assert_position_rejected_then_recover(&mut engine);
}

#[test]
fn bad_setoption_keeps_the_old_value() {
    let mut engine = EngineProcess::spawn();
    expect_each_rejected(
        &mut engine,
        &[
            ("setoption name Hash value 0", &["'Hash'", "out of range"]),
            ("setoption name Hash value abc", &["'Hash'", "'abc'"]),
            ("setoption name Nonsense value 3", &["unknown option 'Nonsense'"]),
            ("setoption name MultiPV value 0", &["'MultiPV'", "out of range"]),
            ("setoption name Ponder value maybe", &["'Ponder'", "'maybe'"]),
        ],
    );
    let search = checked_go(&mut engine, "position startpos", "go depth 4");
    let numbers: BTreeSet<i64> = search.infos().iter().filter_map(|l| field(l, "multipv")).collect();
    assert_eq!(numbers, BTreeSet::from([1]), "MultiPV 0 was rejected: still one line");

    // A value that differs from the default makes "kept" observable.
    engine.send("setoption name MultiPV value 2");
    engine.assert_ready();
    engine.send("setoption name MultiPV value 0");
    expect_error(&mut engine, &["out of range"]);
    engine.send("setoption name MultiPV value abc");
    expect_error(&mut engine, &["'abc'"]);
    let search = checked_go(&mut engine, "position startpos", "go depth 4");
    let numbers: Vec<i64> = search.last_iteration().iter().filter_map(|l| field(l, "multipv")).collect();
    assert_eq!(numbers, vec![1, 2], "MultiPV stays 2 after rejected values");
}

#[test]
fn malformed_go_gets_an_error_and_exactly_one_bestmove() {
    let mut engine = EngineProcess::spawn();
    engine.send("position startpos");
    for (go, fragment) in [
        ("go depth abc", "'abc'"),
        ("go wtime", "'wtime' needs a value"),
        ("go sideways", "'sideways'"),
        ("go depth -2", "'-2'"),
        ("go mate 0", "'mate'"),
    ] {
        let lines = unanswerable_go(&mut engine, go);
        assert_eq!(lines.len(), 1, "{go}: {lines:?}");
        assert!(
            lines[0].starts_with("info string error: ") && lines[0].contains(fragment),
            "{go}: {lines:?}"
        );
    }
    // The position was kept.
    let search = checked_go(&mut engine, "position startpos", "go depth 3");
    assert_eq!(search.last_depth(), 3);
}

#[test]
fn blank_lines_and_huge_garbage_are_survived() {
    let mut engine = EngineProcess::spawn();
    for blank in ["", "   ", "\t", "\r"] {
        engine.send(blank);
    }
    engine.assert_ready(); // Nothing was printed for the blank lines.
    engine.send("isready\r");
    assert_eq!(engine.next_line(QUICK).as_deref(), Some("readyok"), "CRLF line endings are accepted");

    let mut huge = String::from("garbage");
    while huge.len() < 1 << 20 {
        huge.push_str(" xyzzy");
    }
    engine.send(&huge);
    let line = expect_error(&mut engine, &["unknown command 'garbage'"]);
    assert!(line.len() < 200, "the error names the token, not the whole line");
    engine.assert_ready();
    // A megabyte inside a known command.
    let huge_go = format!("go depth 3 {}", "x".repeat(1 << 20));
    let lines = unanswerable_go(&mut engine, &huge_go);
    assert_eq!(lines.len(), 1);
    checked_go(&mut engine, "position startpos", "go depth 3");
}
