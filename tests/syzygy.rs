//! Syzygy tablebases through the real binary: won endings are converted and drawn ones held
//! against a Patina without tables, a table root is searched (a line, a ponder move, the
//! tables' result as the score), the options are declared and validated, searches report
//! `tbhits`, and missing or corrupt files are errors that never stop the engine.
//!
//! The tables in tests/data/syzygy are the 3- and 4-piece files these positions need (every
//! capture and promotion included, KRPvK's promotions aside: its positions here keep the pawn
//! short of the seventh rank), copied from the standard Syzygy set.

mod common;

use common::{field, path_str, pv, score, scratch, EngineProcess, QUICK, SEARCH};
use patina::position::Position;
use patina::rules::{self, Reason, Score};
use patina::tablebase::{Outcome, Tablebases};
use shakmaty::Color;

fn tables_dir() -> String {
    concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy").to_string()
}

fn with_tables() -> EngineProcess {
    let mut engine = EngineProcess::spawn();
    engine.send(&format!("setoption name SyzygyPath value {}", tables_dir()));
    let (line, _) = engine.expect_line(|l| l.starts_with("info string"), QUICK);
    assert!(line.starts_with("info string SyzygyPath: 16 table files, up to 4 pieces"), "{line}");
    engine
}

/// The tables' own verdict for the side to move, so each test states a checked fact.
fn table_outcome(fen: &str) -> Outcome {
    let tables = Tablebases::load(&tables_dir()).expect("test tables");
    let pos = Position::from_fen(fen, false).expect("test FEN");
    tables.root_move(pos.chess(), true).expect("a tablebase position").outcome
}

/// Plays `fen` out: Patina with tables for `tb_side`, Patina without (20k nodes a move) for the
/// other side, until the rules end the game or `max_plies` pass. Returns the verdict.
fn play_out(fen: &str, tb_side: Color, max_plies: usize) -> rules::Verdict {
    let mut tb = with_tables();
    let mut plain = EngineProcess::spawn();
    let mut pos = Position::from_fen(fen, false).expect("test FEN");
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..max_plies {
        let verdict = rules::judge(&pos);
        if verdict.is_over() {
            return verdict;
        }
        let engine = if pos.turn() == tb_side { &mut tb } else { &mut plain };
        engine.send(&format!("position fen {fen} moves {}", moves.join(" ")));
        let search = engine.go("go nodes 20000", SEARCH);
        let played = pos.parse_uci_move(&search.bestmove).unwrap_or_else(|_| {
            panic!("illegal {} after {moves:?}", search.bestmove);
        });
        pos.play_game_move(played);
        moves.push(search.bestmove);
    }
    rules::judge(&pos)
}

fn winner(side: Color) -> Score {
    match side {
        Color::White => Score::WhiteWins,
        Color::Black => Score::BlackWins,
    }
}

#[test]
fn won_endings_are_converted_to_mate() {
    let wins = [
        ("8/8/8/4k3/8/8/8/KR6 w - - 0 1", Color::White),
        ("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1", Color::White),
        ("8/8/8/8/3k4/8/6r1/K6Q w - - 0 1", Color::White),
        ("8/2q5/8/8/3K4/8/k7/6R1 b - - 0 1", Color::Black),
    ];
    for (fen, side) in wins {
        assert_eq!(table_outcome(fen), Outcome::Win, "{fen} is a win for the side to move");
        let verdict = play_out(fen, side, 200);
        assert_eq!((verdict.score, verdict.reason), (winner(side), Reason::Checkmate), "{fen}: {verdict}");
    }
}

#[test]
fn drawn_endings_are_held() {
    let draws = [
        // The defender's king stands in front of the pawn.
        ("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1", Color::Black),
        ("8/8/3k4/8/8/3K4/r7/7R w - - 0 1", Color::White),
        ("8/8/3k4/8/8/3K4/r7/7R b - - 0 1", Color::Black),
    ];
    for (fen, side) in draws {
        assert_eq!(table_outcome(fen), Outcome::Draw, "{fen} is a draw");
        let verdict = play_out(fen, side, 120);
        assert_ne!(verdict.score, winner(!side), "{fen}: the defender lost: {verdict}");
    }
}

/// Whether `score` (`cp N` or `mate N`) is a win: a tablebase win (at least 20,000 cp) or a mate.
fn is_win_score(score: &str) -> bool {
    match score.split_once(' ') {
        Some(("cp", cp)) => cp.parse::<i32>().is_ok_and(|cp| cp >= 20_000),
        Some(("mate", moves)) => moves.parse::<i32>().is_ok_and(|moves| moves > 0),
        _ => false,
    }
}

#[test]
fn a_won_table_root_is_searched_for_a_line_and_a_ponder_move() {
    let tables = Tablebases::load(&tables_dir()).expect("test tables");
    for fen in [
        // KRvK and KRPvK: `info depth 1 ... nodes 1 ... pv c3b2` and no ponder move before.
        "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
        "8/8/8/3k4/8/2K5/2P5/7R w - - 0 1",
    ] {
        assert_eq!(table_outcome(fen), Outcome::Win, "{fen} is a win for the side to move");
        let mut engine = with_tables();
        engine.send(&format!("position fen {fen}"));
        let search = engine.go("go depth 10", SEARCH);
        let last = *search.infos().last().expect("an info line");
        assert!(field(last, "depth").is_some_and(|depth| depth >= 5), "{fen}: {last}");
        assert!(pv(last).len() >= 5, "{fen}: a line of 5 plies or more: {last}");
        assert!(is_win_score(&score(last)), "{fen}: {last}");
        assert!(field(last, "tbhits").is_some_and(|hits| hits >= 1), "{fen}: {last}");
        assert_eq!(pv(last)[0], search.bestmove, "{fen}: {last}");
        assert_eq!(search.ponder.as_deref(), Some(pv(last)[1]), "{fen}: {last}");
        // The move played keeps the win, by the tables.
        let pos = Position::from_fen(fen, false).expect("test FEN");
        let played = pos.parse_uci_move(&search.bestmove).expect("a legal bestmove");
        let ranked = tables.rank_root_moves(pos.chess(), &[played], true, false).expect("ranked");
        assert_eq!(ranked[0].outcome, Outcome::Win, "{fen}: {}", search.bestmove);
    }
}

#[test]
fn near_the_fifty_move_rule_a_table_root_plays_the_shortest_way_to_progress() {
    let tables = Tablebases::load(&tables_dir()).expect("test tables");
    // 70 plies without a capture or pawn move, and the mate 27 plies away: the rook still
    // wins, but only by the two moves that keep it 27 plies away (the others take 29, which
    // would still do, leaving one ply to spare: too close).
    let fen = "8/8/8/3k4/8/8/8/R3K3 w - - 70 60";
    let pos = Position::from_fen(fen, false).expect("test FEN");
    let legal = pos.legal_moves().to_vec();
    let ranked = tables.rank_root_moves(pos.chess(), &legal, true, false).expect("ranked");
    assert_eq!(ranked[0].outcome, Outcome::Win, "{fen} still wins: {ranked:?}");
    let shortest = ranked.iter().filter_map(|r| r.dtz).min().expect("distances");
    assert_eq!(shortest, 27);
    assert!(ranked.iter().filter(|r| r.outcome == Outcome::Win).count() > 2, "{ranked:?}");
    let mut engine = with_tables();
    engine.send(&format!("position fen {fen}"));
    let search = engine.go("go depth 8", SEARCH);
    let played = pos.parse_uci_move(&search.bestmove).expect("a legal bestmove");
    let chosen = ranked.iter().find(|r| r.mv == played).expect("a ranked move");
    assert_eq!((chosen.outcome, chosen.dtz), (Outcome::Win, Some(shortest)), "{}", search.bestmove);
    assert!(is_win_score(&score(search.infos().last().expect("an info line"))), "{:?}", search.lines);
}

#[test]
fn searches_report_tbhits_and_options_are_declared() {
    let mut engine = with_tables();
    // Five pieces: captures lead into the four-piece tables.
    engine.send("position fen 8/8/3k4/8/2r5/3K4/1R6/4R3 w - - 0 1");
    let search = engine.go("go depth 10", SEARCH);
    let hits = common::field(search.infos().last().expect("an info line"), "tbhits").expect("tbhits field");
    assert!(hits > 0, "no probe answered: {:?}", search.infos().last());
    engine.send("uci");
    let lines = engine.lines_until(|l| l == "uciok", QUICK);
    let path_line = format!("option name SyzygyPath type string default {}", tables_dir());
    for expected in [
        path_line.as_str(),
        "option name SyzygyProbeDepth type spin default 1 min 1 max 100",
        "option name SyzygyProbeLimit type spin default 7 min 0 max 7",
        "option name Syzygy50MoveRule type check default true",
    ] {
        assert!(lines.iter().any(|l| l == expected), "missing '{expected}' in {lines:?}");
    }
    engine.send("setoption name SyzygyProbeLimit value 8");
    engine.expect_line(|l| l.starts_with("info string error") && l.contains("out of range"), QUICK);
    // Limit 0 turns the tables off: the position is searched, not looked up.
    engine.send("setoption name SyzygyProbeLimit value 0");
    engine.send("position fen 8/8/8/4k3/8/8/8/KR6 w - - 0 1");
    let search = engine.go("go depth 6", SEARCH);
    assert!(search.infos().iter().any(|l| l.contains("depth 6")), "{:?}", search.lines);
}

#[test]
fn missing_and_corrupt_tables_are_errors_not_crashes() {
    let mut engine = EngineProcess::spawn();
    engine.send("setoption name SyzygyPath value /no/such/folder");
    let (line, _) = engine.expect_line(|l| l.starts_with("info string"), QUICK);
    assert!(line.starts_with("info string error: SyzygyPath") && line.contains("/no/such/folder"), "{line}");

    // A table whose size is impossible is refused, by name, when the path is set.
    let bad_size = scratch("syzygy", "badsize");
    std::fs::write(bad_size.join("KRvK.rtbw"), [0u8; 100]).unwrap();
    engine.send(&format!("setoption name SyzygyPath value {}", path_str(&bad_size)));
    let (line, _) = engine.expect_line(|l| l.starts_with("info string"), QUICK);
    assert!(line.starts_with("info string error: SyzygyPath") && line.contains("KRvK.rtbw"), "{line}");

    // Garbage of a plausible size is only found out when probed: reported, then ignored.
    let garbage = scratch("syzygy", "garbage");
    for name in ["KRvK.rtbw", "KRvK.rtbz"] {
        std::fs::write(garbage.join(name), vec![0x5au8; 64 * 10 + 16]).unwrap();
    }
    engine.send(&format!("setoption name SyzygyPath value {}", path_str(&garbage)));
    engine.expect_line(|l| l.starts_with("info string SyzygyPath: 2 table files"), QUICK);
    engine.send("position fen 8/8/8/4k3/8/8/8/KR6 w - - 0 1");
    let search = engine.go("go depth 6", SEARCH);
    assert!(search.lines.iter().any(|l| l.starts_with("info string error: Syzygy")), "{:?}", search.lines);
    let legal = engine.legal_moves();
    assert!(legal.contains(&search.bestmove), "{} is legal", search.bestmove);
    engine.assert_ready();
}
